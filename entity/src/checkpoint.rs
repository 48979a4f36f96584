//! A run's state as its agent saved it on request: to go on later, or to hand the run to another agent.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "checkpoints")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub run_id: Uuid,
    pub attempt_id: Uuid,
    pub reason: String,
    pub data: Json,
    /// The agent the run is handed to, when the checkpoint was taken for a handoff.
    pub target_agent_id: Option<Uuid>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
