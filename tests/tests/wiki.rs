//! The wiki through the real server: namespaces, pages saved as revisions with `expectedRevision`,
//! diffs, `[[links]]` and backlinks kept across a rename; roles, authoritative namespaces that keep
//! a person's save as a draft; and bad input refused with nothing changed.

mod common;

use acc_tests::{Client, Server, TestDb, on_both_databases};
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
