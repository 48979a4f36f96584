//! A skill version switched on for an organization, workspace or project: runs that start there
//! afterwards get it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "skill_activations")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub skill_version_id: Uuid,
    pub skill_id: Uuid,
    pub workspace_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
    /// The organization's, workspace's or project's id.
    pub scope_id: Uuid,
    pub status: ActivationStatus,
    pub activated_by: Option<Uuid>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ActivationStatus {
    #[sea_orm(string_value = "active")]
    Active,
    /// A package with scripts, waiting for its approval.
    #[sea_orm(string_value = "pending_approval")]
    PendingApproval,
    /// Switched off, replaced by another version, denied, or its version revoked.
    #[sea_orm(string_value = "inactive")]
    Inactive,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
