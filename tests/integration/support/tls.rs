//! TLS with a test's own certificate (made with rcgen): a client configuration trusting it.

/// A TLS client configuration that trusts one certificate (a test's own, made with rcgen).
pub fn tls_client_trusting(cert_der: &[u8]) -> rustls::ClientConfig {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from(cert_der.to_vec()))
        .expect("root");
    rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("versions")
    .with_root_certificates(roots)
    .with_no_client_auth()
}
