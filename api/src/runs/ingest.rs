//! Events from connectors: each stored once, in the connector's order, under the run's gap-free
//! sequence, and acknowledged only up to the highest connector sequence stored without a gap;
//! never after the run's terminal status; and what they cause: a result ends the attempt, an
//! approval request pauses the run, a checkpoint is kept.

use acc_entity::{run_attempt, run_event, task_run};
use acc_protocol::{Envelope, EventKind, OUTCOME_LOST, RunCursor};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use uuid::Uuid;

use super::attempt_status::*;
use super::state::RunStatus;
use super::{Result, RunError, RunService, approvals, insert_next, kind_name, lock_run, new_event};
use crate::broker::{Event, Topic};
use crate::error::{CommonError, is_unique_violation};

/// The highest connector sequence of a run's events stored from a connector (0: none).
async fn stored_up_to(db: &impl ConnectionTrait, run_id: Uuid, connector_id: Uuid) -> Result<i64> {
    Ok(run_event::Entity::find()
        .filter(run_event::Column::RunId.eq(run_id))
        .filter(run_event::Column::ConnectorId.eq(connector_id))
        .filter(run_event::Column::ConnectorSequence.is_not_null())
        .order_by_desc(run_event::Column::ConnectorSequence)
        .one(db)
        .await?
        .and_then(|e| e.connector_sequence)
        .unwrap_or(0))
}

impl RunService {
    /// The run's latest attempt on a connector: the one its events from there belong to.
    async fn latest_attempt_on(&self, run_id: Uuid, connector_id: Uuid) -> Result<Option<run_attempt::Model>> {
        Ok(run_attempt::Entity::find()
            .filter(run_attempt::Column::RunId.eq(run_id))
            .filter(run_attempt::Column::ConnectorId.eq(connector_id))
            .order_by_desc(run_attempt::Column::Number)
            .one(&self.db)
            .await?)
    }

    /// Stores one event from a connector and returns the connector sequence to acknowledge.
    /// A duplicate (same connector and event id) is acknowledged again and stored once; an event
    /// that skips a connector sequence not yet stored is refused, so acknowledging a sequence
    /// always means everything before it is stored too; an event for a run that has ended is
    /// refused (`RunEnded`), so nothing is ever stored after a terminal status.
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
        let sequence = i64::try_from(sequence).map_err(|_| CommonError::validation("sequence out of range"))?;
        let attempt = self.latest_attempt_on(run_id, connector_id).await?.ok_or(RunError::UnknownRun)?;
        let find_stored = || {
            run_event::Entity::find()
                .filter(run_event::Column::ConnectorId.eq(connector_id))
                .filter(run_event::Column::EventId.eq(event_id))
                .one(&self.db)
        };
        if let Some(stored) = find_stored().await? {
            // A resend: what it caused may have been cut short, and doing it again is harmless.
            self.effects(&stored).await?;
            return Ok(stored_up_to(&self.db, run_id, connector_id).await? as u64);
        }
        let mut tries = 0;
        let stored = loop {
            tries += 1;
            let txn = crate::db::begin_write(&self.db).await?;
            // Locked, so no terminal status can commit between this check and the insert.
            let status = lock_run(&txn, run_id).await?;
            if status.is_terminal() {
                txn.rollback().await?;
                return Err(RunError::RunEnded { status });
            }
            let expected = stored_up_to(&txn, run_id, connector_id).await? + 1;
            if sequence != expected {
                txn.rollback().await?;
                return Err(RunError::OutOfOrder { expected: expected as u64 });
            }
            let mut row = new_event(run_id, kind_name(kind), data.clone());
            row.attempt_id = Set(Some(attempt.id));
            row.connector_id = Set(Some(connector_id));
            row.event_id = Set(Some(event_id));
            row.connector_sequence = Set(Some(sequence));
            row.occurred_at = Set(envelope.occurred_at);
            match insert_next(&txn, run_id, row).await {
                Ok(event) => {
                    txn.commit().await?;
                    break event;
                }
                Err(e) if is_unique_violation(&e) && tries < 5 => {
                    txn.rollback().await?;
                    // The same event may have won a race with itself (a resend): then it is stored.
                    if find_stored().await?.is_some() {
                        return Ok(sequence as u64);
                    }
                }
                Err(e) => return Err(e.into()),
            }
        };
        self.broker.publish(Topic::RunEvents(run_id), Event::RunEvent(stored.clone()));
        self.effects(&stored).await?;
        Ok(sequence as u64)
    }

    /// What a stored event causes. Each effect is idempotent: a resent event runs it again.
    async fn effects(&self, event: &run_event::Model) -> Result<()> {
        let Some(attempt_id) = event.attempt_id else { return Ok(()) };
        match event.kind.as_str() {
            "result" => self.finish(event.run_id, attempt_id, &event.data).await,
            "approval_requested" => self.approval_requested(event, attempt_id).await,
            "checkpoint" => self.checkpoint_taken(event, attempt_id).await,
            _ => Ok(()),
        }
    }

    /// An attempt reported its end. The run's working attempt ends the run (or, during a
    /// handoff, lets the target take over); any other attempt just closes.
    async fn finish(&self, run_id: Uuid, attempt_id: Uuid, data: &serde_json::Value) -> Result<()> {
        let run = self.load(run_id).await?;
        let status = RunStatus::from_stored(&run.status);
        let current = self.current_attempt(run_id).await?.is_some_and(|c| c.id == attempt_id);
        if !current || matches!(status, RunStatus::Queued | RunStatus::Blocked) || status.is_terminal() {
            self.end_attempt(attempt_id, ENDED).await?;
            return Ok(());
        }
        if status == RunStatus::HandoffReady {
            // The source agent stopped after its handoff checkpoint; its lease holds until the target takes over.
            self.mark_attempt(attempt_id, STOPPED).await?;
            let reason = Some("the source agent stopped; handing off".to_owned());
            self.set_status(run_id, RunStatus::Dispatching, reason).await?;
            return self.dispatch(run_id).await;
        }
        let outcome = data.get("outcome").and_then(|o| o.as_str()).unwrap_or("failed");
        if outcome == OUTCOME_LOST && status != RunStatus::Cancelling {
            // The host lost the run, not the agent: retried per policy, as after a lapsed lease.
            let reason = outcome_reason(data).unwrap_or_else(|| "the connector lost the run".to_owned());
            return self.attempt_gone(run_id, attempt_id, LOST, reason).await;
        }
        let to = match (status, outcome) {
            (RunStatus::Cancelling, _) => RunStatus::Cancelled,
            (_, "succeeded") => RunStatus::Succeeded,
            _ => RunStatus::Failed,
        };
        match status {
            RunStatus::Dispatching => {
                // The result overtook the start acknowledgement.
                self.set_status(run_id, RunStatus::Running, None).await?;
            }
            RunStatus::WaitingApproval | RunStatus::Checkpointing => {
                self.close_pending_approvals(run_id, approvals::CANCELLED, "the run ended").await?;
                self.set_handoff_target(run_id, None).await?;
                self.set_status(run_id, RunStatus::Running, Some("the agent ended the run".into())).await?;
            }
            _ => {}
        }
        self.set_status(run_id, to, outcome_reason(data)).await?;
        self.end_attempt(attempt_id, ENDED).await?;
        Ok(())
    }

    /// The answer to `hello.resume`: per run, the highest connector sequence stored, so the
    /// connector resends only what comes after. A run that has ended, or that the control plane
    /// no longer has (its task was deleted), is answered with the largest sequence: nothing of it
    /// can be stored any more.
    pub async fn resume_cursors(&self, connector_id: Uuid, asked: &[RunCursor]) -> Result<Vec<RunCursor>> {
        let mut cursors = Vec::with_capacity(asked.len());
        for cursor in asked {
            let run_id = cursor.run_id;
            let run = task_run::Entity::find_by_id(run_id).one(&self.db).await?;
            let acked_sequence = match run {
                None => u64::MAX,
                // Never on this connector: nothing to say about it.
                Some(_) if self.latest_attempt_on(run_id, connector_id).await?.is_none() => continue,
                Some(run) if RunStatus::from_stored(&run.status).is_terminal() => u64::MAX,
                Some(_) => stored_up_to(&self.db, run_id, connector_id).await? as u64,
            };
            cursors.push(RunCursor { run_id, acked_sequence });
        }
        Ok(cursors)
    }
}

/// Why a run ended as it did, from its `result` data: the agent's error, else its exit.
fn outcome_reason(data: &serde_json::Value) -> Option<String> {
    if let Some(error) = data.get("error").and_then(|e| e.as_str()) {
        return Some(error.to_owned());
    }
    match (data.get("exit_code").and_then(|c| c.as_i64()), data.get("signal").and_then(|s| s.as_i64())) {
        (Some(code), _) => Some(format!("exit code {code}")),
        (None, Some(signal)) => Some(format!("killed by signal {signal}")),
        (None, None) => None,
    }
}
