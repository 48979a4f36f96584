//! A run's life beyond the happy path, against a connector that speaks the wire protocol:
//! acknowledgements that never skip an unstored event, resume cursors, blocked runs that start
//! when an agent comes online, leases that lapse into retries and then an interrupted run,
//! approvals with their tokens, and handoff to another agent.

mod common;

use std::time::Duration;

use acc_protocol::{
    APPROVAL_AUDIENCE, ApprovalClaims, CancelMode, Capability, Command, CommandOutcome, ErrorCode, EventKind, RunCursor,
};
use acc_tests::connector_client::RawConnector;
use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases, op};
use base64::Engine;
use common::{events, raw_connector, run_status};
use serde_json::{Value, json};
use uuid::Uuid;

fn statuses(events: &[Value]) -> Vec<String> {
    events.iter().filter(|e| e["kind"] == "status").map(|e| e["data"]["status"].as_str().unwrap().to_owned()).collect()
}

async fn start_run(owner: &Client, task_id: &Value) -> String {
    let started = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task_id})).await;
    started.data("startRun")["id"].as_str().unwrap().to_owned()
}

/// Polls until the run reaches `wanted`, sending `heartbeat`s from `alive` meanwhile.
async fn wait_status(owner: &Client, run_id: &str, wanted: &str, mut alive: Option<&mut RawConnector>) -> Value {
    let mut last = Value::Null;
    for _ in 0..150 {
        let node = owner
            .gql(
                "query($id: ID!) { node(id: $id) { ... on TaskRun { status statusReason attempts { number kind status leaseExpiresAt endedAt } } } }",
                json!({"id": run_id}),
            )
            .await;
        last = node.data("node").clone();
        if last["status"] == wanted {
            return last;
        }
        if let Some(connector) = alive.as_deref_mut() {
            connector.heartbeat(vec![]).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the run never reached {wanted}: {last}");
}

fn output(connector: &RawConnector, run: Uuid, sequence: u64, line: &str) -> acc_protocol::Envelope {
    connector.event(run, sequence, EventKind::Output, json!({"line": line}))
}

on_both_databases!(acknowledgements_never_pass_an_event_that_is_not_stored, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Ordered").await;
    let (mut connector, credential) = raw_connector(&server, &f).await;
    connector.hello("shell", vec![Capability::Stream]).await;
    let run_id = start_run(&f.owner, &task["id"]).await;
    let (run, _) = connector.accept_start().await;

    let (one, two, three) =
        (output(&connector, run, 1, "one"), output(&connector, run, 2, "two"), output(&connector, run, 3, "three"));
    assert_eq!(connector.emit(one).await, Ok(1));
    // Event 2 was lost on the way: 3 is refused, not stored, and nothing past 1 is acknowledged.
    assert_eq!(connector.emit(three.clone()).await, Err(ErrorCode::OutOfOrder));
    assert_eq!(connector.emit(two.clone()).await, Ok(2));
    assert_eq!(connector.emit(three).await, Ok(3));
    // A resend of a stored event is acknowledged up to what is stored, and stored once.
    assert_eq!(connector.emit(two).await, Ok(3));
    let lines: Vec<Value> = events(&f.owner, &run_id)
        .await
        .into_iter()
        .filter(|e| e["kind"] == "output")
        .map(|e| e["data"]["line"].clone())
        .collect();
    assert_eq!(lines, [json!("one"), json!("two"), json!("three")]);

    // After a reconnect the connector learns where to resume; a run the control plane does not
    // have is released entirely.
    let unknown = Uuid::now_v7();
    let mut again = RawConnector::dial(&server, connector.id, &credential).await.unwrap();
    let welcome = again
        .hello_with(
            &[("shell", vec![Capability::Stream])],
            vec![RunCursor { run_id: run, acked_sequence: 1 }, RunCursor { run_id: unknown, acked_sequence: 0 }],
        )
        .await;
    assert_eq!(
        welcome.resume,
        [RunCursor { run_id: run, acked_sequence: 3 }, RunCursor { run_id: unknown, acked_sequence: u64::MAX }]
    );
    assert!(!welcome.approval_keys.is_empty(), "the keys approval tokens are signed with");
});

on_both_databases!(a_blocked_run_starts_when_a_suitable_agent_comes_online, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Wait for an agent").await;
    let needs_approvals = f
        .owner
        .gql(
            "mutation($t: ID!) { startRun(taskId: $t, requiredCapabilities: [APPROVALS]) { id status statusReason } }",
            json!({"t": task["id"]}),
        )
        .await;
    assert_eq!(needs_approvals.data("startRun")["status"], "BLOCKED");
    let run_id = start_run(&f.owner, &task["id"]).await;
    assert_eq!(run_status(&f.owner, &run_id).await, "BLOCKED");

    // An agent without approvals comes online: it takes the run that needs nothing special, only.
    let (mut connector, _) = raw_connector(&server, &f).await;
    connector.hello("shell", vec![Capability::Stream]).await;
    connector.accept_start().await;
    let run = wait_status(&f.owner, &run_id, "RUNNING", None).await;
    assert_eq!(run["attempts"].as_array().unwrap().len(), 1);
    let stored = events(&f.owner, &run_id).await;
    assert_eq!(statuses(&stored), ["queued", "dispatching", "blocked", "handoff_ready", "dispatching", "running"]);
    let online = stored.iter().find(|e| e["data"]["status"] == "handoff_ready").unwrap();
    assert_eq!(online["data"]["reason"], "agent shell came online");
    let other = needs_approvals.data("startRun")["id"].as_str().unwrap();
    assert_eq!(run_status(&f.owner, other).await, "BLOCKED", "still waiting for an agent with approvals");
});

fn lease_options() -> ServerOptions {
    let env = [
        ("ACC_RUNS__HEARTBEAT_INTERVAL_MS", "400"),
        ("ACC_RUNS__LEASE_MS", "1000"),
        ("ACC_RUNS__RETRY_BACKOFF_MS", "100"),
        ("ACC_RUNS__MAX_ATTEMPTS", "2"),
    ];
    ServerOptions { env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), ..Default::default() }
}

on_both_databases!(a_lapsed_lease_retries_the_run_elsewhere_then_interrupts_it, |db: TestDb| async move {
    let server = Server::start_with(db, lease_options()).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Survive a lost host").await;
    let (mut first, first_credential) = raw_connector(&server, &f).await;
    first.hello("first", vec![Capability::Stream]).await;
    let (mut second, _) = raw_connector(&server, &f).await;
    second.hello("second", vec![Capability::Stream]).await;

    let run_id = start_run(&f.owner, &task["id"]).await;
    let (run, first_attempt) = first.accept_start().await;
    assert_eq!(first.emit(output(&first, run, 1, "working")).await, Ok(1));
    // The first host vanishes: nothing renews its lease any more.
    let first_id = first.id;
    drop(first);

    let (command_id, command) = loop {
        second.heartbeat(vec![]).await;
        if let Ok(Ok(frame)) = tokio::time::timeout(Duration::from_millis(200), second.recv()).await
            && let acc_protocol::Frame::Command { command_id, command } = frame.payload
        {
            break (command_id, command);
        }
    };
    let Command::StartRun { run_id: retried, attempt_id, context, .. } = command else { panic!("expected a start") };
    assert_eq!((retried, context["attempt"].as_i64()), (run, Some(2)), "the retry is attempt 2");
    assert_ne!(attempt_id, first_attempt);
    second.answer(command_id, CommandOutcome::Accepted).await;
    let running = wait_status(&f.owner, &run_id, "RUNNING", Some(&mut second)).await;
    let attempts = running["attempts"].as_array().unwrap();
    assert_eq!(
        attempts.iter().map(|a| (a["kind"].as_str().unwrap(), a["status"].as_str().unwrap())).collect::<Vec<_>>(),
        [("START", "LAPSED"), ("RETRY", "RUNNING")]
    );
    assert!(attempts[0]["leaseExpiresAt"].is_null() && attempts[1]["leaseExpiresAt"].is_string());

    // The second host goes quiet too, and the run has no attempts left: its agent is gone.
    let interrupted = wait_status(&f.owner, &run_id, "INTERRUPTED", None).await;
    let reason = interrupted["statusReason"].as_str().unwrap();
    assert!(
        reason.contains("attempt 2 lost its connector") && reason.contains("no attempts left (2 allowed)"),
        "{reason}"
    );
    let stored = events(&f.owner, &run_id).await;
    assert_eq!(statuses(&stored), ["queued", "dispatching", "running", "dispatching", "running", "interrupted"]);
    assert!(stored.iter().any(|e| e["data"]["line"] == "working"), "the first attempt's event stays in the run");

    // The first host comes back still running the run it lost: it is told to stop it.
    let mut back = RawConnector::dial(&server, first_id, &first_credential).await.unwrap();
    back.hello("first", vec![Capability::Stream]).await;
    back.heartbeat(vec![run]).await;
    match back.command().await.1 {
        Command::CancelRun { run_id, mode, .. } => assert_eq!((run_id, mode), (run, CancelMode::Immediate)),
        other => panic!("expected cancel_run, got {other:?}"),
    }
});

/// Checks an approval token the way a connector does, with the keys `hello_ack` listed.
fn verify_token(token: &str, keys: &[acc_protocol::ApprovalKey]) -> ApprovalClaims {
    let kid = jsonwebtoken::decode_header(token).unwrap().kid.unwrap();
    let key = keys.iter().find(|k| k.kid == kid).expect("signed with a listed key");
    let bytes = base64::engine::general_purpose::STANDARD.decode(&key.public_key).unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::EdDSA);
    validation.set_audience(&[APPROVAL_AUDIENCE]);
    validation.set_issuer(&["acc"]);
    jsonwebtoken::decode::<ApprovalClaims>(token, &jsonwebtoken::DecodingKey::from_ed_der(&bytes), &validation)
        .unwrap()
        .claims
}

const APPROVALS: &str = "query($p: ID, $s: ApprovalStatus) { approvals(projectId: $p, status: $s) { edges { node { id action reason status decidedBy { email } decisionReason run { id status } } } } }";

async fn approvals(client: &Client, project_id: &str, status: Option<&str>) -> Vec<Value> {
    let page = client.gql(APPROVALS, json!({"p": project_id, "s": status})).await;
    page.data("approvals")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect()
}

async fn decide(client: &Client, approval_id: &Value, decision: &str, reason: &str) -> acc_tests::GqlResponse {
    client
        .gql(
            "mutation($a: ID!, $d: ApprovalDecision!, $r: String) { decideApproval(approvalId: $a, decision: $d, reason: $r) { id status decisionReason decidedBy { email } } }",
            json!({"a": approval_id, "d": decision, "r": reason}),
        )
        .await
}

fn ask(connector: &RawConnector, run: Uuid, sequence: u64, request: &str, action: &str) -> acc_protocol::Envelope {
    let data = json!({"request_id": request, "action": action, "reason": "a clean build"});
    connector.event(run, sequence, EventKind::ApprovalRequested, data)
}

on_both_databases!(an_approval_pauses_the_run_and_its_token_is_bound_to_the_action, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Clean up").await;
    let (mut connector, _) = raw_connector(&server, &f).await;
    let welcome = connector.hello_with(&[("careful", vec![Capability::Stream, Capability::Approvals])], vec![]).await;
    let mut inbox = f
        .owner
        .subscribe(
            "subscription($p: ID) { approvalUpdated(projectId: $p) { action status } }",
            json!({"p": f.project_id}),
        )
        .await
        .unwrap();
    let run_id = start_run(&f.owner, &task["id"]).await;
    let (run, _) = connector.accept_start().await;
    let first = ask(&connector, run, 1, "r1", "delete build/");
    assert_eq!(connector.emit(first).await, Ok(1));
    assert_eq!(run_status(&f.owner, &run_id).await, "WAITING_APPROVAL");
    let live = inbox.next().await.unwrap();
    assert_eq!(live["data"]["approvalUpdated"], json!({"action": "delete build/", "status": "PENDING"}));
    let pending = approvals(&f.owner, &f.project_id, None).await;
    assert_eq!(pending.len(), 1);
    assert_eq!(
        (pending[0]["action"].as_str(), pending[0]["reason"].as_str()),
        (Some("delete build/"), Some("a clean build"))
    );
    let approval_id = pending[0]["id"].clone();

    // Deciding needs the operator role: a member sees the approval but may not decide it.
    f.owner
        .gql(
            "mutation($p: String!) { createUser(email: \"member@acme.test\", password: $p, role: MEMBER) { id } }",
            json!({"p": acc_tests::PASSWORD}),
        )
        .await
        .data("createUser");
    let login =
        server.client().gql(op!("login"), json!({"email": "member@acme.test", "password": acc_tests::PASSWORD})).await;
    let member = server.client().with_token(login.data("login")["accessToken"].as_str().unwrap());
    assert_eq!(approvals(&member, &f.project_id, None).await.len(), 1);
    decide(&member, &approval_id, "APPROVE", "sure").await.expect_code("FORBIDDEN");

    let approved = decide(&f.owner, &approval_id, "APPROVE", "go ahead").await;
    assert_eq!(
        approved.data("decideApproval")["decidedBy"]["email"].as_str(),
        Some("owner@acme.test"),
        "{}",
        approved.body
    );
    let (command_id, command) = connector.command().await;
    let Command::ApprovalDecision { approval_id: decided, request_id, approved, reason, approval_token, .. } = command
    else {
        panic!("expected approval_decision, got {command:?}")
    };
    assert_eq!((request_id.as_str(), approved, reason.as_deref()), ("r1", true, Some("go ahead")));
    assert_eq!(command_id, decided, "the decision's command id is the approval id");
    let claims = verify_token(&approval_token.expect("an approval carries a token"), &welcome.approval_keys);
    assert_eq!((claims.run_id, claims.connector_id), (run, connector.id));
    assert_eq!((claims.request_id.as_str(), claims.action.as_str()), ("r1", "delete build/"));
    assert_eq!(claims.exp - claims.iat, 120, "short-lived");
    connector.answer(command_id, CommandOutcome::Accepted).await;
    assert_eq!(run_status(&f.owner, &run_id).await, "RUNNING");
    let again = decide(&f.owner, &approval_id, "DENY", "changed my mind").await;
    assert_eq!(again.expect_code("CONFLICT")["extensions"]["details"]["status"], "approved");

    // A denial carries no token; a decision the connector refuses is noted on the run.
    assert_eq!(connector.emit(ask(&connector, run, 2, "r2", "push to main")).await, Ok(2));
    let second = approvals(&f.owner, &f.project_id, Some("PENDING")).await;
    decide(&f.owner, &second[0]["id"], "DENY", "not today").await.data("decideApproval");
    let (command_id, command) = connector.command().await;
    let Command::ApprovalDecision { approved, approval_token, .. } = command else { panic!("expected a decision") };
    assert_eq!((approved, approval_token), (false, None));
    connector.answer(command_id, CommandOutcome::Rejected { reason: "the agent stopped listening".into() }).await;
    let mut notice = Value::Null;
    for _ in 0..50 {
        if let Some(found) = events(&f.owner, &run_id).await.into_iter().find(|e| e["kind"] == "notice") {
            notice = found;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(notice["data"]["message"].as_str().unwrap().contains("the agent stopped listening"), "{notice}");
    let live: Vec<Value> = [inbox.next().await.unwrap(), inbox.next().await.unwrap(), inbox.next().await.unwrap()]
        .into_iter()
        .map(|m| m["data"]["approvalUpdated"].clone())
        .collect();
    assert_eq!(
        live,
        [
            json!({"action": "delete build/", "status": "APPROVED"}),
            json!({"action": "push to main", "status": "PENDING"}),
            json!({"action": "push to main", "status": "DENIED"}),
        ]
    );
    assert_eq!(approvals(&f.owner, &f.project_id, Some("PENDING")).await, Vec::<Value>::new());
    let statuses = statuses(&events(&f.owner, &run_id).await);
    assert_eq!(
        statuses,
        ["queued", "dispatching", "running", "waiting_approval", "running", "waiting_approval", "running"]
    );
});

on_both_databases!(an_approval_nobody_decides_expires_as_a_denial, |db: TestDb| async move {
    let env = vec![("ACC_RUNS__APPROVAL_TIMEOUT_MS".to_owned(), "300".to_owned())];
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Ask and wait").await;
    let (mut connector, _) = raw_connector(&server, &f).await;
    connector.hello("careful", vec![Capability::Stream, Capability::Approvals]).await;
    let run_id = start_run(&f.owner, &task["id"]).await;
    let (run, _) = connector.accept_start().await;
    let ask = connector.event(run, 1, EventKind::ApprovalRequested, json!({"request_id": "r1", "action": "deploy"}));
    assert_eq!(connector.emit(ask).await, Ok(1));
    let (_, command) = connector.command().await;
    let Command::ApprovalDecision { approved, approval_token, reason, .. } = command else {
        panic!("expected a decision")
    };
    assert_eq!((approved, approval_token, reason.as_deref()), (false, None, Some("nobody decided in time")));
    wait_status(&f.owner, &run_id, "RUNNING", None).await;
    let expired = approvals(&f.owner, &f.project_id, Some("EXPIRED")).await;
    assert_eq!(expired.len(), 1);
    decide(&f.owner, &expired[0]["id"], "APPROVE", "too late").await.expect_code("CONFLICT");
});

on_both_databases!(a_run_cancelled_while_it_waits_for_approval_stores_its_agents_last_word, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Ask, then be cancelled").await;
    let (mut connector, _) = raw_connector(&server, &f).await;
    connector.hello("careful", vec![Capability::Stream, Capability::Approvals]).await;
    let run_id = start_run(&f.owner, &task["id"]).await;
    let (run, _) = connector.accept_start().await;
    assert_eq!(connector.emit(ask(&connector, run, 1, "r1", "deploy")).await, Ok(1));
    wait_status(&f.owner, &run_id, "WAITING_APPROVAL", None).await;

    // The agent is alive: it is asked to stop, and the run ends only when it has.
    let project_runs = "subscription($p: ID!) { runUpdated(projectId: $p) { id status attempts { number endedAt } } }";
    let mut updates = f.owner.subscribe(project_runs, json!({"p": f.project_id})).await.unwrap();
    let cancelled = f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id})).await;
    assert_eq!(cancelled.data("cancelRun")["status"], "CANCELLING");
    assert!(approvals(&f.owner, &f.project_id, Some("PENDING")).await.is_empty(), "nothing is left to decide");
    let (_, command) = connector.command().await;
    match command {
        Command::CancelRun { run_id: stopped, mode, .. } => assert_eq!((stopped, mode), (run, CancelMode::Graceful)),
        other => panic!("expected cancel_run, got {other:?}"),
    }
    let stopped = connector.event(run, 2, EventKind::Result, json!({"outcome": "cancelled", "signal": 15}));
    assert_eq!(connector.emit(stopped).await, Ok(2));
    wait_status(&f.owner, &run_id, "CANCELLED", None).await;
    // Whoever sees the run ended sees its attempt ended with it, never still running.
    let ended = loop {
        let update = updates.next().await.unwrap();
        if update["data"]["runUpdated"]["status"] == "CANCELLED" {
            break update["data"]["runUpdated"].clone();
        }
    };
    assert!(ended["attempts"][0]["endedAt"].is_string(), "the attempt ends in the run's last update: {ended}");
    let events = common::events(&f.owner, &run_id).await;
    let result = events.iter().position(|e| e["kind"] == "result").expect("the agent's result is stored");
    assert_eq!(events[result]["data"]["signal"], 15);
    assert_eq!(events.last().unwrap()["data"]["status"], "cancelled", "the result comes before the end");
});

on_both_databases!(a_run_is_handed_off_after_a_checkpoint_and_the_source_lease_closes_last, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Port the parser").await;
    f.owner
        .gql(op!("add_acceptance_criterion"), json!({"taskId": task["id"], "description": "tests pass"}))
        .await
        .data("addAcceptanceCriterion");
    // What the project knows about parsers, verified: the target is given it as the source was.
    let known = "Port the parser with its line numbers: error messages need them.";
    let entry = common::write_memory(&f.owner, &f.project_id, "parser line numbers", known, json!({})).await;
    common::verify_memory(&f.owner, &entry).await;
    let (mut connector, _) = raw_connector(&server, &f).await;
    let welcome = connector
        .hello_with(
            &[("source", vec![Capability::Stream, Capability::Checkpoint]), ("target", vec![Capability::Stream])],
            vec![],
        )
        .await;
    let agent = |name: &str| welcome.agents.iter().find(|a| a.name == name).unwrap().agent_id;
    let gid = |uuid: Uuid| acc_api::ids::GlobalId::new(acc_api::ids::NodeKind::Agent, uuid).encode();
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"port it\"}) { id } }",
            json!({"t": task["id"], "a": gid(agent("source"))}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    let (run, source_attempt) = connector.accept_start().await;
    let said = connector.event(run, 1, EventKind::Message, json!({"text": "half of the parser is ported"}));
    assert_eq!(connector.emit(said).await, Ok(1));
    wait_status(&f.owner, &run_id, "RUNNING", None).await;

    let handoff = "mutation($r: ID!, $a: ID!) { requestHandoff(runId: $r, targetAgentId: $a, reason: \"needs a second pair of hands\") { status handoffTarget { name } } }";
    // The target must be able to do what the run needs; the source must be able to checkpoint.
    let from_target = f.owner.gql(handoff, json!({"r": run_id, "a": gid(agent("source"))})).await;
    from_target.expect_code("VALIDATION");
    let requested = f.owner.gql(handoff, json!({"r": run_id, "a": gid(agent("target"))})).await;
    assert_eq!(
        requested.data("requestHandoff"),
        &json!({"status": "CHECKPOINTING", "handoffTarget": {"name": "target"}})
    );
    let (checkpoint_command, command) = connector.command().await;
    let Command::Checkpoint { run_id: asked, reason } = command else { panic!("expected checkpoint, got {command:?}") };
    // The request's reason: for whom, and why.
    assert_eq!((asked, reason.as_str()), (run, "handoff to target: needs a second pair of hands"));
    connector.answer(checkpoint_command, CommandOutcome::Accepted).await;
    let saved = json!({"reason": reason, "state": {"file": "parser.rs", "line": 120}, "completed": ["lexer"], "pending": ["parser"]});
    assert_eq!(connector.emit(connector.event(run, 2, EventKind::Checkpoint, saved)).await, Ok(2));

    // The source is told to stop, and keeps its lease until the target has taken over.
    let (_, command) = connector.command().await;
    match command {
        Command::CancelRun { run_id: stopped, attempt_id, mode } => {
            assert_eq!((stopped, attempt_id, mode), (run, Some(source_attempt), CancelMode::Graceful));
        }
        other => panic!("expected cancel_run, got {other:?}"),
    }
    let ready = wait_status(&f.owner, &run_id, "HANDOFF_READY", None).await;
    assert_eq!(ready["attempts"][0]["status"], "HANDING_OFF");
    let stopped = connector.event(run, 3, EventKind::Result, json!({"outcome": "cancelled", "signal": 15}));
    assert_eq!(connector.emit(stopped).await, Ok(3));
    let (command_id, command) = connector.command().await;
    let Command::HandoffIngest { run_id: ingested, attempt_id, agent_id, bundle, .. } = command else {
        panic!("expected handoff_ingest, got {command:?}")
    };
    assert_eq!((ingested, agent_id, command_id), (run, agent("target"), attempt_id));
    assert_eq!(bundle["objective"], "port it");
    assert_eq!(bundle["acceptance_criteria"], json!([{"description": "tests pass", "met": false}]));
    assert_eq!(bundle["checkpoint"]["data"]["state"], json!({"file": "parser.rs", "line": 120}));
    assert_eq!(bundle["completed_work"], json!(["lexer"]));
    assert_eq!(bundle["pending_work"], json!(["tests pass", "parser"]));
    assert_eq!(bundle["conversation"][0]["data"]["text"], "half of the parser is ported");
    let memory = bundle["verified_memory"].as_array().unwrap();
    assert_eq!(memory.len(), 1, "{memory:?}");
    assert_eq!((&memory[0]["content"], &memory[0]["verification"]), (&json!(known), &json!("verified")));
    assert_eq!(bundle["provenance"]["attempts"][0]["status"], "stopped");
    let waiting = wait_status(&f.owner, &run_id, "DISPATCHING", None).await;
    assert_eq!(waiting["attempts"][0]["status"], "STOPPED");
    assert!(waiting["attempts"][0]["leaseExpiresAt"].is_string(), "the source's lease still holds: {waiting}");

    connector.answer(command_id, CommandOutcome::Accepted).await;
    let running = wait_status(&f.owner, &run_id, "RUNNING", None).await;
    let attempts: Vec<(&str, &str)> = running["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["kind"].as_str().unwrap(), a["status"].as_str().unwrap()))
        .collect();
    assert_eq!(attempts, [("START", "HANDED_OFF"), ("HANDOFF", "RUNNING")]);
    let run_view = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on TaskRun { agent { name } requestedAgent { name } handoffTarget { name } checkpoints { reason targetAgent { name } } } } }",
            json!({"id": run_id}),
        )
        .await;
    assert_eq!(
        run_view.data("node"),
        &json!({
            "agent": {"name": "target"},
            "requestedAgent": {"name": "target"},
            "handoffTarget": null,
            "checkpoints": [{"reason": "handoff to target: needs a second pair of hands", "targetAgent": {"name": "target"}}]
        })
    );
    let done = connector.event(run, 4, EventKind::Result, json!({"outcome": "succeeded", "exit_code": 0}));
    assert_eq!(connector.emit(done).await, Ok(4));
    wait_status(&f.owner, &run_id, "SUCCEEDED", None).await;
    assert_eq!(
        statuses(&events(&f.owner, &run_id).await),
        ["queued", "dispatching", "running", "checkpointing", "handoff_ready", "dispatching", "running", "succeeded"]
    );
    let finished = f.owner.gql(handoff, json!({"r": run_id, "a": gid(agent("target"))})).await;
    finished.expect_code("INVALID_TRANSITION");
});

on_both_databases!(checkpoints_need_the_capability_and_a_refusal_resumes_the_run, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Save often").await;
    let (mut connector, _) = raw_connector(&server, &f).await;
    connector.hello("plain", vec![Capability::Stream]).await;
    let run_id = start_run(&f.owner, &task["id"]).await;
    connector.accept_start().await;
    wait_status(&f.owner, &run_id, "RUNNING", None).await;
    let checkpoint = "mutation($r: ID!) { requestCheckpoint(runId: $r, reason: \"before lunch\") { status } }";
    let missing = f.owner.gql(checkpoint, json!({"r": run_id})).await;
    assert_eq!(missing.expect_code("CAPABILITY_MISSING")["extensions"]["details"]["missing"], json!(["checkpoint"]));

    let (mut saver, _) = raw_connector(&server, &f).await;
    let saver_agent = saver.hello("saver", vec![Capability::Stream, Capability::Checkpoint]).await;
    let gid = acc_api::ids::GlobalId::new(acc_api::ids::NodeKind::Agent, saver_agent).encode();
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({"t": task["id"], "a": gid}),
        )
        .await;
    let saved_run = started.data("startRun")["id"].as_str().unwrap().to_owned();
    let (run, _) = saver.accept_start().await;
    wait_status(&f.owner, &saved_run, "RUNNING", None).await;
    let asked = f.owner.gql(checkpoint, json!({"r": saved_run})).await;
    assert_eq!(asked.data("requestCheckpoint")["status"], "CHECKPOINTING");
    let (command_id, _) = saver.command().await;
    saver.answer(command_id, CommandOutcome::Rejected { reason: "nothing to save yet".into() }).await;
    let back = wait_status(&f.owner, &saved_run, "RUNNING", None).await;
    assert_eq!(back["statusReason"], "the agent could not checkpoint: nothing to save yet");

    f.owner.gql(checkpoint, json!({"r": saved_run})).await.data("requestCheckpoint");
    let (command_id, _) = saver.command().await;
    saver.answer(command_id, CommandOutcome::Accepted).await;
    let state = saver.event(run, 1, EventKind::Checkpoint, json!({"reason": "before lunch", "state": {"step": 7}}));
    assert_eq!(saver.emit(state).await, Ok(1));
    let back = wait_status(&f.owner, &saved_run, "RUNNING", None).await;
    assert_eq!(back["statusReason"], "checkpoint taken");
    let view = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on TaskRun { checkpoints { reason data targetAgent { name } } } } }",
            json!({"id": saved_run}),
        )
        .await;
    assert_eq!(
        view.data("node")["checkpoints"],
        json!([{"reason": "before lunch", "data": {"reason": "before lunch", "state": {"step": 7}}, "targetAgent": null}])
    );
});

/// A run of `task` that its agent ends with `outcome` (or leaves running, with none).
async fn finished_run(owner: &Client, connector: &mut RawConnector, task: &Value, outcome: Option<&str>) -> String {
    let run_id = start_run(owner, task).await;
    let (run, _) = connector.accept_start().await;
    let Some(outcome) = outcome else {
        wait_status(owner, &run_id, "RUNNING", None).await;
        return run_id;
    };
    let result = connector.event(run, 1, EventKind::Result, json!({"outcome": outcome}));
    assert_eq!(connector.emit(result).await, Ok(1));
    wait_status(owner, &run_id, &outcome.to_uppercase(), None).await;
    run_id
}

/// The ids of a `runs` connection's nodes, in order.
async fn listed(owner: &Client, filter: Value, last: Option<i32>) -> Vec<String> {
    let query = "query($f: RunFilter, $l: Int) { runs(filter: $f, last: $l) { edges { node { id } } } }";
    let page = owner.gql(query, json!({"f": filter, "l": last})).await;
    page.data("runs")["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["id"].as_str().unwrap().to_owned())
        .collect()
}

on_both_databases!(runs_are_listed_across_tasks_by_status_agent_project_and_time, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let (mut connector, _) = raw_connector(&server, &f).await;
    connector.hello("worker", vec![Capability::Stream]).await;
    let agents = f.owner.gql("query($p: ID!) { agents(projectId: $p) { id } }", json!({"p": f.project_id})).await;
    let agent = agents.data("agents")[0]["id"].clone();
    let flaky = common::create_task(&f.owner, &f.project_id, "Flaky").await;
    let flaky_failed = finished_run(&f.owner, &mut connector, &flaky["id"], Some("failed")).await;
    let flaky_ok = finished_run(&f.owner, &mut connector, &flaky["id"], Some("succeeded")).await;
    let broken = common::create_task(&f.owner, &f.project_id, "Broken").await;
    let broken = finished_run(&f.owner, &mut connector, &broken["id"], Some("failed")).await;
    let going = common::create_task(&f.owner, &f.project_id, "Going").await;
    let going = finished_run(&f.owner, &mut connector, &going["id"], None).await;
    let (flaky_failed, flaky_ok, broken, going) =
        (flaky_failed.as_str(), flaky_ok.as_str(), broken.as_str(), going.as_str());

    // Every readable run, oldest first; `last` for the newest.
    assert_eq!(listed(&f.owner, json!(null), None).await, [flaky_failed, flaky_ok, broken, going]);
    assert_eq!(listed(&f.owner, json!(null), Some(2)).await, [broken, going]);
    // By status; and only each task's latest run: the task that failed once and then succeeded
    // is no longer a failure.
    assert_eq!(listed(&f.owner, json!({"status": ["FAILED"]}), None).await, [flaky_failed, broken]);
    assert_eq!(listed(&f.owner, json!({"status": ["FAILED"], "latestOfTask": true}), None).await, [broken]);
    assert_eq!(listed(&f.owner, json!({"status": ["RUNNING", "QUEUED"]}), None).await, [going]);
    assert_eq!(listed(&f.owner, json!({"agentId": agent, "status": ["SUCCEEDED"]}), None).await, [flaky_ok]);
    // A task's latest run is its newest, whatever the older ones did.
    let latest = f.owner.gql(
        "query($id: ID!) { node(id: $id) { ... on Task { latestRun { id } runs { id } } } }",
        json!({"id": flaky["id"]}),
    );
    let latest = latest.await.data("node").clone();
    assert_eq!((latest["latestRun"]["id"].as_str(), latest["runs"].as_array().unwrap().len()), (Some(flaky_ok), 2));
    // By project: another project has none of them.
    let other = f.owner.gql(op!("create_project"), json!({"workspaceId": f.workspace_id, "name": "Other"})).await;
    let other = other.data("createProject")["id"].clone();
    assert!(listed(&f.owner, json!({"projectId": other}), None).await.is_empty());
    assert_eq!(listed(&f.owner, json!({"projectId": f.project_id}), None).await.len(), 4);
    // By when they were created: `from` included, `to` excluded.
    let node = f.owner.gql("query($id: ID!) { node(id: $id) { ... on TaskRun { createdAt } } }", json!({"id": broken}));
    let at = node.await.data("node")["createdAt"].clone();
    assert_eq!(listed(&f.owner, json!({"from": at}), None).await, [broken, going]);
    assert_eq!(listed(&f.owner, json!({"to": at}), None).await, [flaky_failed, flaky_ok]);

    // Bad filters are refused, typed, and say why.
    let query = "query($f: RunFilter) { runs(filter: $f) { edges { node { id } } } }";
    let backwards = f.owner.gql(query, json!({"f": {"from": at, "to": at}})).await;
    backwards.expect_code("VALIDATION");
    let not_a_project = f.owner.gql(query, json!({"f": {"projectId": agent}})).await;
    not_a_project.expect_code("VALIDATION");
    let huge = f.owner.gql("{ runs(first: 100000) { edges { node { id } } } }", json!({})).await;
    huge.expect_code("VALIDATION");
    let unknown = f.owner.gql(query, json!({"f": {"status": ["SLEEPING"]}})).await;
    unknown.expect_code("VALIDATION");
});

/// A task's status and revision as stored now.
async fn task_status(owner: &Client, task_id: &Value) -> (String, i64) {
    let node =
        owner.gql("query($id: ID!) { node(id: $id) { ... on Task { status revision } } }", json!({"id": task_id}));
    let node = node.await.data("node").clone();
    (node["status"].as_str().unwrap().to_owned(), node["revision"].as_i64().unwrap())
}

on_both_databases!(a_tasks_status_follows_its_runs_unless_its_project_says_otherwise, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let (mut connector, _) = raw_connector(&server, &f).await;
    connector.hello("worker", vec![Capability::Stream]).await;
    let task = common::create_task(&f.owner, &f.project_id, "Ship it").await;
    let criterion =
        f.owner.gql(op!("add_acceptance_criterion"), json!({"taskId": task["id"], "description": "tests pass"}));
    let criterion = criterion.await.data("addAcceptanceCriterion")["id"].clone();
    let mut board = f.owner.subscribe(op!("task_events"), json!({"projectId": f.project_id})).await.unwrap();

    // A run starts: the task is in progress, and the board hears it live.
    let run_id = start_run(&f.owner, &task["id"]).await;
    let (run, _) = connector.accept_start().await;
    wait_status(&f.owner, &run_id, "RUNNING", None).await;
    let event = board.next().await.unwrap();
    assert_eq!(event["data"]["taskEvents"]["task"]["status"], "IN_PROGRESS", "{event}");
    assert_eq!(task_status(&f.owner, &task["id"]).await.0, "IN_PROGRESS");
    // It succeeds, but a criterion is not met: the task stays in progress.
    let succeeded = connector.event(run, 1, EventKind::Result, json!({"outcome": "succeeded"}));
    assert_eq!(connector.emit(succeeded).await, Ok(1));
    wait_status(&f.owner, &run_id, "SUCCEEDED", None).await;
    assert_eq!(task_status(&f.owner, &task["id"]).await.0, "IN_PROGRESS");
    // With every criterion met, the next success puts it in review.
    f.owner
        .gql(op!("set_acceptance_criterion_met"), json!({"id": criterion, "met": true}))
        .await
        .data("setAcceptanceCriterionMet");
    finished_run(&f.owner, &mut connector, &task["id"], Some("succeeded")).await;
    assert_eq!(task_status(&f.owner, &task["id"]).await.0, "IN_REVIEW");
    // Another run puts it back to work (and failing leaves it there); done is a person's word,
    // and a later run leaves it done.
    finished_run(&f.owner, &mut connector, &task["id"], Some("failed")).await;
    let (status, revision) = task_status(&f.owner, &task["id"]).await;
    assert_eq!(status, "IN_PROGRESS");
    let done = json!({"input": {"id": task["id"], "status": "DONE", "expectedRevision": revision}});
    f.owner.gql(op!("update_task"), done).await.data("updateTask");
    finished_run(&f.owner, &mut connector, &task["id"], Some("succeeded")).await;
    assert_eq!(task_status(&f.owner, &task["id"]).await.0, "DONE");

    // A project that keeps its statuses by hand.
    let off = json!({"scopeId": f.project_id, "patch": {"tasks": {"statusFollowsRuns": false}}, "expectedRevision": 0});
    f.owner.gql(op!("set_settings"), off).await.data("setSettings");
    let manual = common::create_task(&f.owner, &f.project_id, "By hand").await;
    finished_run(&f.owner, &mut connector, &manual["id"], Some("succeeded")).await;
    assert_eq!(task_status(&f.owner, &manual["id"]).await, ("TODO".to_owned(), 1));
});
