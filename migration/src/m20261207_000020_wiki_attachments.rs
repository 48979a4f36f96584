//! Files attached to wiki pages: each a version of a name on its page, its bytes in the artifact
//! store under their sha256 like an artifact's. A page keeps every version; its readers see the
//! latest of each name.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000020_wiki_attachments"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let mut stmt = owned_by(&mut table("wiki_attachments"), "organization_id", "organizations");
        let stmt = owned_by(&mut stmt, "page_id", "wiki_pages")
            .col(uuid("namespace_id"))
            .col(string("name"))
            .col(integer("number"))
            .col(string("sha256"))
            .col(big_integer("size_bytes"))
            .col(string("media_type"))
            .col(uuid("created_by_user_id"))
            .to_owned();
        manager.create_table(stmt).await?;
        let mut numbered = index("ux_wiki_attachments_number", "wiki_attachments", &["page_id", "name", "number"]);
        manager.create_index(numbered.unique().to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("wiki_attachments").to_owned()).await
    }
}
