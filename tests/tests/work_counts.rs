//! Work counted, not timed (docs/benchmarks.md measures the speed): run events are stored by
//! group commit, a batch of events costing the same few SQL statements whatever its size, and the
//! gateway storing every frame that arrived together as one batch; a returning connector is sent
//! again only what its earlier connection may have missed; a signed-in caller is read from the
//! database once, not at every request, until its access changes.

mod common;

use acc_api::identity::{DeviceInfo, NewUser};
use acc_api::runs::ConnectorEvent;
use acc_entity::run_event::{self, RunEventKind};
use acc_protocol::{Capability, EventKind, Frame};
use acc_tests::connector_client::{RawConnector, enroll_at};
use acc_tests::{Client, CountedApp, Subscription, TestDb, on_both_databases, op};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;
use uuid::Uuid;

/// The statements a batch of events costs, of one run or of many: one read of where each run
/// stands (locked, with its attempt on the connector and the connector's and the run's last
/// sequences), one insert.
const STATEMENTS_PER_BATCH: usize = 2;

/// A run started on a connector that speaks the protocol from the test, owned by `owner`.
struct RunningRun {
    owner: Client,
    connector: RawConnector,
    connector_id: Uuid,
    project_id: String,
    /// The run's global id, and its id.
    run: String,
    run_id: Uuid,
}

/// Waits until nothing has touched the database for a moment: the run shows as running as soon as
/// its status commits, while the start's acknowledgement is still being handled.
async fn settled(counted: &CountedApp) {
    let mut last = counted.statements();
    loop {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let now = counted.statements();
        if now == last {
            return;
        }
        last = now;
    }
}

async fn running_run(counted: &CountedApp) -> RunningRun {
    let base = counted.serve();
    let address = base.trim_start_matches("http://");
    let mut owner = Client::new(&format!("{base}/graphql"), &format!("ws://{address}/graphql/ws"));
    let code = counted.app.bootstrap_code.clone().unwrap();
    let redeemed = owner
        .gql(
            op!("redeem_bootstrap"),
            json!({"code": code, "org": "Acme", "email": "owner@acme.test", "password": acc_tests::PASSWORD}),
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
    let (run, run_id) = start_another(counted, &owner, &mut connector, &project_id).await;
    RunningRun { owner, connector, connector_id, project_id, run, run_id }
}

/// Starts a run of a new task on the connector, and waits for the database to settle.
async fn start_another(
    counted: &CountedApp,
    owner: &Client,
    connector: &mut RawConnector,
    project_id: &str,
) -> (String, Uuid) {
    let task = common::create_task(owner, project_id, "Count").await;
    let started = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run = started.data("startRun")["id"].as_str().unwrap().to_owned();
    let (run_id, _) = connector.accept_start().await;
    common::wait_status_within(owner, &run, "RUNNING", std::time::Duration::from_secs(10)).await;
    settled(counted).await;
    (run, run_id)
}

fn read(envelope: &acc_protocol::Envelope) -> ConnectorEvent {
    ConnectorEvent::read(envelope).unwrap().unwrap()
}

on_both_databases!(a_batch_of_events_costs_the_same_statements_whatever_its_size, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let RunningRun { owner, mut connector, connector_id, run, run_id, .. } = running_run(&counted).await;
    // Its start is done with: nothing but the events below touches the database from here on.
    let output = |sequence: u64| connector.event(run_id, sequence, EventKind::Output, json!({"line": sequence}));
    let runs = &counted.app.state.services.runs;

    // Through the service: one event, then a hundred at once, cost the same.
    let before = counted.statements();
    let one = runs.ingest(connector_id, vec![read(&output(1))]).await.unwrap();
    assert_eq!(one.acks, [(run_id, 1)]);
    assert_eq!(counted.since(before), STATEMENTS_PER_BATCH, "one event");
    let hundred: Vec<ConnectorEvent> = (2..=101).map(|s| read(&output(s))).collect();
    let before = counted.statements();
    let stored = runs.ingest(connector_id, hundred.clone()).await.unwrap();
    assert_eq!((stored.acks, stored.refused.len()), (vec![(run_id, 101)], 0));
    assert_eq!(counted.since(before), STATEMENTS_PER_BATCH, "a hundred events");

    // A resend is acknowledged again and stored once; only the resent events are looked up.
    let before = counted.statements();
    let again = runs.ingest(connector_id, hundred[..10].to_vec()).await.unwrap();
    assert_eq!((again.acks, again.refused.len()), (vec![(run_id, 101)], 0));
    assert_eq!(counted.since(before), 2, "where the run stands, the resent events");

    // Through the socket: frames that arrive together are stored together.
    let frames: Vec<_> = (102..=301).map(output).collect();
    let before = counted.statements();
    connector.send_all(&frames).await;
    let mut acked = 0;
    while acked < 301 {
        match connector.recv().await.unwrap().payload {
            Frame::EventAck { up_to_sequence, .. } => acked = up_to_sequence,
            other => panic!("expected acknowledgements, got {other:?}"),
        }
    }
    let spent = counted.since(before);
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

on_both_databases!(events_of_several_runs_stored_together_cost_the_same_statements, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let RunningRun { owner, mut connector, connector_id, project_id, run, run_id } = running_run(&counted).await;
    let mut runs = vec![(run, run_id)];
    for _ in 0..2 {
        runs.push(start_another(&counted, &owner, &mut connector, &project_id).await);
    }
    // Three events of each run, interleaved as a connector running them side by side sends them.
    let events: Vec<ConnectorEvent> = (1..=3)
        .flat_map(|sequence| {
            let connector = &connector;
            runs.iter().map(move |(_, run_id)| {
                read(&connector.event(*run_id, sequence, EventKind::Output, json!({"line": sequence, "é": [1.5]})))
            })
        })
        .collect();
    let before = counted.statements();
    let stored = counted.app.state.services.runs.ingest(connector_id, events.clone()).await.unwrap();
    assert_eq!(counted.since(before), STATEMENTS_PER_BATCH, "nine events of three runs");
    let mut acks = stored.acks;
    acks.sort();
    let mut expected: Vec<(Uuid, u64)> = runs.iter().map(|(_, run_id)| (*run_id, 3)).collect();
    expected.sort();
    assert_eq!((acks, stored.refused.len()), (expected, 0));
    // Each run has its own three, in order.
    for (run, _) in &runs {
        let lines: Vec<(u64, u64)> = common::events(&owner, run)
            .await
            .iter()
            .filter(|e| e["kind"] == "output")
            .map(|e| (e["sequence"].as_u64().unwrap(), e["data"]["line"].as_u64().unwrap()))
            .collect();
        let first = lines[0].0;
        assert_eq!(lines, (0..3).map(|i| (first + i, i + 1)).collect::<Vec<_>>(), "{run}");
    }
    // Every column as the connector sent it (its time to the microsecond, PostgreSQL's precision).
    let stored = run_event::Entity::find()
        .filter(run_event::Column::ConnectorId.eq(connector_id))
        .all(&counted.app.state.db)
        .await
        .unwrap();
    assert_eq!(stored.len(), events.len());
    let micros = |at: chrono::DateTime<chrono::Utc>| at.timestamp_micros();
    for sent in &events {
        let row = stored.iter().find(|r| r.event_id == Some(sent.event_id)).expect("every event stored");
        assert_eq!(row.run_id, sent.run_id);
        assert_eq!(row.connector_sequence, Some(sent.sequence as i64));
        assert_eq!((row.kind, &row.data), (RunEventKind::Output, &sent.data));
        assert_eq!(micros(row.occurred_at), micros(sent.occurred_at));
        assert!(row.attempt_id.is_some());
    }
});

on_both_databases!(a_returning_connector_is_sent_again_only_starts_from_before_it_connected, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let RunningRun { owner, mut connector, connector_id, project_id, .. } = running_run(&counted).await;
    let runs = &counted.app.state.services.runs;
    // A start sent through this connection and not answered yet.
    let connected_at = chrono::Utc::now();
    let task = common::create_task(&owner, &project_id, "Unanswered").await;
    owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await.data("startRun");
    let (start, _) = connector.command().await;

    // Come back on a connection older than the start: it is sent again, once. On the connection
    // the start went through, it is not.
    runs.connector_online(connector_id, connected_at).await.unwrap();
    runs.connector_online(connector_id, chrono::Utc::now()).await.unwrap();
    let (again, _) = connector.command().await;
    assert_eq!(again, start, "the same command id");
    let more = tokio::time::timeout(std::time::Duration::from_millis(500), connector.recv()).await;
    assert!(more.is_err(), "a start sent twice: {more:?}");
});

on_both_databases!(a_caller_is_read_once_until_its_access_changes, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let app = &counted.app;
    let identity = &app.state.services.identity;
    let code = app.bootstrap_code.clone().unwrap();
    let owner =
        NewUser { email: "owner@acme.test".into(), display_name: String::new(), password: acc_tests::PASSWORD.into() };
    let laptop = identity.redeem_bootstrap(&code, "Acme", owner, DeviceInfo::default()).await.unwrap();
    let phone = identity.login("owner@acme.test", acc_tests::PASSWORD, DeviceInfo::default()).await.unwrap();

    let before = counted.statements();
    let owner = identity.authenticate(&laptop.access_token).await.unwrap();
    assert!(counted.since(before) >= 3, "the session, the user and the grants are read once");
    let before = counted.statements();
    for _ in 0..10 {
        assert_eq!(identity.authenticate(&laptop.access_token).await.unwrap().user_id, owner.user_id);
    }
    assert_eq!(counted.since(before), 0, "then not again");

    // Revoking the other session ends that one at once, and only that one.
    identity.authenticate(&phone.access_token).await.unwrap();
    let phone_session = identity.authenticate(&phone.access_token).await.unwrap().session_id.unwrap();
    identity.revoke_session(&owner, phone_session).await.unwrap();
    assert!(identity.authenticate(&phone.access_token).await.is_err(), "a revoked session's token still passed");
    let before = counted.statements();
    identity.authenticate(&laptop.access_token).await.unwrap();
    assert_eq!(counted.since(before), 0, "the laptop's session is still known");
});

/// What every watcher of the run subscribes to.
const RUN_EVENTS: &str = "subscription($r: ID!, $after: String) { runEvents(runId: $r, after: $after) { sequence } }";

/// The sequences each operation of `socket` receives, until every one of `ids` has `last`.
async fn sequences_until(socket: &mut Subscription, ids: usize, last: u64) -> Vec<Vec<u64>> {
    let mut received = vec![Vec::new(); ids];
    while received.iter().any(|r| r.last() != Some(&last)) {
        let message = socket.message().await.unwrap();
        assert_eq!(message["type"], "next", "{message}");
        let id: usize = message["id"].as_str().unwrap().parse().unwrap();
        received[id].push(message["payload"]["data"]["runEvents"]["sequence"].as_u64().unwrap());
    }
    received
}

on_both_databases!(a_run_event_is_executed_and_serialized_once_however_many_watch_it, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let RunningRun { owner, connector, connector_id, run, run_id, .. } = running_run(&counted).await;
    let fanout = &counted.app.state.fanout;
    let (executions, serializations) = (fanout.executions(), fanout.serializations());

    // A hundred watchers of one shape: ten sockets with ten subscriptions each.
    let mut sockets = Vec::new();
    for _ in 0..10 {
        let mut socket = owner.socket().await.unwrap();
        for id in 0..10 {
            socket.start(&id.to_string(), RUN_EVENTS, json!({"r": run})).await.unwrap();
        }
        socket.listening().await.unwrap();
        sockets.push(socket);
    }
    assert_eq!(fanout.executions() - executions, 1, "one execution for a hundred subscribers of one shape");

    let events = (1..=20).map(|s| read(&connector.event(run_id, s, EventKind::Output, json!({"line": s})))).collect();
    counted.app.state.services.runs.ingest(connector_id, events).await.unwrap();
    let stored: Vec<u64> = common::events(&owner, &run).await.iter().map(|e| e["sequence"].as_u64().unwrap()).collect();
    let last = *stored.last().unwrap();
    for socket in &mut sockets {
        for received in sequences_until(socket, 10, last).await {
            assert_eq!(received, stored, "every subscriber gets every event once, in order");
        }
    }
    assert_eq!(fanout.serializations() - serializations, stored.len() as u64, "each event serialized once");

    // One who comes late gets the same from the start, from what the shape kept.
    let mut late = owner.subscribe(RUN_EVENTS, json!({"r": run})).await.unwrap();
    let mut seen = Vec::new();
    while seen.last() != Some(&last) {
        seen.push(late.next().await.unwrap()["data"]["runEvents"]["sequence"].as_u64().unwrap());
    }
    assert_eq!(seen, stored);
    assert_eq!(fanout.executions() - executions, 1, "the late subscriber joined the running execution");
    assert_eq!(fanout.serializations() - serializations, stored.len() as u64, "and nothing was serialized again");

    // Another cursor is another shape, with results of its own.
    let mut other = owner.subscribe(RUN_EVENTS, json!({"r": run, "after": last.to_string()})).await.unwrap();
    assert_eq!(fanout.executions() - executions, 2);
    let event = read(&connector.event(run_id, 21, EventKind::Output, json!({"line": 21})));
    counted.app.state.services.runs.ingest(connector_id, vec![event]).await.unwrap();
    assert_eq!(other.next().await.unwrap()["data"]["runEvents"]["sequence"], last + 1);
    assert_eq!(late.next().await.unwrap()["data"]["runEvents"]["sequence"], last + 1);
    assert_eq!(fanout.serializations() - serializations, stored.len() as u64 + 2, "once per shape");
});
