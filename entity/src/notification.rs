//! Something a person is told: once per dedupe key, in the app until they read it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notifications")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    /// Who is told.
    pub user_id: Uuid,
    pub kind: NotificationKind,
    /// What makes two notifications the same one.
    pub dedupe_key: String,
    pub title: String,
    pub body: String,
    /// What it is about, to open: the approval, the run or the budget policy.
    pub subject_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
    pub read_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum NotificationKind {
    /// A decision waits for someone who may take it (the subject is the approval).
    #[sea_orm(string_value = "approval_waiting")]
    ApprovalWaiting,
    /// A run the person started failed (the subject is the run).
    #[sea_orm(string_value = "run_failed")]
    RunFailed,
    /// A budget of a scope the person administers is 80 % used (the subject is the policy).
    #[sea_orm(string_value = "budget_warning")]
    BudgetWarning,
    /// A budget is spent: no new run starts in its scope until its period ends.
    #[sea_orm(string_value = "budget_spent")]
    BudgetSpent,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
