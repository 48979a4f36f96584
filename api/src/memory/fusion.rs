//! Reciprocal rank fusion: lists ranked by different retrievals (words, meaning) merged into one,
//! for memory and the wiki alike.

use std::collections::HashMap;

use uuid::Uuid;

/// Which retrieval found a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retriever {
    FullText,
    Vector,
}

/// Weighted reciprocal rank fusion: a hit's fused score is the sum, over the retrievals that
/// found it, of the retrieval's weight / (RRF_K + its rank there). A small constant lets a first
/// rank count for much more than a tenth, and full text, which matches any word of a question,
/// weighs half as much as meaning. Chosen on memory's retrieval evaluation (docs/benchmarks.md),
/// where the usual k = 60 with equal weights fused worse than vectors alone: agreement at middling
/// ranks then beat the best match of either.
const RRF_K: f64 = 1.0;

/// A hit of the fused list.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub id: Uuid,
    /// Higher is better; only comparable within one search.
    pub score: f64,
    /// The retrievals that found it, in the order of the lists.
    pub found_by: Vec<Retriever>,
}

/// Weighted reciprocal rank fusion of ranked lists: best fused score first, ties by id.
pub fn fuse(lists: &[(Retriever, Vec<Uuid>)]) -> Vec<Fused> {
    let mut fused: HashMap<Uuid, Fused> = HashMap::new();
    for (retriever, ids) in lists {
        let weight = match retriever {
            Retriever::FullText => 0.5,
            Retriever::Vector => 1.0,
        };
        for (rank, id) in ids.iter().enumerate() {
            let hit = fused.entry(*id).or_insert(Fused { id: *id, score: 0.0, found_by: Vec::new() });
            hit.score += weight / (RRF_K + rank as f64 + 1.0);
            hit.found_by.push(*retriever);
        }
    }
    let mut ranked: Vec<Fused> = fused.into_values().collect();
    ranked.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_by_both_beats_first_by_one_and_meaning_outweighs_words() {
        let (a, b, c) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
        let fused = fuse(&[(Retriever::FullText, vec![a, b]), (Retriever::Vector, vec![c, b])]);
        let order: Vec<Uuid> = fused.iter().map(|f| f.id).collect();
        assert_eq!(order, vec![b, c, a]);
        assert_eq!(fused[0].found_by, vec![Retriever::FullText, Retriever::Vector]);
        assert_eq!(fused[1].found_by, vec![Retriever::Vector]);
    }
}
