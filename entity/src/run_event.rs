//! One event of a run, with its gap-free per-run sequence; persisted before it is acknowledged.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "run_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub run_id: Uuid,
    pub sequence: i64,
    pub attempt_id: Option<Uuid>,
    pub connector_id: Option<Uuid>,
    pub event_id: Option<Uuid>,
    /// The connector's own sequence of the event; acknowledgements go up to the highest stored without a gap.
    pub connector_sequence: Option<i64>,
    pub kind: String,
    pub data: Json,
    pub occurred_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
