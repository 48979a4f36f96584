//! A memory entry: one subject in one scope, pointing at its current version.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "memory_entries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub workspace_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
    pub scope_kind: MemoryScopeKind,
    pub scope_id: Uuid,
    pub kind: MemoryKind,
    /// What the entry is about, normalized: a second write about it contradicts or supersedes this one.
    pub subject: String,
    /// `None` only inside the transaction that creates the entry.
    pub current_version_id: Option<Uuid>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// Where an entry lives; a narrower scope reads what broader scopes hold, never the reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum MemoryScopeKind {
    #[sea_orm(string_value = "organization")]
    Organization,
    #[sea_orm(string_value = "workspace")]
    Workspace,
    #[sea_orm(string_value = "project")]
    Project,
    #[sea_orm(string_value = "task")]
    Task,
    /// One run of a task: what its agent learned while working.
    #[sea_orm(string_value = "run")]
    Run,
    /// One person's own: only they read it, from every scope of their organization.
    #[sea_orm(string_value = "user")]
    User,
    /// One agent's own: what it learned across its runs. Its runs read it, other agents' never;
    /// people of its workspace read it to review it, from the agent's scope only.
    #[sea_orm(string_value = "agent")]
    Agent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum MemoryKind {
    #[sea_orm(string_value = "fact")]
    Fact,
    #[sea_orm(string_value = "decision")]
    Decision,
    #[sea_orm(string_value = "constraint")]
    Constraint,
    #[sea_orm(string_value = "preference")]
    Preference,
    #[sea_orm(string_value = "lesson")]
    Lesson,
    #[sea_orm(string_value = "entity")]
    Entity,
    #[sea_orm(string_value = "artifact_reference")]
    ArtifactReference,
    #[sea_orm(string_value = "run_summary")]
    RunSummary,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
