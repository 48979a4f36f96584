//! Search by meaning over the wiki: one row per page with the embedding of its latest revision,
//! made by the named model. Derived like `memory_vectors`: the server embeds a page whose row is
//! missing or stale, so dropping the rows loses nothing.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::index;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000019_wiki_vectors"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("wiki_vectors")
                    .col(uuid("page_id").primary_key())
                    .foreign_key(
                        ForeignKey::create()
                            .from_col("page_id")
                            .to("wiki_pages", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .col(uuid("organization_id"))
                    .col(uuid("namespace_id"))
                    // The revision embedded: a vector of any other is stale.
                    .col(uuid("revision_id"))
                    .col(string("model"))
                    // Little-endian f32s, normalized to length 1.
                    .col(blob("vector"))
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("ix_wiki_vectors_organization", "wiki_vectors", &["organization_id"])).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("wiki_vectors").to_owned()).await
    }
}
