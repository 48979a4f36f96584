//! A connector next to the agents; dials out to the control plane with its credential.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "connectors")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub workspace_id: Uuid,
    pub name: String,
    #[sea_orm(unique)]
    pub credential_hash: String,
    pub version: Option<String>,
    pub online: bool,
    pub health: Option<String>,
    pub last_seen_at: Option<DateTimeUtc>,
    pub revoked_at: Option<DateTimeUtc>,
    /// SHA-256 (hex) of the client certificate issued at enrollment; over TLS it must be presented.
    pub certificate_sha256: Option<String>,
    /// Set when a person removed the (revoked) connector: it and its agents leave the listings,
    /// and the runs that used them keep naming them.
    pub removed_at: Option<DateTimeUtc>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
