//! A person's decision someone asked for: an agent before an action of its run, or a person before
//! a wiki revision is published into an authoritative namespace. Pending until decided or expired.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "approvals")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    /// Its scope is its project, else its workspace, else the organization.
    pub workspace_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
    pub subject: ApprovalSubject,
    /// For a run's action: the run, attempt and adapter's own request id it is bound to.
    pub run_id: Option<Uuid>,
    pub attempt_id: Option<Uuid>,
    pub request_id: Option<String>,
    /// For a wiki publication: the revision to publish.
    pub wiki_revision_id: Option<Uuid>,
    /// For a skill activation: the activation waiting for it.
    pub skill_activation_id: Option<Uuid>,
    /// The person who asked; none when an agent did.
    pub requested_by_user_id: Option<Uuid>,
    pub action: String,
    pub reason: Option<String>,
    pub details: Json,
    pub status: ApprovalStatus,
    pub expires_at: DateTimeUtc,
    pub decided_by: Option<Uuid>,
    pub decided_at: Option<DateTimeUtc>,
    pub decision_reason: Option<String>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// What an approval decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ApprovalSubject {
    /// An action an agent asked to take in its run.
    #[sea_orm(string_value = "run_action")]
    RunAction,
    /// Publishing a wiki revision into an authoritative namespace.
    #[sea_orm(string_value = "wiki_publication")]
    WikiPublication,
    /// Activating a skill version whose package has scripts.
    #[sea_orm(string_value = "skill_activation")]
    SkillActivation,
}

/// Pending until decided; every other status is final.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ApprovalStatus {
    #[sea_orm(string_value = "pending")]
    Pending,
    #[sea_orm(string_value = "approved")]
    Approved,
    #[sea_orm(string_value = "denied")]
    Denied,
    /// Nobody decided in time; the agent was told no.
    #[sea_orm(string_value = "expired")]
    Expired,
    /// Its run ended or was cancelled, or its revision was published or saved over, before anyone
    /// decided.
    #[sea_orm(string_value = "cancelled")]
    Cancelled,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
