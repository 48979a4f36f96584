//! GraphQL types and thin resolvers for workspaces, projects, tasks, criteria, dependencies and task events.

use std::collections::HashMap;

use acc_entity::{acceptance_criterion, project, task, workspace};
use async_graphql::connection::Connection;
use async_graphql::dataloader::Loader;

use async_graphql::{Context, Data, Enum, ID, InputObject, MaybeUndefined, Object, Subscription};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};
use uuid::Uuid;

use super::{NewNamed, NewTask, ProjectPatch, TaskFilter as DomainTaskFilter, TaskPatch};
use crate::app::Services;
use crate::broker::{Delivery, Event, TaskChange, Topic};
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{BatchLoader, ContextExt, Ordered, gql_error};
use crate::identity::actor::Actor;
use crate::identity::graphql::{User, UserLoader, load_user};
use crate::ids::{NodeKind, decode, gid};
use crate::pagination::Page;
use crate::runs::graphql::{LatestRunOf, RunLoader, RunsOfTask, TaskRun};

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::projects::TaskStatus")]
pub enum TaskStatus {
    Todo,
    InProgress,
    Blocked,
    InReview,
    Done,
    Cancelled,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::projects::TaskPriority")]
pub enum TaskPriority {
    None,
    Low,
    Medium,
    High,
    Urgent,
}

pub struct Workspace(pub workspace::Model);

#[Object]
impl Workspace {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Workspace, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn description(&self) -> &str {
        &self.0.description
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
    async fn projects(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Project>> {
        let request = page_request(after, before, first, last)?;
        let page = ctx.services().projects.projects(ctx.actor()?, self.0.id, &request).await.map_err(gql_error)?;
        Ok(connection(page, |p| p.id, Project))
    }
}

pub struct Project(pub project::Model);

#[Object]
impl Project {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Project, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn description(&self) -> &str {
        &self.0.description
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
    async fn workspace(&self, ctx: &Context<'_>) -> async_graphql::Result<Workspace> {
        ctx.services().projects.workspace(ctx.actor()?, self.0.workspace_id).await.map(Workspace).map_err(gql_error)
    }
    async fn tasks(
        &self,
        ctx: &Context<'_>,
        filter: Option<TaskFilter>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Ordered<Task>>> {
        task_page(ctx, self.0.id, filter, first, after, last, before).await.map(task_connection)
    }
}

pub struct Task(pub task::Model);

#[Object]
impl Task {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Task, self.0.id)
    }
    async fn title(&self) -> &str {
        &self.0.title
    }
    async fn description(&self) -> &str {
        &self.0.description
    }
    async fn status(&self) -> TaskStatus {
        super::TaskStatus::from_stored(&self.0.status).into()
    }
    async fn priority(&self) -> TaskPriority {
        super::TaskPriority::from_stored(&self.0.priority).into()
    }
    async fn labels(&self) -> Vec<String> {
        serde_json::from_value(self.0.labels.clone()).unwrap_or_default()
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
    async fn project(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Project>> {
        let loader = ctx.data_unchecked::<BatchLoader<ProjectLoader>>();
        Ok(loader.load_one(ProjectKey(self.0.project_id)).await?.map(Project))
    }
    /// The task's runs, oldest first.
    async fn runs(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<TaskRun>> {
        let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
        let runs = loader.load_one(RunsOfTask(self.0.id)).await?.unwrap_or_default();
        Ok(runs.into_iter().map(TaskRun).collect())
    }
    /// The task's newest run, if it has any: what a card on the board shows.
    async fn latest_run(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<TaskRun>> {
        let loader = ctx.data_unchecked::<BatchLoader<RunLoader>>();
        Ok(loader.load_one(LatestRunOf(self.0.id)).await?.map(TaskRun))
    }
    async fn assignee(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        match self.0.assignee_user_id {
            Some(id) => load_user(ctx, id).await,
            None => Ok(None),
        }
    }
    /// Tasks that must be done before this one.
    async fn dependencies(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Ordered<Task>>> {
        let loader = ctx.data_unchecked::<BatchLoader<ProjectLoader>>();
        let tasks = loader.load_one(DependenciesOf(self.0.id)).await?.unwrap_or_default();
        Ok(tasks.into_iter().map(|t| Ordered(Task(t))).collect())
    }
    /// Tasks that wait for this one.
    async fn dependents(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Ordered<Task>>> {
        let loader = ctx.data_unchecked::<BatchLoader<ProjectLoader>>();
        let tasks = loader.load_one(DependentsOf(self.0.id)).await?.unwrap_or_default();
        Ok(tasks.into_iter().map(|t| Ordered(Task(t))).collect())
    }
    async fn acceptance_criteria(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<AcceptanceCriterion>> {
        let loader = ctx.data_unchecked::<BatchLoader<ProjectLoader>>();
        let criteria = loader.load_one(CriteriaOf(self.0.id)).await?.unwrap_or_default();
        Ok(criteria.into_iter().map(AcceptanceCriterion).collect())
    }
}

pub struct AcceptanceCriterion(pub acceptance_criterion::Model);

#[Object]
impl AcceptanceCriterion {
    pub async fn id(&self) -> ID {
        gid(NodeKind::AcceptanceCriterion, self.0.id)
    }
    async fn description(&self) -> &str {
        &self.0.description
    }
    async fn met(&self) -> bool {
        self.0.met
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn task_id(&self) -> ID {
        gid(NodeKind::Task, self.0.task_id)
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.updated_at
    }
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
pub enum TaskEventKind {
    Created,
    Updated,
    Deleted,
    /// The subscriber fell behind; `missedEvents` were dropped. Refetch to catch up.
    Lagged,
}

/// A change to a task of the subscribed project.
pub struct TaskEvent {
    kind: TaskEventKind,
    task: Option<task::Model>,
    missed: u64,
}

#[Object]
impl TaskEvent {
    async fn kind(&self) -> TaskEventKind {
        self.kind
    }
    async fn task_id(&self) -> Option<ID> {
        self.task.as_ref().map(|t| gid(NodeKind::Task, t.id))
    }
    /// The task after the change (for a deletion, as it was).
    async fn task(&self) -> Option<Task> {
        self.task.clone().map(Task)
    }
    async fn missed_events(&self) -> i64 {
        self.missed as i64
    }
}

#[derive(InputObject, Default)]
pub struct TaskFilter {
    status: Option<Vec<TaskStatus>>,
    priority: Option<Vec<TaskPriority>>,
    assignee_id: Option<ID>,
    title_contains: Option<String>,
}

impl TaskFilter {
    fn into_domain(self) -> async_graphql::Result<DomainTaskFilter> {
        Ok(DomainTaskFilter {
            statuses: self.status.map(|s| s.into_iter().map(Into::into).collect()),
            priorities: self.priority.map(|p| p.into_iter().map(Into::into).collect()),
            assignee_user_id: self.assignee_id.map(|id| decode(&id, NodeKind::User)).transpose()?,
            title_contains: self.title_contains,
        })
    }
}

#[derive(InputObject)]
pub struct CreateTaskInput {
    project_id: ID,
    title: String,
    #[graphql(default)]
    description: String,
    #[graphql(default_with = "TaskStatus::Todo")]
    status: TaskStatus,
    #[graphql(default_with = "TaskPriority::None")]
    priority: TaskPriority,
    #[graphql(default)]
    labels: Vec<String>,
    assignee_id: Option<ID>,
}

#[derive(InputObject)]
pub struct UpdateTaskInput {
    id: ID,
    /// The revision the change was based on; a stale one is `CONFLICT` and changes nothing.
    expected_revision: i64,
    title: Option<String>,
    description: Option<String>,
    status: Option<TaskStatus>,
    priority: Option<TaskPriority>,
    labels: Option<Vec<String>>,
    /// A user id, or null to unassign.
    assignee_id: MaybeUndefined<ID>,
}

#[allow(clippy::too_many_arguments)]
async fn task_page(
    ctx: &Context<'_>,
    project_id: Uuid,
    filter: Option<TaskFilter>,
    first: Option<i32>,
    after: Option<String>,
    last: Option<i32>,
    before: Option<String>,
) -> async_graphql::Result<Page<task::Model>> {
    let request = page_request(after, before, first, last)?;
    let filter = filter.unwrap_or_default().into_domain()?;
    ctx.services().projects.tasks(ctx.actor()?, project_id, &filter, &request).await.map_err(gql_error)
}

fn task_connection(page: Page<task::Model>) -> Connection<String, Ordered<Task>> {
    connection(page, |t| t.id, |t| Ordered(Task(t)))
}

/// Loads ahead, one query each and all at once, the relations the query asks of a page's tasks,
/// so that every task of the page resolves in one pass (`BatchLoader::prime`).
async fn prime_relations(ctx: &Context<'_>, tasks: &[task::Model]) -> async_graphql::Result<()> {
    let look = ctx.look_ahead();
    let (edges, nodes) = (look.field("edges").field("node"), look.field("nodes"));
    let keys = |relation: &str, key: fn(&task::Model) -> Option<Uuid>| -> Vec<Uuid> {
        if !edges.field(relation).exists() && !nodes.field(relation).exists() {
            return Vec::new();
        }
        let mut keys: Vec<Uuid> = tasks.iter().filter_map(key).collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    };
    let of_task = |t: &task::Model| Some(t.id);
    let (projects, runs) =
        (ctx.data_unchecked::<BatchLoader<ProjectLoader>>(), ctx.data_unchecked::<BatchLoader<RunLoader>>());
    tokio::try_join!(
        ctx.data_unchecked::<BatchLoader<UserLoader>>().prime(keys("assignee", |t| t.assignee_user_id)),
        projects.prime(keys("project", |t| Some(t.project_id)).into_iter().map(ProjectKey).collect()),
        projects.prime(keys("dependencies", of_task).into_iter().map(DependenciesOf).collect()),
        projects.prime(keys("dependents", of_task).into_iter().map(DependentsOf).collect()),
        projects.prime(keys("acceptanceCriteria", of_task).into_iter().map(CriteriaOf).collect()),
        runs.prime(keys("runs", of_task).into_iter().map(RunsOfTask).collect()),
        runs.prime(keys("latestRun", of_task).into_iter().map(LatestRunOf).collect()),
    )?;
    Ok(())
}

#[derive(Default)]
pub struct ProjectQuery;

#[Object]
impl ProjectQuery {
    /// Workspaces the caller can see.
    async fn workspaces(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Workspace>> {
        let request = page_request(after, before, first, last)?;
        let page = ctx.services().projects.workspaces(ctx.actor()?, &request).await.map_err(gql_error)?;
        Ok(connection(page, |w| w.id, Workspace))
    }

    /// Tasks of a project, in creation order.
    #[allow(clippy::too_many_arguments)]
    async fn tasks(
        &self,
        ctx: &Context<'_>,
        project_id: ID,
        filter: Option<TaskFilter>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Ordered<Task>>> {
        let project_id = decode(&project_id, NodeKind::Project)?;
        let page = task_page(ctx, project_id, filter, first, after, last, before).await?;
        // A root query field, so this request is a query: what is primed stays true for its life.
        prime_relations(ctx, &page.items).await?;
        Ok(task_connection(page))
    }
}

#[derive(Default)]
pub struct ProjectMutation;

#[Object]
impl ProjectMutation {
    async fn create_workspace(
        &self,
        ctx: &Context<'_>,
        name: String,
        #[graphql(default)] description: String,
        idempotency_key: Option<String>,
    ) -> async_graphql::Result<Workspace> {
        let actor = ctx.actor()?;
        let input = NewNamed { parent_id: actor.organization_id, name, description };
        let key = ctx.idempotency_key(idempotency_key.as_deref());
        ctx.services().projects.create_workspace(actor, input, key).await.map(Workspace).map_err(gql_error)
    }

    async fn create_project(
        &self,
        ctx: &Context<'_>,
        workspace_id: ID,
        name: String,
        #[graphql(default)] description: String,
        idempotency_key: Option<String>,
    ) -> async_graphql::Result<Project> {
        let input = NewNamed { parent_id: decode(&workspace_id, NodeKind::Workspace)?, name, description };
        let key = ctx.idempotency_key(idempotency_key.as_deref());
        ctx.services().projects.create_project(ctx.actor()?, input, key).await.map(Project).map_err(gql_error)
    }

    async fn update_project(
        &self,
        ctx: &Context<'_>,
        id: ID,
        expected_revision: i64,
        name: Option<String>,
        description: Option<String>,
    ) -> async_graphql::Result<Project> {
        let id = decode(&id, NodeKind::Project)?;
        let patch = ProjectPatch { expected_revision, name, description };
        ctx.services().projects.update_project(ctx.actor()?, id, patch).await.map(Project).map_err(gql_error)
    }

    async fn create_task(
        &self,
        ctx: &Context<'_>,
        input: CreateTaskInput,
        idempotency_key: Option<String>,
    ) -> async_graphql::Result<Task> {
        let new = NewTask {
            project_id: decode(&input.project_id, NodeKind::Project)?,
            title: input.title,
            description: input.description,
            status: input.status.into(),
            priority: input.priority.into(),
            labels: input.labels,
            assignee_user_id: input.assignee_id.map(|id| decode(&id, NodeKind::User)).transpose()?,
        };
        let key = ctx.idempotency_key(idempotency_key.as_deref());
        ctx.services().projects.create_task(ctx.actor()?, new, key).await.map(Task).map_err(gql_error)
    }

    async fn update_task(&self, ctx: &Context<'_>, input: UpdateTaskInput) -> async_graphql::Result<Task> {
        let id = decode(&input.id, NodeKind::Task)?;
        let assignee_user_id = match input.assignee_id {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(id) => Some(Some(decode(&id, NodeKind::User)?)),
        };
        let patch = TaskPatch {
            expected_revision: input.expected_revision,
            title: input.title,
            description: input.description,
            status: input.status.map(Into::into),
            priority: input.priority.map(Into::into),
            labels: input.labels,
            assignee_user_id,
        };
        ctx.services().projects.update_task(ctx.actor()?, id, patch).await.map(Task).map_err(gql_error)
    }

    /// Deletes a task; returns its id.
    async fn delete_task(
        &self,
        ctx: &Context<'_>,
        id: ID,
        expected_revision: Option<i64>,
    ) -> async_graphql::Result<ID> {
        let task_id = decode(&id, NodeKind::Task)?;
        ctx.services().projects.delete_task(ctx.actor()?, task_id, expected_revision).await.map_err(gql_error)?;
        Ok(id)
    }

    async fn add_acceptance_criterion(
        &self,
        ctx: &Context<'_>,
        task_id: ID,
        description: String,
    ) -> async_graphql::Result<AcceptanceCriterion> {
        let task_id = decode(&task_id, NodeKind::Task)?;
        let criterion = ctx.services().projects.add_acceptance_criterion(ctx.actor()?, task_id, &description).await;
        criterion.map(AcceptanceCriterion).map_err(gql_error)
    }

    async fn set_acceptance_criterion_met(
        &self,
        ctx: &Context<'_>,
        id: ID,
        met: bool,
        expected_revision: Option<i64>,
    ) -> async_graphql::Result<AcceptanceCriterion> {
        let id = decode(&id, NodeKind::AcceptanceCriterion)?;
        let criterion =
            ctx.services().projects.set_acceptance_criterion_met(ctx.actor()?, id, met, expected_revision).await;
        criterion.map(AcceptanceCriterion).map_err(gql_error)
    }

    /// Makes `taskId` wait for `dependsOnId`. A dependency that would close a cycle is `VALIDATION`.
    async fn add_task_dependency(
        &self,
        ctx: &Context<'_>,
        task_id: ID,
        depends_on_id: ID,
    ) -> async_graphql::Result<Task> {
        let (task, prerequisite) = (decode(&task_id, NodeKind::Task)?, decode(&depends_on_id, NodeKind::Task)?);
        ctx.services().projects.add_task_dependency(ctx.actor()?, task, prerequisite).await.map(Task).map_err(gql_error)
    }

    async fn remove_task_dependency(
        &self,
        ctx: &Context<'_>,
        task_id: ID,
        depends_on_id: ID,
    ) -> async_graphql::Result<Task> {
        let (task, prerequisite) = (decode(&task_id, NodeKind::Task)?, decode(&depends_on_id, NodeKind::Task)?);
        ctx.services()
            .projects
            .remove_task_dependency(ctx.actor()?, task, prerequisite)
            .await
            .map(Task)
            .map_err(gql_error)
    }
}

#[derive(Default)]
pub struct ProjectSubscription;

#[Subscription]
impl ProjectSubscription {
    /// Tasks of a project as they are created, updated and deleted.
    async fn task_events(
        &self,
        ctx: &Context<'_>,
        project_id: ID,
    ) -> async_graphql::Result<impl Stream<Item = TaskEvent>> {
        let project_id = decode(&project_id, NodeKind::Project)?;
        let services = ctx.services();
        // Listening before the first wait: see `LISTEN_FIRST` in http/graphql_ws.rs.
        let live = services.broker.subscribe(Topic::ProjectTasks(project_id));
        services.projects.project(ctx.actor()?, project_id).await.map_err(gql_error)?;
        let events = live.filter_map(|delivery| async move {
            match delivery {
                Delivery::Event(event) => match &*event {
                    Event::Task { change, task } => Some(TaskEvent {
                        kind: match change {
                            TaskChange::Created => TaskEventKind::Created,
                            TaskChange::Updated => TaskEventKind::Updated,
                            TaskChange::Deleted => TaskEventKind::Deleted,
                        },
                        task: Some(task.clone()),
                        missed: 0,
                    }),
                    _ => None,
                },
                Delivery::Lagged(missed) => Some(TaskEvent { kind: TaskEventKind::Lagged, task: None, missed }),
            }
        });
        Ok(events)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProjectKey(Uuid);
/// A task by id, for the lists that show one per row (runs, approvals).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaskKey(pub Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DependenciesOf(Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DependentsOf(Uuid);
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CriteriaOf(Uuid);

/// Batches the relations a page of tasks fans out to, one query per relation per page.
pub struct ProjectLoader {
    services: Services,
    actor: Actor,
}

impl Loader<ProjectKey> for ProjectLoader {
    type Value = project::Model;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[ProjectKey]) -> Result<HashMap<ProjectKey, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let projects = self.services.projects.projects_by_ids(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(projects.into_iter().map(|p| (ProjectKey(p.id), p)).collect())
    }
}

impl Loader<TaskKey> for ProjectLoader {
    type Value = task::Model;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[TaskKey]) -> Result<HashMap<TaskKey, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let tasks = self.services.projects.tasks_by_ids(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(tasks.into_iter().map(|t| (TaskKey(t.id), t)).collect())
    }
}

impl Loader<DependenciesOf> for ProjectLoader {
    type Value = Vec<task::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[DependenciesOf]) -> Result<HashMap<DependenciesOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let map = self.services.projects.related_tasks(&self.actor, &ids, false).await.map_err(gql_error)?;
        Ok(map.into_iter().map(|(k, v)| (DependenciesOf(k), v)).collect())
    }
}

impl Loader<DependentsOf> for ProjectLoader {
    type Value = Vec<task::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[DependentsOf]) -> Result<HashMap<DependentsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let map = self.services.projects.related_tasks(&self.actor, &ids, true).await.map_err(gql_error)?;
        Ok(map.into_iter().map(|(k, v)| (DependentsOf(k), v)).collect())
    }
}

impl Loader<CriteriaOf> for ProjectLoader {
    type Value = Vec<acceptance_criterion::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[CriteriaOf]) -> Result<HashMap<CriteriaOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let map = self.services.projects.criteria_of(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(map.into_iter().map(|(k, v)| (CriteriaOf(k), v)).collect())
    }
}

pub fn add_loaders(data: &mut Data, services: &Services, actor: &Actor) {
    data.insert(BatchLoader::new(ProjectLoader { services: services.clone(), actor: actor.clone() }));
}
