//! Notifications (SPEC §16): what a person is told — a decision waits for them, a run they started
//! failed, a budget of a scope they administer is nearly or wholly spent — once per dedupe key,
//! in the app (`notifications`, the `notificationAdded` subscription) until they read it, and by
//! email (when the server has an SMTP relay) and Web Push to their browsers, unless they turned
//! that kind off there (`outbox.rs`, `email.rs`, `push.rs`).
//!
//! A notification only tells: it never changes a task, run or approval, and one that cannot be
//! made is logged, never an error of the action that caused it.

pub mod email;
pub mod graphql;
pub mod outbox;
pub mod push;

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::notification::{self, NotificationKind};
use acc_entity::notification_preference::{self, NotificationChannel};
use acc_entity::{approval, budget_policy, notification_delivery, push_subscription, role_binding, task_run, user};
use chrono::Utc;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, EntityTrait, Iterable, PaginatorTrait, QueryFilter};
use uuid::Uuid;

use crate::audit::{AuditLog, Entry};
use crate::broker::{Broker, Event, Topic};
use crate::db::{Pool, Reads, Store};
use crate::error::CommonError;
use crate::identity::actor::{Actor, Role, ScopePath};
use crate::ids::{GlobalId, NodeKind, new_id};
use crate::pagination::{Page, PageRequest, paginate};
use outbox::Outbox;
use push::NewSubscription;

/// Whether `kind` reaches a person on `channel`, given their `chosen` preferences: as they chose,
/// else on (every kind on every channel by default: a person turns off what they do not want).
fn enabled(chosen: &[notification_preference::Model], kind: NotificationKind, channel: NotificationChannel) -> bool {
    chosen.iter().find(|p| p.kind == kind && p.channel == channel).is_none_or(|p| p.enabled)
}

/// Where in the web client a notification's subject opens, as the bell leads there (notices.ts):
/// the links of emails and push messages.
fn web_path(told: &notification::Model) -> String {
    match (told.kind, told.subject_id) {
        (NotificationKind::RunFailed, Some(run)) => format!("/runs/{}", GlobalId::new(NodeKind::TaskRun, run).encode()),
        (NotificationKind::ApprovalWaiting, _) => "/approvals".into(),
        _ => "/usage".into(),
    }
}

/// What to tell, and to whom it is the same notification.
#[derive(Debug, Clone)]
pub struct Notice {
    pub organization_id: Uuid,
    pub kind: NotificationKind,
    pub dedupe_key: String,
    pub title: String,
    pub body: String,
    pub subject_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
}

/// The share of a budget used at which its administrators are warned.
pub const BUDGET_WARNING_PERCENT: f64 = 80.0;

/// Whether one kind of notification reaches a person on one channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    pub kind: NotificationKind,
    pub channel: NotificationChannel,
    pub enabled: bool,
}

/// What a person is told, and where.
#[derive(Debug, Clone)]
pub struct NotificationSettings {
    /// Whether this server sends email at all (it has an SMTP relay).
    pub email_available: bool,
    /// Where emails to the person go.
    pub email_address: String,
    /// The key a browser subscribes to this server's push messages with.
    pub push_public_key: String,
    /// How many of the person's browsers take push messages.
    pub push_devices: u64,
    /// Every kind on every channel, chosen or by default.
    pub preferences: Vec<Preference>,
}

#[derive(Clone)]
pub struct NotificationService {
    db: Pool,
    reads: Reads,
    broker: Broker,
    audit: AuditLog,
    outbox: Outbox,
    max_page_size: u64,
}

impl NotificationService {
    pub fn new(store: &Store, broker: Broker, audit: AuditLog, outbox: Outbox, max_page_size: u64) -> Self {
        Self { db: store.pool.clone(), reads: store.reads.clone(), broker, audit, outbox, max_page_size }
    }

    /// Tells each of `recipients` `notice`, unless they were told it already (its dedupe key);
    /// those newly told hear of it live. Never fails: a notice that cannot be made is logged.
    pub async fn tell(&self, notice: Notice, recipients: &[Uuid]) {
        for user_id in recipients {
            if let Err(e) = self.tell_one(&notice, *user_id).await {
                tracing::warn!(error = %e, kind = %notice.kind, %user_id, "a notification could not be made");
            }
        }
    }

    async fn tell_one(&self, notice: &Notice, user_id: Uuid) -> Result<(), sea_orm::DbErr> {
        let row = notification::Model {
            id: new_id(),
            organization_id: notice.organization_id,
            user_id,
            kind: notice.kind,
            dedupe_key: notice.dedupe_key.clone(),
            title: notice.title.clone(),
            body: notice.body.clone(),
            subject_id: notice.subject_id,
            project_id: notice.project_id,
            read_at: None,
            created_at: Utc::now(),
        };
        let made = notification::Entity::insert(notification::ActiveModel::from(row.clone()))
            .on_conflict(
                OnConflict::columns([notification::Column::UserId, notification::Column::DedupeKey])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
        if made == 0 {
            return Ok(());
        }
        let channels = self.channels(user_id).await?;
        if !channels.is_empty() {
            let chosen = self.preferences_of(user_id).await?;
            let owed: Vec<_> = channels
                .into_iter()
                .filter(|channel| enabled(&chosen, row.kind, *channel))
                .map(|channel| Outbox::delivery(&row, channel))
                .collect();
            if !owed.is_empty() {
                notification_delivery::Entity::insert_many(owed).exec_without_returning(&self.db).await?;
                self.outbox.queued();
            }
        }
        self.broker.publish(Topic::UserNotifications(user_id), Event::Notification(row));
        Ok(())
    }

    /// Sends what is owed by email and push, in the background.
    pub fn spawn_outbox(&self) {
        tokio::spawn(self.outbox.clone().run());
    }

    /// The channels besides the app that can reach `user_id`: email when the server has a relay,
    /// push when one of their browsers takes it.
    async fn channels(&self, user_id: Uuid) -> Result<Vec<NotificationChannel>, sea_orm::DbErr> {
        let mut channels = Vec::with_capacity(2);
        if self.outbox.sends_email() {
            channels.push(NotificationChannel::Email);
        }
        let browsers = push_subscription::Entity::find().filter(push_subscription::Column::UserId.eq(user_id));
        if self.reads.one(browsers).await?.is_some() {
            channels.push(NotificationChannel::Push);
        }
        Ok(channels)
    }

    /// The choices `user_id` made; a kind and channel without one is on.
    async fn preferences_of(&self, user_id: Uuid) -> Result<Vec<notification_preference::Model>, sea_orm::DbErr> {
        self.reads
            .all(notification_preference::Entity::find().filter(notification_preference::Column::UserId.eq(user_id)))
            .await
    }

    /// What the caller is told, and where.
    pub async fn settings(&self, actor: &Actor) -> Result<NotificationSettings, CommonError> {
        let person =
            self.reads.one(user::Entity::find_by_id(actor.user_id)).await?.ok_or(CommonError::NotFound("user"))?;
        let chosen = self.preferences_of(actor.user_id).await?;
        let preferences = NotificationKind::iter()
            .flat_map(|kind| NotificationChannel::iter().map(move |channel| (kind, channel)))
            .map(|(kind, channel)| Preference { kind, channel, enabled: enabled(&chosen, kind, channel) })
            .collect();
        let push_devices = push_subscription::Entity::find()
            .filter(push_subscription::Column::UserId.eq(actor.user_id))
            .count(&self.db)
            .await?;
        Ok(NotificationSettings {
            email_available: self.outbox.sends_email(),
            email_address: person.email,
            push_public_key: self.outbox.pusher().public_key(),
            push_devices,
            preferences,
        })
    }

    /// The caller's choice of whether `preference.kind` reaches them on `preference.channel`;
    /// what is already made or owed is left as it is.
    pub async fn set_preference(&self, actor: &Actor, preference: Preference) -> Result<Preference, CommonError> {
        let now = Utc::now();
        let row = notification_preference::ActiveModel::from(notification_preference::Model {
            id: new_id(),
            organization_id: actor.organization_id,
            user_id: actor.user_id,
            kind: preference.kind,
            channel: preference.channel,
            enabled: preference.enabled,
            created_at: now,
            updated_at: now,
        });
        let txn = self.db.begin_write().await?;
        notification_preference::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([
                    notification_preference::Column::UserId,
                    notification_preference::Column::Kind,
                    notification_preference::Column::Channel,
                ])
                .update_columns([notification_preference::Column::Enabled, notification_preference::Column::UpdatedAt])
                .to_owned(),
            )
            .exec_without_returning(&txn)
            .await?;
        let entry = Entry::by(actor, AuditAction::NotificationPreferenceSet)
            .on(AuditTargetKind::User, actor.user_id)
            .with("kind", preference.kind.to_string())
            .with("channel", preference.channel.to_string())
            .with("enabled", preference.enabled);
        self.audit.append(&txn, entry).await?;
        txn.commit().await?;
        Ok(preference)
    }

    /// The active people with at least `least` on `path` (by a binding on it or above it).
    pub async fn people_with(&self, path: &ScopePath, least: Role) -> Result<Vec<Uuid>, sea_orm::DbErr> {
        let scopes = [Some(path.organization_id), path.workspace_id, path.project_id];
        let bindings = self
            .reads
            .all(
                role_binding::Entity::find()
                    .filter(role_binding::Column::OrganizationId.eq(path.organization_id))
                    .filter(role_binding::Column::ScopeId.is_in(scopes.into_iter().flatten())),
            )
            .await?;
        let mut people: Vec<Uuid> = bindings
            .into_iter()
            .filter(|b| b.role.parse::<Role>().is_ok_and(|role| role >= least))
            .map(|b| b.subject_id)
            .collect();
        people.sort_unstable();
        people.dedup();
        let active = self
            .reads
            .all(user::Entity::find().filter(user::Column::Id.is_in(people)).filter(user::Column::Disabled.eq(false)))
            .await?;
        Ok(active.into_iter().map(|u| u.id).collect())
    }

    /// A pending approval: those who may decide it are told (operators of a run's project;
    /// for a wiki review or a skill activation, those who write or administer its scope), but
    /// not who asked for it.
    pub async fn approval_waiting(&self, approval: &approval::Model) {
        let path = ScopePath {
            organization_id: approval.organization_id,
            workspace_id: approval.workspace_id,
            project_id: approval.project_id,
        };
        let least = match approval.subject {
            acc_entity::approval::ApprovalSubject::RunAction => Role::Operator,
            acc_entity::approval::ApprovalSubject::WikiPublication => Role::Member,
            acc_entity::approval::ApprovalSubject::SkillActivation => Role::Admin,
        };
        let people = match self.people_with(&path, least).await {
            Ok(people) => people,
            Err(e) => return tracing::warn!(error = %e, "the people to tell of an approval could not be read"),
        };
        let recipients: Vec<Uuid> = people.into_iter().filter(|p| Some(*p) != approval.requested_by_user_id).collect();
        let notice = Notice {
            organization_id: approval.organization_id,
            kind: NotificationKind::ApprovalWaiting,
            dedupe_key: format!("approval:{}", approval.id),
            title: "A decision waits for you".into(),
            body: approval.action.clone(),
            subject_id: Some(approval.id),
            project_id: approval.project_id,
        };
        self.tell(notice, &recipients).await;
    }

    /// A run failed: whoever started it is told.
    pub async fn run_failed(&self, run: &task_run::Model) {
        let notice = Notice {
            organization_id: run.organization_id,
            kind: NotificationKind::RunFailed,
            dedupe_key: format!("run_failed:{}", run.id),
            title: "A run you started failed".into(),
            body: run.status_reason.clone().unwrap_or_else(|| "It ended without saying why.".into()),
            subject_id: Some(run.id),
            project_id: Some(run.project_id),
        };
        self.tell(notice, &[run.created_by]).await;
    }

    /// A budget reached `percent` of a limit in the period starting `period_start`: its scope's
    /// administrators are told once per period at 80 % and once when it is spent.
    pub async fn budget_used(&self, policy: &budget_policy::Model, percent: f64, period_start: chrono::DateTime<Utc>) {
        let (kind, step, title) = if percent >= 100.0 {
            (NotificationKind::BudgetSpent, 100, "A budget is spent")
        } else if percent >= BUDGET_WARNING_PERCENT {
            (NotificationKind::BudgetWarning, 80, "A budget is 80 % used")
        } else {
            return;
        };
        let path = ScopePath {
            organization_id: policy.organization_id,
            workspace_id: policy.workspace_id,
            project_id: policy.project_id,
        };
        let admins = match self.people_with(&path, Role::Admin).await {
            Ok(admins) => admins,
            Err(e) => return tracing::warn!(error = %e, "the administrators to tell of a budget could not be read"),
        };
        let body = match kind {
            NotificationKind::BudgetSpent => format!(
                "The {} budget of this {} is spent: no new run starts there until the period ends.",
                policy.period, policy.scope_kind
            ),
            _ => format!("The {} budget of this {} is {percent:.0} % used.", policy.period, policy.scope_kind),
        };
        let notice = Notice {
            organization_id: policy.organization_id,
            kind,
            dedupe_key: format!("budget:{}:{}:{step}", policy.id, period_start.to_rfc3339()),
            title: title.into(),
            body,
            subject_id: Some(policy.id),
            project_id: policy.project_id,
        };
        self.tell(notice, &admins).await;
    }

    /// Push messages to the caller go to this browser too (one browser profile is one
    /// subscription: another person's earlier one there becomes the caller's).
    pub async fn register_push(&self, actor: &Actor, subscription: NewSubscription) -> Result<(), CommonError> {
        let service = self.outbox.pusher().check(&subscription).map_err(CommonError::validation)?;
        let row = push_subscription::ActiveModel::from(push_subscription::Model {
            id: new_id(),
            organization_id: actor.organization_id,
            user_id: actor.user_id,
            endpoint: subscription.endpoint,
            p256dh: subscription.p256dh,
            auth: subscription.auth,
            created_at: Utc::now(),
        });
        let txn = self.db.begin_write().await?;
        push_subscription::Entity::insert(row)
            .on_conflict(
                OnConflict::column(push_subscription::Column::Endpoint)
                    .update_columns([
                        push_subscription::Column::OrganizationId,
                        push_subscription::Column::UserId,
                        push_subscription::Column::P256dh,
                        push_subscription::Column::Auth,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(&txn)
            .await?;
        // The endpoint itself is where anyone holding it may post: only its service is recorded.
        let entry = Entry::by(actor, AuditAction::PushSubscriptionRegistered)
            .on(AuditTargetKind::User, actor.user_id)
            .with("push_service", service);
        self.audit.append(&txn, entry).await?;
        txn.commit().await?;
        Ok(())
    }

    /// This browser takes no more push messages for the caller; whether it did.
    pub async fn remove_push(&self, actor: &Actor, endpoint: &str) -> Result<bool, CommonError> {
        let txn = self.db.begin_write().await?;
        let removed = push_subscription::Entity::delete_many()
            .filter(push_subscription::Column::UserId.eq(actor.user_id))
            .filter(push_subscription::Column::Endpoint.eq(endpoint))
            .exec(&txn)
            .await?
            .rows_affected
            > 0;
        if removed {
            let entry = Entry::by(actor, AuditAction::PushSubscriptionRemoved).on(AuditTargetKind::User, actor.user_id);
            self.audit.append(&txn, entry).await?;
        }
        txn.commit().await?;
        Ok(removed)
    }

    /// The caller's notifications, newest last (`last` for the newest), unread ones only when asked.
    pub async fn notifications(
        &self,
        actor: &Actor,
        unread_only: bool,
        page: &PageRequest,
    ) -> Result<Page<notification::Model>, CommonError> {
        let mut select = notification::Entity::find().filter(notification::Column::UserId.eq(actor.user_id));
        if unread_only {
            select = select.filter(notification::Column::ReadAt.is_null());
        }
        paginate(&self.reads, select, notification::Column::Id, page, self.max_page_size).await
    }

    pub async fn unread_count(&self, actor: &Actor) -> Result<u64, CommonError> {
        Ok(notification::Entity::find()
            .filter(notification::Column::UserId.eq(actor.user_id))
            .filter(notification::Column::ReadAt.is_null())
            .count(&self.db)
            .await?)
    }

    /// One of the caller's notifications.
    pub async fn notification(&self, actor: &Actor, id: Uuid) -> Result<notification::Model, CommonError> {
        self.reads
            .one(notification::Entity::find_by_id(id))
            .await?
            .filter(|n| n.user_id == actor.user_id)
            .ok_or(CommonError::NotFound("notification"))
    }

    /// Marks the caller's notifications `ids` read (all of them when `None`); how many were
    /// unread. Another person's ids are not the caller's: nothing happens to them.
    pub async fn mark_read(&self, actor: &Actor, ids: Option<&[Uuid]>) -> Result<u64, CommonError> {
        if ids.is_some_and(|ids| ids.len() > self.max_page_size as usize) {
            return Err(CommonError::validation(format!("at most {} ids at a time", self.max_page_size)));
        }
        let mut update = notification::Entity::update_many()
            .col_expr(notification::Column::ReadAt, Expr::value(Some(Utc::now())))
            .filter(notification::Column::UserId.eq(actor.user_id))
            .filter(notification::Column::ReadAt.is_null());
        if let Some(ids) = ids {
            update = update.filter(notification::Column::Id.is_in(ids.iter().copied()));
        }
        Ok(update.exec(&self.db).await?.rows_affected)
    }
}
