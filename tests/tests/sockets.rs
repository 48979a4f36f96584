//! The clients' GraphQL WebSocket as an attacker and a flaky network would use it: a socket must
//! not outlive its session or keep roles its user lost, idle and silent sockets are closed, and
//! one identity cannot hold unbounded sockets or operations.

mod common;

use std::time::Duration;

use acc_tests::{Client, Server, ServerOptions, Subscription, TestDb, on_both_databases, op};
use sea_orm::{ConnectionTrait, Statement};
use serde_json::{Value, json};

const WATCH: &str = op!("task_events");

/// Reads until the server closes the socket; the close code and reason.
async fn closed(socket: &mut Subscription) -> String {
    loop {
        match socket.message().await {
            Ok(message) if message["type"] == "next" || message["type"] == "complete" => continue,
            Ok(other) => panic!("expected the socket to close, got {other}"),
            Err(reason) => return reason,
        }
    }
}

fn assert_closed_with(reason: &str, code: u16) {
    assert!(reason.starts_with(&format!("closed {code}")), "expected close code {code}, got {reason}");
}

/// A second account of the owner's organization with `role` on it, signed in.
async fn member(server: &Server, owner: &Client, email: &str, role: &str) -> (Client, Value) {
    let created =
        owner.gql(op!("create_user"), json!({"email": email, "password": acc_tests::PASSWORD, "role": role})).await;
    let user_id = created.data("createUser")["id"].clone();
    (sign_in(server, email).await.0, user_id)
}

/// A new session of `email`: its client and the login payload (refresh token, session id).
async fn sign_in(server: &Server, email: &str) -> (Client, Value) {
    let login = server.client().gql(op!("login"), json!({"email": email, "password": acc_tests::PASSWORD})).await;
    let login = login.data("login").clone();
    (server.client().with_token(login["accessToken"].as_str().unwrap()), login)
}

async fn workspace_count(owner: &Client) -> usize {
    let listed = owner.gql(op!("workspaces"), json!({})).await;
    listed.data("workspaces")["edges"].as_array().unwrap().len()
}

on_both_databases!(logout_revocation_and_refresh_reuse_close_the_sessions_sockets, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;

    // Logout over HTTP closes the socket opened with the same session.
    let (me, _) = sign_in(&server, "owner@acme.test").await;
    let mut socket = me.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    me.gql(op!("logout"), json!({})).await.data("logout");
    assert_closed_with(&closed(&mut socket).await, 4401);

    // Revoking a session from another one closes that session's sockets only.
    let (other, login) = sign_in(&server, "owner@acme.test").await;
    let mut revoked = other.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    let mut kept = f.owner.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    f.owner.gql(op!("revoke_session"), json!({"id": login["session"]["id"]})).await.data("revokeSession");
    assert_closed_with(&closed(&mut revoked).await, 4401);
    common::create_task(&f.owner, &f.project_id, "Still watched").await;
    assert_eq!(kept.next().await.unwrap()["data"]["taskEvents"]["kind"], "CREATED");

    // A refresh token presented twice ends its session, and the session's sockets with it.
    let (stolen, login) = sign_in(&server, "owner@acme.test").await;
    let mut socket = stolen.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    let refresh = json!({"refreshToken": login["refreshToken"]});
    server.client().gql(op!("refresh_session"), refresh.clone()).await.data("refreshSession");
    server.client().gql(op!("refresh_session"), refresh).await.expect_code("UNAUTHENTICATED");
    assert_closed_with(&closed(&mut socket).await, 4401);
});

on_both_databases!(a_disabled_account_and_a_revoked_api_token_lose_their_sockets, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let (alice, alice_id) = member(&server, &f.owner, "alice@acme.test", "MEMBER").await;
    let mut socket = alice.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    let disable = "mutation($id: ID!, $d: Boolean!) { setUserDisabled(id: $id, disabled: $d) { disabled } }";
    let disabled = f.owner.gql(disable, json!({"id": alice_id, "d": true})).await;
    assert_eq!(disabled.data("setUserDisabled")["disabled"], true);
    assert_closed_with(&closed(&mut socket).await, 4401);
    let refused =
        server.client().gql(op!("login"), json!({"email": "alice@acme.test", "password": acc_tests::PASSWORD})).await;
    refused.expect_code("UNAUTHENTICATED");
    // Enabled again, the account signs in anew; its old sessions stay ended.
    f.owner.gql(disable, json!({"id": alice_id, "d": false})).await.data("setUserDisabled");
    alice.gql(op!("viewer"), json!({})).await.expect_code("UNAUTHENTICATED");
    sign_in(&server, "alice@acme.test").await;

    let created = f.owner.gql(op!("create_api_token"), json!({"name": "dashboard", "scopes": ["READ"]})).await;
    let created = created.data("createApiToken");
    let integrator = server.client().with_token(created["secret"].as_str().unwrap());
    let mut socket = integrator.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    f.owner.gql(op!("revoke_api_token"), json!({"id": created["apiToken"]["id"]})).await.data("revokeApiToken");
    assert_closed_with(&closed(&mut socket).await, 4401);

    // Only administrators disable accounts, never their own, and never with an API token.
    let (bob, bob_id) = member(&server, &f.owner, "bob@acme.test", "MEMBER").await;
    bob.gql(disable, json!({"id": alice_id, "d": true})).await.expect_code("FORBIDDEN");
    let owner_id = f.owner.gql(op!("viewer"), json!({})).await.data("viewer")["id"].clone();
    f.owner.gql(disable, json!({"id": owner_id, "d": true})).await.expect_code("VALIDATION");
    let admin_token = f.owner.gql(op!("create_api_token"), json!({"name": "admin", "scopes": ["ADMIN"]})).await;
    let admin_token = admin_token.data("createApiToken")["secret"].as_str().unwrap().to_owned();
    let by_token = server.client().with_token(&admin_token).gql(disable, json!({"id": bob_id, "d": true})).await;
    by_token.expect_code("FORBIDDEN");
    bob.gql(op!("viewer"), json!({})).await.data("viewer");
});

on_both_databases!(a_role_change_closes_the_socket_and_a_new_one_has_the_new_roles, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let (alice, alice_id) = member(&server, &f.owner, "alice@acme.test", "MEMBER").await;
    let mut socket = alice.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    let org = f.owner.gql(op!("organization"), json!({})).await;
    let org_id = org.data("organization")["id"].clone();
    let revoke = json!({"subjectId": alice_id, "role": "MEMBER", "scopeId": org_id});
    assert_eq!(f.owner.gql(op!("revoke_role"), revoke).await.data("revokeRole"), true);
    assert_closed_with(&closed(&mut socket).await, 4403);

    // Reconnecting works, with the roles she has now: none on this project.
    let mut socket = alice.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    let refused = socket.next().await.unwrap();
    assert_eq!(refused["errors"][0]["extensions"]["code"], "NOT_FOUND", "{refused}");

    // A grant closes her sockets too, so the next one acts with it.
    let grant = json!({"subjectId": alice_id, "role": "VIEWER", "scopeId": f.project_id});
    let mut idle = alice.socket().await.unwrap();
    f.owner.gql(op!("grant_role"), grant).await.data("grantRole");
    assert_closed_with(&closed(&mut idle).await, 4403);
    let mut socket = alice.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    common::create_task(&f.owner, &f.project_id, "Visible now").await;
    assert_eq!(socket.next().await.unwrap()["data"]["taskEvents"]["task"]["title"], "Visible now");
});

on_both_databases!(every_operation_on_a_socket_checks_the_session_again, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let (me, login) = sign_in(&server, "owner@acme.test").await;
    let mut socket = me.socket().await.unwrap();
    let create = "mutation { createWorkspace(name: \"Over the socket\") { id } }";
    socket.start("1", create, json!({})).await.unwrap();
    assert!(socket.next().await.unwrap()["data"]["createWorkspace"]["id"].is_string());
    let before = workspace_count(&f.owner).await;

    // The session ends where this process cannot see it happen (another replica, an operator
    // at the database): no notification reaches the socket, so the next operation must ask.
    let conn = server.db.connect().await;
    let backend = conn.get_database_backend();
    let session_id = acc_api::ids::GlobalId::decode(login["session"]["id"].as_str().unwrap()).unwrap().id;
    let end = Statement::from_sql_and_values(
        backend,
        match backend {
            sea_orm::DatabaseBackend::Postgres => "UPDATE device_sessions SET revoked_at = $1 WHERE id = $2",
            _ => "UPDATE device_sessions SET revoked_at = ? WHERE id = ?",
        },
        [chrono::Utc::now().into(), session_id.into()],
    );
    conn.execute_raw(end).await.unwrap();

    socket.start("2", create, json!({})).await.unwrap();
    assert_closed_with(&closed(&mut socket).await, 4401);
    assert_eq!(workspace_count(&f.owner).await, before, "nothing was created after the session ended");
});

fn with_socket_settings(settings: &[(&str, &str)]) -> ServerOptions {
    ServerOptions {
        env: settings.iter().map(|(k, v)| (format!("ACC_WEBSOCKET__{k}"), (*v).to_owned())).collect(),
        ..ServerOptions::default()
    }
}

on_both_databases!(a_socket_that_never_initialises_or_stops_answering_is_closed, |db: TestDb| async move {
    let options = with_socket_settings(&[("CONNECTION_INIT_TIMEOUT_MS", "300"), ("PING_INTERVAL_MS", "200")]);
    let server = Server::start_with(db, options).await;
    let f = common::fixture(&server).await;

    let mut silent = f.owner.connect().await.unwrap();
    assert_closed_with(&closed(&mut silent).await, 4408);

    // A client that reads (and so answers pings) keeps its socket through many ping intervals…
    let mut live = f.owner.subscribe(WATCH, json!({"projectId": f.project_id})).await.unwrap();
    live.expect_silence(Duration::from_millis(1500)).await;
    common::create_task(&f.owner, &f.project_id, "Still here").await;
    assert_eq!(live.next().await.unwrap()["data"]["taskEvents"]["kind"], "CREATED");

    // …and one that stops reading, so never answers, is closed after the next ping.
    let mut frozen = f.owner.socket().await.unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_closed_with(&closed(&mut frozen).await, 4499);
});

on_both_databases!(operations_per_socket_and_sockets_per_identity_are_capped, |db: TestDb| async move {
    let options = with_socket_settings(&[("MAX_OPERATIONS_PER_SOCKET", "2"), ("MAX_SOCKETS_PER_IDENTITY", "2")]);
    let server = Server::start_with(db, options).await;
    let f = common::fixture(&server).await;
    let variables = json!({"projectId": f.project_id});

    let mut socket = f.owner.socket().await.unwrap();
    socket.start("a", WATCH, variables.clone()).await.unwrap();
    socket.start("b", WATCH, variables.clone()).await.unwrap();
    socket.start("c", WATCH, variables.clone()).await.unwrap();
    let refused = socket.message().await.unwrap();
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["id"], "c");
    assert_eq!(refused["payload"][0]["extensions"]["code"], "RATE_LIMITED", "{refused}");
    assert_eq!(refused["payload"][0]["extensions"]["details"]["maxOperations"], 2, "{refused}");
    // Completing one makes room again.
    socket.send(json!({"id": "a", "type": "complete"})).await.unwrap();
    socket.start("c", WATCH, variables.clone()).await.unwrap();
    // Once the server has answered a ping sent after `subscribe`, the subscription listens.
    socket.listening().await.unwrap();
    common::create_task(&f.owner, &f.project_id, "Two watchers").await;
    let ids = [socket.message().await.unwrap()["id"].clone(), socket.message().await.unwrap()["id"].clone()];
    assert!(ids.contains(&json!("b")) && ids.contains(&json!("c")), "{ids:?}");
    // Reusing a running operation's id is a protocol error.
    socket.start("b", WATCH, variables.clone()).await.unwrap();
    assert_closed_with(&closed(&mut socket).await, 4409);

    let _first = f.owner.socket().await.unwrap();
    let second = f.owner.socket().await.unwrap();
    let third = f.owner.socket().await.err().expect("a third socket of one identity is refused");
    assert_closed_with(&third, 4429);
    // Another identity is not affected, and a closed socket gives its place back.
    let (alice, _) = member(&server, &f.owner, "alice@acme.test", "MEMBER").await;
    alice.socket().await.unwrap();
    drop(second);
    let mut place = None;
    for _ in 0..50 {
        if let Ok(socket) = f.owner.socket().await {
            place = Some(socket);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(place.is_some(), "the closed socket's place was given back");
});

/// A client done with its socket closes it and is answered with a close frame: a clean close,
/// not an abnormal one, after which a client that closes idle sockets (graphql-ws's lazy mode)
/// opens the next one without an error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clients_close_is_answered_with_a_close() {
    let server = Server::start(TestDb::sqlite()).await;
    let owner = server.owner().await;
    let mut socket = owner.socket().await.unwrap();
    socket.start("1", "{ viewer { email } }", json!({})).await.unwrap();
    assert_eq!(socket.next().await.unwrap()["data"]["viewer"]["email"], "owner@acme.test");
    assert_eq!(socket.close().await, Ok(1000));
    let mut again = owner.socket().await.unwrap();
    again.start("1", "{ viewer { email } }", json!({})).await.unwrap();
    assert_eq!(again.next().await.unwrap()["data"]["viewer"]["email"], "owner@acme.test");
}
