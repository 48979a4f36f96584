//! Full-text search over the wiki: one row per page with the title and source of its latest
//! revision. Derived: filled here from the pages, kept by every save. SQLite indexes it with FTS5
//! (Porter stemming), PostgreSQL with a `tsvector` (English stemming, the title weighted) under a
//! GIN index.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261206_000015_wiki_search"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DbBackend::Sqlite => {
                db.execute_unprepared(
                    "CREATE VIRTUAL TABLE wiki_search USING fts5(page_id UNINDEXED, title, source, \
                     tokenize = 'porter unicode61 remove_diacritics 2')",
                )
                .await?;
                db.execute_unprepared(
                    "INSERT INTO wiki_search (page_id, title, source) SELECT p.id, r.title, r.source \
                     FROM wiki_pages p JOIN wiki_revisions r ON r.id = p.latest_revision_id",
                )
                .await?;
            }
            _ => {
                db.execute_unprepared(
                    "CREATE TABLE wiki_search (page_id uuid PRIMARY KEY REFERENCES wiki_pages (id) \
                     ON DELETE CASCADE, document tsvector NOT NULL)",
                )
                .await?;
                db.execute_unprepared("CREATE INDEX ix_wiki_search_document ON wiki_search USING gin (document)")
                    .await?;
                db.execute_unprepared(
                    "INSERT INTO wiki_search (page_id, document) SELECT p.id, \
                     setweight(to_tsvector('english', r.title), 'A') || to_tsvector('english', r.source) \
                     FROM wiki_pages p JOIN wiki_revisions r ON r.id = p.latest_revision_id",
                )
                .await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared("DROP TABLE wiki_search").await?;
        Ok(())
    }
}
