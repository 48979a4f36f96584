//! Artifacts (SPEC §2): named files of a project or one of its tasks, each with immutable versions
//! whose bytes live in the artifact store under their sha256 ([`store`]). People upload and
//! download them over HTTP with their bearer token (http/artifacts.rs); GraphQL lists them and
//! their versions as metadata. Whoever may read the project reads its artifacts; members and above
//! add versions.

pub mod graphql;
mod store;

use std::collections::HashMap;

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{artifact, artifact_version, project, task};
use bytes::Bytes;
use chrono::Utc;
use futures_util::Stream;
use futures_util::stream::BoxStream;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder, QuerySelect, Set};
use uuid::Uuid;

use crate::audit::{AuditActor, AuditLog, Entry};
use crate::db::{Pool, Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::identity::actor::{Actor, Permission, ScopePath};
use crate::ids::new_id;
use crate::pagination::{Page, PageRequest, paginate};
use crate::provenance::Author;
use crate::runs::ActingRun;

pub use store::{ArtifactStore, StoreError, StoreLocation, Stored};

/// The longest name, and the longest part of one between slashes.
const MAX_NAME_BYTES: usize = 1024;
const MAX_SEGMENT_BYTES: usize = 255;
const MAX_MEDIA_TYPE_BYTES: usize = 127;
const DEFAULT_MEDIA_TYPE: &str = "application/octet-stream";

#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    #[error(transparent)]
    Common(#[from] CommonError),
    /// The upload went past `artifacts.max_upload_bytes`; nothing of it was kept.
    #[error("an artifact is at most {0} bytes")]
    TooLarge(u64),
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for ArtifactError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::TooLarge(max) => ArtifactError::TooLarge(max),
            other => ArtifactError::Store(other),
        }
    }
}

impl From<sea_orm::DbErr> for ArtifactError {
    fn from(e: sea_orm::DbErr) -> Self {
        ArtifactError::Common(e.into())
    }
}

impl DomainError for ArtifactError {
    fn code(&self) -> ErrorCode {
        match self {
            ArtifactError::Common(e) => e.code(),
            ArtifactError::TooLarge(_) => ErrorCode::Validation,
            ArtifactError::Store(_) => ErrorCode::Internal,
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            ArtifactError::Common(e) => e.details(),
            ArtifactError::TooLarge(max) => serde_json::json!({ "maxBytes": max }),
            ArtifactError::Store(_) => serde_json::Value::Null,
        }
    }
}

type Result<T, E = ArtifactError> = std::result::Result<T, E>;

/// Where an upload goes and what it is, as the caller named it.
#[derive(Debug, Clone)]
pub struct Upload {
    pub project_id: Uuid,
    /// The task the artifact belongs to; `None` for the project's own.
    pub task_id: Option<Uuid>,
    pub name: String,
    /// As the uploader says (`Content-Type`); `application/octet-stream` when absent.
    pub media_type: Option<String>,
}

/// An artifact with one of its versions.
#[derive(Debug, Clone)]
pub struct ArtifactAt {
    pub artifact: artifact::Model,
    pub version: artifact_version::Model,
}

#[derive(Clone)]
pub struct ArtifactService {
    db: Pool,
    reads: Reads,
    bytes: ArtifactStore,
    audit: AuditLog,
    max_upload_bytes: u64,
    max_page_size: u64,
}

impl ArtifactService {
    pub fn new(store: Store, bytes: ArtifactStore, audit: AuditLog, max_upload_bytes: u64, max_page_size: u64) -> Self {
        Self { db: store.pool, reads: store.reads, bytes, audit, max_upload_bytes, max_page_size }
    }

    /// Stores `body` as the next version of the artifact named `upload.name` (made on its first
    /// version). Checked before a byte is read: the name, the media type, and that the caller
    /// may write to the project (members and above) and the task is the project's.
    pub async fn upload<E: std::fmt::Display>(
        &self,
        actor: &Actor,
        upload: Upload,
        body: impl Stream<Item = Result<Bytes, E>>,
    ) -> Result<ArtifactAt> {
        let name = checked_name(&upload.name)?;
        let media_type = checked_media_type(upload.media_type.as_deref())?;
        let project = self
            .reads
            .one(
                project::Entity::find_by_id(upload.project_id)
                    .filter(project::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .ok_or(CommonError::NotFound("project"))?;
        let path = ScopePath::project(project.organization_id, project.workspace_id, project.id);
        actor.authorize(Permission::WriteTasks, &path, "project")?;
        if let Some(task_id) = upload.task_id {
            self.reads
                .one(task::Entity::find_by_id(task_id).filter(task::Column::ProjectId.eq(project.id)))
                .await?
                .ok_or(CommonError::NotFound("task"))?;
        }
        let place = Place { project: &project, task_id: upload.task_id, name: &name };
        self.store(&place, (Author::Person(actor.user_id), actor.into()), &media_type, body).await
    }

    /// Stores `body` as the next version of the artifact `name` of the run's task: a file the
    /// run's agent attached, uploaded by its connector. `acting` is the proof the connector acts
    /// for the run.
    pub async fn upload_by_run<E: std::fmt::Display>(
        &self,
        acting: &ActingRun,
        name: &str,
        media_type: Option<&str>,
        body: impl Stream<Item = Result<Bytes, E>>,
    ) -> Result<ArtifactAt> {
        let name = checked_name(name)?;
        let media_type = checked_media_type(media_type)?;
        let place = Place { project: &acting.project, task_id: Some(acting.run.task_id), name: &name };
        let author = Author::Run { run_id: acting.run.id, attempt_id: acting.attempt_id };
        self.store(&place, (author, acting.into()), &media_type, body).await
    }

    /// The bytes into the store, then their version into the database.
    async fn store<E: std::fmt::Display>(
        &self,
        place: &Place<'_>,
        author: (Author, AuditActor),
        media_type: &str,
        body: impl Stream<Item = Result<Bytes, E>>,
    ) -> Result<ArtifactAt> {
        let stored = self.bytes.put(place.project.organization_id, body, self.max_upload_bytes).await?;
        match self.record(place, &stored, media_type, author).await {
            // Two first uploads of one name at once: the other made the artifact; this is its next version.
            Err(ArtifactError::Common(CommonError::Database(e))) if is_unique_violation(&e) => {
                self.record(place, &stored, media_type, author).await
            }
            other => other,
        }
    }

    /// Records stored bytes as the next version of the artifact at `place`.
    async fn record(
        &self,
        place: &Place<'_>,
        stored: &Stored,
        media_type: &str,
        (author, by): (Author, AuditActor),
    ) -> Result<ArtifactAt> {
        let now = Utc::now();
        let scope_id = place.task_id.unwrap_or(place.project.id);
        let txn = self.db.begin_write().await?;
        let existing = artifact::Entity::find()
            .filter(artifact::Column::ScopeId.eq(scope_id))
            .filter(artifact::Column::Name.eq(place.name))
            .lock_exclusive()
            .one(&txn)
            .await?;
        let artifact = match existing {
            Some(artifact) => artifact,
            None => {
                artifact::ActiveModel {
                    id: Set(new_id()),
                    organization_id: Set(place.project.organization_id),
                    workspace_id: Set(place.project.workspace_id),
                    project_id: Set(place.project.id),
                    task_id: Set(place.task_id),
                    scope_id: Set(scope_id),
                    name: Set(place.name.to_owned()),
                    latest_version_id: Set(None),
                    revision: Set(0),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&txn)
                .await?
            }
        };
        let version = artifact_version::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(artifact.organization_id),
            artifact_id: Set(artifact.id),
            number: Set(artifact.revision as i32 + 1),
            sha256: Set(stored.sha256.clone()),
            size_bytes: Set(stored.size as i64),
            media_type: Set(media_type.to_owned()),
            provenance: Set(author.provenance()),
            created_by_user_id: Set(author.user_id()),
            run_id: Set(author.run_id()),
            created_at: Set(now),
        }
        .insert(&txn)
        .await?;
        let revision = artifact.revision + 1;
        let mut active = artifact.into_active_model();
        active.latest_version_id = Set(Some(version.id));
        active.revision = Set(revision);
        active.updated_at = Set(now);
        let artifact = active.update(&txn).await?;
        let uploaded = Entry::new(artifact.organization_id, by, AuditAction::ArtifactUploaded)
            .on(AuditTargetKind::Artifact, artifact.id)
            .at(&ScopePath::project(artifact.organization_id, artifact.workspace_id, artifact.project_id))
            .with("name", artifact.name.as_str())
            .with("version", version.number)
            .with("sha256", version.sha256.as_str())
            .with("size_bytes", version.size_bytes);
        self.audit.append(&txn, uploaded).await?;
        txn.commit().await?;
        Ok(ArtifactAt { artifact, version })
    }

    /// The bytes of a version read through [`Self::version_at`], or those of `range` in them, as
    /// a stream.
    pub async fn bytes(
        &self,
        version: &artifact_version::Model,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<BoxStream<'static, Result<Bytes, object_store::Error>>> {
        self.stored_bytes(version.organization_id, &version.sha256, range).await
    }

    /// Puts `body` in the organization's store within the upload limit, for a file another domain
    /// keeps (a wiki page's attachment): its digest and size, to record.
    pub async fn store_bytes<E: std::fmt::Display>(
        &self,
        organization_id: Uuid,
        body: impl Stream<Item = Result<Bytes, E>>,
    ) -> Result<Stored> {
        Ok(self.bytes.put(organization_id, body, self.max_upload_bytes).await?)
    }

    /// The organization's stored bytes with this digest, or those of `range` in them: for a file
    /// whose reader the domain keeping it has checked.
    pub async fn stored_bytes(
        &self,
        organization_id: Uuid,
        sha256: &str,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<BoxStream<'static, Result<Bytes, object_store::Error>>> {
        Ok(self.bytes.get(organization_id, sha256, range).await?)
    }

    /// An artifact of a project the caller may read.
    pub async fn artifact(&self, actor: &Actor, id: Uuid) -> Result<artifact::Model> {
        let artifact = self
            .reads
            .one(artifact::Entity::find_by_id(id).filter(artifact::Column::OrganizationId.eq(actor.organization_id)))
            .await?
            .ok_or(CommonError::NotFound("artifact"))?;
        readable(actor, &artifact, "artifact")?;
        Ok(artifact)
    }

    /// A version of an artifact the caller may read.
    pub async fn version(&self, actor: &Actor, id: Uuid) -> Result<artifact_version::Model> {
        Ok(self.version_at(actor, id).await?.version)
    }

    /// A version the caller may read, with its artifact.
    pub async fn version_at(&self, actor: &Actor, id: Uuid) -> Result<ArtifactAt> {
        let not_found = || CommonError::NotFound("artifact version");
        let version = self
            .reads
            .one(
                artifact_version::Entity::find_by_id(id)
                    .filter(artifact_version::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .ok_or_else(not_found)?;
        let artifact =
            self.reads.one(artifact::Entity::find_by_id(version.artifact_id)).await?.ok_or_else(not_found)?;
        readable(actor, &artifact, "artifact version")?;
        Ok(ArtifactAt { artifact, version })
    }

    /// A page of the artifacts of a project the caller may read (of one task of it, when named),
    /// oldest first.
    pub async fn artifacts(
        &self,
        actor: &Actor,
        project_id: Uuid,
        task_id: Option<Uuid>,
        page: &PageRequest,
    ) -> Result<Page<artifact::Model>> {
        let project = self
            .reads
            .one(
                project::Entity::find_by_id(project_id)
                    .filter(project::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .ok_or(CommonError::NotFound("project"))?;
        let path = ScopePath::project(project.organization_id, project.workspace_id, project.id);
        actor.authorize(Permission::Read, &path, "project")?;
        let mut select = artifact::Entity::find().filter(artifact::Column::ProjectId.eq(project.id));
        if let Some(task_id) = task_id {
            select = select.filter(artifact::Column::TaskId.eq(task_id));
        }
        Ok(paginate(&self.reads, select, artifact::Column::Id, page, self.max_page_size).await?)
    }

    /// The versions of each of the artifacts `ids` (read by the caller), newest first: one
    /// statement for any number of artifacts.
    /// Per run, the artifacts its agent attached (a version of each is the run's), by name.
    pub async fn of_runs(&self, actor: &Actor, run_ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<artifact::Model>>> {
        let versions = self
            .reads
            .all(
                artifact_version::Entity::find()
                    .filter(artifact_version::Column::RunId.is_in(run_ids.iter().copied()))
                    .filter(artifact_version::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?;
        let artifacts = self
            .reads
            .all(
                artifact::Entity::find()
                    .filter(artifact::Column::Id.is_in(versions.iter().map(|v| v.artifact_id)))
                    .order_by_asc(artifact::Column::Name),
            )
            .await?;
        let mut by_run: HashMap<Uuid, Vec<artifact::Model>> = HashMap::new();
        for artifact in artifacts.into_iter().filter(|a| readable(actor, a, "artifact").is_ok()) {
            let mut runs: Vec<Uuid> =
                versions.iter().filter(|v| v.artifact_id == artifact.id).filter_map(|v| v.run_id).collect();
            // Each run once, however its versions interleave with other runs' and people's.
            runs.sort_unstable();
            runs.dedup();
            for run in runs {
                by_run.entry(run).or_default().push(artifact.clone());
            }
        }
        Ok(by_run)
    }

    pub async fn versions_of(
        &self,
        actor: &Actor,
        ids: &[Uuid],
    ) -> Result<HashMap<Uuid, Vec<artifact_version::Model>>> {
        let versions = self
            .reads
            .all(
                artifact_version::Entity::find()
                    .filter(artifact_version::Column::ArtifactId.is_in(ids.iter().copied()))
                    .filter(artifact_version::Column::OrganizationId.eq(actor.organization_id))
                    .order_by_asc(artifact_version::Column::ArtifactId)
                    .order_by_desc(artifact_version::Column::Number),
            )
            .await?;
        let mut by_artifact: HashMap<Uuid, Vec<artifact_version::Model>> = HashMap::new();
        for version in versions {
            by_artifact.entry(version.artifact_id).or_default().push(version);
        }
        Ok(by_artifact)
    }
}

/// Where a version goes.
struct Place<'a> {
    project: &'a project::Model,
    task_id: Option<Uuid>,
    name: &'a str,
}

/// Whoever may read the artifact's project reads it; to anyone else it does not exist.
fn readable(actor: &Actor, artifact: &artifact::Model, what: &'static str) -> Result<(), CommonError> {
    let path = ScopePath::project(artifact.organization_id, artifact.workspace_id, artifact.project_id);
    actor.authorize(Permission::Read, &path, what)
}

/// A name is a relative path of parts between single slashes: no part empty, `.` or `..`, no
/// control character or backslash, so that whoever writes the file by its name (a connector, a
/// person's download) writes it where it says and nowhere above.
pub fn checked_name(name: &str) -> Result<String, CommonError> {
    let invalid = |why: &str| CommonError::Validation {
        message: format!("an artifact's name {why}"),
        details: serde_json::json!({ "argument": "name" }),
    };
    if name.is_empty() || name.len() > MAX_NAME_BYTES {
        return Err(invalid("is 1 to 1024 bytes"));
    }
    if name.chars().any(|c| c.is_control() || c == '\\') {
        return Err(invalid("has no control characters or backslashes"));
    }
    for part in name.split('/') {
        match part {
            "" => return Err(invalid("is a relative path with no empty part (no leading, trailing or double slash)")),
            "." | ".." => return Err(invalid("has no `.` or `..` part")),
            p if p.len() > MAX_SEGMENT_BYTES => return Err(invalid("has parts of at most 255 bytes")),
            p if p.trim() != p => return Err(invalid("has no part beginning or ending with a space")),
            _ => {}
        }
    }
    Ok(name.to_owned())
}

/// A media type as `type/subtype`, lowercased, its parameters dropped.
pub fn checked_media_type(media_type: Option<&str>) -> Result<String, CommonError> {
    let Some(given) = media_type else { return Ok(DEFAULT_MEDIA_TYPE.to_owned()) };
    let essence = given.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let token = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b));
    match essence.split_once('/') {
        Some((kind, sub)) if essence.len() <= MAX_MEDIA_TYPE_BYTES && token(kind) && token(sub) => Ok(essence),
        _ => Err(CommonError::Validation {
            message: format!("`{}` is not a media type (type/subtype)", given.chars().take(64).collect::<String>()),
            details: serde_json::json!({ "argument": "mediaType" }),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_would_leave_their_directory_are_refused() {
        for bad in [
            "",
            "/etc/passwd",
            "../secrets",
            "a/../../b",
            "a/./b",
            "a//b",
            "a/",
            "a\\..\\b",
            "nul\0byte",
            "line\nbreak",
            " padded",
        ] {
            assert!(checked_name(bad).is_err(), "{bad:?}");
        }
        assert!(checked_name(&"x".repeat(256)).is_err());
        assert!(checked_name(&["y"; 600].join("/")).is_err());
        for good in
            ["report.md", "src/main.rs", "dir with spaces/file name.txt", "日本語/ファイル.txt", "..hidden", "a.b"]
        {
            assert_eq!(checked_name(good).unwrap(), good);
        }
    }

    #[test]
    fn media_types_keep_their_essence() {
        assert_eq!(checked_media_type(None).unwrap(), "application/octet-stream");
        assert_eq!(checked_media_type(Some("Text/Markdown; charset=utf-8")).unwrap(), "text/markdown");
        for bad in ["text", "text/", "/plain", "text/plain/x", "te xt/plain", "text/<script>"] {
            assert!(checked_media_type(Some(bad)).is_err(), "{bad}");
        }
    }
}
