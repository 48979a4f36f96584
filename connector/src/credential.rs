//! The connector's secrets on disk: the credential `enroll` stores and `run` presents, and the
//! spool key beside it — both owner-only (0600 files, 0700 directory we create).

use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rand::RngCore;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::config::credential_dir;

/// Length of the spool key (ChaCha20-Poly1305).
pub const KEY_LEN: usize = 32;

#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path} is not a connector credential: {source}")]
    Parse { path: PathBuf, source: serde_json::Error },
    #[error("{path} is readable by other users (mode {mode:o}); run `chmod 600 {path}`")]
    TooOpen { path: PathBuf, mode: u32 },
    #[error("{path} is not a {KEY_LEN}-byte spool key")]
    BadKey { path: PathBuf },
    #[error("a credential already exists at {path}; pass --force to replace it")]
    Exists { path: PathBuf },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> CredentialError + '_ {
    move |source| CredentialError::Io { path: path.to_owned(), source }
}

/// What `enroll` got from the control plane: a bearer credential and, over TLS, the client
/// certificate the control plane's connector CA issued for a key made here (which never left
/// this file). Whoever holds the file can act as this connector, until it is revoked.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct Credential {
    pub server: String,
    pub connector_id: Uuid,
    pub credential: String,
    /// The client certificate (PEM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_certificate: Option<String>,
    /// The client certificate's private key (PKCS#8 PEM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_key: Option<String>,
}

impl Credential {
    /// The client certificate and its key, when the connector has both.
    pub fn client_identity(&self) -> Option<(&str, &str)> {
        self.client_certificate.as_deref().zip(self.client_key.as_deref())
    }
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credential")
            .field("server", &self.server)
            .field("connector_id", &self.connector_id)
            .field("credential", &"[REDACTED]")
            .field("client_certificate", &self.client_certificate.is_some())
            .field("client_key", &self.client_key.as_ref().map(|_| "[REDACTED]"))
            .finish()
    }
}

/// Creates the credential's directory owner-only if it does not exist. An existing directory
/// is left as it is (it may be shared, like the working directory), with a warning if others can enter it.
pub fn ensure_private_dir(dir: &Path) -> Result<(), CredentialError> {
    match fs::metadata(dir) {
        Ok(meta) => {
            if meta.permissions().mode() & 0o077 != 0 && dir != Path::new(".") {
                tracing::warn!(dir = %dir.display(), mode = format!("{:o}", meta.permissions().mode() & 0o777), "the credential directory is accessible to other users");
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(io_err(dir))?;
            // `recursive` applies the mode to every directory it makes, but the umask may narrow it
            // further; make sure the leaf is exactly 0700.
            fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(io_err(dir))
        }
        Err(e) => Err(io_err(dir)(e)),
    }
}

/// Writes `bytes` to `path` as an owner-only file, atomically (a temporary file, then rename).
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), CredentialError> {
    let dir = credential_dir(path);
    ensure_private_dir(&dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "credential".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", Uuid::now_v7()));
    let result = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).mode(0o600).open(&tmp).map_err(io_err(&tmp))?;
        file.write_all(bytes).map_err(io_err(&tmp))?;
        file.sync_all().map_err(io_err(&tmp))?;
        fs::rename(&tmp, path).map_err(io_err(path))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Refuses a secret file that group or others can read.
pub fn check_private(path: &Path) -> Result<(), CredentialError> {
    let meta = fs::metadata(path).map_err(io_err(path))?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(CredentialError::TooOpen { path: path.to_owned(), mode });
    }
    Ok(())
}

/// Stores a credential; refuses to replace one unless `force`.
pub fn write_credential(path: &Path, credential: &Credential, force: bool) -> Result<(), CredentialError> {
    if !force && path.exists() {
        return Err(CredentialError::Exists { path: path.to_owned() });
    }
    let json = serde_json::to_vec_pretty(credential)
        .map_err(|source| CredentialError::Parse { path: path.to_owned(), source })?;
    write_private(path, &json)
}

/// Reads a credential, refusing one others can read.
pub fn read_credential(path: &Path) -> Result<Credential, CredentialError> {
    check_private(path)?;
    let bytes = fs::read(path).map_err(io_err(path))?;
    serde_json::from_slice(&bytes).map_err(|source| CredentialError::Parse { path: path.to_owned(), source })
}

/// The spool key at `path`, created (32 random bytes, 0600) on first use.
pub fn load_or_create_key(path: &Path) -> Result<[u8; KEY_LEN], CredentialError> {
    ensure_private_dir(&credential_dir(path))?;
    match OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
        Ok(mut file) => {
            let mut key = [0u8; KEY_LEN];
            rand::rngs::OsRng.fill_bytes(&mut key);
            file.write_all(&key).map_err(io_err(path))?;
            file.sync_all().map_err(io_err(path))?;
            tracing::info!(path = %path.display(), "created the spool key");
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            check_private(path)?;
            let mut bytes = Vec::with_capacity(KEY_LEN);
            fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)).map_err(io_err(path))?;
            bytes.try_into().map_err(|_| CredentialError::BadKey { path: path.to_owned() })
        }
        Err(e) => Err(io_err(path)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn credential_is_owner_only_and_round_trips() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("acc-connector").join("credential.json");
        let credential = Credential {
            server: "http://127.0.0.1:1".into(),
            connector_id: Uuid::now_v7(),
            credential: "acc_conn_secret".into(),
            client_certificate: Some("-----BEGIN CERTIFICATE-----".into()),
            client_key: Some("-----BEGIN PRIVATE KEY----- key material".into()),
        };
        write_credential(&path, &credential, false).unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert_eq!(read_credential(&path).unwrap(), credential);
        assert!(matches!(write_credential(&path, &credential, false), Err(CredentialError::Exists { .. })));
        write_credential(&path, &credential, true).unwrap();
        let shown = format!("{credential:?}");
        assert!(!shown.contains("acc_conn_secret") && !shown.contains("key material"), "{shown}");

        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(read_credential(&path), Err(CredentialError::TooOpen { .. })));
    }

    #[test]
    fn spool_key_is_created_once_and_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("spool.key");
        let key = load_or_create_key(&path).unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(load_or_create_key(&path).unwrap(), key);
        fs::write(&path, b"short").unwrap();
        assert!(matches!(load_or_create_key(&path), Err(CredentialError::BadKey { .. })));
    }
}
