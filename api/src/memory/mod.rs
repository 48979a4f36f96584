//! Memory (SPEC §11): what people and agents know, kept per subject in a scope, versioned.
//!
//! An entry is one subject in one scope; its content lives in versions that never change once
//! written. A write about a subject that already has a live version never overwrites it: unless it
//! names that version as the one it supersedes, it is kept as a proposed version beside a
//! conflict, and a person decides which stands. Everything written lands `unverified`; verifying
//! is a person's act. Reading is filtered by the scope's roles, the version's sensitivity and its
//! ACL; whatever the caller may not read does not exist for them (`NOT_FOUND`).

pub mod embedding;
mod endpoint;
mod fusion;
pub mod graphql;
mod search;
pub mod vectors;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::memory_conflict::{self, ConflictResolution, ConflictStatus};
use acc_entity::memory_entry::{self, MemoryKind, MemoryScopeKind};
use acc_entity::memory_vector;
use acc_entity::memory_version::{self, Sensitivity, Verification};
use acc_entity::{agent, project, task, task_run, user, workspace};
use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, QueryTrait, Set,
};
use sha2::{Digest, Sha256};
use tracing::Instrument;
use uuid::Uuid;

use crate::audit::{AuditActor, AuditLog, Entry};
use crate::broker::{Broker, Event, Topic};
use crate::db::{Pool, Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::identity::actor::{Actor, Permission, Role, ScopePath};
use crate::ids::new_id;
use crate::provenance::Author;

pub use embedding::EmbeddingError;
pub use fusion::{Fused, Retriever, fuse};
pub use vectors::VectorSearch;
use vectors::{Corpus, Embedded};

/// Where memory's embedding model comes from (the `memory` settings).
pub enum EmbeddingSource {
    /// The built-in model's files in `dir`, fetched from `fetch_from` first when they are not there.
    BuiltIn { dir: PathBuf, fetch_from: Option<String> },
    /// An operator's OpenAI-compatible embedding service.
    Endpoint { base_url: String, model: String, key: Option<String> },
}

const MAX_SUBJECT_CHARS: usize = 200;
const MAX_CONTENT_BYTES: usize = 32 * 1024;
const MAX_SUMMARY_BYTES: usize = 1024;
const MAX_ACL_USERS: usize = 50;

#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error(transparent)]
    Common(#[from] CommonError),
    /// Verifying, disputing or superseding what was retracted; resolving a resolved conflict.
    #[error("{0}")]
    InvalidTransition(&'static str),
    /// Vector search asked for while no embedding model is loaded.
    #[error("vector search needs the embedding model, which is not loaded; search full text alone")]
    NoEmbeddingModel,
    #[error(transparent)]
    Embedding(#[from] EmbeddingError),
}

impl From<sea_orm::DbErr> for MemoryError {
    fn from(e: sea_orm::DbErr) -> Self {
        MemoryError::Common(e.into())
    }
}

impl DomainError for MemoryError {
    fn code(&self) -> ErrorCode {
        match self {
            MemoryError::Common(e) => e.code(),
            MemoryError::InvalidTransition(_) => ErrorCode::InvalidTransition,
            MemoryError::NoEmbeddingModel => ErrorCode::CapabilityMissing,
            MemoryError::Embedding(_) => ErrorCode::Internal,
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            MemoryError::Common(e) => e.details(),
            MemoryError::InvalidTransition(_) | MemoryError::NoEmbeddingModel | MemoryError::Embedding(_) => {
                serde_json::Value::Null
            }
        }
    }
}

type Result<T, E = MemoryError> = std::result::Result<T, E>;

/// The scope a write goes to, as the caller named it.
#[derive(Debug, Clone, Copy)]
pub struct MemoryScope {
    pub kind: MemoryScopeKind,
    pub id: Uuid,
}

/// A write, as the caller gave it (checked by [`MemoryService::write`]).
#[derive(Debug, Clone)]
pub struct NewMemory {
    pub scope: MemoryScope,
    pub kind: MemoryKind,
    pub subject: String,
    pub content: String,
    pub summary: Option<String>,
    pub sensitivity: Sensitivity,
    pub confidence: Option<f64>,
    pub valid_from: Option<DateTime<Utc>>,
    pub valid_until: Option<DateTime<Utc>>,
    pub acl: Vec<Uuid>,
    /// The version this write replaces; it must be the entry's current one, or the write is a conflict.
    pub supersedes: Option<Uuid>,
}

/// What to look for in memory, and where.
#[derive(Debug, Clone)]
pub struct MemorySearch {
    /// Where the caller stands: this scope and those above it are searched.
    pub scope: MemoryScope,
    /// Words to look for; without them, the most recently changed entries.
    pub text: Option<String>,
    /// Only these kinds (all when empty).
    pub kinds: Vec<MemoryKind>,
    /// Only versions in these states, as judged now (all but those retracted by the time searched
    /// when empty).
    pub verification: Vec<Verification>,
    /// Only these retrievals (every one available when empty).
    pub retrievers: Vec<Retriever>,
    /// Memory as it stood then: each entry's version current at that time, by its words alone.
    pub as_of: Option<DateTime<Utc>>,
    pub first: u64,
}

/// How a search with text finds entries now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetrievalMode {
    /// No embedding model is loaded (yet): words only.
    FullTextOnly,
    /// Words and meaning, fused.
    Hybrid,
}

/// An entry found, with its score where a retriever ranked it (higher is better).
#[derive(Debug, Clone)]
pub struct Hit {
    pub entry: ReadableEntry,
    pub score: Option<f64>,
    pub found_by: Vec<Retriever>,
}

/// The most hits a search returns, and how many unless asked.
pub const MAX_HITS: u64 = 50;
pub const DEFAULT_HITS: u64 = 20;
/// How many of the best matches are read before the caller's filters: hits beyond them are not
/// returned.
const CANDIDATES: u64 = 500;
/// Entries read, and texts embedded, at a time when vectors are made in bulk.
const EMBED_PAGE: u64 = 512;
const EMBED_BATCH: usize = 32;
const MAX_QUERY_BYTES: usize = 1024;

/// A person's judgement of an entry's current version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Verified,
    Disputed,
}

/// An entry the caller may read, with the version that stands (now, or as of the time asked).
#[derive(Debug, Clone)]
pub struct ReadableEntry {
    pub entry: memory_entry::Model,
    pub version: memory_version::Model,
}

/// What a write did: the version it made, and the conflict it opened if it contradicted the
/// current version.
#[derive(Debug, Clone)]
pub struct Written {
    pub entry: ReadableEntry,
    pub version: memory_version::Model,
    pub conflict: Option<memory_conflict::Model>,
}

#[derive(Clone)]
pub struct MemoryService {
    db: Pool,
    reads: Reads,
    broker: Broker,
    vectors: Arc<VectorSearch>,
    audit: AuditLog,
}

/// Who sees a change of memory live: the scopes a subscriber reads from, and the subscriber.
pub struct MemoryAudience {
    actor: Actor,
    scopes: Vec<Uuid>,
}

impl MemoryAudience {
    /// Whether the subscriber reads this entry as it stands now.
    pub fn admits(&self, entry: &memory_entry::Model, version: &memory_version::Model) -> bool {
        self.scopes.contains(&entry.scope_id) && readable(&self.actor, entry, version)
    }
}

impl MemoryService {
    pub fn new(store: Store, broker: Broker, vectors: Arc<VectorSearch>, audit: AuditLog) -> Self {
        Self { db: store.pool, reads: store.reads, broker, vectors, audit }
    }

    pub fn retrieval_mode(&self) -> RetrievalMode {
        if self.vectors.is_ready() { RetrievalMode::Hybrid } else { RetrievalMode::FullTextOnly }
    }

    /// Takes the embedding model into use in the background, then embeds what was written without
    /// it. Search goes by words alone until then, and stays so if the built-in model cannot be
    /// loaded; an endpoint that does not answer is tried again every half minute.
    pub fn spawn_embedding_model(&self, source: EmbeddingSource) {
        let service = self.clone();
        let task = async move {
            let model = match source {
                EmbeddingSource::BuiltIn { dir, fetch_from } => {
                    service.built_in_model(&dir, fetch_from.as_deref()).await
                }
                EmbeddingSource::Endpoint { base_url, model, key } => loop {
                    match endpoint::EmbeddingEndpoint::connect(&base_url, &model, key.clone()).await {
                        Ok(endpoint) => break Ok(Some(vectors::EmbeddingModel::Endpoint(endpoint))),
                        Err(e) => tracing::error!(error = %e, "memory is searched by words alone until it answers"),
                    }
                    tokio::time::sleep(std::time::Duration::from_secs(30)).await;
                },
            };
            let model = match model {
                Ok(Some(model)) => model,
                Ok(None) => return,
                Err(e) => return tracing::error!(error = %e, "memory is searched by words alone"),
            };
            tracing::info!(model = model.name(), "embedding model in use: memory is searched by words and meaning");
            service.vectors.set_model(model);
            match service.embed_missing().await {
                Ok(embedded) => tracing::info!(embedded, "entries written without the model are embedded"),
                Err(e) => tracing::error!(error = %e, "entries written without the model stay without vectors"),
            }
        };
        tokio::spawn(task.instrument(tracing::info_span!("embedding_model")));
    }

    /// The built-in model from `dir`, fetched there first from `fetch_from` when it is missing;
    /// `None` when it is missing and may not be fetched.
    async fn built_in_model(&self, dir: &Path, fetch_from: Option<&str>) -> Result<Option<vectors::EmbeddingModel>> {
        if !embedding::is_installed(dir) {
            let Some(url) = fetch_from else {
                tracing::warn!(
                    dir = %dir.display(),
                    "no embedding model there: memory is searched by words alone until `acc models fetch` puts it there and acc restarts"
                );
                return Ok(None);
            };
            tracing::info!(%url, dir = %dir.display(), "fetching the embedding model; memory is searched by words alone meanwhile");
            embedding::fetch(url, dir).await?;
        }
        let from = dir.to_owned();
        let embedder = tokio::task::spawn_blocking(move || embedding::Embedder::load(&from))
            .await
            .map_err(|e| EmbeddingError::Failed(e.to_string()))??;
        Ok(Some(vectors::EmbeddingModel::BuiltIn(Arc::new(embedder))))
    }

    /// Who sees the changes of memory read from `scope` (and the scopes above it) live.
    pub async fn audience(&self, actor: &Actor, scope: MemoryScope) -> Result<MemoryAudience> {
        let place = self.place(actor, scope).await?;
        Ok(MemoryAudience { actor: actor.clone(), scopes: place.visible_scopes() })
    }

    /// Tells live subscribers how an entry stands after a committed change.
    fn published(&self, standing: &ReadableEntry) {
        let event = Event::Memory { entry: standing.entry.clone(), version: standing.version.clone() };
        self.broker.publish(Topic::OrganizationMemory(standing.entry.organization_id), event);
    }

    /// Where a scope sits, checked to be the caller's organization's. A person's own scope is
    /// nobody else's: to anyone else it does not exist.
    async fn place(&self, actor: &Actor, scope: MemoryScope) -> Result<Place> {
        let not_found = || MemoryError::Common(CommonError::NotFound("memory scope"));
        let project_path = |p: project::Model| ScopePath::project(p.organization_id, p.workspace_id, p.id);
        let of_task = async |task_id: Uuid| -> Result<ScopePath> {
            let t = task::Entity::find_by_id(task_id).one(&self.db).await?.ok_or_else(not_found)?;
            let p = project::Entity::find_by_id(t.project_id).one(&self.db).await?.ok_or_else(not_found)?;
            Ok(project_path(p))
        };
        let mut agent_id = None;
        let (path, task_id, run_id) = match scope.kind {
            MemoryScopeKind::Organization => (ScopePath::organization(scope.id), None, None),
            MemoryScopeKind::Workspace => {
                let ws = workspace::Entity::find_by_id(scope.id).one(&self.db).await?.ok_or_else(not_found)?;
                (ScopePath::workspace(ws.organization_id, ws.id), None, None)
            }
            MemoryScopeKind::Project => {
                let p = project::Entity::find_by_id(scope.id).one(&self.db).await?.ok_or_else(not_found)?;
                (project_path(p), None, None)
            }
            MemoryScopeKind::Task => (of_task(scope.id).await?, Some(scope.id), None),
            MemoryScopeKind::Run => {
                let run = task_run::Entity::find_by_id(scope.id).one(&self.db).await?.ok_or_else(not_found)?;
                (of_task(run.task_id).await?, Some(run.task_id), Some(run.id))
            }
            MemoryScopeKind::User if scope.id == actor.user_id => {
                (ScopePath::organization(actor.organization_id), None, None)
            }
            MemoryScopeKind::User => return Err(not_found()),
            MemoryScopeKind::Agent => {
                let agent = agent::Entity::find_by_id(scope.id).one(&self.db).await?.ok_or_else(not_found)?;
                agent_id = Some(agent.id);
                (ScopePath::workspace(agent.organization_id, agent.workspace_id), None, None)
            }
        };
        if path.organization_id != actor.organization_id || actor.role_on(&path).is_none() {
            return Err(not_found());
        }
        Ok(Place { path, task_id, run_id, agent_id, user_id: actor.user_id })
    }

    pub async fn write(&self, actor: &Actor, input: NewMemory) -> Result<Written> {
        let path = self.place(actor, input.scope).await?.path;
        // Anyone writes their own memory; the shared scopes take members and above.
        if input.scope.kind != MemoryScopeKind::User {
            actor.authorize(Permission::WriteTasks, &path, "memory scope")?;
        }
        let input = self.checked(actor, &path, input).await?;
        self.record(Author::Person(actor.user_id), actor.into(), path, input).await
    }

    /// What an agent proposes during its run (its `memory_propose` run tool): an entry of the
    /// run's task, internal and open to whoever reads the task, with the run as its provenance.
    /// Like every write it lands unverified, and beside a live version of the subject it is a
    /// conflict a person resolves, never an overwrite.
    pub async fn propose_for_run(
        &self,
        run: &RunAuthor,
        scope: ProposalScope,
        kind: MemoryKind,
        subject: String,
        content: String,
    ) -> Result<Written> {
        let (scope, path) = match scope {
            ProposalScope::Task => (
                MemoryScope { kind: MemoryScopeKind::Task, id: run.task_id },
                ScopePath::project(run.organization_id, run.workspace_id, run.project_id),
            ),
            ProposalScope::Agent => (
                MemoryScope { kind: MemoryScopeKind::Agent, id: run.agent_id },
                ScopePath::workspace(run.organization_id, run.workspace_id),
            ),
        };
        let input = checked_text(NewMemory {
            scope,
            kind,
            subject,
            content,
            summary: None,
            sensitivity: Sensitivity::Internal,
            confidence: None,
            valid_from: None,
            valid_until: None,
            acl: Vec::new(),
            supersedes: None,
        })?;
        let by = AuditActor::Agent { agent_id: run.agent_id, run_id: run.run_id };
        self.record(Author::Run { run_id: run.run_id, attempt_id: run.attempt_id }, by, path, input).await
    }

    /// Writes a checked write about a subject of `path`, by `author` (`by` in the audit trail).
    async fn record(&self, author: Author, by: AuditActor, path: ScopePath, input: NewMemory) -> Result<Written> {
        // Embedded before the writer's turn: the model's milliseconds must not hold it.
        let vector = self.vectors.vector_for_write(vectors::text_of(&input.subject, &input.content)).await;
        let txn = self.db.begin_write().await?;
        let now = Utc::now();
        // Locked (on PostgreSQL) so two writes about one subject number their versions in turn.
        let existing = memory_entry::Entity::find()
            .filter(memory_entry::Column::ScopeId.eq(input.scope.id))
            .filter(memory_entry::Column::Subject.eq(input.subject.as_str()))
            .lock_exclusive()
            .one(&txn)
            .await?;
        let (entry, current) = match existing {
            Some(entry) => {
                let current = current_version(&txn, &entry).await?;
                (entry, Some(current))
            }
            None => {
                let entry = memory_entry::ActiveModel {
                    id: Set(new_id()),
                    organization_id: Set(path.organization_id),
                    workspace_id: Set(path.workspace_id),
                    project_id: Set(path.project_id),
                    scope_kind: Set(input.scope.kind),
                    scope_id: Set(input.scope.id),
                    kind: Set(input.kind),
                    subject: Set(input.subject.clone()),
                    current_version_id: Set(None),
                    revision: Set(0),
                    created_at: Set(now),
                    updated_at: Set(now),
                };
                match entry.insert(&txn).await {
                    Ok(entry) => (entry, None),
                    // Another write created the subject first: this one is then a contradiction
                    // of it, which the caller sends again to have it recorded as such.
                    Err(e) if is_unique_violation(&e) => {
                        return Err(CommonError::Conflict { expected: 0, current: 1 }.into());
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        };
        if let Some(named) = input.supersedes
            && current.as_ref().map(|c| c.id) != Some(named)
        {
            let of_entry = memory_version::Entity::find_by_id(named)
                .filter(memory_version::Column::EntryId.eq(entry.id))
                .one(&txn)
                .await?;
            if of_entry.is_none() {
                return Err(CommonError::validation("`supersedes` names no version of this subject's entry").into());
            }
        }
        // The write stands at once when nothing live is there, or when it names what is there.
        let live = current.as_ref().filter(|c| c.verification != Verification::Retracted);
        let stands = match live {
            None => true,
            Some(current) => input.supersedes == Some(current.id),
        };
        let number =
            memory_version::Entity::find().filter(memory_version::Column::EntryId.eq(entry.id)).count(&txn).await?
                as i32
                + 1;
        let version = memory_version::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(path.organization_id),
            entry_id: Set(entry.id),
            number: Set(number),
            content_hash: Set(hex::encode(Sha256::digest(input.content.as_bytes()))),
            content: Set(input.content),
            summary: Set(input.summary),
            provenance: Set(author.provenance()),
            confidence: Set(input.confidence),
            verification: Set(Verification::Unverified),
            sensitivity: Set(input.sensitivity),
            valid_from: Set(input.valid_from.unwrap_or(now)),
            valid_until: Set(input.valid_until),
            supersedes_version_id: Set(input.supersedes),
            acl: Set(serde_json::json!(input.acl)),
            created_by_user_id: Set(author.user_id()),
            created_by_run_id: Set(author.run_id()),
            became_current_at: Set(stands.then_some(now)),
            verified_by: Set(None),
            verified_at: Set(None),
            retracted_at: Set(None),
            created_at: Set(now),
        }
        .insert(&txn)
        .await?;
        let conflict = match (stands, live) {
            (true, _) | (false, None) => None,
            (false, Some(current)) => Some(
                memory_conflict::ActiveModel {
                    id: Set(new_id()),
                    organization_id: Set(path.organization_id),
                    entry_id: Set(entry.id),
                    current_version_id: Set(current.id),
                    proposed_version_id: Set(version.id),
                    status: Set(ConflictStatus::Open),
                    resolution: Set(None),
                    resolved_by: Set(None),
                    resolved_at: Set(None),
                    revision: Set(1),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&txn)
                .await?,
            ),
        };
        let entry = if stands {
            let entry = make_current(&txn, entry, version.id, now).await?;
            search::index(&txn, &entry, &version).await?;
            self.vectors.store(&txn, &Embedded::memory(&entry, &version), vector.as_deref()).await?;
            entry
        } else {
            entry
        };
        let mut written = Entry::new(path.organization_id, by, AuditAction::MemoryWritten)
            .on(AuditTargetKind::MemoryEntry, entry.id)
            .at(&path)
            .with("kind", entry.kind.to_string())
            .with("version", version.number)
            .with("sensitivity", version.sensitivity.to_string());
        if let Some(conflict) = &conflict {
            written = written.with("conflict_id", conflict.id.to_string());
        }
        self.audit.append(&txn, written).await?;
        txn.commit().await?;
        if stands {
            self.vectors.committed(&Embedded::memory(&entry, &version), vector.as_deref()).await;
        }
        let standing = if stands { version.clone() } else { current.unwrap_or_else(|| version.clone()) };
        let entry = ReadableEntry { entry, version: standing };
        self.published(&entry);
        Ok(Written { entry, version, conflict })
    }

    /// Checks and normalizes a write: sizes, times, confidence, ACL users of the organization, and
    /// a sensitivity the writer could read back.
    async fn checked(&self, actor: &Actor, path: &ScopePath, input: NewMemory) -> Result<NewMemory> {
        let invalid = |m: &str| MemoryError::Common(CommonError::validation(m));
        let mut input = checked_text(input)?;
        if input.scope.kind != MemoryScopeKind::User && !may_read(actor, path, input.sensitivity, &[]) {
            return Err(CommonError::Forbidden(format!(
                "your role cannot read {} memory, so it cannot write it",
                input.sensitivity
            ))
            .into());
        }
        input.acl.sort_unstable();
        input.acl.dedup();
        if input.acl.len() > MAX_ACL_USERS {
            return Err(invalid("an ACL names at most 50 users"));
        }
        if !input.acl.is_empty() {
            let known = user::Entity::find()
                .filter(user::Column::Id.is_in(input.acl.iter().copied()))
                .filter(user::Column::OrganizationId.eq(actor.organization_id))
                .count(&self.db)
                .await?;
            if known != input.acl.len() as u64 {
                return Err(invalid("an ACL names only users of your organization"));
            }
        }
        Ok(input)
    }

    /// An entry the caller may read, with its version current now or at `as_of`.
    pub async fn entry(&self, actor: &Actor, id: Uuid, as_of: Option<DateTime<Utc>>) -> Result<ReadableEntry> {
        let not_found = || MemoryError::Common(CommonError::NotFound("memory entry"));
        let entry = self
            .reads
            .one(
                memory_entry::Entity::find_by_id(id)
                    .filter(memory_entry::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .ok_or_else(not_found)?;
        // Who may read the entry is decided by the version that stands now.
        let standing = self.current_version(&entry).await?;
        if !readable(actor, &entry, &standing) {
            return Err(not_found());
        }
        let version = match as_of {
            None => standing,
            Some(at) => self
                .reads
                .one(
                    memory_version::Entity::find()
                        .filter(memory_version::Column::EntryId.eq(entry.id))
                        .filter(memory_version::Column::BecameCurrentAt.lte(at))
                        .order_by_desc(memory_version::Column::BecameCurrentAt),
                )
                .await?
                .ok_or(CommonError::NotFound("memory entry at that time"))?,
        };
        Ok(ReadableEntry { entry, version })
    }

    /// For each of the entries `ids` (of the caller's organization), the versions the caller may
    /// read, oldest first: two statements for any number of entries.
    pub async fn versions_of(&self, actor: &Actor, ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<memory_version::Model>>> {
        let entries: HashMap<Uuid, memory_entry::Model> = self
            .reads
            .all(
                memory_entry::Entity::find()
                    .filter(memory_entry::Column::Id.is_in(ids.iter().copied()))
                    .filter(memory_entry::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .into_iter()
            .map(|e| (e.id, e))
            .collect();
        let versions = self
            .reads
            .all(
                memory_version::Entity::find()
                    .filter(memory_version::Column::EntryId.is_in(entries.keys().copied()))
                    .order_by_asc(memory_version::Column::EntryId)
                    .order_by_asc(memory_version::Column::Number),
            )
            .await?;
        let mut by_entry: HashMap<Uuid, Vec<memory_version::Model>> = HashMap::new();
        for version in versions {
            if entries.get(&version.entry_id).is_some_and(|entry| readable(actor, entry, &version)) {
                by_entry.entry(version.entry_id).or_default().push(version);
            }
        }
        Ok(by_entry)
    }

    /// For each of the entries `ids` (of the caller's organization), its conflicts, oldest first:
    /// one statement for any number of entries. The entries are ones the caller read.
    pub async fn conflicts_of(
        &self,
        actor: &Actor,
        ids: &[Uuid],
    ) -> Result<HashMap<Uuid, Vec<memory_conflict::Model>>> {
        let conflicts = self
            .reads
            .all(
                memory_conflict::Entity::find()
                    .filter(memory_conflict::Column::EntryId.is_in(ids.iter().copied()))
                    .filter(memory_conflict::Column::OrganizationId.eq(actor.organization_id))
                    .order_by_asc(memory_conflict::Column::Id),
            )
            .await?;
        let mut by_entry: HashMap<Uuid, Vec<memory_conflict::Model>> = HashMap::new();
        for conflict in conflicts {
            by_entry.entry(conflict.entry_id).or_default().push(conflict);
        }
        Ok(by_entry)
    }

    /// A version, if the caller may read it and its entry.
    pub async fn version(&self, actor: &Actor, id: Uuid) -> Result<memory_version::Model> {
        let version = self
            .reads
            .one(
                memory_version::Entity::find_by_id(id)
                    .filter(memory_version::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .ok_or(CommonError::NotFound("memory version"))?;
        let entry = self.entry(actor, version.entry_id, None).await?;
        if !readable(actor, &entry.entry, &version) {
            return Err(CommonError::NotFound("memory version").into());
        }
        Ok(version)
    }

    /// A conflict on an entry the caller may read.
    pub async fn conflict(&self, actor: &Actor, id: Uuid) -> Result<memory_conflict::Model> {
        Ok(self.readable_conflict(actor, id).await?.0)
    }

    /// A conflict, with its entry, when the caller may read the entry.
    async fn readable_conflict(&self, actor: &Actor, id: Uuid) -> Result<(memory_conflict::Model, ReadableEntry)> {
        let conflict = self
            .reads
            .one(
                memory_conflict::Entity::find_by_id(id)
                    .filter(memory_conflict::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .ok_or(CommonError::NotFound("memory conflict"))?;
        let entry = match self.entry(actor, conflict.entry_id, None).await {
            Err(MemoryError::Common(CommonError::NotFound(_))) => Err(CommonError::NotFound("memory conflict").into()),
            other => other,
        }?;
        Ok((conflict, entry))
    }

    /// A person verifies or disputes the entry's current version.
    pub async fn verify(
        &self,
        actor: &Actor,
        id: Uuid,
        expected_revision: i64,
        verdict: Verdict,
    ) -> Result<ReadableEntry> {
        let readable = self.writable(actor, id, expected_revision).await?;
        if readable.version.verification == Verification::Retracted {
            return Err(MemoryError::InvalidTransition("a retracted version cannot be verified or disputed"));
        }
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let entry = bump(&txn, readable.entry, expected_revision, now).await?;
        let mut version = readable.version.into_active_model();
        version.verification = Set(match verdict {
            Verdict::Verified => Verification::Verified,
            Verdict::Disputed => Verification::Disputed,
        });
        version.verified_by = Set(Some(actor.user_id));
        version.verified_at = Set(Some(now));
        let version = version.update(&txn).await?;
        let verified = Entry::by(actor, AuditAction::MemoryVerified)
            .on(AuditTargetKind::MemoryEntry, entry.id)
            .at(&entry_path(&entry))
            .with("version", version.number)
            .with("verification", version.verification.to_string());
        self.audit.append(&txn, verified).await?;
        txn.commit().await?;
        let standing = ReadableEntry { entry, version };
        self.published(&standing);
        Ok(standing)
    }

    /// Withdraws the entry's current version: kept for history, never served as true again.
    pub async fn retract(&self, actor: &Actor, id: Uuid, expected_revision: i64) -> Result<ReadableEntry> {
        let readable = self.writable(actor, id, expected_revision).await?;
        if readable.version.verification == Verification::Retracted {
            return Err(MemoryError::InvalidTransition("the entry is already retracted"));
        }
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let entry = bump(&txn, readable.entry, expected_revision, now).await?;
        let mut version = readable.version.into_active_model();
        version.verification = Set(Verification::Retracted);
        version.retracted_at = Set(Some(now));
        let version = version.update(&txn).await?;
        let retracted = Entry::by(actor, AuditAction::MemoryRetracted)
            .on(AuditTargetKind::MemoryEntry, entry.id)
            .at(&entry_path(&entry))
            .with("version", version.number);
        self.audit.append(&txn, retracted).await?;
        txn.commit().await?;
        let standing = ReadableEntry { entry, version };
        self.published(&standing);
        Ok(standing)
    }

    /// A person decides a conflict: the current version stays, or the proposed one replaces it.
    pub async fn resolve_conflict(
        &self,
        actor: &Actor,
        id: Uuid,
        expected_revision: i64,
        resolution: ConflictResolution,
    ) -> Result<memory_conflict::Model> {
        let (conflict, readable) = self.readable_conflict(actor, id).await?;
        may_change(actor, &readable.entry, "memory conflict")?;
        if conflict.status != ConflictStatus::Open {
            return Err(MemoryError::InvalidTransition("the conflict is already resolved"));
        }
        if conflict.revision != expected_revision {
            return Err(CommonError::Conflict { expected: expected_revision, current: conflict.revision }.into());
        }
        let vector = match resolution {
            ConflictResolution::AcceptProposed => {
                let proposed = self
                    .reads
                    .one(memory_version::Entity::find_by_id(conflict.proposed_version_id))
                    .await?
                    .ok_or_else(no_version)?;
                self.vectors.vector_for_write(vectors::text_of(&readable.entry.subject, &proposed.content)).await
            }
            ConflictResolution::KeepCurrent => None,
        };
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let updated = memory_conflict::Entity::update_many()
            .col_expr(memory_conflict::Column::Status, ConflictStatus::Resolved.into())
            .col_expr(memory_conflict::Column::Resolution, Some(resolution).into())
            .col_expr(memory_conflict::Column::ResolvedBy, Some(actor.user_id).into())
            .col_expr(memory_conflict::Column::ResolvedAt, Some(now).into())
            .col_expr(memory_conflict::Column::Revision, (conflict.revision + 1).into())
            .col_expr(memory_conflict::Column::UpdatedAt, now.into())
            .filter(memory_conflict::Column::Id.eq(conflict.id))
            .filter(memory_conflict::Column::Revision.eq(conflict.revision))
            .exec(&txn)
            .await?;
        if updated.rows_affected == 0 {
            return Err(CommonError::Conflict { expected: expected_revision, current: conflict.revision + 1 }.into());
        }
        let mut accepted = None;
        if resolution == ConflictResolution::AcceptProposed {
            let entry = memory_entry::Entity::find_by_id(readable.entry.id)
                .lock_exclusive()
                .one(&txn)
                .await?
                .ok_or(CommonError::NotFound("memory entry"))?;
            // Accepting a proposal against a version that has since been replaced would silently
            // undo the replacement.
            if entry.current_version_id != Some(conflict.current_version_id) {
                return Err(MemoryError::InvalidTransition(
                    "the entry's current version changed since this conflict; keep it, or write again superseding it",
                ));
            }
            let entry = make_current(&txn, entry, conflict.proposed_version_id, now).await?;
            let mut proposed = memory_version::Entity::find_by_id(conflict.proposed_version_id)
                .one(&txn)
                .await?
                .ok_or_else(no_version)?
                .into_active_model();
            proposed.became_current_at = Set(Some(now));
            let version = proposed.update(&txn).await?;
            search::index(&txn, &entry, &version).await?;
            self.vectors.store(&txn, &Embedded::memory(&entry, &version), vector.as_deref()).await?;
            accepted = Some(ReadableEntry { entry, version });
        }
        let resolved = Entry::by(actor, AuditAction::MemoryConflictResolved)
            .on(AuditTargetKind::MemoryConflict, conflict.id)
            .at(&entry_path(&readable.entry))
            .with("entry_id", readable.entry.id.to_string())
            .with("resolution", resolution.to_string());
        self.audit.append(&txn, resolved).await?;
        txn.commit().await?;
        if let Some(standing) = &accepted {
            self.vectors.committed(&Embedded::memory(&standing.entry, &standing.version), vector.as_deref()).await;
            self.published(standing);
        }
        Ok(memory_conflict::Entity::find_by_id(conflict.id).one(&self.db).await?.unwrap_or(conflict))
    }

    async fn current_version(&self, entry: &memory_entry::Model) -> Result<memory_version::Model> {
        let id = entry.current_version_id.ok_or_else(no_version)?;
        Ok(self.reads.one(memory_version::Entity::find_by_id(id)).await?.ok_or_else(no_version)?)
    }

    /// Entries the caller may read from `request.scope` and the scopes above it, best match
    /// first (most recently changed first without a text), at most `request.first`; with
    /// `request.as_of`, each entry as it stood then.
    pub async fn search(&self, actor: &Actor, request: MemorySearch) -> Result<Vec<Hit>> {
        if request.first == 0 || request.first > MAX_HITS {
            return Err(CommonError::validation(format!("`first` is between 1 and {MAX_HITS}")).into());
        }
        let scopes = self.place(actor, request.scope).await?.visible_scopes();
        let ranked = match &request.text {
            Some(text) => self.ranked(actor.organization_id, &scopes, text, &request.retrievers, request.as_of).await?,
            None => self.latest(actor, &scopes, request.as_of).await?,
        };
        let at = request.as_of.unwrap_or_else(Utc::now);
        let mut hits = Vec::new();
        // The ranked entries are read a few at a time, as most searches fill their hits from the
        // first ones; the caller's filters decide whether more are read.
        for chunk in ranked.chunks(request.first as usize * 2) {
            let mut standing = self.standing(actor, chunk.iter().map(|r| r.id), request.as_of).await?;
            for Ranked { id, score, found_by, versions } in chunk {
                let Some(found) = standing.remove(id) else { continue };
                // Words that matched only versions other than the one that stood then found nothing.
                if versions.as_ref().is_some_and(|matched| !matched.contains(&found.version.id)) {
                    continue;
                }
                let wanted = (request.kinds.is_empty() || request.kinds.contains(&found.entry.kind))
                    && match request.verification.is_empty() {
                        true => found.version.retracted_at.is_none_or(|retracted| retracted > at),
                        false => request.verification.contains(&found.version.verification),
                    }
                    && found.version.valid_from <= at
                    && found.version.valid_until.is_none_or(|until| until > at);
                if wanted {
                    hits.push(Hit { entry: found, score: *score, found_by: found_by.clone() });
                    if hits.len() as u64 == request.first {
                        return Ok(hits);
                    }
                }
            }
        }
        Ok(hits)
    }

    /// The entries of `scopes` most recently changed (as of `as_of`), newest first.
    async fn latest(&self, actor: &Actor, scopes: &[Uuid], as_of: Option<DateTime<Utc>>) -> Result<Vec<Ranked>> {
        let in_scopes = memory_entry::Entity::find()
            .select_only()
            .column(memory_entry::Column::Id)
            .filter(memory_entry::Column::OrganizationId.eq(actor.organization_id))
            .filter(memory_entry::Column::ScopeId.is_in(scopes.iter().copied()));
        let ids: Vec<Uuid> = match as_of {
            None => {
                in_scopes
                    .order_by_desc(memory_entry::Column::UpdatedAt)
                    .limit(CANDIDATES)
                    .into_tuple()
                    .all(&self.db)
                    .await?
            }
            // Versions newest first: an entry's first one there is the one that stood at `at`.
            Some(at) => {
                let changed: Vec<Uuid> = memory_version::Entity::find()
                    .select_only()
                    .column(memory_version::Column::EntryId)
                    .filter(memory_version::Column::OrganizationId.eq(actor.organization_id))
                    .filter(memory_version::Column::EntryId.in_subquery(in_scopes.into_query()))
                    .filter(memory_version::Column::BecameCurrentAt.lte(at))
                    .order_by_desc(memory_version::Column::BecameCurrentAt)
                    .limit(CANDIDATES)
                    .into_tuple()
                    .all(&self.db)
                    .await?;
                let mut seen = std::collections::HashSet::new();
                changed.into_iter().filter(|id| seen.insert(*id)).collect()
            }
        };
        Ok(ids.into_iter().map(|id| Ranked { id, score: None, found_by: Vec::new(), versions: None }).collect())
    }

    /// The entries `ids` of the caller's organization that the caller may read, each with the
    /// version that stands now or stood at `as_of` (then readable by the caller both ways).
    async fn standing(
        &self,
        actor: &Actor,
        ids: impl Iterator<Item = Uuid>,
        as_of: Option<DateTime<Utc>>,
    ) -> Result<HashMap<Uuid, ReadableEntry>> {
        let entries = self
            .reads
            .all(
                memory_entry::Entity::find()
                    .filter(memory_entry::Column::Id.is_in(ids))
                    .filter(memory_entry::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?;
        let current: HashMap<Uuid, memory_version::Model> = self
            .reads
            .all(
                memory_version::Entity::find()
                    .filter(memory_version::Column::Id.is_in(entries.iter().filter_map(|e| e.current_version_id))),
            )
            .await?
            .into_iter()
            .map(|v| (v.entry_id, v))
            .collect();
        let mut then = HashMap::new();
        if let Some(at) = as_of {
            let versions = self
                .reads
                .all(
                    memory_version::Entity::find()
                        .filter(memory_version::Column::EntryId.is_in(entries.iter().map(|e| e.id)))
                        .filter(memory_version::Column::BecameCurrentAt.lte(at))
                        .order_by_desc(memory_version::Column::BecameCurrentAt),
                )
                .await?;
            for version in versions {
                then.entry(version.entry_id).or_insert(version);
            }
        }
        let mut standing = HashMap::new();
        for entry in entries {
            let Some(now) = current.get(&entry.id) else { continue };
            if !readable(actor, &entry, now) {
                continue;
            }
            let version = match as_of {
                None => now.clone(),
                Some(_) => match then.remove(&entry.id) {
                    Some(version) if readable(actor, &entry, &version) => version,
                    _ => continue,
                },
            };
            standing.insert(entry.id, ReadableEntry { entry, version });
        }
        Ok(standing)
    }

    /// Verified memory to give a run (the context broker), best first for `text`: entries of
    /// `scopes` (those the run reads from; never anyone's own memory) whose current version is
    /// verified, internal, open to whoever reads its scope (no ACL) and valid now.
    pub async fn for_run(
        &self,
        organization_id: Uuid,
        scopes: &[Uuid],
        text: &str,
        first: usize,
    ) -> Result<Vec<ReadableEntry>> {
        let text: String = text.chars().take(MAX_QUERY_BYTES / 4).collect();
        if search::words(&text).is_empty() {
            return Ok(Vec::new());
        }
        let ranked = self.ranked(organization_id, scopes, &text, &[], None).await?;
        let ids: Vec<Uuid> = ranked.iter().map(|r| r.id).collect();
        let entries = self
            .reads
            .all(
                memory_entry::Entity::find()
                    .filter(memory_entry::Column::Id.is_in(ids.iter().copied()))
                    .filter(memory_entry::Column::OrganizationId.eq(organization_id))
                    .filter(memory_entry::Column::ScopeKind.ne(MemoryScopeKind::User)),
            )
            .await?;
        let versions = self
            .reads
            .all(
                memory_version::Entity::find()
                    .filter(memory_version::Column::Id.is_in(entries.iter().filter_map(|e| e.current_version_id)))
                    .filter(memory_version::Column::Verification.eq(Verification::Verified))
                    .filter(memory_version::Column::Sensitivity.eq(Sensitivity::Internal)),
            )
            .await?;
        let now = Utc::now();
        let open = |v: &memory_version::Model| {
            serde_json::from_value::<Vec<Uuid>>(v.acl.clone()).unwrap_or_default().is_empty()
                && v.valid_from <= now
                && v.valid_until.is_none_or(|until| until > now)
        };
        Ok(ids
            .iter()
            .filter_map(|id| {
                let entry = entries.iter().find(|e| e.id == *id)?;
                let version = versions.iter().find(|v| Some(v.id) == entry.current_version_id).filter(|v| open(v))?;
                Some(ReadableEntry { entry: entry.clone(), version: version.clone() })
            })
            .take(first)
            .collect())
    }

    /// The entries of `scopes` matching `text`, best first: each retrieval asked for (every one
    /// available when none is) ranks its candidates, and reciprocal rank fusion merges the lists.
    /// As of a past time, the words of the versions that stood then are searched, and meaning
    /// (which the vectors of current versions alone carry) is not.
    async fn ranked(
        &self,
        organization_id: Uuid,
        scopes: &[Uuid],
        text: &str,
        retrievers: &[Retriever],
        as_of: Option<DateTime<Utc>>,
    ) -> Result<Vec<Ranked>> {
        if text.len() > MAX_QUERY_BYTES {
            return Err(CommonError::validation("a query is at most 1 KiB").into());
        }
        let words = search::words(text);
        if words.is_empty() {
            return Err(CommonError::validation("a query needs at least one word").into());
        }
        if as_of.is_some() {
            if retrievers.contains(&Retriever::Vector) {
                return Err(CommonError::validation(
                    "a search as of a past time finds by words alone: meaning is kept for current versions only",
                )
                .into());
            }
            let db = self.db.connection();
            let matches =
                search::matching(db, organization_id, scopes, &words, search::Among::EverCurrent, CANDIDATES).await?;
            // Each entry once, at its best match, with every version of it that matched.
            let mut matched: HashMap<Uuid, Vec<Uuid>> = HashMap::new();
            let mut ids = Vec::new();
            for m in matches {
                let versions = matched.entry(m.entry_id).or_default();
                if versions.is_empty() {
                    ids.push(m.entry_id);
                }
                versions.push(m.version_id);
            }
            let mut ranked: Vec<Ranked> = fuse(&[(Retriever::FullText, ids)]).into_iter().map(Ranked::from).collect();
            for hit in &mut ranked {
                hit.versions = matched.remove(&hit.id);
            }
            return Ok(ranked);
        }
        let asked = |retriever| retrievers.is_empty() || retrievers.contains(&retriever);
        if retrievers.contains(&Retriever::Vector) && !self.vectors.is_ready() {
            return Err(MemoryError::NoEmbeddingModel);
        }
        // Side by side: the words' statement runs while the model embeds the query.
        let by_words = async {
            match asked(Retriever::FullText) {
                true => {
                    let db = self.db.connection();
                    let matches =
                        search::matching(db, organization_id, scopes, &words, search::Among::Current, CANDIDATES)
                            .await?;
                    Ok::<_, MemoryError>(Some(matches.into_iter().map(|m| m.entry_id).collect::<Vec<_>>()))
                }
                false => Ok(None),
            }
        };
        let by_meaning = async {
            if !asked(Retriever::Vector) {
                return Ok(None);
            }
            let Some(query) = self.vectors.embed_one(text.to_owned()).await? else { return Ok(None) };
            let db = self.db.connection();
            let found = self.vectors.found(db, Corpus::Memory, organization_id, scopes, &query).await?;
            Ok::<_, MemoryError>(Some(found))
        };
        let (by_words, by_meaning) = tokio::join!(by_words, by_meaning);
        let lists: Vec<(Retriever, Vec<Uuid>)> = [(Retriever::FullText, by_words?), (Retriever::Vector, by_meaning?)]
            .into_iter()
            .filter_map(|(retriever, found)| found.map(|ids| (retriever, ids)))
            .collect();
        Ok(fuse(&lists).into_iter().map(Ranked::from).collect())
    }

    /// Makes the caller's organization's search index again from its entries (administrators).
    /// Both indexes: the full-text one in one transaction, then, with a model loaded, every
    /// entry's vector made again.
    pub async fn rebuild_index(&self, actor: &Actor) -> Result<u64> {
        actor.authorize(Permission::Administer, &ScopePath::organization(actor.organization_id), "organization")?;
        let txn = self.db.begin_write().await?;
        let indexed = search::rebuild(&txn, actor.organization_id).await?;
        self.audit.append(&txn, Entry::by(actor, AuditAction::MemoryIndexRebuilt).with("entries", indexed)).await?;
        txn.commit().await?;
        let entries = self
            .reads
            .all(memory_entry::Entity::find().filter(memory_entry::Column::OrganizationId.eq(actor.organization_id)))
            .await?;
        self.vectors.forget(Corpus::Memory, actor.organization_id).await;
        self.embed_entries(&entries).await?;
        Ok(indexed)
    }

    /// Embeds every current version without a vector of the loaded model, in every organization:
    /// what was written before the model was loaded. Returns how many it embedded.
    pub async fn embed_missing(&self) -> Result<u64> {
        let Some(model) = self.vectors.model_name().map(str::to_owned) else { return Ok(0) };
        let mut after: Option<Uuid> = None;
        let mut embedded = 0;
        loop {
            let mut page = memory_entry::Entity::find().order_by_asc(memory_entry::Column::Id).limit(EMBED_PAGE);
            if let Some(after) = after {
                page = page.filter(memory_entry::Column::Id.gt(after));
            }
            let entries = self.reads.all(page).await?;
            let Some(last) = entries.last() else { return Ok(embedded) };
            after = Some(last.id);
            let vectors = self
                .reads
                .all(
                    memory_vector::Entity::find()
                        .filter(memory_vector::Column::EntryId.is_in(entries.iter().map(|e| e.id)))
                        .filter(memory_vector::Column::Model.eq(model.as_str())),
                )
                .await?;
            let missing: Vec<memory_entry::Model> = entries
                .into_iter()
                .filter(|e| !vectors.iter().any(|v| v.entry_id == e.id && Some(v.version_id) == e.current_version_id))
                .collect();
            embedded += self.embed_entries(&missing).await?;
        }
    }

    /// Embeds the entries' current versions and stores their vectors, in batches; an entry whose
    /// current version changed meanwhile is left to the write that changed it.
    async fn embed_entries(&self, entries: &[memory_entry::Model]) -> Result<u64> {
        let mut embedded = 0;
        for batch in entries.chunks(EMBED_BATCH) {
            let versions = self
                .reads
                .all(
                    memory_version::Entity::find()
                        .filter(memory_version::Column::Id.is_in(batch.iter().filter_map(|e| e.current_version_id))),
                )
                .await?;
            let pairs: Vec<(&memory_entry::Model, &memory_version::Model)> = batch
                .iter()
                .filter_map(|e| versions.iter().find(|v| Some(v.id) == e.current_version_id).map(|v| (e, v)))
                .collect();
            let texts = pairs.iter().map(|(e, v)| vectors::text_of(&e.subject, &v.content)).collect();
            let Some(made) = self.vectors.embed(texts).await? else { return Ok(embedded) };
            let txn = self.db.begin_write().await?;
            let now = memory_entry::Entity::find()
                .filter(memory_entry::Column::Id.is_in(pairs.iter().map(|(e, _)| e.id)))
                .lock_exclusive()
                .all(&txn)
                .await?;
            let mut stored = Vec::new();
            for ((entry, version), vector) in pairs.into_iter().zip(made) {
                if now.iter().any(|e| e.id == entry.id && e.current_version_id == Some(version.id)) {
                    let made = Embedded::memory(entry, version);
                    self.vectors.store(&txn, &made, Some(&vector)).await?;
                    stored.push((made, vector));
                }
            }
            txn.commit().await?;
            for (made, vector) in stored {
                self.vectors.committed(&made, Some(&vector)).await;
                embedded += 1;
            }
        }
        Ok(embedded)
    }

    /// A readable entry the caller may change (members and above), at the revision they expect.
    async fn writable(&self, actor: &Actor, id: Uuid, expected_revision: i64) -> Result<ReadableEntry> {
        let readable = self.entry(actor, id, None).await?;
        may_change(actor, &readable.entry, "memory entry")?;
        if readable.entry.revision != expected_revision {
            return Err(CommonError::Conflict { expected: expected_revision, current: readable.entry.revision }.into());
        }
        Ok(readable)
    }
}

async fn current_version(db: &impl ConnectionTrait, entry: &memory_entry::Model) -> Result<memory_version::Model> {
    let id = entry.current_version_id.ok_or_else(no_version)?;
    Ok(memory_version::Entity::find_by_id(id).one(db).await?.ok_or_else(no_version)?)
}

/// An entry a search found, before the caller's filters.
struct Ranked {
    id: Uuid,
    /// The fused score (higher is better); `None` when no text was searched for.
    score: Option<f64>,
    found_by: Vec<Retriever>,
    /// The versions whose words matched, in a search as of a past time.
    versions: Option<Vec<Uuid>>,
}

impl From<Fused> for Ranked {
    fn from(Fused { id, score, found_by }: Fused) -> Self {
        Self { id, score: Some(score), found_by, versions: None }
    }
}

fn no_version() -> CommonError {
    CommonError::Internal("a memory entry without its current version".into())
}

/// Points the entry at `version_id`, one revision on.
async fn make_current(
    db: &impl ConnectionTrait,
    entry: memory_entry::Model,
    version_id: Uuid,
    now: DateTime<Utc>,
) -> Result<memory_entry::Model> {
    let revision = entry.revision + 1;
    let mut active = entry.into_active_model();
    active.current_version_id = Set(Some(version_id));
    active.revision = Set(revision);
    active.updated_at = Set(now);
    Ok(active.update(db).await?)
}

/// One revision on, if the entry is still at `expected`.
async fn bump(
    db: &impl ConnectionTrait,
    entry: memory_entry::Model,
    expected: i64,
    now: DateTime<Utc>,
) -> Result<memory_entry::Model> {
    let updated = memory_entry::Entity::update_many()
        .col_expr(memory_entry::Column::Revision, (expected + 1).into())
        .col_expr(memory_entry::Column::UpdatedAt, now.into())
        .filter(memory_entry::Column::Id.eq(entry.id))
        .filter(memory_entry::Column::Revision.eq(expected))
        .exec(db)
        .await?;
    if updated.rows_affected == 0 {
        return Err(CommonError::Conflict { expected, current: expected + 1 }.into());
    }
    Ok(memory_entry::Model { revision: expected + 1, updated_at: now, ..entry })
}

/// Where a memory scope sits: its organization, workspace and project, the task and run when it
/// is one, and the person standing there.
/// A write's subject, content and times checked and normalized, whoever writes it.
fn checked_text(mut input: NewMemory) -> Result<NewMemory> {
    let invalid = |m: &str| MemoryError::Common(CommonError::validation(m));
    input.subject = input.subject.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    if input.subject.is_empty() || input.subject.chars().count() > MAX_SUBJECT_CHARS {
        return Err(invalid("a subject is 1 to 200 characters"));
    }
    if input.content.trim().is_empty() || input.content.len() > MAX_CONTENT_BYTES {
        return Err(invalid("content is 1 byte to 32 KiB"));
    }
    if input.summary.as_ref().is_some_and(|s| s.len() > MAX_SUMMARY_BYTES) {
        return Err(invalid("a summary is at most 1 KiB"));
    }
    if input.confidence.is_some_and(|c| !(0.0..=1.0).contains(&c)) {
        return Err(invalid("confidence is between 0 and 1"));
    }
    if let (Some(from), Some(until)) = (input.valid_from, input.valid_until)
        && until <= from
    {
        return Err(invalid("validUntil comes after validFrom"));
    }
    Ok(input)
}

/// A run whose agent reads and proposes memory, and where it stands.
#[derive(Debug, Clone, Copy)]
pub struct RunAuthor {
    pub organization_id: Uuid,
    pub workspace_id: Uuid,
    pub project_id: Uuid,
    pub task_id: Uuid,
    pub run_id: Uuid,
    pub attempt_id: Uuid,
    /// The agent of this attempt.
    pub agent_id: Uuid,
}

impl RunAuthor {
    /// The scopes the run reads from: itself, its task, project, workspace and organization, and
    /// its agent's own memory.
    pub fn scopes(&self) -> [Uuid; 6] {
        [self.run_id, self.task_id, self.project_id, self.workspace_id, self.organization_id, self.agent_id]
    }
}

/// Where an agent's proposal goes: the run's task (shared with whoever works on it), or the
/// agent's own memory (what it alone reads in later runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProposalScope {
    Task,
    Agent,
}

struct Place {
    path: ScopePath,
    task_id: Option<Uuid>,
    run_id: Option<Uuid>,
    /// When the scope is an agent's own.
    agent_id: Option<Uuid>,
    user_id: Uuid,
}

impl Place {
    /// The scopes read from here: a narrower scope reads what the broader ones hold, never the
    /// reverse; and a person reads their own memory wherever they stand.
    fn visible_scopes(&self) -> Vec<Uuid> {
        let path = &self.path;
        [
            Some(path.organization_id),
            path.workspace_id,
            path.project_id,
            self.task_id,
            self.run_id,
            self.agent_id,
            Some(self.user_id),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

fn entry_path(entry: &memory_entry::Model) -> ScopePath {
    ScopePath { organization_id: entry.organization_id, workspace_id: entry.workspace_id, project_id: entry.project_id }
}

/// The least role that reads a version of this sensitivity.
fn least_role(sensitivity: Sensitivity) -> Role {
    match sensitivity {
        Sensitivity::Internal => Role::Viewer,
        Sensitivity::Confidential => Role::Member,
        Sensitivity::Restricted => Role::Admin,
    }
}

/// Whether the caller reads something of `sensitivity` and `acl` at `path`: a role there high
/// enough for the sensitivity, and a place on the ACL when it names anyone (administrators read
/// past an ACL, as they manage the scope).
fn may_read(actor: &Actor, path: &ScopePath, sensitivity: Sensitivity, acl: &[Uuid]) -> bool {
    let Some(role) = actor.role_on(path) else { return false };
    role >= least_role(sensitivity) && (acl.is_empty() || acl.contains(&actor.user_id) || role >= Role::Admin)
}

/// Whether the caller may change an entry they read: their own memory, or a shared scope where
/// they are a member or above.
fn may_change(actor: &Actor, entry: &memory_entry::Model, what: &'static str) -> Result<(), CommonError> {
    match entry.scope_kind {
        MemoryScopeKind::User => Ok(()),
        _ => actor.authorize(Permission::WriteTasks, &entry_path(entry), what),
    }
}

fn readable(actor: &Actor, entry: &memory_entry::Model, version: &memory_version::Model) -> bool {
    if entry.scope_kind == MemoryScopeKind::User {
        // A person's own memory, administrators' included, is theirs alone.
        return entry.scope_id == actor.user_id && entry.organization_id == actor.organization_id;
    }
    let acl: Vec<Uuid> = serde_json::from_value(version.acl.clone()).unwrap_or_default();
    may_read(actor, &entry_path(entry), version.sensitivity, &acl)
}
