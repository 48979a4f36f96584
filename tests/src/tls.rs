//! A throwaway CA and a server certificate for 127.0.0.1 signed by it, made with `openssl`, for
//! tests that run the server over TLS.

use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, Clone)]
pub struct TestCertificates {
    /// The CA certificate clients must trust.
    pub ca: PathBuf,
    /// The server's certificate and key.
    pub certificate: PathBuf,
    pub key: PathBuf,
}

impl TestCertificates {
    pub fn create(dir: &Path) -> Self {
        let path = |name: &str| dir.join(name).display().to_string();
        std::fs::write(dir.join("ext.cnf"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n").unwrap();
        for args in [
            format!(
                "req -x509 -newkey ed25519 -nodes -days 1 -subj /CN=acc-test-ca -keyout {} -out {}",
                path("ca.key"),
                path("ca.pem")
            ),
            format!(
                "req -newkey ed25519 -nodes -subj /CN=127.0.0.1 -keyout {} -out {}",
                path("key.pem"),
                path("leaf.csr")
            ),
            format!(
                "x509 -req -in {} -CA {} -CAkey {} -CAcreateserial -days 1 -extfile {} -out {}",
                path("leaf.csr"),
                path("ca.pem"),
                path("ca.key"),
                path("ext.cnf"),
                path("cert.pem")
            ),
        ] {
            let out = Command::new("openssl").args(args.split(' ')).output().unwrap();
            assert!(out.status.success(), "openssl {args}: {}", String::from_utf8_lossy(&out.stderr));
        }
        Self { ca: dir.join("ca.pem"), certificate: dir.join("cert.pem"), key: dir.join("key.pem") }
    }

    /// The server's environment for them.
    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("ACC_TLS_CERT_FILE".into(), self.certificate.display().to_string()),
            ("ACC_TLS_KEY_FILE".into(), self.key.display().to_string()),
        ]
    }
}
