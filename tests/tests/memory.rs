//! Memory through the real server: versions, conflicts a person resolves, "as of" reads,
//! verification by people only, retraction, and reads narrowed by role, sensitivity and ACL.

mod common;

use acc_tests::{Client, Server, TestDb, on_both_databases, op};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn write(scope: &str, subject: &str, content: &str) -> Value {
    json!({"input": {"scopeId": scope, "kind": "FACT", "subject": subject, "content": content}})
}

async fn entry(client: &Client, id: &str) -> Value {
    client.gql(op!("memory_entry"), json!({"id": id})).await.data("memoryEntry").clone()
}

on_both_databases!(a_contradiction_opens_a_conflict_and_never_overwrites, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;

    let first = owner.gql(op!("write_memory"), write(&f.project_id, "Deploy  Target", "production is eu-west-1")).await;
    let first = first.data("writeMemory").clone();
    assert_eq!(first["conflict"], Value::Null);
    assert_eq!(first["version"]["number"], 1);
    assert_eq!(first["version"]["verification"], "UNVERIFIED", "nothing lands verified");
    assert_eq!(first["version"]["provenance"]["source"], "person");
    let hash = hex::encode(Sha256::digest("production is eu-west-1"));
    assert_eq!(first["version"]["contentHash"], hash.as_str());
    assert_eq!(first["entry"]["subject"], "deploy target", "subjects are normalized");
    assert_eq!(first["entry"]["scopeKind"], "PROJECT");
    assert_eq!(first["entry"]["scopeId"], f.project_id.as_str());
    let entry_id = first["entry"]["id"].as_str().unwrap().to_owned();
    let v1 = first["version"]["id"].as_str().unwrap().to_owned();

    // The same subject, written differently: a conflict, the current version untouched.
    let second = owner.gql(op!("write_memory"), write(&f.project_id, "deploy target", "production is us-east-2")).await;
    let second = second.data("writeMemory").clone();
    let conflict = second["conflict"].clone();
    assert_eq!(conflict["status"], "OPEN");
    assert_eq!(conflict["currentVersionId"], v1.as_str());
    assert_eq!(second["entry"]["id"], entry_id.as_str());
    assert_eq!(second["entry"]["current"]["content"], "production is eu-west-1");
    assert_eq!(second["version"]["becameCurrentAt"], Value::Null, "the proposed version waits");
    let v2 = second["version"]["id"].as_str().unwrap().to_owned();
    let read = entry(owner, &entry_id).await;
    assert_eq!(read["current"]["content"], "production is eu-west-1");
    assert_eq!(read["versions"].as_array().unwrap().len(), 2);
    assert_eq!(read["conflicts"][0]["status"], "OPEN");

    // A person accepts the proposed version; what the memory said before stays readable as of then.
    let before = chrono::Utc::now();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let resolve = "mutation($c: ID!, $r: Int!, $res: MemoryConflictResolution!) { resolveMemoryConflict(conflictId: $c, \
                   expectedRevision: $r, resolution: $res) { id status resolution revision } }";
    let conflict_id = conflict["id"].as_str().unwrap();
    let stale = owner.gql(resolve, json!({"c": conflict_id, "r": 7, "res": "ACCEPT_PROPOSED"})).await;
    stale.expect_code("CONFLICT");
    let resolved = owner.gql(resolve, json!({"c": conflict_id, "r": 1, "res": "ACCEPT_PROPOSED"})).await;
    assert_eq!(resolved.data("resolveMemoryConflict")["status"], "RESOLVED");
    assert_eq!(resolved.data("resolveMemoryConflict")["resolution"], "ACCEPT_PROPOSED");
    let again = owner.gql(resolve, json!({"c": conflict_id, "r": 2, "res": "KEEP_CURRENT"})).await;
    again.expect_code("INVALID_TRANSITION");
    let now = entry(owner, &entry_id).await;
    assert_eq!(now["current"]["id"], v2.as_str());
    assert_eq!(now["current"]["content"], "production is us-east-2");
    let then = owner.gql(op!("memory_entry"), json!({"id": entry_id, "asOf": before.to_rfc3339()})).await;
    assert_eq!(then.data("memoryEntry")["current"]["id"], v1.as_str(), "as of before the resolution");
    let long_ago = owner.gql(op!("memory_entry"), json!({"id": entry_id, "asOf": "2000-01-01T00:00:00Z"})).await;
    long_ago.expect_code("NOT_FOUND");

    // Superseding a version that is no longer current is a conflict too; superseding the current one stands.
    let mut stale_supersede = write(&f.project_id, "deploy target", "production is ap-south-1");
    stale_supersede["input"]["supersedes"] = json!(v1);
    let stale_supersede = owner.gql(op!("write_memory"), stale_supersede).await;
    assert_eq!(stale_supersede.data("writeMemory")["conflict"]["currentVersionId"], v2.as_str());
    let mut supersede = write(&f.project_id, "deploy target", "production is eu-central-1");
    supersede["input"]["supersedes"] = json!(v2);
    let supersede = owner.gql(op!("write_memory"), supersede).await;
    let supersede = supersede.data("writeMemory");
    assert_eq!(supersede["conflict"], Value::Null);
    assert_eq!(supersede["version"]["supersedesId"], v2.as_str());
    assert_eq!(supersede["entry"]["current"]["content"], "production is eu-central-1");
    assert_eq!(supersede["version"]["number"], 4);
    // The conflict opened against v2 cannot replace v4 now: that would undo the supersede.
    let stale_conflict = stale_supersede.data("writeMemory")["conflict"]["id"].as_str().unwrap().to_owned();
    let undo = owner.gql(resolve, json!({"c": stale_conflict, "r": 1, "res": "ACCEPT_PROPOSED"})).await;
    undo.expect_code("INVALID_TRANSITION");
    let kept = owner.gql(resolve, json!({"c": stale_conflict, "r": 1, "res": "KEEP_CURRENT"})).await;
    assert_eq!(kept.data("resolveMemoryConflict")["resolution"], "KEEP_CURRENT");
    assert_eq!(entry(owner, &entry_id).await["current"]["content"], "production is eu-central-1");
    let mut foreign = write(&f.project_id, "another subject", "x");
    foreign["input"]["supersedes"] = json!(v2);
    owner.gql(op!("write_memory"), foreign).await.expect_code("VALIDATION");
});

on_both_databases!(people_verify_dispute_and_retract_with_revisions, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let (member, member_id) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;

    let written = owner.gql(op!("write_memory"), write(&f.workspace_id, "On-call", "Ada is on call")).await;
    let entry_id = written.data("writeMemory")["entry"]["id"].as_str().unwrap().to_owned();
    let verify = "mutation($e: ID!, $r: Int!, $v: MemoryVerdict!) { verifyMemory(entryId: $e, expectedRevision: $r, \
                  verdict: $v) { id revision current { verification verifiedById } } }";
    assert_eq!(entry(&viewer, &entry_id).await["current"]["content"], "Ada is on call", "viewers read");
    viewer.gql(verify, json!({"e": entry_id, "r": 1, "v": "VERIFIED"})).await.expect_code("FORBIDDEN");
    viewer.gql(op!("write_memory"), write(&f.workspace_id, "On-call", "Bob is on call")).await.expect_code("FORBIDDEN");
    member.gql(verify, json!({"e": entry_id, "r": 0, "v": "VERIFIED"})).await.expect_code("CONFLICT");
    let verified = member.gql(verify, json!({"e": entry_id, "r": 1, "v": "VERIFIED"})).await;
    let verified = verified.data("verifyMemory");
    assert_eq!(verified["revision"], 2);
    assert_eq!(verified["current"]["verification"], "VERIFIED");
    assert_eq!(verified["current"]["verifiedById"], member_id.as_str());
    let disputed = owner.gql(verify, json!({"e": entry_id, "r": 2, "v": "DISPUTED"})).await;
    assert_eq!(disputed.data("verifyMemory")["current"]["verification"], "DISPUTED");

    let retract = "mutation($e: ID!, $r: Int!) { retractMemory(entryId: $e, expectedRevision: $r) { revision current { \
                   verification } } }";
    viewer.gql(retract, json!({"e": entry_id, "r": 3})).await.expect_code("FORBIDDEN");
    let retracted = member.gql(retract, json!({"e": entry_id, "r": 3})).await;
    assert_eq!(retracted.data("retractMemory")["current"]["verification"], "RETRACTED");
    member.gql(retract, json!({"e": entry_id, "r": 4})).await.expect_code("INVALID_TRANSITION");
    member.gql(verify, json!({"e": entry_id, "r": 4, "v": "VERIFIED"})).await.expect_code("INVALID_TRANSITION");
    // Nothing live is left, so the next write about the subject stands without a conflict.
    let next = member.gql(op!("write_memory"), write(&f.workspace_id, "on-call", "Grace is on call")).await;
    let next = next.data("writeMemory");
    assert_eq!(next["conflict"], Value::Null);
    assert_eq!(next["entry"]["current"]["content"], "Grace is on call");
    assert_eq!(next["entry"]["current"]["verification"], "UNVERIFIED");
});

on_both_databases!(sensitivity_and_acl_narrow_every_read, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let (member, member_id) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
    let (other, _) = common::user_with_role(owner, "other@acme.test", "MEMBER").await;

    let mut restricted = write(&f.project_id, "Root password location", "in the red safe");
    restricted["input"]["sensitivity"] = json!("RESTRICTED");
    let restricted = owner.gql(op!("write_memory"), restricted).await;
    let restricted = restricted.data("writeMemory").clone();
    let mut confidential = write(&f.project_id, "Salary band", "between 1 and 2");
    confidential["input"]["sensitivity"] = json!("CONFIDENTIAL");
    let confidential = owner.gql(op!("write_memory"), confidential).await;
    let confidential = confidential.data("writeMemory").clone();
    let mut private = write(&f.project_id, "Review notes", "for the member only");
    private["input"]["acl"] = json!([member_id]);
    let private = owner.gql(op!("write_memory"), private).await;
    let private = private.data("writeMemory").clone();

    let ids =
        |w: &Value| (w["entry"]["id"].as_str().unwrap().to_owned(), w["version"]["id"].as_str().unwrap().to_owned());
    let node = |client: &Client, id: String| {
        let client = client.clone();
        async move { client.gql(op!("node"), json!({"id": id})).await }
    };
    // (reader, entry, may read)
    let cases = [
        (&viewer, ids(&restricted), false),
        (&member, ids(&restricted), false),
        (owner, ids(&restricted), true),
        (&viewer, ids(&confidential), false),
        (&member, ids(&confidential), true),
        (&viewer, ids(&private), false),
        (&other, ids(&private), false),
        (&member, ids(&private), true),
        (owner, ids(&private), true),
    ];
    for (i, (reader, (entry_id, version_id), may)) in cases.into_iter().enumerate() {
        let read = reader.gql(op!("memory_entry"), json!({"id": entry_id})).await;
        let by_node = node(reader, entry_id.clone()).await;
        let version = node(reader, version_id.clone()).await;
        if may {
            assert_eq!(read.data("memoryEntry")["id"], entry_id.as_str(), "case {i}");
            assert_eq!(by_node.data("node")["id"], entry_id.as_str(), "case {i}");
            assert_eq!(version.data("node")["id"], version_id.as_str(), "case {i}");
        } else {
            read.expect_code("NOT_FOUND");
            by_node.expect_code("NOT_FOUND");
            version.expect_code("NOT_FOUND");
        }
    }
    // Whoever could not read it cannot change it either, and cannot learn it exists.
    let verify = "mutation($e: ID!) { verifyMemory(entryId: $e, expectedRevision: 1, verdict: DISPUTED) { id } }";
    member.gql(verify, json!({"e": ids(&restricted).0})).await.expect_code("NOT_FOUND");
    // A member cannot write what a member could not read back.
    let mut too_high = write(&f.project_id, "Vault", "x");
    too_high["input"]["sensitivity"] = json!("RESTRICTED");
    member.gql(op!("write_memory"), too_high).await.expect_code("FORBIDDEN");
    assert_eq!(entry(owner, &ids(&restricted).0).await["current"]["content"], "in the red safe");
});

on_both_databases!(bad_memory_input_is_refused_and_writes_nothing, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let refuse = |input: Value| {
        let owner = owner.clone();
        async move { owner.gql(op!("write_memory"), json!({"input": input})).await.expect_code("VALIDATION").clone() }
    };
    let base = || json!({"scopeId": f.project_id, "kind": "FACT", "subject": "Limits", "content": "ok"});
    let with = |key: &str, value: Value| {
        let mut input = base();
        input[key] = value;
        input
    };
    refuse(with("subject", json!("   "))).await;
    refuse(with("subject", json!("s".repeat(201)))).await;
    refuse(with("content", json!(""))).await;
    refuse(with("content", json!("x".repeat(33 * 1024)))).await;
    refuse(with("summary", json!("x".repeat(2048)))).await;
    refuse(with("confidence", json!(1.5))).await;
    refuse(with("confidence", json!(-0.1))).await;
    let mut backwards = base();
    backwards["validFrom"] = json!("2026-12-05T10:00:00Z");
    backwards["validUntil"] = json!("2026-12-05T09:00:00Z");
    refuse(backwards).await;
    // An id of something that holds no memory.
    let enrollment = owner
        .gql(
            "mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: \"host\") { enrollmentToken { id } } }",
            json!({"w": f.workspace_id}),
        )
        .await;
    refuse(with("scopeId", enrollment.data("createEnrollmentToken")["enrollmentToken"]["id"].clone())).await;
    refuse(with("scopeId", json!("not-an-id"))).await;
    refuse(with("acl", json!([f.project_id]))).await;
    refuse(with("supersedes", json!(f.project_id))).await;
    // Nothing was stored: the first good write makes version 1 of a new entry.
    let good = owner.gql(op!("write_memory"), json!({"input": base()})).await;
    assert_eq!(good.data("writeMemory")["version"]["number"], 1);
    assert_eq!(good.data("writeMemory")["conflict"], Value::Null);
});

/// The subjects of a search's hits, best first.
async fn found(client: &Client, variables: Value) -> Vec<String> {
    let result = client.gql(op!("memory"), variables).await;
    assert_eq!(result.data("memoryRetrievalMode"), "FULL_TEXT_ONLY");
    let hits = result.data("memory").as_array().unwrap();
    for hit in hits {
        assert_eq!(hit["foundBy"] == json!(["FULL_TEXT"]), hit["score"].is_number(), "{hit}");
    }
    hits.iter().map(|h| h["entry"]["subject"].as_str().unwrap().to_owned()).collect()
}

on_both_databases!(search_reads_down_the_scopes_ranks_and_filters, |db: TestDb| async move {
    let url = db.url.clone();
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (member, _) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
    let org = common::organization_id(owner).await;
    let other = common::other_project(owner, &f.workspace_id, "Elsewhere").await;
    let put = |scope: &str, subject: &str, content: &str, extra: Value| {
        let mut input = write(scope, subject, content);
        for (k, v) in extra.as_object().unwrap() {
            input["input"][k] = v.clone();
        }
        let owner = owner.clone();
        async move { owner.gql(op!("write_memory"), input).await.data("writeMemory").clone() }
    };
    put(&org, "Coding style", "we format Rust with rustfmt", json!({"kind": "CONSTRAINT"})).await;
    put(&f.workspace_id, "Release train", "releases leave every Tuesday; rustfmt runs in CI", json!({})).await;
    put(&f.project_id, "Database", "the project stores its data in PostgreSQL", json!({"kind": "DECISION"})).await;
    put(&other, "Other database", "the other project stores its data in SQLite", json!({})).await;
    put(
        &f.project_id,
        "Secrets location",
        "the database password lives in the vault",
        json!({"sensitivity": "RESTRICTED"}),
    )
    .await;
    let old = put(&f.project_id, "Old database", "the project once stored its data in MySQL", json!({})).await;
    let retract = "mutation($e: ID!) { retractMemory(entryId: $e, expectedRevision: 1) { id } }";
    owner.gql(retract, json!({"e": old["entry"]["id"]})).await.data("retractMemory");
    put(
        &f.project_id,
        "Future plan",
        "the project will store its data in a column store",
        json!({"validFrom": "2100-01-01T00:00:00Z"}),
    )
    .await;

    // From the project: the project's, the workspace's and the organization's, never another project's.
    let project = |query: &str| json!({"scopeId": f.project_id, "query": query});
    let mut rustfmt = found(owner, project("rustfmt")).await;
    rustfmt.sort();
    assert_eq!(rustfmt, vec!["coding style", "release train"]);
    assert_eq!(found(owner, project("stores data")).await, vec!["database"], "stemmed, and not the other project's");
    // From the workspace: never what a project below holds.
    assert_eq!(found(owner, json!({"scopeId": f.workspace_id, "query": "data stored"})).await, Vec::<String>::new());
    // The subject weighs most.
    assert_eq!(found(owner, project("database")).await[0], "database");
    // Restricted: the owner finds it, a member does not.
    assert!(found(owner, project("vault password")).await.contains(&"secrets location".to_owned()));
    assert!(found(&member, project("vault password")).await.is_empty());
    // Retracted only when asked for; not yet valid never.
    assert!(!found(owner, project("MySQL")).await.contains(&"old database".to_owned()));
    let retracted =
        found(owner, json!({"scopeId": f.project_id, "query": "MySQL", "verification": ["RETRACTED"]})).await;
    assert_eq!(retracted, vec!["old database"]);
    assert!(!found(owner, project("column store")).await.contains(&"future plan".to_owned()));
    // A task reads its own entries and everything above; its project never reads the task's.
    let task = common::create_task(owner, &f.project_id, "Migrate").await;
    let task_id = task["id"].as_str().unwrap().to_owned();
    let step = put(&task_id, "Migration step", "first copy the data, then switch", json!({})).await;
    assert_eq!(step["entry"]["scopeKind"], "TASK");
    assert_eq!(step["entry"]["scopeId"], task_id.as_str());
    let mut from_task = found(owner, json!({"scopeId": task_id, "query": "data rustfmt"})).await;
    from_task.sort();
    assert_eq!(from_task, vec!["coding style", "database", "migration step", "release train"]);
    assert!(!found(owner, project("copy switch")).await.contains(&"migration step".to_owned()));
    // Kinds, and no text: the most recently changed first.
    assert_eq!(found(owner, json!({"scopeId": f.project_id, "kinds": ["DECISION"]})).await, vec!["database"]);
    let recent = found(owner, json!({"scopeId": f.project_id, "first": 2})).await;
    assert_eq!(recent, vec!["secrets location", "database"], "not the task's entry, written last");
    // Query syntax is never read as syntax.
    assert_eq!(found(owner, project("\"data\" OR (NEAR stores) * -x")).await, vec!["database"]);
    for (bad, why) in [
        (json!({"scopeId": f.project_id, "query": " *() "}), "no word"),
        (json!({"scopeId": f.project_id, "query": "x".repeat(2000)}), "too long"),
        (json!({"scopeId": f.project_id, "first": 0}), "first 0"),
        (json!({"scopeId": f.project_id, "first": 51}), "first 51"),
        (json!({"scopeId": "not-an-id"}), "not an id"),
        (json!({"scopeId": f.workspace_id.clone() + "x"}), "a damaged id"),
    ] {
        let refused = owner.gql(op!("memory"), bad).await;
        assert_eq!(refused.code(), Some("VALIDATION"), "{why}");
    }
    // Without the embedding model, searching by meaning is refused, not quietly done by words.
    let by_meaning = json!({"scopeId": f.project_id, "query": "data", "retrievers": ["VECTOR"]});
    owner.gql(op!("memory"), by_meaning).await.expect_code("CAPABILITY_MISSING");

    // The index is derived: dropping its rows loses nothing, a rebuild brings every entry back.
    let direct = sea_orm::Database::connect(&url).await.unwrap();
    let sqlite = url.starts_with("sqlite");
    let tables: &[&str] = if sqlite { &["memory_search", "memory_search_past"] } else { &["memory_search"] };
    let drop_index = async || {
        for table in tables {
            sea_orm::ConnectionTrait::execute_unprepared(&direct, &format!("DELETE FROM {table}")).await.unwrap();
        }
    };
    drop_index().await;
    assert!(found(owner, project("rustfmt")).await.is_empty());
    if sqlite {
        // What the migration that shaped the index fills it with is what the server searches.
        for fill in acc_migration::SQLITE_MEMORY_SEARCH_FILL {
            sea_orm::ConnectionTrait::execute_unprepared(&direct, fill).await.unwrap();
        }
        assert_eq!(found(owner, project("rustfmt")).await.len(), 2);
        drop_index().await;
    }
    member.gql("mutation { rebuildMemoryIndex }", json!({})).await.expect_code("FORBIDDEN");
    let rebuilt = owner.gql("mutation { rebuildMemoryIndex }", json!({})).await;
    assert_eq!(rebuilt.data("rebuildMemoryIndex"), 8);
    let mut rustfmt = found(owner, project("rustfmt")).await;
    rustfmt.sort();
    assert_eq!(rustfmt, vec!["coding style", "release train"]);
});

on_both_databases!(changes_reach_live_subscribers_who_may_read_them, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (member, _) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
    let org = common::organization_id(owner).await;
    let other = common::other_project(owner, &f.workspace_id, "Elsewhere").await;
    let updated = "subscription($s: ID!) { memoryUpdated(scopeId: $s) { subject current { content verification } } }";
    let mut feed = member.subscribe(updated, json!({"s": f.project_id})).await.unwrap();
    let next = |payload: Value| {
        let entry = payload["data"]["memoryUpdated"].clone();
        (entry["subject"].as_str().unwrap_or_default().to_owned(), entry["current"]["verification"].clone())
    };

    // Not seen: another project's, and what a member may not read.
    owner.gql(op!("write_memory"), write(&other, "Elsewhere", "not for this feed")).await.data("writeMemory");
    let mut restricted = write(&f.project_id, "Keys", "in the safe");
    restricted["input"]["sensitivity"] = json!("RESTRICTED");
    owner.gql(op!("write_memory"), restricted).await.data("writeMemory");
    // Seen, in order: the organization's (read down from the project), the project's, its verification.
    owner.gql(op!("write_memory"), write(&org, "Holidays", "the office closes in August")).await.data("writeMemory");
    let written = owner.gql(op!("write_memory"), write(&f.project_id, "Owner", "Ada owns this project")).await;
    let entry_id = written.data("writeMemory")["entry"]["id"].as_str().unwrap().to_owned();
    let verify = "mutation($e: ID!) { verifyMemory(entryId: $e, expectedRevision: 1, verdict: VERIFIED) { id } }";
    owner.gql(verify, json!({"e": entry_id})).await.data("verifyMemory");
    assert_eq!(next(feed.next().await.unwrap()), ("holidays".to_owned(), json!("UNVERIFIED")));
    assert_eq!(next(feed.next().await.unwrap()), ("owner".to_owned(), json!("UNVERIFIED")));
    assert_eq!(next(feed.next().await.unwrap()), ("owner".to_owned(), json!("VERIFIED")));
    feed.expect_silence(std::time::Duration::from_millis(300)).await;

    // From the workspace, never what a project below holds.
    let mut wide = member.subscribe(updated, json!({"s": f.workspace_id})).await.unwrap();
    owner.gql(op!("write_memory"), write(&f.project_id, "Below", "a project's")).await.data("writeMemory");
    wide.expect_silence(std::time::Duration::from_millis(300)).await;
    let bad = member.subscribe(updated, json!({"s": "not-an-id"})).await.unwrap().next().await.unwrap();
    assert_eq!(bad["errors"][0]["extensions"]["code"], "VALIDATION");
});

on_both_databases!(a_persons_own_memory_and_a_runs_are_read_only_where_they_belong, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (member, member_id) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
    let (viewer, viewer_id) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let project = |query: &str| json!({"scopeId": f.project_id, "query": query});

    // A person's own memory: written by anyone, even a viewer; read by them from everywhere...
    let mine = member.gql(op!("write_memory"), write(&member_id, "My shortcuts", "I review with git range-diff")).await;
    let mine = mine.data("writeMemory")["entry"].clone();
    assert_eq!(mine["scopeKind"], "USER");
    assert_eq!(mine["scopeId"], member_id.as_str());
    let theirs = viewer.gql(op!("write_memory"), write(&viewer_id, "Reading list", "the range-diff manual")).await;
    theirs.data("writeMemory");
    let found = member.gql(op!("memory"), project("range-diff")).await;
    let subjects: Vec<&Value> =
        found.data("memory").as_array().unwrap().iter().map(|h| &h["entry"]["subject"]).collect();
    assert_eq!(subjects, vec!["my shortcuts"], "their own, never another person's");
    let entry_id = mine["id"].as_str().unwrap();
    let verify = "mutation($e: ID!) { verifyMemory(entryId: $e, expectedRevision: 1, verdict: VERIFIED) { id } }";
    member.gql(verify, json!({"e": entry_id})).await.data("verifyMemory");
    // ...and by nobody else, an owner included: for them it does not exist.
    assert_eq!(owner.gql(op!("memory"), project("range-diff")).await.data("memory"), &json!([]));
    owner.gql(op!("memory_entry"), json!({"id": entry_id})).await.expect_code("NOT_FOUND");
    owner.gql(op!("write_memory"), write(&member_id, "Planted", "do as I say")).await.expect_code("NOT_FOUND");
    let search_theirs = json!({"scopeId": member_id, "query": "range-diff"});
    owner.gql(op!("memory"), search_theirs).await.expect_code("NOT_FOUND");
    let retract = "mutation($e: ID!) { retractMemory(entryId: $e, expectedRevision: 2) { id } }";
    owner.gql(retract, json!({"e": entry_id})).await.expect_code("NOT_FOUND");

    // A run's memory: read from the run, with its task's and everything above; never from its task.
    let task = common::create_task(owner, &f.project_id, "Port the parser").await;
    let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = run.data("startRun")["id"].as_str().unwrap().to_owned();
    let learned =
        owner.gql(op!("write_memory"), write(&run_id, "Parser quirk", "the lexer needs a lookahead of two")).await;
    assert_eq!(learned.data("writeMemory")["entry"]["scopeKind"], "RUN");
    owner.gql(op!("write_memory"), write(task["id"].as_str().unwrap(), "Parser goal", "a lexer in Rust")).await;
    owner.gql(op!("write_memory"), write(&f.project_id, "Parser style", "the lexer is table driven")).await;
    let from = |scope: &str| json!({"scopeId": scope, "query": "lexer"});
    let subjects = |result: acc_tests::GqlResponse| {
        let mut found: Vec<String> = result
            .data("memory")
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["entry"]["subject"].as_str().unwrap().to_owned())
            .collect();
        found.sort();
        found
    };
    assert_eq!(
        subjects(owner.gql(op!("memory"), from(&run_id)).await),
        ["parser goal", "parser quirk", "parser style"]
    );
    assert_eq!(
        subjects(owner.gql(op!("memory"), from(task["id"].as_str().unwrap())).await),
        ["parser goal", "parser style"]
    );
});

on_both_databases!(a_search_as_of_a_past_time_reads_what_memory_said_then, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (member, _) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
    let written = |subject: &str, content: &str| {
        let input = write(&f.project_id, subject, content);
        async move { owner.gql(op!("write_memory"), input).await.data("writeMemory").clone() }
    };
    let train = written("Release train", "releases leave on Tuesdays").await;
    let pager = written("Pager", "the pager goes to Ada").await;
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let then = chrono::Utc::now().to_rfc3339();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let mut later = write(&f.project_id, "release train", "releases leave on Thursdays, after the freeze");
    later["input"]["supersedes"] = train["version"]["id"].clone();
    owner.gql(op!("write_memory"), later).await.data("writeMemory");
    let retract = "mutation($e: ID!) { retractMemory(entryId: $e, expectedRevision: 1) { id } }";
    owner.gql(retract, json!({"e": pager["entry"]["id"]})).await.data("retractMemory");
    written("Build cache", "the build cache lives in the object store").await;

    let search = |query: Option<&str>, as_of: Option<&str>| {
        let variables = json!({"scopeId": f.project_id, "query": query, "asOf": as_of});
        async move { owner.gql(op!("memory"), variables).await.data("memory").as_array().unwrap().clone() }
    };
    let said = |hits: Vec<Value>| -> Vec<(String, String)> {
        let mut said: Vec<(String, String)> = hits
            .iter()
            .map(|h| {
                let subject = h["entry"]["subject"].as_str().unwrap().to_owned();
                (subject, h["entry"]["current"]["content"].as_str().unwrap().to_owned())
            })
            .collect();
        said.sort();
        said
    };
    let pair = |subject: &str, content: &str| (subject.to_owned(), content.to_owned());

    // Now: the Thursday version, no pager (retracted), the build cache.
    assert!(search(Some("tuesdays"), None).await.is_empty(), "today's memory says Thursday");
    assert_eq!(
        said(search(None, None).await),
        vec![
            pair("build cache", "the build cache lives in the object store"),
            pair("release train", "releases leave on Thursdays, after the freeze"),
        ]
    );
    // As of then: the Tuesday version, the pager (retracted only later), no build cache yet.
    assert_eq!(
        said(search(Some("tuesdays"), Some(&then)).await),
        vec![pair("release train", "releases leave on Tuesdays")]
    );
    assert!(search(Some("thursdays freeze"), Some(&then)).await.is_empty(), "not said yet then");
    assert!(search(Some("build cache"), Some(&then)).await.is_empty(), "not written yet then");
    assert_eq!(
        said(search(None, Some(&then)).await),
        vec![pair("pager", "the pager goes to Ada"), pair("release train", "releases leave on Tuesdays")]
    );
    let hit = &search(Some("pager"), Some(&then)).await[0];
    assert_eq!(hit["foundBy"], json!(["FULL_TEXT"]));
    assert_eq!(hit["entry"]["current"]["verification"], "RETRACTED", "today's verdict on what was said then");
    // Before anything was written, nothing; a member reads the same past.
    assert!(search(None, Some("2000-01-01T00:00:00Z")).await.is_empty());
    let variables = json!({"scopeId": f.project_id, "query": "tuesdays", "asOf": then});
    assert_eq!(member.gql(op!("memory"), variables).await.data("memory").as_array().unwrap().len(), 1);
    // Meaning is kept for current versions only: asked for as of a past time, it is refused.
    let by_meaning = json!({"scopeId": f.project_id, "query": "x", "asOf": then, "retrievers": ["VECTOR"]});
    owner.gql(op!("memory"), by_meaning).await.expect_code("VALIDATION");
    let unparsable = json!({"scopeId": f.project_id, "asOf": "yesterday"});
    owner.gql(op!("memory"), unparsable).await.expect_code("VALIDATION");
});
