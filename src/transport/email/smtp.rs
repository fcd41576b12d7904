//! Sending mail: one lettre SMTP transport (implicit TLS, STARTTLS, or plain on loopback;
//! optional authentication), used for every mail the relay sends.

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use crate::config::{SmtpConfig, TlsMode};

#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    #[error("SMTP setup: {0}")]
    Setup(String),
    #[error("bad address {0:?}")]
    Address(String),
    /// Not sent now (no connection, a 4xx answer, a timeout): try again later.
    #[error("SMTP: {0}")]
    Send(String),
    /// Refused for good (a 5xx answer: no such mailbox, relaying denied): sending it again
    /// gets the same answer.
    #[error("SMTP refused for good: {0}")]
    Permanent(String),
}

impl SmtpError {
    /// Whether sending the same mail again cannot succeed.
    pub fn is_permanent(&self) -> bool {
        matches!(self, SmtpError::Permanent(_) | SmtpError::Address(_))
    }
}

#[derive(Clone)]
pub struct Smtp {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: lettre::Address,
}

impl Smtp {
    pub fn new(config: &SmtpConfig, from: &str) -> Result<Smtp, SmtpError> {
        let setup = |e: &dyn std::fmt::Display| SmtpError::Setup(e.to_string());
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.server)
            .port(config.port)
            .timeout(Some(config.timeout));
        if config.tls != TlsMode::None {
            let mut params = TlsParameters::builder(config.server.clone());
            if let Some(ca) = &config.ca_file {
                let pem = std::fs::read(ca)
                    .map_err(|e| SmtpError::Setup(format!("{}: {e}", ca.display())))?;
                params = params
                    .add_root_certificate(Certificate::from_pem(&pem).map_err(|e| setup(&e))?);
            }
            let params = params.build_rustls().map_err(|e| setup(&e))?;
            builder = builder.tls(match config.tls {
                TlsMode::Tls => Tls::Wrapper(params),
                _ => Tls::Required(params),
            });
        }
        if let (Some(user), Some(password)) = (&config.user, &config.password) {
            builder = builder.credentials(Credentials::new(user.clone(), password.0.clone()));
        }
        Ok(Smtp {
            transport: builder.build(),
            from: from
                .parse()
                .map_err(|_| SmtpError::Address(from.to_owned()))?,
        })
    }

    /// Sends a formatted mail to `to`; returns once the server accepted it.
    pub async fn send(&self, to: &str, bytes: &[u8]) -> Result<(), SmtpError> {
        let to: lettre::Address = to.parse().map_err(|_| SmtpError::Address(to.to_owned()))?;
        let envelope = Envelope::new(Some(self.from.clone()), vec![to])
            .map_err(|e| SmtpError::Send(e.to_string()))?;
        self.transport
            .send_raw(&envelope, bytes)
            .await
            .map(|_| ())
            .map_err(|e| {
                // Refused for good only by a 5xx answer about the mail itself (55x: mailbox
                // unavailable, relaying denied, message refused). Another 5xx (530/535: the
                // relay's own login, 500-504: syntax) is the relay's configuration, to be
                // fixed and retried, never a reason to give a player's mail up.
                let mail_refused = e.is_permanent()
                    && e.status().is_some_and(|code| {
                        code.category == lettre::transport::smtp::response::Category::MailSystem
                    });
                if mail_refused {
                    SmtpError::Permanent(e.to_string())
                } else {
                    SmtpError::Send(e.to_string())
                }
            })
    }
}
