//! The connector gateway against a connector that speaks the wire protocol directly: enrollment,
//! handshake, a run's events stored once each in a gap-free sequence, every malformed frame
//! refused with nothing stored, runs that outlive a control-plane crash, nothing stored after a
//! run ended, and no answering another tenant's commands.

mod common;

use acc_protocol::{Capability, Command, CommandOutcome, Envelope, EventKind, Frame, RunCursor};
use acc_tests::connector_client::{Ended, RawConnector, enroll};
use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases, op};
use common::{enrollment_token, events, run_status};
use serde_json::{Value, json};
use uuid::Uuid;

on_both_databases!(a_run_streams_through_the_gateway_and_each_event_is_stored_once, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Say hi").await;
    let task_id = task["id"].as_str().unwrap().to_owned();

    // Without an online agent the run is blocked, with the reason.
    let blocked = f
        .owner
        .gql("mutation($t: ID!) { startRun(taskId: $t) { id status statusReason } }", json!({"t": task_id}))
        .await;
    assert_eq!(blocked.data("startRun")["status"], "BLOCKED");
    assert!(blocked.data("startRun")["statusReason"].as_str().unwrap().contains("no agent is online"));
    // Cancelled, it is not started when an agent comes online.
    let cancelled = f
        .owner
        .gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": blocked.data("startRun")["id"]}))
        .await;
    assert_eq!(cancelled.data("cancelRun")["status"], "CANCELLED");

    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (status, enrolled) = enroll(&server, &token).await;
    assert_eq!(status, 200, "{enrolled}");
    let (again, refused) = enroll(&server, &token).await;
    assert_eq!((again, refused["error"]["code"].as_str()), (401, Some("UNAUTHENTICATED")), "single use");
    let connector_id: Uuid = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let credential = enrolled["credential"].as_str().unwrap().to_owned();

    let mut connector = RawConnector::dial(&server, connector_id, &credential).await.unwrap();
    let agent_id = connector.hello("shell", vec![Capability::Stream, Capability::Cancel]).await;
    let agents = f
        .owner
        .gql("query($p: ID!) { agents(projectId: $p) { id name capabilities online } }", json!({"p": f.project_id}))
        .await;
    assert_eq!(agents.data("agents")[0]["capabilities"], json!(["STREAM", "CANCEL"]));
    assert_eq!(agents.data("agents")[0]["online"], true);
    let approvals = f
        .owner
        .gql("query($p: ID!) { agents(projectId: $p, capability: APPROVALS) { id } }", json!({"p": f.project_id}))
        .await;
    assert_eq!(approvals.data("agents"), &json!([]));

    // A capability the agent lacks is refused, never simulated.
    let missing = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, requiredCapabilities: [APPROVALS]) { id } }",
            json!({"t": task_id, "a": agents.data("agents")[0]["id"]}),
        )
        .await;
    missing.expect_code("CAPABILITY_MISSING");

    let started = f
        .owner
        .gql(
            "mutation($t: ID!) { startRun(taskId: $t, requiredCapabilities: [STREAM], input: {objective: \"hi\"}, idempotencyKey: \"run-1\") { id status } }",
            json!({"t": task_id}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    let command = connector.recv().await.unwrap();
    let (command_id, run_uuid) = match &command.payload {
        Frame::Command { command_id, command: acc_protocol::Command::StartRun { run_id, agent_id: a, input, .. } } => {
            assert_eq!(*a, agent_id);
            assert_eq!(input, &json!({"objective": "hi"}));
            (*command_id, *run_id)
        }
        other => panic!("expected start_run, got {other:?}"),
    };
    connector
        .send(Envelope::new(connector_id, Frame::CommandAck { command_id, outcome: CommandOutcome::Accepted }))
        .await;

    let mut sent = Vec::new();
    for (sequence, line) in ["one", "two", "three"].iter().enumerate() {
        let event = connector.event(run_uuid, sequence as u64 + 1, EventKind::Output, json!({"line": line}));
        connector.send(event.clone()).await;
        match connector.recv().await.unwrap().payload {
            Frame::EventAck { up_to_sequence, .. } => assert_eq!(up_to_sequence, sequence as u64 + 1),
            other => panic!("expected event_ack, got {other:?}"),
        }
        sent.push(event);
    }
    // A resend of an event already stored is acknowledged (up to everything stored) and stored once.
    connector.send(sent[1].clone()).await;
    assert!(matches!(connector.recv().await.unwrap().payload, Frame::EventAck { up_to_sequence: 3, .. }));
    assert_eq!(run_status(&f.owner, &run_id).await, "RUNNING");

    connector
        .send(connector.event(run_uuid, 4, EventKind::Result, json!({"outcome": "succeeded", "exit_code": 0})))
        .await;
    assert!(matches!(connector.recv().await.unwrap().payload, Frame::EventAck { up_to_sequence: 4, .. }));
    assert_eq!(run_status(&f.owner, &run_id).await, "SUCCEEDED");

    let stored = events(&f.owner, &run_id).await;
    let sequences: Vec<i64> = stored.iter().map(|e| e["sequence"].as_i64().unwrap()).collect();
    assert_eq!(sequences, (1..=stored.len() as i64).collect::<Vec<_>>(), "gap-free");
    let lines: Vec<&str> =
        stored.iter().filter(|e| e["kind"] == "output").map(|e| e["data"]["line"].as_str().unwrap()).collect();
    assert_eq!(lines, ["one", "two", "three"], "each event once, in order");
    let statuses: Vec<&str> =
        stored.iter().filter(|e| e["kind"] == "status").map(|e| e["data"]["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["queued", "dispatching", "running", "succeeded"]);

    // The same idempotency key answers with the same run.
    let replay = f
        .owner
        .gql(
            "mutation($t: ID!) { startRun(taskId: $t, requiredCapabilities: [STREAM], input: {objective: \"hi\"}, idempotencyKey: \"run-1\") { id } }",
            json!({"t": task_id}),
        )
        .await;
    assert_eq!(replay.data("startRun")["id"], run_id.as_str());

    // The subscription replays from a cursor and completes at the terminal status.
    let mut subscription = f
        .owner
        .subscribe(
            "subscription($r: ID!) { runEvents(runId: $r, after: \"2\") { sequence kind } }",
            json!({"r": run_id}),
        )
        .await
        .unwrap();
    let mut replayed = Vec::new();
    for _ in 3..=stored.len() {
        replayed.push(subscription.next().await.unwrap()["data"]["runEvents"]["sequence"].as_i64().unwrap());
    }
    assert_eq!(replayed, (3..=stored.len() as i64).collect::<Vec<_>>());
    let end = subscription.next().await.unwrap_err();
    assert!(end.contains("\"complete\""), "the subscription completes after the terminal status: {end}");
    // Subscribing past the end of a finished run completes at once instead of waiting forever.
    let mut past_the_end = f
        .owner
        .subscribe(
            "subscription($r: ID!, $a: String) { runEvents(runId: $r, after: $a) { sequence } }",
            json!({"r": run_id, "a": stored.len().to_string()}),
        )
        .await
        .unwrap();
    let end = past_the_end.next().await.unwrap_err();
    assert!(end.contains("\"complete\""), "no event, and the stream completed: {end}");

    // Revocation closes the socket and refuses the credential.
    let connectors = f.owner.gql("{ connectors { id online } }", json!({})).await;
    let gid = connectors.data("connectors")[0]["id"].clone();
    f.owner
        .gql("mutation($id: ID!) { revokeConnector(id: $id) { revokedAt } }", json!({"id": gid}))
        .await
        .data("revokeConnector");
    assert!(matches!(connector.recv().await, Err(Ended::Closed(4403))));
    assert!(matches!(RawConnector::dial(&server, connector_id, &credential).await, Err(Ended::Refused(401))));
});

on_both_databases!(malformed_frames_are_refused_and_store_nothing, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (_, enrolled) = enroll(&server, &token).await;
    let connector_id: Uuid = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let credential = enrolled["credential"].as_str().unwrap().to_owned();
    assert!(matches!(RawConnector::dial(&server, connector_id, "acc_conn_forged").await, Err(Ended::Refused(401))));

    let mut connector = RawConnector::dial(&server, connector_id, &credential).await.unwrap();
    connector.hello("shell", vec![Capability::Stream]).await;

    // An event for a run this connector does not have: refused, the connection stays.
    let stray = connector.event(Uuid::now_v7(), 1, EventKind::Output, json!({"line": "x"}));
    connector.send(stray.clone()).await;
    let refusal = connector.recv().await.unwrap();
    match refusal.payload {
        Frame::Error { code, .. } => assert_eq!(code, acc_protocol::ErrorCode::UnknownRun),
        other => panic!("expected an error, got {other:?}"),
    }
    assert_eq!((refusal.run_id, refusal.event_id), (stray.run_id, stray.event_id), "the error names the refused event");
    connector
        .send(Envelope::new(
            connector_id,
            Frame::Heartbeat { status: acc_protocol::HealthStatus::Degraded, active_runs: vec![] },
        ))
        .await;
    // The heartbeat after the refusal is handled: the connection is still up.
    let mut seen = Value::Null;
    for _ in 0..40 {
        seen = f.owner.gql("{ connectors { health online } }", json!({})).await.data("connectors")[0].clone();
        if seen["health"] == "degraded" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(seen, json!({"health": "degraded", "online": true}), "still connected after a refused frame");

    // Each of these closes the connection with an error frame first.
    let valid = serde_json::to_value(Envelope::new(
        connector_id,
        Frame::Heartbeat { status: acc_protocol::HealthStatus::Healthy, active_runs: vec![] },
    ))
    .unwrap();
    let mut other_identity = valid.clone();
    other_identity["connector_id"] = json!(Uuid::now_v7());
    let mut v2 = valid.clone();
    v2["schema_version"] = json!(2);
    let cases: Vec<(String, acc_protocol::ErrorCode, u16)> = vec![
        (valid.to_string()[..40].to_owned(), acc_protocol::ErrorCode::MalformedFrame, 1008),
        (v2.to_string(), acc_protocol::ErrorCode::UnsupportedVersion, 1008),
        (other_identity.to_string(), acc_protocol::ErrorCode::IdentityMismatch, 4403),
    ];
    for (text, code, close) in cases {
        let mut socket = RawConnector::dial(&server, connector_id, &credential).await.unwrap();
        socket.hello("shell", vec![Capability::Stream]).await;
        socket.send_text(text).await;
        match socket.recv().await.unwrap().payload {
            Frame::Error { code: got, .. } => assert_eq!(got, code),
            other => panic!("expected {code:?}, got {other:?}"),
        }
        assert!(matches!(socket.recv().await, Err(Ended::Closed(c)) if c == close), "close code for {code:?}");
    }
    // An oversize frame is answered with `frame_too_large` and a close; a far larger one is
    // refused by the socket itself.
    let mut socket = RawConnector::dial(&server, connector_id, &credential).await.unwrap();
    socket.hello("shell", vec![Capability::Stream]).await;
    socket.send_text("x".repeat(acc_protocol::MAX_FRAME_BYTES + 10)).await;
    match socket.recv().await.unwrap().payload {
        Frame::Error { code, .. } => assert_eq!(code, acc_protocol::ErrorCode::FrameTooLarge),
        other => panic!("expected frame_too_large, got {other:?}"),
    }
    assert!(matches!(socket.recv().await, Err(Ended::Closed(1009))));
    let mut socket = RawConnector::dial(&server, connector_id, &credential).await.unwrap();
    socket.hello("shell", vec![Capability::Stream]).await;
    // The server may reset the connection before the client has written it all.
    if socket.try_send_text("x".repeat(3 * acc_protocol::MAX_FRAME_BYTES)).await.is_ok() {
        assert!(matches!(socket.recv().await, Err(Ended::Closed(_))));
    }

    let runs = f.owner.gql("{ connectors { id } }", json!({})).await;
    assert_eq!(runs.data("connectors").as_array().unwrap().len(), 1, "nothing else was created");
});

/// Short timings, so a lease can run out while the control plane is down.
fn restart_options() -> ServerOptions {
    let env = [
        ("ACC_RUNS__HEARTBEAT_INTERVAL_MS", "2000"),
        ("ACC_RUNS__LEASE_MS", "6000"),
        ("ACC_RUNS__RETRY_BACKOFF_MS", "100"),
    ];
    ServerOptions { env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), ..Default::default() }
}

async fn start_run(owner: &Client, task: &Value) -> String {
    let started = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    started.data("startRun")["id"].as_str().unwrap().to_owned()
}

/// A run's attempts as `(kind, status)`, oldest first.
async fn attempts(owner: &Client, run_id: &str) -> Vec<(String, String)> {
    let node = owner
        .gql("query($id: ID!) { node(id: $id) { ... on TaskRun { attempts { kind status } } } }", json!({"id": run_id}))
        .await;
    let attempts = node.data("node")["attempts"].as_array().unwrap().clone();
    attempts
        .iter()
        .map(|a| (a["kind"].as_str().unwrap().to_owned(), a["status"].as_str().unwrap().to_owned()))
        .collect()
}

fn pair(kind: &str, status: &str) -> (String, String) {
    (kind.to_owned(), status.to_owned())
}

/// Waits until the run is `wanted`, while `connector` heartbeats `active` runs (which renews their leases).
async fn wait_alive(owner: &Client, run_id: &str, wanted: &str, connector: &mut RawConnector, active: &[Uuid]) {
    let mut last = String::new();
    for _ in 0..200 {
        last = run_status(owner, run_id).await;
        if last == wanted {
            return;
        }
        connector.heartbeat(active.to_vec()).await;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the run never reached {wanted}: {last}");
}

fn statuses(events: &[Value]) -> Vec<&str> {
    events.iter().filter(|e| e["kind"] == "status").map(|e| e["data"]["status"].as_str().unwrap()).collect()
}

fn outputs(events: &[Value]) -> Vec<&str> {
    events.iter().filter(|e| e["kind"] == "output").map(|e| e["data"]["line"].as_str().unwrap()).collect()
}

on_both_databases!(
    a_crash_ends_no_run_and_the_returning_connector_re_adopts_what_it_still_has,
    |db: TestDb| async move {
        let mut server = Server::start_with(db, restart_options()).await;
        let f = common::fixture(&server).await;
        let task = common::create_task(&f.owner, &f.project_id, "Long job").await;
        let (mut connector, credential) = common::raw_connector(&server, &f).await;
        let capabilities = vec![Capability::Stream, Capability::Approvals];
        connector.hello("shell", capabilities.clone()).await;
        let output = |c: &RawConnector, run, sequence, line: &str| {
            c.event(run, sequence, EventKind::Output, json!({"line": line}))
        };

        // Two live runs: one waits for a person's approval, the other works.
        let waiting = start_run(&f.owner, &task).await;
        let (waiting_uuid, _) = connector.accept_start().await;
        assert_eq!(connector.emit(output(&connector, waiting_uuid, 1, "w1")).await, Ok(1));
        assert_eq!(connector.emit(output(&connector, waiting_uuid, 2, "w2")).await, Ok(2));
        let ask = json!({"request_id": "r1", "action": "deploy"});
        assert_eq!(connector.emit(connector.event(waiting_uuid, 3, EventKind::ApprovalRequested, ask)).await, Ok(3));
        let working = start_run(&f.owner, &task).await;
        let (working_uuid, _) = connector.accept_start().await;
        assert_eq!(connector.emit(output(&connector, working_uuid, 1, "k1")).await, Ok(1));
        wait_alive(&f.owner, &working, "RUNNING", &mut connector, &[waiting_uuid, working_uuid]).await;
        assert_eq!(run_status(&f.owner, &waiting).await, "WAITING_APPROVAL");

        // kill -9, and down for longer than a lease: nobody could renew it meanwhile.
        server.kill();
        tokio::time::sleep(std::time::Duration::from_millis(6500)).await;
        server.restart().await;
        let owner = server.client().with_token(f.owner.token.as_deref().unwrap());
        assert_eq!(run_status(&owner, &waiting).await, "WAITING_APPROVAL", "a restart ends no run");
        assert_eq!(run_status(&owner, &working).await, "RUNNING");
        for run in [&waiting, &working] {
            assert_eq!(attempts(&owner, run).await, [pair("START", "RUNNING")], "the lease was renewed at start-up");
        }
        let pending = owner.gql("{ approvals { edges { node { id status } } } }", json!({})).await;
        let approval = pending.data("approvals")["edges"][0]["node"].clone();
        assert_eq!(approval["status"], "PENDING", "a pending approval stays pending");
        let connectors = owner.gql("{ connectors { online } }", json!({})).await;
        assert_eq!(connectors.data("connectors")[0]["online"], false, "nobody is connected to the new process yet");

        // The connector comes back with only the first run: it re-adopts that one; the other is
        // gone from its host, and is retried there as a second attempt.
        // It also names a thousand runs the control plane does not have (more than one statement
        // reads): nothing of those can be stored any more.
        let mut back = RawConnector::dial(&server, connector.id, &credential).await.unwrap();
        let unknown: Vec<Uuid> = (0..1000).map(|_| Uuid::now_v7()).collect();
        let cursor = |run_id, acked_sequence| RunCursor { run_id, acked_sequence };
        let mut resume: Vec<RunCursor> = unknown.iter().map(|&run| cursor(run, 0)).collect();
        resume.push(cursor(waiting_uuid, 3));
        let welcome = back.hello_with(&[("shell", capabilities)], resume).await;
        let mut expected: Vec<RunCursor> = unknown.iter().map(|&run| cursor(run, u64::MAX)).collect();
        expected.push(cursor(waiting_uuid, 3));
        assert_eq!(welcome.resume, expected);
        back.heartbeat(vec![waiting_uuid]).await;
        let (command_id, command) = back.command().await;
        let Command::StartRun { run_id, attempt_id, context, .. } = command else {
            panic!("expected a start: {command:?}")
        };
        assert_eq!((run_id, command_id, context["attempt"].as_i64()), (working_uuid, attempt_id, Some(2)));
        back.answer(command_id, CommandOutcome::Accepted).await;
        wait_alive(&owner, &working, "RUNNING", &mut back, &[waiting_uuid, working_uuid]).await;
        assert_eq!(attempts(&owner, &working).await, [pair("START", "LOST"), pair("RETRY", "RUNNING")]);

        // The re-adopted run goes on where it was, with no gap: the person decides, the agent finishes.
        owner
            .gql(
                "mutation($a: ID!) { decideApproval(approvalId: $a, decision: APPROVE) { status } }",
                json!({"a": approval["id"]}),
            )
            .await
            .data("decideApproval");
        let (command_id, command) = back.command().await;
        assert!(matches!(command, Command::ApprovalDecision { approved: true, .. }), "{command:?}");
        back.answer(command_id, CommandOutcome::Accepted).await;
        assert_eq!(back.emit(output(&back, waiting_uuid, 4, "w4")).await, Ok(4));
        let done = json!({"outcome": "succeeded", "exit_code": 0});
        assert_eq!(back.emit(back.event(waiting_uuid, 5, EventKind::Result, done.clone())).await, Ok(5));
        // The retried run's connector sequence goes on from what its first attempt sent.
        assert_eq!(back.emit(output(&back, working_uuid, 2, "k2")).await, Ok(2));
        assert_eq!(back.emit(back.event(working_uuid, 3, EventKind::Result, done)).await, Ok(3));
        for run in [&waiting, &working] {
            wait_alive(&owner, run, "SUCCEEDED", &mut back, &[]).await;
        }

        let stored = events(&owner, &waiting).await;
        assert_eq!(outputs(&stored), ["w1", "w2", "w4"], "every event once, in order");
        assert_eq!(
            statuses(&stored),
            ["queued", "dispatching", "running", "waiting_approval", "running", "succeeded"],
            "never interrupted"
        );
        assert_eq!(attempts(&owner, &waiting).await, [pair("START", "ENDED")]);
        let stored = events(&owner, &working).await;
        assert_eq!(outputs(&stored), ["k1", "k2"]);
        assert_eq!(statuses(&stored), ["queued", "dispatching", "running", "dispatching", "running", "succeeded"]);
        let sequences: Vec<i64> = stored.iter().map(|e| e["sequence"].as_i64().unwrap()).collect();
        assert_eq!(sequences, (1..=stored.len() as i64).collect::<Vec<_>>(), "gap-free");
        assert_eq!(attempts(&owner, &working).await, [pair("START", "LOST"), pair("RETRY", "ENDED")]);
    }
);

on_both_databases!(commands_a_run_waits_for_are_sent_again_after_a_restart, |db: TestDb| async move {
    let mut server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Save, then stop").await;
    let (mut connector, credential) = common::raw_connector(&server, &f).await;
    let capabilities = vec![Capability::Stream, Capability::Cancel, Capability::Checkpoint];
    connector.hello("saver", capabilities.clone()).await;
    let saving = start_run(&f.owner, &task).await;
    let (saving_uuid, _) = connector.accept_start().await;
    let stopping = start_run(&f.owner, &task).await;
    let (stopping_uuid, stopping_attempt) = connector.accept_start().await;
    wait_alive(&f.owner, &stopping, "RUNNING", &mut connector, &[saving_uuid, stopping_uuid]).await;
    wait_alive(&f.owner, &saving, "RUNNING", &mut connector, &[saving_uuid, stopping_uuid]).await;
    let asked = f
        .owner
        .gql(
            "mutation($r: ID!) { requestCheckpoint(runId: $r, reason: \"before lunch\") { status } }",
            json!({"r": saving}),
        )
        .await;
    assert_eq!(asked.data("requestCheckpoint")["status"], "CHECKPOINTING");
    let (checkpoint_id, checkpoint) = connector.command().await;
    assert_eq!(checkpoint, Command::Checkpoint { run_id: saving_uuid, reason: "before lunch".into() });
    let cancelling = f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": stopping})).await;
    assert_eq!(cancelling.data("cancelRun")["status"], "CANCELLING");
    connector.command().await;

    // The control plane dies before either is answered; what it waits for must not be forgotten.
    server.crash_and_restart().await;
    let owner = server.client().with_token(f.owner.token.as_deref().unwrap());
    let mut back = RawConnector::dial(&server, connector.id, &credential).await.unwrap();
    back.hello_with(&[("saver", capabilities)], vec![]).await;
    back.heartbeat(vec![saving_uuid, stopping_uuid]).await;
    let mut resent = [back.command().await, back.command().await];
    resent.sort_by_key(|(_, command)| matches!(command, Command::CancelRun { .. }));
    assert_eq!(resent[0], (checkpoint_id, checkpoint), "the same checkpoint request, under the same id");
    assert!(
        matches!(resent[1].1, Command::CancelRun { run_id, attempt_id: Some(a), .. } if run_id == stopping_uuid && a == stopping_attempt),
        "{:?}",
        resent[1]
    );

    // Their answers count with the new process.
    back.answer(checkpoint_id, CommandOutcome::Rejected { reason: "nothing to save yet".into() }).await;
    wait_alive(&owner, &saving, "RUNNING", &mut back, &[saving_uuid, stopping_uuid]).await;
    let stopped = back.event(stopping_uuid, 1, EventKind::Result, json!({"outcome": "cancelled", "signal": 15}));
    assert_eq!(back.emit(stopped).await, Ok(1));
    wait_alive(&owner, &stopping, "CANCELLED", &mut back, &[saving_uuid]).await;
    let node =
        owner.gql("query($id: ID!) { node(id: $id) { ... on TaskRun { statusReason } } }", json!({"id": saving})).await;
    assert_eq!(node.data("node")["statusReason"], "the agent could not checkpoint: nothing to save yet");
});

on_both_databases!(an_event_for_a_run_that_has_ended_is_refused_and_never_stored, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Short job").await;
    let (mut connector, credential) = common::raw_connector(&server, &f).await;
    connector.hello("shell", vec![Capability::Stream]).await;
    let run_id = start_run(&f.owner, &task).await;
    let (run, _) = connector.accept_start().await;
    assert_eq!(connector.emit(connector.event(run, 1, EventKind::Output, json!({"line": "one"}))).await, Ok(1));
    let result = connector.event(run, 2, EventKind::Result, json!({"outcome": "succeeded", "exit_code": 0}));
    assert_eq!(connector.emit(result.clone()).await, Ok(2));
    assert_eq!(run_status(&f.owner, &run_id).await, "SUCCEEDED");

    // The agent says more after its result (as one left running after its run ended would).
    let late = connector.event(run, 3, EventKind::Output, json!({"line": "late"}));
    connector.send(late.clone()).await;
    let refusal = connector.recv().await.unwrap();
    match refusal.payload {
        Frame::Error { code, .. } => assert_eq!(code, acc_protocol::ErrorCode::RunEnded),
        other => panic!("expected run_ended, got {other:?}"),
    }
    assert_eq!((refusal.run_id, refusal.event_id), (late.run_id, late.event_id), "the error names the refused event");
    // What was stored before the end is still acknowledged when resent.
    assert_eq!(connector.emit(result).await, Ok(2));
    let stored = events(&f.owner, &run_id).await;
    assert_eq!(outputs(&stored), ["one"]);
    assert_eq!(stored.last().unwrap()["data"]["status"], "succeeded", "nothing after the terminal status");

    // A connector that reconnects holding the run's events is told to forget them all.
    let mut again = RawConnector::dial(&server, connector.id, &credential).await.unwrap();
    let welcome = again
        .hello_with(&[("shell", vec![Capability::Stream])], vec![RunCursor { run_id: run, acked_sequence: 1 }])
        .await;
    assert_eq!(welcome.resume, [RunCursor { run_id: run, acked_sequence: u64::MAX }]);
});

on_both_databases!(a_connector_cannot_answer_the_commands_of_another_tenants_connector, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Careful job").await;
    let (mut victim, _) = common::raw_connector(&server, &f).await;
    victim.hello("careful", vec![Capability::Stream, Capability::Approvals, Capability::Checkpoint]).await;
    let run_id = start_run(&f.owner, &task).await;
    let (run, attempt) = victim.accept_start().await;
    let ask = json!({"request_id": "r1", "action": "deploy"});
    assert_eq!(victim.emit(victim.event(run, 1, EventKind::ApprovalRequested, ask)).await, Ok(1));
    let pending = f.owner.gql("{ approvals { edges { node { id } } } }", json!({})).await;
    let approval = pending.data("approvals")["edges"][0]["node"]["id"].clone();
    f.owner
        .gql("mutation($a: ID!) { decideApproval(approvalId: $a, decision: DENY) { status } }", json!({"a": approval}))
        .await
        .data("decideApproval");
    let (decision, _) = victim.command().await;
    let asked = f
        .owner
        .gql(
            "mutation($r: ID!) { requestCheckpoint(runId: $r, reason: \"before lunch\") { status } }",
            json!({"r": run_id}),
        )
        .await;
    assert_eq!(asked.data("requestCheckpoint")["status"], "CHECKPOINTING");
    let (checkpoint, command) = victim.command().await;
    assert!(matches!(command, Command::Checkpoint { .. }), "{command:?}");

    // A connector of another organization answers all three of the victim's commands with refusals.
    f.owner
        .gql(
            "mutation($p: String!) { createOrganization(name: \"Globex\", ownerEmail: \"owner@globex.test\", ownerPassword: $p) { id } }",
            json!({"p": acc_tests::PASSWORD}),
        )
        .await
        .data("createOrganization");
    let login = f
        .owner
        .anonymous()
        .gql(op!("login"), json!({"email": "owner@globex.test", "password": acc_tests::PASSWORD}))
        .await;
    let other = f.owner.with_token(login.data("login")["accessToken"].as_str().unwrap());
    let workspace = other.gql(op!("create_workspace"), json!({"name": "Globex space"})).await;
    let token = enrollment_token(&other, workspace.data("createWorkspace")["id"].as_str().unwrap()).await;
    let (_, enrolled) = enroll(&server, &token).await;
    let mut intruder = RawConnector::dial(
        &server,
        enrolled["connector_id"].as_str().unwrap().parse().unwrap(),
        enrolled["credential"].as_str().unwrap(),
    )
    .await
    .unwrap();
    intruder.hello("intruder", vec![Capability::Stream]).await;
    for command_id in [decision, checkpoint, attempt] {
        intruder.answer(command_id, CommandOutcome::Rejected { reason: "forged".into() }).await;
    }
    // Its frames are handled in order: once its next one is answered, the three were handled.
    let stray = intruder.event(Uuid::now_v7(), 1, EventKind::Output, json!({}));
    assert_eq!(intruder.emit(stray).await, Err(acc_protocol::ErrorCode::UnknownRun));
    assert_eq!(run_status(&f.owner, &run_id).await, "CHECKPOINTING", "the checkpoint request still waits");
    assert_eq!(attempts(&f.owner, &run_id).await, [pair("START", "RUNNING")]);
    let stored = events(&f.owner, &run_id).await;
    assert!(!stored.iter().any(|e| e["kind"] == "notice"), "nothing was written into the run: {stored:?}");

    // The victim's own answers count.
    victim.answer(checkpoint, CommandOutcome::Rejected { reason: "not now".into() }).await;
    victim.answer(decision, CommandOutcome::Rejected { reason: "stopped listening".into() }).await;
    for _ in 0..100 {
        let stored = events(&f.owner, &run_id).await;
        if stored.iter().any(|e| e["kind"] == "notice") && run_status(&f.owner, &run_id).await == "RUNNING" {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the victim's own refusals were not taken");
});

on_both_databases!(cancel_goes_through_cancelling_until_the_connector_confirms, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Cancel me").await;

    // A blocked run is cancelled at once; a finished one cannot be cancelled again.
    let blocked = f.owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let blocked_id = blocked.data("startRun")["id"].clone();
    let cancelled =
        f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": blocked_id})).await;
    assert_eq!(cancelled.data("cancelRun")["status"], "CANCELLED");
    let again = f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": blocked_id})).await;
    let error = again.expect_code("INVALID_TRANSITION");
    assert_eq!(error["extensions"]["details"], json!({"from": "cancelled", "to": "cancelled"}));

    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (_, enrolled) = enroll(&server, &token).await;
    let connector_id: Uuid = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let mut connector =
        RawConnector::dial(&server, connector_id, enrolled["credential"].as_str().unwrap()).await.unwrap();
    connector.hello("shell", vec![Capability::Stream, Capability::Cancel]).await;
    let started = f.owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    let Frame::Command { command_id, command: acc_protocol::Command::StartRun { run_id: run_uuid, .. } } =
        connector.recv().await.unwrap().payload
    else {
        panic!("expected start_run")
    };
    connector
        .send(Envelope::new(connector_id, Frame::CommandAck { command_id, outcome: CommandOutcome::Accepted }))
        .await;
    for _ in 0..40 {
        if run_status(&f.owner, &run_id).await == "RUNNING" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let cancelling = f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id})).await;
    assert_eq!(cancelling.data("cancelRun")["status"], "CANCELLING");
    match connector.recv().await.unwrap().payload {
        Frame::Command { command: acc_protocol::Command::CancelRun { run_id, mode, .. }, .. } => {
            assert_eq!((run_id, mode), (run_uuid, acc_protocol::CancelMode::Graceful));
        }
        other => panic!("expected cancel_run, got {other:?}"),
    }
    connector
        .send(connector.event(run_uuid, 1, EventKind::Result, json!({"outcome": "cancelled", "signal": 15})))
        .await;
    assert!(matches!(connector.recv().await.unwrap().payload, Frame::EventAck { .. }));
    assert_eq!(run_status(&f.owner, &run_id).await, "CANCELLED");
});

// Writes that read before they write, many at once (enrollment reads its token, then claims it):
// on SQLite a transaction that began as a reader cannot become the writer once another one
// committed in between, so each must take the write lock at its start and wait its turn — no
// enrollment may fail for being concurrent with others.
on_both_databases!(concurrent_enrollments_all_succeed, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let mut tokens = Vec::new();
    for _ in 0..24 {
        tokens.push(enrollment_token(&f.owner, &f.workspace_id).await);
    }
    let server = &server;
    let enrolled = futures_util::future::join_all(tokens.iter().map(|token| enroll(server, token))).await;
    for (status, body) in enrolled {
        assert_eq!(status, 200, "a concurrent enrollment failed: {body}");
    }
});

// The Agents page watches `connectorStatus`: a connector just enrolled shows there, offline,
// before it ever dials in.
on_both_databases!(watchers_see_a_connector_as_it_enrolls, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let mut watching = f
        .owner
        .subscribe(
            "subscription($w: ID!) { connectorStatus(workspaceId: $w) { id name online } }",
            json!({"w": f.workspace_id}),
        )
        .await
        .unwrap();
    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (status, enrolled) = enroll(&server, &token).await;
    assert_eq!(status, 200, "{enrolled}");
    let seen = watching.next().await.unwrap();
    let connector = &seen["data"]["connectorStatus"];
    assert_eq!(connector["online"], false, "{seen}");
    let listed = f.owner.gql("{ connectors { id } }", json!({})).await;
    assert_eq!(listed.data("connectors")[0]["id"], connector["id"]);
});

/// A certificate signing request for a fresh key, as `acc-connector enroll` sends one.
fn certificate_request(dir: &std::path::Path) -> String {
    let (key, csr) = (dir.join("request.key"), dir.join("request.csr"));
    let output = std::process::Command::new("openssl")
        .args(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"])
        .args(["-subj", "/CN=connector", "-keyout"])
        .arg(&key)
        .arg("-out")
        .arg(&csr)
        .output()
        .unwrap();
    assert!(output.status.success(), "openssl: {}", String::from_utf8_lossy(&output.stderr));
    std::fs::read_to_string(csr).unwrap()
}

async fn enroll_with_csr(server: &Server, token: &str, csr: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}/v1/connectors/enroll", server.base_url()))
        .json(&json!({"token": token, "csr": csr}))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

// Signing is the expensive part of enrollment and a certificate is a credential: nobody without
// a valid token gets the CA to sign anything.
on_both_databases!(a_wrong_enrollment_token_costs_no_signing, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let csr = certificate_request(&server.db.dir);
    let issued = |server: &Server| server.log().matches("client certificate issued").count();

    for wrong in ["acc_enroll_never-issued", ""] {
        let (status, body) = enroll_with_csr(&server, wrong, &csr).await;
        assert_eq!((status, &body["error"]["code"]), (401, &json!("UNAUTHENTICATED")), "{body}");
    }
    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (status, body) = enroll_with_csr(&server, &token, &csr).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["certificate"].as_str().unwrap().starts_with("-----BEGIN CERTIFICATE-----"));
    let (status, _) = enroll_with_csr(&server, &token, &csr).await;
    assert_eq!(status, 401, "a used token is refused");
    assert_eq!(issued(&server), 1, "only the valid token's request was signed:\n{}", server.log());
});

/// A connector enrolled with a certificate signing request: its id, credential and certificate (PEM).
async fn enrolled_with_certificate(server: &Server, f: &common::Fixture, name: &str) -> (Uuid, String, String) {
    let dir = server.db.dir.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (status, body) = enroll_with_csr(server, &token, &certificate_request(&dir)).await;
    assert_eq!(status, 200, "{body}");
    let field = |name: &str| body[name].as_str().unwrap().to_owned();
    (field("connector_id").parse().unwrap(), field("credential"), field("certificate"))
}

/// PEM as nginx's `$ssl_client_escaped_cert` passes it on.
fn url_escaped(pem: &str) -> String {
    pem.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

fn server_env(pairs: &[(&str, &str)]) -> acc_tests::ServerOptions {
    let env = pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    acc_tests::ServerOptions { env, ..Default::default() }
}

on_both_databases!(behind_a_proxy_a_connector_needs_the_certificate_the_proxy_passes_on, |db: TestDb| async move {
    let options =
        server_env(&[("ACC_TRUSTED_PROXIES", "[\"127.0.0.2\"]"), ("ACC_CONNECTOR_CLIENT_CERTIFICATE", "proxy-header")]);
    let server = Server::start_with(db, options).await;
    assert!(server.log().contains("the client certificate issued to it, as a trusted proxy passes it in the header"));
    let f = common::fixture(&server).await;
    let (id, credential, certificate) = enrolled_with_certificate(&server, &f, "first").await;
    let (_, _, other_certificate) = enrolled_with_certificate(&server, &f, "second").await;
    let proxy: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    let header = |pem: &str| [("x-ssl-client-cert", url_escaped(pem))];
    let dial = async |from: std::net::IpAddr, headers: &[(&str, String)]| {
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        RawConnector::dial_from(&server, id, &credential, from, &headers).await
    };

    // The credential alone, the proxy vouching for nothing: refused.
    assert!(matches!(dial(proxy, &[]).await, Err(Ended::Refused(401))));
    // Another connector's certificate: refused.
    assert!(matches!(dial(proxy, &header(&other_certificate)).await, Err(Ended::Refused(401))));
    // Its own certificate, written by a client that is not the trusted proxy: refused.
    assert!(matches!(dial("127.0.0.1".parse().unwrap(), &header(&certificate)).await, Err(Ended::Refused(401))));
    // Its own certificate as the trusted proxy passes it on: admitted.
    let mut admitted = dial(proxy, &header(&certificate)).await.unwrap();
    admitted.hello("greeter", vec![Capability::Stream]).await;
});

on_both_databases!(credential_only_connectors_are_the_operators_stated_choice, |db: TestDb| async move {
    // Plain HTTP on loopback, with no settings: the developer setup admits the credential alone and says so.
    let server = Server::start(db).await;
    assert!(server.log().contains("CREDENTIAL ONLY"), "{}", server.log());
    let f = common::fixture(&server).await;
    let (id, credential, _) = enrolled_with_certificate(&server, &f, "plain").await;
    RawConnector::dial(&server, id, &credential).await.unwrap().hello("greeter", vec![Capability::Stream]).await;
    drop(server);

    // Over TLS, `none` takes the credential alone too, and the log says so.
    let tls = acc_tests::tls::TestCertificates::create(&scratch_dir());
    let mut options = server_env(&[("ACC_CONNECTOR_CLIENT_CERTIFICATE", "none")]);
    options.tls = Some(tls.clone());
    let server = Server::start_with(TestDb::sqlite(), options).await;
    assert!(server.log().contains("CREDENTIAL ONLY"), "{}", server.log());
    let f = common::fixture(&server).await;
    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let https = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&std::fs::read(&tls.ca).unwrap()).unwrap())
        .build()
        .unwrap();
    let enrolled: Value = https
        .post(format!("{}/v1/connectors/enroll", server.base_url()))
        .json(&json!({"token": token}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let config = acc_connector::tls::client_config(Some(&tls.ca), None).unwrap();
    let mut admitted = RawConnector::dial_tls(&server, id, enrolled["credential"].as_str().unwrap(), config).await;
    admitted.as_mut().unwrap().hello("greeter", vec![Capability::Stream]).await;
});

fn scratch_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("acc-tls-{}", Uuid::now_v7()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
