//! Files attached to a page: each upload of a name is its next version, its bytes kept in the
//! artifact store under their sha256 as an artifact's are (the same store, limit and checks of
//! names and media types). Whoever may read the page reads its attachments; whoever may write
//! pages in its namespace attaches.

use std::collections::HashMap;

use acc_entity::wiki_attachment;
use bytes::Bytes;
use chrono::Utc;
use futures_util::Stream;
use futures_util::stream::BoxStream;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use uuid::Uuid;

use super::{Result, WikiService};
use crate::artifacts::{checked_media_type, checked_name};
use crate::error::{CommonError, is_unique_violation};
use crate::identity::actor::Actor;
use crate::ids::new_id;

/// The most names a page lists.
const MAX_ATTACHMENTS_LISTED: usize = 200;

/// An upload to a page, as the caller named it.
#[derive(Debug, Clone)]
pub struct Attach {
    pub page_id: Uuid,
    pub name: String,
    /// As the uploader says (`Content-Type`); `application/octet-stream` when absent.
    pub media_type: Option<String>,
}

impl WikiService {
    /// Stores `body` as the next version of the attachment `attach.name` of a page the caller may
    /// write to. Checked before a byte is read: the name, the media type and the caller's role.
    pub async fn attach<E: std::fmt::Display>(
        &self,
        actor: &Actor,
        attach: Attach,
        body: impl Stream<Item = Result<Bytes, E>>,
    ) -> Result<wiki_attachment::Model> {
        let name = checked_name(&attach.name)?;
        let media_type = checked_media_type(attach.media_type.as_deref())?;
        let page = self.page_in(actor, attach.page_id).await?;
        self.writable(actor, page.namespace_id).await?;
        let stored = self.artifacts.store_bytes(page.organization_id, body).await?;
        let record = || async {
            let txn = self.db.begin_write().await?;
            let latest = wiki_attachment::Entity::find()
                .filter(wiki_attachment::Column::PageId.eq(page.id))
                .filter(wiki_attachment::Column::Name.eq(name.as_str()))
                .order_by_desc(wiki_attachment::Column::Number)
                .one(&*txn)
                .await?;
            let attachment = wiki_attachment::ActiveModel {
                id: Set(new_id()),
                organization_id: Set(page.organization_id),
                page_id: Set(page.id),
                namespace_id: Set(page.namespace_id),
                name: Set(name.clone()),
                number: Set(latest.map_or(1, |a| a.number + 1)),
                sha256: Set(stored.sha256.clone()),
                size_bytes: Set(stored.size as i64),
                media_type: Set(media_type.clone()),
                created_by_user_id: Set(actor.user_id),
                created_at: Set(Utc::now()),
            }
            .insert(&*txn)
            .await?;
            txn.commit().await?;
            Ok::<_, sea_orm::DbErr>(attachment)
        };
        match record().await {
            // Two uploads of one name at once took the same number: this one is the next.
            Err(e) if is_unique_violation(&e) => Ok(record().await?),
            other => Ok(other?),
        }
    }

    /// The latest version of each attachment of the pages the caller may read, by name.
    pub async fn attachments_of(
        &self,
        actor: &Actor,
        page_ids: &[Uuid],
    ) -> Result<HashMap<Uuid, Vec<wiki_attachment::Model>>> {
        let select = wiki_attachment::Entity::find()
            .filter(wiki_attachment::Column::PageId.is_in(page_ids.iter().copied()))
            .filter(wiki_attachment::Column::OrganizationId.eq(actor.organization_id))
            .order_by_asc(wiki_attachment::Column::Name)
            .order_by_desc(wiki_attachment::Column::Number);
        let attachments = self.reads.all(select).await?;
        let readable = self.readable_namespaces(actor, attachments.iter().map(|a| a.namespace_id)).await?;
        let mut latest: HashMap<Uuid, Vec<wiki_attachment::Model>> = HashMap::new();
        for attachment in attachments.into_iter().filter(|a| readable.contains_key(&a.namespace_id)) {
            let of_page = latest.entry(attachment.page_id).or_default();
            // The versions of a name come together, the latest first.
            if of_page.last().is_none_or(|l| l.name != attachment.name) && of_page.len() < MAX_ATTACHMENTS_LISTED {
                of_page.push(attachment);
            }
        }
        Ok(latest)
    }

    /// A version of an attachment of a page the caller may read.
    pub async fn attachment(&self, actor: &Actor, id: Uuid) -> Result<wiki_attachment::Model> {
        let select = wiki_attachment::Entity::find_by_id(id)
            .filter(wiki_attachment::Column::OrganizationId.eq(actor.organization_id));
        let attachment = self.reads.one(select).await?.ok_or(CommonError::NotFound("wiki attachment"))?;
        self.readable(actor, attachment.namespace_id).await?;
        Ok(attachment)
    }

    /// The bytes of an attachment read through [`Self::attachment`], or those of `range`.
    pub async fn attachment_bytes(
        &self,
        attachment: &wiki_attachment::Model,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<BoxStream<'static, Result<Bytes, object_store::Error>>> {
        Ok(self.artifacts.stored_bytes(attachment.organization_id, &attachment.sha256, range).await?)
    }
}
