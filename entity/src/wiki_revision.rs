//! One revision of a wiki page: its path, title and Markdown source as someone saved them. Never changes.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wiki_revisions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub page_id: Uuid,
    /// 1 for the page's first revision, then +1 per revision.
    pub number: i32,
    /// Where the page was at this revision (a rename is a revision).
    pub path: String,
    pub title: String,
    /// Markdown.
    pub source: String,
    /// sha256 of the source, lowercase hex.
    pub sha256: String,
    /// Who wrote it: `{"source": "person", "userId"}` or `{"source": "run", "runId", "attemptId"}`.
    pub provenance: Json,
    pub created_by_user_id: Option<Uuid>,
    pub run_id: Option<Uuid>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
