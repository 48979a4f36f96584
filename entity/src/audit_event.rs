//! One link of an organization's audit chain: who did what, to what, where and when, and the hash
//! of the link before it. Written once, never changed.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    /// 1, 2, 3… in its organization, with no gap.
    pub sequence: i64,
    pub actor_kind: AuditActorKind,
    pub actor_id: Option<Uuid>,
    pub action: AuditAction,
    pub target_kind: Option<AuditTargetKind>,
    pub target_id: Option<Uuid>,
    /// The workspace it happened in, when it happened in one.
    pub workspace_id: Option<Uuid>,
    /// The project it happened in, when it happened in one.
    pub project_id: Option<Uuid>,
    pub correlation_id: Option<String>,
    /// What else says what happened: names, reasons, changed keys; never a secret.
    pub details: Json,
    /// The hash of the event before it in its organization (64 zeros for the first).
    pub previous_hash: String,
    /// sha256 of its canonical encoding, `previous_hash` included.
    pub hash: String,
    pub created_at: DateTimeUtc,
}

/// Who acted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum AuditActorKind {
    /// A person, signed in or through one of their API tokens.
    #[sea_orm(string_value = "user")]
    User,
    /// A connector, with its own credential.
    #[sea_orm(string_value = "connector")]
    Connector,
    /// An agent working on a run, through the run's tools (the run is in `details.run_id`).
    #[sea_orm(string_value = "agent")]
    Agent,
    /// The server itself: sweepers, recovery, expiries.
    #[sea_orm(string_value = "system")]
    System,
    /// Someone not signed in (a failed sign-in names the account tried, not who tried it).
    #[sea_orm(string_value = "anonymous")]
    Anonymous,
}

/// What happened. Stored as `area.verb`, so the trail reads without the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum AuditAction {
    /// A person signed in (with a password or through the bootstrap code).
    #[sea_orm(string_value = "session.signed_in")]
    SignedIn,
    /// A sign-in to an existing account was refused.
    #[sea_orm(string_value = "session.sign_in_failed")]
    SignInFailed,
    #[sea_orm(string_value = "session.signed_out")]
    SignedOut,
    /// A session was ended by its owner or an administrator.
    #[sea_orm(string_value = "session.revoked")]
    SessionRevoked,
    /// A rotated refresh token came back: the session was ended.
    #[sea_orm(string_value = "session.refresh_token_reused")]
    RefreshTokenReused,
    #[sea_orm(string_value = "api_token.created")]
    ApiTokenCreated,
    #[sea_orm(string_value = "api_token.revoked")]
    ApiTokenRevoked,
    #[sea_orm(string_value = "organization.created")]
    OrganizationCreated,
    #[sea_orm(string_value = "user.created")]
    UserCreated,
    /// An account was linked to a person's account at an OpenID Connect provider.
    #[sea_orm(string_value = "user.identity_linked")]
    IdentityLinked,
    #[sea_orm(string_value = "user.disabled")]
    UserDisabled,
    #[sea_orm(string_value = "user.enabled")]
    UserEnabled,
    #[sea_orm(string_value = "role.granted")]
    RoleGranted,
    #[sea_orm(string_value = "role.revoked")]
    RoleRevoked,
    #[sea_orm(string_value = "connector.enrollment_token_created")]
    EnrollmentTokenCreated,
    #[sea_orm(string_value = "connector.enrolled")]
    ConnectorEnrolled,
    #[sea_orm(string_value = "connector.revoked")]
    ConnectorRevoked,
    #[sea_orm(string_value = "connector.removed")]
    ConnectorRemoved,
    #[sea_orm(string_value = "run.started")]
    RunStarted,
    #[sea_orm(string_value = "run.cancelled")]
    RunCancelled,
    #[sea_orm(string_value = "approval.decided")]
    ApprovalDecided,
    #[sea_orm(string_value = "settings.written")]
    SettingsWritten,
    #[sea_orm(string_value = "workspace.created")]
    WorkspaceCreated,
    #[sea_orm(string_value = "project.created")]
    ProjectCreated,
    /// A project's name or description changed (`details.changed` names which).
    #[sea_orm(string_value = "project.updated")]
    ProjectUpdated,
    #[sea_orm(string_value = "task.created")]
    TaskCreated,
    /// A person changed a task (`details.changed` names the fields, `details.status` the new status).
    #[sea_orm(string_value = "task.updated")]
    TaskUpdated,
    #[sea_orm(string_value = "task.deleted")]
    TaskDeleted,
    /// A person wrote a memory entry, or an agent proposed one (unverified).
    #[sea_orm(string_value = "memory.written")]
    MemoryWritten,
    /// A person set an entry's verification (`details.verification`).
    #[sea_orm(string_value = "memory.verified")]
    MemoryVerified,
    #[sea_orm(string_value = "memory.retracted")]
    MemoryRetracted,
    #[sea_orm(string_value = "memory.conflict_resolved")]
    MemoryConflictResolved,
    #[sea_orm(string_value = "memory.index_rebuilt")]
    MemoryIndexRebuilt,
    #[sea_orm(string_value = "wiki.namespace_created")]
    WikiNamespaceCreated,
    #[sea_orm(string_value = "wiki.namespace_acl_set")]
    WikiNamespaceAclSet,
    /// A page got a new revision, published or (from an agent) proposed for review.
    #[sea_orm(string_value = "wiki.page_saved")]
    WikiPageSaved,
    #[sea_orm(string_value = "wiki.page_renamed")]
    WikiPageRenamed,
    #[sea_orm(string_value = "wiki.review_requested")]
    WikiReviewRequested,
    /// A person published a revision in a namespace that needs no review (a review's approval
    /// is `approval.decided`).
    #[sea_orm(string_value = "wiki.page_published")]
    WikiPagePublished,
    #[sea_orm(string_value = "skill.publisher_key_trusted")]
    SkillPublisherKeyTrusted,
    #[sea_orm(string_value = "skill.publisher_key_revoked")]
    SkillPublisherKeyRevoked,
    #[sea_orm(string_value = "skill.imported")]
    SkillImported,
    #[sea_orm(string_value = "skill.review_requested")]
    SkillReviewRequested,
    #[sea_orm(string_value = "skill.reviewed")]
    SkillReviewed,
    #[sea_orm(string_value = "skill.revoked")]
    SkillRevoked,
    #[sea_orm(string_value = "skill.activated")]
    SkillActivated,
    #[sea_orm(string_value = "skill.deactivated")]
    SkillDeactivated,
    #[sea_orm(string_value = "candidate.proposed")]
    CandidateProposed,
    #[sea_orm(string_value = "candidate.prepared")]
    CandidatePrepared,
    #[sea_orm(string_value = "candidate.decided")]
    CandidateDecided,
    #[sea_orm(string_value = "candidate.applied")]
    CandidateApplied,
    /// A scope's budget for a period was set or changed (its limits in `details`).
    #[sea_orm(string_value = "budget.policy_set")]
    BudgetPolicySet,
    #[sea_orm(string_value = "budget.policy_removed")]
    BudgetPolicyRemoved,
    /// A new version of an artifact was stored, by a person or a run's connector.
    #[sea_orm(string_value = "artifact.uploaded")]
    ArtifactUploaded,
    /// A person chose whether a kind of notification reaches them on a channel (`details`).
    #[sea_orm(string_value = "notification.preference_set")]
    NotificationPreferenceSet,
    /// A browser of a person's was given push messages (its push service's host in `details`).
    #[sea_orm(string_value = "notification.push_registered")]
    PushSubscriptionRegistered,
    /// A browser of a person's takes no more push messages.
    #[sea_orm(string_value = "notification.push_removed")]
    PushSubscriptionRemoved,
}

/// What an action was done to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum AuditTargetKind {
    #[sea_orm(string_value = "organization")]
    Organization,
    #[sea_orm(string_value = "user")]
    User,
    #[sea_orm(string_value = "session")]
    Session,
    #[sea_orm(string_value = "api_token")]
    ApiToken,
    #[sea_orm(string_value = "role_binding")]
    RoleBinding,
    #[sea_orm(string_value = "enrollment_token")]
    EnrollmentToken,
    #[sea_orm(string_value = "connector")]
    Connector,
    #[sea_orm(string_value = "run")]
    Run,
    #[sea_orm(string_value = "approval")]
    Approval,
    #[sea_orm(string_value = "settings_layer")]
    SettingsLayer,
    #[sea_orm(string_value = "workspace")]
    Workspace,
    #[sea_orm(string_value = "project")]
    Project,
    #[sea_orm(string_value = "task")]
    Task,
    #[sea_orm(string_value = "memory_entry")]
    MemoryEntry,
    #[sea_orm(string_value = "memory_conflict")]
    MemoryConflict,
    #[sea_orm(string_value = "wiki_namespace")]
    WikiNamespace,
    #[sea_orm(string_value = "wiki_page")]
    WikiPage,
    #[sea_orm(string_value = "skill")]
    Skill,
    #[sea_orm(string_value = "skill_version")]
    SkillVersion,
    #[sea_orm(string_value = "skill_activation")]
    SkillActivation,
    #[sea_orm(string_value = "skill_publisher_key")]
    SkillPublisherKey,
    #[sea_orm(string_value = "candidate")]
    Candidate,
    #[sea_orm(string_value = "artifact")]
    Artifact,
    #[sea_orm(string_value = "budget_policy")]
    BudgetPolicy,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
