//! Checkpoints and handoff: a running agent saves its state on request; a run is handed to another
//! agent as a new attempt in the same lineage, carrying a bounded handoff bundle (SPEC §7) built
//! from what the control plane knows — never a transplanted provider session.

use acc_entity::run_attempt::AttemptStatus::HandingOff;
use acc_entity::run_event::RunEventKind;
use acc_entity::{acceptance_criterion, agent, approval, checkpoint, run_attempt, run_event, task, task_run};
use acc_protocol::{CancelMode, Capability, Command};
use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use super::state::{InvalidTransition, RunStatus};
use super::{Result, RunService, require};
use crate::error::{CommonError, is_unique_violation};
use crate::identity::actor::Actor;

/// The bundle's shape; a target adapter can tell which fields to expect.
const BUNDLE_VERSION: u32 = 1;
/// Conversation items a bundle carries at most (the most recent ones).
const CONVERSATION_ITEMS: u64 = 40;
/// Errors and artifact references a bundle carries at most (the most recent ones).
const LISTED_ITEMS: u64 = 50;
/// Longest string kept inside a bundle; longer ones are cut.
const MAX_STRING_CHARS: usize = 4000;
/// A bundle must fit in one protocol frame with room to spare.
const MAX_BUNDLE_BYTES: usize = 512 * 1024;
const MAX_REASON_CHARS: usize = 500;

/// What the target agent of a handoff is given (SPEC §7).
#[derive(Debug, Serialize)]
struct HandoffBundle {
    schema_version: u32,
    run_id: Uuid,
    task: TaskSummary,
    objective: String,
    input: Value,
    acceptance_criteria: Vec<Criterion>,
    /// The most recent messages, tool calls and output, oldest first.
    conversation: Vec<Item>,
    /// The verified memory the run was given (its context bundle's, quoted with provenance): the
    /// target agent gets the handoff bundle instead of a context bundle.
    verified_memory: Vec<Value>,
    /// Approvals decided during the run.
    decisions: Vec<DecisionRecord>,
    /// Met acceptance criteria, then what the last checkpoint listed as `completed`.
    completed_work: Vec<String>,
    /// Unmet acceptance criteria, then what the last checkpoint listed as `pending`.
    pending_work: Vec<String>,
    checkpoint: Option<CheckpointRecord>,
    /// Files the run changed (`file_change` events).
    artifact_refs: Vec<Item>,
    observed_errors: Vec<Item>,
    provenance: Provenance,
}

#[derive(Debug, Serialize)]
struct TaskSummary {
    id: Uuid,
    title: String,
    description: String,
}

#[derive(Debug, Serialize)]
struct Criterion {
    description: String,
    met: bool,
}

/// A run event as the bundle carries it: where it sits in the run, what it was, what it said.
#[derive(Debug, Serialize)]
struct Item {
    sequence: i64,
    kind: String,
    data: Value,
}

#[derive(Debug, Serialize)]
struct DecisionRecord {
    action: String,
    status: String,
    reason: Option<String>,
    decided_at: Option<chrono::DateTime<Utc>>,
}

#[derive(Debug, Serialize)]
struct CheckpointRecord {
    id: Uuid,
    reason: String,
    data: Value,
    created_at: chrono::DateTime<Utc>,
}

#[derive(Debug, Serialize)]
struct Provenance {
    run_id: Uuid,
    task_id: Uuid,
    attempts: Vec<AttemptRecord>,
    checkpoint_id: Option<Uuid>,
    /// The bundle reflects the run's events up to this sequence.
    events_through: i64,
    built_at: chrono::DateTime<Utc>,
}

#[derive(Debug, Serialize)]
struct AttemptRecord {
    number: i32,
    kind: String,
    agent_id: Uuid,
    status: String,
}

fn reason_text(reason: Option<String>, default: &str) -> Result<String> {
    let reason = reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty()).unwrap_or_else(|| default.to_owned());
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(CommonError::validation(format!("a reason has at most {MAX_REASON_CHARS} characters")).into());
    }
    Ok(reason)
}

/// Cuts every string in `value` to [`MAX_STRING_CHARS`].
fn bounded(value: Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > MAX_STRING_CHARS => {
            Value::String(s.chars().take(MAX_STRING_CHARS).chain("…".chars()).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(bounded).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, bounded(v))).collect()),
        other => other,
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value.and_then(Value::as_array).into_iter().flatten().filter_map(|v| v.as_str().map(str::to_owned)).collect()
}

impl RunService {
    /// The run's working attempt and its agent; `INVALID_TRANSITION` toward `to` without one.
    async fn working_agent(&self, run: &task_run::Model, to: RunStatus) -> Result<(run_attempt::Model, agent::Model)> {
        let status = RunStatus::from_stored(&run.status);
        let invalid = || InvalidTransition { from: status, to };
        if status != RunStatus::Running {
            return Err(invalid().into());
        }
        let attempt = self.current_attempt(run.id).await?.filter(|a| a.ended_at.is_none()).ok_or_else(invalid)?;
        let agent =
            self.reads.one(agent::Entity::find_by_id(attempt.agent_id)).await?.ok_or(CommonError::NotFound("agent"))?;
        Ok((attempt, agent))
    }

    /// Asks a running agent to save its state: `running → checkpointing`, and back to `running`
    /// once the checkpoint is stored. The agent must declare `checkpoint`.
    pub async fn request_checkpoint(
        &self,
        actor: &Actor,
        run_id: Uuid,
        reason: Option<String>,
    ) -> Result<task_run::Model> {
        let (run, _) = self.operable_run(actor, run_id).await?;
        let reason = reason_text(reason, "requested by a person")?;
        let (attempt, agent) = self.working_agent(&run, RunStatus::Checkpointing).await?;
        require(&agent, &[Capability::Checkpoint])?;
        let run = self.set_status(run_id, RunStatus::Checkpointing, Some(reason)).await?;
        self.send_checkpoint(&attempt).await?;
        Ok(run)
    }

    /// Hands a run to another agent. A running run is checkpointed first (its agent must declare
    /// `checkpoint`); a blocked one goes to the target at once. The target becomes a new attempt
    /// with the handoff bundle; the previous attempt's lease closes once the target took over.
    pub async fn request_handoff(
        &self,
        actor: &Actor,
        run_id: Uuid,
        target_id: Uuid,
        reason: Option<String>,
    ) -> Result<task_run::Model> {
        let (run, project) = self.operable_run(actor, run_id).await?;
        let required: Vec<Capability> = serde_json::from_value(run.required_capabilities.clone()).unwrap_or_default();
        let target = self.agent_for(actor, &project, target_id, &required).await?;
        let reason = reason_text(reason, "requested by a person")?;
        match RunStatus::from_stored(&run.status) {
            RunStatus::Running => {
                let (attempt, source) = self.working_agent(&run, RunStatus::Checkpointing).await?;
                if source.id == target.id {
                    return Err(CommonError::validation("the run is already on that agent").into());
                }
                require(&source, &[Capability::Checkpoint])?;
                self.set_handoff_target(run_id, Some(target.id)).await?;
                let status_reason = format!("handoff to {}: {reason}", target.name);
                if let Err(e) = self.set_status(run_id, RunStatus::Checkpointing, Some(status_reason)).await {
                    self.set_handoff_target(run_id, None).await?;
                    return Err(e);
                }
                self.send_checkpoint(&attempt).await?;
            }
            RunStatus::Blocked => {
                self.set_handoff_target(run_id, Some(target.id)).await?;
                let status_reason = format!("handoff to {}: {reason}", target.name);
                self.set_status(run_id, RunStatus::HandoffReady, Some(status_reason)).await?;
                self.set_status(run_id, RunStatus::Dispatching, None).await?;
                self.dispatch(run_id).await?;
            }
            other => return Err(InvalidTransition { from: other, to: RunStatus::HandoffReady }.into()),
        }
        self.reader.run(actor, run_id).await
    }

    /// The status event that moved the run to `checkpointing`, while it is there: the checkpoint
    /// request. Its id is the `checkpoint` command's id and its reason the command's reason, so a
    /// resend (after a reconnect or a restart) is the same command, and an answer finds its request.
    pub(super) async fn checkpoint_request(&self, run_id: Uuid) -> Result<Option<run_event::Model>> {
        let latest = self
            .reads
            .one(
                run_event::Entity::find()
                    .filter(run_event::Column::RunId.eq(run_id))
                    .filter(run_event::Column::Kind.eq(RunEventKind::Status))
                    .order_by_desc(run_event::Column::Sequence),
            )
            .await?;
        Ok(latest.filter(|e| e.data.get("status").and_then(Value::as_str) == Some(RunStatus::Checkpointing.as_str())))
    }

    /// Asks the attempt's agent for the checkpoint its run is waiting for (if it still is).
    pub(super) async fn send_checkpoint(&self, attempt: &run_attempt::Model) -> Result<()> {
        let Some(request) = self.checkpoint_request(attempt.run_id).await? else { return Ok(()) };
        let reason = request.data.get("reason").and_then(Value::as_str).unwrap_or_default().to_owned();
        let command = Command::Checkpoint { run_id: attempt.run_id, reason };
        if !self.send_command(attempt.connector_id, attempt.run_id, request.id, command) {
            // Sent again when the connector reconnects; if it does not, its lease lapses.
            tracing::warn!(run_id = %attempt.run_id, "the connector is offline; the checkpoint request waits for it");
        }
        Ok(())
    }

    /// The agent saved a checkpoint. Kept (once per event); if the run was checkpointing it goes
    /// on, or, for a handoff, becomes `handoff_ready` and its agent is told to stop.
    pub(super) async fn checkpoint_taken(&self, event: &run_event::Model, attempt_id: Uuid) -> Result<()> {
        let run = self.load(event.run_id).await?;
        let checkpointing = RunStatus::from_stored(&run.status) == RunStatus::Checkpointing
            && self.current_attempt(run.id).await?.is_some_and(|a| a.id == attempt_id);
        let inserted = checkpoint::ActiveModel {
            // Keyed by the event, so a resent event stores nothing twice.
            id: Set(event.id),
            run_id: Set(run.id),
            attempt_id: Set(attempt_id),
            reason: Set(event.data.get("reason").and_then(Value::as_str).unwrap_or_default().to_owned()),
            data: Set(event.data.clone()),
            target_agent_id: Set(run.handoff_target_id.filter(|_| checkpointing)),
            created_at: Set(Utc::now()),
        }
        .insert(&self.db)
        .await;
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => return Ok(()),
            Err(e) => return Err(e.into()),
        }
        if !checkpointing {
            return Ok(());
        }
        match run.handoff_target_id {
            Some(_) => {
                let reason = Some("checkpoint taken; the source agent stops and the target takes over".to_owned());
                self.set_status(run.id, RunStatus::HandoffReady, reason).await?;
                self.mark_attempt(attempt_id, HandingOff).await?;
                if let Some(attempt) = self.reads.one(run_attempt::Entity::find_by_id(attempt_id)).await? {
                    self.send_cancel(attempt.connector_id, run.id, Some(attempt_id), CancelMode::Graceful);
                }
            }
            None => {
                self.set_status(run.id, RunStatus::Running, Some("checkpoint taken".into())).await?;
            }
        }
        Ok(())
    }

    /// The agent could not checkpoint: the run goes on where it was, and a handoff is called off.
    pub(super) async fn checkpoint_refused(&self, run_id: Uuid, reason: &str) -> Result<()> {
        self.set_handoff_target(run_id, None).await?;
        let reason = Some(format!("the agent could not checkpoint: {reason}"));
        self.set_status_if(run_id, RunStatus::Checkpointing, RunStatus::Running, reason).await
    }

    /// The target took the run over: retries now go to it, and no handoff is in progress.
    pub(super) async fn handoff_completed(&self, run_id: Uuid, target_id: Uuid) -> Result<()> {
        task_run::Entity::update_many()
            .col_expr(task_run::Column::HandoffTargetId, Expr::value(Option::<Uuid>::None))
            .col_expr(task_run::Column::RequestedAgentId, Expr::value(target_id))
            .filter(task_run::Column::Id.eq(run_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    pub(super) async fn latest_checkpoint(&self, run_id: Uuid) -> Result<Option<checkpoint::Model>> {
        Ok(self
            .reads
            .one(
                checkpoint::Entity::find()
                    .filter(checkpoint::Column::RunId.eq(run_id))
                    .order_by_desc(checkpoint::Column::Id),
            )
            .await?)
    }

    /// The most recent events of the given kinds, oldest first, with their strings cut short.
    async fn recent(&self, run_id: Uuid, kinds: &[RunEventKind], limit: u64) -> Result<Vec<Item>> {
        let mut rows = self
            .reads
            .all(
                run_event::Entity::find()
                    .filter(run_event::Column::RunId.eq(run_id))
                    .filter(run_event::Column::Kind.is_in(kinds.iter().copied()))
                    .order_by_desc(run_event::Column::Sequence)
                    .limit(limit),
            )
            .await?;
        rows.reverse();
        Ok(rows
            .into_iter()
            .map(|e| Item { sequence: e.sequence, kind: e.kind.to_string(), data: bounded(e.data) })
            .collect())
    }

    /// The handoff bundle of SPEC §7, from what the control plane stored about the run.
    pub(super) async fn handoff_bundle(&self, run: &task_run::Model) -> Result<Value> {
        let task = self.reads.one(task::Entity::find_by_id(run.task_id)).await?.ok_or(CommonError::NotFound("task"))?;
        let criteria = self
            .reads
            .all(
                acceptance_criterion::Entity::find()
                    .filter(acceptance_criterion::Column::TaskId.eq(task.id))
                    .order_by_asc(acceptance_criterion::Column::Id),
            )
            .await?;
        let checkpoint = self.latest_checkpoint(run.id).await?;
        let decisions = self
            .reads
            .all(approval::Entity::find().filter(approval::Column::RunId.eq(run.id)).order_by_asc(approval::Column::Id))
            .await?;
        let attempts = self
            .reads
            .all(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::RunId.eq(run.id))
                    .order_by_asc(run_attempt::Column::Number),
            )
            .await?;
        let events_through = self
            .reads
            .one(
                run_event::Entity::find()
                    .filter(run_event::Column::RunId.eq(run.id))
                    .order_by_desc(run_event::Column::Sequence),
            )
            .await?
            .map_or(0, |e| e.sequence);
        let conversation = self
            .recent(
                run.id,
                &[RunEventKind::Message, RunEventKind::ToolCall, RunEventKind::ToolResult, RunEventKind::Output],
                CONVERSATION_ITEMS,
            )
            .await?;
        let mut observed_errors =
            self.recent(run.id, &[RunEventKind::Error, RunEventKind::Notice], LISTED_ITEMS).await?;
        observed_errors.extend(
            self.recent(run.id, &[RunEventKind::Status], LISTED_ITEMS)
                .await?
                .into_iter()
                .filter(|e| e.data.get("status").and_then(Value::as_str) == Some("failed")),
        );
        let given = self.context.for_dispatch(run).await?.bundle;
        let verified_memory = given["verifiedMemory"].as_array().cloned().unwrap_or_default();
        let (met, unmet): (Vec<_>, Vec<_>) = criteria.iter().partition(|c| c.met);
        let from_checkpoint = |key: &str| strings(checkpoint.as_ref().and_then(|c| c.data.get(key)));
        let mut bundle = HandoffBundle {
            schema_version: BUNDLE_VERSION,
            run_id: run.id,
            objective: run
                .input
                .get("objective")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| task.title.clone()),
            task: TaskSummary { id: task.id, title: task.title, description: task.description },
            input: bounded(run.input.clone()),
            acceptance_criteria: criteria
                .iter()
                .map(|c| Criterion { description: c.description.clone(), met: c.met })
                .collect(),
            conversation,
            verified_memory,
            decisions: decisions
                .into_iter()
                .map(|a| DecisionRecord {
                    action: a.action,
                    status: a.status.to_string(),
                    reason: a.decision_reason,
                    decided_at: a.decided_at,
                })
                .collect(),
            completed_work: met.iter().map(|c| c.description.clone()).chain(from_checkpoint("completed")).collect(),
            pending_work: unmet.iter().map(|c| c.description.clone()).chain(from_checkpoint("pending")).collect(),
            checkpoint: checkpoint.as_ref().map(|c| CheckpointRecord {
                id: c.id,
                reason: c.reason.clone(),
                data: bounded(c.data.clone()),
                created_at: c.created_at,
            }),
            artifact_refs: self.recent(run.id, &[RunEventKind::FileChange], LISTED_ITEMS).await?,
            observed_errors,
            provenance: Provenance {
                run_id: run.id,
                task_id: run.task_id,
                attempts: attempts
                    .into_iter()
                    .map(|a| AttemptRecord {
                        number: a.number,
                        kind: a.kind.to_string(),
                        agent_id: a.agent_id,
                        status: a.status.to_string(),
                    })
                    .collect(),
                checkpoint_id: checkpoint.map(|c| c.id),
                events_through,
                built_at: Utc::now(),
            },
        };
        // Keep it within one frame: drop the oldest conversation first, then the checkpoint's data.
        loop {
            let value = serde_json::to_value(&bundle).map_err(|e| CommonError::Internal(e.to_string()))?;
            if value.to_string().len() <= MAX_BUNDLE_BYTES {
                return Ok(value);
            }
            if !bundle.conversation.is_empty() {
                bundle.conversation.remove(0);
            } else if let Some(checkpoint) = bundle.checkpoint.as_mut().filter(|c| !c.data.is_null()) {
                checkpoint.data = Value::Null;
            } else {
                return Ok(value);
            }
        }
    }
}
