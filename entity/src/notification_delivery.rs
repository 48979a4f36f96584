//! A notification owed to a person on a channel: kept until it is sent or given up on.

use sea_orm::entity::prelude::*;

use crate::notification_preference::NotificationChannel;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notification_deliveries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub notification_id: Uuid,
    pub user_id: Uuid,
    pub channel: NotificationChannel,
    pub status: DeliveryStatus,
    /// How many times sending was tried.
    pub attempts: i32,
    /// When it is next tried (while pending).
    pub next_attempt_at: DateTimeUtc,
    /// A sender is working on it until then; after, another may take it.
    pub claimed_until: Option<DateTimeUtc>,
    pub last_error: Option<String>,
    pub sent_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum DeliveryStatus {
    /// Not sent yet: tried at `next_attempt_at`.
    #[sea_orm(string_value = "pending")]
    Pending,
    #[sea_orm(string_value = "sent")]
    Sent,
    /// Given up on: refused for good, or still failing after the last attempt.
    #[sea_orm(string_value = "failed")]
    Failed,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
