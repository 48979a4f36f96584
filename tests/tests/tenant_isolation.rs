//! Tenant isolation: a user of a second organization gets `NOT_FOUND` for every id of the first,
//! in every query, `node()`, mutation and subscription, and changes nothing there.
//!
//! The table below has a row for every root field of the schema; a new operation without a
//! row fails `every_operation_has_a_row`.

mod common;

use std::collections::BTreeSet;

use acc_api::ids::{GlobalId, NodeKind};
use acc_protocol::{Capability, EventKind};
use acc_tests::connector_client::RawConnector;
use acc_tests::{Client, Server, TestDb, on_both_databases, op};
use serde_json::{Value, json};

/// What the other tenant's attempt must come to.
enum Expect {
    /// The operation names an object of the first tenant: it does not exist for this caller.
    NotFound,
    /// The operation names no foreign object; it succeeds, and shows nothing of the first tenant.
    OwnDataOnly,
    /// The operation is refused for this caller whatever the tenant (it names no object).
    Refused(&'static str),
}

struct Row {
    field: &'static str,
    document: &'static str,
    variables: Value,
    expect: Expect,
}

const REGISTER_PUSH: &str = "mutation($e: String!, $k: String!, $a: String!) \
    { registerPushSubscription(endpoint: $e, p256dh: $k, auth: $a) }";

/// Ids of everything the first organization has, as global ids.
#[derive(Default)]
struct TenantA {
    org: String,
    user: String,
    member: String,
    session: String,
    api_token: String,
    role_binding: String,
    workspace: String,
    project: String,
    task: String,
    task2: String,
    criterion: String,
    settings_layer: String,
    connector: String,
    agent: String,
    run: String,
    approval: String,
    memory_entry: String,
    memory_version: String,
    memory_conflict: String,
    artifact: String,
    artifact_version: String,
    wiki_namespace: String,
    wiki_page: String,
    wiki_revision: String,
    wiki_attachment: String,
    /// A pending review of a draft in an authoritative namespace.
    wiki_review: String,
    skill: String,
    skill_version: String,
    skill_activation: String,
    skill_key: String,
    candidate: String,
    audit_event: String,
    budget_policy: String,
    /// The owner's: a decision waits for them.
    notification: String,
    /// The owner's browser, which takes push messages.
    push_endpoint: String,
}

impl TenantA {
    fn all(&self) -> Vec<&str> {
        vec![
            &self.org,
            &self.user,
            &self.member,
            &self.session,
            &self.api_token,
            &self.role_binding,
            &self.workspace,
            &self.project,
            &self.task,
            &self.task2,
            &self.criterion,
            &self.settings_layer,
            &self.connector,
            &self.agent,
            &self.run,
            &self.approval,
            &self.memory_entry,
            &self.memory_version,
            &self.memory_conflict,
            &self.artifact,
            &self.artifact_version,
            &self.wiki_namespace,
            &self.wiki_page,
            &self.wiki_revision,
            &self.wiki_attachment,
            &self.wiki_review,
            &self.skill,
            &self.skill_version,
            &self.skill_activation,
            &self.skill_key,
            &self.candidate,
            &self.audit_event,
            &self.budget_policy,
            &self.notification,
        ]
    }
}

fn id(value: &Value) -> String {
    value["id"].as_str().unwrap().to_owned()
}

async fn tenant_a(server: &Server) -> (common::Fixture, TenantA) {
    let f = common::fixture(server).await;
    let owner = &f.owner;
    let viewer = owner.gql(op!("viewer"), json!({})).await;
    let org = owner.gql(op!("organization"), json!({})).await;
    let sessions = owner.gql(op!("sessions"), json!({})).await;
    let task = common::create_task(owner, &f.project_id, "Secret task").await;
    let task2 = common::create_task(owner, &f.project_id, "Second secret").await;
    owner
        .gql(op!("add_task_dependency"), json!({"taskId": id(&task2), "dependsOnId": id(&task)}))
        .await
        .data("addTaskDependency");
    let criterion = owner
        .gql(op!("add_acceptance_criterion"), json!({"taskId": id(&task), "description": "Secret criterion"}))
        .await;
    let layer = owner
        .gql(op!("set_settings"), json!({"scopeId": f.project_id, "patch": {"secret": true}, "expectedRevision": 0}))
        .await;
    let secret = |content: &str| json!({"input": {"scopeId": f.project_id, "kind": "FACT", "subject": "Vault code", "content": content}});
    let memory = owner.gql(op!("write_memory"), secret("the vault code is 1234")).await;
    let contradiction = owner.gql(op!("write_memory"), secret("the vault code is 4321")).await;
    let (uploaded, artifact) = owner
        .post_bytes(&format!("/v1/artifacts?projectId={}&name=secret.txt", f.project_id), b"secret".to_vec(), &[])
        .await;
    assert_eq!(uploaded, 201, "{artifact}");
    let wiki = owner
        .gql(
            "mutation($p: ID!) { createWikiNamespace(scopeId: $p, name: \"Vault runbooks\") { id } }",
            json!({"p": f.project_id}),
        )
        .await;
    let wiki_namespace = id(wiki.data("createWikiNamespace"));
    let wiki_input = json!({"namespaceId": wiki_namespace, "path": "vault", "title": "Vault", "source": "the vault code is 1234 [[other]]"});
    let wiki_page = owner
        .gql(
            "mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id latest { id } } }",
            json!({"i": wiki_input}),
        )
        .await;
    let wiki_page = wiki_page.data("saveWikiPage").clone();
    let (attached, attachment) = owner
        .post_bytes(&format!("/v1/wiki/pages/{}/attachments?name=vault.txt", id(&wiki_page)), b"1234".to_vec(), &[])
        .await;
    assert_eq!(attached, 201, "{attachment}");
    let handbook = owner
        .gql(
            "mutation($p: ID!) { createWikiNamespace(scopeId: $p, name: \"Vault policy\", authoritative: true) { id } }",
            json!({"p": f.project_id}),
        )
        .await;
    let draft = json!({"namespaceId": id(handbook.data("createWikiNamespace")), "path": "rotation", "title": "Rotation", "source": "rotate the vault code weekly"});
    let draft =
        owner.gql("mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id } }", json!({"i": draft})).await;
    let review = owner
        .gql(
            "mutation($p: ID!) { requestWikiReview(pageId: $p) { id subject } }",
            json!({"p": id(draft.data("saveWikiPage"))}),
        )
        .await;
    assert_eq!(review.data("requestWikiReview")["subject"], "WIKI_PUBLICATION");
    let (skill_key, skill_version, skill_activation, skill) = secret_skill(owner, &f.project_id).await;
    let candidate = owner
        .gql(
            "mutation($p: ID!) { proposeCandidate(scopeId: $p, expectedRevision: 1, patch: {settings: {context: {tokenBudget: 4000}}}) { id } }",
            json!({"p": f.project_id}),
        )
        .await;
    let candidate = id(candidate.data("proposeCandidate"));
    let token =
        owner.gql("mutation { createApiToken(name: \"ci\", scopes: [READ]) { apiToken { id } } }", json!({})).await;
    let member = owner
        .gql(
            "mutation($e: String!, $p: String!) { createUser(email: $e, password: $p, role: MEMBER) { id } }",
            json!({"e": "member@acme.test", "p": acc_tests::PASSWORD}),
        )
        .await;
    let member = id(member.data("createUser"));
    let binding = owner
        .gql(
            "mutation($s: ID!, $scope: ID!) { grantRole(subjectId: $s, role: VIEWER, scopeId: $scope) { id } }",
            json!({"s": member, "scope": f.project_id}),
        )
        .await;
    let enrollment = owner
        .gql(
            "mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: \"host-a\") { token } }",
            json!({"w": f.workspace_id}),
        )
        .await;
    let enrollment_token = enrollment.data("createEnrollmentToken")["token"].as_str().unwrap().to_owned();
    let enrolled: Value = reqwest::Client::new()
        .post(format!("{}/v1/connectors/enroll", server.base_url()))
        .json(&json!({"token": enrollment_token}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let connector_uuid = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let connector = GlobalId::new(NodeKind::Connector, connector_uuid).encode();
    let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id status } }", json!({"t": id(&task)})).await;
    assert_eq!(run.data("startRun")["status"], "BLOCKED", "no agent is online");
    // An agent comes online, takes the blocked run and asks for an approval.
    let mut agent_host =
        RawConnector::dial(server, connector_uuid, enrolled["credential"].as_str().unwrap()).await.unwrap();
    let agent = agent_host.hello("secret-agent", vec![Capability::Stream, Capability::Approvals]).await;
    let (run_uuid, _) = agent_host.accept_start().await;
    let ask = agent_host.event(run_uuid, 1, EventKind::ApprovalRequested, json!({"request_id": "r", "action": "x"}));
    assert_eq!(agent_host.emit(ask).await, Ok(1));
    let approvals = owner.gql("{ approvals { edges { node { id } } } }", json!({})).await;
    let audit = owner.gql("{ auditEvents(last: 1) { edges { node { id } } } }", json!({})).await;
    let agent = GlobalId::new(NodeKind::Agent, agent).encode();
    // The agent's own memory, which another organization must not reach by the agent's id.
    let agent_memory =
        json!({"input": {"scopeId": agent, "kind": "FACT", "subject": "Agent vault", "content": "5678"}});
    owner.gql(op!("write_memory"), agent_memory).await.data("writeMemory");
    // Set after the run started: under a budget, runs need an agent whose usage is measured.
    let budget = owner
        .gql(
            "mutation($w: ID!) { setBudgetPolicy(scopeId: $w, period: MONTHLY, maxCostUsd: 5000) { id } }",
            json!({"w": f.workspace_id}),
        )
        .await;
    let budget_policy = id(budget.data("setBudgetPolicy"));
    let notification = common::notifications(owner, 1).await[0]["id"].as_str().unwrap().to_owned();
    let push_endpoint = "https://fcm.googleapis.com/fcm/send/tenant-a".to_owned();
    let browser = json!({"e": push_endpoint, "k": "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU", "a": "AAECAwQFBgcICQoLDA0ODw"});
    assert_eq!(owner.gql(REGISTER_PUSH, browser).await.data("registerPushSubscription"), true);
    let a = TenantA {
        connector,
        agent,
        approval: id(&approvals.data("approvals")["edges"][0]["node"]),
        run: id(run.data("startRun")),
        org: id(org.data("organization")),
        user: id(viewer.data("viewer")),
        member,
        session: id(&sessions.data("sessions")["edges"][0]["node"]),
        api_token: id(&token.data("createApiToken")["apiToken"]),
        role_binding: id(binding.data("grantRole")),
        workspace: f.workspace_id.clone(),
        project: f.project_id.clone(),
        task: id(&task),
        task2: id(&task2),
        criterion: id(criterion.data("addAcceptanceCriterion")),
        settings_layer: id(layer.data("setSettings")),
        memory_entry: id(&memory.data("writeMemory")["entry"]),
        memory_version: id(&memory.data("writeMemory")["version"]),
        memory_conflict: id(&contradiction.data("writeMemory")["conflict"]),
        artifact: id(&artifact["artifact"]),
        artifact_version: id(&artifact["version"]),
        wiki_namespace,
        wiki_page: id(&wiki_page),
        wiki_revision: id(&wiki_page["latest"]),
        wiki_attachment: id(&attachment["attachment"]),
        wiki_review: id(review.data("requestWikiReview")),
        skill,
        skill_version,
        skill_activation,
        skill_key,
        candidate,
        audit_event: id(&audit.data("auditEvents")["edges"][0]["node"]),
        budget_policy,
        notification,
        push_endpoint,
    };
    (f, a)
}

/// A trusted publisher key, and a skill version approved and activated in `project`: (key,
/// version, activation, skill).
async fn secret_skill(owner: &Client, project: &str) -> (String, String, String, String) {
    let trusted = owner
        .gql(
            "mutation($k: String!) { trustSkillPublisherKey(name: \"Vault tools\", publicKey: $k) { id } }",
            json!({"k": minisign_public_key()}),
        )
        .await;
    let mut archive = std::io::Cursor::new(Vec::new());
    let mut writer = zip::ZipWriter::new(&mut archive);
    writer.start_file("vault-opener/SKILL.md", zip::write::SimpleFileOptions::default()).unwrap();
    std::io::Write::write_all(
        &mut writer,
        b"---\nname: vault-opener\ndescription: Opens the vault.\n---\nThe vault code is 1234.\n",
    )
    .unwrap();
    writer.finish().unwrap();
    let (status, imported) = owner.post_bytes("/v1/skills", archive.into_inner(), &[]).await;
    assert_eq!(status, 201, "{imported}");
    let version = imported["version"]["id"].as_str().unwrap().to_owned();
    owner
        .gql(
            "mutation($v: ID!) { reviewSkillVersion(versionId: $v, decision: APPROVE, reason: \"audited\") { id } }",
            json!({"v": version}),
        )
        .await
        .data("reviewSkillVersion");
    let activated = owner
        .gql(
            "mutation($v: ID!, $p: ID!) { activateSkill(versionId: $v, scopeId: $p) { activation { id } } }",
            json!({"v": version, "p": project}),
        )
        .await;
    let activation = id(&activated.data("activateSkill")["activation"]);
    (
        id(trusted.data("trustSkillPublisherKey")),
        version,
        activation,
        imported["skill"]["id"].as_str().unwrap().to_owned(),
    )
}

/// A fresh minisign public key's text.
fn minisign_public_key() -> String {
    minisign::KeyPair::generate_unencrypted_keypair().unwrap().pk.to_box().unwrap().to_string()
}

/// The owner of a second organization, created by the server administrator, with its own project and task.
async fn tenant_b(a_owner: &Client) -> (Client, String, String) {
    let b = common::second_organization_owner(a_owner).await;
    let ws = b.gql(op!("create_workspace"), json!({"name": "B space"})).await;
    let project =
        b.gql(op!("create_project"), json!({"workspaceId": id(ws.data("createWorkspace")), "name": "B project"})).await;
    let project = id(project.data("createProject"));
    let task = common::create_task(&b, &project, "B task").await;
    (b, project, id(&task))
}

fn rows(a: &TenantA, b_project: &str, b_task: &str) -> Vec<Row> {
    use Expect::*;
    let row = |field, document, variables, expect| Row { field, document, variables, expect };
    let mut rows = vec![
        row("bootstrapRequired", "{ bootstrapRequired }", json!({}), OwnDataOnly),
        row("viewer", op!("viewer"), json!({}), OwnDataOnly),
        row("organization", op!("organization"), json!({}), OwnDataOnly),
        row("users", "{ users { edges { node { id email } } } }", json!({}), OwnDataOnly),
        row("sessions", op!("sessions"), json!({}), OwnDataOnly),
        row("apiTokens", "{ apiTokens { edges { node { id name } } } }", json!({}), OwnDataOnly),
        row(
            "auditEvents",
            "{ auditEvents(last: 100) { edges { node { id action actorId targetId workspaceId projectId details } } } }",
            json!({}),
            OwnDataOnly,
        ),
        row("verifyAudit", "{ verifyAudit { intact events checkpoints } }", json!({}), OwnDataOnly),
        row(
            "workspaces",
            "{ workspaces { edges { node { id name projects { edges { node { id } } } } } } }",
            json!({}),
            OwnDataOnly,
        ),
        row("tasks", op!("tasks"), json!({"projectId": a.project}), NotFound),
        row("knownSettings", "{ knownSettings { key default } }", json!({}), OwnDataOnly),
        row("effectiveSettings", op!("effective_settings"), json!({"scopeId": a.project}), NotFound),
        row("effectiveSettings", op!("effective_settings"), json!({"scopeId": a.org}), NotFound),
        row("effectiveSettings", op!("effective_settings"), json!({"scopeId": a.task}), NotFound),
        row(
            "redeemBootstrap",
            op!("redeem_bootstrap"),
            json!({"code": "guess", "org": "Evil", "email": "e@evil.test", "password": acc_tests::PASSWORD}),
            Refused("UNAUTHENTICATED"),
        ),
        row(
            "login",
            op!("login"),
            json!({"email": "owner@acme.test", "password": "wrong password!"}),
            Refused("UNAUTHENTICATED"),
        ),
        // No provider is configured here; tests/tests/oidc.rs signs in through a real one.
        row("signInProviders", "{ signInProviders { id name } }", json!({}), OwnDataOnly),
        row(
            "beginOidcSignIn",
            "mutation { beginOidcSignIn(provider: \"acme\", redirectUri: \"https://evil.test/cb\") { flow } }",
            json!({}),
            NotFound,
        ),
        row(
            "completeOidcSignIn",
            "mutation { completeOidcSignIn(flow: \"acc_oidc_guess\", code: \"c\", state: \"s\") { accessToken } }",
            json!({}),
            Refused("UNAUTHENTICATED"),
        ),
        row(
            "refreshSession",
            op!("refresh_session"),
            json!({"refreshToken": "acc_rt_guess"}),
            Refused("UNAUTHENTICATED"),
        ),
        row(
            "revokeSession",
            "mutation($id: ID!) { revokeSession(id: $id) { id } }",
            json!({"id": a.session}),
            NotFound,
        ),
        row(
            "createApiToken",
            "mutation { createApiToken(name: \"b\", scopes: [READ]) { apiToken { id } } }",
            json!({}),
            OwnDataOnly,
        ),
        row(
            "revokeApiToken",
            "mutation($id: ID!) { revokeApiToken(id: $id) { id } }",
            json!({"id": a.api_token}),
            NotFound,
        ),
        row(
            "createOrganization",
            "mutation($p: String!) { createOrganization(name: \"Evil\", ownerEmail: \"o@evil.test\", ownerPassword: $p) { id } }",
            json!({"p": acc_tests::PASSWORD}),
            Refused("FORBIDDEN"),
        ),
        row(
            "createUser",
            "mutation($p: String!) { createUser(email: \"new@globex.test\", password: $p) { id organization { id } } }",
            json!({"p": acc_tests::PASSWORD}),
            OwnDataOnly,
        ),
        row(
            "grantRole",
            "mutation($s: ID!, $scope: ID!) { grantRole(subjectId: $s, role: ADMIN, scopeId: $scope) { id } }",
            json!({"s": a.member, "scope": b_project}),
            NotFound,
        ),
        row(
            "grantRole",
            "mutation($s: ID!, $scope: ID!) { grantRole(subjectId: $s, role: ADMIN, scopeId: $scope) { id } }",
            json!({"s": a.member, "scope": a.project}),
            NotFound,
        ),
        row(
            "revokeRole",
            "mutation($s: ID!, $scope: ID!) { revokeRole(subjectId: $s, role: VIEWER, scopeId: $scope) }",
            json!({"s": a.member, "scope": a.project}),
            NotFound,
        ),
        row(
            "setUserDisabled",
            "mutation($id: ID!) { setUserDisabled(id: $id, disabled: true) { id disabled } }",
            json!({"id": a.member}),
            NotFound,
        ),
        row("createWorkspace", op!("create_workspace"), json!({"name": "Another B space"}), OwnDataOnly),
        row("createProject", op!("create_project"), json!({"workspaceId": a.workspace, "name": "Intruder"}), NotFound),
        row(
            "updateProject",
            op!("update_project"),
            json!({"id": a.project, "expectedRevision": 1, "name": "Owned"}),
            NotFound,
        ),
        row(
            "createTask",
            op!("create_task"),
            json!({"input": {"projectId": a.project, "title": "Intruder"}}),
            NotFound,
        ),
        row(
            "createTask",
            op!("create_task"),
            json!({"input": {"projectId": b_project, "title": "Assigned across", "assigneeId": a.user}}),
            NotFound,
        ),
        row(
            "updateTask",
            op!("update_task"),
            json!({"input": {"id": a.task, "expectedRevision": 1, "title": "Owned"}}),
            NotFound,
        ),
        row("deleteTask", op!("delete_task"), json!({"id": a.task}), NotFound),
        row(
            "addAcceptanceCriterion",
            op!("add_acceptance_criterion"),
            json!({"taskId": a.task, "description": "x"}),
            NotFound,
        ),
        row(
            "setAcceptanceCriterionMet",
            op!("set_acceptance_criterion_met"),
            json!({"id": a.criterion, "met": true}),
            NotFound,
        ),
        row(
            "addTaskDependency",
            op!("add_task_dependency"),
            json!({"taskId": b_task, "dependsOnId": a.task}),
            NotFound,
        ),
        row(
            "addTaskDependency",
            op!("add_task_dependency"),
            json!({"taskId": a.task, "dependsOnId": b_task}),
            NotFound,
        ),
        row(
            "removeTaskDependency",
            op!("remove_task_dependency"),
            json!({"taskId": a.task2, "dependsOnId": a.task}),
            NotFound,
        ),
        row(
            "setSettings",
            op!("set_settings"),
            json!({"scopeId": a.project, "patch": {"secret": false}, "expectedRevision": 1}),
            NotFound,
        ),
        row(
            "setSettings",
            op!("set_settings"),
            json!({"scopeId": a.org, "patch": {"x": 1}, "expectedRevision": 0}),
            NotFound,
        ),
        row("taskEvents", op!("task_events"), json!({"projectId": a.project}), NotFound),
        row("connectors", "{ connectors { id name } }", json!({}), OwnDataOnly),
        row("connectors", "query($w: ID) { connectors(workspaceId: $w) { id } }", json!({"w": a.workspace}), NotFound),
        row("agents", "query($p: ID!) { agents(projectId: $p) { id } }", json!({"p": a.project}), NotFound),
        row(
            "createEnrollmentToken",
            "mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: \"x\") { token } }",
            json!({"w": a.workspace}),
            NotFound,
        ),
        row(
            "revokeConnector",
            "mutation($id: ID!) { revokeConnector(id: $id) { id } }",
            json!({"id": a.connector}),
            NotFound,
        ),
        row(
            "removeConnector",
            "mutation($id: ID!) { removeConnector(id: $id) { id } }",
            json!({"id": a.connector}),
            NotFound,
        ),
        row(
            "connectorStatus",
            "subscription($w: ID!) { connectorStatus(workspaceId: $w) { id } }",
            json!({"w": a.workspace}),
            NotFound,
        ),
        row("runs", "{ runs { edges { node { id task { title } } } } }", json!({}), OwnDataOnly),
        row(
            "runs",
            "query($w: ID!) { runs(filter: {workspaceId: $w}) { edges { node { id } } } }",
            json!({"w": a.workspace}),
            NotFound,
        ),
        row(
            "runs",
            "query($p: ID!) { runs(filter: {projectId: $p, latestOfTask: true}) { edges { node { id } } } }",
            json!({"p": a.project}),
            NotFound,
        ),
        row(
            "runEvents",
            "query($r: ID!) { runEvents(runId: $r) { edges { node { sequence } } } }",
            json!({"r": a.run}),
            NotFound,
        ),
        row("runEvents", "subscription($r: ID!) { runEvents(runId: $r) { sequence } }", json!({"r": a.run}), NotFound),
        row("runUsage", "query($r: ID!) { runUsage(runId: $r) { wallTimeMs } }", json!({"r": a.run}), NotFound),
        row("startRun", "mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": a.task}), NotFound),
        row("cancelRun", "mutation($r: ID!) { cancelRun(runId: $r) { id } }", json!({"r": a.run}), NotFound),
        row(
            "runUpdated",
            "subscription($p: ID!) { runUpdated(projectId: $p) { id } }",
            json!({"p": a.project}),
            NotFound,
        ),
        row("approvals", "{ approvals(status: null) { edges { node { id action } } } }", json!({}), OwnDataOnly),
        row(
            "approvals",
            "query($p: ID) { approvals(projectId: $p) { edges { node { id } } } }",
            json!({"p": a.project}),
            NotFound,
        ),
        row(
            "decideApproval",
            "mutation($a: ID!) { decideApproval(approvalId: $a, decision: APPROVE) { id status } }",
            json!({"a": a.approval}),
            NotFound,
        ),
        row(
            "decideApproval",
            "mutation($a: ID!) { decideApproval(approvalId: $a, decision: APPROVE) { id status } }",
            json!({"a": a.wiki_review}),
            NotFound,
        ),
        row(
            "requestCheckpoint",
            "mutation($r: ID!) { requestCheckpoint(runId: $r) { id } }",
            json!({"r": a.run}),
            NotFound,
        ),
        row(
            "requestHandoff",
            "mutation($r: ID!, $a: ID!) { requestHandoff(runId: $r, targetAgentId: $a) { id } }",
            json!({"r": a.run, "a": a.agent}),
            NotFound,
        ),
        row("memoryEntry", op!("memory_entry"), json!({"id": a.memory_entry}), NotFound),
        row("memory", op!("memory"), json!({"scopeId": a.project, "query": "vault"}), NotFound),
        row("memory", op!("memory"), json!({"scopeId": a.org}), NotFound),
        row(
            "memory",
            op!("memory"),
            json!({"scopeId": a.project, "query": "vault", "asOf": "2999-01-01T00:00:00Z"}),
            NotFound,
        ),
        row("memory", op!("memory"), json!({"scopeId": a.task, "query": "vault"}), NotFound),
        row("memory", op!("memory"), json!({"scopeId": a.run, "query": "vault"}), NotFound),
        row(
            "artifacts",
            "query($p: ID!) { artifacts(projectId: $p) { edges { node { id } } } }",
            json!({"p": a.project}),
            NotFound,
        ),
        row(
            "artifacts",
            "query($p: ID!, $t: ID) { artifacts(projectId: $p, taskId: $t) { edges { node { id } } } }",
            json!({"p": b_project, "t": a.task}),
            OwnDataOnly,
        ),
        row("artifact", "query($id: ID!) { artifact(id: $id) { name } }", json!({"id": a.artifact}), NotFound),
        row("runContext", "query($r: ID!) { runContext(runId: $r) { bundleHash } }", json!({"r": a.run}), NotFound),
        row(
            "wikiNamespaces",
            "query($s: ID!) { wikiNamespaces(scopeId: $s) { id } }",
            json!({"s": a.project}),
            NotFound,
        ),
        row(
            "wikiNamespaces",
            "query($s: ID!) { wikiNamespaces(scopeId: $s) { id } }",
            json!({"s": a.workspace}),
            NotFound,
        ),
        row(
            "wikiPage",
            "query($n: ID!) { wikiPage(namespaceId: $n, path: \"vault\") { id } }",
            json!({"n": a.wiki_namespace}),
            NotFound,
        ),
        row(
            "wikiPages",
            "query($n: ID!) { wikiPages(namespaceId: $n) { edges { node { id } } } }",
            json!({"n": a.wiki_namespace}),
            NotFound,
        ),
        row(
            "wikiRevisions",
            "query($p: ID!) { wikiRevisions(pageId: $p) { edges { node { source } } } }",
            json!({"p": a.wiki_page}),
            NotFound,
        ),
        row(
            "wikiDiff",
            "query($p: ID!) { wikiDiff(pageId: $p, from: 1, to: 1) { unified } }",
            json!({"p": a.wiki_page}),
            NotFound,
        ),
        row("backlinks", "query($p: ID!) { backlinks(pageId: $p) { id } }", json!({"p": a.wiki_page}), NotFound),
        row(
            "wikiSearch",
            "query($s: ID!) { wikiSearch(scopeId: $s, query: \"vault\") { page { id } } }",
            json!({"s": a.project}),
            NotFound,
        ),
        row(
            "wikiSearch",
            "query($s: ID!) { wikiSearch(scopeId: $s, query: \"vault code\") { page { id } } }",
            json!({"s": b_project}),
            OwnDataOnly,
        ),
        row(
            "wikiPageUpdated",
            "subscription($n: ID!) { wikiPageUpdated(namespaceId: $n) { id } }",
            json!({"n": a.wiki_namespace}),
            NotFound,
        ),
        row(
            "createWikiNamespace",
            "mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: \"Intruder\") { id } }",
            json!({"s": a.project}),
            NotFound,
        ),
        row(
            "saveWikiPage",
            "mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id } }",
            json!({"i": {"namespaceId": a.wiki_namespace, "path": "vault", "title": "Vault", "source": "0000", "expectedRevision": 1}}),
            NotFound,
        ),
        row(
            "setWikiNamespaceAcl",
            "mutation($n: ID!) { setWikiNamespaceAcl(namespaceId: $n, userIds: []) { id } }",
            json!({"n": a.wiki_namespace}),
            NotFound,
        ),
        row(
            "renameWikiPage",
            "mutation($p: ID!) { renameWikiPage(pageId: $p, path: \"moved\", expectedRevision: 1) { id } }",
            json!({"p": a.wiki_page}),
            NotFound,
        ),
        row(
            "requestWikiReview",
            "mutation($p: ID!) { requestWikiReview(pageId: $p, revision: 1) { id } }",
            json!({"p": a.wiki_page}),
            NotFound,
        ),
        row(
            "publishWikiPage",
            "mutation($p: ID!) { publishWikiPage(pageId: $p, revision: 1) { id } }",
            json!({"p": a.wiki_page}),
            NotFound,
        ),
        row("skills", "{ skills { edges { node { id name } } } }", json!({}), OwnDataOnly),
        row("skillPublisherKeys", "{ skillPublisherKeys { id keyId } }", json!({}), OwnDataOnly),
        row(
            "skillActivations",
            "query($s: ID!) { skillActivations(scopeId: $s) { id } }",
            json!({"s": a.project}),
            NotFound,
        ),
        row(
            "skillActivations",
            "query($s: ID!) { skillActivations(scopeId: $s) { id } }",
            json!({"s": a.org}),
            NotFound,
        ),
        row(
            "trustSkillPublisherKey",
            "mutation($k: String!) { trustSkillPublisherKey(name: \"Own\", publicKey: $k) { id } }",
            json!({"k": minisign_public_key()}),
            OwnDataOnly,
        ),
        row(
            "revokeSkillPublisherKey",
            "mutation($k: ID!) { revokeSkillPublisherKey(keyId: $k) { id } }",
            json!({"k": a.skill_key}),
            NotFound,
        ),
        row(
            "requestSkillReview",
            "mutation($v: ID!) { requestSkillReview(versionId: $v) { id } }",
            json!({"v": a.skill_version}),
            NotFound,
        ),
        row(
            "reviewSkillVersion",
            "mutation($v: ID!) { reviewSkillVersion(versionId: $v, decision: DENY) { id } }",
            json!({"v": a.skill_version}),
            NotFound,
        ),
        row(
            "revokeSkillVersion",
            "mutation($v: ID!) { revokeSkillVersion(versionId: $v) { id } }",
            json!({"v": a.skill_version}),
            NotFound,
        ),
        row(
            "activateSkill",
            "mutation($v: ID!, $s: ID!) { activateSkill(versionId: $v, scopeId: $s) { activation { id } } }",
            json!({"v": a.skill_version, "s": b_project}),
            NotFound,
        ),
        row(
            "deactivateSkill",
            "mutation($a: ID!) { deactivateSkill(activationId: $a) { id } }",
            json!({"a": a.skill_activation}),
            NotFound,
        ),
        row("candidates", "query($s: ID!) { candidates(scopeId: $s) { id } }", json!({"s": a.project}), NotFound),
        row(
            "usageSummary",
            "query($s: ID!) { usageSummary(scopeId: $s, from: \"2026-01-01T00:00:00Z\", to: \"2026-12-31T00:00:00Z\", groupBy: AGENT) { total { runs } groups { key label } } }",
            json!({"s": a.project}),
            NotFound,
        ),
        row(
            "usageSummary",
            "query($s: ID!) { usageSummary(scopeId: $s, from: \"2026-01-01T00:00:00Z\", to: \"2026-12-31T00:00:00Z\", groupBy: USER) { total { runs } groups { key label } } }",
            json!({"s": a.org}),
            NotFound,
        ),
        row(
            "budgetPolicies",
            "query($s: ID!) { budgetPolicies(scopeId: $s) { id usedTokens } }",
            json!({"s": a.workspace}),
            NotFound,
        ),
        row(
            "setBudgetPolicy",
            "mutation($s: ID!) { setBudgetPolicy(scopeId: $s, period: DAILY, maxTokens: 1) { id } }",
            json!({"s": a.workspace}),
            NotFound,
        ),
        row(
            "removeBudgetPolicy",
            "mutation($id: ID!) { removeBudgetPolicy(id: $id) }",
            json!({"id": a.budget_policy}),
            NotFound,
        ),
        row(
            "runStatistics",
            "query($p: ID!) { runStatistics(filter: {projectId: $p}) { total { runs } } }",
            json!({"p": a.project}),
            NotFound,
        ),
        row(
            "runStatistics",
            "query($w: ID!) { runStatistics(filter: {workspaceId: $w}) { total { runs } } }",
            json!({"w": a.workspace}),
            NotFound,
        ),
        row(
            "runStatistics",
            "{ runStatistics { total { runs byStatus { status count } } byAgent { agent { id name } counts { runs } } } }",
            json!({}),
            OwnDataOnly,
        ),
        row(
            "proposeCandidate",
            "mutation($s: ID!) { proposeCandidate(scopeId: $s, expectedRevision: 1, patch: {settings: {context: {tokenBudget: 300}}}) { id } }",
            json!({"s": a.project}),
            NotFound,
        ),
        row(
            "proposeCandidate",
            "mutation($s: ID!, $v: ID!) { proposeCandidate(scopeId: $s, expectedRevision: 0, patch: {activateSkillVersionIds: [$v]}) { id } }",
            json!({"s": b_project, "v": a.skill_version}),
            Refused("VALIDATION"),
        ),
        row(
            "prepareCandidate",
            "mutation($c: ID!, $t: ID!, $a: ID!) { prepareCandidate(candidateId: $c, taskId: $t, agentId: $a) { id } }",
            json!({"c": a.candidate, "t": a.task, "a": a.agent}),
            NotFound,
        ),
        row(
            "compareCandidate",
            "mutation($c: ID!) { compareCandidate(candidateId: $c) { id } }",
            json!({"c": a.candidate}),
            NotFound,
        ),
        row(
            "decideCandidate",
            "mutation($c: ID!) { decideCandidate(candidateId: $c, decision: APPROVE) { id } }",
            json!({"c": a.candidate}),
            NotFound,
        ),
        row(
            "applyCandidate",
            "mutation($c: ID!) { applyCandidate(candidateId: $c) { id } }",
            json!({"c": a.candidate}),
            NotFound,
        ),
        row("memory", op!("memory"), json!({"scopeId": a.user, "query": "vault"}), NotFound),
        row("memory", op!("memory"), json!({"scopeId": a.agent, "query": "vault"}), NotFound),
        row("memory", op!("memory"), json!({"scopeId": a.agent}), NotFound),
        row(
            "writeMemory",
            op!("write_memory"),
            json!({"input": {"scopeId": a.agent, "kind": "FACT", "subject": "Agent vault", "content": "0000"}}),
            NotFound,
        ),
        row(
            "memoryUpdated",
            "subscription($s: ID!) { memoryUpdated(scopeId: $s) { id } }",
            json!({"s": a.agent}),
            NotFound,
        ),
        row(
            "writeMemory",
            op!("write_memory"),
            json!({"input": {"scopeId": a.run, "kind": "FACT", "subject": "Vault code", "content": "0000"}}),
            NotFound,
        ),
        row(
            "writeMemory",
            op!("write_memory"),
            json!({"input": {"scopeId": a.user, "kind": "FACT", "subject": "Vault code", "content": "0000"}}),
            NotFound,
        ),
        row(
            "writeMemory",
            op!("write_memory"),
            json!({"input": {"scopeId": a.task, "kind": "FACT", "subject": "Vault code", "content": "0000"}}),
            NotFound,
        ),
        row("rebuildMemoryIndex", "mutation { rebuildMemoryIndex }", json!({}), OwnDataOnly),
        row("memoryRetrievalMode", "{ memoryRetrievalMode }", json!({}), OwnDataOnly),
        row(
            "memoryUpdated",
            "subscription($s: ID!) { memoryUpdated(scopeId: $s) { id } }",
            json!({"s": a.project}),
            NotFound,
        ),
        row(
            "writeMemory",
            op!("write_memory"),
            json!({"input": {"scopeId": a.project, "kind": "FACT", "subject": "Vault code", "content": "0000"}}),
            NotFound,
        ),
        row(
            "verifyMemory",
            "mutation($e: ID!) { verifyMemory(entryId: $e, expectedRevision: 1, verdict: VERIFIED) { id } }",
            json!({"e": a.memory_entry}),
            NotFound,
        ),
        row(
            "retractMemory",
            "mutation($e: ID!) { retractMemory(entryId: $e, expectedRevision: 1) { id } }",
            json!({"e": a.memory_entry}),
            NotFound,
        ),
        row(
            "resolveMemoryConflict",
            "mutation($c: ID!) { resolveMemoryConflict(conflictId: $c, expectedRevision: 1, resolution: ACCEPT_PROPOSED) { id } }",
            json!({"c": a.memory_conflict}),
            NotFound,
        ),
        row(
            "approvalUpdated",
            "subscription($p: ID) { approvalUpdated(projectId: $p) { id } }",
            json!({"p": a.project}),
            NotFound,
        ),
        row(
            "notifications",
            "{ notifications { edges { node { id title body subjectId projectId } } } }",
            json!({}),
            OwnDataOnly,
        ),
        row("unreadNotificationCount", "{ unreadNotificationCount }", json!({}), OwnDataOnly),
        row(
            "markNotificationsRead",
            "mutation($n: ID!) { markNotificationsRead(ids: [$n]) }",
            json!({"n": a.notification}),
            OwnDataOnly,
        ),
        row("notificationAdded", "subscription { notificationAdded { id title } }", json!({}), OwnDataOnly),
        row(
            "notificationSettings",
            "{ notificationSettings { emailAddress preferences { kind enabled } } }",
            json!({}),
            OwnDataOnly,
        ),
        // No argument names a person: the caller's own browser, whoever they are; another
        // person's endpoint is not theirs to remove (false).
        row(
            "registerPushSubscription",
            REGISTER_PUSH,
            json!({"e": "https://fcm.googleapis.com/fcm/send/tenant-b", "k": "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU", "a": "AAECAwQFBgcICQoLDA0ODw"}),
            OwnDataOnly,
        ),
        row(
            "removePushSubscription",
            "mutation($e: String!) { removePushSubscription(endpoint: $e) }",
            json!({"e": a.push_endpoint}),
            OwnDataOnly,
        ),
        // No argument names a person: the caller's own choice, whoever they are.
        row(
            "setNotificationPreference",
            "mutation { setNotificationPreference(kind: RUN_FAILED, channel: EMAIL, enabled: true) { enabled } }",
            json!({}),
            OwnDataOnly,
        ),
    ];
    for object in a.all() {
        rows.push(row("node", op!("node"), json!({"id": object}), NotFound));
    }
    // Last, because it ends the attacker's session.
    rows.push(row("logout", "mutation { logout }", json!({}), OwnDataOnly));
    rows
}

async fn attempt(b: &Client, row: &Row) -> Value {
    if row.document.trim_start().starts_with("subscription") {
        let mut subscription = b.subscribe(row.document, row.variables.clone()).await.unwrap();
        if let Expect::OwnDataOnly = row.expect {
            // One's own stream: nothing of anyone else's comes down it.
            subscription.expect_silence(std::time::Duration::from_millis(500)).await;
            return json!({});
        }
        return subscription.next().await.unwrap();
    }
    b.gql(row.document, row.variables.clone()).await.body
}

on_both_databases!(a_second_tenant_sees_nothing_of_the_first, |db: TestDb| async move {
    let server = Server::start(db).await;
    let (f, a) = tenant_a(&server).await;
    let before = f.owner.gql(op!("tasks"), json!({"projectId": a.project})).await.body;
    let (b, b_project, b_task) = tenant_b(&f.owner).await;

    let secrets: Vec<String> = a
        .all()
        .into_iter()
        .map(str::to_owned)
        .chain(["Acme", "owner@acme.test", "Secret task", "vault code"].map(String::from))
        .collect();
    for row in rows(&a, &b_project, &b_task) {
        let body = attempt(&b, &row).await;
        let code = body["errors"][0]["extensions"]["code"].as_str();
        match row.expect {
            Expect::NotFound => assert_eq!(code, Some("NOT_FOUND"), "{} {}: {body}", row.field, row.variables),
            Expect::Refused(expected) => assert_eq!(code, Some(expected), "{}: {body}", row.field),
            Expect::OwnDataOnly => assert_eq!(code, None, "{}: {body}", row.field),
        }
        let text = body.to_string();
        for secret in &secrets {
            assert!(!text.contains(secret.as_str()), "{} leaked {secret}: {text}", row.field);
        }
    }

    // Nothing of the first tenant changed.
    let devices = f.owner.gql("{ notificationSettings { pushDevices } }", json!({})).await;
    assert_eq!(devices.data("notificationSettings")["pushDevices"], 1, "the owner's browser still takes push");
    let after = f.owner.gql(op!("tasks"), json!({"projectId": a.project})).await.body;
    assert_eq!(before, after);
    let settings = f.owner.gql(op!("effective_settings"), json!({"scopeId": a.project})).await;
    let entries = &settings.data("effectiveSettings")["entries"];
    assert_eq!(
        entries,
        &json!([{"key": "secret", "value": true, "sourceScopeId": a.project, "sourceScopeKind": "project"}])
    );
    let sessions = f.owner.gql(op!("sessions"), json!({})).await;
    assert_eq!(sessions.data("sessions")["edges"][0]["node"]["revokedAt"], Value::Null);
    let node = f.owner.gql(op!("node"), json!({"id": a.role_binding})).await;
    assert_eq!(node.data("node")["id"], a.role_binding.as_str());
    let approval = f
        .owner
        .gql("query($id: ID!) { node(id: $id) { ... on Approval { status } } }", json!({"id": a.approval}))
        .await;
    assert_eq!(approval.data("node")["status"], "PENDING", "the other tenant decided nothing");
    let unread = f.owner.gql("{ unreadNotificationCount }", json!({})).await;
    assert_eq!(unread.data("unreadNotificationCount"), 1, "the other tenant marked nothing read");
    let memory = f.owner.gql(op!("memory_entry"), json!({"id": a.memory_entry})).await;
    let memory = memory.data("memoryEntry");
    assert_eq!(memory["revision"], 1, "the other tenant verified, retracted and resolved nothing");
    assert_eq!(memory["current"]["content"], "the vault code is 1234");
    let wiki = f
        .owner
        .gql(
            "query($n: ID!) { wikiPage(namespaceId: $n, path: \"vault\") { path revision } }",
            json!({"n": a.wiki_namespace}),
        )
        .await;
    assert_eq!(
        wiki.data("wikiPage"),
        &json!({"path": "vault", "revision": 1}),
        "the other tenant saved and renamed nothing"
    );
    assert_eq!(memory["current"]["verification"], "UNVERIFIED");
    let skill = f
        .owner
        .gql(
            "query($s: ID!) { skillActivations(scopeId: $s) { id status version { reviewState } } }",
            json!({"s": a.project}),
        )
        .await;
    assert_eq!(
        skill.data("skillActivations"),
        &json!([{"id": a.skill_activation, "status": "ACTIVE", "version": {"reviewState": "APPROVED"}}]),
        "the other tenant reviewed, revoked and deactivated nothing"
    );
    let candidate =
        f.owner.gql("query($c: ID!) { node(id: $c) { ... on Candidate { status } } }", json!({"c": a.candidate})).await;
    assert_eq!(candidate.data("node")["status"], "PROPOSED", "the other tenant prepared, decided and applied nothing");
    assert_eq!(memory["conflicts"][0]["status"], "OPEN");
    assert_eq!(memory["versions"].as_array().unwrap().len(), 2, "the other tenant wrote nothing here");
});

/// Every root field of the schema (queries, mutations, subscriptions) has a row in the table.
#[tokio::test]
async fn every_operation_has_a_row() {
    let schema = acc_api::graphql::build_schema(None, &acc_api::config::Limits::default());
    let introspection = "{ __schema { queryType { fields { name } } mutationType { fields { name } } subscriptionType { fields { name } } } }";
    let response = schema.execute(introspection).await.into_result().unwrap().data.into_json().unwrap();
    let mut fields = BTreeSet::new();
    for root in ["queryType", "mutationType", "subscriptionType"] {
        for field in response["__schema"][root]["fields"].as_array().unwrap() {
            fields.insert(field["name"].as_str().unwrap().to_owned());
        }
    }
    let ids = TenantA::default();
    let covered: BTreeSet<String> = rows(&ids, "", "").into_iter().map(|r| r.field.to_owned()).collect();
    let missing: Vec<_> = fields.difference(&covered).collect();
    assert!(missing.is_empty(), "operations without a tenant-isolation row: {missing:?}");
    assert!(fields.len() > 30, "parsed the root types: {fields:?}");
}
