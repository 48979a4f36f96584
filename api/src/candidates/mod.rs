//! Candidates (issue 15; the plugin seed's §5): a change to one scope's composition — its own
//! settings layer and its skill selection — tried side by side before anyone applies it.
//!
//! `propose` freezes the scope's composition as the baseline and the patched one as the candidate,
//! against the settings revision the proposer saw (a stale one is `CONFLICT`); nothing changes in
//! the scope. `prepare` starts two runs of one task on one agent, each with its composition instead
//! of the scope's current one (`RunComposition`: its context reads the candidate's settings, its
//! skills are frozen from the candidate's selection). `compare` records what was observed once both
//! ended — observed runs, not a replay. A person approves or rejects it; `apply` checks that the
//! scope has not drifted from the baseline (settings revision and skill selection) and, in one
//! transaction, writes the settings and switches the skills, with a receipt; applying again returns
//! the same receipt, and a drift applies nothing.

pub mod graphql;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::candidate::{self, CandidateScope, CandidateStatus};
use acc_entity::{acceptance_criterion, artifact, artifact_version, project, task, task_run};
use chrono::Utc;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::approvals::checked_reason;
use crate::audit::{AuditLog, Entry};
use crate::db::{Pool, Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode};
use crate::identity::actor::{Actor, Permission, ScopeKind, ScopePath};
use crate::ids::new_id;
use crate::runs::state::RunStatus;
use crate::runs::{NewRun, RunComposition, RunError, RunReader, RunService};
use crate::settings::{SettingsScope, SettingsService};
use crate::skills::Selected;

/// The most skills one candidate switches on or off.
const MAX_SKILL_CHANGES: usize = 50;
/// The most candidates `candidates` lists, newest first.
const MAX_LISTED: u64 = 50;

#[derive(Debug, thiserror::Error)]
pub enum CandidateError {
    #[error(transparent)]
    Common(#[from] CommonError),
    #[error(transparent)]
    Run(#[from] RunError),
    /// An operation the candidate's status does not allow.
    #[error("the candidate is {status}: {message}")]
    State { status: &'static str, message: &'static str },
    /// The scope changed since the proposal: applying would undo what someone else did.
    #[error("the scope's {what} changed since the candidate was proposed; propose it again")]
    Drift { what: &'static str },
}

impl From<sea_orm::DbErr> for CandidateError {
    fn from(e: sea_orm::DbErr) -> Self {
        CandidateError::Common(e.into())
    }
}

impl DomainError for CandidateError {
    fn code(&self) -> ErrorCode {
        match self {
            CandidateError::Common(e) => e.code(),
            CandidateError::Run(e) => e.code(),
            CandidateError::State { .. } => ErrorCode::InvalidTransition,
            CandidateError::Drift { .. } => ErrorCode::Conflict,
        }
    }

    fn details(&self) -> Value {
        match self {
            CandidateError::Common(e) => e.details(),
            CandidateError::Run(e) => e.details(),
            CandidateError::State { status, .. } => json!({ "status": status }),
            CandidateError::Drift { what } => json!({ "drift": what }),
        }
    }
}

type Result<T, E = CandidateError> = std::result::Result<T, E>;

/// What a candidate changes in its scope.
#[derive(Debug, Clone, Default)]
pub struct CandidatePatch {
    /// A JSON merge patch over the scope's own settings layer.
    pub settings: Value,
    /// Skill versions to switch on there (each replaces its skill's version, if one is on).
    pub activate: Vec<Uuid>,
    /// Skills to switch off there.
    pub deactivate: Vec<Uuid>,
}

/// One side of a candidate: the scope's own settings layer and skill selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Composition {
    pub settings: Value,
    pub skills: Vec<Selected>,
}

#[derive(Clone)]
pub struct CandidateService {
    db: Pool,
    reads: Reads,
    settings: SettingsService,
    runs: RunService,
    run_reader: RunReader,
    audit: AuditLog,
}

impl CandidateService {
    pub fn new(
        store: &Store,
        settings: SettingsService,
        runs: RunService,
        run_reader: RunReader,
        audit: AuditLog,
    ) -> Self {
        Self { db: store.pool.clone(), reads: store.reads.clone(), settings, runs, run_reader, audit }
    }

    /// Proposes `patch` for the scope `kind` `scope_id`, against its settings revision
    /// `expected_revision` (0: it has no settings layer yet); administrators of the scope.
    pub async fn propose(
        &self,
        actor: &Actor,
        kind: ScopeKind,
        scope_id: Uuid,
        expected_revision: i64,
        patch: CandidatePatch,
    ) -> Result<candidate::Model> {
        let path = crate::identity::scope_path(&self.reads, actor, kind, scope_id).await?;
        actor.authorize(Permission::Administer, &path, "scope")?;
        let layer = self.settings.own_layer(scope_id).await.map_err(CandidateError::Common)?;
        let current = layer.as_ref().map_or(0, |l| l.revision);
        if current != expected_revision {
            return Err(CommonError::Conflict { expected: expected_revision, current }.into());
        }
        if patch.activate.len() + patch.deactivate.len() > MAX_SKILL_CHANGES {
            return Err(
                CommonError::validation(format!("a candidate changes at most {MAX_SKILL_CHANGES} skills")).into()
            );
        }
        let settings = layer.map_or_else(|| json!({}), |l| l.settings);
        let baseline =
            Composition { settings, skills: crate::skills::selection(self.db.connection(), scope_id).await? };
        let candidate = patched(&baseline, &patch, &self.reads, actor.organization_id).await?;
        if candidate == baseline {
            return Err(CommonError::validation("the candidate changes nothing").into());
        }
        let now = Utc::now();
        let row = candidate::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(actor.organization_id),
            scope_kind: Set(match kind {
                ScopeKind::Organization => CandidateScope::Organization,
                ScopeKind::Workspace => CandidateScope::Workspace,
                ScopeKind::Project => CandidateScope::Project,
            }),
            scope_id: Set(scope_id),
            status: Set(CandidateStatus::Proposed),
            expected_revision: Set(expected_revision),
            patch: Set(json!({
                "settings": patch.settings,
                "activate": patch.activate,
                "deactivate": patch.deactivate,
            })),
            baseline: Set(json!(baseline)),
            candidate: Set(json!(candidate)),
            task_id: Set(None),
            baseline_run_id: Set(None),
            candidate_run_id: Set(None),
            comparison: Set(None),
            decision_reason: Set(None),
            decided_by: Set(None),
            receipt: Set(None),
            proposed_by: Set(actor.user_id),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        };
        let txn = self.db.begin_write().await?;
        let proposed = row.insert(&*txn).await?;
        let changes = json!({ "settings": patch.settings.as_object().map_or(0, |p| p.len()), "activate": patch.activate.len(), "deactivate": patch.deactivate.len() });
        self.audit
            .append(&*txn, entry(actor, AuditAction::CandidateProposed, &proposed, &path).with("changes", changes))
            .await?;
        txn.commit().await?;
        Ok(proposed)
    }

    /// A candidate the caller may read (members of its scope).
    pub async fn candidate(&self, actor: &Actor, id: Uuid) -> Result<candidate::Model> {
        Ok(self.readable(actor, id).await?.0)
    }

    /// A candidate the caller may read, with where its scope lives.
    async fn readable(&self, actor: &Actor, id: Uuid) -> Result<(candidate::Model, ScopePath)> {
        let found = self
            .reads
            .one(candidate::Entity::find_by_id(id))
            .await?
            .filter(|c| c.organization_id == actor.organization_id)
            .ok_or(CommonError::NotFound("candidate"))?;
        let path = self.path_of(actor, &found).await?;
        actor.authorize(Permission::Read, &path, "candidate").map_err(|_| CommonError::NotFound("candidate"))?;
        Ok((found, path))
    }

    /// The candidates of a scope, newest first.
    pub async fn candidates(&self, actor: &Actor, kind: ScopeKind, scope_id: Uuid) -> Result<Vec<candidate::Model>> {
        let path = crate::identity::scope_path(&self.reads, actor, kind, scope_id).await?;
        actor.authorize(Permission::Read, &path, "scope")?;
        Ok(self
            .reads
            .all(
                candidate::Entity::find()
                    .filter(candidate::Column::ScopeId.eq(scope_id))
                    .order_by_desc(candidate::Column::CreatedAt)
                    .limit(MAX_LISTED),
            )
            .await?)
    }

    /// Starts a baseline run and a candidate run of `task_id` on `agent_id`, each with its side's
    /// composition. The task must be in the candidate's scope.
    pub async fn prepare(&self, actor: &Actor, id: Uuid, task_id: Uuid, agent_id: Uuid) -> Result<candidate::Model> {
        let (found, path) = self.administered(actor, id).await?;
        let task = self
            .reads
            .one(task::Entity::find_by_id(task_id))
            .await?
            .filter(|t| t.organization_id == actor.organization_id)
            .ok_or(CommonError::NotFound("task"))?;
        let project =
            self.reads.one(project::Entity::find_by_id(task.project_id)).await?.ok_or(CommonError::NotFound("task"))?;
        let inside = match found.scope_kind {
            CandidateScope::Workspace => project.workspace_id == found.scope_id,
            CandidateScope::Project => project.id == found.scope_id,
            CandidateScope::Organization => true,
        };
        if !inside {
            return Err(CommonError::validation("the task is not in the candidate's scope").into());
        }
        // Claimed first, so that two prepares cannot both start runs.
        self.advance(&found, CandidateStatus::Proposed, CandidateStatus::Prepared, "it was already prepared").await?;
        let kind = scope_kind(&found);
        let start = async |side: &Value| -> Result<task_run::Model> {
            let side: Composition =
                serde_json::from_value(side.clone()).map_err(|e| CommonError::Internal(e.to_string()))?;
            let new = NewRun {
                task_id,
                agent_id: Some(agent_id),
                required_capabilities: Vec::new(),
                input: json!({}),
                budget: None,
                composition: Some(RunComposition {
                    scope_kind: kind,
                    scope_id: found.scope_id,
                    settings: side.settings,
                    skills: side.skills,
                }),
            };
            Ok(self.runs.start_run(actor, new, None).await?)
        };
        let runs = match start(&found.baseline).await {
            Ok(baseline) => start(&found.candidate).await.map(|candidate| (baseline, candidate)),
            Err(e) => Err(e),
        };
        let (baseline, candidate_run) = match runs {
            Ok(runs) => runs,
            Err(e) => {
                // Nothing to compare: it can be prepared again.
                self.advance(&found, CandidateStatus::Prepared, CandidateStatus::Proposed, "").await?;
                return Err(e);
            }
        };
        let txn = self.db.begin_write().await?;
        candidate::Entity::update_many()
            .col_expr(candidate::Column::TaskId, Expr::value(task_id))
            .col_expr(candidate::Column::BaselineRunId, Expr::value(baseline.id))
            .col_expr(candidate::Column::CandidateRunId, Expr::value(candidate_run.id))
            .filter(candidate::Column::Id.eq(id))
            .exec(&*txn)
            .await?;
        let prepared = entry(actor, AuditAction::CandidatePrepared, &found, &path)
            .with("baseline_run_id", baseline.id.to_string())
            .with("candidate_run_id", candidate_run.id.to_string());
        self.audit.append(&*txn, prepared).await?;
        txn.commit().await?;
        self.candidate(actor, id).await
    }

    /// Records what both runs did, once both ended.
    pub async fn compare(&self, actor: &Actor, id: Uuid) -> Result<candidate::Model> {
        let (found, _) = self.administered(actor, id).await?;
        let state = |message| CandidateError::State { status: status_name(found.status), message };
        if found.status != CandidateStatus::Prepared {
            return Err(state("only a prepared candidate is compared"));
        }
        let (Some(task_id), Some(baseline_id), Some(candidate_id)) =
            (found.task_id, found.baseline_run_id, found.candidate_run_id)
        else {
            return Err(state("its runs are still being started"));
        };
        let baseline = self.run_reader.run(actor, baseline_id).await?;
        let candidate_run = self.run_reader.run(actor, candidate_id).await?;
        let ended = |run: &task_run::Model| RunStatus::from_stored(&run.status).is_terminal();
        if !ended(&baseline) || !ended(&candidate_run) {
            return Err(state("both runs must have ended first"));
        }
        if baseline.task_id != task_id || candidate_run.task_id != task_id {
            return Err(CommonError::Internal("a candidate's runs are of another task".into()).into());
        }
        let usage = self.run_reader.usage_of(actor, &[baseline_id, candidate_id]).await?;
        let criteria = self
            .reads
            .all(acceptance_criterion::Entity::find().filter(acceptance_criterion::Column::TaskId.eq(task_id)))
            .await?;
        let files = self
            .reads
            .all(
                artifact_version::Entity::find()
                    .filter(artifact_version::Column::RunId.is_in([baseline_id, candidate_id])),
            )
            .await?;
        let observed = |run: &task_run::Model| {
            let used = usage.get(&run.id);
            let signal = used.and_then(|u| u.measured.as_ref().or(u.reported.as_ref()));
            json!({
                "runId": crate::ids::GlobalId::new(crate::ids::NodeKind::TaskRun, run.id).encode(),
                "status": RunStatus::from_stored(&run.status).as_str(),
                "wallTimeMs": used.map_or(0, |u| u.wall_time_ms),
                "tokens": signal.map(|s| s.input_tokens + s.output_tokens),
                "costUsd": signal.and_then(|s| s.cost_usd),
                "artifactVersions": files.iter().filter(|f| f.run_id == Some(run.id)).count(),
            })
        };
        let artifact_ids = files.iter().map(|f| f.artifact_id);
        let names: HashMap<Uuid, String> = self
            .reads
            .all(artifact::Entity::find().filter(artifact::Column::Id.is_in(artifact_ids)))
            .await?
            .into_iter()
            .map(|a| (a.id, a.name))
            .collect();
        let comparison = json!({
            "baseline": observed(&baseline),
            "candidate": observed(&candidate_run),
            "files": changed_files(&files, &names, baseline_id, candidate_id),
            "criteriaMet": criteria.iter().filter(|c| c.met).count(),
            "criteriaTotal": criteria.len(),
            "comparedAt": Utc::now(),
        });
        let updated = candidate::Entity::update_many()
            .col_expr(candidate::Column::Comparison, Expr::value(comparison))
            .col_expr(candidate::Column::Status, Expr::value(CandidateStatus::Compared))
            .col_expr(candidate::Column::Revision, Expr::value(found.revision + 1))
            .col_expr(candidate::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(candidate::Column::Id.eq(id))
            .filter(candidate::Column::Revision.eq(found.revision))
            .exec(self.db.connection())
            .await?;
        if updated.rows_affected == 0 {
            return Err(state("it changed meanwhile"));
        }
        self.candidate(actor, id).await
    }

    /// A person's decision on a compared candidate.
    pub async fn decide(
        &self,
        actor: &Actor,
        id: Uuid,
        approve: bool,
        reason: Option<String>,
    ) -> Result<candidate::Model> {
        let (found, path) = self.administered(actor, id).await?;
        let reason = checked_reason(reason)?;
        let to = if approve { CandidateStatus::Approved } else { CandidateStatus::Rejected };
        let recorded = entry(actor, AuditAction::CandidateDecided, &found, &path)
            .with("approved", approve)
            .with("reason", reason.clone());
        let txn = self.db.begin_write().await?;
        let decided = candidate::Entity::update_many()
            .col_expr(candidate::Column::Status, Expr::value(to))
            .col_expr(candidate::Column::DecisionReason, Expr::value(reason))
            .col_expr(candidate::Column::DecidedBy, Expr::value(actor.user_id))
            .col_expr(candidate::Column::Revision, Expr::value(found.revision + 1))
            .col_expr(candidate::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(candidate::Column::Id.eq(id))
            .filter(candidate::Column::Status.eq(CandidateStatus::Compared))
            .exec(&*txn)
            .await?;
        if decided.rows_affected == 0 {
            return Err(CandidateError::State {
                status: status_name(found.status),
                message: "only a compared candidate is decided",
            });
        }
        self.audit.append(&*txn, recorded).await?;
        txn.commit().await?;
        self.candidate(actor, id).await
    }

    /// Applies an approved candidate: the settings and the skill selection in one transaction, if
    /// the scope still has the baseline's; a receipt says what changed. Applying an applied
    /// candidate again returns it as it is.
    pub async fn apply(&self, actor: &Actor, id: Uuid) -> Result<candidate::Model> {
        let (found, path) = self.administered(actor, id).await?;
        match found.status {
            CandidateStatus::Applied => return Ok(found),
            CandidateStatus::Approved => {}
            status => {
                return Err(CandidateError::State {
                    status: status_name(status),
                    message: "only an approved candidate is applied",
                });
            }
        }
        let parse = |side: &Value| -> Result<Composition> {
            serde_json::from_value(side.clone()).map_err(|e| CommonError::Internal(e.to_string()).into())
        };
        let (baseline, candidate_side) = (parse(&found.baseline)?, parse(&found.candidate)?);
        let txn = self.db.begin_write().await?;
        if crate::settings::layer_revision(&*txn, found.scope_id).await? != found.expected_revision {
            return Err(CandidateError::Drift { what: "settings" });
        }
        if crate::skills::selection(&*txn, found.scope_id).await? != baseline.skills {
            return Err(CandidateError::Drift { what: "skill selection" });
        }
        let settings_patch = found.patch.get("settings").cloned().unwrap_or_else(|| json!({}));
        let settings_revision = if settings_patch.as_object().is_some_and(|p| !p.is_empty()) {
            let scope = match scope_kind(&found) {
                ScopeKind::Organization => SettingsScope::Organization,
                ScopeKind::Workspace => SettingsScope::Workspace,
                ScopeKind::Project => SettingsScope::Project,
            };
            let written = crate::settings::write_layer(
                &*txn,
                found.organization_id,
                scope,
                found.scope_id,
                &settings_patch,
                found.expected_revision,
            )
            .await
            .map_err(|e| match e {
                CommonError::Conflict { .. } => CandidateError::Drift { what: "settings" },
                e => e.into(),
            })?;
            written.revision
        } else {
            found.expected_revision
        };
        crate::skills::set_selection(&*txn, &path, found.scope_id, &candidate_side.skills, actor.user_id).await?;
        let receipt = json!({
            "appliedAt": Utc::now(),
            "appliedBy": crate::ids::GlobalId::new(crate::ids::NodeKind::User, actor.user_id).encode(),
            "settingsRevision": settings_revision,
            "settings": candidate_side.settings,
            "skills": candidate_side.skills,
        });
        let applied = candidate::Entity::update_many()
            .col_expr(candidate::Column::Receipt, Expr::value(receipt))
            .col_expr(candidate::Column::Status, Expr::value(CandidateStatus::Applied))
            .col_expr(candidate::Column::Revision, Expr::value(found.revision + 1))
            .col_expr(candidate::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(candidate::Column::Id.eq(id))
            .filter(candidate::Column::Revision.eq(found.revision))
            .exec(&*txn)
            .await?;
        if applied.rows_affected == 0 {
            // Someone else applied or changed it first: nothing of this transaction stands.
            drop(txn);
            return self.candidate(actor, id).await;
        }
        let applied =
            entry(actor, AuditAction::CandidateApplied, &found, &path).with("settings_revision", settings_revision);
        self.audit.append(&*txn, applied).await?;
        txn.commit().await?;
        self.candidate(actor, id).await
    }

    /// A candidate whose scope the caller administers.
    async fn administered(&self, actor: &Actor, id: Uuid) -> Result<(candidate::Model, ScopePath)> {
        let (found, path) = self.readable(actor, id).await?;
        actor.authorize(Permission::Administer, &path, "candidate")?;
        Ok((found, path))
    }

    async fn path_of(&self, actor: &Actor, found: &candidate::Model) -> Result<ScopePath> {
        Ok(crate::identity::scope_path(&self.reads, actor, scope_kind(found), found.scope_id).await?)
    }

    /// Moves the candidate from `from` to `to`, if it is still in `from`.
    async fn advance(
        &self,
        found: &candidate::Model,
        from: CandidateStatus,
        to: CandidateStatus,
        refused: &'static str,
    ) -> Result<()> {
        let moved = candidate::Entity::update_many()
            .col_expr(candidate::Column::Status, Expr::value(to))
            .col_expr(candidate::Column::Revision, Expr::col(candidate::Column::Revision).add(1))
            .col_expr(candidate::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(candidate::Column::Id.eq(found.id))
            .filter(candidate::Column::Status.eq(from))
            .exec(self.db.connection())
            .await?;
        if moved.rows_affected == 0 {
            return Err(CandidateError::State { status: status_name(found.status), message: refused });
        }
        Ok(())
    }
}

/// The baseline with `patch` applied: the settings merged and checked, the skills switched.
async fn patched(
    baseline: &Composition,
    patch: &CandidatePatch,
    reads: &Reads,
    organization_id: Uuid,
) -> Result<Composition> {
    let settings = crate::settings::patched(&baseline.settings, &patch.settings)?;
    let activated = crate::skills::selectable(reads, organization_id, &patch.activate).await?;
    let mut skills: Vec<Selected> = baseline.skills.clone();
    for (index, skill_id) in patch.deactivate.iter().enumerate() {
        if !skills.iter().any(|s| s.skill_id == *skill_id) || activated.iter().any(|a| a.skill_id == *skill_id) {
            return Err(CommonError::Validation {
                message: "only a skill switched on in this scope, and not switched on again, is switched off".into(),
                details: json!({ "argument": "deactivateSkillIds", "index": index }),
            }
            .into());
        }
        skills.retain(|s| s.skill_id != *skill_id);
    }
    for (index, selected) in activated.iter().enumerate() {
        if activated[..index].iter().any(|a| a.skill_id == selected.skill_id) {
            return Err(CommonError::validation("a candidate switches on one version per skill").into());
        }
    }
    for selected in activated {
        skills.retain(|s| s.skill_id != selected.skill_id);
        skills.push(selected);
    }
    skills.sort_by_key(|s| s.skill_id);
    Ok(Composition { settings, skills })
}

fn scope_kind(found: &candidate::Model) -> ScopeKind {
    match found.scope_kind {
        CandidateScope::Organization => ScopeKind::Organization,
        CandidateScope::Workspace => ScopeKind::Workspace,
        CandidateScope::Project => ScopeKind::Project,
    }
}

fn status_name(status: CandidateStatus) -> &'static str {
    match status {
        CandidateStatus::Proposed => "PROPOSED",
        CandidateStatus::Prepared => "PREPARED",
        CandidateStatus::Compared => "COMPARED",
        CandidateStatus::Approved => "APPROVED",
        CandidateStatus::Rejected => "REJECTED",
        CandidateStatus::Applied => "APPLIED",
    }
}

/// The files the two runs attached, by name: each side's last version of it (digest and size)
/// and how they compare: `same` bytes, bytes that `differ`, or attached by one run `only`.
fn changed_files(
    files: &[artifact_version::Model],
    names: &HashMap<Uuid, String>,
    baseline: Uuid,
    candidate: Uuid,
) -> serde_json::Value {
    let last = |run: Uuid| {
        let mut by_artifact: BTreeMap<&str, &artifact_version::Model> = BTreeMap::new();
        for file in files.iter().filter(|f| f.run_id == Some(run)) {
            let Some(name) = names.get(&file.artifact_id) else { continue };
            let kept = by_artifact.entry(name.as_str()).or_insert(file);
            if file.number > kept.number {
                *kept = file;
            }
        }
        by_artifact
    };
    let (before, after) = (last(baseline), last(candidate));
    let side = |file: Option<&&artifact_version::Model>| {
        file.map(|f| json!({ "sha256": f.sha256, "sizeBytes": f.size_bytes }))
    };
    let every: BTreeSet<&str> = before.keys().chain(after.keys()).copied().collect();
    let compared: Vec<serde_json::Value> = every
        .into_iter()
        .map(|name| {
            let (b, c) = (before.get(name), after.get(name));
            let change = match (b, c) {
                (Some(b), Some(c)) if b.sha256 == c.sha256 => "same",
                (Some(_), Some(_)) => "differs",
                (Some(_), None) => "only_baseline",
                _ => "only_candidate",
            };
            json!({ "name": name, "baseline": side(b), "candidate": side(c), "change": change })
        })
        .collect();
    json!(compared)
}

/// The trail's record of what `actor` did to a candidate of the scope at `path`.
fn entry(actor: &Actor, action: AuditAction, candidate: &candidate::Model, path: &ScopePath) -> Entry {
    Entry::by(actor, action).on(AuditTargetKind::Candidate, candidate.id).at(path)
}
