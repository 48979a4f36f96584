//! Runs: starting a task on an agent, dispatching it to a connector, the state machine, run
//! events with their gap-free sequence, cancel, and recovery after a crash.

pub mod graphql;
pub mod state;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acc_entity::{agent, project, run_attempt, run_event, task, task_run};
use acc_protocol::{CancelMode, Capability, Command, CommandOutcome, Envelope, EventKind, Frame};
use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set, TransactionTrait,
};
use serde::Serialize;
use uuid::Uuid;

use crate::broker::{Broker, Event, Topic};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::gateway::{GatewayService, capabilities};
use crate::idempotency::{self, Outcome};
use crate::identity::actor::{Actor, Permission, ScopePath};
use crate::ids::new_id;
use state::{InvalidTransition, RunStatus, transition};

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    InvalidTransition(#[from] InvalidTransition),
    #[error("the agent lacks {}", missing.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", "))]
    CapabilityMissing { missing: Vec<Capability> },
    #[error("no such run on this connector")]
    UnknownRun,
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
            RunError::Common(e) => e.code(),
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            RunError::InvalidTransition(t) => serde_json::json!({ "from": t.from.as_str(), "to": t.to.as_str() }),
            RunError::CapabilityMissing { missing } => {
                serde_json::json!({ "missing": missing.iter().map(|c| c.as_str()).collect::<Vec<_>>() })
            }
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
}

#[derive(Clone)]
pub struct RunService {
    db: DatabaseConnection,
    broker: Broker,
    gateway: GatewayService,
    /// Start commands sent and not yet acknowledged: command id → run id.
    pending_starts: Arc<Mutex<HashMap<Uuid, Uuid>>>,
    cancel_timeout: Duration,
    max_page_size: u64,
}

impl RunService {
    pub fn new(
        db: DatabaseConnection,
        broker: Broker,
        gateway: GatewayService,
        cancel_timeout: Duration,
        max_page_size: u64,
    ) -> Self {
        Self { db, broker, gateway, pending_starts: Arc::default(), cancel_timeout, max_page_size }
    }

    async fn project_of(&self, run: &task_run::Model) -> Result<project::Model> {
        Ok(project::Entity::find_by_id(run.project_id).one(&self.db).await?.ok_or(CommonError::NotFound("run"))?)
    }

    pub async fn run(&self, actor: &Actor, id: Uuid) -> Result<task_run::Model> {
        let run = task_run::Entity::find_by_id(id).one(&self.db).await?.ok_or(CommonError::NotFound("run"))?;
        if run.organization_id != actor.organization_id {
            return Err(CommonError::NotFound("run").into());
        }
        let project = self.project_of(&run).await?;
        actor.authorize(Permission::Read, &path(&project), "run").map_err(|_| CommonError::NotFound("run"))?;
        Ok(run)
    }

    pub async fn runs_of_task(&self, actor: &Actor, task_id: Uuid) -> Result<Vec<task_run::Model>> {
        let task = task::Entity::find_by_id(task_id)
            .one(&self.db)
            .await?
            .filter(|t| t.organization_id == actor.organization_id)
            .ok_or(CommonError::NotFound("task"))?;
        let project =
            project::Entity::find_by_id(task.project_id).one(&self.db).await?.ok_or(CommonError::NotFound("task"))?;
        actor.authorize(Permission::Read, &path(&project), "task")?;
        Ok(task_run::Entity::find()
            .filter(task_run::Column::TaskId.eq(task.id))
            .order_by_asc(task_run::Column::Id)
            .all(&self.db)
            .await?)
    }

    /// Starts a run of a task: queued, then dispatched to an online agent with the capabilities,
    /// or `blocked` (with the reason) when there is none.
    pub async fn start_run(&self, actor: &Actor, new: NewRun, key: Option<&str>) -> Result<task_run::Model> {
        let task = task::Entity::find_by_id(new.task_id)
            .one(&self.db)
            .await?
            .filter(|t| t.organization_id == actor.organization_id)
            .ok_or(CommonError::NotFound("task"))?;
        let project =
            project::Entity::find_by_id(task.project_id).one(&self.db).await?.ok_or(CommonError::NotFound("task"))?;
        actor.authorize(Permission::Read, &path(&project), "task")?;
        actor.authorize(Permission::OperateRuns, &path(&project), "task")?;
        if let Some(agent_id) = new.agent_id {
            let agent = self.gateway.agent(actor, agent_id).await.map_err(|_| CommonError::NotFound("agent"))?;
            if agent.workspace_id != project.workspace_id {
                return Err(CommonError::NotFound("agent").into());
            }
            let declared = capabilities(&agent);
            let missing: Vec<_> = new.required_capabilities.iter().copied().filter(|c| !declared.contains(c)).collect();
            if !missing.is_empty() {
                return Err(RunError::CapabilityMissing { missing });
            }
        }
        let user = actor.user_id;
        let outcome = idempotency::create_once(&self.db, actor, key, "startRun", &new, async |txn| {
            let now = Utc::now();
            let run = task_run::ActiveModel {
                id: Set(new_id()),
                organization_id: Set(task.organization_id),
                project_id: Set(task.project_id),
                task_id: Set(task.id),
                agent_id: Set(new.agent_id),
                status: Set(RunStatus::Queued.as_str().to_owned()),
                status_reason: Set(None),
                required_capabilities: Set(serde_json::json!(new.required_capabilities)),
                input: Set(new.input.clone()),
                created_by: Set(user),
                revision: Set(1),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(txn)
            .await?;
            append_status_event(txn, run.id, status_data(None, RunStatus::Queued, None)).await?;
            Ok::<_, RunError>(run.id)
        })
        .await?;
        let run = self.run(actor, outcome.id()).await?;
        if let Outcome::Created(_) = outcome {
            self.broker.publish(Topic::ProjectRuns(run.project_id), Event::RunUpdated(run.clone()));
            self.dispatch(run.id).await?;
        }
        self.run(actor, outcome.id()).await
    }

    /// Picks an agent and sends it the run; blocks the run when no suitable agent is online.
    async fn dispatch(&self, run_id: Uuid) -> Result<()> {
        let run = task_run::Entity::find_by_id(run_id).one(&self.db).await?.ok_or(CommonError::NotFound("run"))?;
        let project = self.project_of(&run).await?;
        let required: Vec<Capability> = serde_json::from_value(run.required_capabilities.clone()).unwrap_or_default();
        let candidates = agent::Entity::find()
            .filter(agent::Column::WorkspaceId.eq(project.workspace_id))
            .order_by_asc(agent::Column::Id)
            .all(&self.db)
            .await?;
        let chosen = candidates.into_iter().find(|a| {
            run.agent_id.is_none_or(|wanted| wanted == a.id)
                && self.gateway.is_connected(a.connector_id)
                && required.iter().all(|c| capabilities(a).contains(c))
        });
        self.set_status(run_id, RunStatus::Dispatching, None).await?;
        let Some(agent) = chosen else {
            let reason = match run.agent_id {
                Some(_) => "the chosen agent is not online".to_owned(),
                None if required.is_empty() => "no agent is online for this project".to_owned(),
                None => format!(
                    "no online agent has {}",
                    required.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ")
                ),
            };
            self.set_status(run_id, RunStatus::Blocked, Some(reason)).await?;
            return Ok(());
        };
        let number =
            run_attempt::Entity::find().filter(run_attempt::Column::RunId.eq(run_id)).count(&self.db).await? as i32 + 1;
        let now = Utc::now();
        let attempt = run_attempt::ActiveModel {
            id: Set(new_id()),
            run_id: Set(run_id),
            number: Set(number),
            agent_id: Set(agent.id),
            connector_id: Set(agent.connector_id),
            status: Set("dispatched".to_owned()),
            lease_expires_at: Set(None),
            ended_at: Set(None),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&self.db)
        .await?;
        task_run::Entity::update_many()
            .col_expr(task_run::Column::AgentId, Expr::value(agent.id))
            .filter(task_run::Column::Id.eq(run_id))
            .exec(&self.db)
            .await?;
        let command_id = new_id();
        let command = Command::StartRun {
            run_id,
            attempt_id: attempt.id,
            agent_id: agent.id,
            input: run.input.clone(),
            context: serde_json::json!({}),
            approval_token: None,
        };
        self.remember(command_id, run_id);
        let mut envelope = Envelope::new(agent.connector_id, Frame::Command { command_id, command });
        envelope.run_id = Some(run_id);
        envelope.agent_id = Some(agent.id);
        if !self.gateway.send(agent.connector_id, envelope) {
            self.forget(command_id);
            self.set_status(run_id, RunStatus::Failed, Some("the connector went away before the run started".into()))
                .await?;
        }
        tracing::info!(run_id = %run_id, agent_id = %agent.id, %command_id, "run dispatched");
        Ok(())
    }

    fn remember(&self, command_id: Uuid, run_id: Uuid) {
        if let Ok(mut map) = self.pending_starts.lock() {
            map.insert(command_id, run_id);
        }
    }

    fn forget(&self, command_id: Uuid) -> Option<Uuid> {
        self.pending_starts.lock().ok().and_then(|mut map| map.remove(&command_id))
    }

    /// A connector acknowledged (or refused) a command.
    pub async fn command_acknowledged(&self, command_id: Uuid, outcome: &CommandOutcome) -> Result<()> {
        match (self.forget(command_id), outcome) {
            (Some(run_id), CommandOutcome::Accepted) => {
                self.set_status_if(run_id, RunStatus::Dispatching, RunStatus::Running, None).await
            }
            (Some(run_id), CommandOutcome::Rejected { reason }) => {
                self.set_status_if(
                    run_id,
                    RunStatus::Dispatching,
                    RunStatus::Failed,
                    Some(format!("the connector refused the run: {reason}")),
                )
                .await
            }
            _ => Ok(()),
        }
    }

    /// Moves a run to `to` only if it is still in `from` (a late ack must not undo a later change).
    async fn set_status_if(&self, run_id: Uuid, from: RunStatus, to: RunStatus, reason: Option<String>) -> Result<()> {
        let run = task_run::Entity::find_by_id(run_id).one(&self.db).await?.ok_or(CommonError::NotFound("run"))?;
        if RunStatus::from_stored(&run.status) == from {
            self.set_status(run_id, to, reason).await?;
        }
        Ok(())
    }

    /// One step of the state machine: checked, stored with a status event, announced.
    async fn set_status(&self, run_id: Uuid, to: RunStatus, reason: Option<String>) -> Result<task_run::Model> {
        for _ in 0..5 {
            let txn = self.db.begin().await?;
            let run = task_run::Entity::find_by_id(run_id).one(&txn).await?.ok_or(CommonError::NotFound("run"))?;
            let from = RunStatus::from_stored(&run.status);
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
            txn.commit().await?;
            let run = task_run::Entity::find_by_id(run_id).one(&self.db).await?.ok_or(CommonError::NotFound("run"))?;
            tracing::info!(run_id = %run_id, from = %from, to = %to, "run status");
            self.broker.publish(Topic::RunEvents(run_id), Event::RunEvent(event));
            self.broker.publish(Topic::ProjectRuns(run.project_id), Event::RunUpdated(run.clone()));
            return Ok(run);
        }
        Err(CommonError::Internal("the run kept changing underneath; try again".into()).into())
    }

    /// Stores one event from a connector and returns the connector sequence to acknowledge.
    /// A duplicate (same connector and event id) is acknowledged again and stored once.
    pub async fn ingest(
        &self,
        connector_id: Uuid,
        envelope: &Envelope,
        kind: EventKind,
        data: &serde_json::Value,
    ) -> Result<u64> {
        let (Some(run_id), Some(event_id), Some(sequence)) = (envelope.run_id, envelope.event_id, envelope.sequence)
        else {
            return Err(CommonError::validation("an event needs run_id, event_id and sequence").into());
        };
        let attempt = run_attempt::Entity::find()
            .filter(run_attempt::Column::RunId.eq(run_id))
            .order_by_desc(run_attempt::Column::Number)
            .one(&self.db)
            .await?
            .filter(|a| a.connector_id == connector_id)
            .ok_or(RunError::UnknownRun)?;
        let duplicate = run_event::Entity::find()
            .filter(run_event::Column::ConnectorId.eq(connector_id))
            .filter(run_event::Column::EventId.eq(event_id))
            .one(&self.db)
            .await?;
        if duplicate.is_some() {
            return Ok(sequence);
        }
        let stored = {
            let mut attempts = 0;
            loop {
                attempts += 1;
                let txn = self.db.begin().await?;
                let mut row = new_event(run_id, kind_name(kind), data.clone());
                row.attempt_id = Set(Some(attempt.id));
                row.connector_id = Set(Some(connector_id));
                row.event_id = Set(Some(event_id));
                row.occurred_at = Set(envelope.occurred_at);
                match insert_next(&txn, run_id, row).await {
                    Ok(event) => {
                        txn.commit().await?;
                        break event;
                    }
                    Err(e) if is_unique_violation(&e) && attempts < 5 => {
                        txn.rollback().await?;
                        // The same event may have won a race with itself (a resend): then it is stored.
                        let again = run_event::Entity::find()
                            .filter(run_event::Column::ConnectorId.eq(connector_id))
                            .filter(run_event::Column::EventId.eq(event_id))
                            .one(&self.db)
                            .await?;
                        if again.is_some() {
                            return Ok(sequence);
                        }
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        };
        self.broker.publish(Topic::RunEvents(run_id), Event::RunEvent(stored));
        if kind == EventKind::Result {
            self.finish(run_id, data).await?;
        }
        Ok(sequence)
    }

    /// The adapter said the run ended.
    async fn finish(&self, run_id: Uuid, data: &serde_json::Value) -> Result<()> {
        let run = task_run::Entity::find_by_id(run_id).one(&self.db).await?.ok_or(CommonError::NotFound("run"))?;
        let status = RunStatus::from_stored(&run.status);
        let outcome = data.get("outcome").and_then(|o| o.as_str()).unwrap_or("failed");
        let to = match (status, outcome) {
            (RunStatus::Cancelling, _) => RunStatus::Cancelled,
            (_, "succeeded") => RunStatus::Succeeded,
            _ => RunStatus::Failed,
        };
        if status.is_terminal() {
            return Ok(());
        }
        let reason = data.get("exit_code").and_then(|c| c.as_i64()).map(|c| format!("exit code {c}"));
        if status == RunStatus::Dispatching {
            // The result overtook the start acknowledgement.
            self.set_status(run_id, RunStatus::Running, None).await?;
        }
        self.set_status(run_id, to, reason).await?;
        run_attempt::Entity::update_many()
            .col_expr(run_attempt::Column::Status, Expr::value("ended"))
            .col_expr(run_attempt::Column::EndedAt, Expr::value(Utc::now()))
            .filter(run_attempt::Column::RunId.eq(run_id))
            .filter(run_attempt::Column::EndedAt.is_null())
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Cancels a run: a running one through `cancelling` (the connector stops the agent), any
    /// other live one at once. A run still cancelling after the timeout is cancelled anyway.
    pub async fn cancel_run(&self, actor: &Actor, run_id: Uuid) -> Result<task_run::Model> {
        let run = self.run(actor, run_id).await?;
        let project = self.project_of(&run).await?;
        actor.authorize(Permission::OperateRuns, &path(&project), "run")?;
        let status = RunStatus::from_stored(&run.status);
        if status != RunStatus::Running {
            let run = self.set_status(run_id, RunStatus::Cancelled, Some("cancelled by a user".into())).await?;
            // A start may already be on its way to the connector: tell it to stop as well.
            if matches!(status, RunStatus::Dispatching | RunStatus::WaitingApproval) {
                self.send_cancel(run_id).await?;
            }
            return Ok(run);
        }
        let run = self.set_status(run_id, RunStatus::Cancelling, Some("cancel requested".into())).await?;
        self.send_cancel(run_id).await?;
        let service = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(service.cancel_timeout).await;
            if let Err(e) = service
                .set_status_if(
                    run_id,
                    RunStatus::Cancelling,
                    RunStatus::Cancelled,
                    Some("forced: the connector did not confirm in time".into()),
                )
                .await
            {
                tracing::warn!(%run_id, error = %e, "forced cancel failed");
            }
        });
        Ok(run)
    }

    /// Asks the connector of the run's latest attempt to stop it.
    async fn send_cancel(&self, run_id: Uuid) -> Result<()> {
        let attempt = run_attempt::Entity::find()
            .filter(run_attempt::Column::RunId.eq(run_id))
            .order_by_desc(run_attempt::Column::Number)
            .one(&self.db)
            .await?;
        if let Some(attempt) = attempt {
            let command_id = new_id();
            let cancel = Command::CancelRun { run_id, mode: CancelMode::Graceful };
            let mut envelope = Envelope::new(attempt.connector_id, Frame::Command { command_id, command: cancel });
            envelope.run_id = Some(run_id);
            self.gateway.send(attempt.connector_id, envelope);
        }
        Ok(())
    }

    /// After an abnormal stop every live run is `interrupted`, with a reason event.
    pub async fn recover_interrupted(&self) -> Result<usize> {
        let live: Vec<&str> = RunStatus::ALL.iter().filter(|s| !s.is_terminal()).map(|s| s.as_str()).collect();
        let runs = task_run::Entity::find().filter(task_run::Column::Status.is_in(live)).all(&self.db).await?;
        for run in &runs {
            self.set_status(
                run.id,
                RunStatus::Interrupted,
                Some("the control plane stopped while the run was live".into()),
            )
            .await?;
            run_attempt::Entity::update_many()
                .col_expr(run_attempt::Column::Status, Expr::value("interrupted"))
                .col_expr(run_attempt::Column::EndedAt, Expr::value(Utc::now()))
                .col_expr(run_attempt::Column::LeaseExpiresAt, Expr::value(Option::<chrono::DateTime<Utc>>::None))
                .filter(run_attempt::Column::RunId.eq(run.id))
                .filter(run_attempt::Column::EndedAt.is_null())
                .exec(&self.db)
                .await?;
        }
        Ok(runs.len())
    }

    /// A run's events after `after` (a sequence), oldest first.
    pub async fn events(
        &self,
        actor: &Actor,
        run_id: Uuid,
        after: i64,
        first: Option<i32>,
    ) -> Result<(Vec<run_event::Model>, bool)> {
        self.run(actor, run_id).await?;
        let limit = match first {
            Some(n) if n < 0 || n as u64 > self.max_page_size => {
                return Err(
                    CommonError::validation(format!("`first` must be between 0 and {}", self.max_page_size)).into()
                );
            }
            Some(n) => n as u64,
            None => self.max_page_size,
        };
        let mut rows = events_after(&self.db, run_id, after, limit + 1).await?;
        let more = rows.len() as u64 > limit;
        rows.truncate(limit as usize);
        Ok((rows, more))
    }

    pub fn db(&self) -> &DatabaseConnection {
        &self.db
    }
}

/// Whether a run is in a terminal status (a run that cannot be read counts as ended).
pub async fn run_has_ended(db: &impl ConnectionTrait, run_id: Uuid) -> bool {
    match task_run::Entity::find_by_id(run_id).one(db).await {
        Ok(Some(run)) => RunStatus::from_stored(&run.status).is_terminal(),
        _ => true,
    }
}

pub async fn events_after(
    db: &impl ConnectionTrait,
    run_id: Uuid,
    after: i64,
    limit: u64,
) -> Result<Vec<run_event::Model>, sea_orm::DbErr> {
    run_event::Entity::find()
        .filter(run_event::Column::RunId.eq(run_id))
        .filter(run_event::Column::Sequence.gt(after))
        .order_by_asc(run_event::Column::Sequence)
        .limit(limit)
        .all(db)
        .await
}

fn path(project: &project::Model) -> ScopePath {
    ScopePath::project(project.organization_id, project.workspace_id, project.id)
}

fn status_data(from: Option<RunStatus>, to: RunStatus, reason: Option<&str>) -> serde_json::Value {
    serde_json::json!({ "status": to.as_str(), "from": from.map(|f| f.as_str()), "reason": reason })
}

fn new_event(run_id: Uuid, kind: &str, data: serde_json::Value) -> run_event::ActiveModel {
    let now = Utc::now();
    run_event::ActiveModel {
        id: Set(new_id()),
        run_id: Set(run_id),
        sequence: Set(0),
        attempt_id: Set(None),
        connector_id: Set(None),
        event_id: Set(None),
        kind: Set(kind.to_owned()),
        data: Set(data),
        occurred_at: Set(now),
        created_at: Set(now),
    }
}

/// The kind of the events the control plane writes itself: a run's status changes.
pub const STATUS_KIND: &str = "status";

/// Kind names of the events adapters send, as stored.
pub fn kind_name(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Started => "started",
        EventKind::Message => "message",
        EventKind::ToolCall => "tool_call",
        EventKind::ToolResult => "tool_result",
        EventKind::FileChange => "file_change",
        EventKind::Usage => "usage",
        EventKind::Output => "output",
        EventKind::Error => "error",
        EventKind::ApprovalRequested => "approval_requested",
        EventKind::Checkpoint => "checkpoint",
        EventKind::Result => "result",
    }
}

/// Appends a status change, the control plane's own kind of event, inside `txn`.
async fn append_status_event(
    txn: &impl ConnectionTrait,
    run_id: Uuid,
    data: serde_json::Value,
) -> Result<run_event::Model> {
    Ok(insert_next(txn, run_id, new_event(run_id, STATUS_KIND, data)).await?)
}

/// Inserts with the run's next sequence; the unique (run, sequence) index turns a race into a retry.
async fn insert_next(
    txn: &impl ConnectionTrait,
    run_id: Uuid,
    mut row: run_event::ActiveModel,
) -> Result<run_event::Model, sea_orm::DbErr> {
    let last = run_event::Entity::find()
        .filter(run_event::Column::RunId.eq(run_id))
        .order_by_desc(run_event::Column::Sequence)
        .one(txn)
        .await?
        .map_or(0, |e| e.sequence);
    row.sequence = Set(last + 1);
    row.insert(txn).await
}
