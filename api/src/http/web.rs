//! The web client's pages and files, GraphiQL among them: from `--web-dir`, else the copy built
//! into the binary (`api/build.rs`), else a page that says how to get them — never a bare 404.

use std::path::PathBuf;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use tower_http::services::{ServeDir, ServeFile};

use super::SharedState;

/// The built web client's files by URL path, sorted; empty when the build had no Node.js.
static BUILT_IN: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/web_client.rs"));

const INDEX: &str = "/index.html";
const GRAPHIQL: &str = "/graphiql.html";

/// Where the pages come from.
#[derive(Debug, Clone)]
pub enum WebClient {
    /// A build on disk (`--web-dir`), which wins over the built-in copy.
    Dir(PathBuf),
    /// The copy built into this binary.
    BuiltIn,
    /// Neither: every page says how to get the web client.
    Missing,
}

impl WebClient {
    pub fn new(web_dir: Option<PathBuf>) -> Self {
        match web_dir {
            Some(dir) => Self::Dir(dir),
            None if BUILT_IN.is_empty() => Self::Missing,
            None => Self::BuiltIn,
        }
    }

    /// Serves the client's files, and its `index.html` for any other path so that the client's
    /// own router shows the page (a reload of `/runs/…` works). Unknown API paths stay 404s
    /// rather than turning into HTML a client would misread.
    pub fn routes(&self, api: Router<SharedState>) -> Router<SharedState> {
        let not_found = || async { StatusCode::NOT_FOUND };
        let api = api
            .route("/graphql/{*rest}", axum::routing::any(not_found))
            .route("/v1/{*rest}", axum::routing::any(not_found));
        let cache = axum::middleware::from_fn(cache_control);
        match self {
            Self::Dir(dir) => {
                let files = ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")));
                api.fallback_service(tower::Layer::layer(&cache, files))
            }
            Self::BuiltIn => api.fallback(get(|uri: Uri| async move { built_in(uri.path()) }).layer(cache)),
            Self::Missing => api.fallback(get(|| async { missing() }).layer(cache)),
        }
    }

    /// GraphiQL's page, for a browser that opens `/graphql`.
    pub async fn graphiql(&self) -> Response {
        match self {
            Self::Dir(dir) => match tokio::fs::read(dir.join("graphiql.html")).await {
                Ok(page) => html(page),
                Err(_) => missing(),
            },
            Self::BuiltIn => find(GRAPHIQL).map_or_else(missing, html),
            Self::Missing => missing(),
        }
    }
}

fn find(path: &str) -> Option<&'static [u8]> {
    BUILT_IN.binary_search_by(|(p, _)| (*p).cmp(path)).ok().map(|i| BUILT_IN[i].1)
}

fn built_in(path: &str) -> Response {
    match find(path) {
        Some(body) => ([(header::CONTENT_TYPE, content_type(path))], body).into_response(),
        None => find(INDEX).map_or_else(missing, html),
    }
}

fn html(page: impl Into<axum::body::Body>) -> Response {
    let page: axum::body::Body = page.into();
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}

/// The types a Vite build produces; with `nosniff` a browser runs a script only under a script type.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, extension)| extension) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("webmanifest") => "application/manifest+json",
        Some("json") => "application/json",
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// What `/`, any page path and GraphiQL answer when this server has no web client to serve.
fn missing() -> Response {
    const PAGE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
        <title>Agent Control Center: no web client</title></head><body>\
        <h1>This server has no web client</h1>\
        <p>This <code>acc</code> was built without Node.js, so neither the web client nor GraphiQL is \
        built into it. The GraphQL API works: POST to <code>/graphql</code>, subscriptions on \
        <code>/graphql/ws</code>.</p>\
        <p>To get the web client, either install Node.js 20.19 or later with npm and build \
        <code>acc</code> again (<code>cargo run --release -p acc-api -- serve</code> builds it in), or \
        build it yourself and name the directory:</p>\
        <pre>cd clients/web &amp;&amp; npm ci &amp;&amp; npm run build &amp;&amp; cd ../..\n\
        cargo run --release -p acc-api -- serve --web-dir clients/web/dist</pre>\
        </body></html>\n";
    (StatusCode::NOT_FOUND, Html(PAGE)).into_response()
}

/// The build names its assets by their content, so they never change under a name and may be
/// kept for good; everything else (`index.html`, the service worker) is revalidated on each load,
/// or a browser could keep a page that names assets a new release no longer has.
async fn cache_control(request: Request, next: Next) -> Response {
    let hashed = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let policy =
        if hashed && response.status().is_success() { "public, max-age=31536000, immutable" } else { "no-cache" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_is_sorted_for_lookup() {
        assert!(BUILT_IN.windows(2).all(|w| w[0].0 < w[1].0));
        if !BUILT_IN.is_empty() {
            assert!(find(INDEX).is_some() && find(GRAPHIQL).is_some());
        }
    }

    #[tokio::test]
    async fn without_a_web_client_every_page_says_how_to_get_one() {
        let response = WebClient::Missing.graphiql().await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        assert!(response.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"));
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let page = String::from_utf8(body.to_vec()).unwrap();
        assert!(page.contains("install Node.js") && page.contains("--web-dir"), "{page}");
    }

    #[test]
    fn scripts_and_styles_get_their_types() {
        assert_eq!(content_type("/assets/app-1a2b.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("/assets/app-1a2b.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("/manifest.webmanifest"), "application/manifest+json");
        assert_eq!(content_type("/LICENSE"), "application/octet-stream");
    }
}
