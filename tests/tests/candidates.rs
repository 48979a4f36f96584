//! Candidates through the real server: a change to a project's settings and skill selection is
//! proposed against the revision its proposer saw, tried on a task beside the current composition
//! (two runs, each started with its own settings and skills), compared once both ended, approved by
//! a person and applied once, atomically. A scope that changed since the proposal applies nothing;
//! bad input and callers without the right are refused and change nothing.

mod common;

use acc_protocol::{Capability, Command, CommandOutcome, EventKind};
use acc_tests::connector_client::RawConnector;
use acc_tests::{Client, Server, TestDb, on_both_databases, op};
use common::{Fixture, notes_package, skill_md, zip};
use serde_json::{Value, json};
use uuid::Uuid;

const FIELDS: &str = "id status expectedRevision settingsPatch comparison receipt decisionReason \
                      baseline { settings skills { id } } candidate { settings skills { id } } \
                      baselineRun { id skills { name } } candidateRun { id skills { name } }";

async fn imported_version(owner: &Client, archive: Vec<u8>) -> (String, String) {
    let (status, imported) = owner.post_bytes("/v1/skills", archive, &[]).await;
    assert_eq!(status, 201, "{imported}");
    let version = imported["version"]["id"].as_str().unwrap().to_owned();
    let review =
        "mutation($v: ID!) { reviewSkillVersion(versionId: $v, decision: APPROVE, reason: \"read it\") { id } }";
    owner.gql(review, json!({"v": version})).await.data("reviewSkillVersion");
    (version, imported["skill"]["id"].as_str().unwrap().to_owned())
}

fn changelog_package() -> Vec<u8> {
    zip("changelog", &[("SKILL.md", skill_md("changelog", "Keeps the changelog.").as_str())])
}

async fn set_budget(owner: &Client, scope: &str, budget: i64, revision: i64) -> Value {
    let patch = json!({"context": {"tokenBudget": budget}});
    let set =
        owner.gql(op!("set_settings"), json!({"scopeId": scope, "patch": patch, "expectedRevision": revision})).await;
    set.data("setSettings").clone()
}

async fn budget_of(owner: &Client, scope: &str) -> Value {
    let effective = owner
        .gql("query($s: ID!) { effectiveSettings(scopeId: $s) { entries { key value } } }", json!({"s": scope}))
        .await;
    let entries = effective.data("effectiveSettings")["entries"].as_array().unwrap().clone();
    entries.into_iter().find(|e| e["key"] == "context.tokenBudget").map(|e| e["value"].clone()).unwrap_or_default()
}

async fn active_skills(owner: &Client, scope: &str) -> Vec<String> {
    let listed = owner
        .gql("query($s: ID!) { skillActivations(scopeId: $s) { status version { id } } }", json!({"s": scope}))
        .await;
    let mut ids: Vec<String> = listed
        .data("skillActivations")
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["status"] == "ACTIVE")
        .map(|a| a["version"]["id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

async fn propose(owner: &Client, scope: &str, revision: i64, patch: Value) -> acc_tests::GqlResponse {
    let document = format!(
        "mutation($s: ID!, $r: Int!, $p: CandidatePatchInput!) {{ proposeCandidate(scopeId: $s, expectedRevision: $r, patch: $p) {{ {FIELDS} }} }}"
    );
    owner.gql(&document, json!({"s": scope, "r": revision, "p": patch})).await
}

async fn act(owner: &Client, mutation: &str, candidate: &str, extra: &str) -> acc_tests::GqlResponse {
    let document = format!("mutation($c: ID!) {{ {mutation}(candidateId: $c{extra}) {{ {FIELDS} }} }}");
    owner.gql(&document, json!({"c": candidate})).await
}

async fn run_context_budget(owner: &Client, run: &str) -> Value {
    let context = owner.gql("query($r: ID!) { runContext(runId: $r) { tokenBudget } }", json!({"r": run})).await;
    context.data("runContext")["tokenBudget"].clone()
}

/// Where a run's agent attaches files: the server, and the credential of the connector running it.
struct Attaching<'a> {
    base_url: String,
    credential: &'a str,
}

/// The files each run's agent attaches when `tried` is given where: the same log, notes that
/// differ, and a file only the candidate writes.
const BASELINE_FILES: [(&str, &str); 2] = [("build.log", "ok"), ("notes.md", "Release 1.4")];
const CANDIDATE_FILES: [(&str, &str); 3] =
    [("build.log", "ok"), ("notes.md", "Release 1.4, shorter"), ("todo.md", "x")];

async fn attach(to: &Attaching<'_>, run: Uuid, name: &str, body: &'static str) {
    let response = reqwest::Client::new()
        .put(format!("{}/v1/connectors/runs/{run}/artifacts", to.base_url))
        .query(&[("name", name)])
        .bearer_auth(to.credential)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 201);
}

/// Prepares `candidate` on `task` with `connector`'s agent, has each run attach its files when
/// told where, ends both runs as succeeded and compares them: the candidate as `compareCandidate`
/// returned it.
async fn tried(
    f: &Fixture,
    connector: &mut RawConnector,
    agent: &str,
    candidate: &str,
    task: &str,
    files: Option<&Attaching<'_>>,
) -> Value {
    let prepare = format!(
        "mutation($c: ID!, $t: ID!, $a: ID!) {{ prepareCandidate(candidateId: $c, taskId: $t, agentId: $a) {{ {FIELDS} }} }}"
    );
    let prepared = f.owner.gql(&prepare, json!({"c": candidate, "t": task, "a": agent})).await;
    let prepared = prepared.data("prepareCandidate").clone();
    assert_eq!(prepared["status"], "PREPARED");
    let mut started = Vec::new();
    for _ in 0..2 {
        let (command_id, command) = connector.command().await;
        let Command::StartRun { run_id, .. } = command else { panic!("expected a start, got {command:?}") };
        connector.answer(command_id, CommandOutcome::Accepted).await;
        started.push(run_id);
    }
    let baseline: Uuid = acc_api::ids::GlobalId::decode_as(
        prepared["baselineRun"]["id"].as_str().unwrap(),
        acc_api::ids::NodeKind::TaskRun,
    )
    .unwrap();
    if let Some(files) = files {
        for &run_id in &started {
            let written: &[(&str, &'static str)] = if run_id == baseline { &BASELINE_FILES } else { &CANDIDATE_FILES };
            for (name, body) in written {
                attach(files, run_id, name, body).await;
            }
        }
    }
    for run_id in started {
        let result = connector.event(run_id, 1, EventKind::Result, json!({"outcome": "succeeded", "exit_code": 0}));
        assert_eq!(connector.emit(result).await, Ok(1));
    }
    for run in [&prepared["baselineRun"]["id"], &prepared["candidateRun"]["id"]] {
        common::wait_status(&f.owner, run.as_str().unwrap(), "SUCCEEDED").await;
    }
    let compared = act(&f.owner, "compareCandidate", candidate, "").await;
    compared.data("compareCandidate").clone()
}

on_both_databases!(a_candidate_is_tried_beside_the_baseline_approved_and_applied_once, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    // The project's composition: a context budget and the release-notes skill.
    set_budget(owner, &f.project_id, 2000, 0).await;
    common::activated_skill(owner, notes_package("Writes release notes."), &f.project_id).await;
    let notes = active_skills(owner, &f.project_id).await;
    let skills = owner.gql("{ skills { nodes { id name } } }", json!({})).await;
    let notes_skill = skills.data("skills")["nodes"][0]["id"].clone();
    let (changelog, _) = imported_version(owner, changelog_package()).await;

    let patch = json!({"settings": {"context": {"tokenBudget": 300}}, "activateSkillVersionIds": [changelog], "deactivateSkillIds": [notes_skill]});
    let stale = propose(owner, &f.project_id, 0, patch.clone()).await;
    stale.expect_code("CONFLICT");
    let proposed = propose(owner, &f.project_id, 1, patch).await;
    let proposed = proposed.data("proposeCandidate").clone();
    let candidate = proposed["id"].as_str().unwrap().to_owned();
    assert_eq!(proposed["status"], "PROPOSED");
    assert_eq!(proposed["baseline"]["settings"], json!({"context": {"tokenBudget": 2000}}));
    assert_eq!(proposed["candidate"]["settings"], json!({"context": {"tokenBudget": 300}}));
    assert_eq!(proposed["baseline"]["skills"], json!([{"id": notes[0]}]));
    assert_eq!(proposed["candidate"]["skills"], json!([{"id": changelog}]));
    // Proposing changes nothing in the project.
    assert_eq!(budget_of(owner, &f.project_id).await, 2000);
    assert_eq!(active_skills(owner, &f.project_id).await, notes);

    let (mut connector, credential) = common::raw_connector(&server, &f).await;
    let agent = connector.hello("worker", vec![Capability::Stream]).await;
    let agent = acc_api::ids::GlobalId::new(acc_api::ids::NodeKind::Agent, agent).encode();
    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let task = task["id"].as_str().unwrap();
    act(owner, "compareCandidate", &candidate, "").await.expect_code("INVALID_TRANSITION");
    let files = Attaching { base_url: server.base_url(), credential: &credential };
    let compared = tried(&f, &mut connector, &agent, &candidate, task, Some(&files)).await;
    assert_eq!(compared["status"], "COMPARED");
    // Each run was started with its side: its context budget and its skills.
    let (baseline_run, candidate_run) = (compared["baselineRun"].clone(), compared["candidateRun"].clone());
    assert_eq!(baseline_run["skills"], json!([{"name": "release-notes"}]));
    assert_eq!(candidate_run["skills"], json!([{"name": "changelog"}]));
    assert_eq!(run_context_budget(owner, baseline_run["id"].as_str().unwrap()).await, 2000);
    assert_eq!(run_context_budget(owner, candidate_run["id"].as_str().unwrap()).await, 300);
    let comparison = &compared["comparison"];
    assert_eq!(
        (comparison["baseline"]["status"].as_str(), comparison["candidate"]["status"].as_str()),
        (Some("succeeded"), Some("succeeded"))
    );
    assert_eq!(comparison["candidate"]["runId"], candidate_run["id"]);
    assert_eq!(comparison["criteriaTotal"], 0);
    // The files each run attached, by name, compared by their bytes.
    let changes: Vec<(&str, &str)> = comparison["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["change"].as_str().unwrap()))
        .collect();
    assert_eq!(changes, [("build.log", "same"), ("notes.md", "differs"), ("todo.md", "only_candidate")]);
    assert_eq!(comparison["files"][2]["baseline"], Value::Null);
    assert_eq!(comparison["files"][1]["candidate"]["sizeBytes"], 20);

    // Not before a person approves it.
    act(owner, "applyCandidate", &candidate, "").await.expect_code("INVALID_TRANSITION");
    let approved =
        act(owner, "decideCandidate", &candidate, ", decision: APPROVE, reason: \"shorter context is enough\"").await;
    assert_eq!(approved.data("decideCandidate")["status"], "APPROVED");
    let applied = act(owner, "applyCandidate", &candidate, "").await;
    let applied = applied.data("applyCandidate").clone();
    assert_eq!(applied["status"], "APPLIED");
    assert_eq!(applied["receipt"]["settingsRevision"], 2);
    assert_eq!(budget_of(owner, &f.project_id).await, 300);
    assert_eq!(active_skills(owner, &f.project_id).await, [changelog]);
    // Again: the same receipt, nothing applied twice.
    let again = act(owner, "applyCandidate", &candidate, "").await;
    assert_eq!(again.data("applyCandidate")["receipt"], applied["receipt"]);
    let layer = owner
        .gql("query($s: ID!) { effectiveSettings(scopeId: $s) { layers { revision } } }", json!({"s": f.project_id}))
        .await;
    assert_eq!(layer.data("effectiveSettings")["layers"].as_array().unwrap().last().unwrap()["revision"], 2);
    let kinds = ["CANDIDATE_PROPOSED", "CANDIDATE_PREPARED", "CANDIDATE_DECIDED", "CANDIDATE_APPLIED"];
    let recorded = common::audit_events(owner, &kinds).await;
    let steps: Vec<&str> = recorded.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(steps, kinds, "the refused proposal is not there, nor the second apply");
    assert!(recorded.iter().all(|e| e["targetId"] == candidate.as_str()));
    let candidate_run_id =
        acc_api::ids::GlobalId::decode_as(candidate_run["id"].as_str().unwrap(), acc_api::ids::NodeKind::TaskRun);
    assert_eq!(recorded[1]["details"]["candidate_run_id"], candidate_run_id.unwrap().to_string());
    assert_eq!(recorded[2]["details"]["reason"], "shorter context is enough");
    assert_eq!(recorded[3]["details"]["settings_revision"], 2);
});

on_both_databases!(a_scope_that_changed_since_the_proposal_applies_nothing, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (mut connector, _) = common::raw_connector(&server, &f).await;
    let agent = connector.hello("worker", vec![Capability::Stream]).await;
    let agent = acc_api::ids::GlobalId::new(acc_api::ids::NodeKind::Agent, agent).encode();
    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let task = task["id"].as_str().unwrap();
    let (changelog, _) = imported_version(owner, changelog_package()).await;

    // Someone changes the settings after the proposal.
    let first = propose(owner, &f.project_id, 0, json!({"settings": {"context": {"tokenBudget": 300}}})).await;
    let first = first.data("proposeCandidate")["id"].as_str().unwrap().to_owned();
    tried(&f, &mut connector, &agent, &first, task, None).await;
    act(owner, "decideCandidate", &first, ", decision: APPROVE").await.data("decideCandidate");
    set_budget(owner, &f.project_id, 5000, 0).await;
    let refused = act(owner, "applyCandidate", &first, "").await;
    refused.expect_code("CONFLICT");
    assert_eq!(refused.errors()[0]["extensions"]["details"]["drift"], "settings", "{:?}", refused.errors());
    assert_eq!(budget_of(owner, &f.project_id).await, 5000, "the other person's change stands");

    // Someone switches a skill on after the proposal: the selection drifted, nothing is applied.
    let second = propose(
        owner,
        &f.project_id,
        1,
        json!({"activateSkillVersionIds": [changelog], "settings": {"context": {"tokenBudget": 400}}}),
    )
    .await;
    let second = second.data("proposeCandidate")["id"].as_str().unwrap().to_owned();
    tried(&f, &mut connector, &agent, &second, task, None).await;
    act(owner, "decideCandidate", &second, ", decision: APPROVE").await.data("decideCandidate");
    common::activated_skill(owner, notes_package("Writes release notes."), &f.project_id).await;
    let before = active_skills(owner, &f.project_id).await;
    let refused = act(owner, "applyCandidate", &second, "").await;
    refused.expect_code("CONFLICT");
    assert_eq!(refused.errors()[0]["extensions"]["details"]["drift"], "skill selection");
    assert_eq!(active_skills(owner, &f.project_id).await, before);
    assert_eq!(budget_of(owner, &f.project_id).await, 5000, "not even the settings part was applied");
    let status = owner
        .gql("query($c: ID!) { node(id: $c) { ... on Candidate { status receipt } } }", json!({"c": second}))
        .await;
    assert_eq!(status.data("node"), &json!({"status": "APPROVED", "receipt": null}));
});

on_both_databases!(bad_candidates_and_callers_without_the_right_are_refused, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let scripted = zip(
        "migrate",
        &[("SKILL.md", skill_md("migrate", "Runs migrations.").as_str()), ("scripts/run.sh", "#!/bin/sh\n")],
    );
    let (scripted, _) = imported_version(owner, scripted).await;
    let (changelog, changelog_skill) = imported_version(owner, changelog_package()).await;
    let cases = [
        ("nothing changes", json!({"settings": {}})),
        ("a budget out of range", json!({"settings": {"context": {"tokenBudget": 10}}})),
        ("settings that are no object", json!({"settings": [1]})),
        ("a package with scripts", json!({"activateSkillVersionIds": [scripted]})),
        ("two versions of one skill", json!({"activateSkillVersionIds": [changelog, changelog]})),
        ("a skill not switched on here", json!({"deactivateSkillIds": [changelog_skill]})),
        ("an id of another kind", json!({"activateSkillVersionIds": [f.project_id]})),
    ];
    for (what, patch) in cases {
        let refused = propose(owner, &f.project_id, 0, patch).await;
        assert_eq!(refused.code(), Some("VALIDATION"), "{what}: {:?}", refused.errors());
    }
    let a_task = common::create_task(owner, &f.project_id, "Not a scope").await;
    propose(owner, a_task["id"].as_str().unwrap(), 0, json!({"settings": {"a": 1}})).await.expect_code("VALIDATION");
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    propose(&viewer, &f.project_id, 0, json!({"settings": {"a": 1}})).await.expect_code("FORBIDDEN");

    let proposed = propose(owner, &f.project_id, 0, json!({"settings": {"a": 1}})).await;
    let candidate = proposed.data("proposeCandidate")["id"].as_str().unwrap().to_owned();
    // The viewer reads it, and can do nothing with it.
    let read =
        viewer.gql("query($c: ID!) { node(id: $c) { ... on Candidate { status } } }", json!({"c": candidate})).await;
    assert_eq!(read.data("node")["status"], "PROPOSED");
    act(&viewer, "decideCandidate", &candidate, ", decision: APPROVE").await.expect_code("FORBIDDEN");
    act(&viewer, "applyCandidate", &candidate, "").await.expect_code("FORBIDDEN");
    // Out of order, or with a reason too long.
    act(owner, "decideCandidate", &candidate, ", decision: APPROVE").await.expect_code("INVALID_TRANSITION");
    let long = format!(", decision: DENY, reason: \"{}\"", "x".repeat(3000));
    act(owner, "decideCandidate", &candidate, &long).await.expect_code("VALIDATION");
    // A task of another project is not in a project's candidate's scope.
    let other = common::other_project(owner, &f.workspace_id, "Elsewhere").await;
    let task = common::create_task(owner, &other, "Elsewhere").await;
    let (mut connector, _) = common::raw_connector(&server, &f).await;
    let agent = connector.hello("worker", vec![Capability::Stream]).await;
    let agent = acc_api::ids::GlobalId::new(acc_api::ids::NodeKind::Agent, agent).encode();
    let prepare =
        "mutation($c: ID!, $t: ID!, $a: ID!) { prepareCandidate(candidateId: $c, taskId: $t, agentId: $a) { id } }";
    owner.gql(prepare, json!({"c": candidate, "t": task["id"], "a": agent})).await.expect_code("VALIDATION");
    let listed =
        owner.gql("query($s: ID!) { candidates(scopeId: $s) { id status } }", json!({"s": f.project_id})).await;
    assert_eq!(listed.data("candidates"), &json!([{"id": candidate, "status": "PROPOSED"}]), "nothing else was made");
    let layers = owner
        .gql("query($s: ID!) { effectiveSettings(scopeId: $s) { entries { key } } }", json!({"s": f.project_id}))
        .await;
    assert_eq!(
        layers.data("effectiveSettings")["entries"].as_array().unwrap().iter().filter(|e| e["key"] == "a").count(),
        0
    );
});
