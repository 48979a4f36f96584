//! PostgreSQL's memory search documents made again with the text cut into words as a query is (a
//! host name, a version or a path no longer one lexeme no query word matches). SQLite's FTS5
//! already cuts text so.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261205_000010_memory_search_words"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() == DbBackend::Sqlite {
            return Ok(());
        }
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE memory_search s SET document = \
                 setweight(to_tsvector('english', regexp_replace(e.subject, '[^[:alnum:]]+', ' ', 'g')), 'A') || \
                 to_tsvector('english', regexp_replace(v.content, '[^[:alnum:]]+', ' ', 'g')) || \
                 to_tsvector('english', regexp_replace(coalesce(v.summary, ''), '[^[:alnum:]]+', ' ', 'g')) \
                 FROM memory_entries e JOIN memory_versions v ON v.id = e.current_version_id \
                 WHERE s.entry_id = e.id",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        // The documents stay as they are: the older search reads them too.
        Ok(())
    }
}
