//! A browser a person turned push notifications on in: where its push service takes messages
//! for it, and the keys to encrypt them with (RFC 8291).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "push_subscriptions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub user_id: Uuid,
    /// The push service's URL for this browser; unique: one browser profile, one subscription.
    pub endpoint: String,
    /// The browser's P-256 public key (uncompressed point, base64url).
    pub p256dh: String,
    /// Its authentication secret (16 bytes, base64url).
    pub auth: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
