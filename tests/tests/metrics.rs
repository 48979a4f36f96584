//! `/metrics` as Prometheus scrapes it, from the real `acc` with a real `acc-connector`: its own
//! listener (never the public one), and figures that follow what happens — requests by route,
//! GraphQL operations by root field, run events in and out, subscriptions, connectors online,
//! the database pool.

mod common;

use std::time::Duration;

use acc_tests::{Server, ServerOptions, TestDb, on_both_databases};
use common::{enroll, online_agents, run_connector, wait_status};
use serde_json::json;

/// Prints 30 numbered lines, one every 20 ms.
const TICKER: &str = r#"
[[agents]]
name = "ticker"
adapter = "command"
command = "sh"
args = ["-c", "i=1; while [ $i -le 30 ]; do echo tick $i; i=$((i+1)); sleep 0.02; done"]
"#;

async fn scrape(url: &str) -> String {
    let response = reqwest::get(url).await.expect("the metrics listener answers");
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(content_type.starts_with("application/openmetrics-text"), "{content_type}");
    let text = response.text().await.unwrap();
    assert!(text.ends_with("# EOF\n"), "a complete exposition");
    text
}

/// The value of the sample `series` (its name and labels as written), if there is one.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

fn value(text: &str, series: &str) -> f64 {
    sample(text, series).unwrap_or_else(|| panic!("no {series} in:\n{text}"))
}

/// Scrapes until `series` has `wanted`.
async fn until(url: &str, series: &str, wanted: f64) -> String {
    for _ in 0..100 {
        let text = scrape(url).await;
        if sample(&text, series) == Some(wanted) {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{series} never became {wanted}:\n{}", scrape(url).await);
}

on_both_databases!(metrics_follow_requests_run_events_subscribers_and_connectors, |db: TestDb| async move {
    let env = vec![("ACC_METRICS__LISTEN".to_owned(), "127.0.0.1:0".to_owned())];
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let url = server.banner.iter().find_map(|l| l.strip_prefix("Metrics: ")).expect("the banner names it").to_owned();
    assert!(url.starts_with("http://127.0.0.1:") && !url.starts_with(&server.url), "{url}");

    // Nothing yet, and the public listener does not serve them.
    let text = scrape(&url).await;
    assert_eq!(value(&text, "acc_connectors_online"), 0.0);
    assert_eq!(value(&text, "acc_subscriptions_active"), 0.0);
    assert_eq!(value(&text, "acc_run_events_ingested_total"), 0.0);
    assert!(text.contains("# TYPE acc_db_pool_connections gauge"));
    let public = reqwest::get(format!("{}/metrics", server.url)).await.unwrap().text().await.unwrap();
    assert!(!public.contains("acc_"), "the public listener serves no metrics");

    // A connector comes online with an agent; a person watches a run of it live.
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let connector = run_connector(&dir, &credential, TICKER);
    let ticker = online_agents(&f.owner, &f.project_id, 1).await[0]["id"].clone();
    until(&url, "acc_connectors_online", 1.0).await;
    let task = common::create_task(&f.owner, &f.project_id, "Tick").await;
    let start = "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }";
    let run_id = f.owner.gql(start, json!({"t": task["id"], "a": ticker})).await.data("startRun")["id"].clone();
    let watch = "subscription($r: ID!) { runEvents(runId: $r) { sequence kind } }";
    let mut watching = f.owner.subscribe(watch, json!({"r": run_id})).await.unwrap();
    let during = scrape(&url).await;
    assert_eq!(value(&during, "acc_subscriptions_active"), 1.0);
    wait_status(&f.owner, run_id.as_str().unwrap(), "SUCCEEDED").await;
    let stored = common::events(&f.owner, run_id.as_str().unwrap()).await;
    for _ in &stored {
        watching.next().await.unwrap();
    }

    // A field the schema lacks is answered with an error, and never becomes a label.
    f.owner.gql("{ whatIWrite }", json!({})).await.expect_code("VALIDATION");

    // Every event the connector sent came in through a batch (the control plane writes the
    // run's status changes and notices itself), and every event went out to the subscriber.
    let sent = stored.iter().filter(|e| e["kind"] != "status" && e["kind"] != "notice").count() as f64;
    let mut after = scrape(&url).await;
    // A batch is counted once its effects are done, which may be just after its events are out.
    for _ in 0..100 {
        if value(&after, "acc_run_events_ingested_total") >= sent {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        after = scrape(&url).await;
    }
    let ingested = value(&after, "acc_run_events_ingested_total");
    assert!(ingested >= sent, "{ingested} events in, {sent} sent");
    let stored = stored.len();
    let batches = value(&after, "acc_ingest_batch_events_count");
    assert!((1.0..=ingested).contains(&batches), "{batches} batches of {ingested}");
    assert_eq!(value(&after, "acc_ingest_batch_events_sum"), ingested);
    assert_eq!(value(&after, "acc_ingest_batch_duration_seconds_count"), batches);
    assert!(value(&after, "acc_subscription_deliveries_total") >= stored as f64);
    assert_eq!(value(&after, "acc_subscription_executions_total"), 1.0);
    assert_eq!(value(&after, "acc_subscribers_fell_behind_total"), 0.0);
    // Requests by route and class, never by id; the latency histogram counts the same requests.
    let answered = value(&after, r#"acc_http_requests_total{route="/graphql",method="POST",status="2xx"}"#);
    assert!(answered >= 6.0, "{answered}");
    let timed = value(&after, r#"acc_http_request_duration_seconds_count{route="/graphql"}"#);
    assert!(timed >= answered, "{timed} timed, {answered} answered");
    assert!(after.contains(r#"route="/v1/connectors/enroll",method="POST",status="2xx""#));
    // GraphQL operations by their root field and outcome.
    let started = r#"acc_graphql_operation_duration_seconds_count{operation="mutation startRun",outcome="ok"}"#;
    assert_eq!(value(&after, started), 1.0);
    assert!(
        value(&after, r#"acc_graphql_operation_duration_seconds_count{operation="query runEvents",outcome="ok"}"#)
            >= 1.0
    );
    let unknown = r#"acc_graphql_operation_duration_seconds_count{operation="other",outcome="error"}"#;
    assert_eq!(value(&after, unknown), 1.0);
    assert!(!after.contains("whatIWrite"));
    assert!(!after.contains(run_id.as_str().unwrap()), "no id is a label");
    assert!(value(&after, r#"acc_db_pool_connections{state="idle"}"#) >= 1.0);

    // The watcher leaves and the connector stops: both figures go back down.
    drop(watching);
    until(&url, "acc_subscriptions_active", 0.0).await;
    drop(connector);
    until(&url, "acc_connectors_online", 0.0).await;
});
