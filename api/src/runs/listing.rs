//! Runs as lists: every run the caller can read, filtered (dashboards, Home), and each task's
//! runs. What the caller may read is decided per project, as everywhere else.

use std::collections::{HashMap, HashSet};

use acc_entity::{project, task_run};
use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Alias, Expr, ExprTrait, Query, SimpleExpr};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use uuid::Uuid;

use super::state::RunStatus;
use super::{Result, RunService, path};
use crate::error::CommonError;
use crate::identity::actor::Actor;
use crate::pagination::{Page, PageRequest, paginate};

/// Which runs a list holds; every part narrows it, none given is every readable run.
#[derive(Debug, Clone, Default)]
pub struct RunFilter {
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

impl RunService {
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
        let projects = self.readable_projects(actor, filter.project_id).await?;
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
        Ok(paginate(&self.reads, select, task_run::Column::Id, page, self.max_page_size).await?)
    }

    /// The latest run of each of the tasks the caller may read that has one.
    pub async fn latest_runs_of_tasks(
        &self,
        actor: &Actor,
        task_ids: &[Uuid],
    ) -> Result<HashMap<Uuid, task_run::Model>> {
        let runs = self
            .reads
            .all(
                task_run::Entity::find()
                    .filter(task_run::Column::TaskId.is_in(task_ids.iter().copied()))
                    .filter(task_run::Column::ProjectId.is_in(self.readable_projects(actor, None).await?))
                    .filter(latest_of_its_task()),
            )
            .await?;
        Ok(runs.into_iter().map(|run| (run.task_id, run)).collect())
    }

    /// The runs of the tasks the caller may read, oldest first, grouped by task.
    pub async fn runs_of_tasks(&self, actor: &Actor, task_ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<task_run::Model>>> {
        let runs = self
            .reads
            .all(
                task_run::Entity::find()
                    .filter(task_run::Column::TaskId.is_in(task_ids.iter().copied()))
                    .filter(task_run::Column::ProjectId.is_in(self.readable_projects(actor, None).await?))
                    .order_by_asc(task_run::Column::Id),
            )
            .await?;
        let mut grouped: HashMap<Uuid, Vec<task_run::Model>> = HashMap::new();
        for run in runs {
            grouped.entry(run.task_id).or_default().push(run);
        }
        Ok(grouped)
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
