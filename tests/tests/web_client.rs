//! `acc serve` serves the web client at `/` on the same origin as the API: its files, its
//! `index.html` for the client's own page paths, GraphiQL for a browser that opens `/graphql`,
//! and the API routes exactly as before; every page under a strict Content-Security-Policy.

use std::collections::BTreeMap;

use acc_tests::{Server, ServerOptions, TestDb};
use serde_json::json;

const INDEX: &str = "<!doctype html><title>ACC</title><div id=\"root\"></div>";
const GRAPHIQL: &str = "<!doctype html><title>GraphiQL</title><div id=\"graphiql\"></div>";
const BROWSER: (&str, &str) = ("accept", "text/html,application/xhtml+xml,*/*;q=0.8");

async fn serve_web_client() -> Server {
    let db = TestDb::sqlite();
    let web = db.dir.join("web");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(web.join("index.html"), INDEX).unwrap();
    std::fs::write(web.join("graphiql.html"), GRAPHIQL).unwrap();
    std::fs::write(web.join("assets/app-1a2b.js"), "console.log('acc');").unwrap();
    let args = vec!["--web-dir".into(), web.display().to_string()];
    Server::start_with(db, ServerOptions { args, ..Default::default() }).await
}

/// The response's Content-Security-Policy, directive by directive.
fn policy(response: &reqwest::Response) -> BTreeMap<String, Vec<String>> {
    let header = response.headers().get("content-security-policy");
    let header = header.unwrap_or_else(|| panic!("{} has no Content-Security-Policy", response.url()));
    header
        .to_str()
        .unwrap()
        .split(';')
        .filter_map(|directive| {
            let mut words = directive.split_whitespace().map(str::to_owned);
            Some((words.next()?, words.collect()))
        })
        .collect()
}

/// What a browser page served here must carry: nothing but this origin's own script and
/// styles (no inline code, no eval), no framing, no plugins, no base or form target elsewhere.
fn assert_defended_page(response: &reqwest::Response) {
    let what = response.url().to_string();
    let csp = policy(response);
    let sources = |directive: &str| csp.get(directive).map(Vec::as_slice).unwrap_or_default().join(" ");
    assert_eq!(sources("default-src"), "'self'", "{what}");
    assert_eq!(sources("script-src"), "'self'", "{what}: no inline script, no eval, no CDN");
    assert_eq!(sources("style-src"), "'self'", "{what}: no inline style");
    assert_eq!(sources("connect-src"), "'self'", "{what}");
    assert_eq!(sources("frame-ancestors"), "'none'", "{what}: no other site may frame it");
    assert_eq!(sources("base-uri"), "'none'", "{what}");
    assert_eq!(sources("form-action"), "'self'", "{what}");
    assert_eq!(sources("object-src"), "'none'", "{what}");
    for (directive, allowed) in &csp {
        assert!(
            !allowed.iter().any(|s| s.contains("unsafe") || s == "*" || s.starts_with("http")),
            "{what}: {directive} {allowed:?}"
        );
    }
    assert_eq!(response.headers()["x-frame-options"], "DENY", "{what}");
    assert_eq!(response.headers()["x-content-type-options"], "nosniff", "{what}");
    assert_eq!(response.headers()["referrer-policy"], "no-referrer", "{what}");
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
    let graphiql = client.get_with("/graphql", &[BROWSER]).await;
    assert_eq!(graphiql.status(), 200);
    assert_eq!(graphiql.text().await.unwrap(), GRAPHIQL);
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

#[tokio::test]
async fn every_page_carries_a_strict_content_security_policy_and_no_framing() {
    let server = serve_web_client().await;
    let client = server.client();
    for path in ["/", "/approvals", "/runs/01HZX0000000000000000000"] {
        let page = client.get_with(path, &[BROWSER]).await;
        assert_eq!(page.status(), 200, "{path}");
        assert_defended_page(&page);
        assert!(!page.headers().contains_key("strict-transport-security"), "{path}: no HSTS over plain HTTP");
    }
    let graphiql = client.get_with("/graphql", &[BROWSER]).await;
    assert_defended_page(&graphiql);
    assert_eq!(graphiql.text().await.unwrap(), GRAPHIQL, "GraphiQL is the web client's own page, no CDN");
    // Error answers are pages too, whatever a browser is tricked into opening.
    let missing = client.get_with("/v1/nothing-here", &[BROWSER]).await;
    assert_eq!(missing.status(), 404);
    assert_defended_page(&missing);
    let script = client.get("/assets/app-1a2b.js").await;
    assert_eq!(script.headers()["x-content-type-options"], "nosniff");

    // JSON answers are never sniffed into something else either.
    let answer = client.gql("{ bootstrapRequired }", json!({})).await;
    assert_eq!(answer.data("bootstrapRequired"), true);
    let raw =
        reqwest::Client::new().post(&server.url).json(&json!({"query": "{ bootstrapRequired }"})).send().await.unwrap();
    assert!(raw.headers()["content-type"].to_str().unwrap().contains("json"));
    assert_eq!(raw.headers()["x-content-type-options"], "nosniff");
    assert_eq!(raw.headers()["x-frame-options"], "DENY");
}

#[tokio::test]
async fn a_get_of_graphql_is_graphiql_for_a_browser_and_a_query_otherwise() {
    let server = serve_web_client().await;
    let client = server.client();
    let bare = client.get("/graphql").await;
    assert_eq!(bare.status(), 400);
    let error: serde_json::Value = bare.json().await.unwrap();
    assert_eq!(error["errors"][0]["extensions"]["code"], "VALIDATION", "{error}");
    // A query opened in a browser is still a query.
    let query = client.get_with("/graphql?query=%7BbootstrapRequired%7D", &[BROWSER]).await;
    assert_eq!(query.status(), 200);
    let answer: serde_json::Value = query.json().await.unwrap();
    assert_eq!(answer["data"]["bootstrapRequired"], true, "{answer}");
}

#[tokio::test]
async fn over_tls_browsers_are_told_to_insist_on_it() {
    let db = TestDb::sqlite();
    let tls = acc_tests::tls::TestCertificates::create(&db.dir);
    let server = Server::start_with(db, ServerOptions { tls: Some(tls), ..Default::default() }).await;
    let client = server.client();
    for path in ["/", "/graphql", "/healthz"] {
        let response = client.get_with(path, &[BROWSER]).await;
        let hsts = response.headers().get("strict-transport-security").map(|v| v.to_str().unwrap().to_owned());
        let max_age: u64 = hsts
            .as_deref()
            .and_then(|v| v.strip_prefix("max-age="))
            .and_then(|v| v.split(';').next()?.parse().ok())
            .unwrap_or_else(|| panic!("{path}: HSTS is {hsts:?}"));
        assert!(max_age >= 180 * 24 * 3600, "{path}: HSTS for {max_age} s");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    }
}

/// The web client built into `acc` (api/build.rs, when Node.js was there at build time) is
/// served with no `--web-dir`; without it, `/` says how to get it instead of a bare 404.
#[tokio::test]
async fn without_web_dir_the_built_in_client_or_a_page_saying_how_to_get_it() {
    let server = Server::start(TestDb::sqlite()).await;
    let client = server.client();
    let line = server.banner.iter().find(|l| l.starts_with("Web client:")).unwrap().clone();
    let index = client.get_with("/", &[BROWSER]).await;
    assert_defended_page(&index);
    let graphiql = client.get_with("/graphql", &[BROWSER]).await;
    assert_defended_page(&graphiql);
    if line.ends_with("(built in)") {
        assert_eq!(index.status(), 200);
        let page = index.text().await.unwrap();
        assert!(page.contains("<div id=\"root\">"), "{page}");
        let script =
            page.split("<script type=\"module\" crossorigin src=\"").nth(1).unwrap().split('"').next().unwrap();
        let script = client.get(script).await;
        assert_eq!(script.status(), 200);
        assert_eq!(script.headers()["content-type"], "text/javascript; charset=utf-8");
        assert_eq!(script.headers()["cache-control"], "public, max-age=31536000, immutable");
        let page = client.get_with("/approvals", &[BROWSER]).await.text().await.unwrap();
        assert!(page.contains("<div id=\"root\">"), "a page path of the client gets its index.html");
        assert_eq!(graphiql.status(), 200);
        let page = graphiql.text().await.unwrap();
        assert!(page.contains("<div id=\"graphiql\">") && page.contains("src=\"/assets/"), "{page}");
        assert!(!page.contains("//unpkg.com") && !page.contains("cdn"), "{page}");
    } else {
        assert!(line.contains("not built into this acc"), "{line}");
        assert_eq!(index.status(), 404);
        let page = index.text().await.unwrap();
        assert!(page.contains("install Node.js") && page.contains("--web-dir"), "{page}");
        assert!(graphiql.text().await.unwrap().contains("GraphiQL"));
    }
}
