//! GraphQL types and thin resolvers for runs: start, cancel, status, and events as a
//! connection and as a subscription that replays from a cursor and then goes live.

use std::collections::VecDeque;

use acc_entity::{run_event, task_run};
use async_graphql::connection::{Connection, Edge};
use async_graphql::{Context, Enum, ID, Json, Object, Subscription};
use chrono::{DateTime, Utc};
use futures_util::stream::BoxStream;
use futures_util::{Stream, StreamExt};
use uuid::Uuid;

use super::state::RunStatus as DomainStatus;
use super::{NewRun, STATUS_KIND};
use crate::broker::{Delivery, Event, Topic};
use crate::gateway::graphql::{Agent, Capability};
use crate::graphql::{ContextExt, gid, gql_error};
use crate::identity::graphql::decode;
use crate::ids::NodeKind;
use crate::projects::graphql::Task;

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::runs::state::RunStatus")]
pub enum RunStatus {
    Queued,
    Dispatching,
    Running,
    WaitingApproval,
    Checkpointing,
    HandoffReady,
    Blocked,
    Cancelling,
    Succeeded,
    Failed,
    Cancelled,
    Interrupted,
}

pub struct TaskRun(pub task_run::Model);

#[Object]
impl TaskRun {
    pub async fn id(&self) -> ID {
        gid(NodeKind::TaskRun, self.0.id)
    }
    async fn status(&self) -> RunStatus {
        DomainStatus::from_stored(&self.0.status).into()
    }
    /// Why the run is in its status (blocked, failed, interrupted…).
    async fn status_reason(&self) -> Option<&str> {
        self.0.status_reason.as_deref()
    }
    async fn input(&self) -> Json<serde_json::Value> {
        Json(self.0.input.clone())
    }
    async fn required_capabilities(&self) -> Vec<Capability> {
        serde_json::from_value::<Vec<acc_protocol::Capability>>(self.0.required_capabilities.clone())
            .unwrap_or_default()
            .into_iter()
            .map(Capability::from)
            .collect()
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.updated_at
    }
    async fn task(&self, ctx: &Context<'_>) -> async_graphql::Result<Task> {
        ctx.services().projects.task(ctx.actor()?, self.0.task_id).await.map(Task).map_err(gql_error)
    }
    async fn agent(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Agent>> {
        match self.0.agent_id {
            Some(id) => ctx.services().gateway.agent(ctx.actor()?, id).await.map(|a| Some(Agent(a))).map_err(gql_error),
            None => Ok(None),
        }
    }
}

/// One event of a run. `sequence` is gap-free per run and is the cursor to resume from.
pub struct RunEvent(pub run_event::Model);

#[Object]
impl RunEvent {
    async fn sequence(&self) -> i64 {
        self.0.sequence
    }
    /// `status` for the control plane's status changes; otherwise what the adapter reported
    /// (`started`, `output`, `message`, `tool_call`, `tool_result`, `result`…).
    async fn kind(&self) -> &str {
        &self.0.kind
    }
    async fn data(&self) -> Json<serde_json::Value> {
        Json(self.0.data.clone())
    }
    async fn occurred_at(&self) -> DateTime<Utc> {
        self.0.occurred_at
    }
    async fn run_id(&self) -> ID {
        gid(NodeKind::TaskRun, self.0.run_id)
    }
}

fn cursor(raw: Option<String>) -> async_graphql::Result<i64> {
    match raw {
        None => Ok(0),
        Some(raw) => raw.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
            gql_error(crate::error::CommonError::validation(format!("`{raw}` is not a run event cursor")))
        }),
    }
}

#[derive(Default)]
pub struct RunQuery;

#[Object]
impl RunQuery {
    /// The runs of a task, oldest first.
    async fn runs(&self, ctx: &Context<'_>, task_id: ID) -> async_graphql::Result<Vec<TaskRun>> {
        let task = decode(&task_id, NodeKind::Task)?;
        let rows = ctx.services().runs.runs_of_task(ctx.actor()?, task).await.map_err(gql_error)?;
        Ok(rows.into_iter().map(TaskRun).collect())
    }

    /// A run's events after the cursor `after` (a sequence number as text), oldest first.
    async fn run_events(
        &self,
        ctx: &Context<'_>,
        run_id: ID,
        after: Option<String>,
        first: Option<i32>,
    ) -> async_graphql::Result<Connection<String, RunEvent>> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        let after = cursor(after)?;
        let (rows, more) = ctx.services().runs.events(ctx.actor()?, run, after, first).await.map_err(gql_error)?;
        let mut connection = Connection::new(after > 0, more);
        connection.edges = rows.into_iter().map(|e| Edge::new(e.sequence.to_string(), RunEvent(e))).collect();
        Ok(connection)
    }
}

#[derive(Default)]
pub struct RunMutation;

#[Object]
impl RunMutation {
    /// Starts a run of a task on `agentId`, or on any online agent of the project's workspace
    /// that has `requiredCapabilities`; with none online the run is `BLOCKED`, with the reason.
    async fn start_run(
        &self,
        ctx: &Context<'_>,
        task_id: ID,
        agent_id: Option<ID>,
        #[graphql(default)] required_capabilities: Vec<Capability>,
        input: Option<Json<serde_json::Value>>,
        idempotency_key: Option<String>,
    ) -> async_graphql::Result<TaskRun> {
        let new = NewRun {
            task_id: decode(&task_id, NodeKind::Task)?,
            agent_id: agent_id.map(|id| decode(&id, NodeKind::Agent)).transpose()?,
            required_capabilities: required_capabilities.into_iter().map(Into::into).collect(),
            input: input.map_or(serde_json::json!({}), |j| j.0),
        };
        let key = ctx.idempotency_key(idempotency_key.as_deref());
        ctx.services().runs.start_run(ctx.actor()?, new, key).await.map(TaskRun).map_err(gql_error)
    }

    async fn cancel_run(&self, ctx: &Context<'_>, run_id: ID) -> async_graphql::Result<TaskRun> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        ctx.services().runs.cancel_run(ctx.actor()?, run).await.map(TaskRun).map_err(gql_error)
    }
}

/// Where a run-event subscription stands: live deliveries, what is left to replay, the cursor.
struct Replay {
    live: BoxStream<'static, Delivery>,
    backlog: VecDeque<run_event::Model>,
    cursor: i64,
    replay: bool,
    finished: bool,
    db: sea_orm::DatabaseConnection,
    run_id: Uuid,
}

const REPLAY_BATCH: u64 = 500;

impl Replay {
    /// The next event after the cursor: from the backlog, else the database (when replaying or
    /// after a gap or a lag), else live. Never a gap, never a duplicate.
    async fn next(mut self) -> Option<(RunEvent, Self)> {
        loop {
            if let Some(event) = self.backlog.pop_front() {
                if event.sequence <= self.cursor {
                    continue;
                }
                self.cursor = event.sequence;
                if event.kind == STATUS_KIND
                    && event
                        .data
                        .get("status")
                        .and_then(|s| s.as_str())
                        .is_some_and(|s| DomainStatus::from_stored(s).is_terminal())
                {
                    self.finished = true;
                }
                return Some((RunEvent(event), self));
            }
            if self.finished {
                return None;
            }
            if self.replay {
                let rows = super::events_after(&self.db, self.run_id, self.cursor, REPLAY_BATCH).await.ok()?;
                self.replay = rows.len() as u64 == REPLAY_BATCH;
                // Nothing after the cursor and the run is over: nothing will ever come.
                if rows.is_empty() && super::run_has_ended(&self.db, self.run_id).await {
                    return None;
                }
                self.backlog.extend(rows);
                continue;
            }
            match self.live.next().await? {
                Delivery::Event(event) => {
                    if let Event::RunEvent(row) = &*event {
                        if row.sequence == self.cursor + 1 {
                            self.backlog.push_back(row.clone());
                        } else if row.sequence > self.cursor + 1 {
                            self.replay = true;
                        }
                    }
                }
                // Too slow: what was dropped is in the database; read it from the cursor.
                Delivery::Lagged(_) => self.replay = true,
            }
        }
    }
}

#[derive(Default)]
pub struct RunSubscription;

#[Subscription]
impl RunSubscription {
    /// A run's events after `after` (a sequence): first the stored ones, then live, with no
    /// gap and no duplicate; it completes after the run reaches a terminal status.
    async fn run_events(
        &self,
        ctx: &Context<'_>,
        run_id: ID,
        after: Option<String>,
    ) -> async_graphql::Result<impl Stream<Item = RunEvent>> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        let cursor = cursor(after)?;
        let services = ctx.services();
        services.runs.run(ctx.actor()?, run).await.map_err(gql_error)?;
        // Subscribe before reading the backlog, so an event stored in between is not missed.
        let live = services.broker.subscribe(Topic::RunEvents(run)).boxed();
        let state = Replay {
            live,
            backlog: VecDeque::new(),
            cursor,
            replay: true,
            finished: false,
            db: services.runs.db().clone(),
            run_id: run,
        };
        Ok(futures_util::stream::unfold(state, Replay::next))
    }

    /// Runs of a project as their status changes.
    async fn run_updated(
        &self,
        ctx: &Context<'_>,
        project_id: ID,
    ) -> async_graphql::Result<impl Stream<Item = TaskRun>> {
        let project = decode(&project_id, NodeKind::Project)?;
        let services = ctx.services();
        services.projects.project(ctx.actor()?, project).await.map_err(gql_error)?;
        Ok(services.broker.subscribe(Topic::ProjectRuns(project)).filter_map(|delivery| async move {
            match delivery {
                Delivery::Event(event) => match &*event {
                    Event::RunUpdated(run) => Some(TaskRun(run.clone())),
                    _ => None,
                },
                Delivery::Lagged(_) => None,
            }
        }))
    }
}
