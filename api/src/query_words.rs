//! The words of a full-text query, as both databases' query languages take them: memory's search
//! and the wiki's read a person's question the same way.

/// The most words of a query that are searched for.
pub const MAX_QUERY_WORDS: usize = 32;

/// Letters and digits only, lowercased, so nothing a caller types is read as query syntax.
pub fn words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(MAX_QUERY_WORDS)
        .map(str::to_lowercase)
        .collect()
}
