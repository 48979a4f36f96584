//! The integrators' dashboard examples (docs/integrators.md) run against a real server, as
//! someone would run them: the TypeScript one with graphql-ws under Node.js 24, the Python one
//! with gql. Each prints the project's runs by status and agent and what they used, with an API
//! token that only reads, then follows the project's run updates live.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use acc_api::ids::{GlobalId, NodeKind};
use acc_protocol::{Capability, EventKind};
use acc_tests::{Server, TestDb};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/integrators").join(name)
}

struct Running {
    child: Child,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Running {
    fn start(mut command: Command, server: &Server, token: &str, args: &[&str]) -> Self {
        command.args(args).env("ACC_URL", server.base_url()).env("ACC_TOKEN", token).stdout(Stdio::piped());
        let mut child = command.kill_on_drop(true).spawn().expect("the example starts");
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Self { child, lines }
    }

    /// The next JSON line the example printed.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), self.lines.next_line()).await;
        let line = line.expect("a line in time").unwrap().expect("a line before the example ended");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    async fn ends_well(mut self) {
        let status = tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await.unwrap().unwrap();
        assert!(status.success(), "the example exited with {status}");
    }
}

/// The TypeScript example under the pinned Node.js 24, beside its pinned packages.
fn typescript() -> Command {
    let node = acc_tests::runtimes::npm_bin("node");
    let packages = acc_tests::runtimes::npm_packages("npm-integrators");
    // Resolved from where the script is: a copy beside its node_modules.
    let script = packages.join("dashboard.ts");
    std::fs::copy(example("dashboard.ts"), &script).unwrap();
    let mut command = Command::new(node);
    command.arg("--disable-warning=ExperimentalWarning").arg(script);
    command
}

fn python() -> Command {
    let mut command = Command::new(acc_tests::runtimes::pip_bin("pip-gql", "python"));
    command.arg(example("dashboard.py"));
    command
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_and_python_dashboards_read_runs_usage_and_live_updates() {
    let (typescript, python) =
        tokio::task::spawn_blocking(|| (typescript(), python())).await.expect("the examples' packages install");
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (mut connector, _) = common::raw_connector(&server, &f).await;
    let agent = connector.hello("reviewer", vec![Capability::Stream, Capability::UsageExact]).await;
    let task = common::create_task(owner, &f.project_id, "Review the release").await;
    owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await.data("startRun");
    let (run, _) = connector.accept_start().await;
    let usage =
        json!({"source": "gateway", "requests": 2, "input_tokens": 1200, "output_tokens": 300, "cost_usd": 0.5});
    assert_eq!(connector.emit(connector.event(run, 1, EventKind::Usage, usage)).await, Ok(1));
    let ended = connector.event(run, 2, EventKind::Result, json!({"outcome": "succeeded"}));
    assert_eq!(connector.emit(ended).await, Ok(2));
    let token =
        owner.gql("mutation { createApiToken(name: \"dashboard\", scopes: [READ]) { secret } }", json!({})).await;
    let token = token.data("createApiToken")["secret"].as_str().unwrap().to_owned();
    let agent_id = GlobalId::new(NodeKind::Agent, agent).encode();

    // Each language's live run has ended by the next one's snapshot.
    for (runs, (language, command)) in (1..).zip([("typescript", typescript), ("python", python)]) {
        let mut dashboard = Running::start(command, &server, &token, &[&f.project_id, "--follow", "1"]);
        let snapshot = dashboard.next().await;
        assert_eq!(
            snapshot,
            json!({
                "runs": runs,
                "finished": runs,
                "byStatus": {"SUCCEEDED": runs},
                "byAgent": [{"agent": "reviewer", "runs": runs}],
                "tokens": 1500,
                "tokensAre": "MEASURED",
                "costUsd": 0.5,
                "tokensByAgent": {"reviewer": 1500},
            }),
            "{language}"
        );
        assert_eq!(dashboard.next().await, json!({"following": f.project_id}), "{language}");
        // A run started now reaches the dashboard live.
        let task = common::create_task(owner, &f.project_id, &format!("Live for {language}")).await;
        let started = json!({"t": task["id"], "a": agent_id});
        let started =
            owner.gql("mutation($t: ID!, $a: ID) { startRun(taskId: $t, agentId: $a) { id } }", started).await;
        let update = dashboard.next().await;
        assert_eq!(update["run"], started.data("startRun")["id"], "{language}");
        dashboard.ends_well().await;
        let (next, _) = connector.accept_start().await;
        let done = connector.event(next, 1, EventKind::Result, json!({"outcome": "succeeded"}));
        assert_eq!(connector.emit(done).await, Ok(1));
    }
}
