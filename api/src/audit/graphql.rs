//! The audit trail in GraphQL: `auditEvents(filter)` and `verifyAudit`, for an organization's
//! administrators. The trail is exported as JSON lines over HTTP (`GET /v1/audit/events`).

use acc_entity::audit_event;
use async_graphql::connection::Connection;
use async_graphql::{Context, Enum, ID, InputObject, Json, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{AuditFilter, Verification};
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{ContextExt, Ordered, gql_error};
use crate::identity::graphql::{User, load_user};
use crate::ids::{NodeKind, gid};

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::audit_event::AuditActorKind")]
pub enum AuditActorKind {
    /// A person, signed in or through one of their API tokens (`details.api_token_id`).
    User,
    Connector,
    /// An agent working on a run, through the run's tools (`details.run_id`).
    Agent,
    /// The server itself: sweepers, recovery, expiries.
    System,
    /// Someone not signed in.
    Anonymous,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::audit_event::AuditAction")]
pub enum AuditAction {
    SignedIn,
    /// A sign-in to an existing account was refused (the account is the target).
    SignInFailed,
    SignedOut,
    SessionRevoked,
    /// A rotated refresh token was presented again: its session was ended.
    RefreshTokenReused,
    ApiTokenCreated,
    ApiTokenRevoked,
    OrganizationCreated,
    UserCreated,
    /// An account was linked to a person at an OpenID Connect provider (`details.provider`).
    IdentityLinked,
    UserDisabled,
    UserEnabled,
    RoleGranted,
    RoleRevoked,
    EnrollmentTokenCreated,
    ConnectorEnrolled,
    ConnectorRevoked,
    ConnectorRemoved,
    RunStarted,
    RunCancelled,
    ApprovalDecided,
    SettingsWritten,
    WorkspaceCreated,
    ProjectCreated,
    /// A project's name or description changed (`details.changed` names which).
    ProjectUpdated,
    TaskCreated,
    /// A person changed a task (`details.changed` names the fields, `details.status` the new status).
    TaskUpdated,
    TaskDeleted,
    /// A person wrote a memory entry, or an agent proposed one (unverified).
    MemoryWritten,
    /// A person set an entry's verification (`details.verification`).
    MemoryVerified,
    MemoryRetracted,
    MemoryConflictResolved,
    MemoryIndexRebuilt,
    WikiNamespaceCreated,
    WikiNamespaceAclSet,
    /// A page got a new revision, published or (from an agent) proposed for review.
    WikiPageSaved,
    WikiPageRenamed,
    WikiReviewRequested,
    /// A person published a revision in a namespace that needs no review (a review's approval
    /// is `APPROVAL_DECIDED`).
    WikiPagePublished,
    SkillPublisherKeyTrusted,
    SkillPublisherKeyRevoked,
    SkillImported,
    SkillReviewRequested,
    SkillReviewed,
    SkillRevoked,
    SkillActivated,
    SkillDeactivated,
    CandidateProposed,
    CandidatePrepared,
    CandidateDecided,
    CandidateApplied,
    /// A scope's budget for a period was set or changed.
    BudgetPolicySet,
    BudgetPolicyRemoved,
    /// A new version of an artifact was stored, by a person or a run's connector.
    ArtifactUploaded,
    /// A person chose whether a kind of notification reaches them on a channel.
    NotificationPreferenceSet,
    /// A browser of a person's was given push messages.
    PushSubscriptionRegistered,
    /// A browser of a person's takes no more push messages.
    PushSubscriptionRemoved,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::audit_event::AuditTargetKind")]
pub enum AuditTargetKind {
    Organization,
    User,
    Session,
    ApiToken,
    RoleBinding,
    EnrollmentToken,
    Connector,
    Run,
    Approval,
    SettingsLayer,
    Workspace,
    Project,
    Task,
    MemoryEntry,
    MemoryConflict,
    WikiNamespace,
    WikiPage,
    Skill,
    SkillVersion,
    SkillActivation,
    SkillPublisherKey,
    Candidate,
    Artifact,
    BudgetPolicy,
}

impl AuditTargetKind {
    fn node_kind(self) -> NodeKind {
        match self {
            AuditTargetKind::Organization => NodeKind::Organization,
            AuditTargetKind::User => NodeKind::User,
            AuditTargetKind::Session => NodeKind::Session,
            AuditTargetKind::ApiToken => NodeKind::ApiToken,
            AuditTargetKind::RoleBinding => NodeKind::RoleBinding,
            AuditTargetKind::EnrollmentToken => NodeKind::EnrollmentToken,
            AuditTargetKind::Connector => NodeKind::Connector,
            AuditTargetKind::Run => NodeKind::TaskRun,
            AuditTargetKind::Approval => NodeKind::Approval,
            AuditTargetKind::SettingsLayer => NodeKind::SettingsLayer,
            AuditTargetKind::Workspace => NodeKind::Workspace,
            AuditTargetKind::Project => NodeKind::Project,
            AuditTargetKind::Task => NodeKind::Task,
            AuditTargetKind::MemoryEntry => NodeKind::MemoryEntry,
            AuditTargetKind::MemoryConflict => NodeKind::MemoryConflict,
            AuditTargetKind::WikiNamespace => NodeKind::WikiNamespace,
            AuditTargetKind::WikiPage => NodeKind::WikiPage,
            AuditTargetKind::Skill => NodeKind::Skill,
            AuditTargetKind::SkillVersion => NodeKind::SkillVersion,
            AuditTargetKind::SkillActivation => NodeKind::SkillActivation,
            AuditTargetKind::SkillPublisherKey => NodeKind::SkillPublisherKey,
            AuditTargetKind::Candidate => NodeKind::Candidate,
            AuditTargetKind::Artifact => NodeKind::Artifact,
            AuditTargetKind::BudgetPolicy => NodeKind::BudgetPolicy,
        }
    }
}

/// One link of the organization's audit chain.
pub struct AuditEvent(pub audit_event::Model);

#[Object]
impl AuditEvent {
    pub async fn id(&self) -> ID {
        gid(NodeKind::AuditEvent, self.0.id)
    }
    /// 1, 2, 3… in the organization, with no gap.
    async fn sequence(&self) -> i64 {
        self.0.sequence
    }
    async fn occurred_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn actor_kind(&self) -> AuditActorKind {
        self.0.actor_kind.into()
    }
    /// The person who acted, when a person did.
    async fn actor(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        match (self.0.actor_kind, self.0.actor_id) {
            (audit_event::AuditActorKind::User, Some(id)) => load_user(ctx, id).await,
            _ => Ok(None),
        }
    }
    /// The acting user's, connector's or agent's id.
    async fn actor_id(&self) -> Option<ID> {
        let kind = match self.0.actor_kind {
            audit_event::AuditActorKind::User => NodeKind::User,
            audit_event::AuditActorKind::Connector => NodeKind::Connector,
            audit_event::AuditActorKind::Agent => NodeKind::Agent,
            _ => return None,
        };
        self.0.actor_id.map(|id| gid(kind, id))
    }
    async fn action(&self) -> AuditAction {
        self.0.action.into()
    }
    async fn target_kind(&self) -> Option<AuditTargetKind> {
        self.0.target_kind.map(Into::into)
    }
    /// The global id of what it was done to (which may no longer exist).
    async fn target_id(&self) -> Option<ID> {
        let kind = AuditTargetKind::from(self.0.target_kind?);
        self.0.target_id.map(|id| gid(kind.node_kind(), id))
    }
    /// The workspace it happened in, when it happened in one.
    async fn workspace_id(&self) -> Option<ID> {
        self.0.workspace_id.map(|id| gid(NodeKind::Workspace, id))
    }
    /// The project it happened in, when it happened in one.
    async fn project_id(&self) -> Option<ID> {
        self.0.project_id.map(|id| gid(NodeKind::Project, id))
    }
    /// The correlation id of the request or command it came from (`X-Correlation-Id`).
    async fn correlation_id(&self) -> Option<&str> {
        self.0.correlation_id.as_deref()
    }
    /// What else says what happened: names, reasons, changed keys; never a secret.
    async fn details(&self) -> Json<&serde_json::Value> {
        Json(&self.0.details)
    }
    /// The hash of the event before it (64 zeros for the first).
    async fn previous_hash(&self) -> &str {
        &self.0.previous_hash
    }
    /// sha256 (hex) of its canonical encoding, `previousHash` included (docs/audit.md).
    async fn hash(&self) -> &str {
        &self.0.hash
    }
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "super::Problem")]
pub enum AuditProblem {
    /// No event has this sequence, though a later one, a checkpoint or the chain's head says it existed.
    Missing,
    /// The event's hash is not the hash of what it says: it was changed.
    Altered,
    /// The event does not name the hash of the event before it: one was changed, removed or moved.
    Unlinked,
    /// A signed checkpoint, or the chain's head, says the chain had another hash here.
    Rewritten,
    /// A checkpoint's signature is not the server's audit key's.
    ForgedCheckpoint,
    /// Events follow the last one the chain's head knows of.
    Appended,
}

/// Where the chain first stops holding.
#[derive(SimpleObject)]
pub struct AuditBrokenLink {
    sequence: i64,
    problem: AuditProblem,
}

/// What checking the organization's chain from its first event found.
#[derive(SimpleObject)]
pub struct AuditVerification {
    /// Whether every event, link and checkpoint holds.
    intact: bool,
    /// Events checked, in sequence, up to the first broken link or the end.
    events: i64,
    /// Signed checkpoints checked.
    checkpoints: i64,
    first_broken: Option<AuditBrokenLink>,
}

impl From<Verification> for AuditVerification {
    fn from(v: Verification) -> Self {
        Self {
            intact: v.first_broken.is_none(),
            events: v.events,
            checkpoints: v.checkpoints,
            first_broken: v.first_broken.map(|b| AuditBrokenLink { sequence: b.sequence, problem: b.problem.into() }),
        }
    }
}

/// Which events to list; all of them when empty.
#[derive(InputObject, Default)]
pub struct AuditEventFilter {
    /// Any of these actions.
    actions: Option<Vec<AuditAction>>,
    /// Done by this user or connector.
    actor_id: Option<ID>,
    /// Done to this object.
    target_id: Option<ID>,
    /// At or after this time.
    from: Option<DateTime<Utc>>,
    /// Before this time.
    to: Option<DateTime<Utc>>,
}

impl AuditEventFilter {
    fn decoded(self) -> async_graphql::Result<AuditFilter> {
        let any_id = |id: Option<ID>| {
            id.map(|id| crate::ids::GlobalId::decode(&id).map(|g| g.id).map_err(gql_error)).transpose()
        };
        Ok(AuditFilter {
            actions: self.actions.unwrap_or_default().into_iter().map(Into::into).collect(),
            actor_id: any_id(self.actor_id)?,
            target_id: any_id(self.target_id)?,
            from: self.from,
            to: self.to,
        })
    }
}

#[derive(Default)]
pub struct AuditQuery;

#[Object]
impl AuditQuery {
    /// The caller's organization's audit trail, oldest first (`last: n` for the newest);
    /// administrators only.
    async fn audit_events(
        &self,
        ctx: &Context<'_>,
        filter: Option<AuditEventFilter>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, AuditEvent>> {
        let audit = &ctx.services().audit;
        let reader = audit.reader(ctx.actor()?).map_err(gql_error)?;
        let filter = filter.unwrap_or_default().decoded()?;
        let request = page_request(after, before, first, last)?;
        let page =
            audit.events(&reader, &filter, &request, ctx.services().limits.max_page_size).await.map_err(gql_error)?;
        Ok(connection(page, |e| e.id, AuditEvent))
    }

    /// Checks the caller's organization's chain from its first event: every hash, every link and
    /// every signed checkpoint; administrators only.
    async fn verify_audit(&self, ctx: &Context<'_>) -> async_graphql::Result<AuditVerification> {
        let audit = &ctx.services().audit;
        let reader = audit.reader(ctx.actor()?).map_err(gql_error)?;
        Ok(audit.verify(&reader).await.map_err(gql_error)?.into())
    }
}
