//! The embedding of a wiki page's latest revision, for search by meaning. Derived from the page.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wiki_vectors")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub page_id: Uuid,
    pub organization_id: Uuid,
    pub namespace_id: Uuid,
    /// The revision embedded; the vector is stale once the page has a later one.
    pub revision_id: Uuid,
    /// The embedding model that made the vector; vectors of other models are not compared.
    pub model: String,
    /// Little-endian f32s of length 1.
    pub vector: Vec<u8>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
