//! One dispatch of a run to an agent: first start, retry or handoff target.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "run_attempts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub run_id: Uuid,
    pub number: i32,
    /// Why the attempt exists: `start`, `retry` or `handoff`.
    pub kind: String,
    pub agent_id: Uuid,
    pub connector_id: Uuid,
    pub status: String,
    pub lease_expires_at: Option<DateTimeUtc>,
    pub ended_at: Option<DateTimeUtc>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
