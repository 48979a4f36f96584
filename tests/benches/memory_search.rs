//! Benchmark: memory search latency at 10,000 and 100,000 entries on SQLite (issue 14: p99 under
//! 20 ms and 50 ms), through the release `acc` over HTTP, one query at a time.
//!
//! The retrieval evaluation's corpus (340 entries) is written through GraphQL with the embedding
//! model, as a user would; it is then copied in the database until the size wanted (each copy's
//! subject numbered, its text, full-text row and vector those of the entry it copies: embedding
//! 100,000 texts on two cores would take most of an hour, and what a search costs depends on how
//! many entries it reads, not on how they came). Then the server starts again and the evaluation's
//! 80 questions are asked in turn from a task for `ACC_BENCH_SECONDS` (default 10) per setting:
//! fused, full text alone and vectors alone. `ACC_BENCH_SIZES` (default `10000,100000`) sets the
//! sizes. Results in docs/benchmarks.md.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use acc_entity::{memory_entry, memory_vector, memory_version};
use acc_tests::{Server, ServerOptions, TestDb, op};
use sea_orm::{ConnectionTrait, Database, EntityTrait, TransactionTrait};
use serde_json::json;
use uuid::Uuid;

const SETTINGS: [(&str, Option<&[&str]>); 3] =
    [("fused", None), ("full text alone", Some(&["FULL_TEXT"])), ("vectors alone", Some(&["VECTOR"]))];

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let seconds: u64 = std::env::var("ACC_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let sizes: Vec<usize> = std::env::var("ACC_BENCH_SIZES")
        .unwrap_or_else(|_| "10000,100000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("ACC_BENCH_SIZES is a list of numbers"))
        .collect();
    let corpus = acc_tests::memory_corpus::corpus();
    let db = TestDb::sqlite();
    let url = db.url.clone();
    let mut server =
        Server::start_with(db, ServerOptions { env: acc_tests::with_embedding_model(), ..Default::default() }).await;
    let owner = server.owner().await;
    acc_tests::wait_for_retrieval_mode(&owner, "HYBRID").await;
    let workspace = owner.gql(op!("create_workspace"), json!({"name": "Platform"})).await;
    let workspace = workspace.data("createWorkspace")["id"].as_str().unwrap().to_owned();
    let project = owner.gql(op!("create_project"), json!({"workspaceId": workspace, "name": "Tally"})).await;
    let project = project.data("createProject")["id"].as_str().unwrap().to_owned();
    let task = owner.gql(op!("create_task"), json!({"input": {"projectId": project, "title": "Answer"}})).await;
    let task = task.data("createTask")["id"].as_str().unwrap().to_owned();
    let scopes = acc_tests::memory_corpus::scopes(&owner, &workspace, &project, &task).await;
    let started = Instant::now();
    acc_tests::memory_corpus::write(&owner, &corpus, &scopes).await;
    let written = started.elapsed();
    println!(
        "corpus: {} entries written through GraphQL with the model in {:.1} s ({:.1} ms each)",
        corpus.entries.len(),
        written.as_secs_f64(),
        written.as_secs_f64() * 1000.0 / corpus.entries.len() as f64
    );

    println!("| entries | setting | queries | p50 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|---|");
    for size in sizes {
        server.kill();
        copy_until(&url, size).await;
        server.restart().await;
        acc_tests::wait_for_retrieval_mode(&owner, "HYBRID").await;
        // The organization's vectors are read into memory by its first search.
        let first = Instant::now();
        owner.gql(op!("memory"), json!({"scopeId": task, "query": "warm up"})).await.data("memory");
        eprintln!("{size} entries: the first search (reading the vectors) took {:.0} ms", ms(first.elapsed()));
        for (name, retrievers) in SETTINGS {
            let mut latencies = Vec::new();
            let deadline = Instant::now() + Duration::from_secs(seconds);
            'run: loop {
                for q in corpus.questions.iter().map(|q| &q.text) {
                    let variables = json!({"scopeId": task, "query": q, "retrievers": retrievers, "first": 20});
                    let sent = Instant::now();
                    let answer = owner.gql(op!("memory"), variables).await;
                    latencies.push(sent.elapsed());
                    if answer.code().is_some() {
                        let log = server.log();
                        let tail: Vec<&str> = log.lines().rev().take(15).collect();
                        panic!(
                            "{q:?} failed: {:?}\nthe server's log, last lines first:\n{}",
                            answer.code(),
                            tail.join("\n")
                        );
                    }
                    if Instant::now() > deadline {
                        break 'run;
                    }
                }
            }
            latencies.sort();
            let at = |q: f64| ms(latencies[((latencies.len() - 1) as f64 * q).round() as usize]);
            println!(
                "| {size} | {name} | {} | {:.1} | {:.1} | {:.1} |",
                latencies.len(),
                at(0.5),
                at(0.99),
                ms(*latencies.last().unwrap())
            );
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Copies the corpus's entries (with their current version and vector) in the database until it
/// holds `size` entries, then fills the full-text index again.
async fn copy_until(url: &str, size: usize) {
    let db = Database::connect(url).await.unwrap();
    let originals = memory_entry::Entity::find().all(&db).await.unwrap();
    let mut count = originals.len();
    let versions: HashMap<Uuid, memory_version::Model> =
        memory_version::Entity::find().all(&db).await.unwrap().into_iter().map(|v| (v.id, v)).collect();
    let vectors: HashMap<Uuid, memory_vector::Model> =
        memory_vector::Entity::find().all(&db).await.unwrap().into_iter().map(|v| (v.entry_id, v)).collect();
    let originals: Vec<_> = originals.into_iter().filter(|e| vectors.contains_key(&e.id)).collect();
    while count < size {
        let txn = db.begin().await.unwrap();
        let (mut entries, mut copies, mut vector_rows) = (Vec::new(), Vec::new(), Vec::new());
        for (i, original) in originals.iter().take(size - count).enumerate() {
            let version = &versions[&original.current_version_id.unwrap()];
            let (entry_id, version_id) = (Uuid::now_v7(), Uuid::now_v7());
            // Numbered by the copy's place, so no two copies share a subject.
            let subject = format!("{} {}", original.subject, count + i);
            let entry =
                memory_entry::Model { id: entry_id, subject, current_version_id: Some(version_id), ..original.clone() };
            entries.push(sea_orm::IntoActiveModel::into_active_model(entry));
            let version = memory_version::Model { id: version_id, entry_id, ..version.clone() };
            copies.push(sea_orm::IntoActiveModel::into_active_model(version));
            let vector = memory_vector::Model { entry_id, version_id, ..vectors[&original.id].clone() };
            vector_rows.push(sea_orm::IntoActiveModel::into_active_model(vector));
        }
        count += entries.len();
        // In chunks, as one statement binds only so many values.
        for chunk in entries.chunks(200) {
            memory_entry::Entity::insert_many(chunk.to_vec()).exec_without_returning(&txn).await.unwrap();
        }
        for chunk in copies.chunks(100) {
            memory_version::Entity::insert_many(chunk.to_vec()).exec_without_returning(&txn).await.unwrap();
        }
        for chunk in vector_rows.chunks(200) {
            memory_vector::Entity::insert_many(chunk.to_vec()).exec_without_returning(&txn).await.unwrap();
        }
        txn.commit().await.unwrap();
    }
    // The full-text index made again from every version, as the migration that shaped it does.
    for table in ["memory_search", "memory_search_past"] {
        db.execute_unprepared(&format!("DELETE FROM {table}")).await.unwrap();
    }
    for fill in acc_migration::SQLITE_MEMORY_SEARCH_FILL {
        db.execute_unprepared(fill).await.unwrap();
    }
    db.close().await.unwrap();
}
