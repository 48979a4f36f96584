//! Events from connectors: each stored once, in the connector's order, under the run's gap-free
//! sequence, and acknowledged only up to the highest connector sequence stored without a gap;
//! never after the run's terminal status; and what they cause: a result ends the attempt, an
//! approval request pauses the run, a checkpoint is kept.

use std::collections::{BTreeMap, HashMap};

use acc_entity::approval::ApprovalStatus;
use acc_entity::run_attempt::AttemptStatus::*;
use acc_entity::run_event::RunEventKind;
use acc_entity::{run_attempt, run_event, task_run};
use acc_protocol::{Envelope, EventKind, Frame, OUTCOME_LOST, RunCursor};
use chrono::{DateTime, Utc};
use sea_orm::sea_query::{
    Expr, ExprTrait, IntoIden, JoinType, LockType, Order, Query, SelectStatement, TableRef, ValueTuple,
};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
};
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;
use uuid::Uuid;

use super::state::RunStatus;
use super::{Result, RunError, RunService, stored_kind};
use crate::broker::{Event, Topic};
use crate::db::Pool;
use crate::error::{CommonError, is_unique_violation};
use crate::ids::new_id;

/// An event frame from a connector, read once at the gateway.
#[derive(Debug, Clone)]
pub struct ConnectorEvent {
    pub run_id: Uuid,
    pub event_id: Uuid,
    /// The connector's own gap-free sequence of the run's events.
    pub sequence: u64,
    pub kind: EventKind,
    pub data: serde_json::Value,
    pub occurred_at: DateTime<Utc>,
}

impl ConnectorEvent {
    /// Reads an event frame's envelope; `None` when the frame is not an event.
    pub fn read(envelope: &Envelope) -> Option<Result<Self>> {
        let Frame::Event { kind, data } = &envelope.payload else { return None };
        let (Some(run_id), Some(event_id), Some(sequence)) = (envelope.run_id, envelope.event_id, envelope.sequence)
        else {
            return Some(Err(CommonError::validation("an event needs run_id, event_id and sequence").into()));
        };
        if i64::try_from(sequence).is_err() {
            return Some(Err(CommonError::validation("sequence out of range").into()));
        }
        let event = ConnectorEvent {
            run_id,
            event_id,
            sequence,
            kind: *kind,
            data: data.clone(),
            occurred_at: envelope.occurred_at,
        };
        Some(Ok(event))
    }
}

/// What became of a batch of events from one connector.
#[derive(Debug, Default)]
pub struct Ingested {
    /// Per run: the connector sequence to acknowledge, everything up to it being stored.
    pub acks: Vec<(Uuid, u64)>,
    /// The events not stored, by their place in the batch, and why.
    pub refused: Vec<(usize, RunError)>,
}

/// One run's share of a batch, as its transaction left it.
struct RunShare {
    run_id: Uuid,
    /// Stored now, in order.
    stored: Vec<run_event::Model>,
    /// The batch's events at or below what was stored (by place in the batch), to be looked up.
    sent_again: Vec<usize>,
    /// Sent again and found stored: what they caused is done again.
    resent: Vec<run_event::Model>,
    ack: Option<u64>,
    /// The connector sequence expected next.
    next: u64,
}

/// A connector's batch as its transaction left it: each run's share (in run id order) and the
/// events refused.
struct Stored {
    shares: Vec<RunShare>,
    refused: Vec<(usize, RunError)>,
}

/// The most runs whose resume cursors one statement reads.
const RESUME_PAIRS_PER_STATEMENT: usize = 500;

/// The most events committed together by the SQLite writer.
const MAX_EVENTS_PER_COMMIT: usize = 1024;

/// Where batches of events are stored. PostgreSQL takes writers side by side, so each batch is
/// its caller's own transaction. SQLite has one writer at a time, so one task stores every
/// batch: it commits all the batches waiting for it together, one commit (one fsync) for many
/// connectors.
#[derive(Clone)]
pub(super) enum EventWriter {
    Direct(Pool),
    Queued(mpsc::Sender<WriteRequest>),
}

pub(super) struct WriteRequest {
    connector_id: Uuid,
    events: Vec<ConnectorEvent>,
    stored: oneshot::Sender<Result<Stored, String>>,
}

impl EventWriter {
    /// Needs a tokio runtime on SQLite, where it starts the writer task; the task ends when the
    /// last `EventWriter` is dropped.
    pub(super) fn new(db: Pool) -> Self {
        match db.get_database_backend() {
            DbBackend::Sqlite => {
                let (queue, requests) = mpsc::channel(256);
                crate::event_path::spawn(write_queued(db, requests).in_current_span());
                EventWriter::Queued(queue)
            }
            _ => EventWriter::Direct(db),
        }
    }

    async fn store(&self, connector_id: Uuid, events: Vec<ConnectorEvent>) -> Result<Stored> {
        match self {
            EventWriter::Direct(db) => {
                let mut stored = store_batches(db, &[(connector_id, &events)]).await?;
                Ok(stored.pop().unwrap_or(Stored { shares: Vec::new(), refused: Vec::new() }))
            }
            EventWriter::Queued(queue) => {
                let (reply, answer) = oneshot::channel();
                let gone = || CommonError::Internal("the event writer stopped".into());
                queue.send(WriteRequest { connector_id, events, stored: reply }).await.map_err(|_| gone())?;
                answer.await.map_err(|_| gone())?.map_err(|e| CommonError::Internal(e).into())
            }
        }
    }
}

/// SQLite's writer: takes every batch waiting, stores them in one transaction, answers each.
async fn write_queued(db: Pool, mut requests: mpsc::Receiver<WriteRequest>) {
    while let Some(first) = requests.recv().await {
        let mut count = first.events.len();
        let mut waiting = vec![first];
        while count < MAX_EVENTS_PER_COMMIT {
            let Ok(next) = requests.try_recv() else { break };
            count += next.events.len();
            waiting.push(next);
        }
        let batches: Vec<(Uuid, &[ConnectorEvent])> =
            waiting.iter().map(|r| (r.connector_id, r.events.as_slice())).collect();
        match store_batches(&db, &batches).await {
            Ok(stored) => {
                for (request, stored) in waiting.into_iter().zip(stored) {
                    let _ = request.stored.send(Ok(stored));
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "storing run events failed");
                for request in waiting {
                    let _ = request.stored.send(Err(e.to_string()));
                }
            }
        }
        // The sockets just answered run before the next commit starts (they share this thread), so
        // the frames that reached them during this commit go into the next one rather than the one
        // after it.
        tokio::task::yield_now().await;
    }
}

/// Stores connectors' batches of events in one transaction (group commit).
async fn store_batches(db: &Pool, batches: &[(Uuid, &[ConnectorEvent])]) -> Result<Vec<Stored>, sea_orm::DbErr> {
    let mut tries = 0;
    loop {
        tries += 1;
        let txn = db.begin_write().await?;
        match store_in(&txn, batches).await {
            Ok(stored) => {
                txn.commit().await?;
                return Ok(stored);
            }
            // A run's sequence taken by a writer that did not lock the run: try again.
            Err(e) if is_unique_violation(&e) && tries < 5 => txn.rollback().await?,
            Err(e) => return Err(e),
        }
    }
}

/// Stores every batch of the group with two statements whatever its size: one read of where
/// each (run, connector) pair stands, locking the runs, and one insert of every fresh event.
/// Only resent events cost more: a look-up per run share that has them.
async fn store_in(
    txn: &DatabaseTransaction,
    batches: &[(Uuid, &[ConnectorEvent])],
) -> Result<Vec<Stored>, sea_orm::DbErr> {
    // Each batch's events by run, in run id order.
    let by_run: Vec<BTreeMap<Uuid, Vec<usize>>> = batches
        .iter()
        .map(|(_, events)| {
            let mut runs: BTreeMap<Uuid, Vec<usize>> = BTreeMap::new();
            for (index, event) in events.iter().enumerate() {
                runs.entry(event.run_id).or_default().push(index);
            }
            runs
        })
        .collect();
    let pairs =
        batches.iter().zip(&by_run).flat_map(|((connector_id, _), runs)| runs.keys().map(|r| (*r, *connector_id)));
    let mut positions = positions(txn, pairs.collect(), true).await?;
    // The run's last sequence as this transaction leaves it, for shares of one run from two connectors.
    let mut last_sequences: HashMap<Uuid, i64> = HashMap::new();
    let mut all = Vec::with_capacity(batches.len());
    for ((connector_id, events), runs) in batches.iter().zip(&by_run) {
        let mut stored = Stored { shares: Vec::with_capacity(runs.len()), refused: Vec::new() };
        for (run_id, indices) in runs {
            // Two batches of one connector (an old connection's and its successor's) read on
            // from where the first left the pair.
            let position = positions.get_mut(&(*run_id, *connector_id));
            let last = last_sequences
                .entry(*run_id)
                .or_insert_with(|| position.as_ref().and_then(|p| p.last_sequence).unwrap_or(0));
            let share = take_run_share(*connector_id, *run_id, position, indices, events, last, &mut stored.refused);
            stored.shares.push(share);
        }
        all.push(stored);
    }
    let rows: Vec<run_event::ActiveModel> = all
        .iter()
        .flat_map(|s| &s.shares)
        .flat_map(|share| share.stored.iter().cloned().map(run_event::ActiveModel::from))
        .collect();
    if !rows.is_empty() {
        run_event::Entity::insert_many(rows).exec_without_returning(txn).await?;
    }
    for ((connector_id, events), Stored { shares, refused }) in batches.iter().zip(&mut all) {
        for share in shares.iter_mut().filter(|share| !share.sent_again.is_empty()) {
            look_up_resent(txn, *connector_id, share, events, refused).await?;
        }
    }
    Ok(all)
}

/// Where a run stands for a connector's events.
#[derive(FromQueryResult)]
struct RunPosition {
    run_id: Uuid,
    connector_id: Uuid,
    status: String,
    /// The run's latest attempt on the connector: the one its events from there belong to.
    attempt_id: Option<Uuid>,
    /// The highest connector sequence stored from the connector (none yet: `None`).
    stored_up_to: Option<i64>,
    /// The run's last event sequence (none yet: `None`).
    last_sequence: Option<i64>,
}

/// Where each (run, connector) pair stands, in one statement: the runs' rows joined to the pairs,
/// with the rest as subqueries. A pair whose run does not exist has no entry. `lock` locks the
/// runs' rows (in id order, so two writers never wait on each other in a circle), so no terminal
/// status can commit between this read and the insert.
async fn positions(
    db: &impl ConnectionTrait,
    pairs: Vec<(Uuid, Uuid)>,
    lock: bool,
) -> Result<HashMap<(Uuid, Uuid), RunPosition>, sea_orm::DbErr> {
    if pairs.is_empty() {
        return Ok(HashMap::new());
    }
    // A VALUES list's columns are named column1, column2… on both databases.
    let pair = |column: &'static str| Expr::col(("pair", column));
    let subquery = |select: SelectStatement| Expr::SubQuery(None, Box::new(select.into()));
    let attempt = Query::select()
        .column(run_attempt::Column::Id)
        .from(run_attempt::Entity)
        .and_where(Expr::col((run_attempt::Entity, run_attempt::Column::RunId)).eq(pair("column1")))
        .and_where(Expr::col((run_attempt::Entity, run_attempt::Column::ConnectorId)).eq(pair("column2")))
        .order_by(run_attempt::Column::Number, Order::Desc)
        .limit(1)
        .to_owned();
    let stored_up_to = Query::select()
        .expr(Expr::col((run_event::Entity, run_event::Column::ConnectorSequence)).max())
        .from(run_event::Entity)
        .and_where(Expr::col((run_event::Entity, run_event::Column::RunId)).eq(pair("column1")))
        .and_where(Expr::col((run_event::Entity, run_event::Column::ConnectorId)).eq(pair("column2")))
        .to_owned();
    let last_sequence = Query::select()
        .expr(Expr::col((run_event::Entity, run_event::Column::Sequence)).max())
        .from(run_event::Entity)
        .and_where(Expr::col((run_event::Entity, run_event::Column::RunId)).eq(pair("column1")))
        .to_owned();
    let values = pairs.into_iter().map(|(run, connector)| ValueTuple::Two(run.into(), connector.into())).collect();
    let mut select = Query::select()
        .expr_as(Expr::col((task_run::Entity, task_run::Column::Id)), "run_id")
        .expr_as(pair("column2"), "connector_id")
        .column((task_run::Entity, task_run::Column::Status))
        .expr_as(subquery(attempt), "attempt_id")
        .expr_as(subquery(stored_up_to), "stored_up_to")
        .expr_as(subquery(last_sequence), "last_sequence")
        .from(task_run::Entity)
        .join(
            JoinType::InnerJoin,
            TableRef::ValuesList(values, "pair".into_iden()),
            Expr::col((task_run::Entity, task_run::Column::Id)).equals(("pair", "column1")),
        )
        .order_by((task_run::Entity, task_run::Column::Id), Order::Asc)
        .to_owned();
    if lock {
        select.lock_with_tables(LockType::Update, [task_run::Entity]);
    }
    let statement = db.get_database_backend().build(&select);
    let positions = RunPosition::find_by_statement(statement).all(db).await?;
    Ok(positions.into_iter().map(|p| ((p.run_id, p.connector_id), p)).collect())
}

/// One run's events of a batch, given where the run stands and its last sequence as the
/// transaction leaves it (`last`, moved past what is stored here). Per event in the connector's
/// order: one already stored (a lower connector sequence) is a resend, kept to be looked up;
/// one that skips a connector sequence not yet stored is refused (`OutOfOrder`), so acknowledging
/// a sequence always means everything before it is stored too; one for a run that has ended is
/// refused (`RunEnded`), so nothing is ever stored after a terminal status.
fn take_run_share(
    connector_id: Uuid,
    run_id: Uuid,
    position: Option<&mut RunPosition>,
    indices: &[usize],
    events: &[ConnectorEvent],
    last: &mut i64,
    refused: &mut Vec<(usize, RunError)>,
) -> RunShare {
    let mut share =
        RunShare { run_id, stored: Vec::new(), sent_again: Vec::new(), resent: Vec::new(), ack: None, next: 1 };
    let Some((position, attempt_id)) = position.and_then(|p| p.attempt_id.map(|attempt| (p, attempt))) else {
        refused.extend(indices.iter().map(|&i| (i, RunError::UnknownRun)));
        return share;
    };
    let status = RunStatus::from_stored(&position.status);
    let mut next = position.stored_up_to.unwrap_or(0) as u64 + 1;
    let now = Utc::now();
    for &index in indices {
        let event = &events[index];
        if event.sequence < next {
            share.sent_again.push(index);
        } else if event.sequence > next {
            refused.push((index, RunError::OutOfOrder { expected: next }));
        } else if status.is_terminal() {
            refused.push((index, RunError::RunEnded { status }));
        } else {
            *last += 1;
            share.stored.push(run_event::Model {
                id: new_id(),
                run_id,
                sequence: *last,
                attempt_id: Some(attempt_id),
                connector_id: Some(connector_id),
                event_id: Some(event.event_id),
                connector_sequence: Some(event.sequence as i64),
                kind: stored_kind(event.kind),
                data: event.data.clone(),
                occurred_at: event.occurred_at,
                created_at: now,
            });
            next += 1;
        }
    }
    share.next = next;
    position.stored_up_to = Some(next as i64 - 1);
    share.ack = (!share.stored.is_empty()).then_some(next - 1);
    share
}

/// Looks up a share's resent events, after the insert: the same event stored before (or earlier
/// in this batch) is acknowledged again, a different one sent under a sequence already taken is
/// refused.
async fn look_up_resent(
    txn: &DatabaseTransaction,
    connector_id: Uuid,
    share: &mut RunShare,
    events: &[ConnectorEvent],
    refused: &mut Vec<(usize, RunError)>,
) -> Result<(), sea_orm::DbErr> {
    let ids: Vec<Uuid> = share.sent_again.iter().map(|&i| events[i].event_id).collect();
    let mut found = run_event::Entity::find()
        .filter(run_event::Column::ConnectorId.eq(connector_id))
        .filter(run_event::Column::EventId.is_in(ids))
        .order_by_asc(run_event::Column::Sequence)
        .all(txn)
        .await?;
    for &index in &share.sent_again {
        if !found.iter().any(|e| e.event_id == Some(events[index].event_id)) {
            refused.push((index, RunError::OutOfOrder { expected: share.next }));
        }
    }
    // Stored in this very batch: its effects run once, with the rest of the batch.
    found.retain(|e| !share.stored.iter().any(|s| s.id == e.id));
    share.resent = found;
    if !share.resent.is_empty() {
        share.ack = Some(share.next - 1);
    }
    Ok(())
}

impl RunService {
    /// Stores a batch of a connector's events by group commit and says what to acknowledge;
    /// then announces what was stored and does what it causes.
    pub async fn ingest(&self, connector_id: Uuid, events: Vec<ConnectorEvent>) -> Result<Ingested> {
        let Stored { shares, refused } = self.events.store(connector_id, events).await?;
        let mut acks = Vec::with_capacity(shares.len());
        for share in shares {
            for event in &share.stored {
                self.broker.publish(Topic::RunEvents(share.run_id), Event::RunEvent(event.clone()));
            }
            // A resend: what it caused may have been cut short, and doing it again is harmless.
            for event in share.resent.iter().chain(&share.stored) {
                self.effects(event).await?;
            }
            acks.extend(share.ack.map(|up_to| (share.run_id, up_to)));
        }
        Ok(Ingested { acks, refused })
    }

    /// What a stored event causes. Each effect is idempotent: a resent event runs it again.
    async fn effects(&self, event: &run_event::Model) -> Result<()> {
        let Some(attempt_id) = event.attempt_id else { return Ok(()) };
        match event.kind {
            RunEventKind::Result => self.finish(event.run_id, attempt_id, &event.data).await,
            RunEventKind::ApprovalRequested => self.approval_requested(event, attempt_id).await,
            RunEventKind::Checkpoint => self.checkpoint_taken(event, attempt_id).await,
            RunEventKind::Usage => self.usage_reported(event, attempt_id).await,
            _ => Ok(()),
        }
    }

    /// Keeps a usage report for the sums by scope, agent, user and model, and the budgets.
    async fn usage_reported(&self, event: &run_event::Model, attempt_id: Uuid) -> Result<()> {
        let run = self.load(event.run_id).await?;
        let project = self.reader.project_of(&run).await?;
        let attempt = self.reads.one(run_attempt::Entity::find_by_id(attempt_id)).await?;
        let agent_id = attempt.map(|a| a.agent_id);
        Ok(self.usage.record(&run, project.workspace_id, agent_id, event).await?)
    }

    /// An attempt reported its end. The run's working attempt ends the run (or, during a
    /// handoff, lets the target take over); any other attempt just closes.
    async fn finish(&self, run_id: Uuid, attempt_id: Uuid, data: &serde_json::Value) -> Result<()> {
        let run = self.load(run_id).await?;
        let status = RunStatus::from_stored(&run.status);
        let current = self.current_attempt(run_id).await?.is_some_and(|c| c.id == attempt_id);
        if !current || matches!(status, RunStatus::Queued | RunStatus::Blocked) || status.is_terminal() {
            self.end_attempt(attempt_id, Ended).await?;
            return Ok(());
        }
        if status == RunStatus::HandoffReady {
            // The source agent stopped after its handoff checkpoint; its lease holds until the target takes over.
            self.mark_attempt(attempt_id, Stopped).await?;
            let reason = Some("the source agent stopped; handing off".to_owned());
            self.set_status(run_id, RunStatus::Dispatching, reason).await?;
            return self.dispatch(run_id).await;
        }
        let outcome = data.get("outcome").and_then(|o| o.as_str()).unwrap_or("failed");
        if outcome == OUTCOME_LOST && status != RunStatus::Cancelling {
            // The host lost the run, not the agent: retried per policy, as after a lapsed lease.
            let reason = outcome_reason(data).unwrap_or_else(|| "the connector lost the run".to_owned());
            return self.attempt_gone(run_id, attempt_id, Lost, reason).await;
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
                self.close_pending_approvals(run_id, ApprovalStatus::Cancelled, "the run ended").await?;
                self.set_handoff_target(run_id, None).await?;
                self.set_status(run_id, RunStatus::Running, Some("the agent ended the run".into())).await?;
            }
            _ => {}
        }
        // The terminal step closes the attempt with the run.
        self.set_status(run_id, to, outcome_reason(data)).await.map(drop)
    }

    /// The answer to `hello.resume`: per run, the highest connector sequence stored, so the
    /// connector resends only what comes after. A run that has ended, or that the control plane
    /// no longer has (its task was deleted), is answered with the largest sequence: nothing of it
    /// can be stored any more.
    pub async fn resume_cursors(&self, connector_id: Uuid, asked: &[RunCursor]) -> Result<Vec<RunCursor>> {
        // A statement per few hundred runs: a hello may name more than a statement can bind.
        let mut positions = HashMap::with_capacity(asked.len());
        for chunk in asked.chunks(RESUME_PAIRS_PER_STATEMENT) {
            let pairs = chunk.iter().map(|c| (c.run_id, connector_id)).collect();
            positions.extend(self::positions(&self.db, pairs, false).await?);
        }
        let mut cursors = Vec::with_capacity(asked.len());
        for cursor in asked {
            let run_id = cursor.run_id;
            let acked_sequence = match positions.get(&(run_id, connector_id)) {
                None => u64::MAX,
                // Never on this connector: nothing to say about it.
                Some(RunPosition { attempt_id: None, .. }) => continue,
                Some(p) if RunStatus::from_stored(&p.status).is_terminal() => u64::MAX,
                Some(p) => p.stored_up_to.unwrap_or(0) as u64,
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
