//! GraphQL types and thin resolvers for runs: start, cancel, checkpoint, hand off, approvals,
//! attempts, and events as a connection and as a subscription that replays from a cursor and
//! then goes live.

use std::collections::HashMap;

use acc_entity::{agent, approval, checkpoint, run_attempt, run_event, run_skill, task_run};
use async_graphql::connection::{Connection, Edge};
use async_graphql::dataloader::Loader;

use async_graphql::{Context, Data, Enum, ID, InputObject, Json, Object, SimpleObject, Subscription};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};
use uuid::Uuid;

use super::state::RunStatus as DomainStatus;
use super::{NewRun, usage};
use crate::app::Services;
use crate::approvals::graphql::Approval;
use crate::artifacts::graphql::{Artifact, ArtifactLoader, AttachedBy};
use crate::broker::{Delivery, Event, Topic};
use crate::gateway::graphql::{Agent, Capability};
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{BatchLoader, ContextExt, gql_error};
use crate::identity::actor::Actor;
use crate::ids::{NodeKind, decode, gid};
use crate::projects::graphql::{ProjectLoader, Task, TaskKey};
use crate::skills::graphql::RunSkill;
use crate::usage::graphql::UsageQuality;

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
        let loader = ctx.data_unchecked::<BatchLoader<ProjectLoader>>();
        let task = loader.load_one(TaskKey(self.0.task_id)).await?;
        task.map(Task).ok_or_else(|| gql_error(crate::error::CommonError::NotFound("task")))
    }
    /// The agent of the current attempt (before the first dispatch: the one asked for).
    async fn agent(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Agent>> {
        load_agent(ctx, self.0.agent_id).await
    }
    /// The agent retries go to: the one `startRun` asked for, or the target of a completed handoff.
    async fn requested_agent(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Agent>> {
        load_agent(ctx, self.0.requested_agent_id).await
    }
    /// The agent a handoff in progress goes to.
    async fn handoff_target(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Agent>> {
        load_agent(ctx, self.0.handoff_target_id).await
    }
    /// How many attempts the retry policy allows this run.
    async fn max_attempts(&self) -> i32 {
        self.0.max_attempts
    }
    /// One per dispatch (first start, retry, handoff target), oldest first.
    async fn attempts(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<RunAttempt>> {
        let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
        let rows = loader.load_one(AttemptsOf(self.0.id)).await?.unwrap_or_default();
        Ok(rows.into_iter().map(RunAttempt).collect())
    }
    /// What its agent asked a person to approve, oldest first.
    async fn approvals(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Approval>> {
        let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
        let rows = loader.load_one(ApprovalsOf(self.0.id)).await?.unwrap_or_default();
        Ok(rows.into_iter().map(Approval).collect())
    }
    /// The skill versions it was started with: those active in its project (approved, not
    /// waiting for an approval) when it started, frozen, with the digest its connector checks.
    async fn skills(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<RunSkill>> {
        let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
        let rows = loader.load_one(SkillsOf(self.0.id)).await?.unwrap_or_default();
        Ok(rows.into_iter().map(RunSkill).collect())
    }
    /// What it used: measured by the connector's model gateway and reported by its runtime.
    async fn usage(&self, ctx: &Context<'_>) -> async_graphql::Result<RunUsage> {
        let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
        Ok(RunUsage(loader.load_one(UsageOf(self.0.id)).await?.unwrap_or_default()))
    }
    /// The states its agents saved, oldest first.
    async fn checkpoints(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Checkpoint>> {
        let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
        let rows = loader.load_one(CheckpointsOf(self.0.id)).await?.unwrap_or_default();
        Ok(rows.into_iter().map(Checkpoint).collect())
    }
    /// Files its agent attached (the `attach_artifact` run tool), by name: artifacts of its task,
    /// a version of each uploaded by its connector.
    async fn artifacts(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Artifact>> {
        let loader = ctx.data_unchecked::<BatchLoader<ArtifactLoader>>();
        let rows = loader.load_one(AttachedBy(self.0.id)).await?.unwrap_or_default();
        Ok(rows.into_iter().map(Artifact).collect())
    }
}

async fn load_agent(ctx: &Context<'_>, id: Option<Uuid>) -> async_graphql::Result<Option<Agent>> {
    let Some(id) = id else { return Ok(None) };
    let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
    Ok(loader.load_one(AgentKey(id)).await?.map(Agent))
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "run_attempt::AttemptKind")]
pub enum RunAttemptKind {
    /// The run's first dispatch.
    Start,
    /// Another dispatch after an attempt ended without a result.
    Retry,
    /// The target of a handoff, carrying the handoff bundle.
    Handoff,
    /// A retry on the same agent that continues the runtime's own session of an earlier
    /// attempt (the agent declares `NATIVE_RESUME`) instead of starting over.
    Resume,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "run_attempt::AttemptStatus")]
pub enum RunAttemptStatus {
    /// Sent to its connector; no answer yet.
    Dispatched,
    Running,
    /// Checkpointed for a handoff and told to stop; its lease holds until the target takes over.
    HandingOff,
    /// Stopped after its handoff checkpoint; its lease holds until the target takes over.
    Stopped,
    HandedOff,
    Ended,
    /// Its connector refused to start it.
    Refused,
    /// Its connector went away before it could be sent.
    Undelivered,
    /// Its connector stopped renewing the lease.
    Lapsed,
    /// The control plane stopped while it was live.
    Interrupted,
    /// Its connector restarted while it was live, and the run's process was gone.
    Lost,
}

/// One dispatch of a run to an agent.
pub struct RunAttempt(pub run_attempt::Model);

#[Object]
impl RunAttempt {
    /// 1 for the first start, then one more per retry or handoff.
    async fn number(&self) -> i32 {
        self.0.number
    }
    async fn kind(&self) -> RunAttemptKind {
        self.0.kind.into()
    }
    async fn status(&self) -> RunAttemptStatus {
        self.0.status.into()
    }
    async fn agent(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Agent>> {
        load_agent(ctx, Some(self.0.agent_id)).await
    }
    /// Until when its connector holds the run; renewed by heartbeats. Empty once it ended.
    async fn lease_expires_at(&self) -> Option<DateTime<Utc>> {
        self.0.lease_expires_at
    }
    async fn ended_at(&self) -> Option<DateTime<Utc>> {
        self.0.ended_at
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

/// A run's state as its agent saved it.
pub struct Checkpoint(pub checkpoint::Model);

#[Object]
impl Checkpoint {
    async fn reason(&self) -> &str {
        &self.0.reason
    }
    /// What the agent saved, as it reported it.
    async fn data(&self) -> Json<serde_json::Value> {
        Json(self.0.data.clone())
    }
    /// The agent the run was handed to from this checkpoint, if it was taken for a handoff.
    async fn target_agent(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Agent>> {
        load_agent(ctx, self.0.target_agent_id).await
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
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
    async fn kind(&self) -> String {
        self.0.kind.to_string()
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

/// Which runs `runs` lists; every field narrows the list.
#[derive(InputObject, Default)]
pub struct RunFilter {
    workspace_id: Option<ID>,
    project_id: Option<ID>,
    agent_id: Option<ID>,
    /// Any of these statuses.
    #[graphql(default)]
    status: Vec<RunStatus>,
    /// Only each task's latest run: what each task's state is now.
    #[graphql(default)]
    latest_of_task: bool,
    /// Created at or after.
    from: Option<DateTime<Utc>>,
    /// Created before.
    to: Option<DateTime<Utc>>,
}

impl RunFilter {
    fn into_domain(self) -> async_graphql::Result<super::RunFilter> {
        let id = |id: Option<ID>, kind| id.map(|id| decode(&id, kind)).transpose();
        if let (Some(from), Some(to)) = (self.from, self.to)
            && from >= to
        {
            return Err(gql_error(crate::error::CommonError::validation("`from` must be before `to`")));
        }
        Ok(super::RunFilter {
            workspace_id: id(self.workspace_id, NodeKind::Workspace)?,
            project_id: id(self.project_id, NodeKind::Project)?,
            agent_id: id(self.agent_id, NodeKind::Agent)?,
            statuses: self.status.into_iter().map(Into::into).collect(),
            latest_of_task: self.latest_of_task,
            from: self.from,
            to: self.to,
        })
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
    /// Runs the caller can read, oldest first (`last` for the newest): of one project, one agent,
    /// in some statuses, created in a time range, or only each task's latest run. A task's own
    /// runs are `Task.runs`.
    #[allow(clippy::too_many_arguments)]
    async fn runs(
        &self,
        ctx: &Context<'_>,
        filter: Option<RunFilter>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, TaskRun>> {
        let filter = filter.unwrap_or_default().into_domain()?;
        let page = page_request(after, before, first, last)?;
        let rows = ctx.services().run_reader.runs(ctx.actor()?, &filter, &page).await.map_err(gql_error)?;
        Ok(connection(rows, |r| r.id, TaskRun))
    }

    /// How many of the runs a filter holds are in each status, in total and by agent, and how long
    /// the finished ones took: for dashboards.
    async fn run_statistics(
        &self,
        ctx: &Context<'_>,
        filter: Option<RunFilter>,
    ) -> async_graphql::Result<RunStatistics> {
        let filter = filter.unwrap_or_default().into_domain()?;
        let statistics = ctx.services().run_reader.statistics(ctx.actor()?, &filter).await.map_err(gql_error)?;
        Ok(RunStatistics(statistics))
    }

    /// What a run used: measured by the connector's model gateway, reported by its runtime.
    async fn run_usage(&self, ctx: &Context<'_>, run_id: ID) -> async_graphql::Result<RunUsage> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        ctx.services().run_reader.run_usage(ctx.actor()?, run).await.map(RunUsage).map_err(gql_error)
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
        let (rows, more) =
            ctx.services().run_reader.events(ctx.actor()?, run, after, first).await.map_err(gql_error)?;
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
    #[allow(clippy::too_many_arguments)]
    async fn start_run(
        &self,
        ctx: &Context<'_>,
        task_id: ID,
        agent_id: Option<ID>,
        #[graphql(default)] required_capabilities: Vec<Capability>,
        input: Option<Json<serde_json::Value>>,
        budget: Option<RunBudgetInput>,
        idempotency_key: Option<String>,
    ) -> async_graphql::Result<TaskRun> {
        let budget = budget.map(RunBudgetInput::into_budget).transpose()?;
        let new = NewRun {
            task_id: decode(&task_id, NodeKind::Task)?,
            agent_id: agent_id.map(|id| decode(&id, NodeKind::Agent)).transpose()?,
            required_capabilities: required_capabilities.into_iter().map(Into::into).collect(),
            input: input.map_or(serde_json::json!({}), |j| j.0),
            budget,
            composition: None,
        };
        let key = ctx.idempotency_key(idempotency_key.as_deref());
        ctx.services().runs.start_run(ctx.actor()?, new, key).await.map(TaskRun).map_err(gql_error)
    }

    async fn cancel_run(&self, ctx: &Context<'_>, run_id: ID) -> async_graphql::Result<TaskRun> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        ctx.services().runs.cancel_run(ctx.actor()?, run).await.map(TaskRun).map_err(gql_error)
    }

    /// Asks a running run's agent to save its state (`RUNNING → CHECKPOINTING → RUNNING`). The
    /// agent must have `CHECKPOINT`.
    async fn request_checkpoint(
        &self,
        ctx: &Context<'_>,
        run_id: ID,
        reason: Option<String>,
    ) -> async_graphql::Result<TaskRun> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        ctx.services().runs.request_checkpoint(ctx.actor()?, run, reason).await.map(TaskRun).map_err(gql_error)
    }

    /// Hands a run to another agent: a running one is checkpointed first (its agent must have
    /// `CHECKPOINT`), a blocked one goes at once. The target gets a new attempt with the handoff
    /// bundle; the previous attempt keeps its lease until the target has taken over.
    async fn request_handoff(
        &self,
        ctx: &Context<'_>,
        run_id: ID,
        target_agent_id: ID,
        reason: Option<String>,
    ) -> async_graphql::Result<TaskRun> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        let target = decode(&target_agent_id, NodeKind::Agent)?;
        let runs = &ctx.services().runs;
        runs.request_handoff(ctx.actor()?, run, target, reason).await.map(TaskRun).map_err(gql_error)
    }
}

#[derive(Default)]
pub struct RunSubscription;

#[Subscription]
impl RunSubscription {
    /// A run's events after `after` (a sequence): first the stored ones, then live, with no
    /// gap and no duplicate; it completes after the run reaches a terminal status. If the events
    /// cannot be read it ends with an `INTERNAL` error instead: resubscribe from the last sequence.
    async fn run_events(
        &self,
        ctx: &Context<'_>,
        run_id: ID,
        after: Option<String>,
    ) -> async_graphql::Result<impl Stream<Item = async_graphql::Result<RunEvent>>> {
        let run = decode(&run_id, NodeKind::TaskRun)?;
        let feed = ctx.services().run_reader.event_feed(ctx.actor()?, run, cursor(after)?).await.map_err(gql_error)?;
        Ok(feed.map(|event| event.map(RunEvent).map_err(gql_error)))
    }

    /// Runs of a project as their status changes.
    async fn run_updated(
        &self,
        ctx: &Context<'_>,
        project_id: ID,
    ) -> async_graphql::Result<impl Stream<Item = TaskRun>> {
        let project = decode(&project_id, NodeKind::Project)?;
        let services = ctx.services();
        // Listening before the first wait: see `LISTEN_FIRST` in http/graphql_ws.rs.
        let live = services.broker.subscribe(Topic::ProjectRuns(project));
        services.projects.project(ctx.actor()?, project).await.map_err(gql_error)?;
        Ok(live.filter_map(|delivery| async move {
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

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AttemptsOf(Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ApprovalsOf(Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CheckpointsOf(Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SkillsOf(Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AgentKey(Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct UsageOf(Uuid);
/// The runs of a task, for `Task.runs`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RunsOfTask(pub Uuid);
/// The latest run of a task, for `Task.latestRun`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LatestRunOf(pub Uuid);

/// Batches what a list of runs fans out to, one query per relation per list.
pub struct RunLoader {
    services: Services,
    actor: Actor,
}

/// Maps a grouped batch result onto the loader's keys.
fn keyed<K: std::hash::Hash + Eq, V>(map: HashMap<Uuid, V>, key: impl Fn(Uuid) -> K) -> HashMap<K, V> {
    map.into_iter().map(|(id, value)| (key(id), value)).collect()
}

impl Loader<AttemptsOf> for RunLoader {
    type Value = Vec<run_attempt::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[AttemptsOf]) -> Result<HashMap<AttemptsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        Ok(keyed(self.services.run_reader.attempts_of(&self.actor, &ids).await.map_err(gql_error)?, AttemptsOf))
    }
}

impl Loader<ApprovalsOf> for RunLoader {
    type Value = Vec<approval::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[ApprovalsOf]) -> Result<HashMap<ApprovalsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        Ok(keyed(self.services.run_reader.approvals_of(&self.actor, &ids).await.map_err(gql_error)?, ApprovalsOf))
    }
}

impl Loader<SkillsOf> for RunLoader {
    type Value = Vec<run_skill::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[SkillsOf]) -> Result<HashMap<SkillsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        Ok(keyed(self.services.run_reader.skills_of(&self.actor, &ids).await.map_err(gql_error)?, SkillsOf))
    }
}

impl Loader<CheckpointsOf> for RunLoader {
    type Value = Vec<checkpoint::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[CheckpointsOf]) -> Result<HashMap<CheckpointsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        Ok(keyed(self.services.run_reader.checkpoints_of(&self.actor, &ids).await.map_err(gql_error)?, CheckpointsOf))
    }
}

impl Loader<UsageOf> for RunLoader {
    type Value = usage::RunUsage;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[UsageOf]) -> Result<HashMap<UsageOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        Ok(keyed(self.services.run_reader.usage_of(&self.actor, &ids).await.map_err(gql_error)?, UsageOf))
    }
}

impl Loader<RunsOfTask> for RunLoader {
    type Value = Vec<task_run::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[RunsOfTask]) -> Result<HashMap<RunsOfTask, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        Ok(keyed(self.services.run_reader.runs_of_tasks(&self.actor, &ids).await.map_err(gql_error)?, RunsOfTask))
    }
}

impl Loader<LatestRunOf> for RunLoader {
    type Value = task_run::Model;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[LatestRunOf]) -> Result<HashMap<LatestRunOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        Ok(keyed(
            self.services.run_reader.latest_runs_of_tasks(&self.actor, &ids).await.map_err(gql_error)?,
            LatestRunOf,
        ))
    }
}

impl Loader<AgentKey> for RunLoader {
    type Value = agent::Model;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[AgentKey]) -> Result<HashMap<AgentKey, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let agents = self.services.gateway.agents_by_ids(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(agents.into_iter().map(|a| (AgentKey(a.id), a)).collect())
    }
}

pub fn add_loaders(data: &mut Data, services: &Services, actor: &Actor) {
    data.insert(BatchLoader::new(RunLoader { services: services.clone(), actor: actor.clone() }));
}

/// Limits on what a run may use of its model provider, as the connector's model gateway measures
/// it. Needs an agent with `USAGE_EXACT`; at either limit the run fails with `BUDGET_EXCEEDED`.
#[derive(async_graphql::InputObject)]
pub struct RunBudgetInput {
    /// Input plus output tokens over all of the run's model requests.
    max_tokens: Option<i64>,
    /// Estimated cost in US dollars, from the connector's price table.
    max_cost_usd: Option<f64>,
}

impl RunBudgetInput {
    fn into_budget(self) -> async_graphql::Result<acc_protocol::RunBudget> {
        let max_tokens = self
            .max_tokens
            .map(|t| {
                u64::try_from(t)
                    .map_err(|_| gql_error(crate::error::CommonError::validation("maxTokens must be positive")))
            })
            .transpose()?;
        Ok(acc_protocol::RunBudget { max_tokens, max_cost_usd: self.max_cost_usd })
    }
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::runs::usage::UsageSource")]
pub enum UsageSource {
    /// The connector's model gateway.
    Gateway,
    /// The runtime's report of itself.
    Runtime,
}

/// One source's account of what a run used.
pub struct UsageSignal(usage::UsageSignal);

#[Object]
impl UsageSignal {
    async fn source(&self) -> UsageSource {
        self.0.source.into()
    }
    /// Model requests (the gateway counts them; a runtime does not say).
    async fn requests(&self) -> Option<i64> {
        self.0.requests
    }
    /// Every prompt token, cached ones included.
    async fn input_tokens(&self) -> i64 {
        self.0.input_tokens
    }
    async fn output_tokens(&self) -> i64 {
        self.0.output_tokens
    }
    /// Of the input tokens, those served from the provider's cache.
    async fn cached_input_tokens(&self) -> i64 {
        self.0.cached_input_tokens
    }
    /// How far the token counts can be trusted.
    async fn tokens(&self) -> UsageQuality {
        self.0.tokens.into()
    }
    /// In US dollars; only when every request was priced.
    async fn cost_usd(&self) -> Option<f64> {
        self.0.cost_usd
    }
    /// Always an estimate at best: providers bill by their own reckoning.
    async fn cost(&self) -> UsageQuality {
        self.0.cost.into()
    }
    async fn models(&self) -> &[String] {
        &self.0.models
    }
}

/// A run's limits on what it may use.
pub struct RunBudget(acc_protocol::RunBudget);

#[Object]
impl RunBudget {
    async fn max_tokens(&self) -> Option<i64> {
        self.0.max_tokens.map(|t| i64::try_from(t).unwrap_or(i64::MAX))
    }
    async fn max_cost_usd(&self) -> Option<f64> {
        self.0.max_cost_usd
    }
}

/// What a run used (SPEC §14), each signal marked with how far it can be trusted.
pub struct RunUsage(usage::RunUsage);

#[Object]
impl RunUsage {
    /// Measured by the connector's model gateway; absent when the run's agent does not go through it.
    async fn measured(&self) -> Option<UsageSignal> {
        self.0.measured.clone().map(UsageSignal)
    }
    /// What the runtime reported of itself.
    async fn reported(&self) -> Option<UsageSignal> {
        self.0.reported.clone().map(UsageSignal)
    }
    /// How long its attempts ran, summed (measured by the control plane).
    async fn wall_time_ms(&self) -> i64 {
        self.0.wall_time_ms
    }
    async fn budget(&self) -> Option<RunBudget> {
        self.0.budget.map(RunBudget)
    }
}

/// How many runs a filter holds in each status, in total and by agent (SPEC §14 dashboards).
pub struct RunStatistics(super::RunStatistics);

#[Object]
impl RunStatistics {
    async fn total(&self) -> RunCounts<'_> {
        RunCounts(&self.0.total)
    }
    /// Most runs first.
    async fn by_agent(&self) -> Vec<AgentRunCounts<'_>> {
        self.0.by_agent.iter().map(|(agent_id, counts)| AgentRunCounts { agent_id: *agent_id, counts }).collect()
    }
}

/// Runs by status, and how long the finished ones took (from their creation to their end).
pub struct RunCounts<'a>(&'a super::RunCounts);

/// How many runs are in one status.
#[derive(SimpleObject)]
pub struct RunStatusCount {
    status: RunStatus,
    count: i64,
}

#[Object]
impl RunCounts<'_> {
    async fn runs(&self) -> i64 {
        self.0.runs
    }
    /// Every status with a run in it.
    async fn by_status(&self) -> Vec<RunStatusCount> {
        self.0
            .by_status
            .iter()
            .map(|(status, count)| RunStatusCount { status: (*status).into(), count: *count })
            .collect()
    }
    /// Succeeded, failed, cancelled or interrupted.
    async fn finished(&self) -> i64 {
        self.0.finished
    }
    async fn mean_duration_ms(&self) -> Option<i64> {
        self.0.mean_duration_ms
    }
    async fn median_duration_ms(&self) -> Option<i64> {
        self.0.median_duration_ms
    }
    async fn p95_duration_ms(&self) -> Option<i64> {
        self.0.p95_duration_ms
    }
}

/// One agent's runs.
pub struct AgentRunCounts<'a> {
    agent_id: Option<Uuid>,
    counts: &'a super::RunCounts,
}

#[Object]
impl AgentRunCounts<'_> {
    /// `null` for runs that were never given an agent (or whose agent is gone).
    async fn agent(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Agent>> {
        load_agent(ctx, self.agent_id).await
    }
    async fn counts(&self) -> RunCounts<'_> {
        RunCounts(self.counts)
    }
}
