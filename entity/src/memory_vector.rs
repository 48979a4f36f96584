//! The embedding of a memory entry's current version, for vector search. Derived from the entry.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "memory_vectors")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub entry_id: Uuid,
    pub organization_id: Uuid,
    pub scope_id: Uuid,
    /// The version embedded; the vector is stale once another version is current.
    pub version_id: Uuid,
    /// The embedding model that made the vector; vectors of other models are not compared.
    pub model: String,
    /// Little-endian f32s of length 1.
    pub vector: Vec<u8>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
