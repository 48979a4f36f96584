//! TLS for the server: the operator's certificate, and client certificates from connectors. A
//! client may present a certificate issued by the connector CA (connectors must, on
//! `/v1/connectors/ws`); browsers and API clients present none. Each connection's certificate is
//! handed to the handlers as a [`TlsConnection`] request extension.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Extension;
use axum::middleware::AddExtension;
use axum_server::accept::{Accept, NoDelayAcceptor};
use axum_server::tls_rustls::{RustlsAcceptor, RustlsConfig};
use futures_util::future::BoxFuture;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig};
use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;
use tower::Layer;

/// The server's TLS settings.
pub struct Tls {
    pub certificate: PathBuf,
    pub key: PathBuf,
    /// The connector CA, which connectors' client certificates must chain to.
    pub connector_ca: CertificateDer<'static>,
}

/// What a handler learns about its connection's TLS (absent on plain HTTP).
#[derive(Debug, Clone)]
pub struct TlsConnection {
    /// The client certificate, verified against the connector CA; `None` if the client sent none.
    pub client_certificate: Option<CertificateDer<'static>>,
}

fn invalid(what: &str, e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{what}: {e}"))
}

impl Tls {
    /// The rustls server configuration: our certificate, and optional client certificates that
    /// must chain to the connector CA (one that does not fails the handshake).
    pub fn server_config(&self) -> io::Result<RustlsConfig> {
        let chain = CertificateDer::pem_file_iter(&self.certificate)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| invalid(&self.certificate.display().to_string(), e))?;
        let key = PrivateKeyDer::from_pem_file(&self.key).map_err(|e| invalid(&self.key.display().to_string(), e))?;
        let mut roots = RootCertStore::empty();
        roots.add(self.connector_ca.clone()).map_err(|e| invalid("connector CA", e))?;
        let verifier = WebPkiClientVerifier::builder(Arc::new(roots))
            .allow_unauthenticated()
            .build()
            .map_err(|e| invalid("client certificate verifier", e))?;
        let mut config = ServerConfig::builder()
            .with_client_cert_verifier(verifier)
            .with_single_cert(chain, key)
            .map_err(|e| invalid("certificate and key", e))?;
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(RustlsConfig::from_config(Arc::new(config)))
    }
}

/// Accepts TLS connections and records each one's client certificate for the handlers.
#[derive(Clone)]
pub struct ClientCertificateAcceptor {
    inner: RustlsAcceptor<NoDelayAcceptor>,
}

impl ClientCertificateAcceptor {
    pub fn new(config: RustlsConfig) -> Self {
        // Without Nagle's delay: a live event is one small write that must not wait for an ACK.
        Self { inner: RustlsAcceptor::new(config).acceptor(NoDelayAcceptor::new()) }
    }
}

impl<S> Accept<TcpStream, S> for ClientCertificateAcceptor
where
    S: Send + 'static,
{
    type Stream = TlsStream<TcpStream>;
    type Service = AddExtension<S, TlsConnection>;
    type Future = BoxFuture<'static, io::Result<(Self::Stream, Self::Service)>>;

    fn accept(&self, stream: TcpStream, service: S) -> Self::Future {
        let acceptor = self.inner.clone();
        Box::pin(async move {
            let (stream, service) = acceptor.accept(stream, service).await?;
            let client_certificate =
                stream.get_ref().1.peer_certificates().and_then(|chain| chain.first()).map(|c| c.clone().into_owned());
            Ok((stream, Extension(TlsConnection { client_certificate }).layer(service)))
        })
    }
}
