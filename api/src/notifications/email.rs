//! Email notifications: each email owed is a `notification_deliveries` row, sent through the
//! operator's SMTP relay (`[smtp]`) by [`EmailOutbox::run`], retried with back-off while the relay
//! answers "try later" or cannot be reached, and given up on when it refuses for good. Rows
//! outlive a restart; a sender claims a row for a while before sending, so two replicas never
//! send one email twice unless one of them dies mid-send.

use std::sync::Arc;
use std::time::Duration;

use acc_entity::notification::{self, NotificationKind};
use acc_entity::notification_delivery::{self, DeliveryStatus};
use acc_entity::notification_preference::NotificationChannel;
use acc_entity::user;
use chrono::Utc;
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use tokio::sync::Notify;

use crate::config::{SmtpSecurity, SmtpSettings};
use crate::db::Pool;
use crate::ids::{GlobalId, NodeKind};

/// How long a sender holds a delivery it took before another may take it.
const CLAIM: Duration = Duration::from_secs(120);
/// How often the sender looks for deliveries that came due without a wake-up (retries, and
/// those another replica queued).
const POLL: Duration = Duration::from_secs(5);
/// The waits between attempts; after the last, a delivery is given up on.
const BACKOFF: [Duration; 5] = [
    Duration::from_secs(5),
    Duration::from_secs(30),
    Duration::from_secs(120),
    Duration::from_secs(600),
    Duration::from_secs(3600),
];
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

/// Why an email was not sent.
#[derive(Debug, thiserror::Error)]
enum SendError {
    /// It will not go however often it is tried: a bad address, a refusal for good.
    #[error("{0}")]
    Permanent(String),
    /// It may go later: the relay said so, or could not be reached.
    #[error("{0}")]
    Temporary(String),
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
            web_path(told),
            self.public_url,
        )
    }

    async fn send(&self, to: &str, told: &notification::Model) -> Result<(), SendError> {
        let message = self.compose(to, told)?;
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(SendError::Permanent(e.to_string())),
            Err(e) => Err(SendError::Temporary(e.to_string())),
        }
    }
}

/// Where in the web client a notification's subject opens, as its bell leads there.
fn web_path(told: &notification::Model) -> String {
    match (told.kind, told.subject_id) {
        (NotificationKind::RunFailed, Some(run)) => format!("/runs/{}", GlobalId::new(NodeKind::TaskRun, run).encode()),
        (NotificationKind::ApprovalWaiting, _) => "/approvals".into(),
        _ => "/usage".into(),
    }
}

/// The emails owed, and their sender: queued by the notification service, sent by
/// [`EmailOutbox::run`] for as long as the server runs.
#[derive(Clone)]
pub struct EmailOutbox {
    db: Pool,
    mailer: Arc<Mailer>,
    wake: Arc<Notify>,
}

impl EmailOutbox {
    pub fn new(db: Pool, mailer: Mailer) -> Self {
        Self { db, mailer: Arc::new(mailer), wake: Arc::new(Notify::new()) }
    }

    /// The row that owes `told` to its person by email.
    pub(super) fn delivery(told: &notification::Model) -> notification_delivery::ActiveModel {
        let now = Utc::now();
        notification_delivery::Model {
            id: crate::ids::new_id(),
            notification_id: told.id,
            user_id: told.user_id,
            channel: NotificationChannel::Email,
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: now,
            claimed_until: None,
            last_error: None,
            sent_at: None,
            created_at: now,
        }
        .into()
    }

    /// Wakes the sender: something was queued.
    pub(super) fn queued(&self) {
        self.wake.notify_one();
    }

    pub async fn run(self) {
        loop {
            if let Err(e) = self.send_due().await {
                tracing::warn!(error = %e, "email notifications could not be read");
            }
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// Sends every delivery due now that nobody else holds.
    async fn send_due(&self) -> Result<(), sea_orm::DbErr> {
        loop {
            let now = Utc::now();
            let due = notification_delivery::Entity::find()
                .filter(notification_delivery::Column::Channel.eq(NotificationChannel::Email))
                .filter(notification_delivery::Column::Status.eq(DeliveryStatus::Pending))
                .filter(notification_delivery::Column::NextAttemptAt.lte(now))
                .filter(unclaimed(now))
                .order_by_asc(notification_delivery::Column::NextAttemptAt)
                .limit(16)
                .all(&self.db)
                .await?;
            if due.is_empty() {
                return Ok(());
            }
            for delivery in due {
                if self.claim(&delivery).await? {
                    self.deliver(delivery).await?;
                }
            }
        }
    }

    /// Takes `delivery` for this sender, unless another took it first.
    async fn claim(&self, delivery: &notification_delivery::Model) -> Result<bool, sea_orm::DbErr> {
        let now = Utc::now();
        let until = now + CLAIM;
        let taken = notification_delivery::Entity::update_many()
            .col_expr(notification_delivery::Column::ClaimedUntil, Expr::value(Some(until)))
            .filter(notification_delivery::Column::Id.eq(delivery.id))
            .filter(notification_delivery::Column::Status.eq(DeliveryStatus::Pending))
            .filter(unclaimed(now))
            .exec(&self.db)
            .await?;
        Ok(taken.rows_affected == 1)
    }

    async fn deliver(&self, delivery: notification_delivery::Model) -> Result<(), sea_orm::DbErr> {
        let span =
            tracing::info_span!("email", delivery_id = %delivery.id, notification_id = %delivery.notification_id);
        let _enter = span.enter();
        let told = notification::Entity::find_by_id(delivery.notification_id).one(&self.db).await?;
        let person = user::Entity::find_by_id(delivery.user_id).one(&self.db).await?;
        let outcome = match (told, person) {
            (Some(told), Some(person)) if !person.disabled => self.mailer.send(&person.email, &told).await,
            _ => Err(SendError::Permanent("the account is disabled or gone".into())),
        };
        let attempts = delivery.attempts + 1;
        let mut row: notification_delivery::ActiveModel = delivery.into();
        row.attempts = Set(attempts);
        row.claimed_until = Set(None);
        match outcome {
            Ok(()) => {
                tracing::info!(attempts, "emailed");
                row.status = Set(DeliveryStatus::Sent);
                row.sent_at = Set(Some(Utc::now()));
                row.last_error = Set(None);
            }
            Err(e) => {
                let wait = match &e {
                    SendError::Temporary(_) => BACKOFF.get(attempts as usize - 1),
                    SendError::Permanent(_) => None,
                };
                match wait {
                    Some(wait) => {
                        tracing::warn!(error = %e, attempts, retry_in_s = wait.as_secs(), "an email could not be sent yet");
                        row.next_attempt_at = Set(Utc::now() + *wait);
                    }
                    None => {
                        tracing::warn!(error = %e, attempts, "an email was given up on");
                        row.status = Set(DeliveryStatus::Failed);
                    }
                }
                row.last_error = Set(Some(e.to_string()));
            }
        }
        row.update(&self.db).await?;
        Ok(())
    }
}

/// Nobody holds it: never claimed, or its claim lapsed (its sender died).
fn unclaimed(now: chrono::DateTime<Utc>) -> Condition {
    Condition::any()
        .add(notification_delivery::Column::ClaimedUntil.is_null())
        .add(notification_delivery::Column::ClaimedUntil.lt(now))
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

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
