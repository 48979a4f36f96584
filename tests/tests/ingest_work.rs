//! Run events are stored by group commit: a batch of events costs the same few SQL statements
//! whatever its size, and the gateway stores every frame that arrived together as one batch.
//! Counted, not timed (docs/benchmarks.md measures the speed).

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use acc_api::app::App;
use acc_api::config::Config;
use acc_api::runs::ConnectorEvent;
use acc_protocol::{Capability, EventKind, Frame};
use acc_tests::connector_client::{RawConnector, enroll_at};
use acc_tests::{Client, TestDb, on_both_databases, op};
use serde_json::json;
use uuid::Uuid;

/// The statements a batch of events of one run costs: the run locked, its attempt on the
/// connector, the connector's and the run's last sequences, one insert.
const STATEMENTS_PER_BATCH: usize = 5;

on_both_databases!(a_batch_of_events_costs_the_same_statements_whatever_its_size, |db: TestDb| async move {
    let statements = Arc::new(AtomicUsize::new(0));
    let mut conn = db.connect().await;
    acc_api::db::migrate(&conn).await.unwrap();
    let counter = statements.clone();
    conn.set_metric_callback(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    let config = Config { data_dir: db.dir.clone(), ..Config::default() };
    let app = App::assemble(&config, conn).await.unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(acc_api::http::serve(listener, app.router(), None));
    let base = format!("http://{address}");
    let mut owner = Client::new(&format!("{base}/graphql"), &format!("ws://{address}/graphql/ws"));
    let redeemed = owner
        .gql(
            op!("redeem_bootstrap"),
            json!({"code": app.bootstrap_code, "org": "Acme", "email": "owner@acme.test", "password": acc_tests::PASSWORD}),
        )
        .await;
    owner.token = Some(redeemed.data("redeemBootstrap")["accessToken"].as_str().unwrap().to_owned());
    let ws = owner.gql(op!("create_workspace"), json!({"name": "Platform"})).await;
    let workspace_id = ws.data("createWorkspace")["id"].as_str().unwrap().to_owned();
    let project = owner.gql(op!("create_project"), json!({"workspaceId": workspace_id, "name": "P"})).await;
    let project_id = project.data("createProject")["id"].as_str().unwrap().to_owned();
    let token = common::enrollment_token(&owner, &workspace_id).await;
    let (status, enrolled) = enroll_at(&base, &token).await;
    assert_eq!(status, 200, "{enrolled}");
    let connector_id: Uuid = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let mut connector =
        RawConnector::dial_at(&base, connector_id, enrolled["credential"].as_str().unwrap()).await.unwrap();
    connector.hello("shell", vec![Capability::Stream]).await;
    let task = common::create_task(&owner, &project_id, "Count").await;
    let started = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run = started.data("startRun")["id"].as_str().unwrap().to_owned();
    let (run_id, _) = connector.accept_start().await;
    // Its start is done with: nothing but the events below touches the database from here on.
    common::wait_status_within(&owner, &run, "RUNNING", std::time::Duration::from_secs(10)).await;
    let output = |sequence: u64| connector.event(run_id, sequence, EventKind::Output, json!({"line": sequence}));
    let read = |envelope: &acc_protocol::Envelope| ConnectorEvent::read(envelope).unwrap().unwrap();
    let runs = &app.state.services.runs;

    // Through the service: one event, then a hundred at once, cost the same.
    let counted = |from: usize| statements.load(Ordering::SeqCst) - from;
    let before = statements.load(Ordering::SeqCst);
    let one = runs.ingest(connector_id, vec![read(&output(1))]).await.unwrap();
    assert_eq!(one.acks, [(run_id, 1)]);
    assert_eq!(counted(before), STATEMENTS_PER_BATCH, "one event");
    let hundred: Vec<ConnectorEvent> = (2..=101).map(|s| read(&output(s))).collect();
    let before = statements.load(Ordering::SeqCst);
    let stored = runs.ingest(connector_id, hundred.clone()).await.unwrap();
    assert_eq!((stored.acks, stored.refused.len()), (vec![(run_id, 101)], 0));
    assert_eq!(counted(before), STATEMENTS_PER_BATCH, "a hundred events");

    // A resend is acknowledged again and stored once; only the resent events are looked up.
    let before = statements.load(Ordering::SeqCst);
    let again = runs.ingest(connector_id, hundred[..10].to_vec()).await.unwrap();
    assert_eq!((again.acks, again.refused.len()), (vec![(run_id, 101)], 0));
    assert_eq!(counted(before), 4, "locked, attempt, connector's sequence, the resent events");

    // Through the socket: frames that arrive together are stored together.
    let frames: Vec<_> = (102..=301).map(output).collect();
    let before = statements.load(Ordering::SeqCst);
    connector.send_all(&frames).await;
    let mut acked = 0;
    while acked < 301 {
        match connector.recv().await.unwrap().payload {
            Frame::EventAck { up_to_sequence, .. } => acked = up_to_sequence,
            other => panic!("expected acknowledgements, got {other:?}"),
        }
    }
    let spent = counted(before);
    assert!(spent <= 200 / 4, "200 events cost {spent} statements: they were not stored in batches");

    // Every event once, in order.
    let lines: Vec<u64> = common::events(&owner, &run)
        .await
        .iter()
        .filter(|e| e["kind"] == "output")
        .map(|e| e["data"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, (1..=301).collect::<Vec<u64>>());
});
