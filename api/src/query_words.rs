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

/// English function words, which say nothing about what a text is about: in memory's search they
/// made nearly every entry a candidate (ranked low, but each one ranked), which is most of a search's
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

/// The words of a query worth matching, each once: all but the function words, unless that
/// leaves none.
pub fn telling(words: &[String]) -> Vec<String> {
    let mut telling: Vec<String> = words.iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).cloned().collect();
    if telling.is_empty() {
        telling = words.to_vec();
    }
    let mut seen = std::collections::HashSet::new();
    telling.retain(|w| seen.insert(w.clone()));
    telling
}
