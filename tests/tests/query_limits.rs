//! What one query may make the server do: its cost is counted with list fan-out and refused
//! before it runs, its response is bounded in size and its run in time, and every operation the
//! product itself sends stays within the default limits.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use acc_api::config::Limits;
use acc_api::graphql::QueryCost;
use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases, op};
use async_graphql::parser::types::BaseType;
use serde_json::{Value, json};

/// A memory figure of a process from `/proc/<pid>/status`, in KiB (`VmRSS`, `VmHWM`: the peak).
fn memory_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(&format!("{field}:"))).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// `count` tasks in the project, each depending on up to `per_task` tasks created just before it:
/// a DAG whose dependents chains branch at every level. Returns the tasks' ids.
async fn dependency_web(owner: &Client, project_id: &str, count: usize, per_task: usize) -> (Vec<String>, usize) {
    let mut ids = Vec::new();
    for i in 0..count {
        let task = common::create_task(owner, project_id, &format!("Task {i}")).await;
        ids.push(task["id"].as_str().unwrap().to_owned());
    }
    let mut edges = 0;
    for i in 1..count {
        for j in i.saturating_sub(per_task)..i {
            let added = owner.gql(op!("add_task_dependency"), json!({"taskId": ids[i], "dependsOnId": ids[j]})).await;
            added.data("addTaskDependency");
            edges += 1;
        }
    }
    (ids, edges)
}

on_both_databases!(the_nested_dependents_attack_is_refused_before_it_runs, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let (_, edges) = dependency_web(&f.owner, &f.project_id, 24, 6).await;
    assert_eq!(edges, 123, "the reproduced project: 24 tasks, 123 dependency edges");
    let one_level = f
        .owner
        .gql(
            "query($p: ID!) { tasks(projectId: $p, first: 100) { nodes { dependents { id } } } }",
            json!({"p": f.project_id}),
        )
        .await;
    let stored: usize = one_level.data("tasks")["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["dependents"].as_array().unwrap().len())
        .sum();
    assert_eq!(stored, 123, "every edge is there to be followed");

    let (peak_before, rss_before) = (memory_kib(server.pid(), "VmHWM"), memory_kib(server.pid(), "VmRSS"));
    let attack = f.owner.gql(op!("too_costly_dependents"), json!({"projectId": f.project_id})).await;
    let error = attack.expect_code("VALIDATION");
    assert!(attack.body["data"].is_null(), "{}", attack.body);
    let (cost, limit) = (&error["extensions"]["details"]["cost"], &error["extensions"]["details"]["limit"]);
    assert_eq!(limit, Limits::default().max_complexity, "{error}");
    assert!(cost.as_u64().unwrap() > limit.as_u64().unwrap(), "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(&cost.to_string()) && message.contains(&limit.to_string()), "{message}");
    assert!(attack.body.to_string().len() < 1024, "an error, not data: {}", attack.body);

    let (peak_after, rss_after) = (memory_kib(server.pid(), "VmHWM"), memory_kib(server.pid(), "VmRSS"));
    assert!(peak_after < peak_before + 20 * 1024, "peak memory grew from {peak_before} KiB to {peak_after} KiB");
    assert!(rss_after < rss_before + 20 * 1024, "memory grew from {rss_before} KiB to {rss_after} KiB");
});

on_both_databases!(a_query_at_the_cost_limit_runs_and_one_field_more_is_refused, |db: TestDb| async move {
    let env = [("ACC_LIMITS__MAX_COMPLEXITY", "10000"), ("ACC_LIMITS__LIST_FANOUT", "10")];
    let env = env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let server = Server::start_with(db, ServerOptions { env, ..ServerOptions::default() }).await;
    let f = common::fixture(&server).await;
    dependency_web(&f.owner, &f.project_id, 6, 2).await;

    let at_limit = f.owner.gql(op!("at_the_cost_limit"), json!({"projectId": f.project_id})).await;
    let tasks = at_limit.data("tasks")["nodes"].as_array().unwrap();
    assert_eq!(tasks.len(), 6);
    assert_eq!(tasks[0]["dependents"].as_array().unwrap().len(), 2, "{}", at_limit.body);

    let over = f.owner.gql(op!("too_costly_by_one_field"), json!({"projectId": f.project_id})).await;
    let error = over.expect_code("VALIDATION");
    assert_eq!(error["extensions"]["details"], json!({"cost": 10100, "limit": 10000}), "{error}");
    assert!(error["message"].as_str().unwrap().contains("costs 10100"), "{error}");
});

on_both_databases!(a_response_over_max_response_bytes_is_refused_whole, |db: TestDb| async move {
    let max = 16 * 1024;
    let env = vec![("ACC_LIMITS__MAX_RESPONSE_BYTES".to_owned(), max.to_string())];
    let server = Server::start_with(db, ServerOptions { env, ..ServerOptions::default() }).await;
    let f = common::fixture(&server).await;
    let description = "d".repeat(1000);
    for i in 0..24 {
        let input =
            json!({"input": {"projectId": f.project_id, "title": format!("Task {i}"), "description": description}});
        f.owner.gql(op!("create_task"), input).await.data("createTask");
    }
    let page = "query($p: ID!, $n: Int) { tasks(projectId: $p, first: $n) { nodes { id description } } }";

    let small = f.owner.gql(page, json!({"p": f.project_id, "n": 5})).await;
    assert_eq!(small.data("tasks")["nodes"].as_array().unwrap().len(), 5, "a page under the bound is answered");

    let large = f.owner.gql(page, json!({"p": f.project_id, "n": 24})).await;
    let error = large.expect_code("VALIDATION");
    assert_eq!(error["extensions"]["details"]["maxResponseBytes"], max, "{error}");
    assert!(error["message"].as_str().unwrap().contains("larger than"), "{error}");
    assert!(large.body["data"].is_null(), "nothing of the data is sent: {}", large.body);
    assert_eq!(large.status, 200);

    // The same bound holds for what a socket sends, a subscription's events included.
    let mut socket = f.owner.socket().await.unwrap();
    socket.start("page", page, json!({"p": f.project_id, "n": 24})).await.unwrap();
    let refused = socket.next().await.unwrap();
    assert_eq!(refused["errors"][0]["extensions"]["code"], "VALIDATION", "{refused}");
    assert_eq!(refused["errors"][0]["extensions"]["details"]["maxResponseBytes"], max, "{refused}");
    assert!(refused["data"].is_null(), "{refused}");
    assert_eq!(socket.message().await.unwrap()["type"], "complete");
    let watch = "subscription($p: ID!) { taskEvents(projectId: $p) { task { description } } }";
    socket.start("watch", watch, json!({"p": f.project_id})).await.unwrap();
    let big = "d".repeat(max);
    let mut oversized = None;
    for _ in 0..20 {
        let input = json!({"input": {"projectId": f.project_id, "title": "Too big to tell", "description": big}});
        let create = "mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }";
        f.owner.gql(create, input).await.data("createTask");
        if let Ok(message) = tokio::time::timeout(Duration::from_millis(500), socket.message()).await {
            oversized = Some(message.unwrap());
            break;
        }
    }
    let oversized = oversized.expect("the subscription answered");
    assert_eq!(oversized["payload"]["errors"][0]["extensions"]["code"], "VALIDATION", "{oversized}");
});

on_both_databases!(a_request_over_its_time_budget_is_stopped, |db: TestDb| async move {
    let mut server = Server::start(db).await;
    let owner = server.owner().await;
    // Signing in hashes the password with argon2, which by design takes many milliseconds
    // (19 MiB of memory, two passes) however fast the machine.
    let slow = op!("login");
    let credentials = json!({"email": "owner@acme.test", "password": acc_tests::PASSWORD});
    owner.gql(slow, credentials.clone()).await.data("login");

    let env = vec![("ACC_LIMITS__REQUEST_TIMEOUT_MS".to_owned(), "1".to_owned())];
    server.restart_with(ServerOptions { env, ..ServerOptions::default() }).await;
    let stopped = server.client().gql(slow, credentials.clone()).await;
    let error = stopped.expect_code("BUDGET_EXCEEDED");
    assert_eq!(error["extensions"]["details"]["requestTimeoutMs"], 1, "{error}");
    assert_eq!(error["extensions"]["retryable"], false, "{error}");
    assert!(stopped.body["data"].is_null(), "{}", stopped.body);
    assert!(server.log().contains("request stopped at its time budget"), "the server logs what it stopped");

    // A mutation sent over a socket has the same budget. Signed in before the restart: the
    // session and the signing keys are in the data dir.
    let owner = server.client().with_token(owner.token.as_deref().unwrap());
    let mut socket = owner.socket().await.unwrap();
    socket.start("slow", slow, credentials).await.unwrap();
    let stopped = socket.next().await.unwrap();
    assert_eq!(stopped["errors"][0]["extensions"]["code"], "BUDGET_EXCEEDED", "{stopped}");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fragment_bomb_is_refused_without_being_expanded() {
    let server = Server::start(TestDb::sqlite()).await;
    let owner = server.owner().await;
    // Under a kilobyte: 26 fragments, each spreading the next twice, are 2^26 fields expanded,
    // within the engine's nesting limit (32); its own checks expand every spread.
    let levels = 26;
    let mut bomb = String::from("query Bomb { viewer { ...F0 } }\n");
    for i in 0..levels {
        bomb.push_str(&format!("fragment F{i} on User {{ ...F{} ...F{} }}\n", i + 1, i + 1));
    }
    bomb.push_str(&format!("fragment F{levels} on User {{ id }}\n"));
    // Expanded, it would keep a core busy for many minutes; the deadline only tells the two apart.
    let response = tokio::time::timeout(Duration::from_secs(120), owner.gql(&bomb, json!({})))
        .await
        .expect("the bomb is answered, not expanded");
    let error = response.expect_code("VALIDATION");
    assert_eq!(error["extensions"]["details"]["cost"], (1u64 << levels) + 1, "{error}");
    owner.gql(op!("viewer"), json!({})).await.data("viewer");
}

/// The repository's root, where the clients keep their operations.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

fn files(dir: &Path, keep: &dyn Fn(&Path) -> bool, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, keep, found);
        } else if keep(&path) {
            found.push(path);
        }
    }
}

/// The documents of the web client: every ``graphql(`…`)`` in its sources, as GraphQL Code
/// Generator finds them (`codegen.ts`: not the generated `src/gql`, not tests).
fn web_client_documents() -> Vec<(String, String)> {
    let src = repository().join("clients/web/src");
    let mut sources = Vec::new();
    let keep = |p: &Path| {
        let name = p.to_string_lossy();
        (name.ends_with(".ts") || name.ends_with(".tsx")) && !name.contains(".test.") && !name.contains("/src/gql/")
    };
    files(&src, &keep, &mut sources);
    let mut documents = Vec::new();
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, start) in text.match_indices("graphql(`").map(|(i, m)| i + m.len()).enumerate() {
            let end = start + text[start..].find('`').unwrap();
            documents.push((format!("{}#{i}", path.display()), text[start..end].to_owned()));
        }
    }
    documents
}

#[test]
fn every_operation_the_product_sends_is_within_the_default_cost() {
    let limits = Limits::default();
    let cost = QueryCost::new(&acc_api::graphql::sdl(), &limits).unwrap();

    let web = web_client_documents();
    // Fragments are global to the web client, as codegen treats them.
    let fragments: String =
        web.iter().filter(|(_, d)| d.trim_start().starts_with("fragment")).map(|(_, d)| d.as_str()).collect();
    let mut operations: Vec<(String, String)> = web
        .into_iter()
        .filter(|(_, d)| !d.trim_start().starts_with("fragment"))
        .map(|(name, d)| (name, format!("{d}\n{fragments}")))
        .collect();
    let mut queries = Vec::new();
    files(&repository().join("tests/queries"), &|p| p.extension().is_some_and(|e| e == "graphql"), &mut queries);
    // The `too_*` operations are over a limit on purpose.
    queries.retain(|p| !p.file_name().unwrap().to_string_lossy().starts_with("too_"));
    operations.extend(queries.iter().map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap())));
    assert!(operations.len() > 50, "found the operations: {}", operations.len());

    let mut refused = Vec::new();
    let mut costliest = (0, String::new());
    for (origin, text) in &operations {
        let document = async_graphql::parser::parse_query(text).unwrap_or_else(|e| panic!("{origin}: {e}"));
        for (name, operation) in document.operations.iter() {
            // The worst case: every integer variable (a page size among them) at the largest page.
            let variables: serde_json::Map<String, Value> = operation
                .node
                .variable_definitions
                .iter()
                .filter(|v| matches!(&v.node.var_type.node.base, BaseType::Named(t) if t == "Int"))
                .map(|v| (v.node.name.node.to_string(), json!(limits.max_page_size)))
                .collect();
            let variables = async_graphql::Variables::from_json(Value::Object(variables));
            let n = cost.of(&document, name.map(|n| n.as_str()), &variables);
            if n > limits.max_complexity as u64 {
                refused.push(format!("{origin} {name:?}: {n}"));
            }
            if n > costliest.0 {
                costliest = (n, format!("{origin} {name:?}"));
            }
        }
    }
    assert!(refused.is_empty(), "operations over max_complexity {}: {refused:#?}", limits.max_complexity);
    eprintln!("the costliest operation the product sends: {} at {}", costliest.1, costliest.0);
}
