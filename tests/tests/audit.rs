//! The audit trail through the real server: security and lifecycle actions join their
//! organization's hash chain with who did what to what, where, and the request's correlation id,
//! never a secret; administrators list, verify and export it, and anyone can check an export. A
//! row edited, deleted, reordered or inserted directly in the database is found every time, and
//! so is a chain rewritten with every hash recomputed.

mod common;

use acc_api::audit::Problem;
use acc_api::identity::{ApiScope, DeviceInfo, NewUser};
use acc_entity::{audit_checkpoint, audit_event, audit_head};
use acc_tests::{Client, CountedApp, Server, TestDb, on_both_databases, op};
use base64::Engine;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const EVENT: &str = "id sequence occurredAt actorKind actorId action targetKind targetId workspaceId projectId \
                     correlationId details previousHash hash";

const VERIFY: &str = "{ verifyAudit { intact events checkpoints firstBroken { sequence problem } } }";

async fn trail(client: &Client) -> Vec<Value> {
    let page =
        client.gql(&format!("{{ auditEvents(first: 100) {{ edges {{ node {{ {EVENT} }} }} }} }}"), json!({})).await;
    page.data("auditEvents")["edges"].as_array().unwrap().iter().map(|edge| edge["node"].clone()).collect()
}

async fn verification(client: &Client) -> Value {
    client.gql(VERIFY, json!({})).await.data("verifyAudit").clone()
}

fn actions(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["action"].as_str().unwrap()).collect()
}

fn id(value: &Value) -> String {
    value["id"].as_str().unwrap().to_owned()
}

on_both_databases!(
    security_and_lifecycle_actions_are_chained_with_who_what_where_and_the_request,
    |db: TestDb| async move {
        let server = Server::start(db).await;
        let f = common::fixture(&server).await;
        let owner = &f.owner;
        let owner_id = id(owner.gql(op!("viewer"), json!({})).await.data("viewer"));
        // A wrong password for the owner's account is recorded (in the background); one for an
        // account that does not exist has no organization to be recorded in.
        let wrong = json!({"email": "owner@acme.test", "password": "not the password"});
        assert!(owner.anonymous().gql(op!("login"), wrong).await.code().is_some());
        let nobody = json!({"email": "nobody@acme.test", "password": "not the password"});
        assert!(owner.anonymous().gql(op!("login"), nobody).await.code().is_some());
        for _ in 0..100 {
            if actions(&trail(owner).await).contains(&"SIGN_IN_FAILED") {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }

        let token = owner
            .gql_with_headers(
                op!("create_api_token"),
                json!({"name": "CI", "scopes": ["READ"]}),
                &[("x-correlation-id", "audit-test-1")],
            )
            .await;
        let secret = token.data("createApiToken")["secret"].as_str().unwrap().to_owned();
        let token_id = id(&token.data("createApiToken")["apiToken"]);
        owner.gql(op!("revoke_api_token"), json!({"id": token_id})).await.data("revokeApiToken");
        let patch = json!({"scopeId": f.project_id, "patch": {"deploy_note": "s3cr3t-setting"}, "expectedRevision": 0});
        owner.gql(op!("set_settings"), patch).await.data("setSettings");
        let (member, member_id) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
        let task = common::create_task(owner, &f.project_id, "Audit me").await;
        let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
        let run_id = id(run.data("startRun"));
        owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { id } }", json!({"r": run_id})).await.data("cancelRun");

        let events = trail(owner).await;
        assert_eq!(
            actions(&events),
            [
                "ORGANIZATION_CREATED",
                "SIGNED_IN",
                "WORKSPACE_CREATED",
                "PROJECT_CREATED",
                "SIGN_IN_FAILED",
                "API_TOKEN_CREATED",
                "API_TOKEN_REVOKED",
                "SETTINGS_WRITTEN",
                "USER_CREATED",
                "SIGNED_IN",
                "TASK_CREATED",
                "RUN_STARTED",
                "RUN_CANCELLED",
            ]
        );
        // One chain: 1, 2, 3… each naming the hash of the one before.
        let mut previous = "0".repeat(64);
        for (n, event) in events.iter().enumerate() {
            assert_eq!(event["sequence"], json!(n + 1));
            assert_eq!(event["previousHash"], previous.as_str());
            previous = event["hash"].as_str().unwrap().to_owned();
        }
        let by_action = |action: &str| events.iter().find(|e| e["action"] == action).unwrap().clone();
        let failed = by_action("SIGN_IN_FAILED");
        assert_eq!((failed["actorKind"].as_str(), failed["actorId"].as_str()), (Some("ANONYMOUS"), None));
        assert_eq!(failed["targetId"], owner_id.as_str());
        assert_eq!(failed["details"]["reason"], "wrong password");
        let created = by_action("API_TOKEN_CREATED");
        assert_eq!(created["actorId"], owner_id.as_str());
        assert_eq!(
            (created["targetKind"].as_str(), created["targetId"].as_str()),
            (Some("API_TOKEN"), Some(&*token_id))
        );
        assert_eq!(created["correlationId"], "audit-test-1", "the request's own correlation id");
        assert_eq!(created["details"]["name"], "CI");
        let written = by_action("SETTINGS_WRITTEN");
        assert_eq!(written["projectId"], f.project_id.as_str());
        assert_eq!(written["details"]["keys"], json!(["deploy_note"]), "the keys it changed, not their values");
        assert_eq!(by_action("USER_CREATED")["targetId"], member_id.as_str());
        for action in ["RUN_STARTED", "RUN_CANCELLED"] {
            let event = by_action(action);
            assert_eq!(
                (event["targetId"].as_str(), event["projectId"].as_str()),
                (Some(&*run_id), Some(&*f.project_id))
            );
            assert!(event["correlationId"].as_str().is_some_and(|c| !c.is_empty()));
        }
        let checked = verification(owner).await;
        assert_eq!(checked["intact"], true, "{checked}");
        assert_eq!(checked["events"], 13);
        assert!(checked["checkpoints"].as_i64().unwrap() >= 1, "the chain's first event is checkpointed");

        // The export is the same chain, which anyone can check without the server.
        let export = owner.get("/v1/audit/events").await;
        assert_eq!(export.status(), 200);
        assert_eq!(export.headers()["content-type"], "application/x-ndjson");
        let text = export.text().await.unwrap();
        for kept_out in [secret.as_str(), "s3cr3t-setting", "not the password", acc_tests::PASSWORD] {
            assert!(!text.contains(kept_out), "the trail holds {kept_out}");
            assert!(!json!(events).to_string().contains(kept_out), "the trail holds {kept_out}");
        }
        let lines: Vec<Value> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        assert_eq!(lines.len(), 13);
        let mut previous = "0".repeat(64);
        for line in &lines {
            let mut covered = line.clone();
            let hash = covered.as_object_mut().unwrap().remove("hash").unwrap();
            covered.as_object_mut().unwrap().remove("id");
            // serde_json writes object keys sorted and no whitespace: the chain's canonical form.
            let computed = hex::encode(Sha256::digest(serde_json::to_string(&covered).unwrap()));
            assert_eq!(hash, computed.as_str(), "{line}");
            assert_eq!(line["previous_hash"], previous.as_str());
            previous = computed;
        }

        // Only the organization's administrators read the trail.
        member
            .gql(&format!("{{ auditEvents {{ edges {{ node {{ {EVENT} }} }} }} }}"), json!({}))
            .await
            .expect_code("FORBIDDEN");
        member.gql(VERIFY, json!({})).await.expect_code("FORBIDDEN");
        assert_eq!(member.get("/v1/audit/events").await.status(), 403);
        assert_eq!(owner.anonymous().get("/v1/audit/events").await.status(), 401);
        let node = member.gql(op!("node"), json!({"id": events[0]["id"]})).await;
        node.expect_code("FORBIDDEN");
    }
);

on_both_databases!(each_domains_writes_join_the_trail_without_their_content, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let project = owner
        .gql(op!("update_project"), json!({"id": f.project_id, "expectedRevision": 1, "name": "Control plane 2"}))
        .await;
    project.data("updateProject");
    let task = common::create_task(owner, &f.project_id, "Audit the domains").await;
    let update = json!({"input": {"id": task["id"], "expectedRevision": 1, "status": "IN_PROGRESS", "description": "hidden-task-text"}});
    owner.gql(op!("update_task"), update).await.data("updateTask");
    owner.gql(op!("delete_task"), json!({"id": task["id"]})).await.data("deleteTask");
    let input = json!({"scopeId": f.project_id, "kind": "FACT", "subject": "deploys", "content": "hidden-memory-text"});
    let written = owner.gql(op!("write_memory"), json!({"input": input})).await;
    let entry = written.data("writeMemory")["entry"].clone();
    let verify = "mutation($e: ID!, $r: Int!) { verifyMemory(entryId: $e, expectedRevision: $r, verdict: VERIFIED) { revision } }";
    let verified = owner.gql(verify, json!({"e": entry["id"], "r": entry["revision"]})).await;
    let retract = "mutation($e: ID!, $r: Int!) { retractMemory(entryId: $e, expectedRevision: $r) { id } }";
    owner
        .gql(retract, json!({"e": entry["id"], "r": verified.data("verifyMemory")["revision"]}))
        .await
        .data("retractMemory");
    let namespace = owner
        .gql(
            "mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: \"runbooks\") { id } }",
            json!({"s": f.project_id}),
        )
        .await;
    let namespace_id = id(namespace.data("createWikiNamespace"));
    let save = "mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id revision } }";
    let page = json!({"namespaceId": namespace_id, "path": "deploy", "title": "Deploy", "source": "hidden-wiki-text"});
    let page = owner.gql(save, json!({"i": page})).await.data("saveWikiPage").clone();
    let rename =
        "mutation($p: ID!, $r: Int!) { renameWikiPage(pageId: $p, path: \"ship\", expectedRevision: $r) { id } }";
    owner.gql(rename, json!({"p": page["id"], "r": page["revision"]})).await.data("renameWikiPage");
    let (status, _) = owner
        .post_bytes(
            &format!("/v1/artifacts?projectId={}&name=report.txt", f.project_id),
            b"hidden-artifact-bytes".to_vec(),
            &[],
        )
        .await;
    assert_eq!(status, 201);

    let events = trail(owner).await;
    let domain: Vec<&Value> = events.iter().skip_while(|e| e["action"] != "WORKSPACE_CREATED").collect();
    let actions: Vec<&str> = domain.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(
        actions,
        [
            "WORKSPACE_CREATED",
            "PROJECT_CREATED",
            "PROJECT_UPDATED",
            "TASK_CREATED",
            "TASK_UPDATED",
            "TASK_DELETED",
            "MEMORY_WRITTEN",
            "MEMORY_VERIFIED",
            "MEMORY_RETRACTED",
            "WIKI_NAMESPACE_CREATED",
            "WIKI_PAGE_SAVED",
            "WIKI_PAGE_RENAMED",
            "ARTIFACT_UPLOADED",
        ]
    );
    let by_action = |action: &str| *domain.iter().find(|e| e["action"] == action).unwrap();
    for event in &domain {
        assert_eq!(event["actorKind"], "USER");
        assert!(event["correlationId"].as_str().is_some_and(|c| !c.is_empty()), "{event}");
    }
    assert_eq!(by_action("WORKSPACE_CREATED")["targetId"], f.workspace_id.as_str());
    assert_eq!(by_action("PROJECT_UPDATED")["details"]["changed"], json!(["name"]));
    let updated = by_action("TASK_UPDATED");
    assert_eq!(
        (updated["targetId"].as_str(), updated["projectId"].as_str()),
        (task["id"].as_str(), Some(&*f.project_id))
    );
    assert_eq!(updated["details"]["changed"], json!(["description", "status"]));
    assert_eq!(updated["details"]["status"], "in_progress");
    assert_eq!(by_action("MEMORY_WRITTEN")["targetId"], entry["id"]);
    assert_eq!(by_action("MEMORY_VERIFIED")["details"]["verification"], "verified");
    assert_eq!(by_action("WIKI_PAGE_SAVED")["details"]["published"], true);
    assert_eq!(by_action("WIKI_PAGE_RENAMED")["details"]["from"], "deploy");
    let uploaded = by_action("ARTIFACT_UPLOADED");
    assert_eq!(uploaded["details"]["sha256"], hex::encode(Sha256::digest(b"hidden-artifact-bytes")).as_str());
    let trail_text = json!(events).to_string();
    for hidden in ["hidden-task-text", "hidden-memory-text", "hidden-wiki-text", "hidden-artifact-bytes"] {
        assert!(!trail_text.contains(hidden), "the trail holds {hidden}");
    }
    let checked = verification(owner).await;
    assert_eq!(checked["intact"], true, "{checked}");

    // A write refused changes nothing, the trail included.
    let stale = json!({"input": {"id": task["id"], "expectedRevision": 1, "title": "again"}});
    owner.gql(op!("update_task"), stale).await.expect_code("NOT_FOUND");
    assert_eq!(trail(owner).await.len(), events.len());
});

/// The stored chain, in sequence order.
async fn rows(conn: &DatabaseConnection) -> Vec<audit_event::Model> {
    audit_event::Entity::find().order_by_asc(audit_event::Column::Sequence).all(conn).await.unwrap()
}

/// Puts every row back as it was (by id).
async fn restore(conn: &DatabaseConnection, kept: &[audit_event::Model]) {
    // Out of the way first: sequences are unique.
    audit_event::Entity::update_many()
        .col_expr(audit_event::Column::Sequence, Expr::col(audit_event::Column::Sequence).mul(-1))
        .exec(conn)
        .await
        .unwrap();
    for row in kept {
        let mut active: audit_event::ActiveModel = row.clone().into();
        active = active.reset_all();
        active.update(conn).await.unwrap();
    }
}

async fn broken_at(owner: &Client) -> (i64, String) {
    let checked = verification(owner).await;
    assert_eq!(checked["intact"], false, "{checked}");
    let broken = &checked["firstBroken"];
    (broken["sequence"].as_i64().unwrap(), broken["problem"].as_str().unwrap().to_owned())
}

on_both_databases!(editing_deleting_reordering_or_inserting_a_row_is_detected_every_time, |db: TestDb| async move {
    let server = Server::start(db).await;
    let owner = server.owner().await;
    for n in 0..4 {
        owner.gql(op!("create_api_token"), json!({"name": format!("token {n}"), "scopes": ["READ"]})).await;
    }
    let checked = verification(&owner).await;
    assert_eq!((checked["intact"].as_bool(), checked["events"].as_i64()), (Some(true), Some(6)), "{checked}");
    let conn = server.db.connect().await;
    let kept = rows(&conn).await;
    let set = |sequence: i64, column: audit_event::Column, value: sea_orm::Value| {
        audit_event::Entity::update_many()
            .col_expr(column, Expr::value(value))
            .filter(audit_event::Column::Sequence.eq(sequence))
    };

    // An edited row.
    set(3, audit_event::Column::Details, json!({"name": "forged"}).into()).exec(&conn).await.unwrap();
    assert_eq!(broken_at(&owner).await, (3, "ALTERED".into()));
    restore(&conn, &kept).await;

    // An edited row whose hash was recomputed: the next one no longer links to it.
    let mut edited = kept[2].clone();
    edited.details = json!({"name": "forged"});
    edited.hash = acc_api::audit::event_hash(&edited);
    audit_event::ActiveModel::from(edited).reset_all().update(&conn).await.unwrap();
    assert_eq!(broken_at(&owner).await, (4, "UNLINKED".into()));
    restore(&conn, &kept).await;

    // The whole chain rewritten from its first event, every hash and link recomputed by someone
    // with the database but not the server's audit key: the signed checkpoint disagrees.
    let mut previous = "0".repeat(64);
    for (n, row) in kept.iter().enumerate() {
        let mut forged = row.clone();
        if n == 0 {
            forged.details = json!({"name": "Forged Inc."});
        }
        forged.previous_hash = previous;
        forged.hash = acc_api::audit::event_hash(&forged);
        previous = forged.hash.clone();
        audit_event::ActiveModel::from(forged).reset_all().update(&conn).await.unwrap();
    }
    assert_eq!(broken_at(&owner).await, (1, "REWRITTEN".into()));
    restore(&conn, &kept).await;

    // A deleted row, in the middle and at the end.
    for sequence in [3, 6] {
        audit_event::Entity::delete_many()
            .filter(audit_event::Column::Sequence.eq(sequence))
            .exec(&conn)
            .await
            .unwrap();
        assert_eq!(broken_at(&owner).await, (sequence, "MISSING".into()));
        audit_event::ActiveModel::from(kept[sequence as usize - 1].clone()).insert(&conn).await.unwrap();
    }

    // Two rows swapping places.
    set(2, audit_event::Column::Sequence, (-2i64).into()).exec(&conn).await.unwrap();
    set(5, audit_event::Column::Sequence, 2i64.into()).exec(&conn).await.unwrap();
    set(-2, audit_event::Column::Sequence, 5i64.into()).exec(&conn).await.unwrap();
    assert_eq!(broken_at(&owner).await, (2, "UNLINKED".into()));
    restore(&conn, &kept).await;

    // A row added after the last, linked and hashed as the server would have.
    let mut added = kept[5].clone();
    added.id = uuid::Uuid::now_v7();
    added.sequence = 7;
    added.previous_hash = kept[5].hash.clone();
    added.hash = acc_api::audit::event_hash(&added);
    let added_id = added.id;
    audit_event::ActiveModel::from(added).insert(&conn).await.unwrap();
    assert_eq!(broken_at(&owner).await, (7, "APPENDED".into()));
    audit_event::Entity::delete_by_id(added_id).exec(&conn).await.unwrap();

    // A checkpoint whose signature is not the server's.
    let checkpoint = audit_checkpoint::Entity::find().one(&conn).await.unwrap().unwrap();
    let forged = base64::engine::general_purpose::STANDARD.encode([7u8; 64]);
    audit_checkpoint::Entity::update_many()
        .col_expr(audit_checkpoint::Column::Signature, Expr::value(forged))
        .filter(audit_checkpoint::Column::Id.eq(checkpoint.id))
        .exec(&conn)
        .await
        .unwrap();
    assert_eq!(broken_at(&owner).await, (checkpoint.sequence, "FORGED_CHECKPOINT".into()));
    audit_checkpoint::ActiveModel::from(checkpoint).reset_all().update(&conn).await.unwrap();

    // Every change undone, the chain holds again.
    let checked = verification(&owner).await;
    assert_eq!((checked["intact"].as_bool(), checked["events"].as_i64()), (Some(true), Some(6)), "{checked}");
});

on_both_databases!(a_running_server_signs_every_head_that_grew, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let services = &counted.app.state.services;
    let code = counted.app.bootstrap_code.clone().unwrap();
    let owner =
        NewUser { email: "owner@acme.test".into(), display_name: String::new(), password: acc_tests::PASSWORD.into() };
    let signed_in = services.identity.redeem_bootstrap(&code, "Acme", owner, DeviceInfo::default()).await.unwrap();
    let actor = services.identity.authenticate(&signed_in.access_token).await.unwrap();
    for n in 0..3 {
        services.identity.create_api_token(&actor, &format!("token {n}"), vec![ApiScope::Read], None).await.unwrap();
    }
    let reader = services.audit.reader(&actor).unwrap();
    let checked = services.audit.verify(&reader).await.unwrap();
    assert_eq!((checked.events, checked.checkpoints), (5, 1), "only the first event is signed yet");

    // What the server does every minute: the one chain that grew is signed at its head, once.
    assert_eq!(services.audit.checkpoint_heads().await.unwrap(), 1);
    assert_eq!(services.audit.checkpoint_heads().await.unwrap(), 0, "nothing grew since");
    let checked = services.audit.verify(&reader).await.unwrap();
    assert_eq!((checked.events, checked.checkpoints, checked.first_broken), (5, 2, None));

    // So the last event, and the head with it, cannot be rewritten unseen any more.
    let conn = db.connect().await;
    let mut last =
        audit_event::Entity::find().filter(audit_event::Column::Sequence.eq(5)).one(&conn).await.unwrap().unwrap();
    last.details = json!({"name": "forged"});
    last.hash = acc_api::audit::event_hash(&last);
    let forged_hash = last.hash.clone();
    audit_event::ActiveModel::from(last).reset_all().update(&conn).await.unwrap();
    audit_head::Entity::update_many()
        .col_expr(audit_head::Column::Hash, Expr::value(forged_hash))
        .exec(&conn)
        .await
        .unwrap();
    let checked = services.audit.verify(&reader).await.unwrap();
    let broken = checked.first_broken.unwrap();
    assert_eq!((broken.sequence, broken.problem), (5, Problem::Rewritten));
});
