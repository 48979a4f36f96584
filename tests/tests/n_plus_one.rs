//! Loaders: a page of tasks with assignees, dependencies, dependents, criteria, runs and project,
//! and a page of runs with their tasks and attempts, cost one SQL statement or two per relation
//! whatever their size, never one per row (no N+1).

use acc_api::app::App;
use acc_api::graphql::{RequestContext, request_data};
use acc_api::identity::{DeviceInfo, NewUser};
use acc_tests::{CountedApp, TestDb, on_both_databases};
use serde_json::{Value, json};

const PAGE: &str = "query($p: ID!, $n: Int!) { tasks(projectId: $p, first: $n) { edges { node {
    id title assignee { id email } dependencies { id title } dependents { id } acceptanceCriteria { id met }
    project { id name } runs { id status } latestRun { id } } } } }";

const RUNS: &str = "query($n: Int!) { runs(filter: {status: [BLOCKED]}, first: $n) { edges { node {
    id status task { title project { name } } attempts { number } agent { name } } } } }";

async fn run(app: &App, ctx: &RequestContext, query: &str, variables: Value) -> Value {
    let mut request = async_graphql::Request::new(query).variables(async_graphql::Variables::from_json(variables));
    request.data = request_data(&app.state.services, ctx.clone());
    // On a runtime's task, as the server runs every request: a test's own body is not one, and
    // there `yield_now` (which batching uses, graphql/batch.rs) wakes at once.
    let schema = app.state.schema.clone();
    let response = tokio::spawn(async move { schema.execute(request).await }).await.unwrap();
    assert!(response.errors.is_empty(), "{:?}", response.errors);
    response.data.into_json().unwrap()
}

/// The request context of the organization's owner, signed in through the bootstrap code.
async fn owner_context(app: &App) -> RequestContext {
    let services = &app.state.services;
    let code = app.bootstrap_code.clone().unwrap();
    let owner =
        NewUser { email: "owner@acme.test".into(), display_name: String::new(), password: acc_tests::PASSWORD.into() };
    let sign_in = services.identity.redeem_bootstrap(&code, "Acme", owner, DeviceInfo::default()).await.unwrap();
    let actor = services.identity.authenticate(&sign_in.access_token).await.unwrap();
    RequestContext {
        actor: Some(actor),
        correlation_id: "n+1".into(),
        idempotency_key: None,
        device: DeviceInfo::default(),
    }
}

/// The id of a new project "P" in a new workspace "W".
async fn project(app: &App, ctx: &RequestContext) -> String {
    let ws = run(app, ctx, "mutation { createWorkspace(name: \"W\") { id } }", json!({})).await;
    let project = run(
        app,
        ctx,
        "mutation($w: ID!) { createProject(workspaceId: $w, name: \"P\") { id } }",
        json!({"w": ws["createWorkspace"]["id"]}),
    )
    .await;
    project["createProject"]["id"].as_str().unwrap().to_owned()
}

on_both_databases!(a_page_of_tasks_costs_a_constant_number_of_statements, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let app = &counted.app;
    let ctx = owner_context(app).await;

    let project_id = project(app, &ctx).await;
    let mut assignees = Vec::new();
    for i in 0..5 {
        let user = run(
            app,
            &ctx,
            "mutation($e: String!, $p: String!) { createUser(email: $e, password: $p) { id } }",
            json!({"e": format!("u{i}@acme.test"), "p": acc_tests::PASSWORD}),
        )
        .await;
        assignees.push(user["createUser"]["id"].as_str().unwrap().to_owned());
    }
    let mut ids: Vec<String> = Vec::new();
    for i in 0..50 {
        let task = run(
            app,
            &ctx,
            "mutation($i: CreateTaskInput!) { createTask(input: $i) { id } }",
            json!({"i": {"projectId": project_id, "title": format!("t{i}"), "assigneeId": assignees[i % 5]}}),
        )
        .await;
        let id = task["createTask"]["id"].as_str().unwrap().to_owned();
        for prerequisite in ids.iter().rev().take(2) {
            run(
                app,
                &ctx,
                "mutation($t: ID!, $d: ID!) { addTaskDependency(taskId: $t, dependsOnId: $d) { id } }",
                json!({"t": id, "d": prerequisite}),
            )
            .await;
        }
        run(
            app,
            &ctx,
            "mutation($t: ID!) { addAcceptanceCriterion(taskId: $t, description: \"ok\") { id } }",
            json!({"t": id}),
        )
        .await;
        // With no agent anywhere, the run waits, blocked.
        run(app, &ctx, "mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": id})).await;
        ids.push(id);
    }

    let count = |query: &'static str, n: i32| {
        let (counted, ctx, project_id) = (&counted, &ctx, project_id.clone());
        async move {
            let before = counted.statements();
            let page = run(&counted.app, ctx, query, json!({"p": project_id, "n": n})).await;
            let list = page.as_object().unwrap().values().next().unwrap();
            (counted.since(before), list["edges"].as_array().unwrap().clone())
        }
    };
    let (small, _) = count(PAGE, 5).await;
    let (full, edges) = count(PAGE, 50).await;
    assert_eq!(edges.len(), 50);
    assert_eq!(edges[10]["node"]["dependencies"].as_array().unwrap().len(), 2);
    assert_eq!(edges[10]["node"]["dependents"].as_array().unwrap().len(), 2);
    assert!(edges[10]["node"]["assignee"]["email"].as_str().unwrap().ends_with("@acme.test"));
    assert_eq!(edges[10]["node"]["acceptanceCriteria"].as_array().unwrap().len(), 1);
    assert_eq!(edges[10]["node"]["project"]["name"], "P");
    assert_eq!(edges[10]["node"]["runs"][0]["status"], "BLOCKED");
    // The page (the project, read when its tasks were created, is checked from memory), then one
    // statement for each of the five relations (a task's dependencies and dependents each come
    // with their tasks, joined) and two each for the runs and the latest run (the projects the
    // caller can read, then the runs). Loading a relation per task would take at least 50
    // statements for 50 tasks.
    assert_eq!(edges[10]["node"]["latestRun"]["id"], edges[10]["node"]["runs"][0]["id"]);
    assert_eq!(small, 1 + 5 + 2 + 2, "a page of 5 tasks");
    assert_eq!(full, 1 + 5 + 2 + 2, "a page of 50 tasks costs what a page of 5 does");

    let (small, _) = count(RUNS, 5).await;
    let (full, runs) = count(RUNS, 50).await;
    assert_eq!(runs.len(), 50);
    assert_eq!(runs[10]["node"]["task"]["project"]["name"], "P");
    assert_eq!(runs[10]["node"]["attempts"], json!([]), "a blocked run has not been dispatched");
    // The projects the caller can read and the page; the tasks and their projects' check; the
    // tasks' project; the runs the caller can read (runs, projects) and their attempts.
    assert_eq!(small, 2 + 2 + 1 + 3, "a page of 5 runs");
    assert_eq!(full, 2 + 2 + 1 + 3, "a page of 50 runs costs what a page of 5 does");
});

const SEARCH: &str = "query($p: ID!, $n: Int!) { memory(scopeId: $p, query: \"alpha\", first: $n) { score entry {
    id subject current { content } versions { number } conflicts { status } } } }";

on_both_databases!(a_memory_search_costs_a_constant_number_of_statements, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let app = &counted.app;
    let ctx = owner_context(app).await;
    let project_id = project(app, &ctx).await;
    let write = "mutation($i: WriteMemoryInput!) { writeMemory(input: $i) { entry { id } } }";
    for i in 0..30 {
        // Each entry written twice: a version and a contradiction waiting in a conflict.
        for content in [format!("alpha fact {i}"), format!("alpha fact {i}, again")] {
            let input =
                json!({"scopeId": project_id, "kind": "FACT", "subject": format!("topic {i}"), "content": content});
            run(app, &ctx, write, json!({"i": input})).await;
        }
    }
    let count = |n: i32| {
        let (counted, ctx, project_id) = (&counted, &ctx, project_id.clone());
        async move {
            let before = counted.statements();
            let found = run(&counted.app, ctx, SEARCH, json!({"p": project_id, "n": n})).await;
            (counted.since(before), found["memory"].as_array().unwrap().clone())
        }
    };
    let (small, _) = count(5).await;
    let (full, hits) = count(30).await;
    assert_eq!(hits.len(), 30);
    assert_eq!(hits[7]["entry"]["versions"].as_array().unwrap().len(), 2);
    assert_eq!(hits[7]["entry"]["conflicts"][0]["status"], "OPEN");
    // The project (the scope), the full-text match, the entries and their current versions (on
    // SQLite also the count of each word, which picks the words to rank by); then two statements
    // for every hit's versions (entries, versions) and one for their conflicts.
    let words_counted = usize::from(db.url.starts_with("sqlite"));
    assert_eq!(small, 4 + words_counted + 2 + 1, "5 hits");
    assert_eq!(full, 4 + words_counted + 2 + 1, "30 hits cost what 5 do");
});

const WIKI_PAGES: &str = "query($n: ID!, $first: Int!) { wikiPages(namespaceId: $n, first: $first) { edges { node {
    path latest { number title } published { number } links { targetPath page { path } } } } } }";

on_both_databases!(a_page_of_wiki_pages_costs_a_constant_number_of_statements, |db: TestDb| async move {
    let counted = CountedApp::assemble(&db).await;
    let app = &counted.app;
    let ctx = owner_context(app).await;
    let project_id = project(app, &ctx).await;
    let create = "mutation($p: ID!) { createWikiNamespace(scopeId: $p, name: \"Docs\") { id } }";
    let made = run(app, &ctx, create, json!({"p": project_id})).await;
    let namespace = made["createWikiNamespace"]["id"].as_str().unwrap().to_owned();
    // Each page links to the next two, so the last two link to pages not written.
    for i in 0..30 {
        let input = json!({"namespaceId": namespace, "path": format!("p{i}"), "title": format!("P{i}"),
                           "source": format!("[[p{}]] and [[p{}]]", i + 1, i + 2)});
        run(app, &ctx, "mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id } }", json!({"i": input}))
            .await;
    }
    let count = |first: i32| {
        let (counted, ctx, namespace) = (&counted, &ctx, namespace.clone());
        async move {
            let before = counted.statements();
            let page = run(&counted.app, ctx, WIKI_PAGES, json!({"n": namespace, "first": first})).await;
            (counted.since(before), page["wikiPages"]["edges"].as_array().unwrap().clone())
        }
    };
    let (small, _) = count(5).await;
    let (full, pages) = count(30).await;
    assert_eq!(pages.len(), 30);
    assert_eq!(pages[3]["node"]["latest"]["title"], "P3");
    assert_eq!(pages[3]["node"]["published"]["number"], 1);
    let reached = json!([{"targetPath": "p4", "page": {"path": "p4"}}, {"targetPath": "p5", "page": {"path": "p5"}}]);
    assert_eq!(pages[3]["node"]["links"], reached);
    assert_eq!(pages[29]["node"]["links"][0]["page"], Value::Null);
    // The namespace and the page; the revisions (their namespaces, then the revisions); the links
    // (their pages, namespaces, the links and the pages they reach), and, when a link reaches no
    // page (the last two of 30 do), the aliases of those paths. Per page it would be 30 or more.
    assert_eq!(small, 2 + 2 + 4, "a page of 5 wiki pages, every link reaching a page");
    assert_eq!(full, 2 + 2 + 4 + 1, "a page of 30 wiki pages, two of whose links reach no page");
});
