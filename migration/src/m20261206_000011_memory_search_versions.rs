//! Memory's full-text index holds every version that has been current, so a search can read memory
//! as it stood at a past time: on SQLite, the current versions in `memory_search` and the earlier
//! ones in `memory_search_past` (a search of today's memory reads only the first); on PostgreSQL,
//! one table with the current versions marked. On SQLite each row also carries where it sits
//! (organization, scope, entry, version) as words of a `place` column, which FTS5 matches with the
//! text: a search no longer looks up an entry per match. Each such word is a letter, the id in hex
//! and a closing `0` (Porter stemming leaves a word ending in a digit whole). The index is derived,
//! so it is made again here from the versions.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

pub struct Migration;

/// Fills SQLite's index from the versions: the current ones, then the earlier ones (the benchmark
/// fills it so too).
pub const SQLITE_FILL: [&str; 2] = [
    "INSERT INTO memory_search (entry_id, version_id, subject, content, summary, place) \
     SELECT e.id, v.id, e.subject, v.content, coalesce(v.summary, ''), \
     'o' || lower(hex(e.organization_id)) || '0 s' || lower(hex(e.scope_id)) || \
     '0 e' || lower(hex(e.id)) || '0 v' || lower(hex(v.id)) || '0' \
     FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id WHERE e.current_version_id = v.id",
    "INSERT INTO memory_search_past (entry_id, version_id, subject, content, summary, place) \
     SELECT e.id, v.id, e.subject, v.content, coalesce(v.summary, ''), \
     'o' || lower(hex(e.organization_id)) || '0 s' || lower(hex(e.scope_id)) || \
     '0 e' || lower(hex(e.id)) || '0 v' || lower(hex(v.id)) || '0' \
     FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id \
     WHERE v.became_current_at IS NOT NULL AND e.current_version_id <> v.id",
];

const SQLITE_TABLE: &str = "USING fts5(entry_id UNINDEXED, version_id UNINDEXED, subject, content, summary, place, \
     tokenize = 'porter unicode61 remove_diacritics 2')";

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261206_000011_memory_search_versions"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DROP TABLE memory_search").await?;
        match manager.get_database_backend() {
            DbBackend::Sqlite => {
                for table in ["memory_search", "memory_search_past"] {
                    db.execute_unprepared(&format!("CREATE VIRTUAL TABLE {table} {SQLITE_TABLE}")).await?;
                }
                for fill in SQLITE_FILL {
                    db.execute_unprepared(fill).await?;
                }
            }
            _ => {
                db.execute_unprepared(
                    "CREATE TABLE memory_search (\
                     version_id uuid PRIMARY KEY REFERENCES memory_versions (id) ON DELETE CASCADE, \
                     entry_id uuid NOT NULL REFERENCES memory_entries (id) ON DELETE CASCADE, \
                     current boolean NOT NULL, document tsvector NOT NULL)",
                )
                .await?;
                db.execute_unprepared("CREATE INDEX ix_memory_search_document ON memory_search USING gin (document)")
                    .await?;
                db.execute_unprepared("CREATE INDEX ix_memory_search_entry ON memory_search (entry_id)").await?;
                db.execute_unprepared(
                    "INSERT INTO memory_search (version_id, entry_id, current, document) \
                     SELECT v.id, e.id, e.current_version_id = v.id, \
                     setweight(to_tsvector('english', regexp_replace(e.subject, '[^[:alnum:]]+', ' ', 'g')), 'A') || \
                     to_tsvector('english', regexp_replace(v.content, '[^[:alnum:]]+', ' ', 'g')) || \
                     to_tsvector('english', regexp_replace(coalesce(v.summary, ''), '[^[:alnum:]]+', ' ', 'g')) \
                     FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id \
                     WHERE v.became_current_at IS NOT NULL",
                )
                .await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DROP TABLE memory_search").await?;
        if manager.get_database_backend() == DbBackend::Sqlite {
            db.execute_unprepared("DROP TABLE memory_search_past").await?;
        }
        // The index as migration 8 made it, empty: `rebuildMemoryIndex` fills it.
        crate::m20261205_000008_memory_search::Migration.up(manager).await
    }
}
