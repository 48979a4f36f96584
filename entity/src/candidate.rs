//! A proposed change to one scope's settings and skill selection, tried on a task beside the
//! scope's current composition before a person approves it and it is applied.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "candidates")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub scope_kind: CandidateScope,
    pub scope_id: Uuid,
    pub status: CandidateStatus,
    /// The scope's settings revision the proposal was made against; applying checks it again.
    pub expected_revision: i64,
    /// What was proposed: `{settings, activate, deactivate}`.
    pub patch: Json,
    /// The scope's composition when proposed: `{settings, skills: [{skill_id, version_id}]}`.
    pub baseline: Json,
    /// The baseline with the patch applied, in the same shape.
    pub candidate: Json,
    pub task_id: Option<Uuid>,
    pub baseline_run_id: Option<Uuid>,
    pub candidate_run_id: Option<Uuid>,
    /// What was observed of both runs once they ended.
    pub comparison: Option<Json>,
    pub decision_reason: Option<String>,
    pub decided_by: Option<Uuid>,
    /// What applying it changed, and when.
    pub receipt: Option<Json>,
    pub proposed_by: Uuid,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// What kind of scope a candidate changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum CandidateScope {
    #[sea_orm(string_value = "organization")]
    Organization,
    #[sea_orm(string_value = "workspace")]
    Workspace,
    #[sea_orm(string_value = "project")]
    Project,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum CandidateStatus {
    #[sea_orm(string_value = "proposed")]
    Proposed,
    /// Its baseline and candidate runs were started.
    #[sea_orm(string_value = "prepared")]
    Prepared,
    /// Both runs ended and what they did is recorded.
    #[sea_orm(string_value = "compared")]
    Compared,
    #[sea_orm(string_value = "approved")]
    Approved,
    #[sea_orm(string_value = "rejected")]
    Rejected,
    #[sea_orm(string_value = "applied")]
    Applied,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
