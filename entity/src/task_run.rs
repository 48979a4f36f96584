//! One run of a task on an agent, through its state machine.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "task_runs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub project_id: Uuid,
    pub task_id: Uuid,
    /// The agent of the current attempt (or the one asked for, before the first dispatch).
    pub agent_id: Option<Uuid>,
    /// The agent retries go to: the one `startRun` asked for, or the target of a completed
    /// handoff. `None`: any suitable agent.
    pub requested_agent_id: Option<Uuid>,
    /// The agent a handoff in progress goes to; cleared once it took the run over.
    pub handoff_target_id: Option<Uuid>,
    pub status: String,
    pub status_reason: Option<String>,
    pub required_capabilities: Json,
    pub input: Json,
    pub created_by: Uuid,
    /// How many attempts the retry policy allows, frozen when the run started.
    pub max_attempts: i32,
    /// What the run may use of its model provider (`acc_protocol::RunBudget` as JSON), frozen when it started.
    pub budget: Option<Json>,
    /// A candidate's side (settings layer and skill versions) the run was started with, in place of
    /// its scope's current composition; `None` for every other run.
    pub composition: Option<Json>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
