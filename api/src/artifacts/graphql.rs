//! GraphQL types and thin resolvers for artifacts and their versions: metadata only; the bytes go
//! over HTTP (`POST /v1/artifacts`, `GET` a version's `downloadPath`).

use std::collections::HashMap;

use acc_entity::{artifact, artifact_version};
use async_graphql::connection::Connection;
use async_graphql::dataloader::Loader;
use async_graphql::{Context, Data, ID, Json, Object};
use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::app::Services;
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{BatchLoader, ContextExt, gql_error};
use crate::identity::actor::Actor;
use crate::ids::{NodeKind, decode, gid};

pub struct Artifact(pub artifact::Model);

#[Object]
impl Artifact {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Artifact, self.0.id)
    }
    /// A relative path, as the uploader named it (`reports/summary.md`).
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn project_id(&self) -> ID {
        gid(NodeKind::Project, self.0.project_id)
    }
    /// The task it belongs to; none for the project's own.
    async fn task_id(&self) -> Option<ID> {
        self.0.task_id.map(|id| gid(NodeKind::Task, id))
    }
    /// The newest version.
    async fn latest(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<ArtifactVersion>> {
        Ok(self.versions(ctx).await?.into_iter().next())
    }
    /// Every version, newest first.
    async fn versions(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<ArtifactVersion>> {
        let loader = ctx.data_unchecked::<BatchLoader<ArtifactLoader>>();
        let versions = loader.load_one(VersionsOf(self.0.id)).await?.unwrap_or_default();
        Ok(versions.into_iter().map(ArtifactVersion).collect())
    }
    /// How many versions it has.
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.updated_at
    }
}

pub struct ArtifactVersion(pub artifact_version::Model);

#[Object]
impl ArtifactVersion {
    pub async fn id(&self) -> ID {
        gid(NodeKind::ArtifactVersion, self.0.id)
    }
    async fn artifact_id(&self) -> ID {
        gid(NodeKind::Artifact, self.0.artifact_id)
    }
    async fn number(&self) -> i32 {
        self.0.number
    }
    /// sha256 of the bytes, lowercase hex.
    async fn sha256(&self) -> &str {
        &self.0.sha256
    }
    async fn size_bytes(&self) -> i64 {
        self.0.size_bytes
    }
    /// As the uploader declared it; downloads are always served as attachments.
    async fn media_type(&self) -> &str {
        &self.0.media_type
    }
    /// Where it came from: `{"source": "person", "userId"}` or `{"source": "run", "runId", "attemptId"}`.
    async fn provenance(&self) -> Json<serde_json::Value> {
        Json(self.0.provenance.clone())
    }
    async fn created_by_id(&self) -> Option<ID> {
        self.0.created_by_user_id.map(|id| gid(NodeKind::User, id))
    }
    /// The run whose work it is, when a run's connector uploaded it.
    async fn run_id(&self) -> Option<ID> {
        self.0.run_id.map(|id| gid(NodeKind::TaskRun, id))
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    /// Where its bytes are downloaded, with the bearer token (`GET`).
    async fn download_path(&self) -> String {
        download_path(self.0.id)
    }
}

/// The HTTP path a version's bytes are downloaded from.
pub fn download_path(version_id: Uuid) -> String {
    format!("/v1/artifacts/versions/{}", gid(NodeKind::ArtifactVersion, version_id).0)
}

#[derive(Default)]
pub struct ArtifactQuery;

#[Object]
impl ArtifactQuery {
    /// The artifacts of a project the caller may read, or of one of its tasks, oldest first.
    #[allow(clippy::too_many_arguments)]
    async fn artifacts(
        &self,
        ctx: &Context<'_>,
        project_id: ID,
        task_id: Option<ID>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Artifact>> {
        let project_id = decode(&project_id, NodeKind::Project)?;
        let task_id = task_id.map(|id| decode(&id, NodeKind::Task)).transpose()?;
        let request = page_request(after, before, first, last)?;
        let page =
            ctx.services().artifacts.artifacts(ctx.actor()?, project_id, task_id, &request).await.map_err(gql_error)?;
        Ok(connection(page, |a| a.id, Artifact))
    }

    async fn artifact(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<Artifact> {
        let id = decode(&id, NodeKind::Artifact)?;
        Ok(Artifact(ctx.services().artifacts.artifact(ctx.actor()?, id).await.map_err(gql_error)?))
    }
}

/// The versions of an artifact, for `Artifact.versions` and `Artifact.latest`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionsOf(pub Uuid);

/// The artifacts a run's agent attached, for `TaskRun.artifacts`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AttachedBy(pub Uuid);

/// Batches what a page of artifacts fans out to: one statement for every artifact's versions.
pub struct ArtifactLoader {
    services: Services,
    actor: Actor,
}

impl Loader<VersionsOf> for ArtifactLoader {
    type Value = Vec<artifact_version::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[VersionsOf]) -> Result<HashMap<VersionsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let versions = self.services.artifacts.versions_of(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(versions.into_iter().map(|(id, v)| (VersionsOf(id), v)).collect())
    }
}

impl Loader<AttachedBy> for ArtifactLoader {
    type Value = Vec<artifact::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[AttachedBy]) -> Result<HashMap<AttachedBy, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let attached = self.services.artifacts.of_runs(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(attached.into_iter().map(|(id, a)| (AttachedBy(id), a)).collect())
    }
}

pub fn add_loaders(data: &mut Data, services: &Services, actor: &Actor) {
    data.insert(BatchLoader::new(ArtifactLoader { services: services.clone(), actor: actor.clone() }));
}
