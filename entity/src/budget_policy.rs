//! A limit of tokens and cost for an organization, workspace or project, per day, week or month.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "budget_policies")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub scope_kind: BudgetScope,
    /// The organization's, workspace's or project's id.
    pub scope_id: Uuid,
    pub workspace_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
    pub period: BudgetPeriod,
    pub max_tokens: Option<i64>,
    pub max_cost_usd: Option<f64>,
    pub created_by: Uuid,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum BudgetScope {
    #[sea_orm(string_value = "organization")]
    Organization,
    #[sea_orm(string_value = "workspace")]
    Workspace,
    #[sea_orm(string_value = "project")]
    Project,
}

/// The calendar period a budget counts over, in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum BudgetPeriod {
    #[sea_orm(string_value = "daily")]
    Daily,
    /// From Monday 00:00.
    #[sea_orm(string_value = "weekly")]
    Weekly,
    #[sea_orm(string_value = "monthly")]
    Monthly,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
