//! Retrieval evaluation: a fixed corpus (tests/data/memory_eval.json: 340 entries across scopes and
//! kinds, with superseded versions, retracted entries, near-duplicates and another project's
//! distractors) and 80 questions with their relevant entries, loaded into a real server through
//! GraphQL and asked from a task. Recall@5 and MRR for full text alone, vectors alone and both
//! fused; fused must beat both. The figures are printed for docs/benchmarks.md.

mod common;

use std::collections::HashMap;

use acc_tests::{Server, ServerOptions, TestDb, on_both_databases, op};
use serde_json::json;

/// Recall@5 and MRR (of the first relevant hit, over the 20 returned) of one retrieval setting.
#[derive(Default, Clone, Copy)]
struct Score {
    recall_at_5: f64,
    mrr: f64,
}

const SETTINGS: [(&str, Option<&[&str]>); 3] =
    [("full text", Some(&["FULL_TEXT"])), ("vector", Some(&["VECTOR"])), ("fused", None)];

on_both_databases!(fused_retrieval_beats_full_text_and_vectors_alone, |db: TestDb| async move {
    let corpus = acc_tests::memory_corpus::corpus();
    let backend = if db.url.starts_with("postgres") { "PostgreSQL" } else { "SQLite" };
    let env = acc_tests::with_embedding_model();
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    acc_tests::wait_for_retrieval_mode(owner, "HYBRID").await;
    let task = common::create_task(owner, &f.project_id, "Answer questions").await["id"].as_str().unwrap().to_owned();
    let scopes = acc_tests::memory_corpus::scopes(owner, &f.workspace_id, &f.project_id, &task).await;

    let entry_of = acc_tests::memory_corpus::write(owner, &corpus, &scopes).await;

    let mut scores = [Score::default(); 3];
    let mut by_style: HashMap<&str, [Score; 3]> = HashMap::new();
    for q in &corpus.questions {
        let relevant: Vec<&str> = q.relevant.iter().map(|k| entry_of[k].0.as_str()).collect();
        for (i, (_, retrievers)) in SETTINGS.iter().enumerate() {
            let variables = json!({"scopeId": task, "query": q.text, "retrievers": retrievers, "first": 20});
            let result = owner.gql(op!("memory"), variables).await;
            let hits: Vec<&str> =
                result.data("memory").as_array().unwrap().iter().map(|h| h["entry"]["id"].as_str().unwrap()).collect();
            let found_in_5 = relevant.iter().filter(|r| hits.iter().take(5).any(|h| h == *r)).count();
            let recall = found_in_5 as f64 / relevant.len() as f64;
            let rr = hits.iter().position(|h| relevant.contains(h)).map_or(0.0, |p| 1.0 / (p as f64 + 1.0));
            for score in [&mut scores[i], &mut by_style.entry(q.style.as_str()).or_default()[i]] {
                score.recall_at_5 += recall;
                score.mrr += rr;
            }
        }
    }

    let n = corpus.questions.len() as f64;
    println!("retrieval on {backend}: {} entries, {} questions", corpus.entries.len(), corpus.questions.len());
    println!("| setting | recall@5 | MRR |");
    for (i, (name, _)) in SETTINGS.iter().enumerate() {
        println!("| {name} | {:.3} | {:.3} |", scores[i].recall_at_5 / n, scores[i].mrr / n);
    }
    let mut styles: Vec<_> = by_style.iter().collect();
    styles.sort_by_key(|(style, _)| *style);
    for (style, s) in styles {
        let count = corpus.questions.iter().filter(|q| q.style == *style).count() as f64;
        let line: Vec<String> = SETTINGS
            .iter()
            .enumerate()
            .map(|(i, (name, _))| format!("{name} {:.3}/{:.3}", s[i].recall_at_5 / count, s[i].mrr / count))
            .collect();
        println!("{style} ({count}): {}", line.join(", "));
    }
    let [full_text, vector, fused] = scores;
    assert!(fused.recall_at_5 > full_text.recall_at_5 && fused.recall_at_5 > vector.recall_at_5, "recall@5");
    assert!(fused.mrr > full_text.mrr && fused.mrr > vector.mrr, "MRR");
});
