//! Email notifications through the operator's SMTP relay (`[smtp]`): the message that tells a
//! person of a notification, and its sending; `outbox.rs` decides when.

use std::time::Duration;

use acc_entity::notification;
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::outbox::SendError;
use crate::config::{SmtpSecurity, SmtpSettings};

/// How much of a notification's body (an agent's request can be long) an email quotes.
const MAX_BODY_CHARS: usize = 2_000;

#[derive(Debug, thiserror::Error)]
pub enum MailerError {
    #[error("smtp: `from` {0:?} is not an email address (`Name <address>` or `address`)")]
    From(String),
    #[error("smtp: could not read {path}: {source}")]
    Read { path: std::path::PathBuf, source: std::io::Error },
    #[error("smtp: {0}")]
    Tls(String),
}

/// The relay, who the emails are from, and where their links lead.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
}

impl Mailer {
    pub fn new(settings: &SmtpSettings, public_url: &str) -> Result<Self, MailerError> {
        let from = settings.from.parse::<Mailbox>().map_err(|_| MailerError::From(settings.from.clone()))?;
        let read = |path: &std::path::Path| {
            std::fs::read(path).map_err(|source| MailerError::Read { path: path.to_owned(), source })
        };
        let tls = |host: &str| -> Result<TlsParameters, MailerError> {
            let mut builder = TlsParameters::builder(host.to_owned());
            if let Some(ca) = &settings.ca_file {
                let certificate = Certificate::from_pem(&read(ca)?).map_err(|e| MailerError::Tls(e.to_string()))?;
                builder = builder.add_root_certificate(certificate);
            }
            builder.build_rustls().map_err(|e| MailerError::Tls(e.to_string()))
        };
        let tls = match settings.security {
            SmtpSecurity::Starttls => Tls::Required(tls(&settings.host)?),
            SmtpSecurity::Tls => Tls::Wrapper(tls(&settings.host)?),
            SmtpSecurity::None => Tls::None,
        };
        let mut transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&settings.host)
            .port(settings.port())
            .tls(tls)
            .timeout(Some(Duration::from_secs(30)));
        if let (Some(username), Some(password_file)) = (&settings.username, &settings.password_file) {
            let password = String::from_utf8_lossy(&read(password_file)?).trim_end().to_owned();
            transport = transport.credentials(Credentials::new(username.clone(), password));
        }
        let public_url = public_url.trim_end_matches('/').to_owned();
        Ok(Self { transport: transport.build(), from, public_url })
    }

    /// The email telling `to` of `told`.
    fn compose(&self, to: &str, told: &notification::Model) -> Result<Message, SendError> {
        let to = to.parse::<Mailbox>().map_err(|e| SendError::Permanent(format!("the address: {e}")))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&told.title)
            .header(ContentType::TEXT_PLAIN)
            .body(self.text(told))
            .map_err(|e| SendError::Permanent(e.to_string()))
    }

    /// What the email says: the notification's body, cut, and the ways to it and to the settings.
    fn text(&self, told: &notification::Model) -> String {
        let mut body: String = told.body.chars().take(MAX_BODY_CHARS).collect();
        if body.len() < told.body.len() {
            body.push('…');
        }
        format!(
            "{body}\n\nOpen it: {}{}\n\n--\nAgent Control Center told you this because of your notification settings: {}/notifications\n",
            self.public_url,
            super::web_path(told),
            self.public_url,
        )
    }

    pub(super) async fn send(&self, to: &str, told: &notification::Model) -> Result<(), SendError> {
        let message = self.compose(to, told)?;
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(SendError::Permanent(e.to_string())),
            Err(e) => Err(SendError::Temporary(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use acc_entity::notification::NotificationKind;
    use chrono::Utc;
    use uuid::Uuid;

    use crate::ids::{GlobalId, NodeKind};

    use super::*;

    fn told(kind: NotificationKind, body: &str) -> notification::Model {
        notification::Model {
            id: Uuid::nil(),
            organization_id: Uuid::nil(),
            user_id: Uuid::nil(),
            kind,
            dedupe_key: "k".into(),
            title: "A run you started failed".into(),
            body: body.into(),
            subject_id: Some(Uuid::nil()),
            project_id: None,
            read_at: None,
            created_at: Utc::now(),
        }
    }

    fn mailer() -> Mailer {
        let settings = SmtpSettings { from: "Agent Control Center <acc@acme.example>".into(), ..mailer_settings() };
        Mailer::new(&settings, "https://acc.acme.example/").unwrap()
    }

    // The transport's connection pool lives on the runtime.
    #[tokio::test]
    async fn an_email_quotes_a_bounded_body_and_links_to_its_subject() {
        let mailer = mailer();
        let long = "x".repeat(MAX_BODY_CHARS * 3);
        let text = mailer.text(&told(NotificationKind::RunFailed, &long));
        let run = GlobalId::new(NodeKind::TaskRun, Uuid::nil()).encode();
        assert!(text.contains(&format!("https://acc.acme.example/runs/{run}\n")), "{text}");
        assert!(text.contains(&format!("{}…", "x".repeat(10))) && text.len() < MAX_BODY_CHARS + 300, "{text}");
        let approval = mailer.text(&told(NotificationKind::ApprovalWaiting, "deploy"));
        assert!(approval.starts_with("deploy\n") && approval.contains("https://acc.acme.example/approvals\n"));
        // A header cannot be smuggled in through what an agent wrote.
        let sneaky = told(NotificationKind::ApprovalWaiting, "ok\r\nBcc: eve@evil.example\r\n\r\nhi");
        let text = String::from_utf8(mailer.compose("ada@acme.example", &sneaky).unwrap().formatted()).unwrap();
        let headers = text.split("\r\n\r\n").next().unwrap();
        assert!(!headers.to_lowercase().contains("bcc"), "{headers}");
    }

    #[tokio::test]
    async fn an_address_that_is_none_is_refused_for_good() {
        let refused = mailer().compose("not an address", &told(NotificationKind::RunFailed, "x"));
        assert!(matches!(refused, Err(SendError::Permanent(_))));
        let settings = SmtpSettings { from: "nobody".into(), ..mailer_settings() };
        assert!(matches!(Mailer::new(&settings, "https://a.example"), Err(MailerError::From(_))));
    }

    fn mailer_settings() -> SmtpSettings {
        SmtpSettings {
            host: "127.0.0.1".into(),
            port: None,
            security: SmtpSecurity::None,
            from: "acc@acme.example".into(),
            username: None,
            password_file: None,
            ca_file: None,
        }
    }
}
