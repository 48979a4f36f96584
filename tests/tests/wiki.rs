//! The wiki through the real server: namespaces, pages saved as revisions with `expectedRevision`,
//! diffs, `[[links]]` and backlinks kept across a rename; roles, authoritative namespaces that keep
//! a person's save as a draft; and bad input refused with nothing changed.

mod common;

use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases};
use serde_json::{Value, json};

const PAGE_FIELDS: &str = "id path title revision publishedRevision latest { number path title source sha256 \
                           provenance createdById } published { number } links { targetPath page { id path } }";

async fn namespace(client: &Client, scope_id: &str, name: &str, authoritative: bool) -> String {
    let made = client
        .gql(
            "mutation($s: ID!, $n: String!, $a: Boolean!) { createWikiNamespace(scopeId: $s, name: $n, authoritative: $a) { id name authoritative } }",
            json!({"s": scope_id, "n": name, "a": authoritative}),
        )
        .await;
    let namespace = made.data("createWikiNamespace");
    assert_eq!(namespace["authoritative"], authoritative);
    namespace["id"].as_str().unwrap().to_owned()
}

async fn save(
    client: &Client,
    ns: &str,
    path: &str,
    title: &str,
    source: &str,
    expected: Option<i64>,
) -> acc_tests::GqlResponse {
    let document = format!("mutation($i: SaveWikiPageInput!) {{ saveWikiPage(input: $i) {{ {PAGE_FIELDS} }} }}");
    let input =
        json!({"namespaceId": ns, "path": path, "title": title, "source": source, "expectedRevision": expected});
    client.gql(&document, json!({"i": input})).await
}

async fn page_at(client: &Client, ns: &str, path: &str) -> acc_tests::GqlResponse {
    let document = format!("query($n: ID!, $p: String!) {{ wikiPage(namespaceId: $n, path: $p) {{ {PAGE_FIELDS} }} }}");
    client.gql(&document, json!({"n": ns, "p": path})).await
}

async fn backlinks(client: &Client, page: &str) -> Vec<String> {
    let answer = client.gql("query($p: ID!) { backlinks(pageId: $p) { path } }", json!({"p": page})).await;
    answer.data("backlinks").as_array().unwrap().iter().map(|p| p["path"].as_str().unwrap().to_owned()).collect()
}

async fn revision_numbers(client: &Client, page: &str) -> Vec<i64> {
    let answer = client
        .gql("query($p: ID!) { wikiRevisions(pageId: $p) { edges { node { number } } } }", json!({"p": page}))
        .await;
    let edges = answer.data("wikiRevisions")["edges"].as_array().unwrap().clone();
    edges.iter().map(|e| e["node"]["number"].as_i64().unwrap()).collect()
}

async fn page_count(client: &Client, ns: &str) -> usize {
    let answer = client
        .gql("query($n: ID!) { wikiPages(namespaceId: $n, first: 100) { edges { node { id } } } }", json!({"n": ns}))
        .await;
    answer.data("wikiPages")["edges"].as_array().unwrap().len()
}

fn id(value: &Value) -> String {
    value["id"].as_str().unwrap().to_owned()
}

on_both_databases!(pages_keep_revisions_links_and_backlinks_across_a_rename, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let ns = namespace(owner, &f.project_id, "Runbooks", false).await;

    let checklist = "# Deploy\n\n1. Freeze merges\n2. Tag the release\n\nSee [[Rollback Plan]].\n";
    let saved = save(owner, &ns, "Guides/Deploy Checklist", "Deploy checklist", checklist, None).await;
    let page = saved.data("saveWikiPage").clone();
    assert_eq!(page["path"], "guides/deploy-checklist", "the path is normalized");
    assert_eq!(page["revision"], 1);
    assert_eq!(page["publishedRevision"], 1, "a person's save outside an authoritative namespace is published");
    assert_eq!(page["latest"]["source"], checklist);
    assert_eq!(page["latest"]["provenance"]["source"], "person");
    assert_eq!(
        page["links"],
        json!([{"targetPath": "rollback-plan", "page": null}]),
        "a link to a page not written yet"
    );
    let page_id = id(&page);

    // A second page links to the first, by another spelling of its path, twice.
    let index =
        "Start with [[guides/deploy_checklist]]; again: [[Guides/Deploy Checklist|the checklist]].\n`[[not a link]]`";
    let index_page = save(owner, &ns, "index", "Index", index, None).await.data("saveWikiPage").clone();
    assert_eq!(
        index_page["links"],
        json!([{"targetPath": "guides/deploy-checklist", "page": {"id": page_id, "path": "guides/deploy-checklist"}}])
    );
    assert_eq!(backlinks(owner, &page_id).await, ["index"]);

    // An edit from revision 1 makes revision 2; another edit still from revision 1 is a conflict and changes nothing.
    let edited = checklist.replace("2. Tag the release", "2. Tag the release\n3. Watch the error rate");
    let second = save(owner, &ns, "guides/deploy-checklist", "Deploy checklist", &edited, Some(1)).await;
    assert_eq!(second.data("saveWikiPage")["revision"], 2);
    let stale = save(owner, &ns, "guides/deploy-checklist", "Deploy checklist", "lost update", Some(1)).await;
    let error = stale.expect_code("CONFLICT");
    assert_eq!(error["extensions"]["details"], json!({"expectedRevision": 1, "currentRevision": 2}));
    let again = save(owner, &ns, "guides/deploy-checklist", "Twice", "a second first revision", None).await;
    again.expect_code("CONFLICT");
    assert_eq!(revision_numbers(owner, &page_id).await, [1, 2]);
    assert_eq!(page_at(owner, &ns, "guides/deploy-checklist").await.data("wikiPage")["latest"]["source"], edited);

    let diff = owner
        .gql(
            "query($p: ID!) { wikiDiff(pageId: $p, from: 1, to: 2) { from to unified addedLines removedLines } }",
            json!({"p": page_id}),
        )
        .await;
    let diff = diff.data("wikiDiff");
    assert_eq!((diff["addedLines"].as_i64(), diff["removedLines"].as_i64()), (Some(1), Some(0)));
    assert!(diff["unified"].as_str().unwrap().contains("+3. Watch the error rate"), "{diff}");

    // The rename is revision 3; the old path still reaches the page, and so do the links written to it.
    let renamed = owner
        .gql(
            &format!("mutation($p: ID!) {{ renameWikiPage(pageId: $p, path: \"Ops/Deploy\", expectedRevision: 2) {{ {PAGE_FIELDS} }} }}"),
            json!({"p": page_id}),
        )
        .await;
    let renamed = renamed.data("renameWikiPage");
    assert_eq!((renamed["path"].as_str(), renamed["revision"].as_i64()), (Some("ops/deploy"), Some(3)));
    assert_eq!(renamed["latest"]["source"], edited, "a rename keeps the source");
    let by_old_path = page_at(owner, &ns, "guides/deploy-checklist").await;
    assert_eq!(by_old_path.data("wikiPage")["path"], "ops/deploy");
    assert_eq!(backlinks(owner, &page_id).await, ["index"], "a link to the old path is still a backlink");
    let index_now = page_at(owner, &ns, "index").await;
    assert_eq!(index_now.data("wikiPage")["links"][0]["page"]["path"], "ops/deploy");
    let stale_rename = owner
        .gql(
            "mutation($p: ID!) { renameWikiPage(pageId: $p, path: \"elsewhere\", expectedRevision: 2) { id } }",
            json!({"p": page_id}),
        )
        .await;
    stale_rename.expect_code("CONFLICT");

    // A new page at the old path takes the path over: links to it now reach the new page.
    let successor = save(owner, &ns, "guides/deploy-checklist", "New checklist", "fresh", None).await;
    let successor_id = id(successor.data("saveWikiPage"));
    let index_now = page_at(owner, &ns, "index").await;
    assert_eq!(index_now.data("wikiPage")["links"][0]["page"]["id"], successor_id.as_str());
    assert_eq!(backlinks(owner, &successor_id).await, ["index"]);
    assert!(backlinks(owner, &page_id).await.is_empty());
    assert_eq!(page_at(owner, &ns, "ops/deploy").await.data("wikiPage")["id"], page_id.as_str());

    // The namespace lists its pages, and `node` reaches every wiki object.
    assert_eq!(page_count(owner, &ns).await, 3);
    let revision = owner
        .gql(
            "query($p: ID!) { wikiRevisions(pageId: $p, last: 1) { edges { node { id number } } } }",
            json!({"p": page_id}),
        )
        .await;
    let revision = revision.data("wikiRevisions")["edges"][0]["node"].clone();
    assert_eq!(revision["number"], 3);
    for node in [&ns, &page_id, &id(&revision)] {
        let found = owner.gql("query($id: ID!) { node(id: $id) { id } }", json!({"id": node})).await;
        assert_eq!(found.data("node")["id"], node.as_str());
    }
});

on_both_databases!(roles_decide_who_writes_and_authoritative_namespaces_keep_drafts, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let open = namespace(owner, &f.workspace_id, "Notes", false).await;
    let handbook = namespace(owner, &f.workspace_id, "Handbook", true).await;
    let listed =
        owner.gql("query($s: ID!) { wikiNamespaces(scopeId: $s) { name } }", json!({"s": f.workspace_id})).await;
    assert_eq!(listed.data("wikiNamespaces"), &json!([{"name": "Handbook"}, {"name": "Notes"}]));

    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let (member, _) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
    save(&viewer, &open, "mine", "Mine", "text", None).await.expect_code("FORBIDDEN");
    let made = viewer
        .gql(
            "mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: \"Shadow\") { id } }",
            json!({"s": f.workspace_id}),
        )
        .await;
    made.expect_code("FORBIDDEN");
    member
        .gql(
            "mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: \"Shadow\") { id } }",
            json!({"s": f.workspace_id}),
        )
        .await
        .expect_code("FORBIDDEN");
    assert_eq!(page_count(owner, &open).await, 0);

    let note = save(&member, &open, "standup", "Standup", "Daily at 9.", None).await;
    assert_eq!(note.data("saveWikiPage")["publishedRevision"], 1);
    assert_eq!(page_at(&viewer, &open, "standup").await.data("wikiPage")["latest"]["source"], "Daily at 9.");

    // In an authoritative namespace a save is a draft: nothing is published until a review.
    let policy = save(&member, &handbook, "leave-policy", "Leave policy", "25 days.", None).await;
    let policy = policy.data("saveWikiPage");
    assert_eq!((policy["publishedRevision"].clone(), policy["published"].clone()), (Value::Null, Value::Null));
    assert_eq!(policy["latest"]["number"], 1);
});

on_both_databases!(bad_input_is_refused_and_changes_nothing, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let ns = namespace(owner, &f.project_id, "Docs", false).await;
    let page = save(owner, &ns, "a", "A", "[[b]]", None).await.data("saveWikiPage").clone();
    save(owner, &ns, "b", "B", "b", None).await.data("saveWikiPage");

    for path in
        ["", "../etc/passwd", "/root", "a//b", "a/./b", "x/", "back\\slash", "<script>", "a\u{0}b", &"p/".repeat(9)]
    {
        save(owner, &ns, path, "Title", "text", None).await.expect_code("VALIDATION");
    }
    for title in ["", "   ", &"t".repeat(201), "line\nbreak"] {
        save(owner, &ns, "c", title, "text", None).await.expect_code("VALIDATION");
    }
    let too_big = "x".repeat(128 * 1024 + 1);
    let refused = save(owner, &ns, "c", "C", &too_big, None).await;
    assert_eq!(refused.expect_code("VALIDATION")["extensions"]["details"]["maxBytes"], 131072);
    let task = common::create_task(owner, &f.project_id, "Not a scope").await;
    owner
        .gql("mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: \"X\") { id } }", json!({"s": task["id"]}))
        .await
        .expect_code("VALIDATION");
    owner
        .gql(
            "mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: \"Docs\") { id } }",
            json!({"s": f.project_id}),
        )
        .await
        .expect_code("VALIDATION");
    owner
        .gql("mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: \"\") { id } }", json!({"s": f.project_id}))
        .await
        .expect_code("VALIDATION");
    let page_id = id(&page);
    let onto = owner
        .gql(
            "mutation($p: ID!) { renameWikiPage(pageId: $p, path: \"B\", expectedRevision: 1) { id } }",
            json!({"p": page_id}),
        )
        .await;
    assert_eq!(onto.expect_code("CONFLICT")["extensions"]["details"], json!({"path": "b"}));
    owner
        .gql("query($p: ID!) { wikiDiff(pageId: $p, from: 1, to: 7) { unified } }", json!({"p": page_id}))
        .await
        .expect_code("NOT_FOUND");
    owner
        .gql("query($n: ID!) { wikiPage(namespaceId: $n, path: \"nowhere\") { id } }", json!({"n": ns}))
        .await
        .expect_code("NOT_FOUND");
    // A page's id where a namespace's is expected.
    owner
        .gql("query($n: ID!) { wikiPage(namespaceId: $n, path: \"a\") { id } }", json!({"n": page_id}))
        .await
        .expect_code("VALIDATION");

    assert_eq!(page_count(owner, &ns).await, 2);
    assert_eq!(revision_numbers(owner, &page_id).await, [1]);
    assert_eq!(page_at(owner, &ns, "a").await.data("wikiPage")["path"], "a");
});

on_both_databases!(a_namespace_s_subscribers_see_each_save_and_rename, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let ns = namespace(owner, &f.project_id, "Runbooks", false).await;
    let other = namespace(owner, &f.project_id, "Elsewhere", false).await;
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let updated = "subscription($n: ID!) { wikiPageUpdated(namespaceId: $n) { path title revision } }";
    let mut feed = viewer.subscribe(updated, json!({"n": ns})).await.unwrap();

    // Not seen: another namespace's page. Seen, in order: a new page, its edit, its rename.
    save(owner, &other, "elsewhere", "Elsewhere", "not for this feed", None).await.data("saveWikiPage");
    let page = save(owner, &ns, "deploy", "Deploy", "v1", None).await.data("saveWikiPage").clone();
    save(owner, &ns, "deploy", "Deploy", "v2", Some(1)).await.data("saveWikiPage");
    let rename = "mutation($p: ID!) { renameWikiPage(pageId: $p, path: \"ops/deploy\", expectedRevision: 2) { id } }";
    owner.gql(rename, json!({"p": page["id"]})).await.data("renameWikiPage");
    let mut seen = Vec::new();
    for _ in 0..3 {
        let payload = feed.next().await.unwrap();
        seen.push(payload["data"]["wikiPageUpdated"].clone());
    }
    assert_eq!(
        seen,
        [
            json!({"path": "deploy", "title": "Deploy", "revision": 1}),
            json!({"path": "deploy", "title": "Deploy", "revision": 2}),
            json!({"path": "ops/deploy", "title": "Deploy", "revision": 3}),
        ]
    );
    // A refused save tells nobody.
    save(owner, &ns, "ops/deploy", "Deploy", "stale", Some(1)).await.expect_code("CONFLICT");
    save(owner, &ns, "later", "Later", "after the refusal", None).await.data("saveWikiPage");
    let payload = feed.next().await.unwrap();
    assert_eq!(payload["data"]["wikiPageUpdated"]["path"], "later");
});

async fn search(client: &Client, scope: &str, query: &str) -> acc_tests::GqlResponse {
    let document = "query($s: ID!, $q: String!) { wikiSearch(scopeId: $s, query: $q) { score page { path } } }";
    client.gql(document, json!({"s": scope, "q": query})).await
}

fn paths(found: &acc_tests::GqlResponse) -> Vec<String> {
    let hits = found.data("wikiSearch").as_array().unwrap();
    hits.iter().map(|h| h["page"]["path"].as_str().unwrap().to_owned()).collect()
}

on_both_databases!(search_finds_latest_text_by_its_words_where_the_caller_reads, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let project_ns = namespace(owner, &f.project_id, "Runbooks", false).await;
    let workspace_ns = namespace(owner, &f.workspace_id, "Handbook", false).await;
    let other = common::other_project(owner, &f.workspace_id, "Elsewhere").await;
    let other_ns = namespace(owner, &other, "Other runbooks", false).await;

    save(owner, &project_ns, "deploy", "Deploying the website", "Tag, then watch the canary.", None)
        .await
        .data("saveWikiPage");
    save(owner, &project_ns, "oncall", "On call", "Page whoever is deploying when the canary fails.", None)
        .await
        .data("saveWikiPage");
    save(owner, &workspace_ns, "holidays", "Holidays", "The office closes in August.", None).await.data("saveWikiPage");
    save(owner, &other_ns, "secret-deploy", "Deploy elsewhere", "Not for the website's people.", None)
        .await
        .data("saveWikiPage");

    // Stemmed words match ("deploys" finds "deploying"), a title weighs more than the text, and a
    // project's search reads its workspace's own namespaces but never another project's.
    assert_eq!(paths(&search(owner, &f.project_id, "deploys").await), ["deploy", "oncall"]);
    assert_eq!(paths(&search(owner, &f.project_id, "August").await), ["holidays"]);
    assert_eq!(paths(&search(owner, &f.workspace_id, "August deploy").await), ["holidays"]);
    assert_eq!(paths(&search(owner, &other, "deploy").await), ["secret-deploy"]);
    // Only the latest text counts.
    save(owner, &project_ns, "deploy", "Deploying the website", "Tag, then watch the rollout.", Some(1))
        .await
        .data("saveWikiPage");
    assert_eq!(paths(&search(owner, &f.project_id, "canary").await), ["oncall"]);
    // Query syntax is read as words.
    assert_eq!(paths(&search(owner, &f.project_id, "\"canary\" OR * NEAR(").await), ["oncall"]);

    // Viewers search too.
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    assert_eq!(paths(&search(&viewer, &f.project_id, "rollout").await), ["deploy"]);
    for (query, first) in [("", None), ("!!! ???", None), ("deploy", Some(0)), ("deploy", Some(51))] {
        let document =
            "query($s: ID!, $q: String!, $n: Int) { wikiSearch(scopeId: $s, query: $q, first: $n) { score } }";
        owner.gql(document, json!({"s": f.project_id, "q": query, "n": first})).await.expect_code("VALIDATION");
    }
});

const APPROVAL_FIELDS: &str = "id subject status action reason run { id } requestedBy { email } decidedBy { email } \
                               decisionReason wikiRevision { number source } wikiPage { id publishedRevision }";

async fn request_review(client: &Client, page: &str, revision: Option<i64>) -> acc_tests::GqlResponse {
    let document = format!(
        "mutation($p: ID!, $r: Int) {{ requestWikiReview(pageId: $p, revision: $r, reason: \"Ready\") {{ {APPROVAL_FIELDS} }} }}"
    );
    client.gql(&document, json!({"p": page, "r": revision})).await
}

async fn decide(client: &Client, approval: &str, decision: &str) -> acc_tests::GqlResponse {
    let document = format!(
        "mutation($a: ID!, $d: ApprovalDecision!) {{ decideApproval(approvalId: $a, decision: $d, reason: \"Checked\") {{ {APPROVAL_FIELDS} }} }}"
    );
    client.gql(&document, json!({"a": approval, "d": decision})).await
}

async fn approval_status(client: &Client, approval: &str) -> String {
    let answer =
        client.gql("query($a: ID!) { node(id: $a) { ... on Approval { status } } }", json!({"a": approval})).await;
    answer.data("node")["status"].as_str().unwrap().to_owned()
}

async fn published_revision(client: &Client, ns: &str, path: &str) -> Value {
    page_at(client, ns, path).await.data("wikiPage")["publishedRevision"].clone()
}

on_both_databases!(a_review_by_another_person_publishes_into_an_authoritative_namespace, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let handbook = namespace(owner, &f.workspace_id, "Handbook", true).await;
    let (author, _) = common::user_with_role(owner, "author@acme.test", "MEMBER").await;
    let (reviewer, _) = common::user_with_role(owner, "reviewer@acme.test", "MEMBER").await;
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let page = save(&author, &handbook, "leave", "Leave", "25 days.", None).await;
    let page = id(page.data("saveWikiPage"));

    // Nobody publishes into an authoritative namespace without a review; a viewer cannot ask.
    let refused = author.gql("mutation($p: ID!) { publishWikiPage(pageId: $p) { id } }", json!({"p": page})).await;
    assert_eq!(refused.expect_code("FORBIDDEN")["extensions"]["details"]["needs"], "review");
    request_review(&viewer, &page, None).await.expect_code("FORBIDDEN");
    // Bad input: a revision that does not exist, an id of another kind, a reason too long.
    request_review(&author, &page, Some(9)).await.expect_code("NOT_FOUND");
    request_review(&author, &f.project_id, None).await.expect_code("VALIDATION");
    let long = "mutation($p: ID!, $r: String!) { requestWikiReview(pageId: $p, reason: $r) { id } }";
    let refused = author.gql(long, json!({"p": page, "r": "x".repeat(2001)})).await;
    assert_eq!(refused.expect_code("VALIDATION")["extensions"]["details"]["argument"], "reason");
    assert_eq!(published_revision(owner, &handbook, "leave").await, Value::Null);

    let asked = request_review(&author, &page, None).await;
    let review = asked.data("requestWikiReview").clone();
    assert_eq!(review["subject"], "WIKI_PUBLICATION");
    assert_eq!(review["status"], "PENDING");
    assert_eq!(review["run"], Value::Null);
    assert_eq!(review["requestedBy"]["email"], "author@acme.test");
    assert_eq!(review["wikiRevision"], json!({"number": 1, "source": "25 days."}));
    assert_eq!(review["reason"], "Ready");
    // Asking again while it is pending is the same review, and it waits in everyone's inbox.
    assert_eq!(request_review(&author, &page, Some(1)).await.data("requestWikiReview")["id"], review["id"]);
    let inbox = viewer.gql("{ approvals { edges { node { id subject } } } }", json!({})).await;
    // Only the one review is there: the refused requests asked for nothing.
    assert_eq!(
        inbox.data("approvals")["edges"],
        json!([{"node": {"id": review["id"], "subject": "WIKI_PUBLICATION"}}])
    );

    // The author may not approve their own revision, a viewer may not decide; neither changes it.
    let own = decide(&author, &id(&review), "APPROVE").await;
    assert_eq!(own.expect_code("FORBIDDEN")["extensions"]["details"]["needs"], "another reviewer");
    decide(&viewer, &id(&review), "APPROVE").await.expect_code("FORBIDDEN");
    assert_eq!(approval_status(owner, &id(&review)).await, "PENDING");
    assert_eq!(published_revision(owner, &handbook, "leave").await, Value::Null);

    let approved = decide(&reviewer, &id(&review), "APPROVE").await;
    let approved = approved.data("decideApproval");
    assert_eq!(approved["status"], "APPROVED");
    assert_eq!(approved["decidedBy"]["email"], "reviewer@acme.test");
    assert_eq!(approved["decisionReason"], "Checked");
    assert_eq!(approved["wikiPage"]["publishedRevision"], 1);
    assert_eq!(published_revision(&viewer, &handbook, "leave").await, 1);
    let again = decide(&reviewer, &id(&review), "DENY").await;
    assert_eq!(again.expect_code("CONFLICT")["extensions"]["details"]["status"], "approved");

    // Two drafts under review: publishing the newer leaves the older one nothing to decide.
    save(&author, &handbook, "leave", "Leave", "26 days.", Some(1)).await.data("saveWikiPage");
    let older = id(request_review(&author, &page, None).await.data("requestWikiReview"));
    save(&author, &handbook, "leave", "Leave", "27 days.", Some(2)).await.data("saveWikiPage");
    let newer = id(request_review(&author, &page, None).await.data("requestWikiReview"));
    assert_ne!(older, newer);
    assert_eq!(decide(&reviewer, &newer, "APPROVE").await.data("decideApproval")["wikiRevision"]["number"], 3);
    assert_eq!(approval_status(owner, &older).await, "CANCELLED");
    decide(&reviewer, &older, "APPROVE").await.expect_code("CONFLICT");
    assert_eq!(published_revision(owner, &handbook, "leave").await, 3);
    let stale = request_review(&author, &page, Some(2)).await;
    assert_eq!(stale.expect_code("INVALID_TRANSITION")["extensions"]["details"]["publishedRevision"], 3);

    // Its author may withdraw a review (deny it); nothing is published.
    save(&author, &handbook, "leave", "Leave", "28 days.", Some(3)).await.data("saveWikiPage");
    let withdrawn = id(request_review(&author, &page, None).await.data("requestWikiReview"));
    assert_eq!(decide(&author, &withdrawn, "DENY").await.data("decideApproval")["status"], "DENIED");
    assert_eq!(published_revision(owner, &handbook, "leave").await, 3);
    assert_eq!(page_at(owner, &handbook, "leave").await.data("wikiPage")["published"]["number"], 3);
    let rest = owner.gql("{ approvals { edges { node { id } } } }", json!({})).await;
    assert_eq!(rest.data("approvals")["edges"], json!([]), "nothing is left pending");
});

async fn attach(client: &Client, page: &str, name: &str, body: &[u8]) -> (u16, Value) {
    let path = format!("/v1/wiki/pages/{page}/attachments?name={name}");
    client.post_bytes(&path, body.to_vec(), &[("content-type", "image/svg+xml")]).await
}

async fn attachments(client: &Client, page: &str) -> acc_tests::GqlResponse {
    let document = "query($p: ID!) { node(id: $p) { ... on WikiPage { attachments { id name number sizeBytes mediaType \
                    sha256 downloadPath } } } }";
    client.gql(document, json!({"p": page})).await
}

on_both_databases!(files_attach_to_pages_as_versions_and_only_readers_download_them, |db: TestDb| async move {
    let dir = db.dir.clone();
    let limit = vec![("ACC_ARTIFACTS__MAX_UPLOAD_BYTES".to_owned(), "4096".to_owned())];
    let server = Server::start_with(db, ServerOptions { env: limit, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    // A workspace's namespace keeps attachments too: it has no project of its own.
    let ns = namespace(owner, &f.workspace_id, "Handbook", false).await;
    let page =
        id(save(owner, &ns, "architecture", "Architecture", "See the diagram.", None).await.data("saveWikiPage"));

    let (status, first) = attach(owner, &page, "diagrams%2Fflow.svg", b"<svg>one</svg>").await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(first["attachment"]["name"], "diagrams/flow.svg");
    assert_eq!(first["attachment"]["number"], 1);
    assert_eq!(first["attachment"]["mediaType"], "image/svg+xml");
    let (status, second) = attach(owner, &page, "diagrams%2Fflow.svg", b"<svg>two, longer</svg>").await;
    assert_eq!((status, second["attachment"]["number"].as_i64()), (201, Some(2)), "{second}");
    attach(owner, &page, "notes.txt", b"plain").await;
    let listed = attachments(owner, &page).await;
    let listed = listed.data("node")["attachments"].as_array().unwrap().clone();
    let names: Vec<(&str, i64)> =
        listed.iter().map(|a| (a["name"].as_str().unwrap(), a["number"].as_i64().unwrap())).collect();
    assert_eq!(names, [("diagrams/flow.svg", 2), ("notes.txt", 1)], "the latest of each name, by name");

    // A viewer reads and downloads it, served as a sandboxed attachment, by range too; the first
    // version stays downloadable.
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let latest = listed[0]["downloadPath"].as_str().unwrap().to_owned();
    let got = viewer.get(&latest).await;
    assert_eq!(got.status(), 200);
    assert_eq!(got.headers()["content-disposition"], "attachment; filename*=UTF-8''flow%2Esvg");
    assert!(got.headers()["content-security-policy"].to_str().unwrap().starts_with("sandbox"));
    assert_eq!(got.bytes().await.unwrap().as_ref(), b"<svg>two, longer</svg>");
    let part = viewer.get_with(&latest, &[("range", "bytes=5-7")]).await;
    assert_eq!((part.status().as_u16(), part.bytes().await.unwrap().as_ref()), (206, b"two".as_ref()));
    let earlier = viewer.get(first["attachment"]["downloadPath"].as_str().unwrap()).await;
    assert_eq!(earlier.bytes().await.unwrap().as_ref(), b"<svg>one</svg>");

    // Refused, with nothing kept: a viewer's upload, bad names, an anonymous caller, another tenant.
    let (status, answer) = attach(&viewer, &page, "x.txt", b"x").await;
    assert_eq!((status, answer["error"]["code"].as_str()), (403, Some("FORBIDDEN")), "{answer}");
    for bad in ["..%2Fescape.txt", "%2Fetc%2Fpasswd", "a%2F%2Fb", ""] {
        let (status, answer) = attach(owner, &page, bad, b"x").await;
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("VALIDATION")), "{bad}: {answer}");
    }
    let (status, answer) = attach(owner, &page, "big.bin", &[7u8; 5000]).await;
    assert_eq!((status, answer["error"]["details"]["maxBytes"].as_i64()), (413, Some(4096)), "{answer}");
    let (status, _) = attach(&owner.anonymous(), &page, "x.txt", b"x").await;
    assert_eq!(status, 401);
    assert_eq!(owner.anonymous().get(&latest).await.status(), 401);
    assert_eq!(owner.get("/v1/wiki/attachments/not-an-id").await.status(), 400);
    let b = common::second_organization_owner(owner).await;
    let (status, answer) = attach(&b, &page, "x.txt", b"x").await;
    assert_eq!((status, answer["error"]["code"].as_str()), (404, Some("NOT_FOUND")), "{answer}");
    assert_eq!(b.get(&latest).await.status(), 404);
    b.gql("query($a: ID!) { node(id: $a) { id } }", json!({"a": listed[0]["id"]})).await.expect_code("NOT_FOUND");
    assert_eq!(attachments(owner, &page).await.data("node")["attachments"].as_array().unwrap().len(), 2);
    // Three blobs (one per distinct content), no staging file of a refusal left behind.
    let mut stored = Vec::new();
    let mut dirs = vec![dir.join("artifacts")];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            match entry.file_type().unwrap().is_dir() {
                true => dirs.push(entry.path()),
                false => stored.push(entry.path()),
            }
        }
    }
    assert_eq!(stored.len(), 3, "{stored:?}");
});

async fn set_acl(client: &Client, ns: &str, users: &[&str]) -> acc_tests::GqlResponse {
    let document = "mutation($n: ID!, $u: [ID!]!) { setWikiNamespaceAcl(namespaceId: $n, userIds: $u) { id acl } }";
    client.gql(document, json!({"n": ns, "u": users})).await
}

async fn namespace_names(client: &Client, scope: &str) -> Vec<String> {
    let listed = client.gql("query($s: ID!) { wikiNamespaces(scopeId: $s) { name } }", json!({"s": scope})).await;
    listed.data("wikiNamespaces").as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap().to_owned()).collect()
}

on_both_databases!(a_namespace_kept_to_named_people_exists_only_for_them_and_administrators, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (named, named_id) = common::user_with_role(owner, "named@acme.test", "MEMBER").await;
    let (other, _) = common::user_with_role(owner, "other@acme.test", "MEMBER").await;
    let (admin, _) = common::user_with_role(owner, "admin@acme.test", "ADMIN").await;
    let ns = namespace(owner, &f.project_id, "Incidents", false).await;
    namespace(owner, &f.project_id, "Runbooks", false).await;
    let page = save(owner, &ns, "postmortem", "Postmortem", "The breach came through the vendor VPN.", None).await;
    let page = id(page.data("saveWikiPage"));
    let (status, attached) = attach(owner, &page, "timeline.txt", b"02:14 alert").await;
    assert_eq!(status, 201, "{attached}");
    let download = attached["attachment"]["downloadPath"].as_str().unwrap().to_owned();
    // The other member listens before the namespace is kept to named people.
    let updated = "subscription($n: ID!) { wikiPageUpdated(namespaceId: $n) { path } }";
    let mut feed = other.subscribe(updated, json!({"n": ns})).await.unwrap();

    // Only administrators decide, and only about people of the organization.
    let refused = set_acl(&other, &ns, &[&named_id]).await;
    refused.expect_code("FORBIDDEN");
    let stranger = common::second_organization_owner(owner).await;
    let stranger_id =
        stranger.gql("{ viewer { id } }", json!({})).await.data("viewer")["id"].as_str().unwrap().to_owned();
    set_acl(owner, &ns, &[&stranger_id]).await.expect_code("VALIDATION");
    set_acl(owner, &ns, &["not-an-id"]).await.expect_code("VALIDATION");
    set_acl(&stranger, &ns, &[]).await.expect_code("NOT_FOUND");
    assert_eq!(
        set_acl(owner, &ns, &[&named_id, &named_id]).await.data("setWikiNamespaceAcl")["acl"],
        json!([named_id])
    );

    // To the member it does not name, the namespace, its pages and files do not exist; its live
    // subscription ends.
    assert_eq!(feed.message().await.unwrap()["type"], "complete");
    assert_eq!(namespace_names(&other, &f.project_id).await, ["Runbooks"]);
    page_at(&other, &ns, "postmortem").await.expect_code("NOT_FOUND");
    other.gql("query($p: ID!) { node(id: $p) { id } }", json!({"p": page})).await.expect_code("NOT_FOUND");
    assert!(paths(&search(&other, &f.project_id, "breach vendor").await).is_empty());
    save(&other, &ns, "postmortem", "Postmortem", "rewritten", Some(1)).await.expect_code("NOT_FOUND");
    assert_eq!(other.get(&download).await.status(), 404);
    assert_eq!(attach(&other, &page, "x.txt", b"x").await.0, 404);
    // The member it names, and an administrator it does not, read and write it.
    assert_eq!(namespace_names(&named, &f.project_id).await, ["Incidents", "Runbooks"]);
    assert_eq!(paths(&search(&named, &f.project_id, "breach").await), ["postmortem"]);
    save(&named, &ns, "postmortem", "Postmortem", "The breach came through the vendor VPN; rotated.", Some(1))
        .await
        .data("saveWikiPage");
    assert_eq!(admin.get(&download).await.bytes().await.unwrap().as_ref(), b"02:14 alert");
    page_at(&admin, &ns, "postmortem").await.data("wikiPage");

    // Left to the scope's roles again, it is everyone's.
    assert_eq!(set_acl(owner, &ns, &[]).await.data("setWikiNamespaceAcl")["acl"], json!([]));
    assert_eq!(paths(&search(&other, &f.project_id, "breach").await), ["postmortem"]);
});
