//! GraphQL types and thin resolvers for skills: publisher keys, skills and their versions, reviews
//! and activations. Archives are imported over HTTP (`POST /v1/skills`).

use std::collections::HashMap;

use acc_entity::{run_skill, skill, skill_activation, skill_publisher_key, skill_version};
use async_graphql::connection::Connection;
use async_graphql::dataloader::Loader;
use async_graphql::{Context, Data, Enum, ID, Json, Object, SimpleObject};
use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::app::Services;
use crate::approvals::graphql::{Approval, ApprovalDecision};
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{BatchLoader, ContextExt, Ordered, gql_error};
use crate::identity::actor::Actor;
use crate::identity::graphql::{User, decode_scope, load_user};
use crate::ids::{NodeKind, decode, gid};

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::skill_version::SignatureStatus")]
pub enum SignatureStatus {
    /// Signed by a key the organization trusts.
    Verified,
    Unsigned,
    /// Signed by a key the organization does not know.
    UnknownSigner,
    /// Signed by a key the organization revoked.
    RevokedKey,
    /// The signature does not match the archive (tampered), or cannot be read.
    Invalid,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::skill_version::ReviewState")]
pub enum SkillReviewState {
    /// Not signed by a trusted key: cannot be activated until an administrator approves it.
    Quarantined,
    InReview,
    Approved,
    Rejected,
    /// Withdrawn after approval; its activations ended.
    Revoked,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::skill_activation::ActivationStatus")]
pub enum SkillActivationStatus {
    Active,
    /// Its package has scripts: it waits for an approval another person decides.
    PendingApproval,
    Inactive,
}

pub struct SkillPublisherKey(pub skill_publisher_key::Model);

#[Object]
impl SkillPublisherKey {
    pub async fn id(&self) -> ID {
        gid(NodeKind::SkillPublisherKey, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// minisign's key id (16 hex digits), as `minisign -V` shows it.
    async fn key_id(&self) -> &str {
        &self.0.key_id
    }
    async fn public_key(&self) -> &str {
        &self.0.public_key
    }
    async fn revoked_at(&self) -> Option<DateTime<Utc>> {
        self.0.revoked_at
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

pub struct Skill(pub skill::Model);

#[Object]
impl Skill {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Skill, self.0.id)
    }
    /// The package's `name`.
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn latest_version(&self) -> i32 {
        self.0.latest_version
    }
    /// Every version, newest first.
    async fn versions(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<SkillVersion>> {
        let loader = ctx.data_unchecked::<BatchLoader<SkillLoader>>();
        let versions = loader.load_one(VersionsOf(self.0.id)).await?.unwrap_or_default();
        Ok(versions.into_iter().map(SkillVersion).collect())
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.updated_at
    }
}

/// A file of a package.
#[derive(SimpleObject)]
pub struct SkillFile {
    path: String,
    size: i64,
    sha256: String,
}

pub struct SkillVersion(pub skill_version::Model);

#[Object]
impl SkillVersion {
    pub async fn id(&self) -> ID {
        gid(NodeKind::SkillVersion, self.0.id)
    }
    async fn skill_id(&self) -> ID {
        gid(NodeKind::Skill, self.0.skill_id)
    }
    async fn number(&self) -> i32 {
        self.0.number
    }
    /// `sha256:` over the canonical list of its files (path and each file's sha256): the same
    /// files however packed.
    async fn digest(&self) -> &str {
        &self.0.digest
    }
    /// The sha256 of the archive as imported.
    async fn archive_sha256(&self) -> &str {
        &self.0.archive_sha256
    }
    async fn archive_size(&self) -> i64 {
        self.0.archive_size
    }
    async fn description(&self) -> &str {
        &self.0.description
    }
    async fn license(&self) -> Option<&str> {
        self.0.license.as_deref()
    }
    async fn compatibility(&self) -> Option<&str> {
        self.0.compatibility.as_deref()
    }
    async fn metadata(&self) -> Json<serde_json::Value> {
        Json(self.0.metadata.clone())
    }
    async fn allowed_tools(&self) -> Vec<String> {
        serde_json::from_value(self.0.allowed_tools.clone()).unwrap_or_default()
    }
    /// SKILL.md after its front matter: what the agent reads. Shown as text, never run.
    async fn instructions(&self) -> &str {
        &self.0.instructions
    }
    async fn files(&self) -> Vec<SkillFile> {
        serde_json::from_value::<Vec<FileRow>>(self.0.files.clone())
            .unwrap_or_default()
            .into_iter()
            .map(|f| SkillFile { path: f.path, size: f.size, sha256: f.sha256 })
            .collect()
    }
    /// Whether it has files under `scripts/`: activating it then needs an approval.
    async fn has_scripts(&self) -> bool {
        self.0.has_scripts
    }
    async fn signature_status(&self) -> SignatureStatus {
        self.0.signature_status.into()
    }
    /// The key id the signature names, when it names one.
    async fn signer_key_id(&self) -> Option<&str> {
        self.0.signer_key_id.as_deref()
    }
    async fn review_state(&self) -> SkillReviewState {
        self.0.review_state.into()
    }
    async fn review_reason(&self) -> Option<&str> {
        self.0.review_reason.as_deref()
    }
    async fn reviewed_by(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        match self.0.reviewed_by {
            Some(id) => load_user(ctx, id).await,
            None => Ok(None),
        }
    }
    async fn imported_by(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        match self.0.imported_by {
            Some(id) => load_user(ctx, id).await,
            None => Ok(None),
        }
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

#[derive(serde::Deserialize)]
struct FileRow {
    path: String,
    size: i64,
    sha256: String,
}

pub struct SkillActivation(pub skill_activation::Model);

#[Object]
impl SkillActivation {
    pub async fn id(&self) -> ID {
        gid(NodeKind::SkillActivation, self.0.id)
    }
    async fn version(&self, ctx: &Context<'_>) -> async_graphql::Result<SkillVersion> {
        let skills = &ctx.services().skills;
        skills.version(ctx.actor()?, self.0.skill_version_id).await.map(SkillVersion).map_err(gql_error)
    }
    /// The organization, workspace or project it applies in.
    async fn scope_id(&self) -> ID {
        match (self.0.workspace_id, self.0.project_id) {
            (_, Some(project)) => gid(NodeKind::Project, project),
            (Some(workspace), None) => gid(NodeKind::Workspace, workspace),
            _ => gid(NodeKind::Organization, self.0.scope_id),
        }
    }
    async fn status(&self) -> SkillActivationStatus {
        self.0.status.into()
    }
    async fn activated_by(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        match self.0.activated_by {
            Some(id) => load_user(ctx, id).await,
            None => Ok(None),
        }
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

/// A skill version a run was started with.
pub struct RunSkill(pub run_skill::Model);

#[Object]
impl RunSkill {
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn number(&self) -> i32 {
        self.0.number
    }
    /// The package's digest over its files: what the connector checks before the agent uses it.
    async fn digest(&self) -> &str {
        &self.0.digest
    }
    async fn version_id(&self) -> ID {
        gid(NodeKind::SkillVersion, self.0.skill_version_id)
    }
}

/// An activation, and the approval it waits for when its package has scripts.
#[derive(SimpleObject)]
pub struct ActivateSkillPayload {
    activation: SkillActivation,
    approval: Option<Approval>,
}

#[derive(Default)]
pub struct SkillQuery;

#[Object]
impl SkillQuery {
    /// The organization's skills, oldest first.
    async fn skills(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Skill>> {
        let page = page_request(after, before, first, last)?;
        let rows = ctx.services().skills.skills(ctx.actor()?, &page).await.map_err(gql_error)?;
        Ok(connection(rows, |s| s.id, Skill))
    }

    /// What applies in an organization, workspace or project: its own activations and those of
    /// the scopes above it, for each skill the narrowest scope's, not yet ended.
    async fn skill_activations(&self, ctx: &Context<'_>, scope_id: ID) -> async_graphql::Result<Vec<SkillActivation>> {
        let (kind, id) = decode_scope(&scope_id)?;
        let found = ctx.services().skills.activations(ctx.actor()?, kind, id).await.map_err(gql_error)?;
        Ok(found.into_iter().map(SkillActivation).collect())
    }

    /// The publisher keys the organization trusts (and those it revoked), newest first.
    async fn skill_publisher_keys(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<SkillPublisherKey>> {
        let keys = ctx.services().skills.keys(ctx.actor()?).await.map_err(gql_error)?;
        Ok(keys.into_iter().map(SkillPublisherKey).collect())
    }
}

#[derive(Default)]
pub struct SkillMutation;

#[Object]
impl SkillMutation {
    /// Trusts a publisher's minisign public key (the `.pub` file's text); administrators only.
    async fn trust_skill_publisher_key(
        &self,
        ctx: &Context<'_>,
        name: String,
        public_key: String,
    ) -> async_graphql::Result<SkillPublisherKey> {
        let skills = &ctx.services().skills;
        skills.trust_key(ctx.actor()?, &name, &public_key).await.map(SkillPublisherKey).map_err(gql_error)
    }

    /// Revokes a publisher key: what it signed and was approved for it is quarantined again.
    async fn revoke_skill_publisher_key(
        &self,
        ctx: &Context<'_>,
        key_id: ID,
    ) -> async_graphql::Result<SkillPublisherKey> {
        let id = decode(&key_id, NodeKind::SkillPublisherKey)?;
        ctx.services().skills.revoke_key(ctx.actor()?, id).await.map(SkillPublisherKey).map_err(gql_error)
    }

    /// Asks administrators to review a quarantined version.
    async fn request_skill_review(
        &self,
        ctx: &Context<'_>,
        version_id: ID,
        reason: Option<String>,
    ) -> async_graphql::Result<SkillVersion> {
        let id = decode(&version_id, NodeKind::SkillVersion)?;
        ctx.services().skills.request_review(ctx.actor()?, id, reason).await.map(SkillVersion).map_err(gql_error)
    }

    /// Approves or rejects a quarantined version (or one in review); administrators only.
    /// Approving one no trusted key signed needs a reason.
    async fn review_skill_version(
        &self,
        ctx: &Context<'_>,
        version_id: ID,
        decision: ApprovalDecision,
        reason: Option<String>,
    ) -> async_graphql::Result<SkillVersion> {
        let id = decode(&version_id, NodeKind::SkillVersion)?;
        let skills = &ctx.services().skills;
        skills.review(ctx.actor()?, id, decision.into(), reason).await.map(SkillVersion).map_err(gql_error)
    }

    /// Withdraws an approved version; its activations end.
    async fn revoke_skill_version(
        &self,
        ctx: &Context<'_>,
        version_id: ID,
        reason: Option<String>,
    ) -> async_graphql::Result<SkillVersion> {
        let id = decode(&version_id, NodeKind::SkillVersion)?;
        ctx.services().skills.revoke(ctx.actor()?, id, reason).await.map(SkillVersion).map_err(gql_error)
    }

    /// Activates an approved version in an organization, workspace or project the caller
    /// administers, in place of the skill's other version there. A package with scripts waits for
    /// an approval (`SKILL_ACTIVATION`) another person decides.
    async fn activate_skill(
        &self,
        ctx: &Context<'_>,
        version_id: ID,
        scope_id: ID,
    ) -> async_graphql::Result<ActivateSkillPayload> {
        let id = decode(&version_id, NodeKind::SkillVersion)?;
        let (kind, scope) = decode_scope(&scope_id)?;
        let skills = &ctx.services().skills;
        let (activation, approval) = skills.activate(ctx.actor()?, id, kind, scope).await.map_err(gql_error)?;
        Ok(ActivateSkillPayload { activation: SkillActivation(activation), approval: approval.map(Approval) })
    }

    /// Switches an activation off, or withdraws one waiting for its approval.
    async fn deactivate_skill(&self, ctx: &Context<'_>, activation_id: ID) -> async_graphql::Result<SkillActivation> {
        let id = decode(&activation_id, NodeKind::SkillActivation)?;
        ctx.services().skills.deactivate(ctx.actor()?, id).await.map(SkillActivation).map_err(gql_error)
    }
}

/// The versions of a skill, for `Skill.versions`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionsOf(Uuid);

/// Batches what a page of skills fans out to.
pub struct SkillLoader {
    services: Services,
    actor: Actor,
}

impl Loader<VersionsOf> for SkillLoader {
    type Value = Vec<skill_version::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[VersionsOf]) -> Result<HashMap<VersionsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let found = self.services.skills.versions_of(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(found.into_iter().map(|(id, v)| (VersionsOf(id), v)).collect())
    }
}

pub fn add_loaders(data: &mut Data, services: &Services, actor: &Actor) {
    data.insert(BatchLoader::new(SkillLoader { services: services.clone(), actor: actor.clone() }));
}
