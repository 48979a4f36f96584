//! What is owed beyond the app: each email or push message a notification owes its person is a
//! `notification_deliveries` row, made with the notification and sent by [`Outbox::run`] —
//! retried with back-off while the relay or push service answers "try later" or cannot be
//! reached, given up on when it refuses for good. Rows outlive a restart; a sender claims a row
//! for a while before sending, so two replicas never send one message twice unless one of them
//! dies mid-send.

use std::sync::Arc;
use std::time::Duration;

use acc_entity::notification;
use acc_entity::notification_delivery::{self, DeliveryStatus};
use acc_entity::notification_preference::NotificationChannel;
use acc_entity::user;
use chrono::Utc;
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use tokio::sync::Notify;

use super::email::Mailer;
use super::push::Pusher;
use crate::db::Pool;

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

/// Why a message was not sent.
#[derive(Debug, thiserror::Error)]
pub(super) enum SendError {
    /// It will not go however often it is tried: a bad address, a refusal for good.
    #[error("{0}")]
    Permanent(String),
    /// It may go later: the relay or push service said so, or could not be reached.
    #[error("{0}")]
    Temporary(String),
}

/// The messages owed, and their sender: queued by the notification service, sent by
/// [`Outbox::run`] for as long as the server runs.
#[derive(Clone)]
pub struct Outbox {
    db: Pool,
    /// Set when the server has an SMTP relay.
    mailer: Option<Arc<Mailer>>,
    pusher: Arc<Pusher>,
    wake: Arc<Notify>,
}

impl Outbox {
    pub fn new(db: Pool, mailer: Option<Mailer>, pusher: Pusher) -> Self {
        Self { db, mailer: mailer.map(Arc::new), pusher: Arc::new(pusher), wake: Arc::new(Notify::new()) }
    }

    pub fn sends_email(&self) -> bool {
        self.mailer.is_some()
    }

    pub fn pusher(&self) -> &Pusher {
        &self.pusher
    }

    /// The row that owes `told` to its person on `channel`.
    pub(super) fn delivery(
        told: &notification::Model,
        channel: NotificationChannel,
    ) -> notification_delivery::ActiveModel {
        let now = Utc::now();
        notification_delivery::Model {
            id: crate::ids::new_id(),
            notification_id: told.id,
            user_id: told.user_id,
            channel,
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
                tracing::warn!(error = %e, "owed notifications could not be read");
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

    async fn send(&self, delivery: &notification_delivery::Model) -> Result<(), SendError> {
        let database = |e: sea_orm::DbErr| SendError::Temporary(e.to_string());
        let told = notification::Entity::find_by_id(delivery.notification_id).one(&self.db).await.map_err(database)?;
        let person = user::Entity::find_by_id(delivery.user_id).one(&self.db).await.map_err(database)?;
        let (Some(told), Some(person)) = (told, person.filter(|p| !p.disabled)) else {
            return Err(SendError::Permanent("the account is disabled or gone".into()));
        };
        match (delivery.channel, &self.mailer) {
            (NotificationChannel::Email, Some(mailer)) => mailer.send(&person.email, &told).await,
            (NotificationChannel::Email, None) => Err(SendError::Permanent("this server has no SMTP relay".into())),
            (NotificationChannel::Push, _) => self.pusher.send(&self.db, &told).await,
        }
    }

    async fn deliver(&self, delivery: notification_delivery::Model) -> Result<(), sea_orm::DbErr> {
        let span = tracing::info_span!(
            "delivery",
            delivery_id = %delivery.id,
            notification_id = %delivery.notification_id,
            channel = %delivery.channel,
        );
        let outcome = tracing::Instrument::instrument(self.send(&delivery), span.clone()).await;
        let _enter = span.enter();
        let attempts = delivery.attempts + 1;
        let mut row: notification_delivery::ActiveModel = delivery.into();
        row.attempts = Set(attempts);
        row.claimed_until = Set(None);
        match outcome {
            Ok(()) => {
                tracing::info!(attempts, "sent");
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
                        tracing::warn!(error = %e, attempts, retry_in_s = wait.as_secs(), "a notification could not be sent yet");
                        row.next_attempt_at = Set(Utc::now() + *wait);
                    }
                    None => {
                        tracing::warn!(error = %e, attempts, "a notification was given up on");
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
