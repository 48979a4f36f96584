//! GraphQL types and thin resolvers for memory entries, their versions and conflicts.

use acc_entity::memory_conflict::{self, ConflictResolution, ConflictStatus};
use acc_entity::memory_entry::{MemoryKind, MemoryScopeKind};
use acc_entity::memory_version::{self, Sensitivity, Verification};
use std::collections::HashMap;

use async_graphql::dataloader::Loader;
use async_graphql::{Context, Data, Enum, ID, InputObject, Json, Object, SimpleObject, Subscription};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};
use uuid::Uuid;

use super::{Hit, MemoryScope, MemorySearch, NewMemory, ReadableEntry, RetrievalMode, Retriever, Verdict, Written};
use crate::app::Services;
use crate::broker::{Delivery, Event, Topic};
use crate::graphql::{BatchLoader, ContextExt, gql_error};
use crate::identity::actor::Actor;
use crate::identity::actor::ScopeKind;
use crate::identity::graphql::decode_scope;
use crate::ids::{GlobalId, NodeKind, decode, gid};

/// The kinds of SPEC §11, as GraphQL names them.
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "MemoryKind", name = "MemoryKind")]
pub enum MemoryKindValue {
    Fact,
    Decision,
    Constraint,
    Preference,
    Lesson,
    Entity,
    ArtifactReference,
    RunSummary,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "MemoryScopeKind", name = "MemoryScopeKind")]
pub enum MemoryScopeKindValue {
    Organization,
    Workspace,
    Project,
    Task,
    Run,
    /// A person's own memory: only they read it, wherever they stand.
    User,
    /// An agent's own memory: its runs read it; people of its workspace review it from here.
    Agent,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "Verification", name = "MemoryVerification")]
pub enum VerificationValue {
    Unverified,
    Verified,
    Disputed,
    Retracted,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "Sensitivity", name = "MemorySensitivity")]
pub enum SensitivityValue {
    Internal,
    Confidential,
    Restricted,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "ConflictStatus", name = "MemoryConflictStatus")]
pub enum ConflictStatusValue {
    Open,
    Resolved,
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "ConflictResolution", name = "MemoryConflictResolution")]
pub enum ConflictResolutionValue {
    KeepCurrent,
    AcceptProposed,
}

/// A person's judgement of an entry's current version.
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
pub enum MemoryVerdict {
    Verified,
    Disputed,
}

/// One subject in one scope, with the version that stands.
pub struct MemoryEntry(pub ReadableEntry);

#[Object]
impl MemoryEntry {
    pub async fn id(&self) -> ID {
        gid(NodeKind::MemoryEntry, self.0.entry.id)
    }
    async fn scope_kind(&self) -> MemoryScopeKindValue {
        self.0.entry.scope_kind.into()
    }
    /// The organization, workspace, project, task, run, person or agent the entry belongs to.
    async fn scope_id(&self) -> ID {
        let kind = match self.0.entry.scope_kind {
            MemoryScopeKind::Organization => NodeKind::Organization,
            MemoryScopeKind::Workspace => NodeKind::Workspace,
            MemoryScopeKind::Project => NodeKind::Project,
            MemoryScopeKind::Task => NodeKind::Task,
            MemoryScopeKind::Run => NodeKind::TaskRun,
            MemoryScopeKind::User => NodeKind::User,
            MemoryScopeKind::Agent => NodeKind::Agent,
        };
        gid(kind, self.0.entry.scope_id)
    }
    async fn kind(&self) -> MemoryKindValue {
        self.0.entry.kind.into()
    }
    /// What the entry is about, normalized (lowercase, single spaces).
    async fn subject(&self) -> &str {
        &self.0.entry.subject
    }
    /// The version that stands: now, or at the `asOf` time the entry was read at.
    async fn current(&self) -> MemoryVersion {
        MemoryVersion(self.0.version.clone())
    }
    /// Every version the caller may read, oldest first.
    async fn versions(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<MemoryVersion>> {
        let loader = ctx.data_unchecked::<BatchLoader<MemoryLoader>>();
        let versions = loader.load_one(VersionsOf(self.0.entry.id)).await?.unwrap_or_default();
        Ok(versions.into_iter().map(MemoryVersion).collect())
    }
    /// Contradicting writes, open and resolved, oldest first.
    async fn conflicts(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<MemoryConflict>> {
        let loader = ctx.data_unchecked::<BatchLoader<MemoryLoader>>();
        let conflicts = loader.load_one(ConflictsOf(self.0.entry.id)).await?.unwrap_or_default();
        Ok(conflicts.into_iter().map(MemoryConflict).collect())
    }
    async fn revision(&self) -> i64 {
        self.0.entry.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.entry.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.entry.updated_at
    }
}

/// One version of an entry: its content never changes.
pub struct MemoryVersion(pub memory_version::Model);

#[Object]
impl MemoryVersion {
    pub async fn id(&self) -> ID {
        gid(NodeKind::MemoryVersion, self.0.id)
    }
    async fn number(&self) -> i32 {
        self.0.number
    }
    async fn content(&self) -> &str {
        &self.0.content
    }
    async fn summary(&self) -> Option<&str> {
        self.0.summary.as_deref()
    }
    /// sha256 of the content, lowercase hex.
    async fn content_hash(&self) -> &str {
        &self.0.content_hash
    }
    /// Where it came from: who wrote it, and for an agent's write the run, event and artifact.
    async fn provenance(&self) -> Json<serde_json::Value> {
        Json(self.0.provenance.clone())
    }
    async fn confidence(&self) -> Option<f64> {
        self.0.confidence
    }
    async fn verification(&self) -> VerificationValue {
        self.0.verification.into()
    }
    async fn sensitivity(&self) -> SensitivityValue {
        self.0.sensitivity.into()
    }
    async fn valid_from(&self) -> DateTime<Utc> {
        self.0.valid_from
    }
    async fn valid_until(&self) -> Option<DateTime<Utc>> {
        self.0.valid_until
    }
    async fn supersedes_id(&self) -> Option<ID> {
        self.0.supersedes_version_id.map(|id| gid(NodeKind::MemoryVersion, id))
    }
    /// Users who alone may read it besides administrators; empty: whoever the scope and sensitivity allow.
    async fn acl(&self) -> Vec<ID> {
        let users: Vec<Uuid> = serde_json::from_value(self.0.acl.clone()).unwrap_or_default();
        users.into_iter().map(|id| gid(NodeKind::User, id)).collect()
    }
    async fn created_by_id(&self) -> Option<ID> {
        self.0.created_by_user_id.map(|id| gid(NodeKind::User, id))
    }
    /// When it became the entry's current version; null while it waits in a conflict.
    async fn became_current_at(&self) -> Option<DateTime<Utc>> {
        self.0.became_current_at
    }
    async fn verified_by_id(&self) -> Option<ID> {
        self.0.verified_by.map(|id| gid(NodeKind::User, id))
    }
    async fn verified_at(&self) -> Option<DateTime<Utc>> {
        self.0.verified_at
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

/// A write that contradicted the entry's current version, until a person decides.
pub struct MemoryConflict(pub memory_conflict::Model);

#[Object]
impl MemoryConflict {
    pub async fn id(&self) -> ID {
        gid(NodeKind::MemoryConflict, self.0.id)
    }
    async fn entry_id(&self) -> ID {
        gid(NodeKind::MemoryEntry, self.0.entry_id)
    }
    async fn current_version_id(&self) -> ID {
        gid(NodeKind::MemoryVersion, self.0.current_version_id)
    }
    async fn proposed_version_id(&self) -> ID {
        gid(NodeKind::MemoryVersion, self.0.proposed_version_id)
    }
    async fn status(&self) -> ConflictStatusValue {
        self.0.status.into()
    }
    async fn resolution(&self) -> Option<ConflictResolutionValue> {
        self.0.resolution.map(Into::into)
    }
    async fn resolved_by_id(&self) -> Option<ID> {
        self.0.resolved_by.map(|id| gid(NodeKind::User, id))
    }
    async fn resolved_at(&self) -> Option<DateTime<Utc>> {
        self.0.resolved_at
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

/// What a write did: the version it made stands, or waits in the conflict it opened.
#[derive(SimpleObject)]
pub struct MemoryWrite {
    entry: MemoryEntry,
    version: MemoryVersion,
    conflict: Option<MemoryConflict>,
}

impl From<Written> for MemoryWrite {
    fn from(written: Written) -> Self {
        Self {
            entry: MemoryEntry(written.entry),
            version: MemoryVersion(written.version),
            conflict: written.conflict.map(MemoryConflict),
        }
    }
}

/// How memory is searched: by words alone until the embedding model is loaded, then by words and
/// meaning, fused.
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "RetrievalMode", name = "MemoryRetrievalMode")]
pub enum RetrievalModeValue {
    FullTextOnly,
    Hybrid,
}

/// A retrieval: full text (the words) or vector (the meaning, by the embedding model).
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "Retriever", name = "MemoryRetriever")]
pub enum RetrieverValue {
    FullText,
    Vector,
}

/// An entry found, and why.
#[derive(SimpleObject)]
pub struct MemoryHit {
    entry: MemoryEntry,
    /// How well it matched, by reciprocal rank fusion of the retrievals that found it: higher is
    /// better, comparable within one search; null when no text was searched for.
    score: Option<f64>,
    /// The retrievals that found it; empty when no text was searched for.
    found_by: Vec<RetrieverValue>,
}

impl From<Hit> for MemoryHit {
    fn from(hit: Hit) -> Self {
        Self {
            entry: MemoryEntry(hit.entry),
            score: hit.score,
            found_by: hit.found_by.into_iter().map(Into::into).collect(),
        }
    }
}

/// The memory scope an id names: an organization, workspace, project, task, run, or the caller (their own memory).
fn scope(raw: &ID) -> async_graphql::Result<MemoryScope> {
    for (node, kind) in [
        (NodeKind::Task, MemoryScopeKind::Task),
        (NodeKind::TaskRun, MemoryScopeKind::Run),
        (NodeKind::User, MemoryScopeKind::User),
        (NodeKind::Agent, MemoryScopeKind::Agent),
    ] {
        if let Ok(id) = GlobalId::decode_as(raw, node) {
            return Ok(MemoryScope { kind, id });
        }
    }
    let (kind, id) = decode_scope(raw)?;
    let kind = match kind {
        ScopeKind::Organization => MemoryScopeKind::Organization,
        ScopeKind::Workspace => MemoryScopeKind::Workspace,
        ScopeKind::Project => MemoryScopeKind::Project,
    };
    Ok(MemoryScope { kind, id })
}

#[derive(InputObject)]
pub struct WriteMemoryInput {
    /// An organization, workspace, project, task or run id, or your own user id for memory only you read.
    scope_id: ID,
    kind: MemoryKindValue,
    /// What it is about; a second write about the same subject in the same scope contradicts or supersedes this one.
    subject: String,
    content: String,
    summary: Option<String>,
    #[graphql(default_with = "SensitivityValue::Internal")]
    sensitivity: SensitivityValue,
    confidence: Option<f64>,
    valid_from: Option<DateTime<Utc>>,
    valid_until: Option<DateTime<Utc>>,
    /// Users who alone may read it besides administrators.
    #[graphql(default)]
    acl: Vec<ID>,
    /// The version this write replaces. Unless it is the current one, the write opens a conflict.
    supersedes: Option<ID>,
}

impl WriteMemoryInput {
    fn read(self) -> async_graphql::Result<NewMemory> {
        Ok(NewMemory {
            scope: scope(&self.scope_id)?,
            kind: self.kind.into(),
            subject: self.subject,
            content: self.content,
            summary: self.summary,
            sensitivity: self.sensitivity.into(),
            confidence: self.confidence,
            valid_from: self.valid_from,
            valid_until: self.valid_until,
            acl: self.acl.iter().map(|id| decode(id, NodeKind::User)).collect::<Result<_, _>>()?,
            supersedes: self.supersedes.as_ref().map(|id| decode(id, NodeKind::MemoryVersion)).transpose()?,
        })
    }
}

#[derive(Default)]
pub struct MemoryQuery;

#[Object]
impl MemoryQuery {
    /// What memory holds for `scopeId` and the scopes above it that the caller may read: entries
    /// matching `query` best first, or the most recently changed without one; `first` of them (20
    /// unless given, at most 50). Only `kinds` when given. Retracted versions only when asked for
    /// in `verification`; versions outside their validity time never. `retrievers` limits a
    /// search to some retrievals (all that `memoryRetrievalMode` has when absent); `VECTOR`
    /// without the embedding model is `CAPABILITY_MISSING`. `asOf` reads memory as it stood at
    /// that time: each entry's version current then, within its validity then, found by its words
    /// alone (`VECTOR` with `asOf` is `VALIDATION`); `verification` filters by today's verdict.
    #[allow(clippy::too_many_arguments)]
    async fn memory(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
        query: Option<String>,
        kinds: Option<Vec<MemoryKindValue>>,
        verification: Option<Vec<VerificationValue>>,
        retrievers: Option<Vec<RetrieverValue>>,
        as_of: Option<DateTime<Utc>>,
        first: Option<i32>,
    ) -> async_graphql::Result<Vec<MemoryHit>> {
        let request = MemorySearch {
            scope: scope(&scope_id)?,
            text: query,
            kinds: kinds.unwrap_or_default().into_iter().map(Into::into).collect(),
            verification: verification.unwrap_or_default().into_iter().map(Into::into).collect(),
            retrievers: retrievers.unwrap_or_default().into_iter().map(Into::into).collect(),
            as_of,
            first: first.map_or(super::DEFAULT_HITS, |n| u64::try_from(n).unwrap_or(0)),
        };
        let hits = ctx.services().memory.search(ctx.actor()?, request).await.map_err(gql_error)?;
        Ok(hits.into_iter().map(Into::into).collect())
    }

    /// How `memory` searches now.
    async fn memory_retrieval_mode(&self, ctx: &Context<'_>) -> async_graphql::Result<RetrievalModeValue> {
        ctx.actor()?;
        Ok(ctx.services().memory.retrieval_mode().into())
    }

    /// A memory entry, with the version that stood at `asOf` (now when absent).
    async fn memory_entry(
        &self,
        ctx: &Context<'_>,
        id: ID,
        as_of: Option<DateTime<Utc>>,
    ) -> async_graphql::Result<MemoryEntry> {
        let id = decode(&id, NodeKind::MemoryEntry)?;
        let entry = ctx.services().memory.entry(ctx.actor()?, id, as_of).await.map_err(gql_error)?;
        Ok(MemoryEntry(entry))
    }
}

#[derive(Default)]
pub struct MemorySubscription;

#[Subscription]
impl MemorySubscription {
    /// Entries of `scopeId` and the scopes above it, as they stand after each write,
    /// verification, retraction or accepted proposal the caller may read.
    async fn memory_updated(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
    ) -> async_graphql::Result<impl Stream<Item = MemoryEntry>> {
        let scope = scope(&scope_id)?;
        let actor = ctx.actor()?;
        let services = ctx.services();
        // Listening before the first wait: see `LISTEN_FIRST` in http/graphql_ws.rs.
        let live = services.broker.subscribe(Topic::OrganizationMemory(actor.organization_id));
        let audience = services.memory.audience(actor, scope).await.map_err(gql_error)?;
        Ok(live.filter_map(move |delivery| {
            let shown = match delivery {
                Delivery::Event(event) => match &*event {
                    Event::Memory { entry, version } if audience.admits(entry, version) => {
                        Some(MemoryEntry(ReadableEntry { entry: entry.clone(), version: version.clone() }))
                    }
                    _ => None,
                },
                Delivery::Lagged(_) => None,
            };
            async move { shown }
        }))
    }
}

#[derive(Default)]
pub struct MemoryMutation;

#[Object]
impl MemoryMutation {
    /// Writes what a person knows about a subject. It lands unverified; if the subject already
    /// has a live version that this write does not supersede, it opens a conflict instead of
    /// overwriting.
    async fn write_memory(&self, ctx: &Context<'_>, input: WriteMemoryInput) -> async_graphql::Result<MemoryWrite> {
        let input = input.read()?;
        let written = ctx.services().memory.write(ctx.actor()?, input).await.map_err(gql_error)?;
        Ok(written.into())
    }

    /// Verifies or disputes the entry's current version.
    async fn verify_memory(
        &self,
        ctx: &Context<'_>,
        entry_id: ID,
        expected_revision: i64,
        verdict: MemoryVerdict,
    ) -> async_graphql::Result<MemoryEntry> {
        let id = decode(&entry_id, NodeKind::MemoryEntry)?;
        let verdict = match verdict {
            MemoryVerdict::Verified => Verdict::Verified,
            MemoryVerdict::Disputed => Verdict::Disputed,
        };
        let entry =
            ctx.services().memory.verify(ctx.actor()?, id, expected_revision, verdict).await.map_err(gql_error)?;
        Ok(MemoryEntry(entry))
    }

    /// Withdraws the entry's current version; it stays in the history.
    async fn retract_memory(
        &self,
        ctx: &Context<'_>,
        entry_id: ID,
        expected_revision: i64,
    ) -> async_graphql::Result<MemoryEntry> {
        let id = decode(&entry_id, NodeKind::MemoryEntry)?;
        let entry = ctx.services().memory.retract(ctx.actor()?, id, expected_revision).await.map_err(gql_error)?;
        Ok(MemoryEntry(entry))
    }

    /// Makes the organization's memory search index again from the entries (administrators); the
    /// number of entries indexed.
    async fn rebuild_memory_index(&self, ctx: &Context<'_>) -> async_graphql::Result<u64> {
        ctx.services().memory.rebuild_index(ctx.actor()?).await.map_err(gql_error)
    }

    /// Decides a conflict: the current version stays, or the proposed one replaces it.
    async fn resolve_memory_conflict(
        &self,
        ctx: &Context<'_>,
        conflict_id: ID,
        expected_revision: i64,
        resolution: ConflictResolutionValue,
    ) -> async_graphql::Result<MemoryConflict> {
        let id = decode(&conflict_id, NodeKind::MemoryConflict)?;
        let conflict = ctx
            .services()
            .memory
            .resolve_conflict(ctx.actor()?, id, expected_revision, resolution.into())
            .await
            .map_err(gql_error)?;
        Ok(MemoryConflict(conflict))
    }
}

/// The versions of an entry, for `MemoryEntry.versions`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionsOf(pub Uuid);
/// The conflicts of an entry, for `MemoryEntry.conflicts`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ConflictsOf(pub Uuid);

/// Batches what a list of entries (a search's hits) fans out to: one query per relation per list.
pub struct MemoryLoader {
    services: Services,
    actor: Actor,
}

impl Loader<VersionsOf> for MemoryLoader {
    type Value = Vec<memory_version::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[VersionsOf]) -> Result<HashMap<VersionsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let versions = self.services.memory.versions_of(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(versions.into_iter().map(|(id, v)| (VersionsOf(id), v)).collect())
    }
}

impl Loader<ConflictsOf> for MemoryLoader {
    type Value = Vec<memory_conflict::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[ConflictsOf]) -> Result<HashMap<ConflictsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let conflicts = self.services.memory.conflicts_of(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(conflicts.into_iter().map(|(id, c)| (ConflictsOf(id), c)).collect())
    }
}

pub fn add_loaders(data: &mut Data, services: &Services, actor: &Actor) {
    data.insert(BatchLoader::new(MemoryLoader { services: services.clone(), actor: actor.clone() }));
}
