//! The TLS client every outgoing connection that leaves the machine uses (IMAP, the XFCC
//! bridge): the system's roots through the platform verifier, and the certificates of a CA
//! file the configuration names for a private server.

use std::sync::Arc;

/// A TLS client trusting the system's roots and, if given, the certificates in `ca_file`.
pub fn tls_connector(
    ca_file: Option<&std::path::Path>,
) -> Result<tokio_rustls::TlsConnector, String> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut extra = Vec::new();
    if let Some(path) = ca_file {
        for cert in
            CertificateDer::pem_file_iter(path).map_err(|e| format!("{}: {e}", path.display()))?
        {
            extra.push(cert.map_err(|e| format!("{}: {e}", path.display()))?);
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier =
        rustls_platform_verifier::Verifier::new_with_extra_roots(extra, provider.clone())
            .map_err(|e| e.to_string())?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}
