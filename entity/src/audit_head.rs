//! The end of an organization's audit chain, locked by every append so that the chain takes one
//! event at a time, and when it was last checkpointed.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_heads")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub organization_id: Uuid,
    pub sequence: i64,
    pub hash: String,
    pub checkpointed_sequence: i64,
    pub checkpointed_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
