//! Full-text search over memory: one row per entry with the text of its current version. Derived:
//! the service rebuilds it from the entries, and dropping it loses nothing. SQLite indexes it with
//! FTS5 (Porter stemming), PostgreSQL with a `tsvector` (English stemming) under a GIN index.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261205_000008_memory_search"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DbBackend::Sqlite => {
                db.execute_unprepared(
                    "CREATE VIRTUAL TABLE memory_search USING fts5(entry_id UNINDEXED, subject, content, summary, \
                     tokenize = 'porter unicode61 remove_diacritics 2')",
                )
                .await?;
            }
            _ => {
                db.execute_unprepared(
                    "CREATE TABLE memory_search (entry_id uuid PRIMARY KEY REFERENCES memory_entries (id) \
                     ON DELETE CASCADE, document tsvector NOT NULL)",
                )
                .await?;
                db.execute_unprepared("CREATE INDEX ix_memory_search_document ON memory_search USING gin (document)")
                    .await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared("DROP TABLE memory_search").await?;
        Ok(())
    }
}
