//! A file attached to a wiki page: one version of a name on the page, its bytes in the artifact
//! store under their sha256. Never changes; a later upload of the name is the next version.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wiki_attachments")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub page_id: Uuid,
    /// The page's namespace, whose roles say who reads and attaches.
    pub namespace_id: Uuid,
    /// A relative path (`diagrams/flow.png`), checked as an artifact's name is.
    pub name: String,
    /// 1 for the first version of the name on the page, then +1 per upload.
    pub number: i32,
    /// sha256 of the bytes, lowercase hex: where the store keeps them.
    pub sha256: String,
    pub size_bytes: i64,
    /// As the uploader declared it; served only as an attachment.
    pub media_type: String,
    pub created_by_user_id: Uuid,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
