//! The vector indexes of memory and of the wiki: the embedding of each memory entry's current
//! version (in `memory_vectors`) and of each wiki page's latest revision (in `wiki_vectors`), and,
//! per corpus and organization, in this process's memory, where a search compares the query with
//! every vector of the scopes it reads, roughly in bytes, then exactly for the best (a few
//! milliseconds for 100,000 entries).
//!
//! Derived like the full-text indexes: what becomes current replaces its vector in the same
//! transaction (or removes it when no model is loaded, so no stale vector is ever served), and
//! what was written without a vector is embedded once the model is loaded. The in-memory copy of
//! an organization is read from its table on its first search and kept current by this process's
//! writes.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, OnceLock};

use acc_entity::{memory_entry, memory_vector, memory_version, wiki_page, wiki_revision, wiki_vector};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Set};
use tokio::sync::{RwLock, watch};
use uuid::Uuid;

use super::embedding::{self, Embedder, EmbeddingError};
use super::endpoint::EmbeddingEndpoint;

/// The text that is embedded: what it is about (a memory entry's subject, a page's title), then
/// what it says. The model reads its first few hundred words.
pub fn text_of(subject: &str, content: &str) -> String {
    format!("{subject}. {content}")
}

/// What is searched by meaning; each has its own vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Corpus {
    Memory,
    Wiki,
}

/// What a vector is the embedding of, and where it is read: a memory entry's current version in
/// its scope, or a wiki page's latest revision in its namespace.
#[derive(Debug, Clone, Copy)]
pub struct Embedded {
    pub corpus: Corpus,
    pub id: Uuid,
    pub organization_id: Uuid,
    /// What a search names to read it: a memory scope, or a wiki namespace.
    pub scope_id: Uuid,
    /// The version (of an entry) or revision (of a page) embedded.
    pub version_id: Uuid,
}

impl Embedded {
    pub fn memory(entry: &memory_entry::Model, version: &memory_version::Model) -> Self {
        Self {
            corpus: Corpus::Memory,
            id: entry.id,
            organization_id: entry.organization_id,
            scope_id: entry.scope_id,
            version_id: version.id,
        }
    }

    pub fn wiki_page(page: &wiki_page::Model, revision: &wiki_revision::Model) -> Self {
        Self {
            corpus: Corpus::Wiki,
            id: page.id,
            organization_id: page.organization_id,
            scope_id: page.namespace_id,
            version_id: revision.id,
        }
    }
}

/// What makes the vectors: the built-in model, or an operator's embedding service.
pub enum EmbeddingModel {
    BuiltIn(Arc<Embedder>),
    Endpoint(EmbeddingEndpoint),
}

impl EmbeddingModel {
    /// Stored with every vector: vectors of another model are never compared.
    pub fn name(&self) -> &str {
        match self {
            EmbeddingModel::BuiltIn(_) => embedding::MODEL_NAME,
            EmbeddingModel::Endpoint(endpoint) => endpoint.model(),
        }
    }

    fn dimensions(&self) -> usize {
        match self {
            EmbeddingModel::BuiltIn(_) => embedding::DIMENSIONS,
            EmbeddingModel::Endpoint(endpoint) => endpoint.dimensions(),
        }
    }
}

/// The embedding model, once loaded, and the vectors it made.
pub struct VectorSearch {
    model: OnceLock<EmbeddingModel>,
    /// Whether a model is loaded, for what waits for one.
    loaded: watch::Sender<bool>,
    organizations: RwLock<HashMap<(Corpus, Uuid), Organization>>,
}

impl Default for VectorSearch {
    fn default() -> Self {
        Self { model: OnceLock::new(), loaded: watch::Sender::new(false), organizations: RwLock::default() }
    }
}

/// How many of the nearest vectors take part in a search, and how near one must be to count as
/// found: below it, a vector says the entry is about something else.
const FOUND_CANDIDATES: usize = 100;
const MIN_SIMILARITY: f32 = 0.25;

/// How many more entries than asked for the scan keeps by its rough score, to rank exactly: room
/// for the rough score's error (about 1 % of a cosine), which moves an entry a few places at most.
const RESCORED: usize = 4;

/// One organization's vectors, side by side.
struct Organization {
    dimensions: usize,
    entries: Vec<Uuid>,
    scopes: Vec<Uuid>,
    /// `dimensions` values per entry, in the order of `entries`.
    values: Vec<f32>,
    /// The same vectors in bytes, each scaled so its largest value is ±127: a quarter of what a
    /// scan of every vector reads from memory, which is most of a search's time at 100,000
    /// entries. The scan ranks by them; the best are then ranked by `values`.
    bytes: Vec<i8>,
    /// Each vector's scale: its values are about its bytes times it.
    scales: Vec<f32>,
    position: HashMap<Uuid, usize>,
}

impl Organization {
    fn new(dimensions: usize) -> Self {
        Self {
            dimensions,
            entries: Vec::new(),
            scopes: Vec::new(),
            values: Vec::new(),
            bytes: Vec::new(),
            scales: Vec::new(),
            position: HashMap::new(),
        }
    }

    fn put(&mut self, entry: Uuid, scope: Uuid, vector: &[f32]) {
        let (bytes, scale) = in_bytes(vector);
        match self.position.get(&entry) {
            Some(&i) => {
                let at = i * self.dimensions..(i + 1) * self.dimensions;
                self.scopes[i] = scope;
                self.values[at.clone()].copy_from_slice(vector);
                self.bytes[at].copy_from_slice(&bytes);
                self.scales[i] = scale;
            }
            None => {
                self.position.insert(entry, self.entries.len());
                self.entries.push(entry);
                self.scopes.push(scope);
                self.values.extend_from_slice(vector);
                self.bytes.extend_from_slice(&bytes);
                self.scales.push(scale);
            }
        }
    }

    fn remove(&mut self, entry: Uuid) {
        let Some(i) = self.position.remove(&entry) else { return };
        let last = self.entries.len() - 1;
        self.entries.swap_remove(i);
        self.scopes.swap_remove(i);
        self.scales.swap_remove(i);
        let n = self.dimensions;
        if i != last {
            self.values.copy_within(last * n..(last + 1) * n, i * n);
            self.bytes.copy_within(last * n..(last + 1) * n, i * n);
            self.position.insert(self.entries[i], i);
        }
        self.values.truncate(last * n);
        self.bytes.truncate(last * n);
    }

    /// The `limit` entries of `scopes` nearest to `query`, nearest first, with their cosine: the
    /// nearest by the bytes, [`RESCORED`] times as many as asked, ranked again by the values.
    fn nearest(&self, query: &[f32], scopes: &[Uuid], limit: usize) -> Vec<(Uuid, f32)> {
        let (query_bytes, _) = in_bytes(query);
        let mut rough: Vec<(f32, usize)> = self
            .bytes
            .chunks_exact(self.dimensions)
            .enumerate()
            .filter(|(i, _)| scopes.contains(&self.scopes[*i]))
            .map(|(i, vector)| (dot_bytes(&query_bytes, vector) as f32 * self.scales[i], i))
            .collect();
        let by_score =
            |a: &(f32, usize), b: &(f32, usize)| b.0.total_cmp(&a.0).then(self.entries[a.1].cmp(&self.entries[b.1]));
        keep_best(&mut rough, limit.saturating_mul(RESCORED), by_score);
        let n = self.dimensions;
        let mut exact: Vec<(f32, usize)> =
            rough.into_iter().map(|(_, i)| (dot(query, &self.values[i * n..(i + 1) * n]), i)).collect();
        keep_best(&mut exact, limit, by_score);
        exact.sort_unstable_by(by_score);
        exact.into_iter().map(|(score, i)| (self.entries[i], score)).collect()
    }
}

/// Keeps the `limit` best of `scored` (in no order).
fn keep_best(
    scored: &mut Vec<(f32, usize)>,
    limit: usize,
    by_score: impl FnMut(&(f32, usize), &(f32, usize)) -> Ordering,
) {
    if scored.len() > limit {
        scored.select_nth_unstable_by(limit, by_score);
        scored.truncate(limit);
    }
}

/// `vector` in bytes, scaled so its largest value is ±127, and the scale.
fn in_bytes(vector: &[f32]) -> (Vec<i8>, f32) {
    let largest = vector.iter().fold(0.0f32, |largest, v| largest.max(v.abs()));
    if largest == 0.0 {
        return (vec![0; vector.len()], 0.0);
    }
    let scale = largest / 127.0;
    (vector.iter().map(|v| (v / scale).round() as i8).collect(), scale)
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight running sums, so the compiler keeps them in one vector register.
    let mut sums = [0.0f32; 8];
    let (a, b) = (a.chunks_exact(8), b.chunks_exact(8));
    let rest: f32 = a.remainder().iter().zip(b.remainder()).map(|(x, y)| x * y).sum();
    for (a, b) in a.zip(b) {
        for k in 0..8 {
            sums[k] += a[k] * b[k];
        }
    }
    sums.iter().sum::<f32>() + rest
}

fn dot_bytes(a: &[i8], b: &[i8]) -> i32 {
    // Sixteen running sums of widened products, which the compiler keeps in vector registers.
    let mut sums = [0i32; 16];
    let (a, b) = (a.chunks_exact(16), b.chunks_exact(16));
    let rest: i32 = a.remainder().iter().zip(b.remainder()).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum();
    for (a, b) in a.zip(b) {
        for k in 0..16 {
            sums[k] += i32::from(a[k]) * i32::from(b[k]);
        }
    }
    sums.iter().sum::<i32>() + rest
}

impl VectorSearch {
    /// Whether an embedding model is loaded.
    pub fn is_ready(&self) -> bool {
        self.model.get().is_some()
    }

    /// The name of the model in use, once there is one.
    pub fn model_name(&self) -> Option<&str> {
        self.model.get().map(|model| model.name())
    }

    /// Takes `model` into use; a second one is ignored.
    pub fn set_model(&self, model: EmbeddingModel) {
        if self.model.set(model).is_ok() {
            self.loaded.send_replace(true);
        }
    }

    /// Once a model is loaded (at once if one is); never while none is.
    pub async fn model_loaded(&self) {
        // The sender lives as long as `self`, so the wait ends only with a model.
        let _ = self.loaded.subscribe().wait_for(|loaded| *loaded).await;
    }

    /// The vector of one text, or `None` while no model is loaded.
    pub async fn embed_one(&self, text: String) -> Result<Option<Vec<f32>>, EmbeddingError> {
        Ok(self.embed(vec![text]).await?.and_then(|mut vectors| vectors.pop()))
    }

    /// The vector of something being written; without one when the model fails (an endpoint that
    /// is down, say): the write stands, found by its words until it is embedded again.
    pub async fn vector_for_write(&self, text: String) -> Option<Vec<f32>> {
        match self.embed_one(text).await {
            Ok(vector) => vector,
            Err(e) => {
                tracing::warn!(error = %e, "stored without its vector; it is found by its words alone until embedded");
                None
            }
        }
    }

    /// The vectors of `texts`, or `None` while no model is loaded.
    pub async fn embed(&self, texts: Vec<String>) -> Result<Option<Vec<Vec<f32>>>, EmbeddingError> {
        let Some(model) = self.model.get() else { return Ok(None) };
        let vectors = match model {
            EmbeddingModel::BuiltIn(embedder) => {
                let embedder = embedder.clone();
                // CPU work, off the async runtime's threads.
                tokio::task::spawn_blocking(move || {
                    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                    embedder.embed(&texts)
                })
                .await
                .map_err(|e| EmbeddingError::Failed(e.to_string()))??
            }
            EmbeddingModel::Endpoint(endpoint) => endpoint.embed(texts).await?,
        };
        Ok(Some(vectors))
    }

    /// Stores `vector` as the embedding of what `embedded` names, now current, or removes its
    /// vector when there is none. Inside the transaction that makes it current; [`Self::committed`]
    /// then updates this process's copy.
    pub async fn store(
        &self,
        db: &impl ConnectionTrait,
        embedded: &Embedded,
        vector: Option<&[f32]>,
    ) -> Result<(), DbErr> {
        let (Some(vector), Some(model)) = (vector, self.model_name()) else {
            match embedded.corpus {
                Corpus::Memory => memory_vector::Entity::delete_by_id(embedded.id).exec(db).await?,
                Corpus::Wiki => wiki_vector::Entity::delete_by_id(embedded.id).exec(db).await?,
            };
            return Ok(());
        };
        let vector: Vec<u8> = vector.iter().flat_map(|v| v.to_le_bytes()).collect();
        match embedded.corpus {
            Corpus::Memory => {
                let row = memory_vector::ActiveModel {
                    entry_id: Set(embedded.id),
                    organization_id: Set(embedded.organization_id),
                    scope_id: Set(embedded.scope_id),
                    version_id: Set(embedded.version_id),
                    model: Set(model.to_owned()),
                    vector: Set(vector),
                };
                use memory_vector::Column::*;
                memory_vector::Entity::insert(row)
                    .on_conflict(
                        OnConflict::column(EntryId).update_columns([ScopeId, VersionId, Model, Vector]).to_owned(),
                    )
                    .exec_without_returning(db)
                    .await?;
            }
            Corpus::Wiki => {
                let row = wiki_vector::ActiveModel {
                    page_id: Set(embedded.id),
                    organization_id: Set(embedded.organization_id),
                    namespace_id: Set(embedded.scope_id),
                    revision_id: Set(embedded.version_id),
                    model: Set(model.to_owned()),
                    vector: Set(vector),
                };
                use wiki_vector::Column::*;
                wiki_vector::Entity::insert(row)
                    .on_conflict(
                        OnConflict::column(PageId).update_columns([NamespaceId, RevisionId, Model, Vector]).to_owned(),
                    )
                    .exec_without_returning(db)
                    .await?;
            }
        }
        Ok(())
    }

    /// After the transaction of [`Self::store`] committed: this process's copy follows.
    pub async fn committed(&self, embedded: &Embedded, vector: Option<&[f32]>) {
        let mut organizations = self.organizations.write().await;
        // An organization not read yet reads the table on its first search.
        if let Some(organization) = organizations.get_mut(&(embedded.corpus, embedded.organization_id)) {
            match vector {
                Some(vector) => organization.put(embedded.id, embedded.scope_id, vector),
                None => organization.remove(embedded.id),
            }
        }
    }

    /// The `limit` entries (or pages) of `scopes` (or namespaces) in the organization's `corpus`
    /// nearest to `query`, nearest first, with their cosine similarity.
    async fn nearest(
        &self,
        db: &impl ConnectionTrait,
        corpus: Corpus,
        organization_id: Uuid,
        scopes: &[Uuid],
        query: &[f32],
        limit: usize,
    ) -> Result<Vec<(Uuid, f32)>, DbErr> {
        let key = (corpus, organization_id);
        {
            let organizations = self.organizations.read().await;
            if let Some(organization) = organizations.get(&key) {
                return Ok(organization.nearest(query, scopes, limit));
            }
        }
        let Some(model) = self.model.get() else { return Ok(Vec::new()) };
        // Read under the write lock, so a write committed meanwhile waits and then lands in it.
        let mut organizations = self.organizations.write().await;
        let organization = match organizations.entry(key) {
            Entry::Occupied(loaded) => loaded.into_mut(),
            Entry::Vacant(slot) => slot.insert(load(db, corpus, organization_id, model).await?),
        };
        Ok(organization.nearest(query, scopes, limit))
    }

    /// What is near enough `query` to count as found, in `scopes` of the organization's `corpus`:
    /// the [`FOUND_CANDIDATES`] nearest at most, nearest first, none below [`MIN_SIMILARITY`].
    pub async fn found(
        &self,
        db: &impl ConnectionTrait,
        corpus: Corpus,
        organization_id: Uuid,
        scopes: &[Uuid],
        query: &[f32],
    ) -> Result<Vec<Uuid>, DbErr> {
        let nearest = self.nearest(db, corpus, organization_id, scopes, query, FOUND_CANDIDATES).await?;
        Ok(nearest.into_iter().filter(|(_, similarity)| *similarity >= MIN_SIMILARITY).map(|(id, _)| id).collect())
    }

    /// Forgets this process's copy of the organization's vectors of `corpus`, read again on its
    /// next search.
    pub async fn forget(&self, corpus: Corpus, organization_id: Uuid) {
        self.organizations.write().await.remove(&(corpus, organization_id));
    }
}

async fn load(
    db: &impl ConnectionTrait,
    corpus: Corpus,
    organization_id: Uuid,
    model: &EmbeddingModel,
) -> Result<Organization, DbErr> {
    // (what, where it is read, vector) of each row made by the model in use.
    let rows: Vec<(Uuid, Uuid, Vec<u8>)> = match corpus {
        Corpus::Memory => memory_vector::Entity::find()
            .filter(memory_vector::Column::OrganizationId.eq(organization_id))
            .filter(memory_vector::Column::Model.eq(model.name()))
            .all(db)
            .await?
            .into_iter()
            .map(|row| (row.entry_id, row.scope_id, row.vector))
            .collect(),
        Corpus::Wiki => wiki_vector::Entity::find()
            .filter(wiki_vector::Column::OrganizationId.eq(organization_id))
            .filter(wiki_vector::Column::Model.eq(model.name()))
            .all(db)
            .await?
            .into_iter()
            .map(|row| (row.page_id, row.namespace_id, row.vector))
            .collect(),
    };
    let mut organization = Organization::new(model.dimensions());
    for (id, scope, vector) in rows {
        if vector.len() != organization.dimensions * 4 {
            continue;
        }
        let vector: Vec<f32> = vector.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        organization.put(id, scope, &vector);
    }
    Ok(organization)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIMENSIONS: usize = 8;

    fn unit(at: usize) -> Vec<f32> {
        let mut v = vec![0.0; DIMENSIONS];
        v[at] = 1.0;
        v
    }

    #[test]
    fn the_nearest_of_the_scopes_read_come_first_and_a_removed_entry_is_gone() {
        let (a, b, c) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        let (mine, other) = (Uuid::now_v7(), Uuid::now_v7());
        let mut org = Organization::new(DIMENSIONS);
        let mut query = unit(0);
        query[1] = 0.5;
        org.put(a, mine, &unit(1));
        org.put(b, mine, &unit(0));
        org.put(c, other, &unit(0));
        let found = org.nearest(&query, &[mine], 10);
        assert_eq!(found.iter().map(|(id, _)| *id).collect::<Vec<_>>(), vec![b, a]);
        assert_eq!(found[0].1, 1.0);
        assert_eq!(org.nearest(&query, &[mine], 1).len(), 1);
        org.remove(b);
        org.put(a, mine, &unit(0));
        assert_eq!(org.nearest(&query, &[mine, other], 10).iter().map(|(id, _)| *id).collect::<Vec<_>>(), {
            let mut both = vec![a, c];
            both.sort();
            both
        });
        assert_eq!((org.values.len(), org.bytes.len(), org.scales.len()), (2 * DIMENSIONS, 2 * DIMENSIONS, 2));
    }

    #[test]
    fn ranking_by_bytes_then_values_finds_what_ranking_by_values_alone_finds() {
        // Vectors of the model's size, random but the same every run (xorshift), unit length.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random_unit = || {
            let v: Vec<f32> = (0..384)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
                })
                .collect();
            let length = dot(&v, &v).sqrt();
            v.into_iter().map(|x| x / length).collect::<Vec<f32>>()
        };
        let scope = Uuid::now_v7();
        let mut org = Organization::new(384);
        let vectors: Vec<(Uuid, Vec<f32>)> = (0..5_000).map(|_| (Uuid::now_v7(), random_unit())).collect();
        for (entry, vector) in &vectors {
            org.put(*entry, scope, vector);
        }
        for _ in 0..20 {
            let query = random_unit();
            let mut exact: Vec<(Uuid, f32)> = vectors.iter().map(|(entry, v)| (*entry, dot(&query, v))).collect();
            exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            exact.truncate(100);
            assert_eq!(org.nearest(&query, &[scope], 100), exact);
        }
    }
}
