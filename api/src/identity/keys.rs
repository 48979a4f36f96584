//! The server's own JWT signing keys (Ed25519), generated on first start and kept in the data dir.
//!
//! Tokens are signed with the newest key; every key in the set still verifies, so rotating
//! (`acc keys rotate`) never signs anyone out. A token's `kid` is looked up only in this set:
//! a token naming any other key, or any other algorithm, is refused.

use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("signing keys at {path}: {message}")]
    Store { path: PathBuf, message: String },
    #[error("token is invalid: {0}")]
    InvalidToken(String),
}

#[derive(Serialize, Deserialize)]
struct StoredKey {
    kid: String,
    created_at: chrono::DateTime<chrono::Utc>,
    /// PKCS#8 DER, base64.
    private_key: String,
}

#[derive(Serialize, Deserialize, Default)]
struct StoredKeySet {
    keys: Vec<StoredKey>,
}

struct LoadedKey {
    kid: String,
    encoding: EncodingKey,
    decoding: DecodingKey,
    public: [u8; 32],
}

pub struct SigningKeys {
    /// Newest last; the last one signs.
    keys: Vec<LoadedKey>,
}

pub const ISSUER: &str = "acc";

impl SigningKeys {
    fn path(data_dir: &Path) -> PathBuf {
        data_dir.join("keys").join("jwt-signing-keys.json")
    }

    /// Loads the key set, creating it with one fresh key if there is none.
    pub fn load_or_create(data_dir: &Path) -> Result<Self, KeyError> {
        let path = Self::path(data_dir);
        if !path.exists() {
            Self::rotate(data_dir)?;
        }
        let err = |message: String| KeyError::Store { path: path.clone(), message };
        let text = std::fs::read_to_string(&path).map_err(|e| err(e.to_string()))?;
        let stored: StoredKeySet = serde_json::from_str(&text).map_err(|e| err(e.to_string()))?;
        let keys = stored
            .keys
            .iter()
            .map(|k| {
                let der = STANDARD.decode(&k.private_key).map_err(|e| err(e.to_string()))?;
                let signing = SigningKey::from_pkcs8_der(&der).map_err(|e| err(e.to_string()))?;
                Ok(LoadedKey {
                    kid: k.kid.clone(),
                    encoding: EncodingKey::from_ed_der(&der),
                    decoding: DecodingKey::from_ed_der(signing.verifying_key().as_bytes()),
                    public: signing.verifying_key().to_bytes(),
                })
            })
            .collect::<Result<Vec<_>, KeyError>>()?;
        if keys.is_empty() {
            return Err(err("the key set is empty".into()));
        }
        Ok(Self { keys })
    }

    /// Adds a new signing key; older keys keep verifying the tokens they signed. Returns its kid.
    pub fn rotate(data_dir: &Path) -> Result<String, KeyError> {
        let path = Self::path(data_dir);
        let err = |message: String| KeyError::Store { path: path.clone(), message };
        let mut set: StoredKeySet = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| err(e.to_string()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => StoredKeySet::default(),
            Err(e) => return Err(err(e.to_string())),
        };
        let key = SigningKey::generate(&mut rand::rngs::OsRng);
        let der = key.to_pkcs8_der().map_err(|e| err(e.to_string()))?;
        let kid = uuid::Uuid::now_v7().simple().to_string();
        set.keys.push(StoredKey {
            kid: kid.clone(),
            created_at: chrono::Utc::now(),
            private_key: STANDARD.encode(der.as_bytes()),
        });
        let text = serde_json::to_string_pretty(&set).map_err(|e| err(e.to_string()))?;
        write_private_file(&path, text.as_bytes()).map_err(|e| err(e.to_string()))?;
        Ok(kid)
    }

    /// Every key's id and raw Ed25519 public key, for parties that verify our tokens themselves
    /// (connectors verify approval tokens).
    pub fn public_keys(&self) -> Vec<(String, [u8; 32])> {
        self.keys.iter().map(|k| (k.kid.clone(), k.public)).collect()
    }

    pub fn sign<T: Serialize>(&self, claims: &T) -> Result<String, KeyError> {
        let key = self.keys.last().ok_or_else(|| KeyError::InvalidToken("no key".into()))?;
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(key.kid.clone());
        jsonwebtoken::encode(&header, claims, &key.encoding).map_err(|e| KeyError::InvalidToken(e.to_string()))
    }

    /// Verifies signature, algorithm (EdDSA only), `kid` (ours only), issuer and expiry.
    pub fn verify<T: DeserializeOwned>(&self, token: &str) -> Result<T, KeyError> {
        let invalid = |m: &str| KeyError::InvalidToken(m.to_owned());
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid("malformed token"))?;
        if header.alg != Algorithm::EdDSA {
            return Err(invalid("unexpected signing algorithm"));
        }
        let kid = header.kid.ok_or_else(|| invalid("token names no key"))?;
        let key =
            self.keys.iter().find(|k| k.kid == kid).ok_or_else(|| invalid("token was not signed by this server"))?;
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        validation.leeway = 5;
        jsonwebtoken::decode::<T>(token, &key.decoding, &validation)
            .map(|data| data.claims)
            .map_err(|e| KeyError::InvalidToken(e.to_string()))
    }
}

/// Writes a file readable by its owner only.
pub fn write_private_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let tmp = path.with_extension("tmp");
    let mut file = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
    file.write_all(contents)?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Claims {
        sub: String,
        iss: String,
        exp: i64,
    }

    fn dir() -> PathBuf {
        std::env::temp_dir().join(format!("acc-keys-{}", uuid::Uuid::now_v7()))
    }

    fn claims(exp_in: i64) -> Claims {
        Claims { sub: "u".into(), iss: ISSUER.into(), exp: chrono::Utc::now().timestamp() + exp_in }
    }

    #[test]
    fn sign_verify_and_rotation_keeps_old_tokens_valid() {
        let dir = dir();
        let keys = SigningKeys::load_or_create(&dir).unwrap();
        let old = keys.sign(&claims(60)).unwrap();
        SigningKeys::rotate(&dir).unwrap();
        let keys = SigningKeys::load_or_create(&dir).unwrap();
        assert_eq!(keys.keys.len(), 2);
        let new = keys.sign(&claims(60)).unwrap();
        assert_ne!(jsonwebtoken::decode_header(&old).unwrap().kid, jsonwebtoken::decode_header(&new).unwrap().kid);
        assert_eq!(keys.verify::<Claims>(&old).unwrap().sub, "u");
        assert_eq!(keys.verify::<Claims>(&new).unwrap().sub, "u");
        let mode = std::fs::metadata(SigningKeys::path(&dir)).unwrap();
        assert_eq!(std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777, 0o600);
    }

    #[test]
    fn foreign_expired_and_alg_none_tokens_are_refused() {
        let keys = SigningKeys::load_or_create(&dir()).unwrap();
        let other = SigningKeys::load_or_create(&dir()).unwrap();
        assert!(keys.verify::<Claims>(&other.sign(&claims(60)).unwrap()).is_err());
        assert!(keys.verify::<Claims>(&keys.sign(&claims(-120)).unwrap()).is_err());
        let none = format!(
            "{}.{}.",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#),
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(serde_json::to_string(&claims(60)).unwrap())
        );
        assert!(keys.verify::<Claims>(&none).is_err());
    }
}
