//! Identity through the real server, as a client signs in: passwords, rotating refresh tokens,
//! sessions, API tokens, forged access tokens, login throttling, roles and tenants.

mod common;

use acc_tests::{Client, GqlResponse, PASSWORD, Server, ServerOptions, TestDb, on_both_databases, op};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ed25519_dalek::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

const OWNER_EMAIL: &str = "owner@acme.test";

async fn login(server: &Server, email: &str, password: &str) -> GqlResponse {
    server.client().gql(op!("login"), json!({"email": email, "password": password})).await
}

/// Signs in with [`PASSWORD`] from a new device: a client holding the access token, and the login payload.
async fn sign_in(server: &Server, email: &str, device: &str) -> (Client, Value) {
    let response =
        server.client().gql(op!("login"), json!({"email": email, "password": PASSWORD, "deviceName": device})).await;
    let payload = response.data("login").clone();
    (server.client().with_token(payload["accessToken"].as_str().unwrap()), payload)
}

/// The request was refused before anything ran: HTTP 401 and `UNAUTHENTICATED`.
fn assert_refused(response: &GqlResponse, what: &str) {
    assert_eq!(response.status, 401, "{what}: {}", response.body);
    response.expect_code("UNAUTHENTICATED");
    assert!(response.body["data"].is_null(), "{what}: {}", response.body);
}

async fn viewer(client: &Client) -> GqlResponse {
    client.gql(op!("viewer"), json!({})).await
}

fn id(value: &Value) -> String {
    value["id"].as_str().unwrap().to_owned()
}

/// The caller's sessions, current and revoked.
async fn sessions(client: &Client) -> Vec<Value> {
    let page = client.gql(op!("sessions"), json!({})).await;
    page.data("sessions")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect()
}

fn session<'a>(sessions: &'a [Value], device: &str) -> &'a Value {
    sessions.iter().find(|s| s["deviceName"] == device).unwrap_or_else(|| panic!("no session {device}: {sessions:?}"))
}

/// A `createTask` that may be refused.
async fn try_create_task(client: &Client, project_id: &str, title: &str) -> GqlResponse {
    client.gql(op!("create_task"), json!({"input": {"projectId": project_id, "title": title}})).await
}

async fn task_titles(client: &Client, project_id: &str) -> Vec<String> {
    let page = client.gql(op!("tasks"), json!({"projectId": project_id})).await;
    page.data("tasks")["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["title"].as_str().unwrap().into())
        .collect()
}

on_both_databases!(login_needs_the_right_password_and_tells_nothing_else, |db: TestDb| async move {
    let server = Server::start(db).await;
    server.owner().await;

    let (client, payload) = sign_in(&server, "Owner@Acme.test", "laptop").await;
    assert!(payload["refreshToken"].as_str().unwrap().starts_with("acc_rt_"));
    assert_eq!(payload["session"]["deviceName"], "laptop");
    assert_eq!(payload["user"]["email"], OWNER_EMAIL, "emails are matched without regard to case");
    let me = viewer(&client).await;
    assert_eq!(me.data("viewer")["email"], OWNER_EMAIL);
    assert_eq!(me.data("viewer")["organization"]["name"], "Acme");

    let wrong_password = login(&server, OWNER_EMAIL, "not the right password").await;
    let unknown_email = login(&server, "nobody@acme.test", PASSWORD).await;
    let wrong = wrong_password.expect_code("UNAUTHENTICATED");
    let unknown = unknown_email.expect_code("UNAUTHENTICATED");
    assert_eq!(wrong["message"], unknown["message"], "a stranger cannot tell which accounts exist");
    assert!(wrong_password.body["data"].is_null() && unknown_email.body["data"].is_null());

    let anonymous = viewer(&server.client()).await;
    anonymous.expect_code("UNAUTHENTICATED");
});

on_both_databases!(refresh_rotates_and_a_replayed_refresh_token_ends_the_session, |db: TestDb| async move {
    let server = Server::start(db).await;
    let owner = server.owner().await;
    let (_, first) = sign_in(&server, OWNER_EMAIL, "laptop").await;
    let refresh = |token: Value| {
        let client = server.client();
        async move { client.gql(op!("refresh_session"), json!({"refreshToken": token})).await }
    };

    let second = refresh(first["refreshToken"].clone()).await;
    let second = second.data("refreshSession").clone();
    assert_ne!(second["refreshToken"], first["refreshToken"], "a new refresh token every time");
    assert_eq!(second["session"]["id"], first["session"]["id"], "the same session goes on");
    let rotated = server.client().with_token(second["accessToken"].as_str().unwrap());
    assert_eq!(viewer(&rotated).await.data("viewer")["email"], OWNER_EMAIL);
    let third = refresh(second["refreshToken"].clone()).await;
    let third = third.data("refreshSession").clone();
    let newest = server.client().with_token(third["accessToken"].as_str().unwrap());
    viewer(&newest).await.data("viewer");

    // The first refresh token was copied and comes back: the whole session ends.
    let replay = refresh(first["refreshToken"].clone()).await;
    let error = replay.expect_code("UNAUTHENTICATED");
    assert!(error["message"].as_str().unwrap().contains("already used"), "{error}");
    assert_refused(&viewer(&newest).await, "the newest access token of a revoked session");
    refresh(third["refreshToken"].clone()).await.expect_code("UNAUTHENTICATED");

    let listed = sessions(&owner).await;
    let laptop = session(&listed, "laptop");
    assert!(laptop["revokedAt"].is_string(), "{laptop}");
    assert_eq!(laptop["revokedReason"], "refresh token reused");
    viewer(&owner).await.data("viewer");
    refresh(json!("acc_rt_never-issued")).await.expect_code("UNAUTHENTICATED");
});

on_both_databases!(logout_and_revoke_session_end_one_session_each, |db: TestDb| async move {
    let server = Server::start(db).await;
    let owner = server.owner().await;
    let (laptop, laptop_payload) = sign_in(&server, OWNER_EMAIL, "laptop").await;
    let (phone, _) = sign_in(&server, OWNER_EMAIL, "phone").await;

    let listed = sessions(&owner).await;
    assert_eq!(listed.len(), 3);
    assert_eq!(listed.iter().filter(|s| s["current"] == true).count(), 1, "{listed:?}");
    assert_eq!(session(&listed, "laptop")["current"], false);
    assert_eq!(session(&sessions(&laptop).await, "laptop")["current"], true);

    assert_eq!(laptop.gql(op!("logout"), json!({})).await.data("logout"), true);
    assert_refused(&viewer(&laptop).await, "a logged-out session's access token");
    let refreshed =
        server.client().gql(op!("refresh_session"), json!({"refreshToken": laptop_payload["refreshToken"]})).await;
    refreshed.expect_code("UNAUTHENTICATED");

    let phone_id = id(session(&listed, "phone"));
    let revoked = owner.gql(op!("revoke_session"), json!({"id": phone_id})).await;
    let revoked = revoked.data("revokeSession");
    assert!(revoked["revokedAt"].is_string(), "{revoked}");
    assert_eq!(revoked["current"], false);
    assert_refused(&viewer(&phone).await, "a revoked session's access token");

    let listed = sessions(&owner).await;
    assert_eq!(session(&listed, "laptop")["revokedReason"], "revoked");
    assert_eq!(session(&listed, "phone")["revokedReason"], "revoked");
    let current: Vec<&Value> = listed.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert!(current[0]["revokedAt"].is_null(), "the owner's own session goes on");
    viewer(&owner).await.data("viewer");
});

on_both_databases!(api_tokens_act_within_their_scopes_until_revoked, |db: TestDb| async move {
    let server = Server::start(db).await;
    let common::Fixture { owner, project_id: project, .. } = common::fixture(&server).await;
    common::create_task(&owner, &project, "Existing").await;

    let created = owner.gql(op!("create_api_token"), json!({"name": "ci", "scopes": ["READ"]})).await;
    let created = created.data("createApiToken").clone();
    let secret = created["secret"].as_str().unwrap();
    assert!(secret.starts_with("acc_pat_"), "{secret}");
    assert_eq!(created["apiToken"]["scopes"], json!(["READ"]));
    let reader = server.client().with_token(secret);
    assert_eq!(viewer(&reader).await.data("viewer")["email"], OWNER_EMAIL);
    assert_eq!(task_titles(&reader, &project).await, vec!["Existing"]);
    try_create_task(&reader, &project, "Written by a reader").await.expect_code("FORBIDDEN");
    let minted = reader.gql(op!("create_api_token"), json!({"name": "child", "scopes": ["ADMIN"]})).await;
    minted.expect_code("FORBIDDEN");
    let tenant = reader
        .gql(
            op!("create_organization"),
            json!({"name": "Sneaky", "ownerEmail": "x@sneaky.test", "ownerPassword": PASSWORD}),
        )
        .await;
    tenant.expect_code("FORBIDDEN");
    // A leaked read token cannot lock its owner out or revoke other credentials.
    let own_sessions = sessions(&owner).await;
    let revoke = reader.gql(op!("revoke_session"), json!({"id": own_sessions[0]["id"]})).await;
    revoke.expect_code("FORBIDDEN");
    viewer(&owner).await.data("viewer");
    let revoke = reader.gql(op!("revoke_api_token"), json!({"id": created["apiToken"]["id"]})).await;
    revoke.expect_code("FORBIDDEN");

    let writer = owner.gql(op!("create_api_token"), json!({"name": "bot", "scopes": ["WRITE"]})).await;
    let writer = server.client().with_token(writer.data("createApiToken")["secret"].as_str().unwrap());
    common::create_task(&writer, &project, "Written by a bot").await;
    writer.gql(op!("create_workspace"), json!({"name": "Bot space"})).await.expect_code("FORBIDDEN");

    let revoked = owner.gql(op!("revoke_api_token"), json!({"id": created["apiToken"]["id"]})).await;
    assert!(revoked.data("revokeApiToken")["revokedAt"].is_string());
    assert_refused(&viewer(&reader).await, "a revoked API token");
    assert_refused(&server.client().with_token("acc_pat_never-issued").gql(op!("viewer"), json!({})).await, "unknown");

    let past = (chrono::Utc::now() - chrono::Duration::hours(1)).to_rfc3339();
    let expired =
        owner.gql(op!("create_api_token"), json!({"name": "old", "scopes": ["READ"], "expiresAt": past})).await;
    expired.expect_code("VALIDATION");
    let soon = (chrono::Utc::now() + chrono::Duration::seconds(2)).to_rfc3339();
    let brief =
        owner.gql(op!("create_api_token"), json!({"name": "brief", "scopes": ["READ"], "expiresAt": soon})).await;
    let brief = server.client().with_token(brief.data("createApiToken")["secret"].as_str().unwrap());
    viewer(&brief).await.data("viewer");
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    assert_refused(&viewer(&brief).await, "an expired API token");

    let tokens = owner.gql(op!("api_tokens"), json!({})).await;
    let names: Vec<&str> = tokens.data("apiTokens")["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["ci", "bot", "brief"], "the refused token was not created");
    assert_eq!(task_titles(&owner, &project).await, vec!["Existing", "Written by a bot"]);
});

const ACCESS_KEYS: &str = "jwt-signing-keys.json";
const APPROVAL_KEYS: &str = "approval-signing-keys.json";

/// A key file of the server's data dir.
fn key_file(server: &Server, file: &str) -> std::path::PathBuf {
    server.db.dir.join("keys").join(file)
}

/// The newest key of one of the server's key sets: its kid and its PKCS#8 DER.
fn newest_key(server: &Server, file: &str) -> (String, Vec<u8>) {
    let set: Value = serde_json::from_str(&std::fs::read_to_string(key_file(server, file)).unwrap()).unwrap();
    let key = set["keys"].as_array().unwrap().last().unwrap();
    (key["kid"].as_str().unwrap().to_owned(), STANDARD.decode(key["private_key"].as_str().unwrap()).unwrap())
}

/// The server's newest access-token signing key.
fn server_key(server: &Server) -> (String, Vec<u8>) {
    newest_key(server, ACCESS_KEYS)
}

fn kid_of(token: &str) -> String {
    jsonwebtoken::decode_header(token).unwrap().kid.unwrap()
}

/// The claims of a real access token, read without verifying it.
fn claims_of(token: &str) -> Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

fn ed_dsa(kid: &str, claims: &Value, der: &[u8]) -> String {
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(kid.to_owned());
    jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(der)).unwrap()
}

on_both_databases!(forged_expired_and_unsigned_access_tokens_are_refused, |db: TestDb| async move {
    let server = Server::start(db).await;
    let common::Fixture { owner, project_id: project, .. } = common::fixture(&server).await;
    let (kid, der) = server_key(&server);
    let (_, payload) = sign_in(&server, OWNER_EMAIL, "laptop").await;
    let real = claims_of(payload["accessToken"].as_str().unwrap());
    let now = chrono::Utc::now().timestamp();
    let valid =
        json!({"iss": "acc", "sub": real["sub"], "sid": real["sid"], "org": real["org"], "iat": now, "exp": now + 600});
    let with = |changes: Value| {
        let mut claims = valid.clone();
        claims.as_object_mut().unwrap().extend(changes.as_object().unwrap().clone());
        claims
    };

    // The control: what the server itself would sign is accepted.
    let genuine = server.client().with_token(&ed_dsa(&kid, &valid, &der));
    assert_eq!(viewer(&genuine).await.data("viewer")["email"], OWNER_EMAIL);

    let foreign = ed25519_dalek::SigningKey::generate(&mut rand::rngs::OsRng).to_pkcs8_der().unwrap();
    let encode = |json: Value| URL_SAFE_NO_PAD.encode(json.to_string());
    let unsigned = format!("{}.{}.", encode(json!({"alg": "none", "typ": "JWT", "kid": kid})), encode(valid.clone()));
    let mut hs256 = Header::new(Algorithm::HS256);
    hs256.kid = Some(kid.clone());
    let keyed_with = |secret: &[u8]| jsonwebtoken::encode(&hs256, &valid, &EncodingKey::from_secret(secret)).unwrap();
    // The classic confusion: the verifier's public key used as an HMAC secret.
    let public = ed25519_dalek::SigningKey::from_pkcs8_der(&der).unwrap().verifying_key();
    let public_pem = public.to_public_key_pem(ed25519_dalek::pkcs8::spki::der::pem::LineEnding::LF).unwrap();
    let bad_tokens = [
        ("garbage", "not-a-token".to_owned()),
        ("three garbage segments", "aaa.bbb.ccc".to_owned()),
        ("expired", ed_dsa(&kid, &with(json!({"iat": now - 3600, "exp": now - 120})), &der)),
        ("signed by a foreign key with the server's kid", ed_dsa(&kid, &valid, foreign.as_bytes())),
        ("signed by a foreign key with its own kid", ed_dsa("someone-elses-key", &valid, foreign.as_bytes())),
        ("signed by the server's key under a kid it does not have", ed_dsa("not-a-kid", &valid, &der)),
        ("alg: none", unsigned),
        ("HS256 keyed with the kid", keyed_with(kid.as_bytes())),
        ("HS256 keyed with the server's public key", keyed_with(public.as_bytes())),
        ("HS256 keyed with the server's public key as PEM", keyed_with(public_pem.as_bytes())),
        ("another issuer", ed_dsa(&kid, &with(json!({"iss": "evil"})), &der)),
        ("a session that never existed", ed_dsa(&kid, &with(json!({"sid": uuid::Uuid::now_v7()})), &der)),
    ];
    for (what, token) in bad_tokens {
        let client = server.client().with_token(&token);
        assert_refused(&viewer(&client).await, what);
        assert_refused(&try_create_task(&client, &project, what).await, what);
    }
    assert_eq!(task_titles(&owner, &project).await, Vec::<String>::new(), "no forged token wrote anything");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_attempts_are_limited_per_account() {
    let env = vec![("ACC_LIMITS__LOGIN_ATTEMPTS_PER_MINUTE_PER_ACCOUNT".to_owned(), "3".to_owned())];
    let server = Server::start_with(TestDb::sqlite(), ServerOptions { env, ..ServerOptions::default() }).await;
    let owner = server.owner().await;
    let dev = json!({"email": "dev@acme.test", "password": PASSWORD, "role": "MEMBER"});
    owner.gql(op!("create_user"), dev).await.data("createUser");

    for _ in 0..3 {
        login(&server, OWNER_EMAIL, "guessing the password").await.expect_code("UNAUTHENTICATED");
    }
    let limited = login(&server, OWNER_EMAIL, PASSWORD).await;
    let error = limited.expect_code("RATE_LIMITED");
    assert_eq!(error["extensions"]["retryable"], true, "{error}");
    let retry_after = error["extensions"]["details"]["retryAfterSeconds"].as_u64().unwrap();
    assert!((1..=60).contains(&retry_after), "{error}");
    assert!(limited.body["data"].is_null(), "no tokens while limited: {}", limited.body);
    login(&server, "OWNER@acme.test", PASSWORD).await.expect_code("RATE_LIMITED");
    login(&server, "  owner@acme.test ", PASSWORD).await.expect_code("RATE_LIMITED");

    login(&server, "dev@acme.test", PASSWORD).await.data("login");
    viewer(&owner).await.data("viewer");
}

on_both_databases!(roles_decide_what_each_member_may_do, |db: TestDb| async move {
    let server = Server::start(db).await;
    let common::Fixture { owner, workspace_id, project_id: alpha } = common::fixture(&server).await;
    let beta = owner.gql(op!("create_project"), json!({"workspaceId": workspace_id, "name": "Beta"})).await;
    let (alpha, beta) = (&alpha, &id(beta.data("createProject")));
    common::create_task(&owner, alpha, "Alpha task").await;
    common::create_task(&owner, beta, "Beta task").await;
    let org_id = viewer(&owner).await.data("viewer")["organization"]["id"].as_str().unwrap().to_owned();

    let created = owner
        .gql(op!("create_user"), json!({"email": "viewer@acme.test", "password": PASSWORD, "role": "VIEWER"}))
        .await;
    let created = created.data("createUser").clone();
    assert_eq!(created["roleBindings"], json!([{"role": "VIEWER", "scopeId": org_id}]));
    assert_eq!(created["isServerAdmin"], false);
    let viewer_id = id(&created);
    for (what, email, password) in [
        ("a taken email", "Viewer@acme.test", "another long password"),
        ("no email", "viewer-at-acme.test", PASSWORD),
        ("a short password", "short@acme.test", "short"),
    ] {
        let refused = owner.gql(op!("create_user"), json!({"email": email, "password": password})).await;
        assert_eq!(refused.code(), Some("VALIDATION"), "{what}: {}", refused.body);
        login(&server, email, password).await.expect_code("UNAUTHENTICATED");
    }
    let (reader, _) = sign_in(&server, "viewer@acme.test", "reader").await;
    assert_eq!(task_titles(&reader, alpha).await, vec!["Alpha task"]);
    assert_eq!(task_titles(&reader, beta).await, vec!["Beta task"]);
    try_create_task(&reader, alpha, "Not allowed").await.expect_code("FORBIDDEN");
    let escalate =
        reader.gql(op!("grant_role"), json!({"subjectId": viewer_id, "role": "MEMBER", "scopeId": alpha})).await;
    escalate.expect_code("FORBIDDEN");

    let member = json!({"subjectId": viewer_id, "role": "MEMBER", "scopeId": alpha});
    let granted = owner.gql(op!("grant_role"), member.clone()).await;
    let granted = granted.data("grantRole");
    assert_eq!(
        (&granted["role"], &granted["scopeId"], &granted["subject"]["id"]),
        (&json!("MEMBER"), &json!(alpha), &json!(viewer_id))
    );
    common::create_task(&reader, alpha, "Now allowed").await;
    try_create_task(&reader, beta, "Still not allowed").await.expect_code("FORBIDDEN");

    assert_eq!(owner.gql(op!("revoke_role"), member.clone()).await.data("revokeRole"), true);
    assert_eq!(owner.gql(op!("revoke_role"), member).await.data("revokeRole"), false, "nothing left to revoke");
    try_create_task(&reader, alpha, "Not any more").await.expect_code("FORBIDDEN");
    assert_eq!(task_titles(&owner, alpha).await, vec!["Alpha task", "Now allowed"]);
    assert_eq!(task_titles(&owner, beta).await, vec!["Beta task"]);

    // A user whose only role is on one project sees that project and nothing else of the workspace.
    let outsider = owner.gql(op!("create_user"), json!({"email": "contractor@acme.test", "password": PASSWORD})).await;
    let outsider_id = id(outsider.data("createUser"));
    let (contractor, _) = sign_in(&server, "contractor@acme.test", "contractor").await;
    contractor.gql(op!("tasks"), json!({"projectId": alpha})).await.expect_code("NOT_FOUND");
    let grant = json!({"subjectId": outsider_id, "role": "MEMBER", "scopeId": alpha});
    owner.gql(op!("grant_role"), grant).await.data("grantRole");
    common::create_task(&contractor, alpha, "Contracted").await;
    contractor.gql(op!("tasks"), json!({"projectId": beta})).await.expect_code("NOT_FOUND");
    try_create_task(&contractor, beta, "Elsewhere").await.expect_code("NOT_FOUND");
    let workspaces = contractor.gql(op!("workspaces"), json!({})).await;
    let workspaces = workspaces.data("workspaces")["edges"].as_array().unwrap().clone();
    assert_eq!(workspaces.len(), 1);
    assert_eq!(workspaces[0]["node"]["projects"]["edges"], json!([{"node": {"id": alpha, "name": "Control plane"}}]));
    assert_eq!(task_titles(&owner, beta).await, vec!["Beta task"]);
});

on_both_databases!(an_organization_keeps_an_owner_and_only_admins_add_tenants, |db: TestDb| async move {
    let server = Server::start(db).await;
    let anonymous = server.client();
    assert_eq!(anonymous.gql(op!("bootstrap_required"), json!({})).await.data("bootstrapRequired"), true);
    let redeem = |code: &str, password: &str| {
        let variables = json!({"code": code, "org": "Acme", "email": OWNER_EMAIL, "password": password});
        anonymous.gql(op!("redeem_bootstrap"), variables)
    };
    redeem("acc_boot_wrong", PASSWORD).await.expect_code("UNAUTHENTICATED");
    redeem(server.bootstrap_code.as_deref().unwrap(), "short").await.expect_code("VALIDATION");
    assert_eq!(anonymous.gql(op!("bootstrap_required"), json!({})).await.data("bootstrapRequired"), true);
    let owner = server.owner().await;
    assert_eq!(anonymous.gql(op!("bootstrap_required"), json!({})).await.data("bootstrapRequired"), false);
    let me = viewer(&owner).await.data("viewer").clone();
    let (owner_id, org_id) = (id(&me), me["organization"]["id"].as_str().unwrap().to_owned());

    let again =
        json!({"code": server.bootstrap_code, "org": "Hijack", "email": "eve@hijack.test", "password": PASSWORD});
    anonymous.gql(op!("redeem_bootstrap"), again).await.expect_code("UNAUTHENTICATED");
    login(&server, "eve@hijack.test", PASSWORD).await.expect_code("UNAUTHENTICATED");

    let last = owner.gql(op!("revoke_role"), json!({"subjectId": owner_id, "role": "OWNER", "scopeId": org_id})).await;
    last.expect_code("VALIDATION");
    let me = viewer(&owner).await;
    assert_eq!(me.data("viewer")["roleBindings"], json!([{"role": "OWNER", "scopeId": org_id}]));
    owner.gql(op!("create_workspace"), json!({"name": "Still mine"})).await.data("createWorkspace");

    let tenant = json!({"name": "Globex", "ownerEmail": "boss@globex.test", "ownerPassword": PASSWORD});
    let globex = owner.gql(op!("create_organization"), tenant).await;
    assert_eq!(globex.data("createOrganization")["name"], "Globex");
    let (boss, _) = sign_in(&server, "boss@globex.test", "globex").await;
    let boss_view = viewer(&boss).await;
    assert_eq!(boss_view.data("viewer")["organization"]["name"], "Globex");
    boss.gql(op!("create_workspace"), json!({"name": "Globex space"})).await.data("createWorkspace");
    let workspaces = boss.gql(op!("workspaces"), json!({})).await;
    let names: Vec<&Value> =
        workspaces.data("workspaces")["edges"].as_array().unwrap().iter().map(|e| &e["node"]["name"]).collect();
    assert_eq!(names, vec!["Globex space"], "tenants do not see each other");
    let refused = boss
        .gql(
            op!("create_organization"),
            json!({"name": "Initech", "ownerEmail": "b@initech.test", "ownerPassword": PASSWORD}),
        )
        .await;
    refused.expect_code("FORBIDDEN");
    login(&server, "b@initech.test", PASSWORD).await.expect_code("UNAUTHENTICATED");
});

/// Every account of the caller's organization with its role bindings, by email.
async fn accounts(client: &Client) -> Vec<(String, Value)> {
    let page = client.gql(op!("users"), json!({})).await;
    page.data("users")["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["node"]["email"].as_str().unwrap().to_owned(), e["node"]["roleBindings"].clone()))
        .collect()
}

on_both_databases!(an_api_token_cannot_mint_accounts_roles_or_tenants, |db: TestDb| async move {
    let server = Server::start(db).await;
    let common::Fixture { owner, project_id, .. } = common::fixture(&server).await;
    let dev = owner.gql(op!("create_user"), json!({"email": "dev@acme.test", "password": PASSWORD, "role": "MEMBER"}));
    let dev_id = id(dev.await.data("createUser"));
    let org_id = viewer(&owner).await.data("viewer")["organization"]["id"].as_str().unwrap().to_owned();
    let before = accounts(&owner).await;

    let admin = owner.gql(op!("create_api_token"), json!({"name": "automation", "scopes": ["ADMIN"]})).await;
    let admin = server.client().with_token(admin.data("createApiToken")["secret"].as_str().unwrap());
    // The token does admin work on tenant data...
    admin.gql(op!("create_workspace"), json!({"name": "Made by a token"})).await.data("createWorkspace");
    // ...but whoever holds it cannot turn it into a credential that outlives its revocation.
    let attempts = [
        ("createUser", op!("create_user"), json!({"email": "eve@acme.test", "password": PASSWORD, "role": "ADMIN"})),
        ("grantRole", op!("grant_role"), json!({"subjectId": dev_id, "role": "ADMIN", "scopeId": org_id})),
        ("grantRole", op!("grant_role"), json!({"subjectId": dev_id, "role": "ADMIN", "scopeId": project_id})),
        ("revokeRole", op!("revoke_role"), json!({"subjectId": dev_id, "role": "MEMBER", "scopeId": org_id})),
        (
            "createOrganization",
            op!("create_organization"),
            json!({"name": "Shadow", "ownerEmail": "eve@shadow.test", "ownerPassword": PASSWORD}),
        ),
    ];
    for (mutation, query, variables) in attempts {
        let refused = admin.gql(query, variables).await;
        let error = refused.expect_code("FORBIDDEN");
        assert!(error["message"].as_str().unwrap().contains("an API token cannot"), "{mutation}: {error}");
    }
    assert_eq!(accounts(&owner).await, before, "no account was made and no role changed");
    login(&server, "eve@acme.test", PASSWORD).await.expect_code("UNAUTHENTICATED");
    login(&server, "eve@shadow.test", PASSWORD).await.expect_code("UNAUTHENTICATED");
});

/// The server as it runs behind a reverse proxy at 127.0.0.2 (plain HTTP behind the proxy, so
/// connectors are admitted on their credential, which the operator must say).
fn behind_a_proxy(per_address_per_minute: u32) -> ServerOptions {
    let env = [
        ("ACC_TRUSTED_PROXIES", "[\"127.0.0.2\"]"),
        ("ACC_CONNECTOR_CLIENT_CERTIFICATE", "none"),
        ("ACC_LIMITS__LOGIN_ATTEMPTS_PER_MINUTE_PER_ADDRESS", &per_address_per_minute.to_string()),
    ];
    ServerOptions { env: env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(), ..Default::default() }
}

async fn login_from(client: &Client, email: &str, password: &str, forwarded_for: &str) -> GqlResponse {
    let variables = json!({"email": email, "password": password, "deviceName": forwarded_for});
    client.gql_with_headers(op!("login"), variables, &[("x-forwarded-for", forwarded_for)]).await
}

on_both_databases!(behind_a_trusted_proxy_each_client_has_its_own_login_quota, |db: TestDb| async move {
    let server = Server::start_with(db, behind_a_proxy(2)).await;
    let owner = server.owner().await;
    let proxy = server.client().from_address("127.0.0.2".parse().unwrap());

    // Two clients behind the proxy: one guesses until it is limited, the other is not held back.
    for attempt in 0..2 {
        let guess = login_from(&proxy, &format!("guess{attempt}@acme.test"), "wrong password", "203.0.113.1").await;
        guess.expect_code("UNAUTHENTICATED");
    }
    login_from(&proxy, "guess9@acme.test", "wrong password", "203.0.113.1").await.expect_code("RATE_LIMITED");
    login_from(&proxy, "other@acme.test", "wrong password", "203.0.113.2").await.expect_code("UNAUTHENTICATED");
    // What the client wrote itself, left of what the proxy appended, does not move it to a new quota.
    let spoofed = login_from(&proxy, "guess8@acme.test", "wrong password", "198.51.100.7, 203.0.113.1").await;
    spoofed.expect_code("RATE_LIMITED");
    let signed_in = login_from(&proxy, OWNER_EMAIL, PASSWORD, "203.0.113.3").await;
    signed_in.data("login");
    assert_eq!(session(&sessions(&owner).await, "203.0.113.3")["clientAddress"], "203.0.113.3");
});

on_both_databases!(a_forged_forwarded_for_from_an_untrusted_peer_is_ignored, |db: TestDb| async move {
    let server = Server::start_with(db, behind_a_proxy(2)).await;
    let owner = server.owner().await;
    // 127.0.0.1 is not the trusted proxy: its X-Forwarded-For is its own invention.
    let direct = server.client();
    login_from(&direct, OWNER_EMAIL, PASSWORD, "198.51.100.1").await.data("login");
    assert_eq!(session(&sessions(&owner).await, "198.51.100.1")["clientAddress"], "127.0.0.1");
    login_from(&direct, "guess@acme.test", "wrong password", "198.51.100.2").await.expect_code("UNAUTHENTICATED");
    // A new made-up address each time does not buy a new quota.
    login_from(&direct, "guess@acme.test", "wrong password", "198.51.100.3").await.expect_code("RATE_LIMITED");
    login_from(&direct, OWNER_EMAIL, PASSWORD, "198.51.100.4").await.expect_code("RATE_LIMITED");
});

on_both_databases!(approval_and_access_tokens_never_pass_for_each_other, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let (_, payload) = sign_in(&server, OWNER_EMAIL, "laptop").await;
    let access_token = payload["accessToken"].as_str().unwrap().to_owned();
    let real = claims_of(&access_token);
    let now = chrono::Utc::now().timestamp();
    let claims =
        json!({"iss": "acc", "sub": real["sub"], "sid": real["sid"], "org": real["org"], "iat": now, "exp": now + 600});

    // Whatever the approval keys sign is no access token, whatever it claims.
    let (approval_kid, approval_der) = newest_key(&server, APPROVAL_KEYS);
    let forged = server.client().with_token(&ed_dsa(&approval_kid, &claims, &approval_der));
    assert_refused(&viewer(&forged).await, "an access token signed with an approval key");
    let (access_kid, access_der) = server_key(&server);
    viewer(&server.client().with_token(&ed_dsa(&access_kid, &claims, &access_der))).await.data("viewer");

    // Connectors receive the approval keys only: none of them verifies an access token.
    let (mut connector, _) = common::raw_connector(&server, &f).await;
    let welcome = connector.hello_with(&[("greeter", vec![])], vec![]).await;
    assert_eq!(welcome.approval_keys.iter().map(|k| k.kid.clone()).collect::<Vec<_>>(), vec![approval_kid]);
    for key in &welcome.approval_keys {
        assert_ne!(key.kid, kid_of(&access_token));
        let public = STANDARD.decode(&key.public_key).unwrap();
        let mut validation = jsonwebtoken::Validation::new(Algorithm::EdDSA);
        validation.validate_aud = false;
        let verified =
            jsonwebtoken::decode::<Value>(&access_token, &jsonwebtoken::DecodingKey::from_ed_der(&public), &validation);
        assert!(verified.is_err(), "an approval key verified an access token");
    }
});

/// Runs `acc keys rotate` on the server's data dir (the server stopped).
fn rotate_keys(server: &Server) {
    let output = std::process::Command::new(acc_tests::server::acc_binary())
        .args(["keys", "rotate", "--data-dir", server.db.dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(printed.contains("new access token signing key") && printed.contains("new approval token signing key"));
}

on_both_databases!(a_rotated_key_keeps_its_tokens_until_it_retires, |db: TestDb| async move {
    let mut server = Server::start(db).await;
    server.owner().await;
    let (before, _) = sign_in(&server, OWNER_EMAIL, "before").await;
    let before = before.token.unwrap();
    let old_kid = kid_of(&before);
    // A restart moves the server to a new port: each check is a new client.
    let viewer_with = |server: &Server, token: &str| {
        let client = server.client().with_token(token);
        async move { viewer(&client).await }
    };

    server.kill();
    rotate_keys(&server);
    server.crash_and_restart().await;
    // Rotating signs nobody out: the old key still verifies what it signed...
    viewer_with(&server, &before).await.data("viewer");
    // ...and new tokens come from the new key.
    let (after, _) = sign_in(&server, OWNER_EMAIL, "after").await;
    let after = after.token.unwrap();
    assert_ne!(kid_of(&after), old_kid);
    viewer_with(&server, &after).await.data("viewer");

    // A day later the old key has been superseded far longer than an access token lives.
    server.kill();
    let path = key_file(&server, ACCESS_KEYS);
    let mut set: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let old = set["keys"].as_array_mut().unwrap().iter_mut().find(|k| k["kid"] == old_kid.as_str()).unwrap();
    assert!(old["superseded_at"].is_string(), "the restart recorded when the old key stopped signing: {old}");
    old["superseded_at"] = json!((chrono::Utc::now() - chrono::Duration::days(1)).to_rfc3339());
    std::fs::write(&path, set.to_string()).unwrap();
    server.crash_and_restart().await;
    assert_refused(&viewer_with(&server, &before).await, "a token of a retired key");
    viewer_with(&server, &after).await.data("viewer");
});
