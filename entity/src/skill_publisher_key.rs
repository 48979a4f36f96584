//! A publisher's public key (minisign) an organization trusts to sign skill packages.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "skill_publisher_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    /// Who the publisher is, as the administrator named them.
    pub name: String,
    /// minisign's key id: 16 uppercase hex digits.
    pub key_id: String,
    pub public_key: String,
    /// Once revoked, what it signs is quarantined, and what it signed before is too.
    pub revoked_at: Option<DateTimeUtc>,
    pub created_by_user_id: Option<Uuid>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
