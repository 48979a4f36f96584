//! The connector gateway against a connector that speaks the wire protocol directly: enrollment,
//! handshake, a run's events stored once each in a gap-free sequence, every malformed frame
//! refused with nothing stored, and no answering another tenant's commands.

mod common;

use acc_protocol::{Capability, Command, CommandOutcome, Envelope, EventKind, Frame};
use acc_tests::connector_client::{Ended, RawConnector, enroll};
use acc_tests::{Client, Server, TestDb, on_both_databases, op};
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

on_both_databases!(a_crash_leaves_runs_interrupted_with_every_acknowledged_event, |db: TestDb| async move {
    let mut server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Long job").await;
    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (_, enrolled) = enroll(&server, &token).await;
    let connector_id: Uuid = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let mut connector =
        RawConnector::dial(&server, connector_id, enrolled["credential"].as_str().unwrap()).await.unwrap();
    connector.hello("shell", vec![Capability::Stream]).await;
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
    for sequence in 1..=2 {
        connector.send(connector.event(run_uuid, sequence, EventKind::Output, json!({"line": sequence}))).await;
        assert!(matches!(connector.recv().await.unwrap().payload, Frame::EventAck { .. }));
    }
    assert_eq!(run_status(&f.owner, &run_id).await, "RUNNING");

    server.crash_and_restart().await;
    let token = f.owner.token.clone().unwrap();
    let owner = server.client().with_token(&token);
    let node = owner
        .gql("query($id: ID!) { node(id: $id) { ... on TaskRun { status statusReason } } }", json!({"id": run_id}))
        .await;
    assert_eq!(node.data("node")["status"], "INTERRUPTED");
    assert!(node.data("node")["statusReason"].as_str().unwrap().contains("stopped while the run was live"));
    let stored = events(&owner, &run_id).await;
    let lines: Vec<i64> =
        stored.iter().filter(|e| e["kind"] == "output").map(|e| e["data"]["line"].as_i64().unwrap()).collect();
    assert_eq!(lines, [1, 2], "every acknowledged event survived");
    assert_eq!(stored.last().unwrap()["data"]["status"], "interrupted");
    let connectors = owner.gql("{ connectors { online } }", json!({})).await;
    assert_eq!(connectors.data("connectors")[0]["online"], false, "nobody is connected to the new process yet");
});

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
