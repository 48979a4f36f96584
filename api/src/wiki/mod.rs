//! The wiki (SPEC §12): namespaces of a workspace or project, and pages in them whose Markdown
//! lives in immutable revisions. A save names the revision it was made from (`expectedRevision`),
//! so two people editing at once never lose each other's work: the second gets `CONFLICT`. A
//! rename is a revision too, and leaves the old path as an alias, so `[[links]]` to it still
//! arrive and show as backlinks. What a person saves in a namespace that is not authoritative is
//! published at once; in an authoritative one it stays a draft until a review publishes it: an
//! Approval (`requestWikiReview`) that a person other than the revision's author approves.
//! Elsewhere a writer publishes a draft (an agent's proposal) directly (`publishWikiPage`).
//! Whoever may read the scope reads its wiki; members and above write pages; administrators make
//! namespaces. To anyone else a namespace and its pages do not exist (`NOT_FOUND`).

mod attachments;
pub mod graphql;
mod review;
mod search;
mod text;

use std::collections::HashMap;
use std::sync::Arc;

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{
    project, user, wiki_alias, wiki_link, wiki_namespace, wiki_page, wiki_revision, wiki_vector, workspace,
};
use chrono::Utc;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder,
    QuerySelect, Select, Set,
};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::approvals::{ApprovalError, ApprovalService};
use crate::artifacts::{ArtifactError, ArtifactService};
use crate::audit::{AuditActor, AuditLog, Entry};
use crate::broker::{Broker, Event, Topic};
use crate::db::{Pool, Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::identity::actor::{Actor, Permission, Role, ScopePath};
use crate::ids::new_id;
use crate::memory::vectors::{Corpus, Embedded, text_of};
use crate::memory::{Fused, Retriever, VectorSearch, fuse};
use crate::pagination::{Page, PageRequest, paginate};
use crate::provenance::Author;
use crate::query_words;

pub use attachments::Attach;
pub use review::REVIEW_LIFETIME;
pub use text::normalized_path;

const MAX_NAMESPACE_NAME_CHARS: usize = 64;
const MAX_TITLE_CHARS: usize = 200;
/// Under the request body limit (256 KiB), with room for the rest of the request.
const MAX_SOURCE_BYTES: usize = 128 * 1024;
/// The most hits a search returns, and how many unless asked.
pub const MAX_HITS: u64 = 50;
pub const DEFAULT_HITS: u64 = 20;
/// How many of the best matches by words take part in a search, fused with those by meaning.
const WORD_CANDIDATES: u64 = 100;
/// Pages read, and texts embedded, at a time when vectors are made in bulk.
const EMBED_PAGE: u64 = 128;
const EMBED_BATCH: usize = 16;
const EMBEDDED_CHARS: usize = 2_000;
/// The most namespaces one scope lists, and the most backlinks a page shows.
const MAX_NAMESPACES_LISTED: u64 = 200;
const MAX_BACKLINKS: u64 = 200;
const MAX_ACL_USERS: usize = 50;

#[derive(Debug, thiserror::Error)]
pub enum WikiError {
    #[error(transparent)]
    Common(#[from] CommonError),
    #[error(transparent)]
    Approval(#[from] ApprovalError),
    /// An attachment's bytes: over the upload limit, or the store failed.
    #[error(transparent)]
    Artifact(#[from] ArtifactError),
    /// A rename onto a path another page of the namespace has.
    #[error("another page of this namespace is at `{0}`")]
    PathTaken(String),
    /// Publishing into an authoritative namespace without a review.
    #[error("this namespace is authoritative: a revision is published by a review (requestWikiReview)")]
    ReviewRequired,
    /// Approving a review of one's own revision.
    #[error("you wrote this revision; another person must review it")]
    OwnRevision,
    /// A review or publication of a revision no newer than the published one.
    #[error("revision {revision} is not newer than the published revision {published}")]
    NotNewer { revision: i32, published: i64 },
}

impl From<sea_orm::DbErr> for WikiError {
    fn from(e: sea_orm::DbErr) -> Self {
        WikiError::Common(e.into())
    }
}

impl DomainError for WikiError {
    fn code(&self) -> ErrorCode {
        match self {
            WikiError::Common(e) => e.code(),
            WikiError::Approval(e) => e.code(),
            WikiError::Artifact(e) => e.code(),
            WikiError::PathTaken(_) => ErrorCode::Conflict,
            WikiError::ReviewRequired | WikiError::OwnRevision => ErrorCode::Forbidden,
            WikiError::NotNewer { .. } => ErrorCode::InvalidTransition,
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            WikiError::Common(e) => e.details(),
            WikiError::Approval(e) => e.details(),
            WikiError::Artifact(e) => e.details(),
            WikiError::PathTaken(path) => serde_json::json!({ "path": path }),
            WikiError::ReviewRequired => serde_json::json!({ "needs": "review" }),
            WikiError::OwnRevision => serde_json::json!({ "needs": "another reviewer" }),
            WikiError::NotNewer { revision, published } => {
                serde_json::json!({ "revision": revision, "publishedRevision": published })
            }
        }
    }
}

type Result<T, E = WikiError> = std::result::Result<T, E>;

/// Where a namespace goes.
#[derive(Debug, Clone, Copy)]
pub enum WikiScope {
    Workspace(Uuid),
    Project(Uuid),
}

#[derive(Debug, Clone)]
pub struct NewNamespace {
    pub scope: WikiScope,
    pub name: String,
    pub authoritative: bool,
}

/// A save of a page's source, as the caller gave it.
#[derive(Debug, Clone)]
pub struct PageSave {
    pub namespace_id: Uuid,
    pub path: String,
    pub title: String,
    pub source: String,
    /// The revision the edit was made from; `None` to create the page.
    pub expected_revision: Option<i64>,
}

/// A page with one of its revisions.
#[derive(Debug, Clone)]
pub struct PageAt {
    pub page: wiki_page::Model,
    pub revision: wiki_revision::Model,
}

/// A link of a page, and the page it reaches (through an alias, after a rename), if any.
#[derive(Debug, Clone)]
pub struct Link {
    pub target_path: String,
    pub page: Option<wiki_page::Model>,
}

/// What changed between two revisions of a page, as a unified diff of their sources.
#[derive(Debug, Clone)]
pub struct RevisionDiff {
    pub from: i32,
    pub to: i32,
    pub unified: String,
    pub added_lines: usize,
    pub removed_lines: usize,
}

/// Where a run reads and proposes pages: the namespaces of its project and its workspace's own.
#[derive(Debug, Clone, Copy)]
pub struct RunWiki {
    pub organization_id: Uuid,
    pub workspace_id: Uuid,
    pub project_id: Uuid,
}

/// A page's revision by number, with the page's namespace (whose roles say who reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RevisionKey {
    pub page_id: Uuid,
    pub namespace_id: Uuid,
    pub number: i32,
}

/// Proof that the caller may read a namespace: every read of its pages goes through one.
pub struct Readable(wiki_namespace::Model);

/// Proof that the caller may write pages in a namespace.
pub struct Writable(wiki_namespace::Model);

#[derive(Clone)]
pub struct WikiService {
    db: Pool,
    reads: Reads,
    broker: Broker,
    /// Where reviews are asked for and decided.
    approvals: ApprovalService,
    /// The embedding model memory uses, and pages' vectors.
    vectors: Arc<VectorSearch>,
    /// Where attachments' bytes are kept.
    artifacts: ArtifactService,
    audit: AuditLog,
    max_page_size: u64,
}

impl WikiService {
    pub fn new(
        store: Store,
        broker: Broker,
        approvals: ApprovalService,
        vectors: Arc<VectorSearch>,
        artifacts: ArtifactService,
        audit: AuditLog,
        max_page_size: u64,
    ) -> Self {
        Self { db: store.pool, reads: store.reads, broker, approvals, vectors, artifacts, audit, max_page_size }
    }

    /// Makes a namespace in a workspace or project the caller administers.
    pub async fn create_namespace(&self, actor: &Actor, new: NewNamespace) -> Result<wiki_namespace::Model> {
        let name = new.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAMESPACE_NAME_CHARS || name.chars().any(char::is_control) {
            return Err(CommonError::Validation {
                message: "a wiki namespace's name is 1 to 64 characters, none of them control characters".into(),
                details: serde_json::json!({ "argument": "name" }),
            }
            .into());
        }
        let (workspace_id, project_id, path) = self.scope(actor, new.scope).await?;
        actor.authorize(Permission::Administer, &path, "scope")?;
        let namespace = wiki_namespace::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(actor.organization_id),
            workspace_id: Set(workspace_id),
            project_id: Set(project_id),
            scope_id: Set(project_id.unwrap_or(workspace_id)),
            name: Set(name.to_owned()),
            authoritative: Set(new.authoritative),
            acl: Set(None),
            created_by_user_id: Set(Some(actor.user_id)),
            created_at: Set(Utc::now()),
        };
        let txn = self.db.begin_write().await?;
        let namespace = namespace.insert(&txn).await.map_err(|e| -> WikiError {
            if is_unique_violation(&e) {
                CommonError::Validation {
                    message: "a wiki namespace with this name already exists here".into(),
                    details: serde_json::json!({ "argument": "name" }),
                }
                .into()
            } else {
                e.into()
            }
        })?;
        let created = Entry::by(actor, AuditAction::WikiNamespaceCreated)
            .on(AuditTargetKind::WikiNamespace, namespace.id)
            .at(&path)
            .with("name", namespace.name.as_str())
            .with("authoritative", namespace.authoritative);
        self.audit.append(&txn, created).await?;
        txn.commit().await?;
        Ok(namespace)
    }

    /// The namespaces of a workspace (its own, not its projects') or of a project, by name.
    pub async fn namespaces(&self, actor: &Actor, scope: WikiScope) -> Result<Vec<wiki_namespace::Model>> {
        let (workspace_id, project_id, path) = self.scope(actor, scope).await?;
        actor.authorize(Permission::Read, &path, "scope")?;
        let select = wiki_namespace::Entity::find()
            .filter(wiki_namespace::Column::ScopeId.eq(project_id.unwrap_or(workspace_id)))
            .order_by_asc(wiki_namespace::Column::Name)
            .limit(MAX_NAMESPACES_LISTED);
        Ok(self.reads.all(select).await?.into_iter().filter(|n| may_read(actor, n)).collect())
    }

    /// Keeps a namespace to `users` (of the organization, at most 50) besides the scope's
    /// administrators, or, with none, leaves it to the scope's roles again; by an administrator.
    /// Whoever it no longer admits loses it at once, live subscriptions included.
    pub async fn set_namespace_acl(
        &self,
        actor: &Actor,
        namespace_id: Uuid,
        mut users: Vec<Uuid>,
    ) -> Result<wiki_namespace::Model> {
        let namespace = self.namespace_in(actor, namespace_id).await?;
        actor.authorize(Permission::Administer, &namespace_path(&namespace), "wiki namespace")?;
        users.sort_unstable();
        users.dedup();
        let invalid = |message: &str| CommonError::Validation {
            message: message.to_owned(),
            details: serde_json::json!({ "argument": "userIds" }),
        };
        if users.len() > MAX_ACL_USERS {
            return Err(invalid("a namespace's ACL names at most 50 users").into());
        }
        let known = user::Entity::find()
            .filter(user::Column::Id.is_in(users.iter().copied()))
            .filter(user::Column::OrganizationId.eq(actor.organization_id));
        if !users.is_empty() && self.reads.all(known).await?.len() != users.len() {
            return Err(invalid("a namespace's ACL names only users of your organization").into());
        }
        let mut active = namespace.into_active_model();
        active.acl = Set((!users.is_empty()).then(|| serde_json::json!(users)));
        let txn = self.db.begin_write().await?;
        let namespace = active.update(&txn).await?;
        let set = Entry::by(actor, AuditAction::WikiNamespaceAclSet)
            .on(AuditTargetKind::WikiNamespace, namespace.id)
            .at(&namespace_path(&namespace))
            .with("user_ids", users.iter().map(|u| serde_json::Value::from(u.to_string())).collect::<Vec<_>>());
        self.audit.append(&txn, set).await?;
        txn.commit().await?;
        self.broker.publish(Topic::WikiNamespace(namespace.id), Event::WikiNamespace(namespace.clone()));
        Ok(namespace)
    }

    pub async fn namespace(&self, actor: &Actor, id: Uuid) -> Result<wiki_namespace::Model> {
        Ok(self.readable(actor, id).await?.0)
    }

    /// Saves a page's next revision, or its first when `expected_revision` is `None`.
    pub async fn save_page(&self, actor: &Actor, save: PageSave) -> Result<PageAt> {
        let (path, title) = checked_page(&save.path, &save.title, &save.source)?;
        let namespace = self.writable(actor, save.namespace_id).await?;
        let edit = self.edit(&path, &title, &save.source, person(actor)).await;
        self.save(&namespace, save.expected_revision, &edit).await
    }

    /// The published revision of the page at `path` (or that was there before a rename) in the
    /// run's namespace named `namespace`, for its agent (`wiki_read`). A draft is not there yet.
    pub async fn read_for_run(&self, run: &RunWiki, namespace: &str, path: &str) -> Result<PageAt> {
        let path = normalized_path(path)?;
        let namespace = Readable(self.run_namespace(run, namespace).await?);
        let page = self.resolve(&namespace, &[path]).await?.pop().and_then(|(_, page)| page);
        let page = page.ok_or(CommonError::NotFound("wiki page"))?;
        let published = page.published_revision.ok_or(CommonError::NotFound("published wiki page"))?;
        let revision = self.revision_numbered(&page, published as i32).await?;
        Ok(PageAt { page, revision })
    }

    /// A page the run's agent proposes (`wiki_propose`): the next revision of the page at `path`
    /// of the run's namespace named `namespace`, or its first; a draft with the run as its author,
    /// which only people publish.
    pub async fn propose_for_run(
        &self,
        run: &RunWiki,
        author: (Author, AuditActor),
        namespace: &str,
        page: (&str, &str, &str),
    ) -> Result<PageAt> {
        let (path, title, source) = page;
        let (path, title) = checked_page(path, title, source)?;
        // The run may write where it works: its project's namespaces and its workspace's own.
        let namespace = Writable(self.run_namespace(run, namespace).await?);
        let at_path = wiki_page::Entity::find()
            .filter(wiki_page::Column::NamespaceId.eq(namespace.0.id))
            .filter(wiki_page::Column::Path.eq(path.as_str()));
        let expected = self.reads.one(at_path).await?.map(|p| p.revision);
        let edit = self.edit(&path, &title, source, author).await;
        self.save(&namespace, expected, &edit).await
    }

    /// Published pages of the run's project's namespaces and its workspace's own whose latest
    /// text has the telling words of `text`, best first, each at its published revision: what
    /// the context broker offers a run. Pages never published are left out.
    pub async fn published_for_run(&self, run: &RunWiki, text: &str, limit: u64) -> Result<Vec<PageAt>> {
        let select = namespaces_within(run.organization_id, run.workspace_id, Some(run.project_id));
        let namespaces: Vec<Uuid> =
            self.reads.all(select).await?.into_iter().filter(|n| acl_of(n).is_empty()).map(|n| n.id).collect();
        let words = query_words::telling(&query_words::words(text));
        let mut hits = self.ranked(run.organization_id, &namespaces, text, &words).await?;
        hits.truncate(limit as usize);
        let select = wiki_page::Entity::find()
            .filter(wiki_page::Column::Id.is_in(hits.iter().map(|hit| hit.id)))
            .filter(wiki_page::Column::PublishedRevision.is_not_null());
        let pages: HashMap<Uuid, wiki_page::Model> =
            self.reads.all(select).await?.into_iter().map(|p| (p.id, p)).collect();
        let wanted: Vec<RevisionKey> = hits
            .iter()
            .filter_map(|hit| pages.get(&hit.id))
            .map(|p| RevisionKey {
                page_id: p.id,
                namespace_id: p.namespace_id,
                number: p.published_revision.unwrap_or(0) as i32,
            })
            .collect();
        let mut revisions = self.numbered(&wanted).await?;
        Ok(wanted
            .iter()
            .filter_map(|key| Some(PageAt { page: pages.get(&key.page_id)?.clone(), revision: revisions.remove(key)? }))
            .collect())
    }

    /// The namespace named `name` of the run's project, or else of its workspace.
    async fn run_namespace(&self, run: &RunWiki, name: &str) -> Result<wiki_namespace::Model> {
        let select = namespaces_within(run.organization_id, run.workspace_id, Some(run.project_id))
            .filter(wiki_namespace::Column::Name.eq(name.trim()));
        // A namespace kept to named people is not a run's: its agent acts for no one of them.
        let found = self.reads.all(select).await?.into_iter().filter(|n| acl_of(n).is_empty());
        Ok(found.max_by_key(|n| n.project_id.is_some()).ok_or(CommonError::NotFound("wiki namespace"))?)
    }

    /// Writes an edit, then tells the namespace's subscribers.
    async fn save(&self, namespace: &Writable, expected: Option<i64>, edit: &Edit<'_>) -> Result<PageAt> {
        let (saved, settled) = match self.write(namespace, expected, edit).await {
            // Two first saves of one path at once: the other made the page.
            Err(WikiError::Common(CommonError::Database(e))) if is_unique_violation(&e) => {
                Err(CommonError::Conflict { expected: expected.unwrap_or(0), current: 1 }.into())
            }
            other => other,
        }?;
        self.saved(&saved, &settled, edit).await;
        Ok(saved)
    }

    /// An edit of a page, with the vector of its text (none while no model is loaded).
    async fn edit<'a>(
        &self,
        path: &'a str,
        title: &'a str,
        source: &'a str,
        (author, by): (Author, AuditActor),
    ) -> Edit<'a> {
        let vector = self.vectors.vector_for_write(embedded_text(title, source)).await;
        Edit { path, title, source, author, by, vector }
    }

    /// After an edit committed: this process's vectors follow it, and the namespace's
    /// subscribers are told.
    async fn saved(&self, saved: &PageAt, settled: &[acc_entity::approval::Model], edit: &Edit<'_>) {
        let embedded = Embedded::wiki_page(&saved.page, &saved.revision);
        self.vectors.committed(&embedded, edit.vector.as_deref()).await;
        self.announce_page(&saved.page, settled);
    }

    /// Writes the page's next revision in `txn`. A revision published as it is saved leaves the
    /// reviews of older ones nothing to decide: they are cancelled with it, and returned to
    /// announce once committed.
    async fn revise(
        &self,
        txn: &impl ConnectionTrait,
        namespace: &wiki_namespace::Model,
        page: wiki_page::Model,
        edit: &Edit<'_>,
    ) -> Result<(PageAt, Vec<acc_entity::approval::Model>)> {
        let saved = next_revision(txn, namespace, page, edit).await?;
        let embedded = Embedded::wiki_page(&saved.page, &saved.revision);
        self.vectors.store(txn, &embedded, edit.vector.as_deref()).await?;
        let number = saved.revision.number;
        let settled = match saved.page.published_revision {
            Some(published) if published == i64::from(number) && number > 1 => {
                self.settle(txn, &saved.page, number).await?
            }
            _ => Vec::new(),
        };
        Ok((saved, settled))
    }

    /// Moves a page to `new_path` as a new revision with its latest source; the old path stays an
    /// alias of the page.
    pub async fn rename_page(&self, actor: &Actor, page_id: Uuid, new_path: &str, expected: i64) -> Result<PageAt> {
        let new_path = normalized_path(new_path)?;
        let page = self.page_in(actor, page_id).await?;
        let namespace = self.writable(actor, page.namespace_id).await?;
        let latest = self.revision_numbered(&page, page.revision as i32).await?;
        let edit = self.edit(&new_path, &latest.title, &latest.source, person(actor)).await;
        let (renamed, settled) = self.write_existing(&namespace, page_id, expected, &edit).await?;
        self.saved(&renamed, &settled, &edit).await;
        Ok(renamed)
    }

    /// A page the caller may read.
    pub async fn page(&self, actor: &Actor, id: Uuid) -> Result<wiki_page::Model> {
        let page = self.page_in(actor, id).await?;
        self.readable(actor, page.namespace_id).await?;
        Ok(page)
    }

    /// A page of the caller's organization, before its namespace's roles are checked.
    async fn page_in(&self, actor: &Actor, id: Uuid) -> Result<wiki_page::Model> {
        let select =
            wiki_page::Entity::find_by_id(id).filter(wiki_page::Column::OrganizationId.eq(actor.organization_id));
        Ok(self.reads.one(select).await?.ok_or(CommonError::NotFound("wiki page"))?)
    }

    /// The page at `path` in a namespace, or the page that was there before it was renamed.
    pub async fn page_at(&self, actor: &Actor, namespace_id: Uuid, path: &str) -> Result<wiki_page::Model> {
        let path = normalized_path(path)?;
        let namespace = self.readable(actor, namespace_id).await?;
        let mut found = self.resolve(&namespace, &[path]).await?;
        found.pop().and_then(|(_, page)| page).ok_or(CommonError::NotFound("wiki page").into())
    }

    /// A page of the pages of a namespace, oldest first.
    pub async fn pages(&self, actor: &Actor, namespace_id: Uuid, page: &PageRequest) -> Result<Page<wiki_page::Model>> {
        let namespace = self.readable(actor, namespace_id).await?;
        let select = wiki_page::Entity::find().filter(wiki_page::Column::NamespaceId.eq(namespace.0.id));
        Ok(paginate(&self.reads, select, wiki_page::Column::Id, page, self.max_page_size).await?)
    }

    /// A page of a page's revisions, oldest first.
    pub async fn revisions(
        &self,
        actor: &Actor,
        page_id: Uuid,
        request: &PageRequest,
    ) -> Result<Page<wiki_revision::Model>> {
        let page = self.page(actor, page_id).await?;
        let select = wiki_revision::Entity::find().filter(wiki_revision::Column::PageId.eq(page.id));
        Ok(paginate(&self.reads, select, wiki_revision::Column::Id, request, self.max_page_size).await?)
    }

    /// The revisions `wanted` of pages the caller may read: one statement for the revisions, one
    /// for their pages' namespaces.
    pub async fn revisions_numbered(
        &self,
        actor: &Actor,
        wanted: &[RevisionKey],
    ) -> Result<HashMap<RevisionKey, wiki_revision::Model>> {
        let readable = self.readable_namespaces(actor, wanted.iter().map(|k| k.namespace_id)).await?;
        let wanted: Vec<RevisionKey> =
            wanted.iter().filter(|k| readable.contains_key(&k.namespace_id)).copied().collect();
        self.numbered(&wanted).await
    }

    /// The revisions `wanted`, whoever asks: callers check who may read them first.
    async fn numbered(&self, wanted: &[RevisionKey]) -> Result<HashMap<RevisionKey, wiki_revision::Model>> {
        if wanted.is_empty() {
            return Ok(HashMap::new());
        }
        let mut which = Condition::any();
        for key in wanted {
            which = which.add(
                Condition::all()
                    .add(wiki_revision::Column::PageId.eq(key.page_id))
                    .add(wiki_revision::Column::Number.eq(key.number)),
            );
        }
        let select = wiki_revision::Entity::find().filter(which);
        let mut found: HashMap<(Uuid, i32), wiki_revision::Model> =
            self.reads.all(select).await?.into_iter().map(|r| ((r.page_id, r.number), r)).collect();
        Ok(wanted.iter().filter_map(|k| found.remove(&(k.page_id, k.number)).map(|r| (*k, r))).collect())
    }

    /// A revision of a page the caller may read, by its id.
    pub async fn revision_by_id(&self, actor: &Actor, id: Uuid) -> Result<wiki_revision::Model> {
        let select = wiki_revision::Entity::find_by_id(id)
            .filter(wiki_revision::Column::OrganizationId.eq(actor.organization_id));
        let revision = self.reads.one(select).await?.ok_or(CommonError::NotFound("wiki revision"))?;
        self.page(actor, revision.page_id).await.map_err(|_| CommonError::NotFound("wiki revision"))?;
        Ok(revision)
    }

    /// What changed from revision `from` to revision `to` of a page.
    pub async fn diff(&self, actor: &Actor, page_id: Uuid, from: i32, to: i32) -> Result<RevisionDiff> {
        let page = self.page(actor, page_id).await?;
        let (old, new) = (self.revision_numbered(&page, from).await?, self.revision_numbered(&page, to).await?);
        let diff = similar::TextDiff::from_lines(&old.source, &new.source);
        let (mut added_lines, mut removed_lines) = (0, 0);
        for change in diff.iter_all_changes() {
            match change.tag() {
                similar::ChangeTag::Insert => added_lines += 1,
                similar::ChangeTag::Delete => removed_lines += 1,
                similar::ChangeTag::Equal => {}
            }
        }
        let unified =
            diff.unified_diff().header(&format!("{} @{from}", old.path), &format!("{} @{to}", new.path)).to_string();
        Ok(RevisionDiff { from, to, unified, added_lines, removed_lines })
    }

    /// The pages whose latest text has any of the words of `query`, best first, with their scores:
    /// in the namespaces of `scope` the caller may read, and for a project in its workspace's
    /// own namespaces too (a narrower scope reads what broader ones hold).
    pub async fn search(
        &self,
        actor: &Actor,
        scope: WikiScope,
        query: &str,
        first: Option<u64>,
    ) -> Result<Vec<(wiki_page::Model, Fused)>> {
        let words = query_words::telling(&query_words::words(query));
        if words.is_empty() {
            return Err(CommonError::Validation {
                message: "a wiki search needs at least one word".into(),
                details: serde_json::json!({ "argument": "query" }),
            }
            .into());
        }
        let first = first.unwrap_or(DEFAULT_HITS);
        if !(1..=MAX_HITS).contains(&first) {
            return Err(CommonError::Validation {
                message: format!("`first` is 1 to {MAX_HITS}"),
                details: serde_json::json!({ "argument": "first" }),
            }
            .into());
        }
        let (workspace_id, project_id, path) = self.scope(actor, scope).await?;
        actor.authorize(Permission::Read, &path, "scope")?;
        let select = namespaces_within(actor.organization_id, workspace_id, project_id);
        let namespaces: Vec<Uuid> =
            self.reads.all(select).await?.into_iter().filter(|n| may_read(actor, n)).map(|n| n.id).collect();
        let mut hits = self.ranked(actor.organization_id, &namespaces, query, &words).await?;
        hits.truncate(first as usize);
        let select = wiki_page::Entity::find().filter(wiki_page::Column::Id.is_in(hits.iter().map(|hit| hit.id)));
        let mut pages: HashMap<Uuid, wiki_page::Model> =
            self.reads.all(select).await?.into_iter().map(|p| (p.id, p)).collect();
        Ok(hits.into_iter().filter_map(|hit| pages.remove(&hit.id).map(|p| (p, hit))).collect())
    }

    /// The pages of `namespaces` that match `text`, best first: those with its `words` and,
    /// with a model loaded, those near its meaning, fused as memory fuses them. A model that
    /// fails leaves the words alone.
    async fn ranked(
        &self,
        organization_id: Uuid,
        namespaces: &[Uuid],
        text: &str,
        words: &[String],
    ) -> Result<Vec<Fused>> {
        let by_words = search::search(&self.db, namespaces, words, WORD_CANDIDATES);
        let by_meaning = async {
            let query = match self.vectors.embed_one(text.to_owned()).await {
                Ok(query) => query,
                Err(e) => {
                    tracing::warn!(error = %e, "the wiki is searched by words alone: the embedding model failed");
                    None
                }
            };
            match query {
                Some(query) => {
                    let db = self.db.connection();
                    self.vectors.found(db, Corpus::Wiki, organization_id, namespaces, &query).await.map(Some)
                }
                None => Ok(None),
            }
        };
        let (by_words, by_meaning) = tokio::join!(by_words, by_meaning);
        let by_words = by_words?.into_iter().map(|(id, _)| id).collect();
        let mut lists = vec![(Retriever::FullText, by_words)];
        lists.extend(by_meaning?.map(|ids| (Retriever::Vector, ids)));
        Ok(fuse(&lists))
    }

    /// Embeds, once a model is loaded, every page whose latest revision has no vector of it:
    /// what was written before the model was loaded, or with a model that failed.
    pub fn spawn_embedding_backfill(&self) {
        let service = self.clone();
        let task = async move {
            service.vectors.model_loaded().await;
            match service.embed_missing().await {
                Ok(embedded) => tracing::info!(embedded, "wiki pages written without the model are embedded"),
                Err(e) => tracing::error!(error = %e, "wiki pages written without the model stay without vectors"),
            }
        };
        tokio::spawn(tracing::Instrument::instrument(task, tracing::info_span!("wiki_embedding")));
    }

    /// Embeds every page's latest revision without a vector of the loaded model, in every
    /// organization; returns how many it embedded. A page saved meanwhile is left to its save.
    async fn embed_missing(&self) -> Result<u64> {
        let Some(model) = self.vectors.model_name().map(str::to_owned) else { return Ok(0) };
        let mut after: Option<Uuid> = None;
        let mut embedded = 0;
        loop {
            let mut select = wiki_page::Entity::find().order_by_asc(wiki_page::Column::Id).limit(EMBED_PAGE);
            if let Some(after) = after {
                select = select.filter(wiki_page::Column::Id.gt(after));
            }
            let pages = self.reads.all(select).await?;
            let Some(last) = pages.last() else { return Ok(embedded) };
            after = Some(last.id);
            let select = wiki_vector::Entity::find()
                .filter(wiki_vector::Column::PageId.is_in(pages.iter().map(|p| p.id)))
                .filter(wiki_vector::Column::Model.eq(model.as_str()));
            let vectors = self.reads.all(select).await?;
            let missing: Vec<&wiki_page::Model> = pages
                .iter()
                .filter(|p| !vectors.iter().any(|v| v.page_id == p.id && Some(v.revision_id) == p.latest_revision_id))
                .collect();
            for batch in missing.chunks(EMBED_BATCH) {
                embedded += self.embed_pages(batch).await?;
            }
        }
    }

    /// Embeds the pages' latest revisions and stores their vectors; how many it stored.
    async fn embed_pages(&self, pages: &[&wiki_page::Model]) -> Result<u64> {
        let select = wiki_revision::Entity::find()
            .filter(wiki_revision::Column::Id.is_in(pages.iter().filter_map(|p| p.latest_revision_id)));
        let revisions = self.reads.all(select).await?;
        let texts = revisions.iter().map(|r| embedded_text(&r.title, &r.source)).collect();
        let made = match self.vectors.embed(texts).await {
            Ok(Some(made)) => made,
            Ok(None) => return Ok(0),
            Err(e) => return Err(CommonError::Internal(format!("embedding wiki pages: {e}")).into()),
        };
        let txn = self.db.begin_write().await?;
        let now = wiki_page::Entity::find()
            .filter(wiki_page::Column::Id.is_in(pages.iter().map(|p| p.id)))
            .lock_exclusive()
            .all(&*txn)
            .await?;
        let mut stored = Vec::new();
        for (revision, vector) in revisions.iter().zip(made) {
            // Only a page whose latest revision is still the one embedded.
            let Some(page) = now.iter().find(|p| p.latest_revision_id == Some(revision.id)) else { continue };
            let embedded = Embedded::wiki_page(page, revision);
            self.vectors.store(&*txn, &embedded, Some(&vector)).await?;
            stored.push((embedded, vector));
        }
        txn.commit().await?;
        for (embedded, vector) in &stored {
            self.vectors.committed(embedded, Some(vector)).await;
        }
        Ok(stored.len() as u64)
    }

    /// The pages whose latest revision links to `page_id`, at its path or at one it was known by.
    pub async fn backlinks(&self, actor: &Actor, page_id: Uuid) -> Result<Vec<wiki_page::Model>> {
        let page = self.page(actor, page_id).await?;
        let aliases = self.reads.all(wiki_alias::Entity::find().filter(wiki_alias::Column::PageId.eq(page.id))).await?;
        let paths = aliases.into_iter().map(|a| a.path).chain([page.path.clone()]);
        let linking = wiki_link::Entity::find()
            .filter(wiki_link::Column::NamespaceId.eq(page.namespace_id))
            .filter(wiki_link::Column::TargetPath.is_in(paths))
            .filter(wiki_link::Column::PageId.ne(page.id));
        let links = self.reads.all(linking.limit(MAX_BACKLINKS)).await?;
        let select = wiki_page::Entity::find()
            .filter(wiki_page::Column::Id.is_in(links.iter().map(|l| l.page_id)))
            .order_by_asc(wiki_page::Column::Path);
        Ok(self.reads.all(select).await?)
    }

    /// Per page of `page_ids` (the caller's readable ones), the links of its latest revision in
    /// the order written, each with the page it reaches: two statements for any number of pages.
    pub async fn links_of(&self, actor: &Actor, page_ids: &[Uuid]) -> Result<HashMap<Uuid, Vec<Link>>> {
        let pages = self
            .reads
            .all(
                wiki_page::Entity::find()
                    .filter(wiki_page::Column::Id.is_in(page_ids.iter().copied()))
                    .filter(wiki_page::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?;
        let readable = self.readable_namespaces(actor, pages.iter().map(|p| p.namespace_id)).await?;
        let pages: Vec<_> = pages.into_iter().filter(|p| readable.contains_key(&p.namespace_id)).collect();
        let links = self
            .reads
            .all(
                wiki_link::Entity::find()
                    .filter(wiki_link::Column::PageId.is_in(pages.iter().map(|p| p.id)))
                    .order_by_asc(wiki_link::Column::Id),
            )
            .await?;
        let mut targets: HashMap<Uuid, Vec<String>> = HashMap::new();
        for link in &links {
            targets.entry(link.namespace_id).or_default().push(link.target_path.clone());
        }
        let mut reached: HashMap<(Uuid, String), Option<wiki_page::Model>> = HashMap::new();
        for (namespace_id, paths) in targets {
            let namespace = Readable(readable[&namespace_id].clone());
            for (path, page) in self.resolve(&namespace, &paths).await? {
                reached.insert((namespace_id, path), page);
            }
        }
        let mut by_page: HashMap<Uuid, Vec<Link>> = pages.iter().map(|p| (p.id, Vec::new())).collect();
        for link in links {
            let page = reached.get(&(link.namespace_id, link.target_path.clone())).cloned().flatten();
            by_page.entry(link.page_id).or_default().push(Link { target_path: link.target_path, page });
        }
        Ok(by_page)
    }

    /// The namespace of `WikiScope`: its workspace, its project, and the path roles are read on.
    async fn scope(&self, actor: &Actor, scope: WikiScope) -> Result<(Uuid, Option<Uuid>, ScopePath)> {
        match scope {
            WikiScope::Workspace(id) => {
                let select = workspace::Entity::find_by_id(id)
                    .filter(workspace::Column::OrganizationId.eq(actor.organization_id));
                let workspace = self.reads.one(select).await?.ok_or(CommonError::NotFound("workspace"))?;
                Ok((workspace.id, None, ScopePath::workspace(workspace.organization_id, workspace.id)))
            }
            WikiScope::Project(id) => {
                let select =
                    project::Entity::find_by_id(id).filter(project::Column::OrganizationId.eq(actor.organization_id));
                let project = self.reads.one(select).await?.ok_or(CommonError::NotFound("project"))?;
                let path = ScopePath::project(project.organization_id, project.workspace_id, project.id);
                Ok((project.workspace_id, Some(project.id), path))
            }
        }
    }

    async fn readable(&self, actor: &Actor, namespace_id: Uuid) -> Result<Readable> {
        let namespace = self.namespace_in(actor, namespace_id).await?;
        admitted(actor, &namespace, Permission::Read)?;
        Ok(Readable(namespace))
    }

    async fn writable(&self, actor: &Actor, namespace_id: Uuid) -> Result<Writable> {
        let namespace = self.namespace_in(actor, namespace_id).await?;
        admitted(actor, &namespace, Permission::WriteTasks)?;
        Ok(Writable(namespace))
    }

    async fn namespace_in(&self, actor: &Actor, id: Uuid) -> Result<wiki_namespace::Model> {
        let select = wiki_namespace::Entity::find_by_id(id)
            .filter(wiki_namespace::Column::OrganizationId.eq(actor.organization_id));
        Ok(self.reads.one(select).await?.ok_or(CommonError::NotFound("wiki namespace"))?)
    }

    /// Of the namespaces `ids`, those the caller may read, by id.
    pub async fn readable_namespaces(
        &self,
        actor: &Actor,
        ids: impl Iterator<Item = Uuid>,
    ) -> Result<HashMap<Uuid, wiki_namespace::Model>> {
        let select = wiki_namespace::Entity::find()
            .filter(wiki_namespace::Column::Id.is_in(ids))
            .filter(wiki_namespace::Column::OrganizationId.eq(actor.organization_id));
        let namespaces = self.reads.all(select).await?;
        Ok(namespaces.into_iter().filter(|n| may_read(actor, n)).map(|n| (n.id, n)).collect())
    }

    /// Each of `paths` with the page at it, or else the page it is an alias of.
    async fn resolve(&self, namespace: &Readable, paths: &[String]) -> Result<Vec<(String, Option<wiki_page::Model>)>> {
        let pages = self
            .reads
            .all(
                wiki_page::Entity::find()
                    .filter(wiki_page::Column::NamespaceId.eq(namespace.0.id))
                    .filter(wiki_page::Column::Path.is_in(paths.iter().cloned())),
            )
            .await?;
        let mut at: HashMap<String, wiki_page::Model> = pages.into_iter().map(|p| (p.path.clone(), p)).collect();
        let missing: Vec<&String> = paths.iter().filter(|p| !at.contains_key(*p)).collect();
        let aliases = if missing.is_empty() {
            Vec::new()
        } else {
            let select = wiki_alias::Entity::find()
                .filter(wiki_alias::Column::NamespaceId.eq(namespace.0.id))
                .filter(wiki_alias::Column::Path.is_in(missing.into_iter().cloned()));
            self.reads.all(select).await?
        };
        if !aliases.is_empty() {
            let select =
                wiki_page::Entity::find().filter(wiki_page::Column::Id.is_in(aliases.iter().map(|a| a.page_id)));
            let by_id: HashMap<Uuid, wiki_page::Model> =
                self.reads.all(select).await?.into_iter().map(|p| (p.id, p)).collect();
            for alias in aliases {
                if let Some(page) = by_id.get(&alias.page_id) {
                    at.insert(alias.path, page.clone());
                }
            }
        }
        Ok(paths.iter().map(|p| (p.clone(), at.get(p).cloned())).collect())
    }

    async fn revision_numbered(&self, page: &wiki_page::Model, number: i32) -> Result<wiki_revision::Model> {
        let select = wiki_revision::Entity::find()
            .filter(wiki_revision::Column::PageId.eq(page.id))
            .filter(wiki_revision::Column::Number.eq(number));
        Ok(self.reads.one(select).await?.ok_or(CommonError::NotFound("wiki revision"))?)
    }

    /// A save at a path: the page's next revision there, or its first.
    async fn write(
        &self,
        namespace: &Writable,
        expected: Option<i64>,
        edit: &Edit<'_>,
    ) -> Result<(PageAt, Vec<acc_entity::approval::Model>)> {
        let txn = self.db.begin_write().await?;
        let existing = wiki_page::Entity::find()
            .filter(wiki_page::Column::NamespaceId.eq(namespace.0.id))
            .filter(wiki_page::Column::Path.eq(edit.path))
            .lock_exclusive()
            .one(&*txn)
            .await?;
        let saved = match (existing, expected) {
            (None, None) => {
                // The path may have been another page's before its rename: it is this page's now.
                drop_alias(&*txn, namespace.0.id, edit.path).await?;
                let now = Utc::now();
                let page = wiki_page::ActiveModel {
                    id: Set(new_id()),
                    organization_id: Set(namespace.0.organization_id),
                    namespace_id: Set(namespace.0.id),
                    workspace_id: Set(namespace.0.workspace_id),
                    project_id: Set(namespace.0.project_id),
                    path: Set(edit.path.to_owned()),
                    title: Set(edit.title.to_owned()),
                    latest_revision_id: Set(None),
                    published_revision: Set(None),
                    revision: Set(0),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&*txn)
                .await?;
                self.revise(&*txn, &namespace.0, page, edit).await?
            }
            (None, Some(expected)) => return Err(CommonError::Conflict { expected, current: 0 }.into()),
            (Some(page), expected) if expected != Some(page.revision) => {
                return Err(CommonError::Conflict { expected: expected.unwrap_or(0), current: page.revision }.into());
            }
            (Some(page), _) => self.revise(&*txn, &namespace.0, page, edit).await?,
        };
        self.audit.append(&*txn, saved_entry(AuditAction::WikiPageSaved, edit, &saved.0)).await?;
        txn.commit().await?;
        Ok(saved)
    }

    /// A revision of the page `page_id`, which may move it to another path.
    async fn write_existing(
        &self,
        namespace: &Writable,
        page_id: Uuid,
        expected: i64,
        edit: &Edit<'_>,
    ) -> Result<(PageAt, Vec<acc_entity::approval::Model>)> {
        let txn = self.db.begin_write().await?;
        let page = wiki_page::Entity::find_by_id(page_id)
            .lock_exclusive()
            .one(&*txn)
            .await?
            .ok_or(CommonError::NotFound("wiki page"))?;
        if page.revision != expected {
            return Err(CommonError::Conflict { expected, current: page.revision }.into());
        }
        let renamed_from = (page.path != edit.path).then(|| page.path.clone());
        if page.path != edit.path {
            let taken = wiki_page::Entity::find()
                .filter(wiki_page::Column::NamespaceId.eq(namespace.0.id))
                .filter(wiki_page::Column::Path.eq(edit.path))
                .one(&*txn)
                .await?;
            if taken.is_some() {
                return Err(WikiError::PathTaken(edit.path.to_owned()));
            }
            // The new path is no longer an alias of anything; the old one becomes this page's.
            drop_alias(&*txn, namespace.0.id, edit.path).await?;
            wiki_alias::ActiveModel {
                id: Set(new_id()),
                page_id: Set(page.id),
                namespace_id: Set(namespace.0.id),
                path: Set(page.path.clone()),
                created_at: Set(Utc::now()),
            }
            .insert(&*txn)
            .await?;
        }
        let saved = self.revise(&*txn, &namespace.0, page, edit).await?;
        let recorded = match renamed_from {
            Some(from) => saved_entry(AuditAction::WikiPageRenamed, edit, &saved.0).with("from", from),
            None => saved_entry(AuditAction::WikiPageSaved, edit, &saved.0),
        };
        self.audit.append(&*txn, recorded).await?;
        txn.commit().await?;
        Ok(saved)
    }
}

/// One revision's content and author.
struct Edit<'a> {
    path: &'a str,
    title: &'a str,
    source: &'a str,
    author: Author,
    /// Who the audit trail says acted.
    by: AuditActor,
    /// The embedding of the title and source; none while no model is loaded.
    vector: Option<Vec<f32>>,
}

/// Who a person's edit is by: the revision's author and the trail's actor.
fn person(actor: &Actor) -> (Author, AuditActor) {
    (Author::Person(actor.user_id), actor.into())
}

/// The trail's record of a saved revision: where, which revision, and whether it was published
/// with the save (or waits for review); never the text.
fn saved_entry(action: AuditAction, edit: &Edit<'_>, saved: &PageAt) -> Entry {
    let (page, number) = (&saved.page, saved.revision.number);
    page_record(Entry::new(page.organization_id, edit.by, action), page, number)
        .with("published", page.published_revision == Some(i64::from(number)))
}

/// What a person did to revision `number` of a page.
fn page_entry(actor: &Actor, action: AuditAction, page: &wiki_page::Model, number: i32) -> Entry {
    page_record(Entry::by(actor, action), page, number)
}

fn page_record(entry: Entry, page: &wiki_page::Model, number: i32) -> Entry {
    let path = ScopePath {
        organization_id: page.organization_id,
        workspace_id: Some(page.workspace_id),
        project_id: page.project_id,
    };
    entry
        .on(AuditTargetKind::WikiPage, page.id)
        .at(&path)
        .with("namespace_id", page.namespace_id.to_string())
        .with("path", page.path.as_str())
        .with("revision", number)
}

/// Writes the page's next revision and points the page at it; its links replace the last ones.
/// A person's revision in a namespace that is not authoritative is published with it.
async fn next_revision(
    txn: &impl ConnectionTrait,
    namespace: &wiki_namespace::Model,
    page: wiki_page::Model,
    edit: &Edit<'_>,
) -> Result<PageAt> {
    let now = Utc::now();
    let number = page.revision + 1;
    let revision = wiki_revision::ActiveModel {
        id: Set(new_id()),
        organization_id: Set(page.organization_id),
        page_id: Set(page.id),
        number: Set(number as i32),
        path: Set(edit.path.to_owned()),
        title: Set(edit.title.to_owned()),
        source: Set(edit.source.to_owned()),
        sha256: Set(hex::encode(Sha256::digest(edit.source.as_bytes()))),
        provenance: Set(edit.author.provenance()),
        created_by_user_id: Set(edit.author.user_id()),
        run_id: Set(edit.author.run_id()),
        created_at: Set(now),
    }
    .insert(txn)
    .await?;
    search::index(txn, page.id, edit.title, edit.source).await?;
    wiki_link::Entity::delete_many().filter(wiki_link::Column::PageId.eq(page.id)).exec(txn).await?;
    let links: Vec<wiki_link::ActiveModel> = text::links(edit.source)
        .into_iter()
        .map(|target_path| wiki_link::ActiveModel {
            id: Set(new_id()),
            page_id: Set(page.id),
            namespace_id: Set(namespace.id),
            target_path: Set(target_path),
            created_at: Set(now),
        })
        .collect();
    if !links.is_empty() {
        wiki_link::Entity::insert_many(links).exec_without_returning(txn).await?;
    }
    let published = matches!(edit.author, Author::Person(_)) && !namespace.authoritative;
    let mut active = page.into_active_model();
    active.path = Set(edit.path.to_owned());
    active.title = Set(edit.title.to_owned());
    active.latest_revision_id = Set(Some(revision.id));
    active.revision = Set(number);
    if published {
        active.published_revision = Set(Some(number));
    }
    active.updated_at = Set(now);
    let page = active.update(txn).await?;
    Ok(PageAt { page, revision })
}

/// What of a page is embedded: its title and the start of its text, which is all a model reads
/// (the built-in one, 256 tokens) and keeps a page within what an embedding service takes.
fn embedded_text(title: &str, source: &str) -> String {
    let start = source.char_indices().nth(EMBEDDED_CHARS).map_or(source, |(end, _)| &source[..end]);
    text_of(title, start)
}

/// A workspace's own namespaces and, given one of its projects, that project's too: where a
/// project's search and its runs read (a narrower scope reads what broader ones hold).
fn namespaces_within(
    organization_id: Uuid,
    workspace_id: Uuid,
    project_id: Option<Uuid>,
) -> Select<wiki_namespace::Entity> {
    let own = wiki_namespace::Column::ProjectId.is_null();
    let within = match project_id {
        Some(project_id) => Condition::any().add(own).add(wiki_namespace::Column::ProjectId.eq(project_id)),
        None => Condition::all().add(own),
    };
    wiki_namespace::Entity::find()
        .filter(wiki_namespace::Column::OrganizationId.eq(organization_id))
        .filter(wiki_namespace::Column::WorkspaceId.eq(workspace_id))
        .filter(within)
}

/// Whether the caller's roles let them read the namespace.
pub fn may_read(actor: &Actor, namespace: &wiki_namespace::Model) -> bool {
    admitted(actor, namespace, Permission::Read).is_ok()
}

/// Whether the caller's roles grant `permission` on the namespace and its ACL, if it has one,
/// names them: administrators of its scope pass any ACL, as they manage the scope. To anyone it
/// does not name, a namespace with an ACL does not exist (`NOT_FOUND`).
fn admitted(actor: &Actor, namespace: &wiki_namespace::Model, permission: Permission) -> Result<(), CommonError> {
    let path = namespace_path(namespace);
    actor.authorize(permission, &path, "wiki namespace")?;
    let acl = acl_of(namespace);
    let named = acl.is_empty() || acl.contains(&actor.user_id);
    if named || actor.role_on(&path).is_some_and(|role| role >= Role::Admin) {
        Ok(())
    } else {
        Err(CommonError::NotFound("wiki namespace"))
    }
}

/// The users a namespace's ACL names; none when it is left to the scope's roles.
pub fn acl_of(namespace: &wiki_namespace::Model) -> Vec<Uuid> {
    namespace.acl.clone().and_then(|acl| serde_json::from_value(acl).ok()).unwrap_or_default()
}

/// Frees `path` of the namespace from being an alias: a page is (or is about to be) there.
async fn drop_alias(txn: &impl ConnectionTrait, namespace_id: Uuid, path: &str) -> Result<(), sea_orm::DbErr> {
    let aliases = wiki_alias::Entity::delete_many()
        .filter(wiki_alias::Column::NamespaceId.eq(namespace_id))
        .filter(wiki_alias::Column::Path.eq(path));
    aliases.exec(txn).await.map(drop)
}

fn namespace_path(namespace: &wiki_namespace::Model) -> ScopePath {
    match namespace.project_id {
        Some(project_id) => ScopePath::project(namespace.organization_id, namespace.workspace_id, project_id),
        None => ScopePath::workspace(namespace.organization_id, namespace.workspace_id),
    }
}

/// A page's path normalized and title trimmed, once its source is checked for size.
fn checked_page(path: &str, title: &str, source: &str) -> Result<(String, String), CommonError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(CommonError::Validation {
            message: format!("a wiki page's source is at most {MAX_SOURCE_BYTES} bytes"),
            details: serde_json::json!({ "argument": "source", "maxBytes": MAX_SOURCE_BYTES }),
        });
    }
    Ok((normalized_path(path)?, checked_title(title)?))
}

fn checked_title(title: &str) -> Result<String, CommonError> {
    let title = title.trim();
    if title.is_empty() || title.chars().count() > MAX_TITLE_CHARS || title.chars().any(char::is_control) {
        return Err(CommonError::Validation {
            message: "a wiki page's title is 1 to 200 characters, none of them control characters".into(),
            details: serde_json::json!({ "argument": "title" }),
        });
    }
    Ok(title.to_owned())
}
