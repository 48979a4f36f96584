//! The server's own JWT signing keys (Ed25519), generated on first start and kept in the data dir:
//! one key set for access tokens, another for approval tokens, so neither kind of token can ever
//! pass for the other and connectors receive only the approval set's public halves.
//!
//! Tokens are signed with a set's newest key. `acc keys rotate` adds a newer one; the server that
//! next starts signs with it and records when the one before stopped being current. A superseded
//! key keeps verifying for the longest lifetime of the tokens it signed (so rotating signs nobody
//! out), then it is retired: its tokens are refused, connectors no longer receive it, and the next
//! rotation removes it from the file. A token's `kid` is looked up only in its own set: a token
//! naming any other key, or any other algorithm, is refused.

use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Duration, Utc};
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

/// What a key set signs; each has its own file and its own keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPurpose {
    /// Access tokens (`Authorization: Bearer`), verified only by this server.
    Access,
    /// Approval tokens, verified by connectors with the set's public keys.
    Approval,
    /// Checkpoints of the audit trail. Its keys never retire: a checkpoint verifies for as long as
    /// the trail is kept.
    Audit,
}

impl KeyPurpose {
    pub const ALL: [KeyPurpose; 3] = [KeyPurpose::Access, KeyPurpose::Approval, KeyPurpose::Audit];

    fn file_name(self) -> &'static str {
        match self {
            // The name from before approval tokens had keys of their own, so data dirs keep theirs.
            KeyPurpose::Access => "jwt-signing-keys.json",
            KeyPurpose::Approval => "approval-signing-keys.json",
            KeyPurpose::Audit => "audit-signing-keys.json",
        }
    }

    /// What its keys sign, as a person says it.
    pub fn signs(self) -> &'static str {
        match self {
            KeyPurpose::Access => "access token",
            KeyPurpose::Approval => "approval token",
            KeyPurpose::Audit => "audit checkpoint",
        }
    }
}

/// How long past its `exp` a token still verifies, for clocks that differ a little.
const LEEWAY_SECONDS: u64 = 5;

#[derive(Serialize, Deserialize)]
struct StoredKey {
    kid: String,
    created_at: DateTime<Utc>,
    /// When a server first signed with a newer key instead; unset while the key is current.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    superseded_at: Option<DateTime<Utc>>,
    /// PKCS#8 DER, base64.
    private_key: String,
}

#[derive(Serialize, Deserialize, Default)]
struct StoredKeySet {
    keys: Vec<StoredKey>,
}

struct LoadedKey {
    kid: String,
    signing: SigningKey,
    encoding: EncodingKey,
    decoding: DecodingKey,
    public: [u8; 32],
    /// When its tokens stop verifying; never for the current key.
    retires_at: Option<DateTime<Utc>>,
}

pub struct SigningKeys {
    /// Newest last; the last one signs.
    keys: Vec<LoadedKey>,
}

pub const ISSUER: &str = "acc";

/// When a key superseded at `superseded_at` retires: once every token it signed has expired.
fn retirement(superseded_at: DateTime<Utc>, token_lifetime: std::time::Duration) -> DateTime<Utc> {
    let lifetime = Duration::from_std(token_lifetime).unwrap_or(Duration::MAX);
    superseded_at
        .checked_add_signed(lifetime)
        .and_then(|t| t.checked_add_signed(Duration::seconds(LEEWAY_SECONDS as i64)))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

fn path(data_dir: &Path, purpose: KeyPurpose) -> PathBuf {
    data_dir.join("keys").join(purpose.file_name())
}

fn read_set(path: &Path) -> Result<StoredKeySet, KeyError> {
    let err = |message: String| KeyError::Store { path: path.to_owned(), message };
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| err(e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(StoredKeySet::default()),
        Err(e) => Err(err(e.to_string())),
    }
}

fn write_set(path: &Path, set: &StoredKeySet) -> Result<(), KeyError> {
    let err = |message: String| KeyError::Store { path: path.to_owned(), message };
    let text = serde_json::to_string_pretty(set).map_err(|e| err(e.to_string()))?;
    write_private_file(path, text.as_bytes()).map_err(|e| err(e.to_string()))
}

fn new_key(path: &Path) -> Result<StoredKey, KeyError> {
    let key = SigningKey::generate(&mut rand::rngs::OsRng);
    let der = key.to_pkcs8_der().map_err(|e| KeyError::Store { path: path.to_owned(), message: e.to_string() })?;
    Ok(StoredKey {
        kid: uuid::Uuid::now_v7().simple().to_string(),
        created_at: Utc::now(),
        superseded_at: None,
        private_key: STANDARD.encode(der.as_bytes()),
    })
}

impl SigningKeys {
    /// Loads the key set for `purpose`, creating it with one fresh key if there is none, and starts
    /// signing with its newest key: an older key that was still current is superseded from now
    /// (written back to the file), so it verifies for one more `token_lifetime`.
    pub fn load_or_create(
        data_dir: &Path,
        purpose: KeyPurpose,
        token_lifetime: std::time::Duration,
    ) -> Result<Self, KeyError> {
        let path = path(data_dir, purpose);
        let err = |message: String| KeyError::Store { path: path.clone(), message };
        let mut stored = read_set(&path)?;
        let now = Utc::now();
        let mut changed = false;
        if stored.keys.is_empty() {
            stored.keys.push(new_key(&path)?);
            changed = true;
        }
        let newest = stored.keys.len() - 1;
        for key in &mut stored.keys[..newest] {
            if key.superseded_at.is_none() {
                key.superseded_at = Some(now);
                changed = true;
            }
        }
        if changed {
            write_set(&path, &stored)?;
        }
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
                    retires_at: k.superseded_at.map(|at| retirement(at, token_lifetime)),
                    signing,
                })
            })
            .collect::<Result<Vec<_>, KeyError>>()?;
        Ok(Self { keys })
    }

    /// Adds a new signing key for `purpose`, which the server signs with from its next start, and
    /// removes keys already retired. Older keys keep verifying the tokens they signed. Returns the
    /// new key's kid.
    pub fn rotate(
        data_dir: &Path,
        purpose: KeyPurpose,
        token_lifetime: std::time::Duration,
    ) -> Result<String, KeyError> {
        let path = path(data_dir, purpose);
        let mut set = read_set(&path)?;
        let now = Utc::now();
        set.keys.retain(|k| k.superseded_at.is_none_or(|at| retirement(at, token_lifetime) > now));
        let key = new_key(&path)?;
        let kid = key.kid.clone();
        set.keys.push(key);
        write_set(&path, &set)?;
        Ok(kid)
    }

    fn verifying(&self) -> impl Iterator<Item = &LoadedKey> {
        let now = Utc::now();
        self.keys.iter().filter(move |k| k.retires_at.is_none_or(|at| at > now))
    }

    /// The id and raw Ed25519 public key of every key that still verifies, for parties that verify
    /// our tokens themselves (connectors verify approval tokens).
    pub fn public_keys(&self) -> Vec<(String, [u8; 32])> {
        self.verifying().map(|k| (k.kid.clone(), k.public)).collect()
    }

    pub fn sign<T: Serialize>(&self, claims: &T) -> Result<String, KeyError> {
        let key = self.keys.last().ok_or_else(|| KeyError::InvalidToken("no key".into()))?;
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(key.kid.clone());
        jsonwebtoken::encode(&header, claims, &key.encoding).map_err(|e| KeyError::InvalidToken(e.to_string()))
    }

    /// Signs `message` itself (not a token) with the newest key: its kid and the raw signature.
    pub fn sign_message(&self, message: &[u8]) -> Result<(String, [u8; 64]), KeyError> {
        use ed25519_dalek::Signer;
        let key = self.keys.last().ok_or_else(|| KeyError::InvalidToken("no key".into()))?;
        Ok((key.kid.clone(), key.signing.sign(message).to_bytes()))
    }

    /// Whether `signature` is `message` signed by this set's key `kid`, one not retired.
    pub fn verifies_message(&self, kid: &str, message: &[u8], signature: &[u8]) -> bool {
        let Ok(signature) = ed25519_dalek::Signature::from_slice(signature) else { return false };
        self.verifying()
            .find(|k| k.kid == kid)
            .is_some_and(|k| k.signing.verifying_key().verify_strict(message, &signature).is_ok())
    }

    /// Verifies signature, algorithm (EdDSA only), `kid` (this set's, not retired), issuer and expiry.
    pub fn verify<T: DeserializeOwned>(&self, token: &str) -> Result<T, KeyError> {
        let invalid = |m: &str| KeyError::InvalidToken(m.to_owned());
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid("malformed token"))?;
        if header.alg != Algorithm::EdDSA {
            return Err(invalid("unexpected signing algorithm"));
        }
        let kid = header.kid.ok_or_else(|| invalid("token names no key"))?;
        let key =
            self.keys.iter().find(|k| k.kid == kid).ok_or_else(|| invalid("token was not signed by this server"))?;
        if !self.verifying().any(|k| k.kid == kid) {
            return Err(invalid("token was signed by a retired key"));
        }
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        validation.leeway = LEEWAY_SECONDS;
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

    const LIFETIME: std::time::Duration = std::time::Duration::from_secs(900);

    fn dir() -> PathBuf {
        std::env::temp_dir().join(format!("acc-keys-{}", uuid::Uuid::now_v7()))
    }

    fn claims(exp_in: i64) -> Claims {
        Claims { sub: "u".into(), iss: ISSUER.into(), exp: chrono::Utc::now().timestamp() + exp_in }
    }

    fn load(dir: &Path, purpose: KeyPurpose) -> SigningKeys {
        SigningKeys::load_or_create(dir, purpose, LIFETIME).unwrap()
    }

    #[test]
    fn sign_verify_and_rotation_keeps_old_tokens_valid() {
        let dir = dir();
        let keys = load(&dir, KeyPurpose::Access);
        let old = keys.sign(&claims(60)).unwrap();
        SigningKeys::rotate(&dir, KeyPurpose::Access, LIFETIME).unwrap();
        // The running server still signs with the key it loaded, and it still verifies.
        assert_eq!(keys.verify::<Claims>(&keys.sign(&claims(60)).unwrap()).unwrap().sub, "u");
        let keys = load(&dir, KeyPurpose::Access);
        assert_eq!(keys.keys.len(), 2);
        let new = keys.sign(&claims(60)).unwrap();
        assert_ne!(jsonwebtoken::decode_header(&old).unwrap().kid, jsonwebtoken::decode_header(&new).unwrap().kid);
        assert_eq!(keys.verify::<Claims>(&old).unwrap().sub, "u");
        assert_eq!(keys.verify::<Claims>(&new).unwrap().sub, "u");
        assert_eq!(keys.public_keys().len(), 2, "the superseded key verifies for one more token lifetime");
        let mode = std::fs::metadata(path(&dir, KeyPurpose::Access)).unwrap();
        assert_eq!(std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777, 0o600);
    }

    /// Pretends the server began signing with the newest key `ago` in the past.
    fn supersede(dir: &Path, purpose: KeyPurpose, ago: Duration) {
        let path = path(dir, purpose);
        let mut set = read_set(&path).unwrap();
        for key in set.keys.iter_mut().filter(|k| k.superseded_at.is_some()) {
            key.superseded_at = Some(Utc::now() - ago);
        }
        write_set(&path, &set).unwrap();
    }

    #[test]
    fn a_key_superseded_longer_than_a_token_lifetime_is_retired() {
        let dir = dir();
        let old = load(&dir, KeyPurpose::Access).sign(&claims(3600)).unwrap();
        SigningKeys::rotate(&dir, KeyPurpose::Access, LIFETIME).unwrap();
        load(&dir, KeyPurpose::Access);
        supersede(&dir, KeyPurpose::Access, Duration::seconds(LIFETIME.as_secs() as i64 + 60));
        let keys = load(&dir, KeyPurpose::Access);
        let refused = keys.verify::<Claims>(&old).unwrap_err().to_string();
        assert!(refused.contains("retired"), "{refused}");
        assert_eq!(keys.verify::<Claims>(&keys.sign(&claims(60)).unwrap()).unwrap().sub, "u");
        assert_eq!(keys.public_keys().len(), 1, "a retired key is handed to nobody");
        // The next rotation drops the retired key's private half from the file.
        SigningKeys::rotate(&dir, KeyPurpose::Access, LIFETIME).unwrap();
        let kids: Vec<String> =
            read_set(&path(&dir, KeyPurpose::Access)).unwrap().keys.into_iter().map(|k| k.kid).collect();
        assert_eq!(kids.len(), 2);
        assert!(!kids.contains(&jsonwebtoken::decode_header(&old).unwrap().kid.unwrap()));
    }

    #[test]
    fn access_and_approval_keys_never_verify_each_others_tokens() {
        let dir = dir();
        let (access, approval) = (load(&dir, KeyPurpose::Access), load(&dir, KeyPurpose::Approval));
        assert!(approval.verify::<Claims>(&access.sign(&claims(60)).unwrap()).is_err());
        assert!(access.verify::<Claims>(&approval.sign(&claims(60)).unwrap()).is_err());
        let (a, b) = (access.public_keys(), approval.public_keys());
        assert!(a.iter().all(|(kid, key)| b.iter().all(|(other, other_key)| kid != other && key != other_key)));
    }

    #[test]
    fn a_key_file_from_before_retirement_keeps_working() {
        let dir = dir();
        let path = path(&dir, KeyPurpose::Access);
        let first = new_key(&path).unwrap();
        let second = new_key(&path).unwrap();
        let legacy = serde_json::json!({"keys": [
            {"kid": first.kid, "created_at": first.created_at, "private_key": first.private_key},
            {"kid": second.kid, "created_at": second.created_at, "private_key": second.private_key},
        ]});
        write_private_file(&path, legacy.to_string().as_bytes()).unwrap();
        let keys = load(&dir, KeyPurpose::Access);
        assert_eq!(keys.public_keys().len(), 2, "the older key verifies for one more lifetime from this start");
        assert_eq!(jsonwebtoken::decode_header(keys.sign(&claims(60)).unwrap()).unwrap().kid, Some(second.kid));
        let stored = read_set(&path).unwrap();
        assert!(stored.keys[0].superseded_at.is_some() && stored.keys[1].superseded_at.is_none());
    }

    #[test]
    fn foreign_expired_and_alg_none_tokens_are_refused() {
        let keys = load(&dir(), KeyPurpose::Access);
        let other = load(&dir(), KeyPurpose::Access);
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
