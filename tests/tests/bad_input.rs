//! Bad input through the real server: each request is refused with a typed error code (and the
//! HTTP status where one means something), and nothing is written.

mod common;

use acc_tests::{Client, GqlResponse, Server, ServerOptions, TestDb, on_both_databases, op};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

/// The shared fixture with one task in its project.
struct Fixture {
    owner: Client,
    workspace_id: String,
    project_id: String,
    task: Value,
}

impl Fixture {
    async fn new(server: &Server) -> Self {
        let common::Fixture { owner, workspace_id, project_id } = common::fixture(server).await;
        let task = common::create_task(&owner, &project_id, "Existing").await;
        Self { owner, workspace_id, project_id, task }
    }

    fn task_id(&self) -> &str {
        self.task["id"].as_str().unwrap()
    }

    /// Variables for a `createTask` that would succeed.
    fn new_task(&self) -> Value {
        json!({"input": {"projectId": self.project_id, "title": "Should not exist"}})
    }

    /// Every task of the project as the owner reads it, to compare before and after.
    async fn tasks(&self) -> Value {
        let page = self.owner.gql(op!("tasks"), json!({"projectId": self.project_id, "first": 100})).await;
        page.data("tasks")["edges"].clone()
    }

    async fn assert_unchanged(&self, before: &Value, what: &str) {
        assert_eq!(&self.tasks().await, before, "{what} changed the tasks");
    }
}

/// A GraphQL request body as bytes.
fn body(query: &str, variables: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"query": query, "variables": variables})).unwrap()
}

fn assert_refused(response: &GqlResponse, status: u16, code: &str, what: &str) {
    assert_eq!(response.status, status, "{what}: {}", response.body);
    response.expect_code(code);
    assert!(response.body["data"].is_null(), "{what}: {}", response.body);
}

/// GET /graphql with the owner's token and the given query parameters, URL-encoded.
async fn get_graphql(client: &Client, params: &[(&str, &str)], accept: &str) -> reqwest::Response {
    let url = reqwest::Url::parse_with_params(&client.url, params).unwrap();
    let mut request = reqwest::Client::new().get(url).header("accept", accept);
    if let Some(token) = &client.token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

on_both_databases!(bodies_that_are_not_one_graphql_request_are_400, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let before = f.tasks().await;
    let create = String::from_utf8(body(op!("create_task"), f.new_task())).unwrap();
    let bodies = [
        ("malformed JSON", create[..create.len() / 2].to_owned()),
        ("a batch", format!("[{create}, {create}]")),
        ("a query that is not a string", r#"{"query": 5}"#.to_owned()),
        (
            "variables that are not an object",
            format!(r#"{{"query": {}, "variables": [1]}}"#, json!(op!("create_task"))),
        ),
    ];
    for (what, bytes) in bodies {
        let response = f.owner.post_raw(bytes.into_bytes(), &[]).await;
        assert_refused(&response, 400, "VALIDATION", what);
        f.assert_unchanged(&before, what).await;
    }
    let no_query = f.owner.post_raw(br#"{"foo": 1}"#.to_vec(), &[]).await;
    assert_refused(&no_query, 400, "VALIDATION", "JSON that is no request");
    f.assert_unchanged(&before, "JSON that is no request").await;
});

on_both_databases!(an_oversized_body_is_413, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let before = f.tasks().await;
    let huge = "x".repeat(300 * 1024);
    let variables = json!({"input": {"projectId": f.project_id, "title": "Huge", "description": huge}});
    let response = f.owner.post_raw(body(op!("create_task"), variables), &[]).await;
    assert_refused(&response, 413, "VALIDATION", "a 300 KiB body");
    f.assert_unchanged(&before, "an oversized body").await;
});

on_both_databases!(inputs_that_do_not_fit_the_schema_are_validation_errors, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let before = f.tasks().await;
    let project = f.project_id.as_str();
    let cases = [
        ("a title that is a number", op!("create_task"), json!({"input": {"projectId": project, "title": 5}})),
        (
            "an unknown priority",
            op!("create_task"),
            json!({"input": {"projectId": project, "title": "t", "priority": "SUPER"}}),
        ),
        (
            "a status in lower case",
            op!("create_task"),
            json!({"input": {"projectId": project, "title": "t", "status": "done"}}),
        ),
        (
            "labels that are not strings",
            op!("create_task"),
            json!({"input": {"projectId": project, "title": "t", "labels": [{}]}}),
        ),
        ("a missing title", op!("create_task"), json!({"input": {"projectId": project}})),
        ("a null title", op!("create_task"), json!({"input": {"projectId": project, "title": null}})),
        ("no input at all", op!("create_task"), json!({})),
        (
            "an unknown input field",
            op!("create_task"),
            json!({"input": {"projectId": project, "title": "t", "colour": "red"}}),
        ),
        ("an unknown argument", op!("create_task_unknown_argument"), f.new_task()),
        ("an unknown field", op!("create_task_unknown_field"), f.new_task()),
        ("a query that does not parse", "mutation { createTask(input: {", json!({})),
        (
            "a revision that is not an integer",
            op!("update_task"),
            json!({"input": {"id": f.task_id(), "expectedRevision": "1", "title": "Changed"}}),
        ),
    ];
    for (what, query, variables) in cases {
        let response = f.owner.gql(query, variables).await;
        assert_refused(&response, 200, "VALIDATION", what);
        f.assert_unchanged(&before, what).await;
    }
});

on_both_databases!(
    operations_over_the_depth_complexity_alias_and_directive_limits_do_not_run,
    |db: TestDb| async move {
        let server = Server::start(db).await;
        let f = Fixture::new(&server).await;
        let before = f.tasks().await;
        let cases = [
            ("13 levels deep", op!("too_deep"), "nested too deep"),
            ("100 × 100 tasks", op!("too_complex"), "too complex"),
            ("31 aliases", op!("too_many_aliases"), "more than 30 aliases"),
            ("11 directives on a field", op!("too_many_directives"), "directives"),
        ];
        for (what, query, message) in cases {
            let response = f.owner.gql(query, f.new_task()).await;
            let error = response.expect_code("VALIDATION");
            assert!(error["message"].as_str().unwrap().contains(message), "{what}: {error}");
            assert!(response.body["data"].is_null(), "{what}: {}", response.body);
            f.assert_unchanged(&before, what).await;
        }
        let at_limit = f.owner.gql(op!("deep_at_the_limit"), json!({"projectId": f.project_id})).await;
        let tasks = at_limit.data("tasks");
        assert_eq!(
            tasks["edges"][0]["node"]["project"]["workspace"]["projects"]["edges"][0]["node"]["tasks"]["edges"][0]["node"]
                ["title"],
            "Existing",
            "12 levels are allowed"
        );
    }
);

/// The id of an object of the same kind as `id` that was never created.
fn never_created(id: &str) -> String {
    let decoded = String::from_utf8(URL_SAFE_NO_PAD.decode(id).unwrap()).unwrap();
    let (kind, _) = decoded.split_once(':').unwrap();
    URL_SAFE_NO_PAD.encode(format!("{kind}:{}", uuid::Uuid::now_v7()))
}

on_both_databases!(ids_must_be_valid_of_the_right_kind_and_exist, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let doomed = common::create_task(&f.owner, &f.project_id, "Doomed").await["id"].as_str().unwrap().to_owned();
    f.owner.gql(op!("delete_task"), json!({"id": doomed})).await.data("deleteTask");
    let before = f.tasks().await;
    let create_in = |project: &str| json!({"input": {"projectId": project, "title": "Should not exist"}});
    let missing_project = never_created(&f.project_id);
    let owner_id = f.owner.gql(op!("viewer"), json!({})).await.data("viewer")["id"].as_str().unwrap().to_owned();
    let cases = [
        ("an id that is not an id", op!("create_task"), create_in("nope"), "VALIDATION"),
        ("an empty id", op!("create_task"), create_in(""), "VALIDATION"),
        ("a workspace id for a project", op!("create_task"), create_in(&f.workspace_id), "VALIDATION"),
        ("a task id for a project", op!("create_task"), create_in(f.task_id()), "VALIDATION"),
        ("a project that does not exist", op!("create_task"), create_in(&missing_project), "NOT_FOUND"),
        ("node of an invalid id", op!("node"), json!({"id": "nope"}), "VALIDATION"),
        ("node of a project that does not exist", op!("node"), json!({"id": missing_project}), "NOT_FOUND"),
        (
            "updating a deleted task",
            op!("update_task"),
            json!({"input": {"id": doomed, "expectedRevision": 1, "title": "Back"}}),
            "NOT_FOUND",
        ),
        (
            "assigning a user that does not exist",
            op!("update_task"),
            json!({"input": {"id": f.task_id(), "expectedRevision": 1, "assigneeId": never_created(&owner_id)}}),
            "NOT_FOUND",
        ),
        (
            "assigning a project",
            op!("update_task"),
            json!({"input": {"id": f.task_id(), "expectedRevision": 1, "assigneeId": f.project_id}}),
            "VALIDATION",
        ),
        (
            "a dependency on a deleted task",
            op!("add_task_dependency"),
            json!({"taskId": f.task_id(), "dependsOnId": doomed}),
            "NOT_FOUND",
        ),
    ];
    for (what, query, variables, code) in cases {
        let response = f.owner.gql(query, variables).await;
        assert_refused(&response, 200, code, what);
        f.assert_unchanged(&before, what).await;
    }
});

on_both_databases!(another_tenants_ids_are_not_found, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let tenant = json!({"name": "Globex", "ownerEmail": "boss@globex.test", "ownerPassword": acc_tests::PASSWORD});
    f.owner.gql(op!("create_organization"), tenant).await.data("createOrganization");
    let login =
        server.client().gql(op!("login"), json!({"email": "boss@globex.test", "password": acc_tests::PASSWORD})).await;
    let other = server.client().with_token(login.data("login")["accessToken"].as_str().unwrap());
    let before = f.tasks().await;
    let cases = [
        ("creating a task in it", op!("create_task"), f.new_task()),
        ("reading its tasks", op!("tasks"), json!({"projectId": f.project_id})),
        (
            "updating its task",
            op!("update_task"),
            json!({"input": {"id": f.task_id(), "expectedRevision": 1, "title": "Mine"}}),
        ),
        ("deleting its task", op!("delete_task"), json!({"id": f.task_id()})),
        ("its task as a node", op!("node"), json!({"id": f.task_id()})),
    ];
    for (what, query, variables) in cases {
        let response = other.gql(query, variables).await;
        assert_refused(&response, 200, "NOT_FOUND", what);
        f.assert_unchanged(&before, what).await;
    }
});

on_both_databases!(stale_revisions_conflict_and_write_nothing, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let changed = f
        .owner
        .gql(op!("update_task"), json!({"input": {"id": f.task_id(), "expectedRevision": 1, "status": "IN_PROGRESS"}}))
        .await;
    assert_eq!(changed.data("updateTask")["revision"], 2);
    let before = f.tasks().await;
    let cases = [
        (
            "an update from revision 1",
            op!("update_task"),
            json!({"input": {"id": f.task_id(), "expectedRevision": 1, "title": "Lost update"}}),
        ),
        (
            "an update from a future revision",
            op!("update_task"),
            json!({"input": {"id": f.task_id(), "expectedRevision": 3, "title": "From the future"}}),
        ),
        ("a delete from revision 1", op!("delete_task"), json!({"id": f.task_id(), "expectedRevision": 1})),
    ];
    for (what, query, variables) in cases {
        let response = f.owner.gql(query, variables).await;
        assert_refused(&response, 200, "CONFLICT", what);
        let error = &response.errors()[0];
        assert_eq!(error["extensions"]["details"]["currentRevision"], 2, "{what}: {error}");
        f.assert_unchanged(&before, what).await;
    }
});

on_both_databases!(an_idempotency_key_reused_with_other_input_is_refused, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let first = json!({"input": {"projectId": f.project_id, "title": "Once"}, "idempotencyKey": "key-1"});
    f.owner.gql(op!("create_task"), first).await.data("createTask");
    let before = f.tasks().await;
    let other = json!({"input": {"projectId": f.project_id, "title": "Twice"}, "idempotencyKey": "key-1"});
    let response = f.owner.gql(op!("create_task"), other.clone()).await;
    assert_refused(&response, 200, "IDEMPOTENCY_MISMATCH", "the same key with another title");
    let workspace = f.owner.gql(op!("create_workspace"), json!({"name": "Other", "idempotencyKey": "key-1"})).await;
    assert_refused(&workspace, 200, "IDEMPOTENCY_MISMATCH", "the same key for another operation");
    let header = f.owner.gql_with_headers(op!("create_task"), f.new_task(), &[("Idempotency-Key", "key-1")]).await;
    assert_refused(&header, 200, "IDEMPOTENCY_MISMATCH", "the same key as a header");
    f.assert_unchanged(&before, "a reused idempotency key").await;
});

on_both_databases!(get_runs_queries_only_and_serves_graphiql, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = Fixture::new(&server).await;
    let before = f.tasks().await;
    let variables = f.new_task().to_string();

    let mutation = get_graphql(&f.owner, &[("query", op!("create_task")), ("variables", &variables)], "*/*").await;
    assert_eq!(mutation.status(), 405);
    let error: Value = mutation.json().await.unwrap();
    assert_eq!(error["errors"][0]["extensions"]["code"], "VALIDATION", "{error}");
    f.assert_unchanged(&before, "a mutation over GET").await;

    let vars = json!({"projectId": f.project_id}).to_string();
    let query = get_graphql(&f.owner, &[("query", op!("tasks")), ("variables", &vars)], "application/json").await;
    assert_eq!(query.status(), 200);
    let page: Value = query.json().await.unwrap();
    assert_eq!(page["data"]["tasks"]["edges"][0]["node"]["title"], "Existing", "{page}");

    // GraphiQL, or (in an `acc` built without Node.js) the page saying how to get it.
    let browser = get_graphql(&f.owner.anonymous(), &[], "text/html").await;
    let content_type = browser.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    assert!(browser.text().await.unwrap().to_lowercase().contains("graphiql"));
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_carries_the_correlation_id_the_response_echoes() {
    let server = Server::start(TestDb::sqlite()).await;
    let f = Fixture::new(&server).await;
    let post = |bytes: Vec<u8>, token: Option<String>, correlation: Option<&'static str>| {
        let url = server.url.clone();
        async move {
            let mut request = reqwest::Client::new().post(url).header("content-type", "application/json").body(bytes);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            if let Some(id) = correlation {
                request = request.header("X-Correlation-Id", id);
            }
            let response = request.send().await.unwrap();
            let header = response.headers().get("x-correlation-id").map(|v| v.to_str().unwrap().to_owned());
            (response.status().as_u16(), header, response.json::<Value>().await.unwrap())
        }
    };
    let owner = f.owner.token.clone();
    let not_found = body(op!("node"), json!({"id": never_created(&f.project_id)}));
    let cases = [
        ("a resolver error", not_found.clone(), owner.clone(), 200),
        ("a validation error", body(op!("create_task"), json!({"input": {}})), owner.clone(), 200),
        ("malformed JSON", b"{".to_vec(), owner.clone(), 400),
        ("a bad token", body(op!("viewer"), json!({})), Some("not-a-token".to_owned()), 401),
        ("no token", body(op!("viewer"), json!({})), None, 200),
    ];
    for (what, bytes, token, status) in cases {
        let (got, header, response) = post(bytes.clone(), token.clone(), Some("trace-abc-123")).await;
        assert_eq!(got, status, "{what}: {response}");
        assert_eq!(header.as_deref(), Some("trace-abc-123"), "{what}");
        let errors = response["errors"].as_array().unwrap();
        assert!(!errors.is_empty(), "{what}: {response}");
        for error in errors {
            assert_eq!(error["extensions"]["correlationId"], "trace-abc-123", "{what}: {error}");
        }

        // Without one, or with one the server will not log, the server makes one up and still echoes it.
        for supplied in [None, Some("spaces are not allowed")] {
            let (_, header, response) = post(bytes.clone(), token.clone(), supplied).await;
            let header = header.unwrap_or_else(|| panic!("{what}: no x-correlation-id"));
            assert!(!header.is_empty() && Some(header.as_str()) != supplied, "{what}: {header}");
            assert_eq!(response["errors"][0]["extensions"]["correlationId"], header.as_str(), "{what}: {response}");
        }
    }
    let (_, first, _) = post(not_found.clone(), owner.clone(), None).await;
    let (_, second, _) = post(not_found, owner, None).await;
    assert_ne!(first, second, "each request gets its own correlation id");
}

/// In production (`limits.introspection = false`) a prober learns nothing of the schema: no
/// `__schema` and no "Did you mean" for a misspelled field. By default, both are there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_introspection_off_a_prober_learns_nothing_of_the_schema() {
    let misspelled = "{ viewer { emai } }";
    let introspection = "{ __schema { queryType { fields { name } } } }";

    let default = Server::start(TestDb::sqlite()).await;
    let open = default.owner().await;
    let hint = open.gql(misspelled, json!({})).await;
    assert!(hint.body.to_string().contains("Did you mean \\\"email\\\""), "{}", hint.body);
    open.gql(introspection, json!({})).await.data("__schema");

    let env = vec![("ACC_LIMITS__INTROSPECTION".to_owned(), "false".to_owned())];
    let server = Server::start_with(TestDb::sqlite(), ServerOptions { env, ..ServerOptions::default() }).await;
    let closed = server.owner().await;
    let refused = closed.gql(misspelled, json!({})).await;
    assert!(refused.code().is_some(), "{}", refused.body);
    assert!(!refused.body.to_string().contains("Did you mean"), "{}", refused.body);
    let schema = closed.gql(introspection, json!({})).await;
    let fields = &schema.body["data"]["__schema"]["queryType"]["fields"];
    assert!(fields.as_array().is_none_or(|fields| fields.is_empty()), "{}", schema.body);
    // What a client is for still works.
    closed.gql("{ viewer { email } }", json!({})).await.data("viewer");
}
