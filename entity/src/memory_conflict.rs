//! A write that contradicted an entry's current version: open until a person resolves it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "memory_conflicts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub entry_id: Uuid,
    /// The entry's current version when the contradicting write came.
    pub current_version_id: Uuid,
    /// The contradicting write, kept as a version that is not current.
    pub proposed_version_id: Uuid,
    pub status: ConflictStatus,
    pub resolution: Option<ConflictResolution>,
    pub resolved_by: Option<Uuid>,
    pub resolved_at: Option<DateTimeUtc>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ConflictStatus {
    #[sea_orm(string_value = "open")]
    Open,
    #[sea_orm(string_value = "resolved")]
    Resolved,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ConflictResolution {
    /// The current version stays; the proposed one is kept in history only.
    #[sea_orm(string_value = "keep_current")]
    KeepCurrent,
    /// The proposed version becomes current.
    #[sea_orm(string_value = "accept_proposed")]
    AcceptProposed,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
