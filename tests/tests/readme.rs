//! README.md stays true: its walkthrough and "Run an agent behind a connector", followed
//! literally against a real `acc` and a real `acc-connector`. Every GraphQL operation, shell
//! command and connector file is taken from README.md (none is copied here), run in the README's
//! order with the variables it names, and answers what the README says it answers.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use acc_tests::{Client, Server, TestDb, on_both_databases};
use common::{connector_binary, wait_status};
use serde_json::{Value, json};

const README: &str = include_str!("../../README.md");

/// The GraphQL operations of the two sections, by name, in the README's order.
const OPERATIONS: &[&str] = &[
    "Bootstrap",
    "Viewer",
    "CreateWorkspace",
    "CreateProject",
    "CreateTasks",
    "Depend",
    "Tasks",
    "Watch",
    "Start",
    "SetSettings",
    "EffectiveSettings",
    "Remember",
    "Verify",
    "Recall",
    "Refresh",
    "Login",
    "Enroll",
    "Agents",
    "Run",
    "WatchRun",
    "Runs",
    "RunContext",
    "Approvals",
    "Inbox",
    "Decide",
    "Checkpoint",
    "Handoff",
    "Connectors",
    "Revoke",
    "Remove",
];

/// What README.md's walkthrough sections hold, block by block.
struct Readme {
    /// (operation name, document)
    graphql: Vec<(String, String)>,
    /// The `connector.toml` blocks of "Run an agent behind a connector".
    toml: Vec<String>,
    /// Every shell block, with the section it is in.
    sh: Vec<(String, String)>,
}

impl Readme {
    fn parse() -> Self {
        let start = README.find("## Five-minute walkthrough").expect("the walkthrough");
        let end = README.find("## Further reading").expect("the section after it");
        let mut readme = Readme { graphql: Vec::new(), toml: Vec::new(), sh: Vec::new() };
        let (mut section, mut block): (String, Option<(String, String)>) = (String::new(), None);
        for line in README[start..end].lines() {
            match &mut block {
                Some((_, text)) if line != "```" => {
                    text.push_str(line);
                    text.push('\n');
                }
                Some(_) => {
                    let (lang, text) = block.take().unwrap();
                    match lang.as_str() {
                        "graphql" => {
                            let name = text.split_whitespace().nth(1).unwrap();
                            let name = name.split(['(', '{']).next().unwrap().to_owned();
                            readme.graphql.push((name, text));
                        }
                        "toml" => readme.toml.push(text),
                        "sh" => readme.sh.push((section.clone(), text)),
                        _ => {}
                    }
                }
                None => {
                    if let Some(heading) = line.strip_prefix("## ") {
                        section = heading.to_owned();
                    } else if let Some(lang) = line.strip_prefix("```") {
                        block = Some((lang.to_owned(), String::new()));
                    }
                }
            }
        }
        readme
    }

    fn op(&self, name: &str) -> &str {
        &self.graphql.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no operation {name}")).1
    }

    /// The `acc-connector` commands of the connector section, continuation lines joined.
    fn connector_commands(&self) -> Vec<String> {
        self.sh
            .iter()
            .filter(|(section, _)| section == "Run an agent behind a connector")
            .flat_map(|(_, text)| text.replace("\\\n", " ").lines().map(str::to_owned).collect::<Vec<_>>())
            .filter(|line| line.starts_with("./target/release/acc-connector"))
            .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    /// The shell block that calls the API with curl.
    fn curl(&self) -> &str {
        &self.sh.iter().find(|(_, text)| text.contains("curl")).expect("the curl example").1
    }
}

/// A README command, pointed at this test's binaries and server.
fn localize(command: &str, server: &Server, token: &str) -> String {
    command
        .replace("./target/release/acc-connector", connector_binary().to_str().unwrap())
        .replace("http://127.0.0.1:8080", &server.base_url())
        .replace("<new token>", token)
        .replace("<token>", token)
}

fn shell(command: &str, dir: &Path) -> String {
    let output = Command::new("sh").arg("-c").arg(command).current_dir(dir).output().unwrap();
    assert!(output.status.success(), "{command}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// `acc-connector run` as the README starts it: in the foreground of `dir`, until Ctrl-C.
struct Connector {
    child: Child,
}

impl Connector {
    fn start(command: &str, dir: &Path) -> Self {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(dir.join("connector.log")).unwrap();
        let child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .current_dir(dir)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        Self { child }
    }

    /// Ctrl-C, and wait until it has stopped.
    fn stop(&mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
        assert!(self.child.wait().unwrap().success(), "the connector stops cleanly on Ctrl-C");
    }
}

impl Drop for Connector {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn id(value: &Value) -> String {
    value["id"].as_str().unwrap().to_owned()
}

/// `Agents`, once every agent in `names` is online; by name.
async fn agents_online(client: &Client, readme: &Readme, project: &str, names: &[&str]) -> Vec<Value> {
    // Generous: a connector that was refused reconnects after a backoff of up to 10 s.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let mut last = Value::Null;
    while tokio::time::Instant::now() < deadline {
        last = client.gql(readme.op("Agents"), json!({"projectId": project})).await.data("agents").clone();
        let online = |name: &&str| last.as_array().unwrap().iter().any(|a| a["name"] == *name && a["online"] == true);
        if names.iter().all(online) {
            return last.as_array().unwrap().clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("agents {names:?} never all came online: {last}");
}

fn online<'a>(agents: &'a [Value], name: &str) -> &'a Value {
    agents.iter().find(|a| a["name"] == name && a["online"] == true).unwrap()
}

/// The output lines of a run (text, or the JSON of a JSON line).
async fn outputs(client: &Client, run_id: &str) -> Vec<Value> {
    let events = common::events(client, run_id).await;
    events
        .iter()
        .filter(|e| e["kind"] == "output")
        .map(|e| e["data"].get("line").cloned().unwrap_or_else(|| e["data"]["json"].clone()))
        .collect()
}

/// The run of `Runs` with this id.
async fn run_of(client: &Client, readme: &Readme, task: &str, run_id: &str) -> Value {
    let runs = client.gql(readme.op("Runs"), json!({"taskId": task})).await;
    runs.data("node")["runs"].as_array().unwrap().iter().find(|r| r["id"] == run_id).unwrap().clone()
}

/// The next approval event that is not about an approval already seen.
async fn next_approval(feed: &mut acc_tests::Subscription, status: &str) -> Value {
    loop {
        let event = feed.next().await.unwrap()["data"]["approvalUpdated"].clone();
        if event["status"] == status {
            return event;
        }
    }
}

#[test]
fn the_readme_has_the_operations_the_walkthrough_runs() {
    let readme = Readme::parse();
    let names: Vec<&str> = readme.graphql.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, OPERATIONS, "README.md's operations, in order; the walkthrough test runs each of these");
    assert_eq!(readme.toml.len(), 3, "three connector.toml blocks");
    assert!(readme.toml[0].contains("credential = "), "the first is a whole connector.toml");
    assert_eq!(readme.connector_commands().len(), 3, "enroll, run, enroll --force: {:?}", readme.connector_commands());
}

on_both_databases!(the_readme_walkthrough_runs_as_written, |db: TestDb| async move {
    let readme = Readme::parse();
    let server = Server::start(db).await;
    let anonymous = server.client();

    // 1. Become the owner.
    let code = server.bootstrap_code.clone().unwrap();
    let bootstrap = anonymous.gql(&readme.op("Bootstrap").replace("acc_boot_…", &code), json!({})).await;
    let signed_in = bootstrap.data("redeemBootstrap").clone();
    assert_eq!(signed_in["user"]["email"], "owner@acme.test");
    let first_access = signed_in["accessToken"].as_str().unwrap().to_owned();
    let first_refresh = signed_in["refreshToken"].as_str().unwrap().to_owned();

    // 2. Send the token.
    let owner = anonymous.with_token(&first_access);
    let viewer = owner.gql(readme.op("Viewer"), json!({})).await.data("viewer").clone();
    assert_eq!((&viewer["email"], &viewer["organization"]["name"]), (&json!("owner@acme.test"), &json!("Acme")));
    let organization = id(&viewer["organization"]);

    // 3. A workspace, a project and two tasks.
    let workspace = owner.gql(readme.op("CreateWorkspace"), json!({})).await.data("createWorkspace").clone();
    assert_eq!(workspace["name"], "Platform");
    let workspace = id(&workspace);
    let project = owner.gql(readme.op("CreateProject"), json!({"workspaceId": workspace})).await;
    let project = id(project.data("createProject"));
    let tasks = owner.gql(readme.op("CreateTasks"), json!({"projectId": project})).await;
    let (design, build) = (tasks.body["data"]["design"].clone(), tasks.body["data"]["build"].clone());
    assert_eq!((design["title"].as_str(), design["revision"].as_i64()), (Some("Design the landing page"), Some(1)));
    let (design, build) = (id(&design), id(&build));

    // 4. Building waits for design; the other way round is a cycle.
    let depend = owner.gql(readme.op("Depend"), json!({"build": build, "design": design})).await;
    assert_eq!(depend.data("addTaskDependency")["dependencies"], json!([{"title": "Design the landing page"}]));
    let cycle = owner.gql(readme.op("Depend"), json!({"build": design, "design": build})).await;
    let error = cycle.expect_code("VALIDATION");
    let path = "Design the landing page → Build the landing page → Design the landing page";
    assert!(error["message"].as_str().unwrap().contains(path), "{error}");
    let ids = error["extensions"]["details"]["cycle"].as_array().unwrap();
    assert!(ids.contains(&json!(design)) && ids.contains(&json!(build)), "{error}");

    // 5. The tasks with their dependencies.
    let listed = owner.gql(readme.op("Tasks"), json!({"projectId": project})).await;
    let nodes: Vec<Value> =
        listed.data("tasks")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect();
    let node = |title: &str| nodes.iter().find(|n| n["title"] == title).unwrap().clone();
    assert_eq!(node("Build the landing page")["dependencies"], json!([{"title": "Design the landing page"}]));
    assert_eq!(node("Design the landing page")["dependents"], json!([{"title": "Build the landing page"}]));

    // 6. Task events, live; a stale revision is a conflict.
    let mut watch = owner.subscribe(readme.op("Watch"), json!({"projectId": project})).await.unwrap();
    let started = owner.gql(readme.op("Start"), json!({"id": design})).await;
    assert_eq!(started.data("updateTask")["revision"], 2);
    let event = watch.next().await.unwrap()["data"]["taskEvents"].clone();
    assert_eq!(event["kind"], "UPDATED");
    assert_eq!(event["task"], json!({"title": "Design the landing page", "status": "IN_PROGRESS", "revision": 2}));
    let stale = owner.gql(readme.op("Start"), json!({"id": design})).await;
    assert_eq!(stale.expect_code("CONFLICT")["extensions"]["details"]["currentRevision"], 2);

    // The same API from a shell, twice with one idempotency key: one workspace.
    let dir = server.db.dir.join("walkthrough");
    std::fs::create_dir_all(&dir).unwrap();
    let curl = localize(readme.curl(), &server, "").replace("TOKEN='eyJ…'", &format!("TOKEN='{first_access}'"));
    let created: Vec<Value> = (0..2).map(|_| serde_json::from_str(&shell(&curl, &dir)).unwrap()).collect();
    assert_eq!(created[0]["data"]["createWorkspace"]["name"], "Research");
    assert_eq!(created[0], created[1], "the same workspace, not a second one");

    // 7. Settings: layers and where each effective value comes from.
    let set = |scope: &str, patch: Value, revision: i64| {
        owner.gql(readme.op("SetSettings"), json!({"scopeId": scope, "patch": patch, "expectedRevision": revision}))
    };
    let org_layer = set(&organization, json!({"model": "small", "review": {"required": true}}), 0).await;
    assert_eq!(org_layer.data("setSettings")["revision"], 1);
    let project_layer = set(&project, json!({"model": "large"}), 0).await;
    assert_eq!(project_layer.data("setSettings")["revision"], 1);
    set(&project, json!({"model": "huge"}), 0).await.expect_code("CONFLICT");
    let effective = owner.gql(readme.op("EffectiveSettings"), json!({"scopeId": design})).await;
    assert_eq!(
        effective.data("effectiveSettings")["entries"],
        json!([
            {"key": "model", "value": "large", "sourceScopeKind": "project"},
            {"key": "review.required", "value": true, "sourceScopeKind": "organization"},
        ])
    );

    // 8. Memory: written unverified, verified by a person, found from the task below the project.
    let remembered = owner.gql(readme.op("Remember"), json!({"scopeId": project})).await;
    let entry = remembered.data("writeMemory")["entry"].clone();
    assert_eq!((&entry["revision"], &entry["current"]["verification"]), (&json!(1), &json!("UNVERIFIED")));
    let verified = owner.gql(readme.op("Verify"), json!({"entryId": entry["id"]})).await;
    assert_eq!(verified.data("verifyMemory")["current"]["verification"], "VERIFIED");
    let recalled = owner.gql(readme.op("Recall"), json!({"scopeId": design})).await;
    let hit = &recalled.data("memory")[0];
    assert_eq!(hit["entry"]["subject"], "landing page greeting");
    assert_eq!(hit["entry"]["current"]["verification"], "VERIFIED");
    assert!(hit["foundBy"].as_array().unwrap().contains(&json!("FULL_TEXT")), "{hit}");

    // 9. A refresh token works once; sending it again ends the whole session.
    let refreshed = anonymous.gql(readme.op("Refresh"), json!({"refreshToken": first_refresh})).await;
    let refreshed = refreshed.data("refreshSession").clone();
    let renewed = anonymous.with_token(refreshed["accessToken"].as_str().unwrap());
    renewed.gql(readme.op("Viewer"), json!({})).await.data("viewer");
    anonymous.gql(readme.op("Refresh"), json!({"refreshToken": first_refresh})).await.expect_code("UNAUTHENTICATED");
    renewed.gql(readme.op("Viewer"), json!({})).await.expect_code("UNAUTHENTICATED");
    anonymous
        .gql(readme.op("Refresh"), json!({"refreshToken": refreshed["refreshToken"]}))
        .await
        .expect_code("UNAUTHENTICATED");
    let login = anonymous.gql(readme.op("Login"), json!({})).await;
    let owner = anonymous.with_token(login.data("login")["accessToken"].as_str().unwrap());
    owner.gql(readme.op("Viewer"), json!({})).await.data("viewer");

    // Run an agent behind a connector: enroll under the token's name.
    let commands = readme.connector_commands();
    let (enroll_command, run_command, reenroll_command) = (&commands[0], &commands[1], &commands[2]);
    let token = owner.gql(readme.op("Enroll"), json!({"workspaceId": workspace})).await;
    let token = token.data("createEnrollmentToken")["token"].as_str().unwrap().to_owned();
    shell(&localize(enroll_command, &server, &token), &dir);
    let run_command = localize(run_command, &server, "");
    let config = dir.join("connector.toml");
    std::fs::write(&config, &readme.toml[0]).unwrap();
    let mut connector = Connector::start(&run_command, &dir);
    let agents = agents_online(&owner, &readme, &project, &["greeter"]).await;
    let greeter = online(&agents, "greeter");
    assert_eq!(greeter["capabilities"], json!(["STREAM", "CANCEL"]));
    assert_eq!(greeter["connector"]["name"], "build-host-1");

    // A run, watched from its first event to its last.
    let start_run = async |agent: &Value, input: Value| {
        let run = owner.gql(readme.op("Run"), json!({"taskId": design, "agentId": agent["id"], "input": input})).await;
        id(run.data("startRun"))
    };
    let run = start_run(greeter, json!({"objective": "greet the landing page's visitors"})).await;
    let mut events = owner.subscribe(readme.op("WatchRun"), json!({"runId": run})).await.unwrap();
    let mut seen = Vec::new();
    let end = loop {
        match events.next().await {
            Ok(event) => seen.push(event["data"]["runEvents"].clone()),
            Err(end) => break end,
        }
    };
    assert!(end.contains("complete"), "the subscription completes after the run ends: {end}");
    let summary: Vec<Value> = seen
        .iter()
        .filter(|e| e["kind"] != "output" || e["data"]["stream"] == "stdout")
        .map(|e| match e["kind"].as_str().unwrap() {
            "status" => json!(["status", e["data"]["status"]]),
            "output" => json!(["output", e["data"].get("line").unwrap_or(&e["data"]["json"])]),
            kind => json!([kind]),
        })
        .collect();
    assert_eq!(
        summary,
        json!([
            ["status", "queued"], ["status", "dispatching"], ["status", "running"], ["started"],
            ["output", "hello"], ["output", {"step": 1}], ["output", "done"], ["result"], ["status", "succeeded"],
        ])
        .as_array()
        .unwrap()
        .clone(),
        "{seen:?}"
    );
    let greeting = run.clone();
    let greeted = run_of(&owner, &readme, &design, &greeting).await;
    assert_eq!(greeted["status"], "SUCCEEDED");
    assert_eq!(
        greeted["attempts"],
        json!([{"number": 1, "kind": "START", "status": "ENDED", "agent": {"name": "greeter"}}])
    );
    // What it was given: the objective and the verified memory entry of step 8.
    let context = owner.gql(readme.op("RunContext"), json!({"runId": greeting})).await;
    let context = context.data("runContext");
    assert_eq!(context["tokenBudget"], 8000);
    let items: Vec<(&str, &str, bool)> = context["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["kind"].as_str().unwrap(), i["title"].as_str().unwrap(), i["included"].as_bool().unwrap()))
        .collect();
    assert_eq!(items, [("OBJECTIVE", "Objective", true), ("MEMORY", "landing page greeting", true)], "{context}");

    // Approve before the agent acts: the connector restarted with `careful` added.
    connector.stop();
    std::fs::write(&config, [readme.toml[0].as_str(), &readme.toml[1]].concat()).unwrap();
    let mut connector = Connector::start(&run_command, &dir);
    let agents = agents_online(&owner, &readme, &project, &["greeter", "careful"]).await;
    let careful = online(&agents, "careful").clone();
    let mut inbox = owner.subscribe(readme.op("Approvals"), json!({})).await.unwrap();
    let approved_file = dir.join("approved.txt");
    for (decision, outcome, line) in
        [("APPROVE", "SUCCEEDED", "wrote approved.txt"), ("DENY", "FAILED", "denied: wrote nothing")]
    {
        let run = start_run(&careful, Value::Null).await;
        let pending = next_approval(&mut inbox, "PENDING").await;
        assert_eq!(pending["action"], "write approved.txt");
        wait_status(&owner, &run, "WAITING_APPROVAL").await;
        let listed = owner.gql(readme.op("Inbox"), json!({})).await;
        let request = listed.data("approvals")["edges"][0]["node"].clone();
        assert_eq!(request["id"], pending["id"]);
        assert_eq!(request["reason"], "the walkthrough asks");
        assert_eq!(request["run"], json!({"id": run, "status": "WAITING_APPROVAL"}));
        assert!(!approved_file.exists(), "nothing is written before a person decides");
        let decided = owner.gql(readme.op("Decide"), json!({"id": pending["id"], "decision": decision})).await;
        assert_eq!(decided.data("decideApproval")["status"], if decision == "APPROVE" { "APPROVED" } else { "DENIED" });
        wait_status(&owner, &run, outcome).await;
        assert_eq!(outputs(&owner, &run).await, [json!(line)]);
        if decision == "APPROVE" {
            assert_eq!(std::fs::read_to_string(&approved_file).unwrap(), "the operator said yes\n");
            std::fs::remove_file(&approved_file).unwrap();
        }
    }
    assert!(!approved_file.exists(), "a denied agent wrote nothing");

    // Checkpoint and hand off: the connector restarted with `worker` and `reviewer` added.
    connector.stop();
    std::fs::write(&config, readme.toml.concat()).unwrap();
    let mut connector = Connector::start(&run_command, &dir);
    let agents = agents_online(&owner, &readme, &project, &["greeter", "careful", "worker", "reviewer"]).await;
    let (worker, reviewer) = (online(&agents, "worker").clone(), online(&agents, "reviewer").clone());
    let run = start_run(&worker, json!({"objective": "build the landing page"})).await;
    wait_status(&owner, &run, "RUNNING").await;
    let checkpoint = owner.gql(readme.op("Checkpoint"), json!({"runId": run})).await;
    assert_eq!(checkpoint.data("requestCheckpoint")["status"], "CHECKPOINTING");
    wait_status(&owner, &run, "RUNNING").await;
    let handoff = owner.gql(readme.op("Handoff"), json!({"runId": run, "targetAgentId": reviewer["id"]})).await;
    assert_eq!(handoff.data("requestHandoff")["status"], "CHECKPOINTING");
    wait_status(&owner, &run, "SUCCEEDED").await;
    let handed = run_of(&owner, &readme, &design, &run).await;
    assert_eq!(
        handed["attempts"],
        json!([
            {"number": 1, "kind": "START", "status": "HANDED_OFF", "agent": {"name": "worker"}},
            {"number": 2, "kind": "HANDOFF", "status": "ENDED", "agent": {"name": "reviewer"}},
        ])
    );
    let lines = outputs(&owner, &run).await;
    assert_eq!(lines[..2], [json!("step 1 of 3 done"), json!("taking over")]);
    let bundle = &lines[2];
    assert_eq!(bundle["objective"], "build the landing page");
    assert_eq!(bundle["checkpoint"]["data"]["state"], json!({"step": 1}));
    assert_eq!(
        (&bundle["completed_work"], &bundle["pending_work"]),
        (&json!(["step 1"]), &json!(["step 2", "step 3"]))
    );

    // Out of service and back: revoked, enrolled again without a restart, the old one removed.
    let listed = owner.gql(readme.op("Connectors"), json!({})).await;
    let old = listed.data("connectors")[0].clone();
    assert_eq!((&old["name"], &old["online"]), (&json!("build-host-1"), &json!(true)));
    let revoked = owner.gql(readme.op("Revoke"), json!({"connectorId": old["id"]})).await;
    let revoked = revoked.data("revokeConnector");
    assert_eq!(revoked["online"], false);
    assert!(revoked["revokedAt"].is_string());
    let token = owner.gql(readme.op("Enroll"), json!({"workspaceId": workspace})).await;
    let token = token.data("createEnrollmentToken")["token"].as_str().unwrap().to_owned();
    shell(&localize(reenroll_command, &server, &token), &dir);
    let all = ["greeter", "careful", "worker", "reviewer"];
    let agents = agents_online(&owner, &readme, &project, &all).await;
    assert_eq!(agents.len(), 8, "each agent twice, the revoked connector's offline: {agents:?}");
    assert!(connector.child.try_wait().unwrap().is_none(), "the same connector process came back");
    let listed = owner.gql(readme.op("Connectors"), json!({})).await;
    let new = listed.data("connectors").as_array().unwrap().iter().find(|c| c["id"] != old["id"]).unwrap().clone();
    assert_eq!((&new["name"], &new["online"]), (&json!("build-host-1"), &json!(true)));
    owner.gql(readme.op("Remove"), json!({"connectorId": new["id"]})).await.expect_code("VALIDATION");
    let removed = owner.gql(readme.op("Remove"), json!({"connectorId": old["id"]})).await;
    assert!(removed.data("removeConnector")["removedAt"].is_string());
    let listed = owner.gql(readme.op("Connectors"), json!({})).await;
    assert_eq!(listed.data("connectors").as_array().unwrap().len(), 1);
    let agents = agents_online(&owner, &readme, &project, &all).await;
    assert_eq!(agents.len(), 4, "each agent once, online: {agents:?}");
    let greeted = run_of(&owner, &readme, &design, &greeting).await;
    assert_eq!(greeted["attempts"][0]["agent"]["name"], "greeter", "the runs it did still name its agents");
    connector.stop();
});
