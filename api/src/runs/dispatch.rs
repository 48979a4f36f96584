//! Attempts: choosing an agent and sending it the run, the attempt's lease on its connector
//! (renewed by heartbeats), retries after a lapsed lease or a lost host — continuing the runtime's
//! own session where the agent can resume it —, a connector coming back (re-adopting its runs, or
//! not), and the sweeper that finds what timed out.

use std::collections::HashSet;

use acc_entity::approval::ApprovalStatus;
use acc_entity::run_attempt::AttemptKind;
use acc_entity::run_attempt::AttemptStatus::{self, *};
use acc_entity::run_event::RunEventKind;
use acc_entity::{agent, project, run_attempt, run_event, task_run};
use acc_protocol::{CancelMode, Capability, Command, CommandOutcome};
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set};
use uuid::Uuid;

use super::approvals::RunBound;
use super::state::RunStatus;
use super::{Result, RunService, require};
use crate::error::is_unique_violation;
use crate::gateway::capabilities;

/// The longest wait before a retry, however many attempts came before.
const MAX_RETRY_BACKOFF: std::time::Duration = std::time::Duration::from_secs(300);

fn required_capabilities(run: &task_run::Model) -> Vec<Capability> {
    serde_json::from_value(run.required_capabilities.clone()).unwrap_or_default()
}

/// An attempt that was checkpointed for a handoff: open, but no longer the one working.
fn is_handing_off(attempt: &run_attempt::Model) -> bool {
    attempt.status == HandingOff || attempt.status == Stopped
}

/// Why a run's working attempt ended without a result; it decides how a run with no attempt
/// left ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AttemptFailure {
    /// Its connector refused it: the run fails.
    Refused,
    /// Its agent is gone (the lease lapsed, the connector lost the run or came back without it,
    /// or it could not be sent): the run is interrupted (SPEC §7).
    AgentGone,
}

impl RunService {
    /// Sends a `dispatching` run's next attempt to a suitable online agent, or blocks the run when
    /// there is none. Does nothing unless the run is dispatching with no working attempt, and the
    /// unique attempt number settles races, so concurrent callers dispatch a run once.
    pub(super) async fn dispatch(&self, run_id: Uuid) -> Result<()> {
        let run = self.load(run_id).await?;
        if RunStatus::from_stored(&run.status) != RunStatus::Dispatching {
            return Ok(());
        }
        let previous = self.current_attempt(run_id).await?;
        if previous.as_ref().is_some_and(|a| a.ended_at.is_none() && !is_handing_off(a)) {
            return Ok(());
        }
        let project = self.reader.project_of(&run).await?;
        let required = required_capabilities(&run);
        let wanted = run.handoff_target_id.or(run.requested_agent_id);
        let candidates = self
            .reads
            .all(
                agent::Entity::find()
                    .filter(agent::Column::WorkspaceId.eq(project.workspace_id))
                    .order_by_asc(agent::Column::Id),
            )
            .await?;
        let suitable: Vec<agent::Model> = candidates
            .into_iter()
            .filter(|a| {
                wanted.is_none_or(|w| w == a.id)
                    && self.gateway.is_connected(a.connector_id)
                    && required.iter().all(|c| capabilities(a).contains(c))
            })
            .collect();
        // A retry goes back to the previous attempt's agent when it can: only there can the
        // runtime's own session be resumed, and its workdir holds what the run did so far.
        let previous_agent = previous.as_ref().filter(|_| run.handoff_target_id.is_none()).map(|a| a.agent_id);
        let chosen = suitable.iter().find(|a| Some(a.id) == previous_agent).or(suitable.first()).cloned();
        let Some(agent) = chosen else {
            let reason = match (run.handoff_target_id, wanted) {
                (Some(_), _) => "the handoff target is not online".to_owned(),
                (None, Some(_)) => "the chosen agent is not online".to_owned(),
                (None, None) if required.is_empty() => "no agent is online for this project".to_owned(),
                (None, None) => format!(
                    "no online agent has {}",
                    required.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ")
                ),
            };
            return self.set_status_if(run_id, RunStatus::Dispatching, RunStatus::Blocked, Some(reason)).await;
        };
        // The run's context is assembled before the attempt's lease starts, so its reads never
        // eat into the time the agent has to answer.
        if previous.is_none() {
            self.context.for_dispatch(&run).await?;
        }
        let number = previous.map_or(1, |a| a.number + 1);
        let kind = match (run.handoff_target_id, number) {
            (Some(_), _) => AttemptKind::Handoff,
            (None, 1) => AttemptKind::Start,
            (None, _) if self.resumable_session(run_id, agent.id).await?.is_some() => AttemptKind::Resume,
            (None, _) => AttemptKind::Retry,
        };
        let now = Utc::now();
        let inserted = run_attempt::ActiveModel {
            id: Set(crate::ids::new_id()),
            run_id: Set(run_id),
            number: Set(number),
            kind: Set(kind),
            agent_id: Set(agent.id),
            connector_id: Set(agent.connector_id),
            status: Set(Dispatched),
            lease_expires_at: Set(Some(now + self.policy.lease)),
            ended_at: Set(None),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&self.db)
        .await;
        let attempt = match inserted {
            Ok(attempt) => attempt,
            // Another dispatcher took this attempt number first.
            Err(e) if is_unique_violation(&e) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        task_run::Entity::update_many()
            .col_expr(task_run::Column::AgentId, Expr::value(agent.id))
            .filter(task_run::Column::Id.eq(run_id))
            .exec(&self.db)
            .await?;
        tracing::info!(%run_id, attempt = number, %kind, agent_id = %agent.id, "run dispatched");
        if !self.send_attempt(&run, &attempt).await? {
            self.end_attempt(attempt.id, Undelivered).await?;
            let reason = format!("attempt {number} could not be sent: its connector went away");
            self.attempt_failed(run_id, reason, AttemptFailure::AgentGone).await?;
        }
        Ok(())
    }

    /// Sends an attempt's start (or, for a handoff, the handoff bundle) to its connector. The
    /// command id is the attempt id, so sending it again is harmless.
    async fn send_attempt(&self, run: &task_run::Model, attempt: &run_attempt::Model) -> Result<bool> {
        let budget = self.remaining_budget(run).await?;
        let skills = crate::skills::frozen_for_run(&self.reads, run.id).await?;
        let command = if attempt.kind == AttemptKind::Handoff {
            Command::HandoffIngest {
                run_id: run.id,
                attempt_id: attempt.id,
                agent_id: attempt.agent_id,
                bundle: self.handoff_bundle(run).await?,
                budget,
                skills,
            }
        } else {
            // Every attempt starts with the run's one bundle; a later one also with where the
            // earlier stopped.
            let mut context = self.context.for_dispatch(run).await?.bundle;
            if matches!(attempt.kind, AttemptKind::Retry | AttemptKind::Resume) {
                context["attempt"] = attempt.number.into();
                context["checkpoint"] = self.latest_checkpoint(run.id).await?.map(|c| c.data).into();
            }
            let session = match attempt.kind {
                AttemptKind::Resume => self.resumable_session(run.id, attempt.agent_id).await?,
                _ => None,
            };
            if let Some(session_id) = session {
                let command = Command::Resume {
                    run_id: run.id,
                    attempt_id: attempt.id,
                    agent_id: attempt.agent_id,
                    session_id,
                    input: run.input.clone(),
                    context,
                    budget,
                    skills,
                };
                return Ok(self.send_command(attempt.connector_id, run.id, attempt.id, command));
            }
            Command::StartRun {
                run_id: run.id,
                attempt_id: attempt.id,
                agent_id: attempt.agent_id,
                input: run.input.clone(),
                context,
                approval_token: None,
                budget,
                skills,
            }
        };
        Ok(self.send_command(attempt.connector_id, run.id, attempt.id, command))
    }

    /// The runtime session a new attempt of the run on `agent_id` can resume: the one the agent's
    /// latest earlier attempt started (its `started` event's `session_id`), if the agent declares
    /// `native_resume`.
    async fn resumable_session(&self, run_id: Uuid, agent_id: Uuid) -> Result<Option<String>> {
        let agent = self.reads.one(agent::Entity::find_by_id(agent_id)).await?;
        if !agent.is_some_and(|a| capabilities(&a).contains(&Capability::NativeResume)) {
            return Ok(None);
        }
        let earlier: Vec<Uuid> = self
            .reads
            .all(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::RunId.eq(run_id))
                    .filter(run_attempt::Column::AgentId.eq(agent_id)),
            )
            .await?
            .into_iter()
            .map(|a| a.id)
            .collect();
        let started = self
            .reads
            .one(
                run_event::Entity::find()
                    .filter(run_event::Column::RunId.eq(run_id))
                    .filter(run_event::Column::Kind.eq(RunEventKind::Started))
                    .filter(run_event::Column::AttemptId.is_in(earlier))
                    .order_by_desc(run_event::Column::Sequence),
            )
            .await?;
        Ok(started.and_then(|e| e.data.get("session_id")?.as_str().map(str::to_owned)))
    }

    /// The run's working attempt ended without a result (its lease lapsed, it could not be sent,
    /// it was refused). Retries while the run has attempts left; else the run fails, or, if its
    /// agent is gone, is interrupted. A handoff in progress goes on. Returns true when the run is
    /// now ready to be dispatched at once (a handoff's target).
    pub(super) async fn attempt_failed(&self, run_id: Uuid, reason: String, failure: AttemptFailure) -> Result<bool> {
        let run = self.load(run_id).await?;
        let mut status = RunStatus::from_stored(&run.status);
        if status.is_terminal() {
            return Ok(false);
        }
        self.close_pending_approvals(run_id, ApprovalStatus::Cancelled, "the attempt ended").await?;
        match status {
            RunStatus::Cancelling => {
                self.set_status(run_id, RunStatus::Cancelled, Some(format!("{reason}; the run is cancelled"))).await?;
                return Ok(false);
            }
            RunStatus::HandoffReady => {
                self.set_status(run_id, RunStatus::Dispatching, Some(format!("{reason}; handing off"))).await?;
                return Ok(true);
            }
            RunStatus::Checkpointing if run.handoff_target_id.is_some() => {
                let reason = format!("{reason}; handing off without a checkpoint");
                self.set_status(run_id, RunStatus::HandoffReady, Some(reason)).await?;
                self.set_status(run_id, RunStatus::Dispatching, None).await?;
                return Ok(true);
            }
            RunStatus::Dispatching if run.handoff_target_id.is_some() => {
                self.close_handed_off(run_id, Ended).await?;
                let reason = format!("{reason}; the handoff waits for its target");
                self.set_status(run_id, RunStatus::Blocked, Some(reason)).await?;
                return Ok(false);
            }
            RunStatus::WaitingApproval | RunStatus::Checkpointing => {
                self.set_status(run_id, RunStatus::Running, Some(reason.clone())).await?;
                status = RunStatus::Running;
            }
            _ => {}
        }
        let attempts =
            run_attempt::Entity::find().filter(run_attempt::Column::RunId.eq(run_id)).count(&self.db).await?;
        if attempts < run.max_attempts.max(1) as u64 {
            if status != RunStatus::Dispatching {
                let reason = format!("{reason}; retrying as attempt {} of {}", attempts + 1, run.max_attempts);
                self.set_status(run_id, RunStatus::Dispatching, Some(reason)).await?;
            }
        } else {
            let reason = format!("{reason}; no attempts left ({} allowed)", run.max_attempts);
            let to = match failure {
                AttemptFailure::Refused => RunStatus::Failed,
                AttemptFailure::AgentGone => RunStatus::Interrupted,
            };
            self.set_status(run_id, to, Some(reason)).await?;
        }
        Ok(false)
    }

    /// Closes an attempt whose agent is gone (as `status`: lapsed, lost) and, if it was the run's
    /// working attempt, applies the retry policy. Whoever closes the attempt handles it, once.
    pub(super) async fn attempt_gone(
        &self,
        run_id: Uuid,
        attempt_id: Uuid,
        status: AttemptStatus,
        reason: String,
    ) -> Result<()> {
        if !self.end_attempt(attempt_id, status).await? {
            return Ok(());
        }
        tracing::warn!(%run_id, %attempt_id, %status, %reason, "the attempt's agent is gone");
        if self.current_attempt(run_id).await?.is_none_or(|c| c.id != attempt_id) {
            return Ok(());
        }
        if self.attempt_failed(run_id, reason, AttemptFailure::AgentGone).await? {
            self.dispatch(run_id).await?;
        }
        Ok(())
    }

    /// Closes the attempts that handed a run off (their leases end now).
    async fn close_handed_off(&self, run_id: Uuid, status: AttemptStatus) -> Result<()> {
        let sources = self
            .reads
            .all(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::RunId.eq(run_id))
                    .filter(run_attempt::Column::Status.is_in([HandingOff, Stopped]))
                    .filter(run_attempt::Column::EndedAt.is_null()),
            )
            .await?;
        for source in sources {
            self.end_attempt(source.id, status).await?;
        }
        Ok(())
    }

    /// A connector acknowledged (or refused) a command. Start and handoff commands carry their
    /// attempt's id, approval decisions their approval's, checkpoints their request's status
    /// event's; each is looked up in the database (so an answer after a restart still counts)
    /// and counts only from the connector the command went to.
    pub async fn command_acknowledged(
        &self,
        connector_id: Uuid,
        command_id: Uuid,
        outcome: &CommandOutcome,
    ) -> Result<()> {
        let attempt = self.reads.one(run_attempt::Entity::find_by_id(command_id)).await?;
        if let Some(attempt) = attempt.filter(|a| a.connector_id == connector_id) {
            return self.attempt_answered(attempt, outcome).await;
        }
        let approval = self.reads.one(acc_entity::approval::Entity::find_by_id(command_id)).await?;
        if let Some(bound) = approval.as_ref().and_then(RunBound::of) {
            let approval = bound.approval;
            let attempt = self.reads.one(run_attempt::Entity::find_by_id(bound.attempt_id)).await?;
            if let (Some(attempt), CommandOutcome::Rejected { reason }) = (attempt, outcome)
                && attempt.connector_id == connector_id
            {
                let message = format!("the connector refused the decision on `{}`: {reason}", approval.action);
                let data = serde_json::json!({ "message": message, "approval_id": approval.id });
                self.note(bound.run_id, RunEventKind::Notice, data).await?;
            }
            return Ok(());
        }
        let request = self.reads.one(run_event::Entity::find_by_id(command_id)).await?;
        if let (Some(request), CommandOutcome::Rejected { reason }) = (request, outcome)
            && request.kind == RunEventKind::Status
        {
            let owner = self.current_attempt(request.run_id).await?.filter(|a| a.ended_at.is_none());
            if owner.is_some_and(|a| a.connector_id == connector_id)
                && self.checkpoint_request(request.run_id).await?.is_some_and(|r| r.id == request.id)
            {
                self.checkpoint_refused(request.run_id, reason).await?;
            }
        }
        Ok(())
    }

    async fn attempt_answered(&self, attempt: run_attempt::Model, outcome: &CommandOutcome) -> Result<()> {
        let run = self.load(attempt.run_id).await?;
        let current = self.current_attempt(run.id).await?.is_some_and(|c| c.id == attempt.id);
        let dispatching = RunStatus::from_stored(&run.status) == RunStatus::Dispatching;
        match outcome {
            CommandOutcome::Accepted => {
                if attempt.status == Dispatched {
                    self.mark_attempt(attempt.id, Running).await?;
                }
                if !(current && dispatching) {
                    // A late answer: the run moved on (cancelled, say) and must not be undone.
                    return Ok(());
                }
                let reason = if attempt.kind == AttemptKind::Handoff {
                    self.close_handed_off(run.id, HandedOff).await?;
                    self.handoff_completed(run.id, attempt.agent_id).await?;
                    Some("the handoff target took the run over".to_owned())
                } else {
                    None
                };
                self.set_status_if(run.id, RunStatus::Dispatching, RunStatus::Running, reason).await
            }
            CommandOutcome::Rejected { reason } => {
                self.end_attempt(attempt.id, Refused).await?;
                if !(current && dispatching) {
                    return Ok(());
                }
                if attempt.kind == AttemptKind::Handoff {
                    self.close_handed_off(run.id, Ended).await?;
                    let reason = format!("the handoff target refused the run: {reason}");
                    self.set_status(run.id, RunStatus::Blocked, Some(reason)).await?;
                } else {
                    // A refusal may pass (a full spool, a previous attempt still stopping): retry while attempts remain.
                    let reason = format!("the connector refused attempt {}: {reason}", attempt.number);
                    self.attempt_failed(run.id, reason, AttemptFailure::Refused).await?;
                }
                Ok(())
            }
        }
    }

    /// A heartbeat: renews the leases of the connector's open attempts, and stops runs it still
    /// runs that the control plane no longer gives it (ended, interrupted, handed elsewhere).
    pub async fn connector_heartbeat(&self, connector_id: Uuid, active_runs: &[Uuid]) -> Result<()> {
        run_attempt::Entity::update_many()
            .col_expr(run_attempt::Column::LeaseExpiresAt, Expr::value(Utc::now() + self.policy.lease))
            .filter(run_attempt::Column::ConnectorId.eq(connector_id))
            .filter(run_attempt::Column::EndedAt.is_null())
            .exec(&self.db)
            .await?;
        for run_id in active_runs {
            let open = self
                .reads
                .one(
                    run_attempt::Entity::find()
                        .filter(run_attempt::Column::RunId.eq(*run_id))
                        .filter(run_attempt::Column::ConnectorId.eq(connector_id))
                        .filter(run_attempt::Column::EndedAt.is_null()),
                )
                .await?;
            if open.is_none() {
                tracing::warn!(%run_id, "the connector runs a run it no longer owns; stopping it");
                self.send_cancel(connector_id, *run_id, None, CancelMode::Immediate);
            }
        }
        Ok(())
    }

    /// A connector came back (a new connection, its first heartbeat): `reported` are the runs it
    /// says it still has (`hello`'s resume cursors and this heartbeat's active runs). Its attempts
    /// accepted before `connected_at` of any other run are gone with the host's state (a restart
    /// that wiped it, say): they go to the retry policy now rather than when their lease lapses.
    /// Attempts whose start is not answered yet are left to the resend of [`Self::connector_online`].
    pub async fn connector_returned(
        &self,
        connector_id: Uuid,
        reported: &HashSet<Uuid>,
        connected_at: DateTime<Utc>,
    ) -> Result<()> {
        let accepted = self
            .reads
            .all(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::ConnectorId.eq(connector_id))
                    .filter(run_attempt::Column::EndedAt.is_null())
                    .filter(run_attempt::Column::Status.is_in([Running, HandingOff]))
                    .filter(run_attempt::Column::UpdatedAt.lt(connected_at)),
            )
            .await?;
        for attempt in accepted.into_iter().filter(|a| !reported.contains(&a.run_id)) {
            let reason = format!("attempt {} was gone when its connector came back", attempt.number);
            self.attempt_gone(attempt.run_id, attempt.id, Lost, reason).await?;
        }
        Ok(())
    }

    /// A connector (re)connected: resend what its previous connection, or a previous control
    /// plane, may have lost, and dispatch the blocked runs its agents can take. Attempts created
    /// after `connected_at` sent everything through this connection already, so they are left
    /// alone (a start sent twice in a row would reach a connector that just accepted it).
    pub async fn connector_online(&self, connector_id: Uuid, connected_at: DateTime<Utc>) -> Result<()> {
        let open = self
            .reads
            .all(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::ConnectorId.eq(connector_id))
                    .filter(run_attempt::Column::EndedAt.is_null())
                    .filter(run_attempt::Column::CreatedAt.lt(connected_at)),
            )
            .await?;
        for attempt in &open {
            self.resend(attempt).await?;
        }
        let agents = self.reads.all(agent::Entity::find().filter(agent::Column::ConnectorId.eq(connector_id))).await?;
        let Some(workspace_id) = agents.first().map(|a| a.workspace_id) else { return Ok(()) };
        let projects: Vec<Uuid> = self
            .reads
            .all(project::Entity::find().filter(project::Column::WorkspaceId.eq(workspace_id)))
            .await?
            .into_iter()
            .map(|p| p.id)
            .collect();
        let blocked = self
            .reads
            .all(
                task_run::Entity::find()
                    .filter(task_run::Column::ProjectId.is_in(projects))
                    .filter(task_run::Column::Status.eq(RunStatus::Blocked.as_str()))
                    .order_by_asc(task_run::Column::Id),
            )
            .await?;
        for run in blocked {
            let wanted = run.handoff_target_id.or(run.requested_agent_id);
            let required = required_capabilities(&run);
            let Some(agent) = agents.iter().find(|a| wanted.is_none_or(|w| w == a.id) && require(a, &required).is_ok())
            else {
                continue;
            };
            let reason = format!("agent {} came online", agent.name);
            let resumed = async {
                self.set_status(run.id, RunStatus::HandoffReady, Some(reason)).await?;
                self.set_status(run.id, RunStatus::Dispatching, None).await?;
                self.dispatch(run.id).await
            };
            if let Err(e) = resumed.await {
                tracing::warn!(run_id = %run.id, error = %e, "could not dispatch a blocked run");
            }
        }
        Ok(())
    }

    /// Sends an open attempt's connector again every command of it that may not have arrived or
    /// been answered, under the same command ids, so a connector that has one already answers
    /// again without doing it twice: an unanswered start, approval decisions, and what the run's
    /// status still waits for (a cancel, a handoff source's stop, a checkpoint).
    async fn resend(&self, attempt: &run_attempt::Model) -> Result<()> {
        let run = self.load(attempt.run_id).await?;
        if attempt.status == Dispatched {
            self.send_attempt(&run, attempt).await?;
        }
        self.resend_decisions(attempt).await?;
        let status = RunStatus::from_stored(&run.status);
        let working =
            attempt.status == Running && self.current_attempt(run.id).await?.is_some_and(|c| c.id == attempt.id);
        let to_stop = (status == RunStatus::Cancelling && working)
            || (status == RunStatus::HandoffReady && attempt.status == HandingOff);
        if to_stop {
            self.send_cancel(attempt.connector_id, run.id, Some(attempt.id), CancelMode::Graceful);
        } else if status == RunStatus::Checkpointing && working {
            self.send_checkpoint(attempt).await?;
        }
        Ok(())
    }

    /// Runs the sweeper until the process ends.
    pub fn spawn_sweeper(&self) -> tokio::task::JoinHandle<()> {
        let service = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(service.policy.sweep_interval());
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(e) = service.sweep().await {
                    tracing::warn!(error = %e, "run sweep failed; trying again at the next tick");
                }
            }
        })
    }

    /// One pass over what time decides: lapsed leases, due retries, overdue cancels and handoffs,
    /// expired approvals.
    pub async fn sweep(&self) -> Result<()> {
        self.lapse_leases().await?;
        self.retry_due().await?;
        self.finish_overdue().await?;
        self.expire_approvals().await
    }

    /// Fails the attempts whose connector stopped renewing their lease.
    async fn lapse_leases(&self) -> Result<()> {
        let lapsed = self
            .reads
            .all(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::EndedAt.is_null())
                    .filter(run_attempt::Column::LeaseExpiresAt.lt(Utc::now())),
            )
            .await?;
        for attempt in lapsed {
            let reason = format!(
                "attempt {} lost its connector: no heartbeat for {} ms",
                attempt.number,
                self.policy.lease.as_millis()
            );
            self.attempt_gone(attempt.run_id, attempt.id, Lapsed, reason).await?;
        }
        Ok(())
    }

    /// Dispatches the runs waiting for a retry whose backoff has passed.
    async fn retry_due(&self) -> Result<()> {
        let waiting = self
            .reads
            .all(task_run::Entity::find().filter(task_run::Column::Status.eq(RunStatus::Dispatching.as_str())))
            .await?;
        let now = Utc::now();
        for run in waiting {
            let due = match self.current_attempt(run.id).await? {
                None => true,
                Some(last) => last.ended_at.is_some_and(|ended| {
                    let backoff = self.policy.retry_backoff.saturating_mul(1 << (last.number - 1).clamp(0, 16) as u32);
                    ended + backoff.min(MAX_RETRY_BACKOFF) <= now
                }),
            };
            if due {
                self.dispatch(run.id).await?;
            }
        }
        Ok(())
    }

    /// Cancels runs the connector did not confirm in time, and hands off runs whose source agent
    /// did not stop in time.
    async fn finish_overdue(&self) -> Result<()> {
        let deadline = Utc::now() - self.policy.cancel_timeout;
        let overdue = self
            .reads
            .all(
                task_run::Entity::find()
                    .filter(
                        task_run::Column::Status
                            .is_in([RunStatus::Cancelling.as_str(), RunStatus::HandoffReady.as_str()]),
                    )
                    .filter(task_run::Column::UpdatedAt.lt(deadline)),
            )
            .await?;
        for run in overdue {
            if RunStatus::from_stored(&run.status) == RunStatus::Cancelling {
                let reason = Some("forced: the connector did not confirm in time".to_owned());
                self.set_status_if(run.id, RunStatus::Cancelling, RunStatus::Cancelled, reason).await?;
            } else {
                let reason = Some("the source agent did not stop in time; handing off anyway".to_owned());
                self.set_status_if(run.id, RunStatus::HandoffReady, RunStatus::Dispatching, reason).await?;
                self.dispatch(run.id).await?;
            }
        }
        Ok(())
    }
}
