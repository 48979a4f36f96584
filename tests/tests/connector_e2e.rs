//! End to end with the real binaries: `acc serve`, `acc-connector enroll` and `acc-connector run`
//! with `command` agents (shell scripts), driven over GraphQL like a client: runs, cancel,
//! connector and control-plane crashes, cut connections, approvals, handoff and mTLS.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use acc_tests::connector_client::{Ended, RawConnector};
use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases};
use common::{enroll, enroll_with, online_agents, run_connector, run_connector_via, wait_status};
use serde_json::{Value, json};

const AGENTS: &str = r#"
[[agents]]
name = "greeter"
adapter = "command"
command = "sh"
args = ["-c", "echo hello; echo '{\"step\": 1}'; echo \"run $ACC_RUN_ID\"; echo sk-abcdefghijklmnopqrstuvwxyz0123 >&2; exit 0"]

[[agents]]
name = "sleeper"
adapter = "command"
command = "sh"
args = ["-c", "echo started; sleep 60"]
"#;

on_both_databases!(a_command_agent_runs_streams_and_cancels_through_the_real_connector, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let _connector = run_connector(&dir, &credential, AGENTS);
    let agents = online_agents(&f.owner, &f.project_id, 2).await;
    let agent = |name: &str| agents.iter().find(|a| a["name"] == name).unwrap()["id"].clone();
    assert_eq!(agents[0]["capabilities"], json!(["STREAM", "CANCEL"]));

    // Happy path: live events over graphql-transport-ws, from the first one to the end.
    let task = common::create_task(&f.owner, &f.project_id, "Greet").await;
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"greet\"}) { id } }",
            json!({"t": task["id"], "a": agent("greeter")}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    let mut events = f
        .owner
        .subscribe("subscription($r: ID!) { runEvents(runId: $r) { sequence kind data } }", json!({"r": run_id}))
        .await
        .unwrap();
    let mut seen = Vec::new();
    while let Ok(event) = events.next().await {
        let event = event["data"]["runEvents"].clone();
        let terminal = event["kind"] == "status" && event["data"]["status"] == "succeeded";
        seen.push(event);
        if terminal {
            break;
        }
    }
    let sequences: Vec<i64> = seen.iter().map(|e| e["sequence"].as_i64().unwrap()).collect();
    assert_eq!(sequences, (1..=seen.len() as i64).collect::<Vec<_>>(), "no gap, no duplicate");
    let outputs: Vec<&Value> = seen.iter().filter(|e| e["kind"] == "output").map(|e| &e["data"]).collect();
    // stdout and stderr are two pipes: their lines keep their order within a stream only.
    let stdout: Vec<&&Value> = outputs.iter().filter(|o| o["stream"] == "stdout").collect();
    assert_eq!(stdout[0]["line"], "hello");
    assert_eq!(stdout[1]["json"], json!({"step": 1}), "JSON lines keep their structure");
    let run_uuid = acc_api::ids::GlobalId::decode(&run_id).unwrap().id;
    assert_eq!(stdout[2]["line"], format!("run {run_uuid}"));
    let stderr = outputs.iter().find(|o| o["stream"] == "stderr").unwrap();
    assert!(!stderr.to_string().contains("sk-abcdefghij"), "secrets are redacted before they leave the host: {stderr}");
    let result = seen.iter().find(|e| e["kind"] == "result").unwrap();
    assert_eq!(result["data"]["outcome"], "succeeded");
    wait_status(&f.owner, &run_id, "SUCCEEDED").await;

    // Cancel: the process group is stopped and the run ends cancelled.
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({"t": task["id"], "a": agent("sleeper")}),
        )
        .await;
    let sleeper = started.data("startRun")["id"].as_str().unwrap().to_owned();
    wait_status(&f.owner, &sleeper, "RUNNING").await;
    let cancelling = f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": sleeper})).await;
    assert_eq!(cancelling.data("cancelRun")["status"], "CANCELLING");
    wait_status(&f.owner, &sleeper, "CANCELLED").await;
    let page = f
        .owner
        .gql("query($r: ID!) { runEvents(runId: $r) { edges { node { kind data } } } }", json!({"r": sleeper}))
        .await;
    let result =
        page.data("runEvents")["edges"].as_array().unwrap().iter().find(|e| e["node"]["kind"] == "result").cloned();
    assert_eq!(result.unwrap()["node"]["data"]["outcome"], "cancelled", "the connector confirmed the cancel");
});

/// The output lines of a run as stored, after checking its event sequence has no gap.
async fn stored_output_lines(owner: &Client, run_id: &str) -> Vec<String> {
    let page = owner
        .gql(
            "query($r: ID!) { runEvents(runId: $r, first: 100) { edges { node { sequence kind data } } } }",
            json!({"r": run_id}),
        )
        .await;
    let stored: Vec<Value> =
        page.data("runEvents")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect();
    let sequences: Vec<i64> = stored.iter().map(|e| e["sequence"].as_i64().unwrap()).collect();
    assert_eq!(sequences, (1..=stored.len() as i64).collect::<Vec<_>>(), "gap-free");
    stored.iter().filter(|e| e["kind"] == "output").map(|e| e["data"]["line"].as_str().unwrap().to_owned()).collect()
}

const TICKER: &str = r#"
[[agents]]
name = "ticker"
adapter = "command"
command = "sh"
args = ["-c", "i=1; while [ $i -le 200 ]; do echo tick $i; i=$((i+1)); sleep 0.05; done"]
"#;

on_both_databases!(a_connector_killed_mid_run_comes_back_and_loses_nothing_it_had, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let mut connector = run_connector(&dir, &credential, TICKER);
    let agents = online_agents(&f.owner, &f.project_id, 1).await;
    let task = common::create_task(&f.owner, &f.project_id, "Tick").await;
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({"t": task["id"], "a": agents[0]["id"]}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    wait_status(&f.owner, &run_id, "RUNNING").await;
    tokio::time::sleep(Duration::from_millis(600)).await;

    // SIGKILL: no goodbye, whatever was not yet acknowledged is only in the spool.
    let _ = connector.child.kill();
    let _ = connector.child.wait();
    connector = run_connector(&dir, &credential, TICKER);
    // It reports the run lost, and the run is retried from the start (a command has no session to
    // resume).
    let query = "query($id: ID!) { node(id: $id) { ... on TaskRun { attempts { number kind status } } } }";
    let attempts = loop {
        let node = f.owner.gql(query, json!({"id": run_id})).await;
        let attempts = node.data("node")["attempts"].clone();
        if attempts.as_array().unwrap().len() == 2 && attempts[1]["status"] == "RUNNING" {
            break attempts;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(attempts[0], json!({"number": 1, "kind": "START", "status": "LOST"}));
    assert_eq!(attempts[1]["kind"], "RETRY");
    f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { id } }", json!({"r": run_id})).await.data("cancelRun");
    wait_status(&f.owner, &run_id, "CANCELLED").await;
    let ticks = stored_output_lines(&f.owner, &run_id).await;
    let first_attempt = ticks.iter().skip(1).position(|t| t == "tick 1").map_or(ticks.len(), |i| i + 1);
    assert!(first_attempt >= 3, "the run produced output before the kill: {ticks:?}");
    let expected: Vec<String> = (1..=first_attempt).map(|i| format!("tick {i}")).collect();
    assert_eq!(ticks[..first_attempt], expected, "every line the dead connector read arrived once, in order");
    drop(connector);
});

/// Prints 60 numbered lines, one every 0.1 s.
const COUNTER: &str = r#"
[[agents]]
name = "counter"
adapter = "command"
command = "sh"
args = ["-c", "i=1; while [ $i -le 60 ]; do echo line $i; i=$((i+1)); sleep 0.1; done"]
"#;

on_both_databases!(live_runs_outlive_a_control_plane_crash_with_every_line_once, |db: TestDb| async move {
    let mut server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let mut connectors = Vec::new();
    for host in ["first", "second"] {
        let credential = enroll(&server, &f.owner, &f.workspace_id, &dir.join(host)).await;
        connectors.push(run_connector(&dir.join(host), &credential, COUNTER));
    }
    let agents = online_agents(&f.owner, &f.project_id, 2).await;
    let task = common::create_task(&f.owner, &f.project_id, "Count").await;
    let mut runs = Vec::new();
    // Two runs on the first connector's agent, one on the second's.
    for agent in [&agents[0], &agents[0], &agents[1]] {
        let started = f
            .owner
            .gql(
                "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
                json!({"t": task["id"], "a": agent["id"]}),
            )
            .await;
        runs.push(started.data("startRun")["id"].as_str().unwrap().to_owned());
    }
    for run in &runs {
        wait_status(&f.owner, run, "RUNNING").await;
        while stored_output_lines(&f.owner, run).await.len() < 3 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    // kill -9 mid-run; the agents go on, their connectors spool and reconnect.
    server.crash_and_restart().await;
    let owner = server.client().with_token(f.owner.token.as_deref().unwrap());
    for run in &runs {
        // A restart, and a reconnect after the connectors' backoff.
        common::wait_status_within(&owner, run, "SUCCEEDED", Duration::from_secs(90)).await;
    }
    for run in &runs {
        let lines = stored_output_lines(&owner, run).await;
        assert_eq!(lines, (1..=60).map(|i| format!("line {i}")).collect::<Vec<_>>(), "every line once, in order");
        let stored = common::events(&owner, run).await;
        let statuses: Vec<&str> =
            stored.iter().filter(|e| e["kind"] == "status").map(|e| e["data"]["status"].as_str().unwrap()).collect();
        assert_eq!(statuses, ["queued", "dispatching", "running", "succeeded"], "the crash ended no run");
        assert_eq!(stored.last().unwrap()["data"]["status"], "succeeded", "nothing after the end");
        let attempts = owner
            .gql(
                "query($id: ID!) { node(id: $id) { ... on TaskRun { attempts { kind status } } } }",
                json!({"id": run}),
            )
            .await;
        assert_eq!(attempts.data("node")["attempts"], json!([{"kind": "START", "status": "ENDED"}]));
    }
    drop(connectors);
});

/// Works until told to stop, then takes its time and still says something on its way out.
const CHATTY: &str = r#"read input
echo working
trap 'sleep 0.7; echo late 1; echo late 2; exit 0' TERM
while true; do sleep 0.1; done"#;

on_both_databases!(
    what_an_agent_says_after_its_run_ended_is_refused_and_dropped_by_its_connector,
    |db: TestDb| async move {
        // The control plane stops waiting for a cancelled run's agent after 100 ms (its sweeper
        // looks every lease/10 = 200 ms); this agent takes 700 ms, and the connector's grace
        // before SIGKILL is a second.
        let env = [("CANCEL_TIMEOUT_MS", "100"), ("LEASE_MS", "2000"), ("HEARTBEAT_INTERVAL_MS", "500")]
            .map(|(k, v)| (format!("ACC_RUNS__{k}"), v.to_owned()))
            .to_vec();
        let server = Server::start_with(db, ServerOptions { env, ..ServerOptions::default() }).await;
        let f = common::fixture(&server).await;
        let dir = server.db.dir.clone();
        let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
        let chatty = script(&dir, "chatty.sh", CHATTY);
        let agents = format!("[[agents]]\nname = \"chatty\"\nadapter = \"command\"\ncommand = {chatty:?}\n");
        let _connector = run_connector(&dir, &credential, &agents);
        online_agents(&f.owner, &f.project_id, 1).await;
        let task = common::create_task(&f.owner, &f.project_id, "Deploy").await;
        let started = f.owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
        let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
        wait_status(&f.owner, &run_id, "RUNNING").await;
        let cancelled =
            f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id})).await;
        assert_eq!(cancelled.data("cancelRun")["status"], "CANCELLING");
        wait_status(&f.owner, &run_id, "CANCELLED").await;

        // Its last words and its result come after the end: refused, and dropped from the spool
        // instead of being sent again at every reconnect. Each refusal drops what was sent so
        // far; the run's file goes once its agent has exited and its result was refused too.
        let dropped = || {
            let log = std::fs::read_to_string(dir.join("connector.log")).unwrap_or_default();
            log.contains("its unsent events are dropped")
        };
        let runs = dir.join("spool").join("runs");
        let held = || std::fs::read_dir(&runs).map_or(0, |entries| entries.count());
        for _ in 0..200 {
            if dropped() && held() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(dropped(), "the connector was told the run ended and dropped what it held");
        assert_eq!(held(), 0, "the connector still holds the ended run's events");
        let stored = common::events(&f.owner, &run_id).await;
        assert!(
            !stored.iter().any(|e| e["data"]["line"].as_str().is_some_and(|l| l.starts_with("late"))),
            "{stored:?}"
        );
        assert_eq!(stored.last().unwrap()["data"]["status"], "cancelled", "nothing is stored after the end");
    }
);

/// A TCP proxy in front of the server whose live connections can be cut, as a flaky network would.
struct CuttableProxy {
    address: std::net::SocketAddr,
    connections: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl CuttableProxy {
    async fn start(upstream: std::net::SocketAddr) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let connections: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>> = Default::default();
        let live = connections.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                live.lock().unwrap().push(task);
            }
        });
        Self { address, connections }
    }

    /// Drops every connection through the proxy at once; new ones are accepted again.
    /// Returns how many were live.
    fn cut(&self) -> usize {
        let mut connections = self.connections.lock().unwrap();
        let live = connections.iter().filter(|t| !t.is_finished()).count();
        for task in connections.drain(..) {
            task.abort();
        }
        live
    }

    /// Waits until a connection goes through the proxy (the connector reconnects after a backoff).
    async fn wait_connected(&self) {
        for _ in 0..200 {
            if self.connections.lock().unwrap().iter().any(|t| !t.is_finished()) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the connector did not reconnect through the proxy");
    }
}

on_both_databases!(a_cut_connection_is_resumed_without_loss_or_duplicates, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let upstream: std::net::SocketAddr = server.base_url().trim_start_matches("http://").parse().unwrap();
    let proxy = CuttableProxy::start(upstream).await;
    let agents = r#"
[[agents]]
name = "counter"
adapter = "command"
command = "sh"
args = ["-c", "i=1; while [ $i -le 60 ]; do echo line $i; i=$((i+1)); sleep 0.05; done"]
"#;
    let _connector = run_connector_via(&dir, &credential, Some(&format!("http://{}", proxy.address)), agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    let task = common::create_task(&f.owner, &f.project_id, "Count").await;
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({"t": task["id"], "a": online[0]["id"]}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    wait_status(&f.owner, &run_id, "RUNNING").await;
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        proxy.wait_connected().await;
        assert!(proxy.cut() >= 1, "the connector was connected through the proxy");
    }
    wait_status(&f.owner, &run_id, "SUCCEEDED").await;
    let lines = stored_output_lines(&f.owner, &run_id).await;
    assert_eq!(lines, (1..=60).map(|i| format!("line {i}")).collect::<Vec<_>>(), "all 60 lines, once each, in order");
});

/// Writes an executable agent script into the test's directory; returns its path.
fn script(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// An agent that asks before it deletes anything, and does it only if approved.
const CAREFUL: &str = r#"read input
echo '{"acc": "approval_request", "action": "rm -rf build", "reason": "stale artifacts"}'
read decision
case "$decision" in
  *'"approved":true'*) echo removed; exit 0 ;;
  *) echo kept; exit 1 ;;
esac"#;

on_both_databases!(an_agent_acts_only_after_a_person_approves_through_the_real_connector, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let careful = script(&dir, "careful.sh", CAREFUL);
    let agents =
        format!("[[agents]]\nname = \"careful\"\nadapter = \"command\"\ncommand = {careful:?}\ninteractive = true\n");
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    assert_eq!(online[0]["capabilities"], json!(["STREAM", "CANCEL", "APPROVALS", "CHECKPOINT"]));
    let mut inbox = f
        .owner
        .subscribe(
            "subscription($p: ID) { approvalUpdated(projectId: $p) { id action reason status } }",
            json!({"p": f.project_id}),
        )
        .await
        .unwrap();
    let task = common::create_task(&f.owner, &f.project_id, "Clean the build").await;

    for (decision, outcome, line) in [("APPROVE", "SUCCEEDED", "removed"), ("DENY", "FAILED", "kept")] {
        let started = f
            .owner
            .gql(
                "mutation($t: ID!) { startRun(taskId: $t, requiredCapabilities: [APPROVALS]) { id } }",
                json!({"t": task["id"]}),
            )
            .await;
        let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
        let pending = inbox.next().await.unwrap()["data"]["approvalUpdated"].clone();
        assert_eq!((pending["action"].as_str(), pending["status"].as_str()), (Some("rm -rf build"), Some("PENDING")));
        assert_eq!(pending["reason"], "stale artifacts");
        wait_status(&f.owner, &run_id, "WAITING_APPROVAL").await;
        assert!(stored_output_lines(&f.owner, &run_id).await.is_empty(), "nothing happened before the decision");
        let decided = f
            .owner
            .gql(
                "mutation($a: ID!, $d: ApprovalDecision!) { decideApproval(approvalId: $a, decision: $d, reason: \"checked\") { status } }",
                json!({"a": pending["id"], "d": decision}),
            )
            .await;
        assert_eq!(decided.data("decideApproval")["status"], if decision == "APPROVE" { "APPROVED" } else { "DENIED" });
        let live = inbox.next().await.unwrap()["data"]["approvalUpdated"].clone();
        assert_eq!(live["id"], pending["id"]);
        wait_status(&f.owner, &run_id, outcome).await;
        assert_eq!(
            stored_output_lines(&f.owner, &run_id).await,
            [line],
            "the agent acted on the decision it was given"
        );
    }
});

/// Works until asked for a checkpoint, saves one, and keeps going until it is stopped.
const SOURCE: &str = r#"read input
echo "working on it"
while read line; do
  case "$line" in
    *checkpoint_request*) echo '{"acc": "checkpoint", "state": {"done": 3}, "completed": ["step 1", "step 2", "step 3"], "pending": ["step 4"]}' ;;
  esac
done"#;

/// Reports the context it was started with: for a handoff, the bundle.
const TARGET: &str = r#"echo "$ACC_RUN_CONTEXT"
echo "took over""#;

on_both_databases!(a_run_is_handed_to_another_agent_through_the_real_connector, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let (source, target) = (script(&dir, "source.sh", SOURCE), script(&dir, "target.sh", TARGET));
    let agents = format!(
        "[[agents]]\nname = \"source\"\nadapter = \"command\"\ncommand = {source:?}\ninteractive = true\n\n\
         [[agents]]\nname = \"target\"\nadapter = \"command\"\ncommand = {target:?}\n"
    );
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 2).await;
    let agent = |name: &str| online.iter().find(|a| a["name"] == name).unwrap()["id"].clone();
    let task = common::create_task(&f.owner, &f.project_id, "Finish the migration").await;
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"migrate\"}) { id } }",
            json!({"t": task["id"], "a": agent("source")}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    wait_status(&f.owner, &run_id, "RUNNING").await;
    for _ in 0..100 {
        if stored_output_lines(&f.owner, &run_id).await == ["working on it"] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let handoff = f
        .owner
        .gql(
            "mutation($r: ID!, $a: ID!) { requestHandoff(runId: $r, targetAgentId: $a) { status } }",
            json!({"r": run_id, "a": agent("target")}),
        )
        .await;
    assert_eq!(handoff.data("requestHandoff")["status"], "CHECKPOINTING");
    wait_status(&f.owner, &run_id, "SUCCEEDED").await;

    let page = f
        .owner
        .gql(
            "query($r: ID!) { runEvents(runId: $r, first: 100) { edges { node { kind data } } } }",
            json!({"r": run_id}),
        )
        .await;
    let stored: Vec<Value> =
        page.data("runEvents")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect();
    let statuses: Vec<&str> =
        stored.iter().filter(|e| e["kind"] == "status").map(|e| e["data"]["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        ["queued", "dispatching", "running", "checkpointing", "handoff_ready", "dispatching", "running", "succeeded"]
    );
    let bundle = stored
        .iter()
        .find_map(|e| e["data"]["json"].get("provenance").map(|_| e["data"]["json"].clone()))
        .expect("the target printed the bundle it was started with");
    assert_eq!(bundle["objective"], "migrate");
    assert_eq!(bundle["checkpoint"]["data"]["state"], json!({"done": 3}));
    assert_eq!(bundle["completed_work"], json!(["step 1", "step 2", "step 3"]));
    assert_eq!(bundle["pending_work"], json!(["step 4"]));
    assert_eq!(bundle["conversation"][0]["data"]["line"], "working on it");
    let source_result = stored.iter().find(|e| e["kind"] == "result").unwrap();
    assert_eq!(source_result["data"]["outcome"], "cancelled", "the source agent was stopped after its checkpoint");
    assert!(stored.iter().any(|e| e["data"]["line"] == "took over"));
    let view = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on TaskRun { agent { name } attempts { kind status agent { name } } } } }",
            json!({"id": run_id}),
        )
        .await;
    assert_eq!(
        view.data("node"),
        &json!({
            "agent": {"name": "target"},
            "attempts": [
                {"kind": "START", "status": "HANDED_OFF", "agent": {"name": "source"}},
                {"kind": "HANDOFF", "status": "ENDED", "agent": {"name": "target"}},
            ]
        })
    );
});

/// A client certificate and key no connector CA ever issued.
fn foreign_identity(dir: &Path) -> (String, String) {
    let (key, certificate) = (dir.join("intruder.key"), dir.join("intruder.pem"));
    let output = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"])
        .args(["-subj", "/CN=intruder", "-keyout"])
        .arg(&key)
        .arg("-out")
        .arg(&certificate)
        .output()
        .unwrap();
    assert!(output.status.success(), "openssl: {}", String::from_utf8_lossy(&output.stderr));
    (std::fs::read_to_string(certificate).unwrap(), std::fs::read_to_string(key).unwrap())
}

on_both_databases!(over_tls_a_connector_is_admitted_only_with_the_certificate_it_was_issued, |db: TestDb| async move {
    let tls = acc_tests::tls::TestCertificates::create(&db.dir);
    let server =
        Server::start_with(db, acc_tests::ServerOptions { tls: Some(tls.clone()), ..Default::default() }).await;
    assert!(server.url.starts_with("https://"), "{}", server.url);
    assert!(server.log().contains("over this server's TLS"), "with TLS, connectors need their certificate by default");
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let server_ca = tls.ca.display().to_string();

    // A malformed certificate request is refused, and does not use the token up.
    let token = common::enrollment_token(&f.owner, &f.workspace_id).await;
    let https = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&std::fs::read(&tls.ca).unwrap()).unwrap())
        .build()
        .unwrap();
    let refused = https
        .post(format!("{}/v1/connectors/enroll", server.base_url()))
        .json(&json!({"token": token, "csr": "not a certificate request"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert_eq!(refused.json::<Value>().await.unwrap()["error"]["code"], "VALIDATION");
    let first = dir.join("first");
    let credential = enroll_with(&server, &token, &first, &["--server-ca", &server_ca]);
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&credential).unwrap()).unwrap();
    let identity = |c: &Value| {
        (c["client_certificate"].as_str().unwrap().to_owned(), c["client_key"].as_str().unwrap().to_owned())
    };
    let (certificate, key) = identity(&stored);
    assert!(certificate.starts_with("-----BEGIN CERTIFICATE-----") && key.contains("PRIVATE KEY"));

    // The real connector, over wss with its client certificate, runs an agent.
    let agents = format!("server_ca = {server_ca:?}\n{AGENTS}");
    let _connector = run_connector(&first, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 2).await;
    let greeter = online.iter().find(|a| a["name"] == "greeter").unwrap()["id"].clone();
    let task = common::create_task(&f.owner, &f.project_id, "Greet over TLS").await;
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({"t": task["id"], "a": greeter}),
        )
        .await;
    wait_status(&f.owner, started.data("startRun")["id"].as_str().unwrap(), "SUCCEEDED").await;

    let id: uuid::Uuid = stored["connector_id"].as_str().unwrap().parse().unwrap();
    let bearer = stored["credential"].as_str().unwrap();
    let dial = async |client: Option<(&str, &str)>| {
        let config = acc_connector::tls::client_config(Some(&tls.ca), client).unwrap();
        RawConnector::dial_tls(&server, id, bearer, config).await
    };
    // The credential alone is not enough over TLS.
    assert!(matches!(dial(None).await, Err(Ended::Refused(401))));
    // Nor is another connector's certificate.
    let token = common::enrollment_token(&f.owner, &f.workspace_id).await;
    let second = enroll_with(&server, &token, &dir.join("second"), &["--server-ca", &server_ca]);
    let (other_certificate, other_key) =
        identity(&serde_json::from_str(&std::fs::read_to_string(second).unwrap()).unwrap());
    assert!(matches!(dial(Some((&other_certificate, &other_key))).await, Err(Ended::Refused(401))));
    // A certificate the connector CA never issued does not get through the TLS handshake.
    let (foreign_certificate, foreign_key) = foreign_identity(&dir);
    assert!(matches!(dial(Some((&foreign_certificate, &foreign_key))).await, Err(Ended::Broken(_))));
    // Its own certificate with its own credential is admitted.
    let mut own = dial(Some((&certificate, &key))).await.unwrap();
    own.hello("greeter", vec![acc_protocol::Capability::Stream]).await;
});
