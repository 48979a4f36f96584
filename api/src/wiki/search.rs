//! The wiki's full-text index: the title and source of each page's latest revision in
//! `wiki_search` (SQLite's FTS5, or PostgreSQL's `tsvector` with the title weighted), written in
//! the transaction of every revision, and searched by a query's words, any of them, best first.

use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement, Value};
use uuid::Uuid;

/// Puts the page's latest title and source in the index, in place of what was there.
pub async fn index(db: &impl ConnectionTrait, page_id: Uuid, title: &str, source: &str) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    let statement = |sql: &str, values: Vec<Value>| Statement::from_sql_and_values(backend, sql, values);
    match backend {
        DbBackend::Sqlite => {
            // FTS5 rows change only by delete and insert.
            db.execute_raw(statement("DELETE FROM wiki_search WHERE page_id = ?", vec![page_id.into()])).await?;
            let insert = "INSERT INTO wiki_search (page_id, title, source) VALUES (?, ?, ?)";
            db.execute_raw(statement(insert, vec![page_id.into(), title.into(), source.into()])).await?;
        }
        _ => {
            let upsert = "INSERT INTO wiki_search (page_id, document) VALUES ($1, \
                          setweight(to_tsvector('english', $2), 'A') || to_tsvector('english', $3)) \
                          ON CONFLICT (page_id) DO UPDATE SET document = EXCLUDED.document";
            db.execute_raw(statement(upsert, vec![page_id.into(), title.into(), source.into()])).await?;
        }
    }
    Ok(())
}

/// The pages of `namespaces` whose latest revision has any of `words` (letters and digits only,
/// as [`crate::query_words::words`] gives them), best first, at most `limit`: each page's id and
/// score (higher is better; a title counts for more than the text).
pub async fn search(
    db: &impl ConnectionTrait,
    namespaces: &[Uuid],
    words: &[String],
    limit: u64,
) -> Result<Vec<(Uuid, f64)>, DbErr> {
    if namespaces.is_empty() || words.is_empty() {
        return Ok(Vec::new());
    }
    let backend = db.get_database_backend();
    let (sql, query) = match backend {
        DbBackend::Sqlite => {
            let places = vec!["?"; namespaces.len()].join(", ");
            let sql = format!(
                "SELECT wiki_search.page_id AS page_id, -bm25(wiki_search, 0.0, 5.0, 1.0) AS score \
                 FROM wiki_search JOIN wiki_pages p ON p.id = wiki_search.page_id \
                 WHERE wiki_search MATCH ? AND p.namespace_id IN ({places}) \
                 ORDER BY bm25(wiki_search, 0.0, 5.0, 1.0) LIMIT {limit}"
            );
            let query = words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(" OR ");
            (sql, query)
        }
        _ => {
            let places = (0..namespaces.len()).map(|i| format!("${}", i + 2)).collect::<Vec<_>>().join(", ");
            let sql = format!(
                "SELECT s.page_id AS page_id, ts_rank(s.document, q)::float8 AS score \
                 FROM wiki_search s JOIN wiki_pages p ON p.id = s.page_id, to_tsquery('english', $1) q \
                 WHERE s.document @@ q AND p.namespace_id IN ({places}) ORDER BY score DESC LIMIT {limit}"
            );
            (sql, words.join(" | "))
        }
    };
    let values: Vec<Value> = std::iter::once(query.into()).chain(namespaces.iter().map(|&n| n.into())).collect();
    let rows = db.query_all_raw(Statement::from_sql_and_values(backend, sql, values)).await?;
    rows.iter().map(|row| Ok((row.try_get::<Uuid>("", "page_id")?, row.try_get::<f64>("", "score")?))).collect()
}
