//! What a caller may read of runs: runs as lists (dashboards, Home, each task's runs), a run's
//! attempts, checkpoints, approvals and events. What the caller may read is decided per project,
//! as everywhere else. Reads only: the commands that change runs are [`RunService`]'s, which
//! authorizes through this reader.
//!
//! [`RunService`]: super::RunService

use std::collections::{HashMap, HashSet};

use acc_entity::{approval, checkpoint, project, run_attempt, run_event, run_skill, task_run};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};
use sea_orm::sea_query::{Alias, Expr, ExprTrait, Query, SimpleExpr};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Select};
use uuid::Uuid;

use super::state::RunStatus;
use super::{Result, RunError, feed, path};
use crate::broker::{Broker, Topic};
use crate::db::Reads;
use crate::error::CommonError;
use crate::identity::actor::{Actor, Permission, ScopeKind};
use crate::pagination::{Page, PageRequest, paginate};

/// Runs as the caller may read them.
#[derive(Clone)]
pub struct RunReader {
    db: DatabaseConnection,
    pub(super) reads: Reads,
    /// A run's live events, for its subscribers.
    broker: Broker,
    max_page_size: u64,
}

/// A run a connector acts for, as [`RunReader::acting_for`] found it.
#[derive(Debug, Clone)]
pub struct ActingRun {
    pub run: task_run::Model,
    pub project: project::Model,
    pub attempt_id: Uuid,
    /// The agent of the working attempt.
    pub agent_id: Uuid,
}

/// Which runs a list holds; every part narrows it, none given is every readable run.
#[derive(Debug, Clone, Default)]
pub struct RunFilter {
    pub workspace_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
    pub agent_id: Option<Uuid>,
    /// Any of these statuses; empty is any status.
    pub statuses: Vec<RunStatus>,
    /// Only each task's latest run (what the task's state is now), not the runs before it.
    pub latest_of_task: bool,
    /// Created at or after.
    pub from: Option<DateTime<Utc>>,
    /// Created before.
    pub to: Option<DateTime<Utc>>,
}

impl RunReader {
    pub fn new(db: DatabaseConnection, reads: Reads, broker: Broker, max_page_size: u64) -> Self {
        Self { db, reads, broker, max_page_size }
    }

    /// The projects the caller may read: `project_id` alone (not found unless readable), or all.
    pub(super) async fn readable_projects(&self, actor: &Actor, project_id: Option<Uuid>) -> Result<HashSet<Uuid>> {
        let readable: HashSet<Uuid> = self
            .reads
            .all(project::Entity::find().filter(project::Column::OrganizationId.eq(actor.organization_id)))
            .await?
            .into_iter()
            .filter(|p| actor.role_on(&path(p)).is_some())
            .map(|p| p.id)
            .collect();
        match project_id {
            Some(id) if readable.contains(&id) => Ok(HashSet::from([id])),
            Some(_) => Err(CommonError::NotFound("project").into()),
            None => Ok(readable),
        }
    }

    /// One page of the runs the caller may read that `filter` keeps, oldest first.
    pub async fn runs(&self, actor: &Actor, filter: &RunFilter, page: &PageRequest) -> Result<Page<task_run::Model>> {
        let select = self.filtered(actor, filter).await?;
        Ok(paginate(&self.reads, select, task_run::Column::Id, page, self.max_page_size).await?)
    }

    /// How many of the runs a filter holds are in each status, and by agent how many ran, how
    /// they ended and how long the finished ones took.
    pub async fn statistics(&self, actor: &Actor, filter: &RunFilter) -> Result<RunStatistics> {
        let select = self.filtered(actor, filter).await?.select_only().columns([
            task_run::Column::AgentId,
            task_run::Column::Status,
            task_run::Column::CreatedAt,
            task_run::Column::UpdatedAt,
        ]);
        // Four columns, not models: a statement the pool reads.
        let rows: Vec<RunTimes> = select.into_tuple().all(&self.db).await?;
        Ok(RunStatistics::of(rows.into_iter().map(|(agent_id, status, created, updated)| {
            let status = RunStatus::from_stored(&status);
            // A finished run's last change is its end.
            let duration = status.is_terminal().then(|| Ord::max((updated - created).num_milliseconds(), 0));
            (agent_id, status, duration)
        })))
    }

    /// The readable runs a filter holds.
    async fn filtered(&self, actor: &Actor, filter: &RunFilter) -> Result<Select<task_run::Entity>> {
        let mut projects = self.readable_projects(actor, filter.project_id).await?;
        if let Some(workspace_id) = filter.workspace_id {
            let workspace = crate::identity::scope_path(&self.reads, actor, ScopeKind::Workspace, workspace_id).await?;
            let of_workspace: HashSet<Uuid> = self
                .reads
                .all(
                    project::Entity::find()
                        .filter(project::Column::OrganizationId.eq(actor.organization_id))
                        .filter(project::Column::WorkspaceId.eq(workspace_id)),
                )
                .await?
                .into_iter()
                .map(|p| p.id)
                .collect();
            projects.retain(|p| of_workspace.contains(p));
            // A workspace the caller sees nothing of is not there for them.
            if projects.is_empty() && actor.role_on(&workspace).is_none() {
                return Err(CommonError::NotFound("workspace").into());
            }
        }
        let mut select = task_run::Entity::find().filter(task_run::Column::ProjectId.is_in(projects));
        if let Some(agent_id) = filter.agent_id {
            select = select.filter(task_run::Column::AgentId.eq(agent_id));
        }
        if !filter.statuses.is_empty() {
            select = select.filter(task_run::Column::Status.is_in(filter.statuses.iter().map(|s| s.as_str())));
        }
        if let Some(from) = filter.from {
            select = select.filter(task_run::Column::CreatedAt.gte(from));
        }
        if let Some(to) = filter.to {
            select = select.filter(task_run::Column::CreatedAt.lt(to));
        }
        if filter.latest_of_task {
            select = select.filter(latest_of_its_task());
        }
        Ok(select)
    }

    /// The runs of those of `task_ids` that are in projects the caller may read.
    async fn runs_of_readable_tasks(&self, actor: &Actor, task_ids: &[Uuid]) -> Result<Select<task_run::Entity>> {
        Ok(task_run::Entity::find()
            .filter(task_run::Column::TaskId.is_in(task_ids.iter().copied()))
            .filter(task_run::Column::ProjectId.is_in(self.readable_projects(actor, None).await?)))
    }

    /// The latest run of each of the tasks the caller may read that has one.
    pub async fn latest_runs_of_tasks(
        &self,
        actor: &Actor,
        task_ids: &[Uuid],
    ) -> Result<HashMap<Uuid, task_run::Model>> {
        let runs =
            self.reads.all(self.runs_of_readable_tasks(actor, task_ids).await?.filter(latest_of_its_task())).await?;
        Ok(runs.into_iter().map(|run| (run.task_id, run)).collect())
    }

    /// The runs of the tasks the caller may read, oldest first, grouped by task.
    pub async fn runs_of_tasks(&self, actor: &Actor, task_ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<task_run::Model>>> {
        let select = self.runs_of_readable_tasks(actor, task_ids).await?.order_by_asc(task_run::Column::Id);
        let runs = self.reads.all(select).await?;
        let mut grouped: HashMap<Uuid, Vec<task_run::Model>> = HashMap::new();
        for run in runs {
            grouped.entry(run.task_id).or_default().push(run);
        }
        Ok(grouped)
    }

    pub(super) async fn project_of(&self, run: &task_run::Model) -> Result<project::Model> {
        Ok(self.reads.one(project::Entity::find_by_id(run.project_id)).await?.ok_or(CommonError::NotFound("run"))?)
    }

    /// A run the caller may read (a hidden one is `NOT_FOUND`).
    pub async fn run(&self, actor: &Actor, id: Uuid) -> Result<task_run::Model> {
        Ok(self.readable_run(actor, id).await?.0)
    }

    /// [`Self::run`], with the project it was authorized on, for a check that follows.
    pub(super) async fn readable_run(&self, actor: &Actor, id: Uuid) -> Result<(task_run::Model, project::Model)> {
        let run = self.reads.one(task_run::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("run"))?;
        if run.organization_id != actor.organization_id {
            return Err(CommonError::NotFound("run").into());
        }
        let project = self.project_of(&run).await?;
        actor.authorize(Permission::Read, &path(&project), "run").map_err(|_| CommonError::NotFound("run"))?;
        Ok((run, project))
    }

    /// A run whose working attempt `connector_id` holds, with where it stands: the proof that the
    /// connector acts for the run's agent (its run tools). A run ended, or held elsewhere, is
    /// `UnknownRun` to it.
    pub async fn acting_for(&self, connector_id: Uuid, run_id: Uuid) -> Result<ActingRun> {
        let run = self.reads.one(task_run::Entity::find_by_id(run_id)).await?.ok_or(RunError::UnknownRun)?;
        if RunStatus::from_stored(&run.status).is_terminal() {
            return Err(RunError::UnknownRun);
        }
        let attempt = self
            .reads
            .one(
                run_attempt::Entity::find()
                    .filter(run_attempt::Column::RunId.eq(run_id))
                    .order_by_desc(run_attempt::Column::Number),
            )
            .await?
            .filter(|a| a.connector_id == connector_id && a.ended_at.is_none())
            .ok_or(RunError::UnknownRun)?;
        let project = self.project_of(&run).await?;
        Ok(ActingRun { run, project, attempt_id: attempt.id, agent_id: attempt.agent_id })
    }

    /// Of `run_ids`, the runs the caller may read.
    pub(super) async fn readable_runs(&self, actor: &Actor, run_ids: &[Uuid]) -> Result<Vec<task_run::Model>> {
        let runs = self
            .reads
            .all(
                task_run::Entity::find()
                    .filter(task_run::Column::Id.is_in(run_ids.iter().copied()))
                    .filter(task_run::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?;
        let project_ids: Vec<Uuid> = runs.iter().map(|r| r.project_id).collect();
        let readable: Vec<Uuid> = self
            .reads
            .all(project::Entity::find().filter(project::Column::Id.is_in(project_ids)))
            .await?
            .into_iter()
            .filter(|p| actor.role_on(&path(p)).is_some())
            .map(|p| p.id)
            .collect();
        Ok(runs.into_iter().filter(|r| readable.contains(&r.project_id)).collect())
    }

    /// Rows of `E` that belong (by `run_column`) to the runs the caller may read, ordered by
    /// `order`, grouped by run.
    async fn of_runs<E: EntityTrait>(
        &self,
        actor: &Actor,
        run_ids: &[Uuid],
        run_column: E::Column,
        order: E::Column,
        run_of: impl Fn(&E::Model) -> Option<Uuid>,
    ) -> Result<HashMap<Uuid, Vec<E::Model>>> {
        let rows = E::find()
            .filter(run_column.is_in(self.readable_runs(actor, run_ids).await?.into_iter().map(|r| r.id)))
            .order_by_asc(order)
            .all(&self.db)
            .await?;
        let mut grouped: HashMap<Uuid, Vec<E::Model>> = HashMap::new();
        for row in rows {
            if let Some(run_id) = run_of(&row) {
                grouped.entry(run_id).or_default().push(row);
            }
        }
        Ok(grouped)
    }

    /// The attempts of the runs the caller may read, oldest first, grouped by run.
    pub async fn attempts_of(&self, actor: &Actor, run_ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<run_attempt::Model>>> {
        use run_attempt::Column::{Number, RunId};
        self.of_runs::<run_attempt::Entity>(actor, run_ids, RunId, Number, |a| Some(a.run_id)).await
    }

    /// The checkpoints of the runs the caller may read, oldest first, grouped by run.
    pub async fn checkpoints_of(
        &self,
        actor: &Actor,
        run_ids: &[Uuid],
    ) -> Result<HashMap<Uuid, Vec<checkpoint::Model>>> {
        use checkpoint::Column::{Id, RunId};
        self.of_runs::<checkpoint::Entity>(actor, run_ids, RunId, Id, |c| Some(c.run_id)).await
    }

    /// The skill versions the runs the caller may read were started with, grouped by run.
    pub async fn skills_of(&self, actor: &Actor, run_ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<run_skill::Model>>> {
        use run_skill::Column::{Id, RunId};
        self.of_runs::<run_skill::Entity>(actor, run_ids, RunId, Id, |s| Some(s.run_id)).await
    }

    /// The approvals of the runs the caller may read, oldest first, grouped by run.
    pub async fn approvals_of(&self, actor: &Actor, run_ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<approval::Model>>> {
        use approval::Column::{Id, RunId};
        self.of_runs::<approval::Entity>(actor, run_ids, RunId, Id, |a| a.run_id).await
    }

    /// A run's events after `after` (a sequence) for a subscriber: the stored ones, then live,
    /// until the run's terminal status (see [`feed`]).
    pub async fn event_feed(
        &self,
        actor: &Actor,
        run_id: Uuid,
        after: i64,
    ) -> Result<impl Stream<Item = Result<run_event::Model>> + Send + 'static> {
        // Subscribed before the first read, so an event stored in between is not missed.
        let live = self.broker.subscribe(Topic::RunEvents(run_id)).boxed();
        self.run(actor, run_id).await?;
        Ok(feed::EventFeed::start(self.db.clone(), run_id, live, after))
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
        let mut rows = feed::events_after(&self.db, run_id, after, limit + 1).await?;
        let more = rows.len() as u64 > limit;
        rows.truncate(limit as usize);
        Ok((rows, more))
    }
}

/// A run with no newer run of the same task (ids are time-ordered: UUIDv7).
fn latest_of_its_task() -> SimpleExpr {
    let newer = Alias::new("newer");
    let newer_runs = Query::select()
        .expr(Expr::val(1))
        .from_as(task_run::Entity, newer.clone())
        .and_where(
            Expr::col((newer.clone(), task_run::Column::TaskId)).equals((task_run::Entity, task_run::Column::TaskId)),
        )
        .and_where(Expr::col((newer, task_run::Column::Id)).gt(Expr::col((task_run::Entity, task_run::Column::Id))))
        .to_owned();
    Expr::exists(newer_runs).not()
}

/// A run's agent, stored status, creation and last change.
type RunTimes = (Option<Uuid>, String, DateTime<Utc>, DateTime<Utc>);

/// How many runs are in each status, in total and by agent, and how long the finished ones took.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunStatistics {
    pub total: RunCounts,
    /// Most runs first; `agent_id` is `None` for runs never given an agent.
    pub by_agent: Vec<(Option<Uuid>, RunCounts)>,
}

/// Runs by status, with the durations of the finished ones.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunCounts {
    pub runs: i64,
    /// Every status with a run in it, in the order of [`RunStatus`].
    pub by_status: Vec<(RunStatus, i64)>,
    pub finished: i64,
    pub mean_duration_ms: Option<i64>,
    pub median_duration_ms: Option<i64>,
    pub p95_duration_ms: Option<i64>,
}

impl RunStatistics {
    /// From each run's agent, status and, when it finished, duration.
    fn of(runs: impl Iterator<Item = (Option<Uuid>, RunStatus, Option<i64>)>) -> Self {
        let mut total = Tallies::default();
        let mut by_agent: HashMap<Option<Uuid>, Tallies> = HashMap::new();
        for (agent_id, status, duration) in runs {
            total.add(status, duration);
            by_agent.entry(agent_id).or_default().add(status, duration);
        }
        let mut by_agent: Vec<(Option<Uuid>, RunCounts)> =
            by_agent.into_iter().map(|(agent, tallies)| (agent, tallies.counts())).collect();
        by_agent.sort_by(|a, b| b.1.runs.cmp(&a.1.runs).then(a.0.cmp(&b.0)));
        RunStatistics { total: total.counts(), by_agent }
    }
}

#[derive(Default)]
struct Tallies {
    statuses: HashMap<RunStatus, i64>,
    durations: Vec<i64>,
}

impl Tallies {
    fn add(&mut self, status: RunStatus, duration: Option<i64>) {
        *self.statuses.entry(status).or_default() += 1;
        self.durations.extend(duration);
    }

    fn counts(mut self) -> RunCounts {
        self.durations.sort_unstable();
        let n = self.durations.len();
        // The nearest-rank percentile.
        let at = |p: usize| (n > 0).then(|| self.durations[(n * p).div_ceil(100).max(1) - 1]);
        RunCounts {
            runs: self.statuses.values().sum(),
            by_status: RunStatus::ALL.into_iter().filter_map(|s| self.statuses.get(&s).map(|n| (s, *n))).collect(),
            finished: n as i64,
            mean_duration_ms: (n > 0).then(|| self.durations.iter().sum::<i64>() / n as i64),
            median_duration_ms: at(50),
            p95_duration_ms: at(95),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_count_statuses_and_take_durations_of_finished_runs_only() {
        let (a, b) = (Some(Uuid::from_u128(1)), Some(Uuid::from_u128(2)));
        let runs = vec![
            (a, RunStatus::Succeeded, Some(100)),
            (a, RunStatus::Failed, Some(300)),
            (a, RunStatus::Running, None),
            (b, RunStatus::Succeeded, Some(200)),
            (None, RunStatus::Blocked, None),
        ];
        let stats = RunStatistics::of(runs.into_iter());
        assert_eq!(stats.total.runs, 5);
        assert_eq!(stats.total.finished, 3);
        assert_eq!(stats.total.mean_duration_ms, Some(200));
        assert_eq!((stats.total.median_duration_ms, stats.total.p95_duration_ms), (Some(200), Some(300)));
        assert_eq!(stats.by_agent[0].0, a, "most runs first");
        assert_eq!(
            stats.by_agent[0].1.by_status,
            vec![(RunStatus::Running, 1), (RunStatus::Succeeded, 1), (RunStatus::Failed, 1)]
        );
        assert_eq!(stats.by_agent.iter().find(|(agent, _)| agent.is_none()).unwrap().1.mean_duration_ms, None);
    }
}
