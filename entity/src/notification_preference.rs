//! A person's choice of whether one kind of notification also reaches them on one channel.
//! No row means the channel's default (notifications/preferences.rs).

use sea_orm::entity::prelude::*;

use crate::notification::NotificationKind;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notification_preferences")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub user_id: Uuid,
    pub kind: NotificationKind,
    pub channel: NotificationChannel,
    pub enabled: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// Where a notification reaches a person besides the app, which always keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum NotificationChannel {
    /// An email to the account's address, through the operator's SMTP relay.
    #[sea_orm(string_value = "email")]
    Email,
    /// A Web Push message to each browser the person turned push on in.
    #[sea_orm(string_value = "push")]
    Push,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
