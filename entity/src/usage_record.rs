//! One usage report of a run (a `usage` run event), with where it happened and who ran it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "usage_records")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub run_event_id: Uuid,
    pub workspace_id: Uuid,
    pub project_id: Uuid,
    pub task_id: Uuid,
    pub run_id: Uuid,
    /// The agent of the attempt that reported it.
    pub agent_id: Option<Uuid>,
    /// Who started the run.
    pub user_id: Uuid,
    pub source: UsageSource,
    pub model: Option<String>,
    /// Model requests, when the source counts them.
    pub requests: Option<i64>,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub cached_input_tokens: i64,
    /// Whether the report gave token counts at all.
    pub tokens_known: bool,
    pub cost_usd: Option<f64>,
    pub occurred_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
}

/// Who counted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum UsageSource {
    /// The connector's model gateway, on the way to the provider: measured.
    #[sea_orm(string_value = "gateway")]
    Gateway,
    /// The runtime's report of itself: an estimate.
    #[sea_orm(string_value = "runtime")]
    Runtime,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
