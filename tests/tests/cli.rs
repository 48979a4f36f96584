//! The `acc` command as an operator uses it: defaults, refusal to serve plain HTTP beyond
//! loopback, operator-supplied bootstrap codes, configuration layering, health and TLS.

use std::process::Command;

use acc_tests::{Server, ServerOptions, TestDb, op};
use serde_json::json;

fn acc() -> Command {
    Command::new(acc_tests::server::acc_binary())
}

#[test]
fn plain_http_beyond_loopback_is_refused_with_a_clear_message() {
    let db = TestDb::sqlite();
    let output =
        acc().args(["serve", "--data-dir", db.dir.to_str().unwrap(), "--listen", "0.0.0.0:0"]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("refusing to listen on 0.0.0.0:0 without TLS"), "{stderr}");
}

#[test]
fn migrate_creates_the_database_and_schema_prints_the_sdl() {
    let db = TestDb::sqlite();
    let output = acc().args(["migrate", "--data-dir", db.dir.to_str().unwrap()]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(db.dir.join("acc.db").exists());
    let schema = acc().arg("schema").output().unwrap();
    assert!(String::from_utf8_lossy(&schema.stdout).contains("type MutationRoot"));
}

#[tokio::test]
async fn health_readiness_and_an_operator_supplied_bootstrap_code() {
    let db = TestDb::sqlite();
    let code_file = db.dir.join("bootstrap-code");
    std::fs::write(&code_file, "operator-chosen-code-123\n").unwrap();
    let server = Server::start_with(
        db,
        ServerOptions {
            args: vec!["--bootstrap-code-file".into(), code_file.display().to_string()],
            ..Default::default()
        },
    )
    .await;
    assert_eq!(server.bootstrap_code.as_deref(), Some("operator-chosen-code-123"));
    // Printed, the code would land in whatever keeps the server's output.
    assert!(!server.banner.iter().any(|l| l.contains("operator-chosen-code-123")), "{:?}", server.banner);
    assert!(server.banner.iter().any(|l| l.starts_with("Bootstrap code: the one in ")), "{:?}", server.banner);
    let client = server.client();
    assert_eq!(client.get("/healthz").await.status(), 200);
    let ready = client.get("/readyz").await;
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.text().await.unwrap(), "ready");
    let required = client.gql("{ bootstrapRequired }", json!({})).await;
    assert_eq!(required.data("bootstrapRequired"), true);
    server.owner().await;
    let required = client.gql("{ bootstrapRequired }", json!({})).await;
    assert_eq!(required.data("bootstrapRequired"), false);
}

#[tokio::test]
async fn the_environment_overrides_the_config_file() {
    let db = TestDb::sqlite();
    let file = db.dir.join("acc.toml");
    std::fs::write(&file, "[limits]\nmax_page_size = 5\nmax_aliases = 3\n").unwrap();
    let options = ServerOptions {
        args: vec!["--config".into(), file.display().to_string()],
        env: vec![("ACC_LIMITS__MAX_PAGE_SIZE".into(), "7".into())],
        ..Default::default()
    };
    let server = Server::start_with(db, options).await;
    let owner = server.owner().await;
    let ws = owner.gql(op!("create_workspace"), json!({"name": "W"})).await;
    let project =
        owner.gql(op!("create_project"), json!({"workspaceId": ws.data("createWorkspace")["id"], "name": "P"})).await;
    let project_id = project.data("createProject")["id"].clone();
    owner.gql(op!("tasks"), json!({"projectId": project_id, "first": 7})).await.data("tasks");
    owner.gql(op!("tasks"), json!({"projectId": project_id, "first": 8})).await.expect_code("VALIDATION");
    let aliases = owner
        .gql("{ a: bootstrapRequired b: bootstrapRequired c: bootstrapRequired d: bootstrapRequired }", json!({}))
        .await;
    aliases.expect_code("VALIDATION");
}

#[tokio::test]
async fn serves_https_with_the_operators_certificate() {
    let db = TestDb::sqlite();
    let tls = acc_tests::tls::TestCertificates::create(&db.dir);
    let options = ServerOptions { tls: Some(tls.clone()), ..Default::default() };
    let server = Server::start_with(db, options).await;
    assert!(server.url.starts_with("https://"), "{}", server.url);
    let ca = reqwest::Certificate::from_pem(&std::fs::read(&tls.ca).unwrap()).unwrap();
    let client = reqwest::Client::builder().add_root_certificate(ca).build().unwrap();
    let health = client.get(format!("{}/healthz", server.base_url())).send().await.unwrap();
    assert_eq!(health.text().await.unwrap(), "ok");
}

#[test]
fn behind_a_proxy_the_connector_endpoint_needs_an_explicit_certificate_mode() {
    let db = TestDb::sqlite();
    let output = acc()
        .args(["serve", "--data-dir", db.dir.to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .env("ACC_TRUSTED_PROXIES", "[\"127.0.0.1\"]")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("set connector_client_certificate to \"proxy-header\""), "{stderr}");
}

/// The banner's `Connectors:` line, and what answers there: the connector endpoint, which turns
/// away a socket without a connector credential.
async fn connector_endpoint(server: &Server, ca: Option<&std::path::Path>) -> String {
    let line = server.banner.iter().find_map(|l| l.strip_prefix("Connectors: ")).expect("a Connectors: line");
    let endpoint = line.trim().to_owned();
    let http = endpoint.replacen("ws", "http", 1);
    let client = match ca {
        Some(ca) => reqwest::Client::builder()
            .add_root_certificate(reqwest::Certificate::from_pem(&std::fs::read(ca).unwrap()).unwrap())
            .build()
            .unwrap(),
        None => reqwest::Client::new(),
    };
    let upgrade = client
        .get(&http)
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .send()
        .await
        .unwrap();
    assert_eq!(upgrade.status(), 401, "{endpoint} wants a connector credential");
    endpoint
}

#[tokio::test]
async fn the_banner_names_the_connector_endpoint() {
    let server = Server::start(TestDb::sqlite()).await;
    let endpoint = connector_endpoint(&server, None).await;
    assert_eq!(endpoint, format!("{}/v1/connectors/ws", server.base_url().replacen("http", "ws", 1)));

    let db = TestDb::sqlite();
    let tls = acc_tests::tls::TestCertificates::create(&db.dir);
    let ca = tls.ca.clone();
    let server = Server::start_with(db, ServerOptions { tls: Some(tls), ..Default::default() }).await;
    let endpoint = connector_endpoint(&server, Some(&ca)).await;
    assert!(endpoint.starts_with("wss://127.0.0.1:") && endpoint.ends_with("/v1/connectors/ws"), "{endpoint}");
}
