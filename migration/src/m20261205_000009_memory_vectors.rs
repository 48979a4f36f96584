//! Vector search over memory: one row per entry with the embedding of its current version, made by
//! the named model. Derived like the full-text index: the service makes it again from the entries,
//! and dropping its rows loses nothing.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::index;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261205_000009_memory_vectors"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("memory_vectors")
                    .col(uuid("entry_id").primary_key())
                    .foreign_key(
                        ForeignKey::create()
                            .from_col("entry_id")
                            .to("memory_entries", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .col(uuid("organization_id"))
                    .col(uuid("scope_id"))
                    // The version embedded: a vector of any other is stale.
                    .col(uuid("version_id"))
                    .col(string("model"))
                    // Little-endian f32s, normalized to length 1.
                    .col(blob("vector"))
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("ix_memory_vectors_organization", "memory_vectors", &["organization_id"])).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("memory_vectors").to_owned()).await
    }
}
