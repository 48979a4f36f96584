//! An artifact: a named file of a project, or of one of its tasks, pointing at its latest version.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "artifacts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub workspace_id: Uuid,
    pub project_id: Uuid,
    pub task_id: Option<Uuid>,
    /// The task's id, or the project's: one artifact per name there.
    pub scope_id: Uuid,
    /// A relative path (`reports/summary.md`), checked when the artifact is made.
    pub name: String,
    /// `None` only inside the transaction that creates the artifact.
    pub latest_version_id: Option<Uuid>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
