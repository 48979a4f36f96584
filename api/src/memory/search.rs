//! The full-text index of memory: what every version that has been current says, searched with
//! SQLite's FTS5 or PostgreSQL's `tsvector`. A search reads the current versions; a search "as of"
//! a past time reads the versions that stood then, the current ones included. The index is derived
//! from the entries; [`rebuild`] makes it again from them.
//!
//! On SQLite the current versions are in `memory_search` and the earlier ones in
//! `memory_search_past`, so a search of today's memory reads nothing else; where each row sits
//! (organization, scope, entry, version) is written as words of a `place` column, so FTS5 itself
//! keeps only the scopes searched and ranks them, with no look-up of an entry per match.

use acc_entity::{memory_entry, memory_version};
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement, Value};
use uuid::Uuid;

use crate::query_words::telling;
pub use crate::query_words::words;

/// The most rows FTS5 is asked to rank for one query. BM25 scores every row any word matches, so
/// a word found in tens of thousands of texts costs most of a search, while its weight, which
/// falls with how common it is, changes little of which entries come first (at 100,000 entries:
/// p99 48 ms with every word, 16 ms within this bound; docs/benchmarks.md).
const MAX_RANKED_ROWS: i64 = 5_000;

/// Which versions a search reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Among {
    /// Each entry's current version.
    Current,
    /// Every version that has been current: a search as of a past time picks, per entry, the one
    /// that stood then.
    EverCurrent,
}

/// A word of the `place` column naming `id`: a letter for what it names, the id in hex, and a
/// closing digit, since Porter stemming shortens words that end in letters ("…ed", "…e").
fn place_word(what: char, id: Uuid) -> String {
    format!("{what}{}0", id.simple())
}

fn place_of(entry: &memory_entry::Model, version_id: Uuid) -> String {
    [
        place_word('o', entry.organization_id),
        place_word('s', entry.scope_id),
        place_word('e', entry.id),
        place_word('v', version_id),
    ]
    .join(" ")
}

/// SQLite's table of current versions, or of earlier ones.
fn sqlite_table(current: bool) -> &'static str {
    if current { "memory_search" } else { "memory_search_past" }
}

/// What one version says, as the index keeps it.
struct Text {
    version_id: Uuid,
    subject: String,
    content: String,
    summary: String,
}

impl Text {
    fn of(entry: &memory_entry::Model, version: &memory_version::Model) -> Self {
        Self {
            version_id: version.id,
            subject: entry.subject.clone(),
            content: version.content.clone(),
            summary: version.summary.clone().unwrap_or_default(),
        }
    }
}

/// Puts what `version` says in the index as the current text of `entry`; the version that was
/// current before stays in the index as an earlier one, for searches as of the past.
pub async fn index(
    db: &impl ConnectionTrait,
    entry: &memory_entry::Model,
    version: &memory_version::Model,
) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    match backend {
        DbBackend::Sqlite => {
            // FTS5 rows change only by delete and insert: the current row is read back, removed,
            // and written again among the earlier ones.
            let of_entry = Value::from(format!("place : \"{}\"", place_word('e', entry.id)));
            let formerly = db
                .query_all_raw(Statement::from_sql_and_values(
                    backend,
                    "SELECT version_id, subject, content, summary FROM memory_search WHERE memory_search MATCH ?",
                    [of_entry.clone()],
                ))
                .await?;
            db.execute_raw(Statement::from_sql_and_values(
                backend,
                "DELETE FROM memory_search WHERE memory_search MATCH ?",
                [of_entry],
            ))
            .await?;
            for row in formerly {
                let text = Text {
                    version_id: row.try_get("", "version_id")?,
                    subject: row.try_get("", "subject")?,
                    content: row.try_get("", "content")?,
                    summary: row.try_get("", "summary")?,
                };
                if text.version_id != version.id {
                    put(db, entry, text, false).await?;
                }
            }
        }
        _ => {
            db.execute_raw(Statement::from_sql_and_values(
                backend,
                "UPDATE memory_search SET current = false WHERE entry_id = $1 AND current AND version_id <> $2",
                [Value::from(entry.id), Value::from(version.id)],
            ))
            .await?;
        }
    }
    put(db, entry, Text::of(entry, version), true).await
}

/// Adds one version's text to the index (on PostgreSQL, replaces it).
async fn put(db: &impl ConnectionTrait, entry: &memory_entry::Model, text: Text, current: bool) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    let statement = match backend {
        DbBackend::Sqlite => Statement::from_sql_and_values(
            backend,
            format!(
                "INSERT INTO {} (entry_id, version_id, subject, content, summary, place) VALUES (?, ?, ?, ?, ?, ?)",
                sqlite_table(current)
            ),
            [
                Value::from(entry.id),
                Value::from(text.version_id),
                Value::from(text.subject),
                Value::from(text.content),
                Value::from(text.summary),
                Value::from(place_of(entry, text.version_id)),
            ],
        ),
        // The subject weighs most (A), then the content and the summary. The text is cut into
        // words as a query is (`words`): PostgreSQL's parser would keep a host name, a version
        // or a path whole, which no query word then matches.
        _ => Statement::from_sql_and_values(
            backend,
            "INSERT INTO memory_search (version_id, entry_id, current, document) VALUES ($1, $2, $3, \
             setweight(to_tsvector('english', regexp_replace($4, '[^[:alnum:]]+', ' ', 'g')), 'A') || \
             to_tsvector('english', regexp_replace($5, '[^[:alnum:]]+', ' ', 'g')) || \
             to_tsvector('english', regexp_replace($6, '[^[:alnum:]]+', ' ', 'g'))) \
             ON CONFLICT (version_id) DO UPDATE SET current = EXCLUDED.current, document = EXCLUDED.document",
            [
                Value::from(text.version_id),
                Value::from(entry.id),
                Value::from(current),
                Value::from(text.subject),
                Value::from(text.content),
                Value::from(text.summary),
            ],
        ),
    };
    db.execute_raw(statement).await?;
    Ok(())
}

/// A version whose text matched, with its entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub entry_id: Uuid,
    pub version_id: Uuid,
}

/// The versions (`among` those indexed) of entries of `scope_ids` in the organization whose text
/// matches any of `words` (but function words; on SQLite, but words too common to rank by, see
/// [`rarest`]), best first, at most `limit`.
pub async fn matching(
    db: &impl ConnectionTrait,
    organization_id: Uuid,
    scope_ids: &[Uuid],
    words: &[String],
    among: Among,
    limit: u64,
) -> Result<Vec<Match>, DbErr> {
    let words = &telling(words);
    let backend = db.get_database_backend();
    let mut values: Vec<Value> = Vec::new();
    let statement = match backend {
        DbBackend::Sqlite => {
            let words = &rarest(db, organization_id, words, among).await?;
            if words.is_empty() {
                return Ok(Vec::new());
            }
            // FTS5: each word a quoted string, any of them, in the text columns, and any of the
            // scopes in the place; bm25 with the subject weighing 3 and the place nothing. The
            // organization is not matched: every scope id names one scope of one organization, and
            // the scopes come from the caller's (each hit's entry is read in it again).
            let scopes: Vec<String> = scope_ids.iter().map(|id| format!("\"{}\"", place_word('s', *id))).collect();
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            let query =
                format!("{{subject content summary}} : ({}) AND place : ({})", words.join(" OR "), scopes.join(" OR "));
            let ranked = |table: &str| {
                format!(
                    "SELECT entry_id, version_id, bm25({table}, 0.0, 0.0, 3.0, 1.0, 1.0, 0.0) AS score \
                     FROM {table} WHERE {table} MATCH ?"
                )
            };
            values.push(query.clone().into());
            let statement = match among {
                // FTS5 orders by its own rank without sorting the rows it ranks.
                Among::Current => "SELECT entry_id, version_id FROM memory_search \
                     WHERE memory_search MATCH ? AND rank MATCH 'bm25(0.0, 0.0, 3.0, 1.0, 1.0, 0.0)' \
                     ORDER BY rank LIMIT ?"
                    .to_owned(),
                Among::EverCurrent => {
                    values.push(query.into());
                    format!(
                        "SELECT entry_id, version_id FROM ({} UNION ALL {}) ORDER BY score LIMIT ?",
                        ranked("memory_search"),
                        ranked("memory_search_past")
                    )
                }
            };
            values.push((limit as i64).into());
            statement
        }
        _ => {
            values.push(words.join(" | ").into());
            values.push(words.join(" ").into());
            values.push(organization_id.into());
            values.extend(scope_ids.iter().map(|id| Value::from(*id)));
            values.push((limit as i64).into());
            let scopes = (0..scope_ids.len()).map(|i| format!("${}", i + 4)).collect::<Vec<_>>().join(", ");
            let current = match among {
                Among::Current => "AND s.current",
                Among::EverCurrent => "",
            };
            // `ts_rank` counts a word's occurrences but not how rare it is, so a question's
            // common words ranked as high as its telling one. Each word's rank is weighted by
            // its inverse document frequency among the entries searched (BM25's), as FTS5 does.
            format!(
                "WITH matching AS ( \
                   SELECT s.entry_id, s.version_id, s.document FROM memory_search s JOIN memory_entries e ON e.id = s.entry_id \
                   WHERE s.document @@ to_tsquery('english', $1) AND e.organization_id = $3 AND e.scope_id IN ({scopes}) {current}), \
                 searched AS ( \
                   SELECT count(*)::float8 AS n FROM memory_entries e \
                   WHERE e.organization_id = $3 AND e.scope_id IN ({scopes})), \
                 terms AS ( \
                   SELECT DISTINCT to_tsquery('english', w) AS q FROM unnest(string_to_array($2, ' ')) AS w), \
                 weighted AS ( \
                   SELECT t.q, ln(1 + (searched.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf \
                   FROM terms t JOIN matching m ON m.document @@ t.q, searched \
                   WHERE numnode(t.q) > 0 GROUP BY t.q, searched.n) \
                 SELECT m.entry_id AS entry_id, m.version_id AS version_id, sum(w.idf * ts_rank(m.document, w.q))::float8 AS score \
                 FROM matching m JOIN weighted w ON m.document @@ w.q \
                 GROUP BY m.entry_id, m.version_id ORDER BY score DESC, m.entry_id LIMIT ${}",
                scope_ids.len() + 4
            )
        }
    };
    let rows = db.query_all_raw(Statement::from_sql_and_values(backend, statement, values)).await?;
    rows.iter()
        .map(|row| Ok(Match { entry_id: row.try_get("", "entry_id")?, version_id: row.try_get("", "version_id")? }))
        .collect()
}

/// The words of `words` to rank by on SQLite: those the organization's texts (`among` those
/// searched) contain, rarest first, as many as together match at most [`MAX_RANKED_ROWS`] rows,
/// and the rarest one whatever it matches. Counted in the organization alone, so what other
/// tenants write never changes which words rank a search.
async fn rarest(
    db: &impl ConnectionTrait,
    organization_id: Uuid,
    words: &[String],
    among: Among,
) -> Result<Vec<String>, DbErr> {
    let backend = db.get_database_backend();
    let tables: &[&str] = match among {
        Among::Current => &[sqlite_table(true)],
        Among::EverCurrent => &[sqlite_table(true), sqlite_table(false)],
    };
    let organization = format!("place : \"{}\"", place_word('o', organization_id));
    let mut values: Vec<Value> = Vec::new();
    let mut counts = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let count: Vec<String> = tables
            .iter()
            .map(|table| {
                values.push(format!("{{subject content summary}} : \"{word}\" AND {organization}").into());
                format!("(SELECT count(*) FROM {table} WHERE {table} MATCH ?)")
            })
            .collect();
        counts.push(format!("{} AS n{i}", count.join(" + ")));
    }
    let statement = Statement::from_sql_and_values(backend, format!("SELECT {}", counts.join(", ")), values);
    let Some(row) = db.query_one_raw(statement).await? else { return Ok(Vec::new()) };
    let mut counted = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let rows: i64 = row.try_get("", &format!("n{i}"))?;
        if rows > 0 {
            counted.push((rows, word));
        }
    }
    counted.sort();
    let mut ranked_rows = 0;
    let mut rarest = Vec::new();
    for (rows, word) in counted {
        if !rarest.is_empty() && ranked_rows + rows > MAX_RANKED_ROWS {
            break;
        }
        ranked_rows += rows;
        rarest.push(word.clone());
    }
    Ok(rarest)
}

/// Makes the organization's index again from its entries' versions that have been current.
pub async fn rebuild(db: &impl ConnectionTrait, organization_id: Uuid) -> Result<u64, DbErr> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let backend = db.get_database_backend();
    match backend {
        DbBackend::Sqlite => {
            for table in [sqlite_table(true), sqlite_table(false)] {
                db.execute_raw(Statement::from_sql_and_values(
                    backend,
                    format!("DELETE FROM {table} WHERE {table} MATCH ?"),
                    [Value::from(format!("place : \"{}\"", place_word('o', organization_id)))],
                ))
                .await?;
            }
        }
        _ => {
            db.execute_raw(Statement::from_sql_and_values(
                backend,
                "DELETE FROM memory_search s USING memory_entries e WHERE e.id = s.entry_id AND e.organization_id = $1",
                [Value::from(organization_id)],
            ))
            .await?;
        }
    }
    let entries =
        memory_entry::Entity::find().filter(memory_entry::Column::OrganizationId.eq(organization_id)).all(db).await?;
    let mut indexed = 0;
    // In chunks, as one statement binds only so many ids.
    for chunk in entries.chunks(500) {
        let versions = memory_version::Entity::find()
            .filter(memory_version::Column::EntryId.is_in(chunk.iter().map(|e| e.id)))
            .filter(memory_version::Column::BecameCurrentAt.is_not_null())
            .all(db)
            .await?;
        for entry in chunk {
            for version in versions.iter().filter(|v| v.entry_id == entry.id) {
                let current = Some(version.id) == entry.current_version_id;
                put(db, entry, Text::of(entry, version), current).await?;
            }
            indexed += 1;
        }
    }
    Ok(indexed)
}

#[cfg(test)]
mod tests {
    use sea_orm::{DatabaseConnection, TransactionTrait};

    use super::*;

    /// `count` current texts saying `content` in `scope` of `organization`.
    async fn texts(db: &DatabaseConnection, organization: Uuid, scope: Uuid, content: &str, count: usize) {
        let txn = db.begin().await.unwrap();
        for _ in 0..count {
            let (entry, version) = (Uuid::now_v7(), Uuid::now_v7());
            let place = [
                place_word('o', organization),
                place_word('s', scope),
                place_word('e', entry),
                place_word('v', version),
            ];
            let insert = "INSERT INTO memory_search (entry_id, version_id, subject, content, summary, place) VALUES (?, ?, '', ?, '', ?)";
            let values: [Value; 4] = [entry.into(), version.into(), content.into(), place.join(" ").into()];
            txn.execute_raw(Statement::from_sql_and_values(DbBackend::Sqlite, insert, values)).await.unwrap();
        }
        txn.commit().await.unwrap();
    }

    #[tokio::test]
    async fn a_word_in_too_many_texts_does_not_rank_a_search_that_has_rarer_ones() {
        let (db, dir) = crate::db::migrated_sqlite("search").await;
        let (ours, theirs, scope) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        texts(&db, ours, scope, "the billing service restarts nightly", MAX_RANKED_ROWS as usize).await;
        texts(&db, ours, scope, "the vault service holds the billing keys", 3).await;
        // Another organization's texts change nothing of which of our words rank.
        texts(&db, theirs, Uuid::now_v7(), "vault vault vault", 2 * MAX_RANKED_ROWS as usize).await;
        let words = |w: &[&str]| w.iter().map(|w| w.to_string()).collect::<Vec<_>>();

        let rarest_of = |asked: &[&str]| {
            let asked = words(asked);
            let db = &db;
            async move { rarest(db, ours, &telling(&asked), Among::Current).await.unwrap() }
        };
        // "vault" (3 texts) ranks; "service" (5,003) and "billing" would pass the bound; "nowhere"
        // matches nothing.
        assert_eq!(rarest_of(&["billing", "vault", "service", "nowhere", "vault"]).await, words(&["vault"]));
        // Alone, the commonest word still ranks: a search finds what it can.
        assert_eq!(rarest_of(&["service"]).await, words(&["service"]));
        assert_eq!(rarest_of(&["nowhere"]).await, Vec::<String>::new());
        assert_eq!(
            rarest(&db, theirs, &words(&["vault", "service"]), Among::Current).await.unwrap(),
            words(&["vault"])
        );

        let found = matching(&db, ours, &[scope], &words(&["billing", "vault"]), Among::Current, 100).await.unwrap();
        assert_eq!(found.len(), 3, "only the texts with the rare word were ranked");
        let _ = std::fs::remove_dir_all(dir);
    }
}
