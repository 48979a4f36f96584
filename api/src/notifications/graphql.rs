//! Notifications in GraphQL: the caller's own `notifications`, `unreadNotificationCount`,
//! `markNotificationsRead`, the `notificationAdded` subscription, and what reaches them where
//! (`notificationSettings`, `setNotificationPreference`).

use acc_entity::notification;
use async_graphql::connection::Connection;
use async_graphql::{Context, Enum, ID, Object, SimpleObject, Subscription};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};

use crate::broker::{Delivery, Event, Topic};
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{ContextExt, gql_error};
use crate::ids::{NodeKind, decode, gid};

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::notification::NotificationKind")]
pub enum NotificationKind {
    /// A decision waits for you: `subjectId` is the approval.
    ApprovalWaiting,
    /// A run you started failed: `subjectId` is the run.
    RunFailed,
    /// A budget of a scope you administer is 80 % used: `subjectId` is the budget policy.
    BudgetWarning,
    /// A budget is spent: no new run starts in its scope until its period ends.
    BudgetSpent,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::notification_preference::NotificationChannel")]
pub enum NotificationChannel {
    /// An email to your account's address, when the server has an SMTP relay.
    Email,
    /// A Web Push message to each browser you turned push on in.
    Push,
}

/// Whether one kind of notification reaches you on one channel (the app always keeps it).
#[derive(SimpleObject)]
pub struct NotificationPreference {
    kind: NotificationKind,
    channel: NotificationChannel,
    enabled: bool,
}

impl From<super::Preference> for NotificationPreference {
    fn from(p: super::Preference) -> Self {
        Self { kind: p.kind.into(), channel: p.channel.into(), enabled: p.enabled }
    }
}

/// What you are told, and where.
#[derive(SimpleObject)]
pub struct NotificationSettings {
    /// Whether this server sends email (its operator configured an SMTP relay).
    email_available: bool,
    /// Where your emails go: your account's address.
    email_address: String,
    /// The key a browser subscribes to this server's push messages with
    /// (`pushManager.subscribe({applicationServerKey})`): a P-256 public key, base64url.
    web_push_public_key: String,
    /// How many of your browsers take push messages.
    push_devices: u64,
    /// Every kind on every channel, as you chose or by default (on).
    preferences: Vec<NotificationPreference>,
}

/// Something you were told, once; it changes nothing by itself.
pub struct Notification(pub notification::Model);

#[Object]
impl Notification {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Notification, self.0.id)
    }
    async fn kind(&self) -> NotificationKind {
        self.0.kind.into()
    }
    async fn title(&self) -> &str {
        &self.0.title
    }
    async fn body(&self) -> &str {
        &self.0.body
    }
    /// What it is about, to open: the approval, the run or the budget policy.
    async fn subject_id(&self) -> Option<ID> {
        let kind = match self.0.kind {
            notification::NotificationKind::ApprovalWaiting => NodeKind::Approval,
            notification::NotificationKind::RunFailed => NodeKind::TaskRun,
            notification::NotificationKind::BudgetWarning | notification::NotificationKind::BudgetSpent => {
                NodeKind::BudgetPolicy
            }
        };
        self.0.subject_id.map(|id| gid(kind, id))
    }
    async fn project_id(&self) -> Option<ID> {
        self.0.project_id.map(|id| gid(NodeKind::Project, id))
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn read_at(&self) -> Option<DateTime<Utc>> {
        self.0.read_at
    }
}

#[derive(Default)]
pub struct NotificationQuery;

#[Object]
impl NotificationQuery {
    /// Your notifications, oldest first (`last` for the newest); only unread ones when asked.
    async fn notifications(
        &self,
        ctx: &Context<'_>,
        #[graphql(default)] unread_only: bool,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Notification>> {
        let page = page_request(after, before, first, last)?;
        let rows =
            ctx.services().notifications.notifications(ctx.actor()?, unread_only, &page).await.map_err(gql_error)?;
        Ok(connection(rows, |n| n.id, Notification))
    }

    async fn unread_notification_count(&self, ctx: &Context<'_>) -> async_graphql::Result<u64> {
        ctx.services().notifications.unread_count(ctx.actor()?).await.map_err(gql_error)
    }

    /// What you are told, and where.
    async fn notification_settings(&self, ctx: &Context<'_>) -> async_graphql::Result<NotificationSettings> {
        let settings = ctx.services().notifications.settings(ctx.actor()?).await.map_err(gql_error)?;
        Ok(NotificationSettings {
            email_available: settings.email_available,
            email_address: settings.email_address,
            web_push_public_key: settings.push_public_key,
            push_devices: settings.push_devices,
            preferences: settings.preferences.into_iter().map(Into::into).collect(),
        })
    }
}

#[derive(Default)]
pub struct NotificationMutation;

#[Object]
impl NotificationMutation {
    /// Marks your notifications `ids` read, or all of them without `ids`; how many were unread.
    async fn mark_notifications_read(&self, ctx: &Context<'_>, ids: Option<Vec<ID>>) -> async_graphql::Result<u64> {
        let ids = ids
            .map(|ids| {
                ids.iter().map(|id| decode(id, NodeKind::Notification)).collect::<async_graphql::Result<Vec<_>>>()
            })
            .transpose()?;
        ctx.services().notifications.mark_read(ctx.actor()?, ids.as_deref()).await.map_err(gql_error)
    }

    /// Push messages to you go to this browser too: its `PushSubscription` (`endpoint`, and
    /// `keys.p256dh` and `keys.auth`). The endpoint must be at a push service this server allows.
    async fn register_push_subscription(
        &self,
        ctx: &Context<'_>,
        endpoint: String,
        // The name the browser gives it (`keys.p256dh`), not `p256Dh`.
        #[graphql(name = "p256dh")] p256dh: String,
        auth: String,
    ) -> async_graphql::Result<bool> {
        let subscription = super::push::NewSubscription { endpoint, p256dh, auth };
        ctx.services().notifications.register_push(ctx.actor()?, subscription).await.map_err(gql_error)?;
        Ok(true)
    }

    /// This browser takes no more push messages for you; whether it did.
    async fn remove_push_subscription(&self, ctx: &Context<'_>, endpoint: String) -> async_graphql::Result<bool> {
        ctx.services().notifications.remove_push(ctx.actor()?, &endpoint).await.map_err(gql_error)
    }

    /// Whether `kind` also reaches you on `channel` from now on; what was already sent stays sent.
    async fn set_notification_preference(
        &self,
        ctx: &Context<'_>,
        kind: NotificationKind,
        channel: NotificationChannel,
        enabled: bool,
    ) -> async_graphql::Result<NotificationPreference> {
        let preference = super::Preference { kind: kind.into(), channel: channel.into(), enabled };
        let set = ctx.services().notifications.set_preference(ctx.actor()?, preference).await.map_err(gql_error)?;
        Ok(set.into())
    }
}

#[derive(Default)]
pub struct NotificationSubscription;

#[Subscription]
impl NotificationSubscription {
    /// Each notification you are given from now on, as it is made.
    async fn notification_added(&self, ctx: &Context<'_>) -> async_graphql::Result<impl Stream<Item = Notification>> {
        let actor = ctx.actor()?;
        let live = ctx.services().broker.subscribe(Topic::UserNotifications(actor.user_id));
        Ok(live.filter_map(|delivery| {
            let shown = match delivery {
                Delivery::Event(event) => match &*event {
                    Event::Notification(row) => Some(Notification(row.clone())),
                    _ => None,
                },
                Delivery::Lagged(_) => None,
            };
            async move { shown }
        }))
    }
}
