//! TLS to the control plane: which servers to trust (the system's roots, plus a private CA the
//! configuration names) and, for the gateway, the client certificate issued at enrollment (mTLS).

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ClientConfig, RootCertStore};

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{path}: not a PEM certificate: {message}")]
    ServerCa { path: String, message: String },
    #[error("the credential's client certificate or key is not usable: {0}")]
    ClientCertificate(String),
    #[error("TLS configuration: {0}")]
    Config(String),
}

/// The certificates of a PEM file.
pub fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let err = |message: String| TlsError::ServerCa { path: path.display().to_string(), message };
    let certificates = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| err(e.to_string()))?;
    if certificates.is_empty() {
        return Err(err("it holds no certificate".into()));
    }
    Ok(certificates)
}

/// The client side of the gateway's TLS: trusts the system's roots and `server_ca`, and presents
/// the client certificate (PEM) with its key when the connector has one.
pub fn client_config(server_ca: Option<&Path>, client: Option<(&str, &str)>) -> Result<Arc<ClientConfig>, TlsError> {
    let mut roots = RootCertStore::empty();
    let native = rustls_native_certs::load_native_certs();
    for error in &native.errors {
        tracing::warn!(%error, "could not read a system root certificate");
    }
    roots.add_parsable_certificates(native.certs);
    if let Some(path) = server_ca {
        for certificate in read_certificates(path)? {
            roots.add(certificate).map_err(|e| TlsError::Config(e.to_string()))?;
        }
    }
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?
        .with_root_certificates(roots);
    let config = match client {
        None => builder.with_no_client_auth(),
        Some((certificate, key)) => {
            let bad = |e: &dyn std::fmt::Display| TlsError::ClientCertificate(e.to_string());
            let chain = CertificateDer::pem_slice_iter(certificate.as_bytes())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| bad(&e))?;
            let key = PrivateKeyDer::from_pem_slice(key.as_bytes()).map_err(|e| bad(&e))?;
            builder.with_client_auth_cert(chain, key).map_err(|e| bad(&e))?
        }
    };
    Ok(Arc::new(config))
}
