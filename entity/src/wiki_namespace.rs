//! A wiki namespace: a named set of pages of a workspace, or of one of its projects.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wiki_namespaces")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub workspace_id: Uuid,
    pub project_id: Option<Uuid>,
    /// The project's id, or the workspace's: one namespace per name there.
    pub scope_id: Uuid,
    pub name: String,
    /// What is published here is what the organization holds true: publishing needs a review.
    pub authoritative: bool,
    /// The users who, besides the scope's administrators, may read and write it (a JSON array of
    /// ids); none (null or empty) leaves it to the scope's roles.
    pub acl: Option<Json>,
    pub created_by_user_id: Option<Uuid>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
