//! Approvals (SPEC §5.5): a decision someone asked a person for, with its requester, reason,
//! scope, expiry, decider and decision. An agent asks before an action of its run; a person asks
//! before a wiki revision is published into an authoritative namespace, or before a skill with
//! scripts is activated. Every approval is in one inbox, is decided the same way (once, before it
//! expires) and is announced the same way; what a decision then does is its subject's: the run
//! domain tells the agent, the wiki publishes, skills activate.
//! Who may see an approval is decided by its scope (its project, else its workspace, else the
//! organization).

pub mod graphql;

use std::collections::HashSet;

use acc_entity::approval::{self, ApprovalStatus, ApprovalSubject};
use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{project, workspace};
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, Set};
use uuid::Uuid;

use crate::audit::{AuditLog, Entry};
use crate::broker::{Broker, Event, Topic};
use crate::db::{Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode};
use crate::identity::actor::{Actor, ScopePath};
use crate::ids::new_id;
use crate::notifications::NotificationService;
use crate::pagination::{Page, PageRequest, paginate};

/// The longest reason a person may give.
const MAX_REASON_CHARS: usize = 2000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Approve,
    Deny,
}

#[derive(Debug, thiserror::Error)]
pub enum ApprovalError {
    #[error(transparent)]
    Common(#[from] CommonError),
    /// Decided, expired or cancelled already.
    #[error("the approval is already {status}")]
    Closed { status: ApprovalStatus },
}

impl From<sea_orm::DbErr> for ApprovalError {
    fn from(e: sea_orm::DbErr) -> Self {
        ApprovalError::Common(e.into())
    }
}

impl DomainError for ApprovalError {
    fn code(&self) -> ErrorCode {
        match self {
            ApprovalError::Common(e) => e.code(),
            ApprovalError::Closed { .. } => ErrorCode::Conflict,
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            ApprovalError::Common(e) => e.details(),
            ApprovalError::Closed { status } => serde_json::json!({ "status": status.to_string() }),
        }
    }
}

type Result<T, E = ApprovalError> = std::result::Result<T, E>;

/// An approval about to be asked for; its subject's own columns are set on what [`Self::row`] makes.
pub struct NewApproval {
    pub organization_id: Uuid,
    pub workspace_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
    pub subject: ApprovalSubject,
    pub requested_by_user_id: Option<Uuid>,
    pub action: String,
    pub reason: Option<String>,
    pub details: serde_json::Value,
    pub expires_at: DateTime<Utc>,
}

impl NewApproval {
    /// The pending row.
    pub fn row(self) -> approval::ActiveModel {
        let now = Utc::now();
        approval::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(self.organization_id),
            workspace_id: Set(self.workspace_id),
            project_id: Set(self.project_id),
            subject: Set(self.subject),
            run_id: Set(None),
            attempt_id: Set(None),
            request_id: Set(None),
            wiki_revision_id: Set(None),
            skill_activation_id: Set(None),
            requested_by_user_id: Set(self.requested_by_user_id),
            action: Set(self.action),
            reason: Set(self.reason),
            details: Set(self.details),
            status: Set(ApprovalStatus::Pending),
            expires_at: Set(self.expires_at),
            decided_by: Set(None),
            decided_at: Set(None),
            decision_reason: Set(None),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
    }
}

/// Whose approvals a subscriber may see, decided when it subscribes.
#[derive(Debug, Clone)]
pub enum ApprovalAudience {
    /// Every approval of the organization.
    Organization(Uuid),
    /// Those of these projects, and of these workspaces' own (not the organization's own).
    Scopes { projects: HashSet<Uuid>, workspaces: HashSet<Uuid> },
}

impl ApprovalAudience {
    pub fn admits(&self, approval: &approval::Model) -> bool {
        match (self, approval.project_id, approval.workspace_id) {
            (ApprovalAudience::Organization(org), _, _) => approval.organization_id == *org,
            (ApprovalAudience::Scopes { projects, .. }, Some(project), _) => projects.contains(&project),
            (ApprovalAudience::Scopes { workspaces, .. }, None, Some(workspace)) => workspaces.contains(&workspace),
            // The organization's own: for those with a role on the organization.
            (ApprovalAudience::Scopes { .. }, None, None) => false,
        }
    }
}

/// The approvals book: reads them as the caller may, and records decisions and closings.
#[derive(Clone)]
pub struct ApprovalService {
    reads: Reads,
    broker: Broker,
    max_page_size: u64,
    audit: AuditLog,
    /// Who may decide a pending approval is told of it.
    notifications: NotificationService,
}

impl ApprovalService {
    pub fn new(
        store: &Store,
        broker: Broker,
        max_page_size: u64,
        audit: AuditLog,
        notifications: NotificationService,
    ) -> Self {
        Self { reads: store.reads.clone(), broker, max_page_size, audit, notifications }
    }

    /// An approval the caller may read (a hidden one is `NOT_FOUND`).
    pub async fn approval(&self, actor: &Actor, id: Uuid) -> Result<approval::Model> {
        let select =
            approval::Entity::find_by_id(id).filter(approval::Column::OrganizationId.eq(actor.organization_id));
        let row = self.reads.one(select).await?.ok_or(CommonError::NotFound("approval"))?;
        if actor.role_on(&scope_path(&row)).is_none() {
            return Err(CommonError::NotFound("approval").into());
        }
        Ok(row)
    }

    /// Approvals of one project, or of every project and workspace the caller can read, oldest
    /// first.
    pub async fn approvals(
        &self,
        actor: &Actor,
        project_id: Option<Uuid>,
        status: Option<ApprovalStatus>,
        page: &PageRequest,
    ) -> Result<Page<approval::Model>> {
        let which = match self.audience(actor, project_id).await? {
            ApprovalAudience::Organization(org) => Condition::all().add(approval::Column::OrganizationId.eq(org)),
            ApprovalAudience::Scopes { projects, workspaces } => {
                Condition::any().add(approval::Column::ProjectId.is_in(projects)).add(
                    Condition::all()
                        .add(approval::Column::ProjectId.is_null())
                        .add(approval::Column::WorkspaceId.is_in(workspaces)),
                )
            }
        };
        let mut select = approval::Entity::find().filter(which);
        if let Some(status) = status {
            select = select.filter(approval::Column::Status.eq(status));
        }
        Ok(paginate(&self.reads, select, approval::Column::Id, page, self.max_page_size).await?)
    }

    /// Whose approvals the caller sees: one project (not found unless readable), the whole
    /// organization for those with a role on it, or the projects and workspaces they can read now.
    pub async fn audience(&self, actor: &Actor, project_id: Option<Uuid>) -> Result<ApprovalAudience> {
        if let Some(id) = project_id {
            let select =
                project::Entity::find_by_id(id).filter(project::Column::OrganizationId.eq(actor.organization_id));
            let found = self.reads.one(select).await?;
            return match found.filter(|p| actor.role_on(&project_path(p)).is_some()) {
                Some(p) => Ok(ApprovalAudience::Scopes { projects: HashSet::from([p.id]), workspaces: HashSet::new() }),
                None => Err(CommonError::NotFound("project").into()),
            };
        }
        if actor.role_on(&ScopePath::organization(actor.organization_id)).is_some() {
            return Ok(ApprovalAudience::Organization(actor.organization_id));
        }
        let select = project::Entity::find().filter(project::Column::OrganizationId.eq(actor.organization_id));
        let projects = self.reads.all(select).await?.into_iter().filter(|p| actor.role_on(&project_path(p)).is_some());
        let select = workspace::Entity::find().filter(workspace::Column::OrganizationId.eq(actor.organization_id));
        let workspaces = self
            .reads
            .all(select)
            .await?
            .into_iter()
            .filter(|w| actor.role_on(&ScopePath::workspace(w.organization_id, w.id)).is_some());
        Ok(ApprovalAudience::Scopes {
            projects: projects.map(|p| p.id).collect(),
            workspaces: workspaces.map(|w| w.id).collect(),
        })
    }

    /// Records the caller's decision of a pending approval, on `conn` (the subject's own writes
    /// may share its transaction); the caller announces it once committed. A reason is optional.
    pub async fn decide(
        &self,
        conn: &impl ConnectionTrait,
        actor: &Actor,
        approval: &approval::Model,
        decision: Decision,
        reason: Option<String>,
    ) -> Result<approval::Model> {
        let reason = checked_reason(reason)?;
        if approval.status != ApprovalStatus::Pending {
            return Err(ApprovalError::Closed { status: approval.status });
        }
        if approval.expires_at <= Utc::now() {
            return Err(ApprovalError::Closed { status: ApprovalStatus::Expired });
        }
        let status = match decision {
            Decision::Approve => ApprovalStatus::Approved,
            Decision::Deny => ApprovalStatus::Denied,
        };
        match self.finish(conn, approval, status, Some(actor.user_id), reason).await? {
            Some(decided) => {
                let recorded = Entry::by(actor, AuditAction::ApprovalDecided)
                    .on(AuditTargetKind::Approval, decided.id)
                    .at(&scope_path(&decided))
                    .with("subject", decided.subject.to_string())
                    .with("decision", decided.status.to_string())
                    .with("reason", decided.decision_reason.clone());
                self.audit.append(conn, recorded).await?;
                Ok(decided)
            }
            None => {
                // Someone else decided it (or it expired) in between: say how it ended.
                let now = approval::Entity::find_by_id(approval.id).one(conn).await?;
                Err(ApprovalError::Closed { status: now.map_or(ApprovalStatus::Cancelled, |a| a.status) })
            }
        }
    }

    /// Moves a pending approval to `status` without a person's decision; `None` if it was no
    /// longer pending.
    pub async fn close(
        &self,
        conn: &impl ConnectionTrait,
        approval: &approval::Model,
        status: ApprovalStatus,
        reason: &str,
    ) -> Result<Option<approval::Model>> {
        self.finish(conn, approval, status, None, Some(reason.to_owned())).await
    }

    /// The pending approvals `which` selects, closed with `status`; returned for the caller to
    /// announce once committed and for what their subject does next.
    pub async fn close_pending(
        &self,
        conn: &impl ConnectionTrait,
        which: Condition,
        status: ApprovalStatus,
        reason: &str,
    ) -> Result<Vec<approval::Model>> {
        let select =
            approval::Entity::find().filter(which).filter(approval::Column::Status.eq(ApprovalStatus::Pending));
        let mut closed = Vec::new();
        for approval in select.all(conn).await? {
            if let Some(approval) = self.close(conn, &approval, status, reason).await? {
                closed.push(approval);
            }
        }
        Ok(closed)
    }

    /// Expires every approval nobody decided in time, of any subject, on `conn` (what their
    /// subjects do next shares its transaction); returned for the caller to announce once
    /// committed and for what comes next (an agent is told no).
    pub async fn expire_overdue(&self, conn: &impl ConnectionTrait) -> Result<Vec<approval::Model>> {
        let overdue = Condition::all().add(approval::Column::ExpiresAt.lt(Utc::now()));
        let expired = self.close_pending(conn, overdue, ApprovalStatus::Expired, "nobody decided in time").await?;
        for approval in &expired {
            tracing::info!(approval_id = %approval.id, subject = ?approval.subject, "approval expired");
        }
        Ok(expired)
    }

    /// Tells `approvalUpdated` of the organization.
    pub fn announce(&self, approval: &approval::Model) {
        self.broker.publish(Topic::OrganizationApprovals(approval.organization_id), Event::Approval(approval.clone()));
        if approval.status == ApprovalStatus::Pending {
            // In the background: telling people must neither hold nor fail the action.
            let (notifications, approval) = (self.notifications.clone(), approval.clone());
            tokio::spawn(async move { notifications.approval_waiting(&approval).await });
        }
    }

    async fn finish(
        &self,
        conn: &impl ConnectionTrait,
        approval: &approval::Model,
        status: ApprovalStatus,
        decided_by: Option<Uuid>,
        reason: Option<String>,
    ) -> Result<Option<approval::Model>> {
        let now = Utc::now();
        let finished = approval::Entity::update_many()
            .col_expr(approval::Column::Status, Expr::value(status))
            .col_expr(approval::Column::DecidedBy, Expr::value(decided_by))
            .col_expr(approval::Column::DecidedAt, Expr::value(now))
            .col_expr(approval::Column::DecisionReason, Expr::value(reason))
            .col_expr(approval::Column::Revision, Expr::value(approval.revision + 1))
            .col_expr(approval::Column::UpdatedAt, Expr::value(now))
            .filter(approval::Column::Id.eq(approval.id))
            .filter(approval::Column::Status.eq(ApprovalStatus::Pending))
            .exec(conn)
            .await?;
        if finished.rows_affected == 0 {
            return Ok(None);
        }
        Ok(approval::Entity::find_by_id(approval.id).one(conn).await?)
    }
}

/// A reason as given, trimmed; none when blank. The longest a person may give is refused.
pub fn checked_reason(reason: Option<String>) -> Result<Option<String>, CommonError> {
    let reason = reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
    if reason.as_ref().is_some_and(|r| r.chars().count() > MAX_REASON_CHARS) {
        return Err(CommonError::Validation {
            message: format!("a reason has at most {MAX_REASON_CHARS} characters"),
            details: serde_json::json!({ "argument": "reason" }),
        });
    }
    Ok(reason)
}

/// Where an approval's readers have a role: its project, else its workspace, else the organization.
pub fn scope_path(approval: &approval::Model) -> ScopePath {
    match (approval.workspace_id, approval.project_id) {
        (Some(workspace), Some(project)) => ScopePath::project(approval.organization_id, workspace, project),
        (Some(workspace), None) => ScopePath::workspace(approval.organization_id, workspace),
        _ => ScopePath::organization(approval.organization_id),
    }
}

fn project_path(project: &project::Model) -> ScopePath {
    ScopePath::project(project.organization_id, project.workspace_id, project.id)
}
