//! Runs: starting a task on an agent, the state machine, and the run's life on its connectors.
//!
//! Two types: [`RunReader`] (`reader`) answers what a caller may read of runs and changes nothing;
//! [`RunService`] takes the commands that change runs, split by what drives them: `dispatch`
//! (attempts, leases, retries, the sweeper, connectors coming back), `ingest` (events from
//! connectors and what they cause), `approvals` and `handoff` (checkpoints and handing a run to
//! another agent). `feed` is a run's events for a subscriber. This file holds what they share.

mod approvals;
mod dispatch;
mod feed;
pub mod graphql;
mod handoff;
mod ingest;
mod reader;
pub mod state;
pub mod usage;

use std::sync::Arc;
use std::time::Duration;

use acc_entity::approval::ApprovalStatus;
use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::run_attempt::AttemptStatus;
use acc_entity::run_event::RunEventKind;
use acc_entity::{project, run_attempt, run_event, task, task_run};
use acc_protocol::{CancelMode, Capability, Command, Envelope, EventKind, Frame, RunBudget};
use chrono::Utc;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use serde::Serialize;
use uuid::Uuid;

use crate::approvals::{ApprovalError, ApprovalService};
use crate::audit::{AuditLog, Entry};
use crate::broker::{Broker, Event, Topic};
use crate::db::Pool;
use crate::db::{Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::gateway::{GatewayService, capabilities};
use crate::idempotency::{self, Outcome};
use crate::identity::actor::{Actor, Permission, ScopeKind, ScopePath};
use crate::identity::keys::SigningKeys;
use crate::ids::new_id;
use crate::notifications::NotificationService;
use crate::projects::{ProjectService, RunMilestone};
use crate::skills::{ReplacedSelection, Selected};
use crate::usage::{UsageError, UsageService};
pub use ingest::{ConnectorEvent, Ingested};
pub use reader::{ActingRun, RunCounts, RunFilter, RunReader, RunStatistics};
use state::{InvalidTransition, RunStatus, transition};

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    InvalidTransition(#[from] InvalidTransition),
    #[error("the agent lacks {}", missing.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", "))]
    CapabilityMissing { missing: Vec<Capability> },
    #[error("no such run on this connector")]
    UnknownRun,
    #[error("event out of order: the next sequence stored for this run is {expected}")]
    OutOfOrder { expected: u64 },
    #[error(transparent)]
    Approval(#[from] ApprovalError),
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error("the run has already ended ({status}); nothing more is stored for it")]
    RunEnded { status: RunStatus },
    #[error(transparent)]
    Common(#[from] CommonError),
}

impl From<sea_orm::DbErr> for RunError {
    fn from(e: sea_orm::DbErr) -> Self {
        RunError::Common(e.into())
    }
}

impl DomainError for RunError {
    fn code(&self) -> ErrorCode {
        match self {
            RunError::InvalidTransition(_) => ErrorCode::InvalidTransition,
            RunError::CapabilityMissing { .. } => ErrorCode::CapabilityMissing,
            RunError::UnknownRun => ErrorCode::NotFound,
            RunError::OutOfOrder { .. } => ErrorCode::Validation,
            RunError::Approval(e) => e.code(),
            RunError::Usage(e) => e.code(),
            RunError::RunEnded { .. } => ErrorCode::InvalidTransition,
            RunError::Common(e) => e.code(),
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            RunError::InvalidTransition(t) => serde_json::json!({ "from": t.from.as_str(), "to": t.to.as_str() }),
            RunError::CapabilityMissing { missing } => {
                serde_json::json!({ "missing": missing.iter().map(|c| c.as_str()).collect::<Vec<_>>() })
            }
            RunError::OutOfOrder { expected } => serde_json::json!({ "expected": expected }),
            RunError::Approval(e) => e.details(),
            RunError::Usage(e) => e.details(),
            RunError::RunEnded { status } => serde_json::json!({ "status": status.as_str() }),
            RunError::Common(e) => e.details(),
            RunError::UnknownRun => serde_json::Value::Null,
        }
    }
}

type Result<T, E = RunError> = std::result::Result<T, E>;

#[derive(Debug, Clone, Serialize)]
pub struct NewRun {
    pub task_id: Uuid,
    pub agent_id: Option<Uuid>,
    pub required_capabilities: Vec<Capability>,
    pub input: serde_json::Value,
    /// What the run may use of its model provider; needs an agent whose usage is measured.
    pub budget: Option<RunBudget>,
    /// A candidate's side to start with instead of the scope's current composition.
    pub composition: Option<RunComposition>,
}

/// A scope's settings layer and skill selection as a candidate has them (or had them when it was
/// proposed, for its baseline), which a run is started with in place of the scope's current ones:
/// kept on the run (`task_runs.composition`) for its context and frozen into its skills.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct RunComposition {
    pub scope_kind: ScopeKind,
    pub scope_id: Uuid,
    /// The scope's own settings layer (not the effective settings).
    pub settings: serde_json::Value,
    pub skills: Vec<Selected>,
}

/// A budget sets at least one limit, and its limits are positive.
fn check_budget(budget: &RunBudget) -> Result<()> {
    let tokens_ok = budget.max_tokens.is_none_or(|t| t > 0);
    let cost_ok = budget.max_cost_usd.is_none_or(|c| c.is_finite() && c > 0.0);
    if budget.max_tokens.is_none() && budget.max_cost_usd.is_none() {
        return Err(CommonError::validation("a budget needs maxTokens or maxCostUsd").into());
    }
    if !tokens_ok || !cost_ok {
        return Err(CommonError::validation("budget limits must be positive").into());
    }
    Ok(())
}

/// How runs are timed and retried; from the `[runs]` settings.
#[derive(Debug, Clone, Copy)]
pub struct RunPolicy {
    pub cancel_timeout: Duration,
    pub lease: Duration,
    pub max_attempts: u32,
    pub retry_backoff: Duration,
    pub approval_timeout: Duration,
    pub approval_token: Duration,
}

impl RunPolicy {
    /// How often the sweeper looks for lapsed leases, due retries, overdue cancels and expired approvals.
    fn sweep_interval(&self) -> Duration {
        (self.lease / 10).clamp(Duration::from_millis(50), Duration::from_secs(1))
    }
}

#[derive(Clone)]
pub struct RunService {
    db: Pool,
    reads: Reads,
    broker: Broker,
    gateway: GatewayService,
    /// Each task's status follows its runs.
    tasks: ProjectService,
    keys: Arc<SigningKeys>,
    policy: RunPolicy,
    events: ingest::EventWriter,
    /// Whether a caller may read a run, before it may operate it.
    reader: RunReader,
    /// The bundle each run's agent starts with.
    context: crate::context::ContextBroker,
    /// Where agents' requests for approval are kept and decided.
    approvals: ApprovalService,
    audit: AuditLog,
    /// What runs used, and the budgets of their scopes.
    usage: UsageService,
    /// Whoever started a run that failed is told.
    notifications: NotificationService,
}

impl RunService {
    // Called once, by the composition root, with each collaborator.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: Store,
        broker: Broker,
        gateway: GatewayService,
        tasks: ProjectService,
        keys: Arc<SigningKeys>,
        policy: RunPolicy,
        reader: RunReader,
        context: crate::context::ContextBroker,
        approvals: ApprovalService,
        audit: AuditLog,
        usage: UsageService,
        notifications: NotificationService,
    ) -> Self {
        let Store { pool: db, reads } = store;
        let events = ingest::EventWriter::new(db.clone());
        Self {
            db,
            reads,
            broker,
            gateway,
            tasks,
            keys,
            policy,
            events,
            reader,
            context,
            approvals,
            audit,
            usage,
            notifications,
        }
    }

    /// A run, without any permission check (for connectors and the sweeper).
    async fn load(&self, run_id: Uuid) -> Result<task_run::Model> {
        Ok(self.reads.one(task_run::Entity::find_by_id(run_id)).await?.ok_or(CommonError::NotFound("run"))?)
    }

    /// A run the caller may read and operate (start, cancel, decide, hand off), with its project.
    async fn operable_run(&self, actor: &Actor, id: Uuid) -> Result<(task_run::Model, project::Model)> {
        let (run, project) = self.reader.readable_run(actor, id).await?;
        actor.authorize(Permission::OperateRuns, &path(&project), "run")?;
        Ok((run, project))
    }

    /// Starts a run of a task: queued, then dispatched to an online agent with the capabilities,
    /// or `blocked` (with the reason) when there is none.
    pub async fn start_run(&self, actor: &Actor, mut new: NewRun, key: Option<&str>) -> Result<task_run::Model> {
        if let Some(budget) = &new.budget {
            check_budget(budget)?;
            // Only an agent whose usage the connector measures can be held to a budget.
            if !new.required_capabilities.contains(&Capability::UsageExact) {
                new.required_capabilities.push(Capability::UsageExact);
            }
        }
        let task = self
            .reads
            .one(task::Entity::find_by_id(new.task_id))
            .await?
            .filter(|t| t.organization_id == actor.organization_id)
            .ok_or(CommonError::NotFound("task"))?;
        let project =
            self.reads.one(project::Entity::find_by_id(task.project_id)).await?.ok_or(CommonError::NotFound("task"))?;
        actor.authorize(Permission::Read, &path(&project), "task")?;
        actor.authorize(Permission::OperateRuns, &path(&project), "task")?;
        // A spent budget of the project, its workspace or organization starts nothing; one with
        // something left caps the run, which only a measured agent can be held to.
        // (Kept apart from `new`: what the caller asked for is what a retry with its key repeats.)
        let mut required = new.required_capabilities.clone();
        if self.usage.run_allowance(&project, true).await?.is_some() && !required.contains(&Capability::UsageExact) {
            required.push(Capability::UsageExact);
        }
        if let Some(agent_id) = new.agent_id {
            self.agent_for(actor, &project, agent_id, &required).await?;
        }
        let user = actor.user_id;
        let max_attempts = self.policy.max_attempts as i32;
        let audit = &self.audit;
        let outcome = idempotency::create_once(&self.db, actor, key, "startRun", &new, async |txn| {
            let now = Utc::now();
            let run = task_run::ActiveModel {
                id: Set(new_id()),
                organization_id: Set(task.organization_id),
                project_id: Set(task.project_id),
                task_id: Set(task.id),
                agent_id: Set(new.agent_id),
                requested_agent_id: Set(new.agent_id),
                handoff_target_id: Set(None),
                status: Set(RunStatus::Queued.as_str().to_owned()),
                status_reason: Set(None),
                required_capabilities: Set(serde_json::json!(required)),
                input: Set(new.input.clone()),
                created_by: Set(user),
                max_attempts: Set(max_attempts),
                budget: Set(new.budget.map(|b| serde_json::json!(b))),
                composition: Set(new.composition.as_ref().map(|c| serde_json::json!(c))),
                revision: Set(1),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(txn)
            .await?;
            let replaced = new.composition.as_ref().map(|c| ReplacedSelection {
                scope_id: c.scope_id,
                kind: c.scope_kind,
                selection: &c.skills,
            });
            crate::skills::freeze_for_run(txn, &project, run.id, replaced).await?;
            append_status_event(txn, run.id, status_data(None, RunStatus::Queued, None)).await?;
            let started = Entry::by(actor, AuditAction::RunStarted)
                .on(AuditTargetKind::Run, run.id)
                .at(&path(&project))
                .with("task_id", task.id.to_string())
                .with("agent_id", new.agent_id.map(|id| id.to_string()))
                .with("budget", new.budget.is_some());
            audit.append(txn, started).await?;
            Ok::<_, RunError>(run.id)
        })
        .await?;
        let run = self.reader.run(actor, outcome.id()).await?;
        if let Outcome::Created(_) = outcome {
            self.broker.publish(Topic::ProjectRuns(run.project_id), Event::RunUpdated(run.clone()));
            self.set_status(run.id, RunStatus::Dispatching, None).await?;
            self.dispatch(run.id).await?;
        }
        self.reader.run(actor, outcome.id()).await
    }

    /// An agent of the project's workspace that has every required capability.
    async fn agent_for(
        &self,
        actor: &Actor,
        project: &project::Model,
        agent_id: Uuid,
        required: &[Capability],
    ) -> Result<acc_entity::agent::Model> {
        let agent = self.gateway.assignable_agent(actor, agent_id).await.map_err(|_| CommonError::NotFound("agent"))?;
        if agent.workspace_id != project.workspace_id {
            return Err(CommonError::NotFound("agent").into());
        }
        require(&agent, required)?;
        Ok(agent)
    }

    /// Moves a run to `to` only if it is still in `from`, checked in the same transaction: a late
    /// answer must not undo a later change, and of two callers racing to the same step (the
    /// sweeper and `startRun` both dispatching a run, say) the second does nothing.
    async fn set_status_if(&self, run_id: Uuid, from: RunStatus, to: RunStatus, reason: Option<String>) -> Result<()> {
        self.step(run_id, Some(from), to, reason, None).await.map(drop)
    }

    /// One step of the state machine: checked, stored with a status event, announced.
    async fn set_status(&self, run_id: Uuid, to: RunStatus, reason: Option<String>) -> Result<task_run::Model> {
        // Without `only_from` a step is taken or refused, never skipped.
        let moved = self.step(run_id, None, to, reason, None).await?;
        moved.ok_or_else(|| CommonError::Internal("a status step was skipped".into()).into())
    }

    /// [`Self::set_status`], or nothing (`None`) when `only_from` is given and the run is elsewhere;
    /// `recorded` joins the audit trail in the step's commit.
    async fn step(
        &self,
        run_id: Uuid,
        only_from: Option<RunStatus>,
        to: RunStatus,
        reason: Option<String>,
        recorded: Option<&Entry>,
    ) -> Result<Option<task_run::Model>> {
        for _ in 0..5 {
            let txn = self.db.begin_write().await?;
            let run = task_run::Entity::find_by_id(run_id).one(&txn).await?.ok_or(CommonError::NotFound("run"))?;
            let from = RunStatus::from_stored(&run.status);
            if only_from.is_some_and(|only| only != from) {
                txn.rollback().await?;
                return Ok(None);
            }
            transition(from, to)?;
            let updated = task_run::Entity::update_many()
                .col_expr(task_run::Column::Status, Expr::value(to.as_str()))
                .col_expr(task_run::Column::StatusReason, Expr::value(reason.clone()))
                .col_expr(task_run::Column::Revision, Expr::value(run.revision + 1))
                .col_expr(task_run::Column::UpdatedAt, Expr::value(Utc::now()))
                .filter(task_run::Column::Id.eq(run_id))
                .filter(task_run::Column::Revision.eq(run.revision))
                .exec(&txn)
                .await?;
            if updated.rows_affected == 0 {
                continue;
            }
            let event = append_status_event(&txn, run_id, status_data(Some(from), to, reason.as_deref())).await;
            let event = match event {
                Ok(event) => event,
                Err(RunError::Common(CommonError::Database(e))) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e),
            };
            if to.is_terminal() {
                // In the same commit, so that nobody reads an ended run with an attempt still open.
                close_open_attempts(&txn, run_id).await?;
            }
            if let Some(entry) = recorded {
                self.audit.append(&txn, entry.clone()).await?;
            }
            txn.commit().await?;
            let run = self.load(run_id).await?;
            tracing::info!(run_id = %run_id, from = %from, to = %to, "run status");
            self.broker.publish(Topic::RunEvents(run_id), Event::RunEvent(event));
            if to.is_terminal() {
                // Nothing is stored after a terminal status: its subscribers have all there is.
                self.broker.close(Topic::RunEvents(run_id));
            }
            self.broker.publish(Topic::ProjectRuns(run.project_id), Event::RunUpdated(run.clone()));
            if to == RunStatus::Failed {
                self.notifications.run_failed(&run).await;
            }
            let milestone = match (from, to) {
                (RunStatus::Dispatching, RunStatus::Running) => Some(RunMilestone::Started),
                (_, RunStatus::Succeeded) => Some(RunMilestone::Succeeded),
                _ => None,
            };
            if let Some(milestone) = milestone
                && let Err(e) = self.tasks.follow_run(run.task_id, milestone).await
            {
                // The run's step is taken; its task is only late to follow it.
                tracing::warn!(%run_id, error = %e, "the task did not follow its run");
            }
            return Ok(Some(run));
        }
        Err(CommonError::Internal("the run kept changing underneath; try again".into()).into())
    }

    /// Records something the control plane observed about a run that is not a status change
    /// (a refused command, say) as a run event of `kind`, and announces it; nothing, once the
    /// run has ended.
    async fn note(&self, run_id: Uuid, kind: RunEventKind, data: serde_json::Value) -> Result<()> {
        for _ in 0..5 {
            let txn = self.db.begin_write().await?;
            if lock_run(&txn, run_id).await?.is_terminal() {
                txn.rollback().await?;
                return Ok(());
            }
            match insert_next(&txn, run_id, new_event(run_id, kind, data.clone())).await {
                Ok(event) => {
                    txn.commit().await?;
                    self.broker.publish(Topic::RunEvents(run_id), Event::RunEvent(event));
                    return Ok(());
                }
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(CommonError::Internal("the run kept changing underneath; try again".into()).into())
    }

    /// Notes on the run's timeline that its agent attached a file (a version of an artifact).
    pub async fn artifact_attached(
        &self,
        run_id: Uuid,
        name: &str,
        artifact_id: Uuid,
        version: (Uuid, i32),
    ) -> Result<()> {
        let (version_id, number) = version;
        let message = format!("attached `{name}` (version {number})");
        let data = serde_json::json!({ "message": message, "artifact_id": artifact_id, "version_id": version_id });
        self.note(run_id, RunEventKind::Notice, data).await
    }

    /// The run's latest attempt: the one that owns the run.
    async fn current_attempt(&self, run_id: Uuid) -> Result<Option<run_attempt::Model>> {
        Ok(self
            .reads
            .one(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::RunId.eq(run_id))
                    .order_by_desc(run_attempt::Column::Number),
            )
            .await?)
    }

    /// Closes an attempt (and its lease) with `status`, unless it is already closed.
    /// True when this call closed it.
    async fn end_attempt(&self, attempt_id: Uuid, status: AttemptStatus) -> Result<bool> {
        let closed = closing_attempts(status).filter(run_attempt::Column::Id.eq(attempt_id)).exec(&self.db).await?;
        Ok(closed.rows_affected == 1)
    }

    /// Marks an open attempt's status without closing it.
    async fn mark_attempt(&self, attempt_id: Uuid, status: AttemptStatus) -> Result<()> {
        run_attempt::Entity::update_many()
            .col_expr(run_attempt::Column::Status, Expr::value(status))
            .col_expr(run_attempt::Column::Revision, Expr::col(run_attempt::Column::Revision).add(1))
            .col_expr(run_attempt::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(run_attempt::Column::Id.eq(attempt_id))
            .filter(run_attempt::Column::EndedAt.is_null())
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Sets (or clears) the agent a handoff goes to.
    async fn set_handoff_target(&self, run_id: Uuid, target: Option<Uuid>) -> Result<()> {
        task_run::Entity::update_many()
            .col_expr(task_run::Column::HandoffTargetId, Expr::value(target))
            .filter(task_run::Column::Id.eq(run_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Queues a command for the connector of an attempt; false when it is not connected here.
    fn send_command(&self, connector_id: Uuid, run_id: Uuid, command_id: Uuid, command: Command) -> bool {
        let mut envelope = Envelope::new(connector_id, Frame::Command { command_id, command });
        envelope.run_id = Some(run_id);
        self.gateway.send(connector_id, envelope)
    }

    /// Asks a connector to stop a run (only `attempt`, when given).
    fn send_cancel(&self, connector_id: Uuid, run_id: Uuid, attempt_id: Option<Uuid>, mode: CancelMode) {
        let cancel = Command::CancelRun { run_id, attempt_id, mode };
        self.send_command(connector_id, run_id, new_id(), cancel);
    }

    /// Cancels a run: a running one through `cancelling` (the connector stops the agent), any
    /// other live one at once. The sweeper cancels a run still `cancelling` after the timeout.
    /// Each step is taken only from the status it was chosen for; when the run moved meanwhile
    /// (a start acknowledged, say), the step is chosen again from where it is now.
    pub async fn cancel_run(&self, actor: &Actor, run_id: Uuid) -> Result<task_run::Model> {
        let (mut run, project) = self.operable_run(actor, run_id).await?;
        let cancelled =
            Entry::by(actor, AuditAction::RunCancelled).on(AuditTargetKind::Run, run_id).at(&path(&project));
        for _ in 0..5 {
            let status = RunStatus::from_stored(&run.status);
            let attempt = self.current_attempt(run_id).await?.filter(|a| a.ended_at.is_none());
            if status == RunStatus::WaitingApproval && attempt.is_some() {
                // Its agent is alive and waiting: stop it as a running one, so that what it says
                // as it stops is stored before the run ends (nothing is stored after the end).
                self.close_pending_approvals(run_id, ApprovalStatus::Cancelled, "the run was cancelled").await?;
                let reason = Some("cancel requested while waiting for approval".into());
                self.set_status_if(run_id, RunStatus::WaitingApproval, RunStatus::Running, reason).await?;
            } else {
                let (to, reason) = match status {
                    RunStatus::Running => (RunStatus::Cancelling, "cancel requested"),
                    _ => (RunStatus::Cancelled, "cancelled by a user"),
                };
                if let Some(moved) = self.step(run_id, Some(status), to, Some(reason.into()), Some(&cancelled)).await? {
                    if to == RunStatus::Cancelled {
                        self.close_pending_approvals(run_id, ApprovalStatus::Cancelled, "the run was cancelled")
                            .await?;
                    }
                    // A start may already be on its way to the connector, or the agent waits for a
                    // decision: stop it too (its attempt closed with a cancelled run).
                    if let Some(attempt) = attempt {
                        self.send_cancel(attempt.connector_id, run_id, Some(attempt.id), CancelMode::Graceful);
                    }
                    return Ok(moved);
                }
            }
            run = self.load(run_id).await?;
        }
        Err(CommonError::Internal("the run kept changing underneath; try again".into()).into())
    }

    /// At start-up, whether the last process stopped cleanly or not. Agents run on their own
    /// hosts, so a restart ends no run (SPEC §7): pending approvals stay pending, and every open
    /// attempt gets a fresh lease, because its connector could not renew it while no control plane
    /// listened; it has one lease to come back and re-adopt the run. A run the last process left
    /// `queued` goes to `dispatching`, which the sweeper dispatches. Returns the live runs kept.
    pub async fn resume_after_restart(&self) -> Result<usize> {
        run_attempt::Entity::update_many()
            .col_expr(run_attempt::Column::LeaseExpiresAt, Expr::value(Utc::now() + self.policy.lease))
            .filter(run_attempt::Column::EndedAt.is_null())
            .exec(&self.db)
            .await?;
        let live: Vec<&str> = RunStatus::ALL.iter().filter(|s| !s.is_terminal()).map(|s| s.as_str()).collect();
        let runs = self.reads.all(task_run::Entity::find().filter(task_run::Column::Status.is_in(live))).await?;
        for run in runs.iter().filter(|r| RunStatus::from_stored(&r.status) == RunStatus::Queued) {
            let reason = Some("the control plane restarted before dispatching it".to_owned());
            self.set_status_if(run.id, RunStatus::Queued, RunStatus::Dispatching, reason).await?;
        }
        Ok(runs.len())
    }
}

/// Refuses an agent that lacks one of `required`, naming what is missing.
fn require(agent: &acc_entity::agent::Model, required: &[Capability]) -> Result<()> {
    let declared = capabilities(agent);
    let missing: Vec<_> = required.iter().copied().filter(|c| !declared.contains(c)).collect();
    if missing.is_empty() { Ok(()) } else { Err(RunError::CapabilityMissing { missing }) }
}

/// Inside a write transaction: the run's status, with the run locked until the transaction ends,
/// so no status change commits between this read and the transaction's writes (PostgreSQL locks
/// the row; SQLite's write transactions already exclude each other).
async fn lock_run(txn: &impl ConnectionTrait, run_id: Uuid) -> Result<RunStatus> {
    let run = task_run::Entity::find_by_id(run_id).lock_exclusive().one(txn).await?;
    Ok(RunStatus::from_stored(&run.ok_or(CommonError::NotFound("run"))?.status))
}

/// Closes (with their leases) the attempts still open, chosen by the caller's filter.
fn closing_attempts(status: AttemptStatus) -> sea_orm::UpdateMany<run_attempt::Entity> {
    let now = Utc::now();
    run_attempt::Entity::update_many()
        .col_expr(run_attempt::Column::Status, Expr::value(status))
        .col_expr(run_attempt::Column::EndedAt, Expr::value(now))
        .col_expr(run_attempt::Column::LeaseExpiresAt, Expr::value(Option::<chrono::DateTime<Utc>>::None))
        .col_expr(run_attempt::Column::Revision, Expr::col(run_attempt::Column::Revision).add(1))
        .col_expr(run_attempt::Column::UpdatedAt, Expr::value(now))
        .filter(run_attempt::Column::EndedAt.is_null())
}

/// Inside the transaction that ends a run: its attempts still open end with it.
async fn close_open_attempts(txn: &impl ConnectionTrait, run_id: Uuid) -> Result<()> {
    closing_attempts(AttemptStatus::Ended).filter(run_attempt::Column::RunId.eq(run_id)).exec(txn).await?;
    Ok(())
}

fn path(project: &project::Model) -> ScopePath {
    ScopePath::project(project.organization_id, project.workspace_id, project.id)
}

fn status_data(from: Option<RunStatus>, to: RunStatus, reason: Option<&str>) -> serde_json::Value {
    serde_json::json!({ "status": to.as_str(), "from": from.map(|f| f.as_str()), "reason": reason })
}

fn new_event(run_id: Uuid, kind: RunEventKind, data: serde_json::Value) -> run_event::ActiveModel {
    let now = Utc::now();
    run_event::ActiveModel {
        id: Set(new_id()),
        run_id: Set(run_id),
        sequence: Set(0),
        attempt_id: Set(None),
        connector_id: Set(None),
        event_id: Set(None),
        connector_sequence: Set(None),
        kind: Set(kind),
        data: Set(data),
        occurred_at: Set(now),
        created_at: Set(now),
    }
}

/// The stored kind of an event an adapter sent.
pub fn stored_kind(kind: EventKind) -> RunEventKind {
    match kind {
        EventKind::Started => RunEventKind::Started,
        EventKind::Message => RunEventKind::Message,
        EventKind::ToolCall => RunEventKind::ToolCall,
        EventKind::ToolResult => RunEventKind::ToolResult,
        EventKind::FileChange => RunEventKind::FileChange,
        EventKind::Usage => RunEventKind::Usage,
        EventKind::Output => RunEventKind::Output,
        EventKind::Error => RunEventKind::Error,
        EventKind::ApprovalRequested => RunEventKind::ApprovalRequested,
        EventKind::Checkpoint => RunEventKind::Checkpoint,
        EventKind::Progress => RunEventKind::Progress,
        EventKind::VendorExtension => RunEventKind::VendorExtension,
        EventKind::Result => RunEventKind::Result,
    }
}

/// Appends a status change, the control plane's own kind of event, inside `txn`.
async fn append_status_event(
    txn: &impl ConnectionTrait,
    run_id: Uuid,
    data: serde_json::Value,
) -> Result<run_event::Model> {
    Ok(insert_next(txn, run_id, new_event(run_id, RunEventKind::Status, data)).await?)
}

/// Inserts with the run's next sequence; the unique (run, sequence) index turns a race into a retry.
async fn insert_next(
    txn: &impl ConnectionTrait,
    run_id: Uuid,
    mut row: run_event::ActiveModel,
) -> Result<run_event::Model, sea_orm::DbErr> {
    row.sequence = Set(last_sequence(txn, run_id).await? + 1);
    row.insert(txn).await
}

/// The run's last event sequence (0: none yet).
async fn last_sequence(db: &impl ConnectionTrait, run_id: Uuid) -> Result<i64, sea_orm::DbErr> {
    Ok(run_event::Entity::find()
        .filter(run_event::Column::RunId.eq(run_id))
        .order_by_desc(run_event::Column::Sequence)
        .one(db)
        .await?
        .map_or(0, |e| e.sequence))
}
