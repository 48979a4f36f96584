//! A person's decision an agent asked for before an action: pending until decided or expired.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "approvals")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub project_id: Uuid,
    pub run_id: Uuid,
    pub attempt_id: Uuid,
    /// The adapter's own id of the request.
    pub request_id: String,
    pub action: String,
    pub reason: Option<String>,
    pub details: Json,
    pub status: ApprovalStatus,
    pub expires_at: DateTimeUtc,
    pub decided_by: Option<Uuid>,
    pub decided_at: Option<DateTimeUtc>,
    pub decision_reason: Option<String>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// Pending until decided; every other status is final.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ApprovalStatus {
    #[sea_orm(string_value = "pending")]
    Pending,
    #[sea_orm(string_value = "approved")]
    Approved,
    #[sea_orm(string_value = "denied")]
    Denied,
    /// Nobody decided in time; the agent was told no.
    #[sea_orm(string_value = "expired")]
    Expired,
    /// The run ended or was cancelled before anyone decided.
    #[sea_orm(string_value = "cancelled")]
    Cancelled,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
