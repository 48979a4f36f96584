//! GraphQL types and thin resolvers for the wiki: namespaces, pages, revisions, diffs and links.

use std::collections::HashMap;

use acc_entity::{wiki_attachment, wiki_namespace, wiki_page, wiki_revision};
use async_graphql::connection::Connection;
use async_graphql::dataloader::Loader;
use async_graphql::{Context, Data, ID, InputObject, Json, Object, SimpleObject, Subscription};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};
use uuid::Uuid;

use super::{Link, NewNamespace, PageAt, PageSave, RevisionDiff, RevisionKey, WikiScope};
use crate::app::Services;
use crate::approvals::graphql::Approval;
use crate::broker::{Delivery, Event, Topic};
use crate::error::CommonError;
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{BatchLoader, ContextExt, gql_error};
use crate::identity::actor::Actor;
use crate::ids::{GlobalId, NodeKind, decode, gid};
use crate::memory::Fused;
use crate::memory::graphql::RetrieverValue;

/// A workspace or project id, as the scope of a namespace.
fn decode_wiki_scope(raw: &ID) -> async_graphql::Result<WikiScope> {
    let id = GlobalId::decode(raw).map_err(gql_error)?;
    match id.kind {
        NodeKind::Workspace => Ok(WikiScope::Workspace(id.id)),
        NodeKind::Project => Ok(WikiScope::Project(id.id)),
        _ => Err(gql_error(CommonError::Validation {
            message: "a wiki namespace belongs to a workspace or a project".into(),
            details: serde_json::json!({ "argument": "scopeId" }),
        })),
    }
}

pub struct WikiNamespace(pub wiki_namespace::Model);

#[Object]
impl WikiNamespace {
    pub async fn id(&self) -> ID {
        gid(NodeKind::WikiNamespace, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// What is published here is what the organization holds true: publishing needs a review.
    async fn authoritative(&self) -> bool {
        self.0.authoritative
    }
    async fn workspace_id(&self) -> ID {
        gid(NodeKind::Workspace, self.0.workspace_id)
    }
    /// The project it belongs to; none for the workspace's own.
    async fn project_id(&self) -> Option<ID> {
        self.0.project_id.map(|id| gid(NodeKind::Project, id))
    }
    /// The users who, besides the scope's administrators, may read and write it; empty when it is
    /// left to the scope's roles.
    async fn acl(&self) -> Vec<ID> {
        super::acl_of(&self.0).into_iter().map(|id| gid(NodeKind::User, id)).collect()
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

pub struct WikiPage(pub wiki_page::Model);

#[Object]
impl WikiPage {
    pub async fn id(&self) -> ID {
        gid(NodeKind::WikiPage, self.0.id)
    }
    async fn namespace_id(&self) -> ID {
        gid(NodeKind::WikiNamespace, self.0.namespace_id)
    }
    /// Its namespace: whether publishing there needs a review (`authoritative`).
    async fn namespace(&self, ctx: &Context<'_>) -> async_graphql::Result<WikiNamespace> {
        let loader = ctx.data_unchecked::<BatchLoader<WikiLoader>>();
        let namespace = loader.load_one(NamespaceById(self.0.namespace_id)).await?;
        namespace.map(WikiNamespace).ok_or_else(|| gql_error(CommonError::NotFound("wiki namespace")))
    }
    /// Normalized: lowercase, hyphens for spaces (`guides/deploy-checklist`).
    async fn path(&self) -> &str {
        &self.0.path
    }
    async fn title(&self) -> &str {
        &self.0.title
    }
    /// The number of the latest revision: what `expectedRevision` names.
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    /// The number of the revision readers are shown; none while the page is a draft.
    async fn published_revision(&self) -> Option<i64> {
        self.0.published_revision
    }
    /// The latest revision.
    async fn latest(&self, ctx: &Context<'_>) -> async_graphql::Result<WikiRevision> {
        let revision = revision_numbered(ctx, &self.0, self.0.revision).await?;
        revision.ok_or_else(|| gql_error(CommonError::NotFound("wiki revision")))
    }
    /// The revision readers are shown; none while the page is a draft.
    async fn published(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<WikiRevision>> {
        match self.0.published_revision {
            Some(number) => revision_numbered(ctx, &self.0, number).await,
            None => Ok(None),
        }
    }
    /// The `[[links]]` of the latest revision, in the order written, each with the page it reaches.
    async fn links(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<WikiLink>> {
        let loader = ctx.data_unchecked::<BatchLoader<WikiLoader>>();
        let links = loader.load_one(LinksOf(self.0.id)).await?.unwrap_or_default();
        Ok(links.into_iter().map(WikiLink).collect())
    }
    /// The files attached to the page: the latest version of each name, by name (at most 200).
    async fn attachments(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<WikiAttachment>> {
        let loader = ctx.data_unchecked::<BatchLoader<WikiLoader>>();
        let attachments = loader.load_one(AttachmentsOf(self.0.id)).await?.unwrap_or_default();
        Ok(attachments.into_iter().map(WikiAttachment).collect())
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.updated_at
    }
}

/// A file attached to a wiki page: one version of its name, its bytes in the artifact store.
/// Downloaded over HTTP (`downloadPath`) with the bearer token.
pub struct WikiAttachment(pub wiki_attachment::Model);

#[Object]
impl WikiAttachment {
    pub async fn id(&self) -> ID {
        gid(NodeKind::WikiAttachment, self.0.id)
    }
    /// A relative path (`diagrams/flow.png`).
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// 1 for the first upload of the name to the page, then +1 per upload.
    async fn number(&self) -> i32 {
        self.0.number
    }
    async fn sha256(&self) -> &str {
        &self.0.sha256
    }
    async fn size_bytes(&self) -> i64 {
        self.0.size_bytes
    }
    async fn media_type(&self) -> &str {
        &self.0.media_type
    }
    async fn created_by_id(&self) -> ID {
        gid(NodeKind::User, self.0.created_by_user_id)
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    /// `GET` it with the bearer token; it answers the bytes as an attachment, or the `Range` asked.
    async fn download_path(&self) -> String {
        attachment_path(self.0.id)
    }
}

/// Where an attachment's bytes are downloaded.
pub fn attachment_path(attachment_id: Uuid) -> String {
    format!("/v1/wiki/attachments/{}", gid(NodeKind::WikiAttachment, attachment_id).0)
}

async fn revision_numbered(
    ctx: &Context<'_>,
    page: &wiki_page::Model,
    number: i64,
) -> async_graphql::Result<Option<WikiRevision>> {
    let loader = ctx.data_unchecked::<BatchLoader<WikiLoader>>();
    let key = RevisionKey { page_id: page.id, namespace_id: page.namespace_id, number: number as i32 };
    Ok(loader.load_one(key).await?.map(WikiRevision))
}

/// One revision of a page: never changes.
pub struct WikiRevision(pub wiki_revision::Model);

#[Object]
impl WikiRevision {
    pub async fn id(&self) -> ID {
        gid(NodeKind::WikiRevision, self.0.id)
    }
    async fn page_id(&self) -> ID {
        gid(NodeKind::WikiPage, self.0.page_id)
    }
    async fn number(&self) -> i32 {
        self.0.number
    }
    /// Where the page was at this revision.
    async fn path(&self) -> &str {
        &self.0.path
    }
    async fn title(&self) -> &str {
        &self.0.title
    }
    /// Markdown, as written: render it sanitized.
    async fn source(&self) -> &str {
        &self.0.source
    }
    /// sha256 of the source, lowercase hex.
    async fn sha256(&self) -> &str {
        &self.0.sha256
    }
    /// Who wrote it: `{"source": "person", "userId"}` or `{"source": "run", "runId", "attemptId"}`.
    async fn provenance(&self) -> Json<serde_json::Value> {
        Json(self.0.provenance.clone())
    }
    async fn created_by_id(&self) -> Option<ID> {
        self.0.created_by_user_id.map(|id| gid(NodeKind::User, id))
    }
    async fn run_id(&self) -> Option<ID> {
        self.0.run_id.map(|id| gid(NodeKind::TaskRun, id))
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

/// A `[[link]]` of a page.
pub struct WikiLink(Link);

#[Object]
impl WikiLink {
    /// The normalized path the link names in the page's namespace.
    async fn target_path(&self) -> &str {
        &self.0.target_path
    }
    /// The page it reaches (also through the path a renamed page had); none for a page not written yet.
    async fn page(&self) -> Option<WikiPage> {
        self.0.page.clone().map(WikiPage)
    }
}

/// What changed between two revisions of a page.
#[derive(SimpleObject)]
pub struct WikiDiff {
    from: i32,
    to: i32,
    /// A unified diff of the two sources, by line.
    unified: String,
    added_lines: i32,
    removed_lines: i32,
}

impl From<RevisionDiff> for WikiDiff {
    fn from(d: RevisionDiff) -> Self {
        let lines = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
        WikiDiff {
            from: d.from,
            to: d.to,
            unified: d.unified,
            added_lines: lines(d.added_lines),
            removed_lines: lines(d.removed_lines),
        }
    }
}

/// A page a search found, with how well it matched and why.
pub struct WikiSearchHit {
    page: wiki_page::Model,
    hit: Fused,
}

#[Object]
impl WikiSearchHit {
    async fn page(&self) -> WikiPage {
        WikiPage(self.page.clone())
    }
    /// How well it matched, by reciprocal rank fusion of the retrievals that found it (as in
    /// memory): higher is better, comparable within one search.
    async fn score(&self) -> f64 {
        self.hit.score
    }
    /// The retrievals that found it: its words, and (with an embedding model loaded) its meaning.
    async fn found_by(&self) -> Vec<RetrieverValue> {
        self.hit.found_by.iter().copied().map(Into::into).collect()
    }
}

#[derive(InputObject)]
pub struct SaveWikiPageInput {
    namespace_id: ID,
    /// Normalized on the way in: `Guides/Deploy Checklist` is `guides/deploy-checklist`.
    path: String,
    title: String,
    /// Markdown, at most 128 KiB.
    source: String,
    /// The revision the edit was made from; leave it out to create the page. A stale one is `CONFLICT`.
    expected_revision: Option<i64>,
}

#[derive(Default)]
pub struct WikiQuery;

#[Object]
impl WikiQuery {
    /// The wiki namespaces of a workspace (its own) or of a project, by name.
    async fn wiki_namespaces(&self, ctx: &Context<'_>, scope_id: ID) -> async_graphql::Result<Vec<WikiNamespace>> {
        let scope = decode_wiki_scope(&scope_id)?;
        let namespaces = ctx.services().wiki.namespaces(ctx.actor()?, scope).await.map_err(gql_error)?;
        Ok(namespaces.into_iter().map(WikiNamespace).collect())
    }

    /// The page at `path` in a namespace, or the page that was there before a rename.
    async fn wiki_page(&self, ctx: &Context<'_>, namespace_id: ID, path: String) -> async_graphql::Result<WikiPage> {
        let namespace_id = decode(&namespace_id, NodeKind::WikiNamespace)?;
        let page = ctx.services().wiki.page_at(ctx.actor()?, namespace_id, &path).await.map_err(gql_error)?;
        Ok(WikiPage(page))
    }

    /// The pages of a namespace, oldest first.
    async fn wiki_pages(
        &self,
        ctx: &Context<'_>,
        namespace_id: ID,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, WikiPage>> {
        let namespace_id = decode(&namespace_id, NodeKind::WikiNamespace)?;
        let request = page_request(after, before, first, last)?;
        let page = ctx.services().wiki.pages(ctx.actor()?, namespace_id, &request).await.map_err(gql_error)?;
        Ok(connection(page, |p| p.id, WikiPage))
    }

    /// A page's revisions, oldest first.
    async fn wiki_revisions(
        &self,
        ctx: &Context<'_>,
        page_id: ID,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, WikiRevision>> {
        let page_id = decode(&page_id, NodeKind::WikiPage)?;
        let request = page_request(after, before, first, last)?;
        let page = ctx.services().wiki.revisions(ctx.actor()?, page_id, &request).await.map_err(gql_error)?;
        Ok(connection(page, |r| r.id, WikiRevision))
    }

    /// What changed in a page from revision `from` to revision `to` (either may be the older).
    async fn wiki_diff(&self, ctx: &Context<'_>, page_id: ID, from: i32, to: i32) -> async_graphql::Result<WikiDiff> {
        let page_id = decode(&page_id, NodeKind::WikiPage)?;
        let diff = ctx.services().wiki.diff(ctx.actor()?, page_id, from, to).await.map_err(gql_error)?;
        Ok(diff.into())
    }

    /// Pages of a workspace's or project's namespaces (a project's search also reads its
    /// workspace's own) whose latest text has any of the query's words or, with an embedding model
    /// loaded, is near its meaning: best first, the two fused as memory fuses them.
    async fn wiki_search(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
        query: String,
        first: Option<i32>,
    ) -> async_graphql::Result<Vec<WikiSearchHit>> {
        let scope = decode_wiki_scope(&scope_id)?;
        let first = first.map(|n| u64::try_from(n).unwrap_or(0));
        let hits = ctx.services().wiki.search(ctx.actor()?, scope, &query, first).await.map_err(gql_error)?;
        Ok(hits.into_iter().map(|(page, hit)| WikiSearchHit { page, hit }).collect())
    }

    /// The pages whose latest revision links to this one (at its path, or one it had before a rename).
    async fn backlinks(&self, ctx: &Context<'_>, page_id: ID) -> async_graphql::Result<Vec<WikiPage>> {
        let page_id = decode(&page_id, NodeKind::WikiPage)?;
        let pages = ctx.services().wiki.backlinks(ctx.actor()?, page_id).await.map_err(gql_error)?;
        Ok(pages.into_iter().map(WikiPage).collect())
    }
}

#[derive(Default)]
pub struct WikiSubscription;

#[Subscription]
impl WikiSubscription {
    /// Pages of a namespace as they stand after each save or rename.
    async fn wiki_page_updated(
        &self,
        ctx: &Context<'_>,
        namespace_id: ID,
    ) -> async_graphql::Result<impl Stream<Item = WikiPage>> {
        let namespace_id = decode(&namespace_id, NodeKind::WikiNamespace)?;
        let (actor, services) = (ctx.actor()?, ctx.services());
        // Listening before the first wait: see `LISTEN_FIRST` in http/graphql_ws.rs.
        let live = services.broker.subscribe(Topic::WikiNamespace(namespace_id));
        services.wiki.namespace(actor, namespace_id).await.map_err(gql_error)?;
        let actor = actor.clone();
        // A change of the namespace's ACL that leaves the subscriber out ends the stream.
        let admitted = live.take_while(move |delivery| {
            let still = match delivery {
                Delivery::Event(event) => match &**event {
                    Event::WikiNamespace(namespace) => super::may_read(&actor, namespace),
                    _ => true,
                },
                Delivery::Lagged(_) => true,
            };
            async move { still }
        });
        Ok(admitted.filter_map(|delivery| {
            let shown = match delivery {
                Delivery::Event(event) => match &*event {
                    Event::WikiPage(page) => Some(WikiPage(page.clone())),
                    _ => None,
                },
                Delivery::Lagged(_) => None,
            };
            async move { shown }
        }))
    }
}

#[derive(Default)]
pub struct WikiMutation;

#[Object]
impl WikiMutation {
    /// A namespace of a workspace or project; administrators make them.
    async fn create_wiki_namespace(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
        name: String,
        #[graphql(default = false)] authoritative: bool,
    ) -> async_graphql::Result<WikiNamespace> {
        let new = NewNamespace { scope: decode_wiki_scope(&scope_id)?, name, authoritative };
        let namespace = ctx.services().wiki.create_namespace(ctx.actor()?, new).await.map_err(gql_error)?;
        Ok(WikiNamespace(namespace))
    }

    /// Keeps a namespace to the users named (at most 50, of the organization) besides the scope's
    /// administrators, or with none leaves it to the scope's roles again; administrators decide.
    /// To anyone it does not name, the namespace and its pages do not exist.
    async fn set_wiki_namespace_acl(
        &self,
        ctx: &Context<'_>,
        namespace_id: ID,
        user_ids: Vec<ID>,
    ) -> async_graphql::Result<WikiNamespace> {
        let namespace_id = decode(&namespace_id, NodeKind::WikiNamespace)?;
        let users = user_ids.iter().map(|id| decode(id, NodeKind::User)).collect::<Result<Vec<_>, _>>()?;
        let wiki = &ctx.services().wiki;
        let namespace = wiki.set_namespace_acl(ctx.actor()?, namespace_id, users).await.map_err(gql_error)?;
        Ok(WikiNamespace(namespace))
    }

    /// Saves a page's next revision (or its first). In a namespace that is not authoritative it is
    /// published at once; in an authoritative one it stays a draft until reviewed.
    async fn save_wiki_page(&self, ctx: &Context<'_>, input: SaveWikiPageInput) -> async_graphql::Result<WikiPage> {
        let save = PageSave {
            namespace_id: decode(&input.namespace_id, NodeKind::WikiNamespace)?,
            path: input.path,
            title: input.title,
            source: input.source,
            expected_revision: input.expected_revision,
        };
        let saved = ctx.services().wiki.save_page(ctx.actor()?, save).await.map_err(gql_error)?;
        Ok(WikiPage(saved.page))
    }

    /// Moves a page to another path, as a new revision; links to the old path still reach it.
    async fn rename_wiki_page(
        &self,
        ctx: &Context<'_>,
        page_id: ID,
        path: String,
        expected_revision: i64,
    ) -> async_graphql::Result<WikiPage> {
        let page_id = decode(&page_id, NodeKind::WikiPage)?;
        let wiki = &ctx.services().wiki;
        let renamed = wiki.rename_page(ctx.actor()?, page_id, &path, expected_revision).await.map_err(gql_error)?;
        Ok(WikiPage(renamed.page))
    }

    /// Asks for a review of a revision (by default the page's latest): an approval in the inbox of
    /// those who may write the namespace. Approving it publishes the revision; its author may not
    /// approve it. Asking again while one is pending returns that one.
    async fn request_wiki_review(
        &self,
        ctx: &Context<'_>,
        page_id: ID,
        revision: Option<i32>,
        reason: Option<String>,
    ) -> async_graphql::Result<Approval> {
        let (wiki, actor) = (&ctx.services().wiki, ctx.actor()?);
        let page = wiki.page(actor, decode(&page_id, NodeKind::WikiPage)?).await.map_err(gql_error)?;
        let number = revision.unwrap_or(page.revision as i32);
        wiki.request_review(actor, page.id, number, reason).await.map(Approval).map_err(gql_error)
    }

    /// Publishes a revision (by default the page's latest), such as an agent's proposal, in a
    /// namespace that is not authoritative; in an authoritative one this is `FORBIDDEN` (a review
    /// publishes there).
    async fn publish_wiki_page(
        &self,
        ctx: &Context<'_>,
        page_id: ID,
        revision: Option<i32>,
    ) -> async_graphql::Result<WikiPage> {
        let (wiki, actor) = (&ctx.services().wiki, ctx.actor()?);
        let page = wiki.page(actor, decode(&page_id, NodeKind::WikiPage)?).await.map_err(gql_error)?;
        let number = revision.unwrap_or(page.revision as i32);
        let published = wiki.publish(actor, page.id, number).await.map_err(gql_error)?;
        Ok(WikiPage(published.page))
    }
}

/// The links of a page's latest revision, for `WikiPage.links`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinksOf(Uuid);

/// The attachments of a page, for `WikiPage.attachments`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AttachmentsOf(Uuid);

/// A namespace by its id, for `WikiPage.namespace`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct NamespaceById(Uuid);

/// A revision by its id, with its page, for `Approval.wikiRevision` and `Approval.wikiPage`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RevisionById(pub Uuid);

/// Batches what a page of wiki pages fans out to.
pub struct WikiLoader {
    services: Services,
    actor: Actor,
}

/// `WikiPage.latest` and `WikiPage.published`.
impl Loader<RevisionKey> for WikiLoader {
    type Value = wiki_revision::Model;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[RevisionKey]) -> Result<HashMap<RevisionKey, Self::Value>, Self::Error> {
        self.services.wiki.revisions_numbered(&self.actor, keys).await.map_err(gql_error)
    }
}

impl Loader<LinksOf> for WikiLoader {
    type Value = Vec<Link>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[LinksOf]) -> Result<HashMap<LinksOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let links = self.services.wiki.links_of(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(links.into_iter().map(|(id, l)| (LinksOf(id), l)).collect())
    }
}

impl Loader<AttachmentsOf> for WikiLoader {
    type Value = Vec<wiki_attachment::Model>;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[AttachmentsOf]) -> Result<HashMap<AttachmentsOf, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let found = self.services.wiki.attachments_of(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(found.into_iter().map(|(id, a)| (AttachmentsOf(id), a)).collect())
    }
}

impl Loader<NamespaceById> for WikiLoader {
    type Value = wiki_namespace::Model;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[NamespaceById]) -> Result<HashMap<NamespaceById, Self::Value>, Self::Error> {
        let ids = keys.iter().map(|k| k.0);
        let found = self.services.wiki.readable_namespaces(&self.actor, ids).await.map_err(gql_error)?;
        Ok(found.into_iter().map(|(id, n)| (NamespaceById(id), n)).collect())
    }
}

impl Loader<RevisionById> for WikiLoader {
    type Value = PageAt;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[RevisionById]) -> Result<HashMap<RevisionById, Self::Value>, Self::Error> {
        let ids: Vec<Uuid> = keys.iter().map(|k| k.0).collect();
        let found = self.services.wiki.revisions_by_id(&self.actor, &ids).await.map_err(gql_error)?;
        Ok(found.into_iter().map(|(id, at)| (RevisionById(id), at)).collect())
    }
}

pub fn add_loaders(data: &mut Data, services: &Services, actor: &Actor) {
    data.insert(BatchLoader::new(WikiLoader { services: services.clone(), actor: actor.clone() }));
}
