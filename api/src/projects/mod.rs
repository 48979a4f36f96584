//! Projects: workspaces, projects and their tasks — status, priority, labels, assignee,
//! acceptance criteria and the dependency DAG.

pub mod graphql;
mod model;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{acceptance_criterion, project, task, task_dependency, user, workspace};
use chrono::Utc;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, JoinType, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};
use serde::Serialize;
use uuid::Uuid;

use crate::audit::{AuditLog, Entry};
use crate::broker::{Broker, Event, TaskChange, Topic};
use crate::db::Pool;
use crate::db::{Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::idempotency::{self, Outcome};
use crate::identity::actor::{Actor, Permission, ScopeKind, ScopePath};
use crate::ids::{GlobalId, NodeKind, new_id};
use crate::pagination::{Page, PageRequest, paginate};
use crate::settings::SettingsService;
pub use model::{TaskPriority, TaskStatus};

#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("this dependency would form a cycle: {}", titles.join(" → "))]
    DependencyCycle { titles: Vec<String>, ids: Vec<Uuid> },
    #[error(transparent)]
    Common(#[from] CommonError),
}

impl From<sea_orm::DbErr> for ProjectError {
    fn from(e: sea_orm::DbErr) -> Self {
        ProjectError::Common(e.into())
    }
}

impl DomainError for ProjectError {
    fn code(&self) -> ErrorCode {
        match self {
            ProjectError::DependencyCycle { .. } => ErrorCode::Validation,
            ProjectError::Common(e) => e.code(),
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            ProjectError::DependencyCycle { ids, .. } => serde_json::json!({
                "cycle": ids.iter().map(|id| GlobalId::new(NodeKind::Task, *id).encode()).collect::<Vec<_>>()
            }),
            ProjectError::Common(e) => e.details(),
        }
    }
}

type Result<T, E = ProjectError> = std::result::Result<T, E>;

#[derive(Debug, Clone, Serialize)]
pub struct NewTask {
    pub project_id: Uuid,
    pub title: String,
    pub description: String,
    pub status: TaskStatus,
    pub priority: TaskPriority,
    pub labels: Vec<String>,
    pub assignee_user_id: Option<Uuid>,
}

/// A partial update; `None` leaves a field as it is. `assignee_user_id: Some(None)` unassigns.
#[derive(Debug, Clone, Default)]
pub struct TaskPatch {
    pub expected_revision: i64,
    pub title: Option<String>,
    pub description: Option<String>,
    pub status: Option<TaskStatus>,
    pub priority: Option<TaskPriority>,
    pub labels: Option<Vec<String>>,
    pub assignee_user_id: Option<Option<Uuid>>,
}

#[derive(Debug, Clone, Default)]
pub struct TaskFilter {
    pub statuses: Option<Vec<TaskStatus>>,
    pub priorities: Option<Vec<TaskPriority>>,
    pub assignee_user_id: Option<Uuid>,
    pub title_contains: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NewNamed {
    pub parent_id: Uuid,
    pub name: String,
    pub description: String,
}

#[derive(Debug, Clone, Default)]
pub struct ProjectPatch {
    pub expected_revision: i64,
    pub name: Option<String>,
    pub description: Option<String>,
}

fn text(field: &str, value: &str, min: usize, max: usize) -> Result<String> {
    let value = value.trim();
    let len = value.chars().count();
    if len < min || len > max {
        return Err(CommonError::Validation {
            message: format!("`{field}` needs {min} to {max} characters"),
            details: serde_json::json!({ "field": field, "min": min, "max": max }),
        }
        .into());
    }
    Ok(value.to_owned())
}

fn labels(labels: &[String]) -> Result<serde_json::Value> {
    if labels.len() > 20 {
        return Err(CommonError::validation("a task has at most 20 labels").into());
    }
    let mut clean: Vec<String> = Vec::with_capacity(labels.len());
    for label in labels {
        let label = text("labels", label, 1, 50)?;
        if !clean.contains(&label) {
            clean.push(label);
        }
    }
    Ok(serde_json::json!(clean))
}

fn conflict(expected: i64, current: i64) -> ProjectError {
    CommonError::Conflict { expected, current }.into()
}

#[derive(Clone)]
pub struct ProjectService {
    db: Pool,
    reads: Reads,
    paths: Arc<ProjectPaths>,
    broker: Broker,
    settings: SettingsService,
    audit: AuditLog,
    max_page_size: u64,
}

/// What a run of a task did that its task's status follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMilestone {
    Started,
    Succeeded,
}

impl ProjectService {
    pub fn new(store: Store, broker: Broker, settings: SettingsService, audit: AuditLog, max_page_size: u64) -> Self {
        Self { db: store.pool, reads: store.reads, paths: Arc::default(), broker, settings, audit, max_page_size }
    }

    /// Moves a task's status after its run did something, unless its project's settings say
    /// otherwise (`tasks.statusFollowsRuns`): a run that starts puts a task to do (or blocked, or
    /// in review) in progress; one that succeeds puts it in review once every acceptance
    /// criterion is met. Done and cancelled are a person's word and stay. The control plane
    /// itself moves it, for nobody's request.
    pub async fn follow_run(&self, task_id: Uuid, milestone: RunMilestone) -> Result<()> {
        for _ in 0..5 {
            let Some(task) = self.reads.one(task::Entity::find_by_id(task_id)).await? else { return Ok(()) };
            if !self.settings.task_status_follows_runs(task.project_id).await? {
                return Ok(());
            }
            let from = TaskStatus::from_stored(&task.status);
            let to = match (milestone, from) {
                (RunMilestone::Started, TaskStatus::Todo | TaskStatus::Blocked | TaskStatus::InReview) => {
                    TaskStatus::InProgress
                }
                (RunMilestone::Succeeded, TaskStatus::InProgress) if self.criteria_met(task_id).await? => {
                    TaskStatus::InReview
                }
                _ => return Ok(()),
            };
            let moved = task::Entity::update_many()
                .col_expr(task::Column::Status, Expr::value(to.as_str()))
                .col_expr(task::Column::Revision, Expr::value(task.revision + 1))
                .col_expr(task::Column::UpdatedAt, Expr::value(Utc::now()))
                .filter(task::Column::Id.eq(task_id))
                .filter(task::Column::Revision.eq(task.revision))
                .exec(&self.db)
                .await?;
            if moved.rows_affected == 1 {
                tracing::info!(%task_id, from = from.as_str(), to = to.as_str(), ?milestone, "task follows its run");
                return self.announce(task_id).await;
            }
        }
        Err(CommonError::Internal("the task kept changing underneath".into()).into())
    }

    /// Whether every acceptance criterion of a task is met (true when it has none).
    async fn criteria_met(&self, task_id: Uuid) -> Result<bool> {
        let unmet = acceptance_criterion::Entity::find()
            .filter(acceptance_criterion::Column::TaskId.eq(task_id))
            .filter(acceptance_criterion::Column::Met.eq(false))
            .count(&self.db)
            .await?;
        Ok(unmet == 0)
    }

    // ---- workspaces

    pub async fn create_workspace(
        &self,
        actor: &Actor,
        input: NewNamed,
        key: Option<&str>,
    ) -> Result<workspace::Model> {
        actor.authorize(Permission::Administer, &ScopePath::organization(actor.organization_id), "organization")?;
        let name = text("name", &input.name, 1, 200)?;
        let description = text("description", &input.description, 0, 20_000)?;
        let org = actor.organization_id;
        let outcome = idempotency::create_once(&self.db, actor, key, "createWorkspace", &input, async |txn| {
            let now = Utc::now();
            let row = workspace::ActiveModel {
                id: Set(new_id()),
                organization_id: Set(org),
                name: Set(name),
                description: Set(description),
                revision: Set(1),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(txn)
            .await
            .map_err(|e| duplicate_name(e, "workspace"))?;
            let created = Entry::by(actor, AuditAction::WorkspaceCreated)
                .on(AuditTargetKind::Workspace, row.id)
                .at(&ScopePath::workspace(org, row.id))
                .with("name", row.name.as_str());
            self.audit.append(txn, created).await?;
            Ok::<_, ProjectError>(row.id)
        })
        .await?;
        self.workspace(actor, outcome.id()).await
    }

    pub async fn workspace(&self, actor: &Actor, id: Uuid) -> Result<workspace::Model> {
        let ws = self.reads.one(workspace::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("workspace"))?;
        let path = ScopePath::workspace(ws.organization_id, ws.id);
        if actor.role_on(&path).is_none() && !self.sees_project_in(actor, ws.id).await? {
            return Err(CommonError::NotFound("workspace").into());
        }
        Ok(ws)
    }

    /// A member granted only a project sees its workspace too (but none of its other projects).
    async fn sees_project_in(&self, actor: &Actor, workspace_id: Uuid) -> Result<bool> {
        let projects = self.granted_project_ids(actor);
        if projects.is_empty() {
            return Ok(false);
        }
        Ok(self
            .reads
            .one(
                project::Entity::find()
                    .filter(project::Column::WorkspaceId.eq(workspace_id))
                    .filter(project::Column::Id.is_in(projects)),
            )
            .await?
            .is_some())
    }

    fn granted_ids(actor: &Actor, kind: ScopeKind) -> Vec<Uuid> {
        actor.grants.iter().filter(|g| g.scope_kind == kind).map(|g| g.scope_id).collect()
    }

    fn granted_project_ids(&self, actor: &Actor) -> Vec<Uuid> {
        Self::granted_ids(actor, ScopeKind::Project)
    }

    fn has_org_role(actor: &Actor) -> bool {
        actor.role_on(&ScopePath::organization(actor.organization_id)).is_some()
    }

    pub async fn workspaces(&self, actor: &Actor, page: &PageRequest) -> Result<Page<workspace::Model>> {
        let mut select = workspace::Entity::find().filter(workspace::Column::OrganizationId.eq(actor.organization_id));
        if !Self::has_org_role(actor) {
            let mut visible = Self::granted_ids(actor, ScopeKind::Workspace);
            let projects = self.granted_project_ids(actor);
            if !projects.is_empty() {
                visible.extend(
                    self.reads
                        .all(project::Entity::find().filter(project::Column::Id.is_in(projects)))
                        .await?
                        .into_iter()
                        .map(|p| p.workspace_id),
                );
            }
            select = select.filter(workspace::Column::Id.is_in(visible));
        }
        Ok(paginate(&self.reads, select, workspace::Column::Id, page, self.max_page_size).await?)
    }

    // ---- projects

    pub async fn create_project(&self, actor: &Actor, input: NewNamed, key: Option<&str>) -> Result<project::Model> {
        let ws = self.workspace(actor, input.parent_id).await?;
        actor.authorize(Permission::Administer, &ScopePath::workspace(ws.organization_id, ws.id), "workspace")?;
        let name = text("name", &input.name, 1, 200)?;
        let description = text("description", &input.description, 0, 20_000)?;
        let outcome = idempotency::create_once(&self.db, actor, key, "createProject", &input, async |txn| {
            let now = Utc::now();
            let row = project::ActiveModel {
                id: Set(new_id()),
                organization_id: Set(ws.organization_id),
                workspace_id: Set(ws.id),
                name: Set(name),
                description: Set(description),
                revision: Set(1),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(txn)
            .await
            .map_err(|e| duplicate_name(e, "project"))?;
            let created = Entry::by(actor, AuditAction::ProjectCreated)
                .on(AuditTargetKind::Project, row.id)
                .at(&project_path(&row))
                .with("name", row.name.as_str());
            self.audit.append(txn, created).await?;
            Ok::<_, ProjectError>(row.id)
        })
        .await?;
        self.project(actor, outcome.id()).await
    }

    pub async fn project(&self, actor: &Actor, id: Uuid) -> Result<project::Model> {
        let project = self.reads.one(project::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("project"))?;
        self.paths.keep(&project);
        actor.authorize(Permission::Read, &project_path(&project), "project")?;
        Ok(project)
    }

    /// Checks that the caller may read a project, by where it is: from memory when the project
    /// was read before (a project never moves and is never deleted), else from the database.
    async fn authorize_project_read(&self, actor: &Actor, id: Uuid) -> Result<()> {
        match self.paths.get(id) {
            Some(path) => Ok(actor.authorize(Permission::Read, &path, "project")?),
            None => self.project(actor, id).await.map(drop),
        }
    }

    pub async fn projects(
        &self,
        actor: &Actor,
        workspace_id: Uuid,
        page: &PageRequest,
    ) -> Result<Page<project::Model>> {
        let ws = self.workspace(actor, workspace_id).await?;
        let mut select = project::Entity::find().filter(project::Column::WorkspaceId.eq(ws.id));
        if actor.role_on(&ScopePath::workspace(ws.organization_id, ws.id)).is_none() {
            select = select.filter(project::Column::Id.is_in(self.granted_project_ids(actor)));
        }
        Ok(paginate(&self.reads, select, project::Column::Id, page, self.max_page_size).await?)
    }

    pub async fn update_project(&self, actor: &Actor, id: Uuid, patch: ProjectPatch) -> Result<project::Model> {
        let current = self.project(actor, id).await?;
        actor.authorize(Permission::Administer, &project_path(&current), "project")?;
        let mut update = project::Entity::update_many()
            .col_expr(project::Column::Revision, Expr::value(patch.expected_revision + 1))
            .col_expr(project::Column::UpdatedAt, Expr::value(Utc::now()));
        if let Some(name) = &patch.name {
            update = update.col_expr(project::Column::Name, Expr::value(text("name", name, 1, 200)?));
        }
        if let Some(description) = &patch.description {
            update = update
                .col_expr(project::Column::Description, Expr::value(text("description", description, 0, 20_000)?));
        }
        let txn = self.db.begin_write().await?;
        let result = update
            .filter(project::Column::Id.eq(id))
            .filter(project::Column::Revision.eq(patch.expected_revision))
            .exec(&txn)
            .await
            .map_err(|e| duplicate_name(e, "project"))?;
        if result.rows_affected == 0 {
            return Err(conflict(patch.expected_revision, current.revision));
        }
        let changed = [("name", patch.name.is_some()), ("description", patch.description.is_some())];
        let updated = Entry::by(actor, AuditAction::ProjectUpdated)
            .on(AuditTargetKind::Project, id)
            .at(&project_path(&current))
            .with("changed", changed_fields(&changed));
        self.audit.append(&txn, updated).await?;
        txn.commit().await?;
        self.project(actor, id).await
    }

    // ---- tasks

    async fn project_for_write(&self, actor: &Actor, project_id: Uuid) -> Result<project::Model> {
        let project = self.project(actor, project_id).await?;
        actor.authorize(Permission::WriteTasks, &project_path(&project), "project")?;
        Ok(project)
    }

    async fn check_assignee(&self, actor: &Actor, assignee: Option<Uuid>) -> Result<()> {
        if let Some(id) = assignee {
            let found = self
                .reads
                .one(user::Entity::find_by_id(id))
                .await?
                .filter(|u| u.organization_id == actor.organization_id);
            if found.is_none() {
                return Err(CommonError::NotFound("assignee").into());
            }
        }
        Ok(())
    }

    pub async fn create_task(&self, actor: &Actor, input: NewTask, key: Option<&str>) -> Result<task::Model> {
        let project = self.project_for_write(actor, input.project_id).await?;
        let title = text("title", &input.title, 1, 500)?;
        let description = text("description", &input.description, 0, 50_000)?;
        let labels = labels(&input.labels)?;
        self.check_assignee(actor, input.assignee_user_id).await?;
        let outcome = idempotency::create_once(&self.db, actor, key, "createTask", &input, async |txn| {
            let now = Utc::now();
            let row = task::ActiveModel {
                id: Set(new_id()),
                organization_id: Set(project.organization_id),
                project_id: Set(project.id),
                title: Set(title),
                description: Set(description),
                status: Set(input.status.as_str().to_owned()),
                priority: Set(input.priority.as_str().to_owned()),
                labels: Set(labels),
                assignee_user_id: Set(input.assignee_user_id),
                assignee_agent_id: Set(None),
                revision: Set(1),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(txn)
            .await?;
            let created = Entry::by(actor, AuditAction::TaskCreated)
                .on(AuditTargetKind::Task, row.id)
                .at(&project_path(&project))
                .with("status", row.status.as_str());
            self.audit.append(txn, created).await?;
            Ok::<_, ProjectError>(row.id)
        })
        .await?;
        let task = self.task(actor, outcome.id()).await?;
        if let Outcome::Created(_) = outcome {
            self.publish(TaskChange::Created, &task);
        }
        Ok(task)
    }

    fn publish(&self, change: TaskChange, task: &task::Model) {
        self.broker.publish(Topic::ProjectTasks(task.project_id), Event::Task { change, task: task.clone() });
    }

    /// A task and the project it belongs to, if the caller may read them.
    async fn task_with_project(&self, actor: &Actor, id: Uuid) -> Result<(task::Model, project::Model)> {
        let task = self.reads.one(task::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("task"))?;
        if task.organization_id != actor.organization_id {
            return Err(CommonError::NotFound("task").into());
        }
        let project = self.project(actor, task.project_id).await.map_err(|_| CommonError::NotFound("task"))?;
        Ok((task, project))
    }

    pub async fn task(&self, actor: &Actor, id: Uuid) -> Result<task::Model> {
        Ok(self.task_with_project(actor, id).await?.0)
    }

    async fn task_for_write(&self, actor: &Actor, id: Uuid) -> Result<task::Model> {
        Ok(self.task_and_project_for_write(actor, id).await?.0)
    }

    async fn task_and_project_for_write(&self, actor: &Actor, id: Uuid) -> Result<(task::Model, project::Model)> {
        let (task, project) = self.task_with_project(actor, id).await?;
        actor.authorize(Permission::WriteTasks, &project_path(&project), "task")?;
        Ok((task, project))
    }

    pub async fn tasks(
        &self,
        actor: &Actor,
        project_id: Uuid,
        filter: &TaskFilter,
        page: &PageRequest,
    ) -> Result<Page<task::Model>> {
        self.authorize_project_read(actor, project_id).await?;
        let mut select = task::Entity::find().filter(task::Column::ProjectId.eq(project_id));
        if let Some(statuses) = &filter.statuses {
            select = select.filter(task::Column::Status.is_in(statuses.iter().map(|s| s.as_str())));
        }
        if let Some(priorities) = &filter.priorities {
            select = select.filter(task::Column::Priority.is_in(priorities.iter().map(|p| p.as_str())));
        }
        if let Some(assignee) = filter.assignee_user_id {
            select = select.filter(task::Column::AssigneeUserId.eq(assignee));
        }
        if let Some(needle) = filter.title_contains.as_deref().filter(|n| !n.is_empty()) {
            select = select.filter(task::Column::Title.contains(needle));
        }
        Ok(paginate(&self.reads, select, task::Column::Id, page, self.max_page_size).await?)
    }

    pub async fn update_task(&self, actor: &Actor, id: Uuid, patch: TaskPatch) -> Result<task::Model> {
        let (current, project) = self.task_and_project_for_write(actor, id).await?;
        let mut update = task::Entity::update_many()
            .col_expr(task::Column::Revision, Expr::value(patch.expected_revision + 1))
            .col_expr(task::Column::UpdatedAt, Expr::value(Utc::now()));
        if let Some(title) = &patch.title {
            update = update.col_expr(task::Column::Title, Expr::value(text("title", title, 1, 500)?));
        }
        if let Some(description) = &patch.description {
            update =
                update.col_expr(task::Column::Description, Expr::value(text("description", description, 0, 50_000)?));
        }
        if let Some(status) = patch.status {
            update = update.col_expr(task::Column::Status, Expr::value(status.as_str()));
        }
        if let Some(priority) = patch.priority {
            update = update.col_expr(task::Column::Priority, Expr::value(priority.as_str()));
        }
        if let Some(new_labels) = &patch.labels {
            update = update.col_expr(task::Column::Labels, Expr::value(labels(new_labels)?));
        }
        if let Some(assignee) = patch.assignee_user_id {
            self.check_assignee(actor, assignee).await?;
            update = update.col_expr(task::Column::AssigneeUserId, Expr::value(assignee));
        }
        let txn = self.db.begin_write().await?;
        let result = update
            .filter(task::Column::Id.eq(id))
            .filter(task::Column::Revision.eq(patch.expected_revision))
            .exec(&txn)
            .await?;
        if result.rows_affected == 0 {
            return Err(conflict(patch.expected_revision, current.revision));
        }
        let changed = [
            ("title", patch.title.is_some()),
            ("description", patch.description.is_some()),
            ("status", patch.status.is_some()),
            ("priority", patch.priority.is_some()),
            ("labels", patch.labels.is_some()),
            ("assignee", patch.assignee_user_id.is_some()),
        ];
        let mut updated = Entry::by(actor, AuditAction::TaskUpdated)
            .on(AuditTargetKind::Task, id)
            .at(&project_path(&project))
            .with("changed", changed_fields(&changed));
        if let Some(status) = patch.status {
            updated = updated.with("status", status.as_str());
        }
        self.audit.append(&txn, updated).await?;
        txn.commit().await?;
        let task = self.task(actor, id).await?;
        self.publish(TaskChange::Updated, &task);
        Ok(task)
    }

    /// Deletes a task with its criteria and dependency edges.
    pub async fn delete_task(&self, actor: &Actor, id: Uuid, expected_revision: Option<i64>) -> Result<task::Model> {
        let (current, project) = self.task_and_project_for_write(actor, id).await?;
        let mut delete = task::Entity::delete_many().filter(task::Column::Id.eq(id));
        if let Some(expected) = expected_revision {
            delete = delete.filter(task::Column::Revision.eq(expected));
        }
        let txn = self.db.begin_write().await?;
        if delete.exec(&txn).await?.rows_affected == 0 {
            return Err(conflict(expected_revision.unwrap_or(current.revision), current.revision));
        }
        let deleted = Entry::by(actor, AuditAction::TaskDeleted)
            .on(AuditTargetKind::Task, id)
            .at(&project_path(&project))
            .with("title", current.title.as_str());
        self.audit.append(&txn, deleted).await?;
        txn.commit().await?;
        self.publish(TaskChange::Deleted, &current);
        Ok(current)
    }

    /// Bumps a task's revision after a change to something it owns (criteria, dependencies).
    async fn touch(&self, task_id: Uuid) -> Result<()> {
        bump_revision(&self.db, task_id).await?;
        self.announce(task_id).await
    }

    /// Tells subscribers that a task changed, as it is stored now.
    async fn announce(&self, task_id: Uuid) -> Result<()> {
        if let Some(task) = self.reads.one(task::Entity::find_by_id(task_id)).await? {
            self.publish(TaskChange::Updated, &task);
        }
        Ok(())
    }

    // ---- acceptance criteria

    pub async fn add_acceptance_criterion(
        &self,
        actor: &Actor,
        task_id: Uuid,
        description: &str,
    ) -> Result<acceptance_criterion::Model> {
        let task = self.task_for_write(actor, task_id).await?;
        let now = Utc::now();
        let criterion = acceptance_criterion::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(task.organization_id),
            task_id: Set(task.id),
            description: Set(text("description", description, 1, 2_000)?),
            met: Set(false),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&self.db)
        .await?;
        self.touch(task.id).await?;
        Ok(criterion)
    }

    pub async fn acceptance_criterion(&self, actor: &Actor, id: Uuid) -> Result<acceptance_criterion::Model> {
        let criterion = self
            .reads
            .one(acceptance_criterion::Entity::find_by_id(id))
            .await?
            .ok_or(CommonError::NotFound("acceptance criterion"))?;
        self.task(actor, criterion.task_id).await.map_err(|_| CommonError::NotFound("acceptance criterion"))?;
        Ok(criterion)
    }

    pub async fn set_acceptance_criterion_met(
        &self,
        actor: &Actor,
        id: Uuid,
        met: bool,
        expected_revision: Option<i64>,
    ) -> Result<acceptance_criterion::Model> {
        let current = self.acceptance_criterion(actor, id).await?;
        self.task_for_write(actor, current.task_id).await?;
        let expected = expected_revision.unwrap_or(current.revision);
        let result = acceptance_criterion::Entity::update_many()
            .col_expr(acceptance_criterion::Column::Met, Expr::value(met))
            .col_expr(acceptance_criterion::Column::Revision, Expr::value(expected + 1))
            .col_expr(acceptance_criterion::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(acceptance_criterion::Column::Id.eq(id))
            .filter(acceptance_criterion::Column::Revision.eq(expected))
            .exec(&self.db)
            .await?;
        if result.rows_affected == 0 {
            return Err(conflict(expected, current.revision));
        }
        self.touch(current.task_id).await?;
        self.acceptance_criterion(actor, id).await
    }

    /// Criteria of many tasks at once, for a page of tasks.
    pub async fn criteria_of(
        &self,
        actor: &Actor,
        task_ids: &[Uuid],
    ) -> Result<HashMap<Uuid, Vec<acceptance_criterion::Model>>> {
        let rows = self
            .reads
            .all(
                acceptance_criterion::Entity::find()
                    .filter(acceptance_criterion::Column::TaskId.is_in(task_ids.iter().copied()))
                    .filter(acceptance_criterion::Column::OrganizationId.eq(actor.organization_id))
                    .order_by_asc(acceptance_criterion::Column::Id),
            )
            .await?;
        let mut map: HashMap<Uuid, Vec<_>> = HashMap::new();
        for row in rows {
            map.entry(row.task_id).or_default().push(row);
        }
        Ok(map)
    }

    // ---- dependencies

    /// Makes `task_id` depend on `depends_on_id`; both in one project, and never a cycle.
    pub async fn add_task_dependency(&self, actor: &Actor, task_id: Uuid, depends_on_id: Uuid) -> Result<task::Model> {
        let task = self.task_for_write(actor, task_id).await?;
        let prerequisite = self.task(actor, depends_on_id).await?;
        if prerequisite.project_id != task.project_id {
            return Err(CommonError::validation("a task can only depend on a task of the same project").into());
        }
        let txn = self.db.begin_write().await?;
        // Dependency changes of one project are serialized, so two concurrent edges cannot close a
        // cycle between them. Writing the project row first takes its row lock on PostgreSQL and
        // SQLite's write lock before any read, so a concurrent change waits instead of failing.
        project::Entity::update_many()
            .col_expr(project::Column::Id, Expr::col(project::Column::Id))
            .filter(project::Column::Id.eq(task.project_id))
            .exec(&txn)
            .await?;
        if let Some(cycle) = cycle_through(&txn, &task, &prerequisite).await? {
            let titles = task::Entity::find()
                .filter(task::Column::Id.is_in(cycle.iter().copied()))
                .all(&txn)
                .await?
                .into_iter()
                .map(|t| (t.id, t.title))
                .collect::<HashMap<_, _>>();
            return Err(ProjectError::DependencyCycle {
                titles: cycle.iter().map(|id| titles.get(id).cloned().unwrap_or_default()).collect(),
                ids: cycle,
            });
        }
        let inserted = task_dependency::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(task.organization_id),
            task_id: Set(task.id),
            depends_on_task_id: Set(prerequisite.id),
            created_at: Set(Utc::now()),
        }
        .insert(&txn)
        .await;
        match inserted {
            Ok(_) => {
                bump_revision(&txn, task.id).await?;
                txn.commit().await?;
                self.announce(task.id).await?;
            }
            // The edge exists already: adding it again changes nothing.
            Err(e) if is_unique_violation(&e) => txn.rollback().await?,
            Err(e) => return Err(e.into()),
        }
        self.task(actor, task_id).await
    }

    pub async fn remove_task_dependency(
        &self,
        actor: &Actor,
        task_id: Uuid,
        depends_on_id: Uuid,
    ) -> Result<task::Model> {
        let task = self.task_for_write(actor, task_id).await?;
        let removed = task_dependency::Entity::delete_many()
            .filter(task_dependency::Column::TaskId.eq(task.id))
            .filter(task_dependency::Column::DependsOnTaskId.eq(depends_on_id))
            .exec(&self.db)
            .await?;
        if removed.rows_affected == 0 {
            return Err(CommonError::NotFound("dependency").into());
        }
        self.touch(task.id).await?;
        self.task(actor, task_id).await
    }

    /// For many tasks at once: the tasks each depends on (`dependents == false`) or that depend on it.
    pub async fn related_tasks(
        &self,
        actor: &Actor,
        task_ids: &[Uuid],
        dependents: bool,
    ) -> Result<HashMap<Uuid, Vec<task::Model>>> {
        let (key, other) = if dependents {
            (task_dependency::Column::DependsOnTaskId, task_dependency::Column::TaskId)
        } else {
            (task_dependency::Column::TaskId, task_dependency::Column::DependsOnTaskId)
        };
        // One statement: each task at the other end of an edge, with the task it is related to.
        // The task's columns keep their own names, so each row decodes without building aliases.
        let select = task::Entity::find()
            .join_rev(
                JoinType::InnerJoin,
                task_dependency::Entity::belongs_to(task::Entity).from(other).to(task::Column::Id).into(),
            )
            .column_as(key, RELATED_TO)
            .filter(key.is_in(task_ids.iter().copied()))
            .filter(task_dependency::Column::OrganizationId.eq(actor.organization_id))
            // The order of the edge's index: no sort, and each task's related tasks by id.
            .order_by_asc(key)
            .order_by_asc(other);
        let related: Vec<(Uuid, task::Model)> = self.reads.all_keyed(select, RELATED_TO).await?;
        let mut map: HashMap<Uuid, Vec<task::Model>> = HashMap::new();
        for (owner, task) in related {
            map.entry(owner).or_default().push(task);
        }
        Ok(map)
    }

    /// Projects by id for a page that fans out to them; other tenants' ids are skipped.
    /// Of `ids`, the tasks the caller may read (a page of runs showing their tasks, say).
    pub async fn tasks_by_ids(&self, actor: &Actor, ids: &[Uuid]) -> Result<Vec<task::Model>> {
        let tasks = self
            .reads
            .all(
                task::Entity::find()
                    .filter(task::Column::Id.is_in(ids.iter().copied()))
                    .filter(task::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?;
        let projects: Vec<Uuid> = tasks.iter().map(|t| t.project_id).collect();
        let readable: HashSet<Uuid> = self.projects_by_ids(actor, &projects).await?.into_iter().map(|p| p.id).collect();
        Ok(tasks.into_iter().filter(|t| readable.contains(&t.project_id)).collect())
    }

    pub async fn projects_by_ids(&self, actor: &Actor, ids: &[Uuid]) -> Result<Vec<project::Model>> {
        Ok(self
            .reads
            .all(
                project::Entity::find()
                    .filter(project::Column::Id.is_in(ids.iter().copied()))
                    .filter(project::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .into_iter()
            .filter(|p| actor.role_on(&project_path(p)).is_some())
            .collect())
    }
}

/// Where projects are (organization, workspace), by id, for the projects read so far: a project
/// never moves and is never deleted, so what was read stays true.
#[derive(Default)]
struct ProjectPaths {
    paths: std::sync::Mutex<HashMap<Uuid, ScopePath>>,
}

/// Beyond this many projects the memory starts over, so it stays bounded.
const MAX_PROJECT_PATHS: usize = 10_000;

impl ProjectPaths {
    fn paths(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, ScopePath>> {
        self.paths.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn get(&self, id: Uuid) -> Option<ScopePath> {
        self.paths().get(&id).copied()
    }

    fn keep(&self, project: &project::Model) {
        let mut paths = self.paths();
        if paths.len() >= MAX_PROJECT_PATHS {
            paths.clear();
        }
        paths.insert(project.id, project_path(project));
    }
}

/// The names of the fields a patch set, for the audit trail (never their values).
fn changed_fields(fields: &[(&str, bool)]) -> Vec<serde_json::Value> {
    fields.iter().filter(|(_, set)| *set).map(|(name, _)| (*name).into()).collect()
}

pub fn project_path(project: &project::Model) -> ScopePath {
    ScopePath::project(project.organization_id, project.workspace_id, project.id)
}

fn duplicate_name(err: sea_orm::DbErr, what: &str) -> ProjectError {
    if is_unique_violation(&err) {
        CommonError::Validation {
            message: format!("a {what} with this name already exists here"),
            details: serde_json::json!({ "field": "name" }),
        }
        .into()
    } else {
        err.into()
    }
}

/// The cycle that `task → prerequisite` would close, as the path task → … → task.
async fn cycle_through(
    db: &impl ConnectionTrait,
    task: &task::Model,
    prerequisite: &task::Model,
) -> Result<Option<Vec<Uuid>>> {
    if task.id == prerequisite.id {
        return Ok(Some(vec![task.id, task.id]));
    }
    let project_tasks = task::Entity::find()
        .filter(task::Column::ProjectId.eq(task.project_id))
        .all(db)
        .await?
        .into_iter()
        .map(|t| t.id)
        .collect::<Vec<_>>();
    let mut edges: HashMap<Uuid, Vec<Uuid>> = HashMap::new();
    for edge in
        task_dependency::Entity::find().filter(task_dependency::Column::TaskId.is_in(project_tasks)).all(db).await?
    {
        edges.entry(edge.task_id).or_default().push(edge.depends_on_task_id);
    }
    // Breadth-first from the prerequisite along "depends on" edges, remembering the way back.
    let mut came_from: HashMap<Uuid, Uuid> = HashMap::new();
    let mut seen = HashSet::from([prerequisite.id]);
    let mut queue = VecDeque::from([prerequisite.id]);
    while let Some(node) = queue.pop_front() {
        for &next in edges.get(&node).map(Vec::as_slice).unwrap_or_default() {
            if !seen.insert(next) {
                continue;
            }
            came_from.insert(next, node);
            if next == task.id {
                let mut path = vec![task.id];
                let mut at = task.id;
                while let Some(&prev) = came_from.get(&at) {
                    path.push(prev);
                    at = prev;
                }
                path.push(task.id);
                path.reverse();
                return Ok(Some(path));
            }
            queue.push_back(next);
        }
    }
    Ok(None)
}

/// Bumps a task's revision after a change to something it owns (criteria, dependencies).
async fn bump_revision(db: &impl ConnectionTrait, task_id: Uuid) -> Result<()> {
    task::Entity::update_many()
        .col_expr(task::Column::Revision, Expr::col(task::Column::Revision).add(1))
        .col_expr(task::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(task::Column::Id.eq(task_id))
        .exec(db)
        .await?;
    Ok(())
}

/// The column a related task comes with: the task it is related to (see `related_tasks`).
const RELATED_TO: &str = "related_to";
