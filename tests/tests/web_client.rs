//! `acc serve` serves the built web client at `/` on the same origin as the API: its files, its
//! `index.html` for the client's own page paths, and the API routes exactly as before.

use acc_tests::{Server, ServerOptions, TestDb};
use serde_json::json;

const INDEX: &str = "<!doctype html><title>ACC</title><div id=\"root\"></div>";

async fn serve_web_client() -> Server {
    let db = TestDb::sqlite();
    let web = db.dir.join("web");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(web.join("index.html"), INDEX).unwrap();
    std::fs::write(web.join("assets/app-1a2b.js"), "console.log('acc');").unwrap();
    let args = vec!["--web-dir".into(), web.display().to_string()];
    Server::start_with(db, ServerOptions { args, ..Default::default() }).await
}

#[tokio::test]
async fn the_web_client_is_served_beside_the_api() {
    let server = serve_web_client().await;
    let client = server.client();

    let index = client.get("/").await;
    assert_eq!(index.status(), 200);
    assert!(index.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(index.headers().contains_key("x-correlation-id"), "the same middleware as the API");
    assert_eq!(index.headers()["cache-control"], "no-cache", "a new release shows on the next load");
    assert_eq!(index.text().await.unwrap(), INDEX);

    let script = client.get("/assets/app-1a2b.js").await;
    assert_eq!(script.status(), 200);
    assert!(script.headers()["content-type"].to_str().unwrap().contains("javascript"));
    assert_eq!(script.headers()["cache-control"], "public, max-age=31536000, immutable");

    // A page of the client's router, reloaded or opened from a link.
    let page = client.get("/runs/01HZX0000000000000000000").await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.text().await.unwrap(), INDEX);

    // The API is unchanged, and unknown API paths stay 404s instead of becoming the page.
    let required = client.gql("{ bootstrapRequired }", json!({})).await;
    assert_eq!(required.data("bootstrapRequired"), true);
    assert_eq!(client.get("/healthz").await.text().await.unwrap(), "ok");
    let graphiql = client.get("/graphql").await;
    assert_eq!(graphiql.status(), 200);
    assert!(graphiql.text().await.unwrap().to_lowercase().contains("graphiql"));
    assert_eq!(client.get("/v1/nothing-here").await.status(), 404);
    assert_eq!(client.get("/graphql/nothing-here").await.status(), 404);
}

#[tokio::test]
async fn a_web_dir_without_a_build_is_refused_at_start() {
    let db = TestDb::sqlite();
    let empty = db.dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let output = std::process::Command::new(acc_tests::server::acc_binary())
        .args(["serve", "--data-dir", db.dir.to_str().unwrap(), "--listen", "127.0.0.1:0", "--web-dir"])
        .arg(&empty)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("has no index.html"), "{stderr}");
}

/// A CORS request to `/graphql` from `origin`: the preflight's answer, then the query's.
async fn from_origin(server: &Server, origin: &str) -> (reqwest::Response, reqwest::Response) {
    let http = reqwest::Client::new();
    let url = server.url.clone();
    let preflight = http
        .request(reqwest::Method::OPTIONS, &url)
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "authorization, content-type")
        .send()
        .await
        .unwrap();
    let query =
        http.post(&url).header("origin", origin).json(&json!({"query": "{ bootstrapRequired }"})).send().await.unwrap();
    (preflight, query)
}

#[tokio::test]
async fn the_desktop_and_android_apps_may_call_the_api_and_other_origins_may_not() {
    let server = Server::start(TestDb::sqlite()).await;
    for origin in ["tauri://localhost", "http://tauri.localhost", "https://localhost"] {
        let (preflight, query) = from_origin(&server, origin).await;
        assert!(preflight.status().is_success(), "{origin}: {}", preflight.status());
        assert_eq!(preflight.headers()["access-control-allow-origin"], origin);
        let allowed = preflight.headers()["access-control-allow-headers"].to_str().unwrap().to_lowercase();
        assert!(allowed.contains("authorization") && allowed.contains("content-type"), "{allowed}");
        assert_eq!(query.headers()["access-control-allow-origin"], origin);
        let exposed = query.headers()["access-control-expose-headers"].to_str().unwrap();
        assert_eq!(exposed, "x-correlation-id", "the client shows the correlation id of an error");
    }
    // Any other page gets no permission: its browser will not let it read the answer.
    let (preflight, query) = from_origin(&server, "https://evil.example").await;
    assert!(!preflight.headers().contains_key("access-control-allow-origin"));
    assert!(!query.headers().contains_key("access-control-allow-origin"));
}

#[tokio::test]
async fn allowed_origins_are_configurable_and_checked() {
    let env = vec![("ACC_ALLOWED_ORIGINS".to_owned(), "[\"https://dash.example.com\"]".to_owned())];
    let server = Server::start_with(TestDb::sqlite(), ServerOptions { env, ..Default::default() }).await;
    let (_, query) = from_origin(&server, "https://dash.example.com").await;
    assert_eq!(query.headers()["access-control-allow-origin"], "https://dash.example.com");
    let (_, query) = from_origin(&server, "tauri://localhost").await;
    assert!(!query.headers().contains_key("access-control-allow-origin"), "the list replaces the default");

    let db = TestDb::sqlite();
    let output = std::process::Command::new(acc_tests::server::acc_binary())
        .args(["serve", "--data-dir", db.dir.to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .env("ACC_ALLOWED_ORIGINS", "[\"*\"]")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("allowed_origins") && stderr.contains("not an origin"), "{stderr}");
}
