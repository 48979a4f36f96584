//! The connector CA: a certificate authority of this control plane, created on first start in the
//! data dir, that issues each enrolled connector a client certificate. Over TLS the connector
//! endpoint accepts a connector only with the certificate issued to it (mTLS, SPEC §8).

use std::path::{Path, PathBuf};

use chrono::{Datelike, Duration, Utc};
use rcgen::{
    BasicConstraints, CertificateParams, CertificateSigningRequestParams, DistinguishedName, DnType,
    ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair, KeyUsagePurpose, SerialNumber, date_time_ymd,
};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::identity::keys::write_private_file;

/// How long a connector's client certificate is valid; re-enrolling issues a new one.
const CLIENT_CERTIFICATE_DAYS: i64 = 365;
/// How long the CA itself is valid.
const CA_DAYS: i64 = 10 * 365;

#[derive(Debug, thiserror::Error)]
pub enum CaError {
    #[error("connector CA at {path}: {message}")]
    Store { path: PathBuf, message: String },
    #[error("the certificate signing request is not valid: {0}")]
    InvalidRequest(String),
    #[error("could not issue the certificate: {0}")]
    Issue(String),
}

/// Valid from the start of `from`'s day to the start of `to`'s (UTC).
fn set_validity(params: &mut CertificateParams, from: chrono::DateTime<Utc>, to: chrono::DateTime<Utc>) {
    params.not_before = date_time_ymd(from.year(), from.month() as u8, from.day() as u8);
    params.not_after = date_time_ymd(to.year(), to.month() as u8, to.day() as u8);
}

pub struct ConnectorCa {
    issuer: Issuer<'static, KeyPair>,
    certificate_pem: String,
    certificate_der: CertificateDer<'static>,
}

/// The SHA-256 of a certificate's DER, hex: how the control plane recognizes the one it issued.
pub fn fingerprint(der: &[u8]) -> String {
    hex::encode(Sha256::digest(der))
}

impl ConnectorCa {
    /// Loads the CA from `data_dir/keys`, creating it on first use.
    pub fn load_or_create(data_dir: &Path) -> Result<Self, CaError> {
        let certificate_path = data_dir.join("keys").join("connector-ca.pem");
        let key_path = data_dir.join("keys").join("connector-ca-key.pem");
        let err = |path: &Path, message: String| CaError::Store { path: path.to_owned(), message };
        if !key_path.exists() {
            let key = KeyPair::generate().map_err(|e| err(&key_path, e.to_string()))?;
            let mut params = CertificateParams::default();
            params.distinguished_name = DistinguishedName::new();
            params.distinguished_name.push(DnType::CommonName, "Agent Control Center connector CA");
            params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
            params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
            let now = Utc::now();
            set_validity(&mut params, now - Duration::days(1), now + Duration::days(CA_DAYS));
            let certificate = params.self_signed(&key).map_err(|e| err(&certificate_path, e.to_string()))?;
            write_private_file(&key_path, key.serialize_pem().as_bytes()).map_err(|e| err(&key_path, e.to_string()))?;
            write_private_file(&certificate_path, certificate.pem().as_bytes())
                .map_err(|e| err(&certificate_path, e.to_string()))?;
        }
        let key_pem = std::fs::read_to_string(&key_path).map_err(|e| err(&key_path, e.to_string()))?;
        let certificate_pem =
            std::fs::read_to_string(&certificate_path).map_err(|e| err(&certificate_path, e.to_string()))?;
        let key = KeyPair::from_pem(&key_pem).map_err(|e| err(&key_path, e.to_string()))?;
        let issuer =
            Issuer::from_ca_cert_pem(&certificate_pem, key).map_err(|e| err(&certificate_path, e.to_string()))?;
        let certificate_der = CertificateDer::from_pem_slice(certificate_pem.as_bytes())
            .map_err(|e| err(&certificate_path, e.to_string()))?;
        Ok(Self { issuer, certificate_pem, certificate_der })
    }

    pub fn certificate_pem(&self) -> &str {
        &self.certificate_pem
    }

    /// The CA certificate, which client certificates must chain to.
    pub fn certificate_der(&self) -> CertificateDer<'static> {
        self.certificate_der.clone()
    }

    /// Issues a connector's client certificate for the key in its CSR. Only the key is taken from
    /// the request: the subject (the connector id), the usage (client authentication only, never a
    /// CA) and the lifetime are the control plane's. Returns the PEM and its fingerprint.
    pub fn issue(&self, csr_pem: &str, connector_id: Uuid) -> Result<(String, String), CaError> {
        let request =
            CertificateSigningRequestParams::from_pem(csr_pem).map_err(|e| CaError::InvalidRequest(e.to_string()))?;
        let mut params = CertificateParams::default();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, format!("connector {connector_id}"));
        params.is_ca = IsCa::ExplicitNoCa;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        params.serial_number = Some(SerialNumber::from_slice(Uuid::now_v7().as_bytes()));
        params.use_authority_key_identifier_extension = true;
        let now = Utc::now();
        set_validity(&mut params, now - Duration::days(1), now + Duration::days(CLIENT_CERTIFICATE_DAYS));
        let certificate =
            params.signed_by(&request.public_key, &self.issuer).map_err(|e| CaError::Issue(e.to_string()))?;
        let fingerprint = fingerprint(certificate.der());
        tracing::info!(%connector_id, %fingerprint, "client certificate issued");
        Ok((certificate.pem(), fingerprint))
    }
}

#[cfg(test)]
mod tests {
    use x509_parser::prelude::{FromDer, X509Certificate};

    use super::*;

    fn dir() -> PathBuf {
        std::env::temp_dir().join(format!("acc-ca-{}", Uuid::now_v7()))
    }

    #[test]
    fn the_ca_persists_and_issues_client_certificates_on_its_own_terms() {
        let dir = dir();
        let ca = ConnectorCa::load_or_create(&dir).unwrap();
        let again = ConnectorCa::load_or_create(&dir).unwrap();
        assert_eq!(ca.certificate_pem(), again.certificate_pem(), "created once, then loaded");
        let key_file = std::fs::metadata(dir.join("keys").join("connector-ca-key.pem")).unwrap();
        assert_eq!(std::os::unix::fs::PermissionsExt::mode(&key_file.permissions()) & 0o777, 0o600);

        // The request asks to be a CA and a server; the certificate is neither.
        let key = KeyPair::generate().unwrap();
        let mut asked = CertificateParams::new(vec!["evil.example".to_owned()]).unwrap();
        asked.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        asked.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let csr = asked.serialize_request(&key).unwrap().pem().unwrap();
        let connector = Uuid::now_v7();
        let (pem, fingerprint_hex) = again.issue(&csr, connector).unwrap();
        let der = CertificateDer::from_pem_slice(pem.as_bytes()).unwrap();
        assert_eq!(fingerprint_hex, fingerprint(&der));
        let (_, certificate) = X509Certificate::from_der(&der).unwrap();
        assert!(!certificate.is_ca());
        let usage = certificate.extended_key_usage().unwrap().unwrap().value;
        assert!(usage.client_auth && !usage.server_auth);
        assert!(certificate.subject_alternative_name().unwrap().is_none(), "no names the request asked for");
        assert_eq!(certificate.subject().to_string(), format!("CN=connector {connector}"));
        let ca_der = again.certificate_der();
        let (_, issuer) = X509Certificate::from_der(&ca_der).unwrap();
        assert_eq!(certificate.issuer(), issuer.subject());
        assert!(certificate.verify_signature(Some(issuer.public_key())).is_ok());
        assert_eq!(certificate.public_key().raw, rcgen::PublicKeyData::subject_public_key_info(&key).as_slice());
    }

    #[test]
    fn a_malformed_request_is_refused() {
        let ca = ConnectorCa::load_or_create(&dir()).unwrap();
        assert!(matches!(ca.issue("not a request", Uuid::now_v7()), Err(CaError::InvalidRequest(_))));
    }
}
