//! The full-text index of memory: what each entry's current version says, searched with SQLite's
//! FTS5 or PostgreSQL's `tsvector`. The index is derived from the entries; [`rebuild`] makes it
//! again from them.

use acc_entity::{memory_entry, memory_version};
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement, Value};
use uuid::Uuid;

/// The most words of a query that are searched for.
pub const MAX_QUERY_WORDS: usize = 32;

/// The words of a query as both databases' query languages take them: letters and digits only, so
/// nothing a caller types is read as query syntax.
pub fn words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(MAX_QUERY_WORDS)
        .map(str::to_lowercase)
        .collect()
}

/// English function words, which say nothing about what an entry is about: matched, they made
/// nearly every entry a candidate (ranked low, but each one ranked), which is most of a search's
/// time at 10,000 entries. PostgreSQL's English configuration drops the same kind of words.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "am", "an", "and", "any", "are", "as", "at", "be", "been", "before", "being", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "for", "from", "had", "has", "have", "having", "he",
    "her", "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "no", "nor", "not",
    "of", "off", "on", "once", "only", "or", "other", "our", "out", "over", "own", "same", "she", "should", "so",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
    "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which",
    "while", "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// The words of a query worth matching: all but the function words, unless that leaves none.
fn telling(words: &[String]) -> Vec<String> {
    let telling: Vec<String> = words.iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).cloned().collect();
    if telling.is_empty() { words.to_vec() } else { telling }
}

/// Puts what `version` says in the index as what `entry` says, replacing what it said before.
pub async fn index(
    db: &impl ConnectionTrait,
    entry: &memory_entry::Model,
    version: &memory_version::Model,
) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    let summary = version.summary.clone().unwrap_or_default();
    match backend {
        DbBackend::Sqlite => {
            db.execute_raw(Statement::from_sql_and_values(
                backend,
                "DELETE FROM memory_search WHERE entry_id = ?",
                [Value::from(entry.id)],
            ))
            .await?;
            db.execute_raw(Statement::from_sql_and_values(
                backend,
                "INSERT INTO memory_search (entry_id, subject, content, summary) VALUES (?, ?, ?, ?)",
                [
                    Value::from(entry.id),
                    Value::from(entry.subject.clone()),
                    Value::from(version.content.clone()),
                    Value::from(summary),
                ],
            ))
            .await?;
        }
        _ => {
            // The subject weighs most (A), then the content and the summary. The text is cut into
            // words as a query is (`words`): PostgreSQL's parser would keep a host name, a version
            // or a path whole, which no query word then matches.
            db.execute_raw(Statement::from_sql_and_values(
                backend,
                "INSERT INTO memory_search (entry_id, document) VALUES ($1, \
                 setweight(to_tsvector('english', regexp_replace($2, '[^[:alnum:]]+', ' ', 'g')), 'A') || \
                 to_tsvector('english', regexp_replace($3, '[^[:alnum:]]+', ' ', 'g')) || \
                 to_tsvector('english', regexp_replace($4, '[^[:alnum:]]+', ' ', 'g'))) \
                 ON CONFLICT (entry_id) DO UPDATE SET document = EXCLUDED.document",
                [
                    Value::from(entry.id),
                    Value::from(entry.subject.clone()),
                    Value::from(version.content.clone()),
                    Value::from(summary),
                ],
            ))
            .await?;
        }
    }
    Ok(())
}

/// The entries of `scope_ids` in the organization whose current text matches any of `words` (but
/// function words), best first, at most `limit`.
pub async fn matching(
    db: &impl ConnectionTrait,
    organization_id: Uuid,
    scope_ids: &[Uuid],
    words: &[String],
    limit: u64,
) -> Result<Vec<Uuid>, DbErr> {
    let words = &telling(words);
    let backend = db.get_database_backend();
    let mut values: Vec<Value> = Vec::new();
    let statement = match backend {
        DbBackend::Sqlite => {
            // FTS5: each word a quoted string, any of them; bm25 with the subject weighing 3.
            values.push(words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(" OR ").into());
            values.push(organization_id.into());
            values.extend(scope_ids.iter().map(|id| Value::from(*id)));
            values.push((limit as i64).into());
            let scopes = vec!["?"; scope_ids.len()].join(", ");
            format!(
                // CROSS JOIN keeps the index the outer loop: left to itself SQLite chose to walk the
                // organization's entries and run the match once for each (4 s at 3,000 entries).
                "SELECT memory_search.entry_id AS entry_id, -bm25(memory_search, 0.0, 3.0, 1.0, 1.0) AS score \
                 FROM memory_search CROSS JOIN memory_entries e ON e.id = memory_search.entry_id \
                 WHERE memory_search MATCH ? AND e.organization_id = ? AND e.scope_id IN ({scopes}) \
                 ORDER BY score DESC, e.id LIMIT ?"
            )
        }
        _ => {
            values.push(words.join(" | ").into());
            values.push(words.join(" ").into());
            values.push(organization_id.into());
            values.extend(scope_ids.iter().map(|id| Value::from(*id)));
            values.push((limit as i64).into());
            let scopes = (0..scope_ids.len()).map(|i| format!("${}", i + 4)).collect::<Vec<_>>().join(", ");
            // `ts_rank` counts a word's occurrences but not how rare it is, so a question's
            // common words ranked as high as its telling one. Each word's rank is weighted by
            // its inverse document frequency among the entries searched (BM25's), as FTS5 does.
            format!(
                "WITH matching AS (                    SELECT s.entry_id, s.document FROM memory_search s JOIN memory_entries e ON e.id = s.entry_id                    WHERE s.document @@ to_tsquery('english', $1) AND e.organization_id = $3 AND e.scope_id IN ({scopes})),                  searched AS (                    SELECT count(*)::float8 AS n FROM memory_entries e                    WHERE e.organization_id = $3 AND e.scope_id IN ({scopes})),                  terms AS (                    SELECT DISTINCT to_tsquery('english', w) AS q FROM unnest(string_to_array($2, ' ')) AS w),                  weighted AS (                    SELECT t.q, ln(1 + (searched.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf                    FROM terms t JOIN matching m ON m.document @@ t.q, searched                    WHERE numnode(t.q) > 0 GROUP BY t.q, searched.n)                  SELECT m.entry_id AS entry_id, sum(w.idf * ts_rank(m.document, w.q))::float8 AS score                  FROM matching m JOIN weighted w ON m.document @@ w.q                  GROUP BY m.entry_id ORDER BY score DESC, m.entry_id LIMIT ${}",
                scope_ids.len() + 4
            )
        }
    };
    let rows = db.query_all_raw(Statement::from_sql_and_values(backend, statement, values)).await?;
    rows.iter().map(|row| row.try_get::<Uuid>("", "entry_id")).collect()
}

/// Makes the organization's index again from its entries' current versions.
pub async fn rebuild(db: &impl ConnectionTrait, organization_id: Uuid) -> Result<u64, DbErr> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let entries =
        memory_entry::Entity::find().filter(memory_entry::Column::OrganizationId.eq(organization_id)).all(db).await?;
    let mut indexed = 0;
    // In chunks, as one statement binds only so many ids.
    for chunk in entries.chunks(500) {
        let versions = memory_version::Entity::find()
            .filter(memory_version::Column::Id.is_in(chunk.iter().filter_map(|e| e.current_version_id)))
            .all(db)
            .await?;
        for entry in chunk {
            if let Some(version) = versions.iter().find(|v| Some(v.id) == entry.current_version_id) {
                index(db, entry, version).await?;
                indexed += 1;
            }
        }
    }
    Ok(indexed)
}
