//! A wiki page: a path in a namespace, pointing at its latest revision and at the one published.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wiki_pages")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub namespace_id: Uuid,
    pub workspace_id: Uuid,
    pub project_id: Option<Uuid>,
    /// Normalized (`guides/deploy-checklist`), unique in the namespace.
    pub path: String,
    pub title: String,
    /// `None` only inside the transaction that creates the page.
    pub latest_revision_id: Option<Uuid>,
    /// The number of the revision readers are shown; `None` while the page is a draft.
    pub published_revision: Option<i64>,
    /// The number of the latest revision.
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
