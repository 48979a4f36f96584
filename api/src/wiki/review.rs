//! Publishing: a writer publishes a draft directly where the namespace is not authoritative; in an
//! authoritative one a revision is published only by a review, an Approval (subject
//! `WIKI_PUBLICATION`) that a person other than its author approves. Once a revision is published,
//! pending reviews of it and of older revisions of its page have nothing left to decide: they are
//! cancelled.

use std::collections::HashMap;

use acc_entity::approval::{self, ApprovalStatus, ApprovalSubject};
use acc_entity::audit_event::AuditAction;
use acc_entity::{wiki_page, wiki_revision};
use chrono::{Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect, Set};
use uuid::Uuid;

use super::{PageAt, Result, WikiError, WikiService, page_entry};
use crate::approvals::{Decision, NewApproval, checked_reason};
use crate::broker::{Event, Topic};
use crate::error::CommonError;
use crate::identity::actor::Actor;

/// How long a review waits for a decision before it expires.
pub const REVIEW_LIFETIME: Duration = Duration::days(14);

impl WikiService {
    /// Asks for a review of revision `number` of a page: a pending Approval in the namespace's
    /// inbox. Asking again while one is pending returns that one.
    pub async fn request_review(
        &self,
        actor: &Actor,
        page_id: Uuid,
        number: i32,
        reason: Option<String>,
    ) -> Result<approval::Model> {
        let reason = checked_reason(reason)?;
        let page = self.page_in(actor, page_id).await?;
        let namespace = self.writable(actor, page.namespace_id).await?;
        let revision = self.revision_numbered(&page, number).await?;
        let txn = self.db.begin_write().await?;
        let page = locked_page(&*txn, page.id).await?;
        not_published(&page, number)?;
        let pending = approval::Entity::find()
            .filter(approval::Column::WikiRevisionId.eq(revision.id))
            .filter(approval::Column::Status.eq(ApprovalStatus::Pending))
            .one(&*txn)
            .await?;
        if let Some(pending) = pending {
            return Ok(pending);
        }
        // The inbox shows the approval to the scope's members; the page of a namespace kept to
        // named people is named there only to them, through `Approval.wikiPage`.
        let (action, details) = match super::acl_of(&namespace.0).is_empty() {
            true => (
                format!("publish “{}” ({}) at revision {number}", revision.title, revision.path),
                serde_json::json!({
                    "namespace": namespace.0.name,
                    "path": revision.path,
                    "title": revision.title,
                    "revision": number,
                    "publishedRevision": page.published_revision,
                }),
            ),
            false => (
                format!("publish revision {number} of a page of a namespace kept to named people"),
                serde_json::json!({ "revision": number, "restricted": true }),
            ),
        };
        let mut row = NewApproval {
            organization_id: page.organization_id,
            workspace_id: Some(page.workspace_id),
            project_id: page.project_id,
            subject: ApprovalSubject::WikiPublication,
            requested_by_user_id: Some(actor.user_id),
            action,
            reason,
            details,
            expires_at: Utc::now() + REVIEW_LIFETIME,
        }
        .row();
        row.wiki_revision_id = Set(Some(revision.id));
        let asked = approval::Entity::insert(row).exec_with_returning(&*txn).await?;
        let requested = page_entry(actor, AuditAction::WikiReviewRequested, &page, number)
            .with("approval_id", asked.id.to_string());
        self.audit.append(&*txn, requested).await?;
        txn.commit().await?;
        tracing::info!(page_id = %page.id, approval_id = %asked.id, number, "wiki review requested");
        self.approvals.announce(&asked);
        Ok(asked)
    }

    /// Publishes revision `number` of a page, in a namespace that needs no review.
    pub async fn publish(&self, actor: &Actor, page_id: Uuid, number: i32) -> Result<PageAt> {
        let page = self.page_in(actor, page_id).await?;
        let namespace = self.writable(actor, page.namespace_id).await?;
        if namespace.0.authoritative {
            return Err(WikiError::ReviewRequired);
        }
        let revision = self.revision_numbered(&page, number).await?;
        let txn = self.db.begin_write().await?;
        let page = locked_page(&*txn, page.id).await?;
        not_published(&page, number)?;
        let page = published(&*txn, page, number).await?;
        let settled = self.settle(&*txn, &page, number).await?;
        self.audit.append(&*txn, page_entry(actor, AuditAction::WikiPagePublished, &page, number)).await?;
        txn.commit().await?;
        self.announce_page(&page, &settled);
        Ok(PageAt { page, revision })
    }

    /// A person decides a review: approving publishes its revision. Reviewers are those who may
    /// write the namespace; the revision's author may withdraw (deny) it but not approve it.
    pub async fn decide_publication(
        &self,
        actor: &Actor,
        approval: &approval::Model,
        decision: Decision,
        reason: Option<String>,
    ) -> Result<approval::Model> {
        let not_found = || CommonError::NotFound("approval of a wiki publication");
        let revision_id = approval.wiki_revision_id.filter(|_| approval.subject == ApprovalSubject::WikiPublication);
        let revision_id = revision_id.ok_or_else(not_found)?;
        let revision = self.reads.one(wiki_revision::Entity::find_by_id(revision_id)).await?.ok_or_else(not_found)?;
        let page = self.page_in(actor, revision.page_id).await?;
        self.writable(actor, page.namespace_id).await?;
        if decision == Decision::Approve && revision.created_by_user_id == Some(actor.user_id) {
            return Err(WikiError::OwnRevision);
        }
        let txn = self.db.begin_write().await?;
        let page = locked_page(&*txn, page.id).await?;
        let moot = not_published(&page, revision.number).err().filter(|_| approval.status == ApprovalStatus::Pending);
        if let Some(moot) = moot {
            // A revision at least as new was published meanwhile: nothing is left to decide.
            let reason = "a revision at least as new was published";
            let cancelled = self.approvals.close(&*txn, approval, ApprovalStatus::Cancelled, reason).await?;
            txn.commit().await?;
            cancelled.iter().for_each(|c| self.approvals.announce(c));
            return Err(moot);
        }
        let decided = self.approvals.decide(&*txn, actor, approval, decision, reason).await?;
        let (page, settled) = if decided.status == ApprovalStatus::Approved {
            let page = published(&*txn, page, revision.number).await?;
            let settled = self.settle(&*txn, &page, revision.number).await?;
            (page, settled)
        } else {
            (page, Vec::new())
        };
        txn.commit().await?;
        tracing::info!(page_id = %page.id, approval_id = %decided.id, status = %decided.status, "wiki review decided");
        self.approvals.announce(&decided);
        if decided.status == ApprovalStatus::Approved {
            self.announce_page(&page, &settled);
        }
        Ok(decided)
    }

    /// Revisions by id with their pages, of namespaces the caller may read.
    pub async fn revisions_by_id(&self, actor: &Actor, ids: &[Uuid]) -> Result<HashMap<Uuid, PageAt>> {
        let select = wiki_revision::Entity::find()
            .filter(wiki_revision::Column::Id.is_in(ids.iter().copied()))
            .filter(wiki_revision::Column::OrganizationId.eq(actor.organization_id));
        let revisions = self.reads.all(select).await?;
        let select = wiki_page::Entity::find().filter(wiki_page::Column::Id.is_in(revisions.iter().map(|r| r.page_id)));
        let pages: HashMap<Uuid, wiki_page::Model> =
            self.reads.all(select).await?.into_iter().map(|p| (p.id, p)).collect();
        let readable = self.readable_namespaces(actor, pages.values().map(|p| p.namespace_id)).await?;
        Ok(revisions
            .into_iter()
            .filter_map(|revision| {
                let page = pages.get(&revision.page_id).filter(|p| readable.contains_key(&p.namespace_id))?;
                Some((revision.id, PageAt { page: page.clone(), revision }))
            })
            .collect())
    }

    /// Cancels the pending reviews of revision `number` of the page and older ones: published, or
    /// overtaken by what was.
    pub(super) async fn settle(
        &self,
        txn: &impl ConnectionTrait,
        page: &wiki_page::Model,
        number: i32,
    ) -> Result<Vec<approval::Model>> {
        let overtaken = Query::select()
            .column(wiki_revision::Column::Id)
            .from(wiki_revision::Entity)
            .and_where(Expr::col(wiki_revision::Column::PageId).eq(page.id))
            .and_where(Expr::col(wiki_revision::Column::Number).lte(number))
            .to_owned();
        let which = Condition::all().add(approval::Column::WikiRevisionId.in_subquery(overtaken));
        let reason = format!("revision {number} of the page was published");
        Ok(self.approvals.close_pending(txn, which, ApprovalStatus::Cancelled, &reason).await?)
    }

    /// Tells the page's and the approvals' subscribers, once committed.
    pub(super) fn announce_page(&self, page: &wiki_page::Model, settled: &[approval::Model]) {
        self.broker.publish(Topic::WikiNamespace(page.namespace_id), Event::WikiPage(page.clone()));
        for approval in settled {
            self.approvals.announce(approval);
        }
    }
}

/// The page, locked for the rest of the transaction.
async fn locked_page(txn: &impl ConnectionTrait, id: Uuid) -> Result<wiki_page::Model> {
    let page = wiki_page::Entity::find_by_id(id).lock_exclusive().one(txn).await?;
    Ok(page.ok_or(CommonError::NotFound("wiki page"))?)
}

/// Revision `number` is newer than what the page has published.
fn not_published(page: &wiki_page::Model, number: i32) -> Result<()> {
    match page.published_revision {
        Some(published) if published >= i64::from(number) => Err(WikiError::NotNewer { revision: number, published }),
        _ => Ok(()),
    }
}

/// Points the page's published revision at `number`; its latest revision, and so what an edit
/// names as `expectedRevision`, stays.
async fn published(txn: &impl ConnectionTrait, page: wiki_page::Model, number: i32) -> Result<wiki_page::Model> {
    let now = Utc::now();
    wiki_page::Entity::update_many()
        .col_expr(wiki_page::Column::PublishedRevision, Expr::value(i64::from(number)))
        .col_expr(wiki_page::Column::UpdatedAt, Expr::value(now))
        .filter(wiki_page::Column::Id.eq(page.id))
        .exec(txn)
        .await?;
    Ok(wiki_page::Model { published_revision: Some(i64::from(number)), updated_at: now, ..page })
}
