//! Candidates in GraphQL: `candidates(scopeId)`, `node(id)`, and the mutations that take one from
//! a proposal to its application.

use acc_entity::candidate;
use async_graphql::{Context, Enum, ID, InputObject, Json, Object};
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{CandidatePatch, Composition};
use crate::approvals::graphql::ApprovalDecision;
use crate::graphql::{ContextExt, gql_error};
use crate::identity::actor::ScopeKind;
use crate::identity::graphql::decode_scope;
use crate::ids::{NodeKind, decode, gid};
use crate::projects::graphql::Task;
use crate::runs::graphql::TaskRun;
use crate::skills::graphql::SkillVersion;

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::candidate::CandidateStatus")]
pub enum CandidateStatus {
    Proposed,
    Prepared,
    Compared,
    Approved,
    Rejected,
    Applied,
}

/// A change to one scope's settings and skill selection, tried on a task beside the scope's
/// current composition before a person approves it and it is applied.
pub struct Candidate(pub candidate::Model);

#[Object]
impl Candidate {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Candidate, self.0.id)
    }
    /// The organization, workspace or project whose composition it changes.
    async fn scope_id(&self) -> ID {
        let kind = match super::scope_kind(&self.0) {
            ScopeKind::Organization => NodeKind::Organization,
            ScopeKind::Workspace => NodeKind::Workspace,
            ScopeKind::Project => NodeKind::Project,
        };
        gid(kind, self.0.scope_id)
    }
    async fn status(&self) -> CandidateStatus {
        self.0.status.into()
    }
    /// The scope's settings revision it was proposed against; applying needs it unchanged.
    async fn expected_revision(&self) -> i64 {
        self.0.expected_revision
    }
    /// The JSON merge patch over the scope's own settings.
    async fn settings_patch(&self) -> Json<serde_json::Value> {
        Json(self.0.patch.get("settings").cloned().unwrap_or_default())
    }
    /// The scope's composition when it was proposed.
    async fn baseline(&self) -> async_graphql::Result<CandidateComposition> {
        composition(&self.0.baseline)
    }
    /// The composition it proposes.
    async fn candidate(&self) -> async_graphql::Result<CandidateComposition> {
        composition(&self.0.candidate)
    }
    /// The task both runs worked on, once prepared.
    async fn task(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Task>> {
        let Some(id) = self.0.task_id else { return Ok(None) };
        ctx.services().projects.task(ctx.actor()?, id).await.map(|t| Some(Task(t))).map_err(gql_error)
    }
    /// The run with the baseline's composition.
    async fn baseline_run(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<TaskRun>> {
        run(ctx, self.0.baseline_run_id).await
    }
    /// The run with the candidate's composition.
    async fn candidate_run(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<TaskRun>> {
        run(ctx, self.0.candidate_run_id).await
    }
    /// What was observed of both runs once they ended: for each its status, wall time, tokens,
    /// cost and artifact versions; and the task's acceptance criteria met.
    async fn comparison(&self) -> Option<Json<serde_json::Value>> {
        self.0.comparison.clone().map(Json)
    }
    async fn decision_reason(&self) -> Option<&str> {
        self.0.decision_reason.as_deref()
    }
    /// What applying it changed, and when.
    async fn receipt(&self) -> Option<Json<serde_json::Value>> {
        self.0.receipt.clone().map(Json)
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.updated_at
    }
}

async fn run(ctx: &Context<'_>, id: Option<Uuid>) -> async_graphql::Result<Option<TaskRun>> {
    let Some(id) = id else { return Ok(None) };
    ctx.services().run_reader.run(ctx.actor()?, id).await.map(|r| Some(TaskRun(r))).map_err(gql_error)
}

fn composition(side: &serde_json::Value) -> async_graphql::Result<CandidateComposition> {
    serde_json::from_value(side.clone()).map(CandidateComposition).map_err(|e| async_graphql::Error::new(e.to_string()))
}

/// One side of a candidate: a scope's own settings layer and skill selection.
pub struct CandidateComposition(Composition);

#[Object]
impl CandidateComposition {
    /// The scope's own settings layer (not the effective settings).
    async fn settings(&self) -> Json<serde_json::Value> {
        Json(self.0.settings.clone())
    }
    /// The skill versions switched on in the scope itself.
    async fn skills(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<SkillVersion>> {
        let ids: Vec<Uuid> = self.0.skills.iter().map(|s| s.version_id).collect();
        let versions = ctx.services().skills.versions_by_id(ctx.actor()?, &ids).await.map_err(gql_error)?;
        Ok(versions.into_iter().map(SkillVersion).collect())
    }
}

/// What a candidate changes in its scope.
#[derive(InputObject)]
pub struct CandidatePatchInput {
    /// A JSON merge patch over the scope's own settings (`{}`: none).
    #[graphql(default_with = "Json(serde_json::json!({}))")]
    settings: Json<serde_json::Value>,
    /// Approved skill versions without scripts to switch on in the scope.
    #[graphql(default)]
    activate_skill_version_ids: Vec<ID>,
    /// Skills switched on in the scope to switch off.
    #[graphql(default)]
    deactivate_skill_ids: Vec<ID>,
}

#[derive(Default)]
pub struct CandidateQuery;

#[Object]
impl CandidateQuery {
    /// A scope's candidates, newest first (the latest 50).
    async fn candidates(&self, ctx: &Context<'_>, scope_id: ID) -> async_graphql::Result<Vec<Candidate>> {
        let (kind, id) = decode_scope(&scope_id)?;
        let listed = ctx.services().candidates.candidates(ctx.actor()?, kind, id).await.map_err(gql_error)?;
        Ok(listed.into_iter().map(Candidate).collect())
    }
}

#[derive(Default)]
pub struct CandidateMutation;

#[Object]
impl CandidateMutation {
    /// Proposes a change to a scope's settings and skill selection, against the scope's settings
    /// revision the caller saw (`CONFLICT` when stale); administrators of the scope. Nothing
    /// changes in the scope.
    async fn propose_candidate(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
        expected_revision: i64,
        patch: CandidatePatchInput,
    ) -> async_graphql::Result<Candidate> {
        let (kind, id) = decode_scope(&scope_id)?;
        let patch = CandidatePatch {
            settings: patch.settings.0,
            activate: patch
                .activate_skill_version_ids
                .iter()
                .map(|v| decode(v, NodeKind::SkillVersion))
                .collect::<async_graphql::Result<_>>()?,
            deactivate: patch
                .deactivate_skill_ids
                .iter()
                .map(|s| decode(s, NodeKind::Skill))
                .collect::<async_graphql::Result<_>>()?,
        };
        let candidates = &ctx.services().candidates;
        candidates.propose(ctx.actor()?, kind, id, expected_revision, patch).await.map(Candidate).map_err(gql_error)
    }

    /// Starts a baseline run and a candidate run of a task of the scope on one agent, each with its
    /// composition.
    async fn prepare_candidate(
        &self,
        ctx: &Context<'_>,
        candidate_id: ID,
        task_id: ID,
        agent_id: ID,
    ) -> async_graphql::Result<Candidate> {
        let id = decode(&candidate_id, NodeKind::Candidate)?;
        let task = decode(&task_id, NodeKind::Task)?;
        let agent = decode(&agent_id, NodeKind::Agent)?;
        ctx.services().candidates.prepare(ctx.actor()?, id, task, agent).await.map(Candidate).map_err(gql_error)
    }

    /// Records what both runs did, once both ended.
    async fn compare_candidate(&self, ctx: &Context<'_>, candidate_id: ID) -> async_graphql::Result<Candidate> {
        let id = decode(&candidate_id, NodeKind::Candidate)?;
        ctx.services().candidates.compare(ctx.actor()?, id).await.map(Candidate).map_err(gql_error)
    }

    /// A person's decision on a compared candidate.
    async fn decide_candidate(
        &self,
        ctx: &Context<'_>,
        candidate_id: ID,
        decision: ApprovalDecision,
        reason: Option<String>,
    ) -> async_graphql::Result<Candidate> {
        let id = decode(&candidate_id, NodeKind::Candidate)?;
        let approve = decision == ApprovalDecision::Approve;
        ctx.services().candidates.decide(ctx.actor()?, id, approve, reason).await.map(Candidate).map_err(gql_error)
    }

    /// Applies an approved candidate, if its scope has not changed since it was proposed
    /// (`CONFLICT`, nothing applied); again, the same receipt.
    async fn apply_candidate(&self, ctx: &Context<'_>, candidate_id: ID) -> async_graphql::Result<Candidate> {
        let id = decode(&candidate_id, NodeKind::Candidate)?;
        ctx.services().candidates.apply(ctx.actor()?, id).await.map(Candidate).map_err(gql_error)
    }
}
