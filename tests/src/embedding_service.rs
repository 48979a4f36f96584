//! A stand-in for an operator's OpenAI-compatible embedding service, the one outside boundary a
//! test cannot reach (a paid API): `POST /v1/embeddings` answered with the built-in model's real
//! vectors, scaled (not every service returns unit vectors), to callers with the bearer key it
//! was given. It can be told to fail, as a service that is down does.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use acc_api::memory::embedding::Embedder;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};

pub struct EmbeddingService {
    /// The base URL, as an operator configures it (`…/v1`).
    pub url: String,
    state: Arc<ServiceState>,
}

struct ServiceState {
    embedder: Embedder,
    key: String,
    answered: AtomicUsize,
    refused: AtomicUsize,
    down: AtomicBool,
}

impl EmbeddingService {
    pub async fn start(key: &str) -> Self {
        let embedder = Embedder::load(&crate::embedding_model_dir()).unwrap();
        let state = Arc::new(ServiceState {
            embedder,
            key: key.to_owned(),
            answered: AtomicUsize::new(0),
            refused: AtomicUsize::new(0),
            down: AtomicBool::new(false),
        });
        let app = axum::Router::new().route("/v1/embeddings", axum::routing::post(embed)).with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { url, state }
    }

    /// Requests answered with vectors, and refused for a wrong or missing key.
    pub fn answered(&self) -> usize {
        self.state.answered.load(Ordering::SeqCst)
    }

    pub fn refused(&self) -> usize {
        self.state.refused.load(Ordering::SeqCst)
    }

    /// From now on every request gets a 503.
    pub fn go_down(&self) {
        self.state.down.store(true, Ordering::SeqCst);
    }
}

async fn embed(
    State(state): State<Arc<ServiceState>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    if state.down.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"error": {"message": "down"}})));
    }
    let bearer = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    if bearer != Some(state.key.as_str()) {
        state.refused.fetch_add(1, Ordering::SeqCst);
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": {"message": "bad key"}})));
    }
    let texts: Vec<String> = serde_json::from_value(body["input"].clone()).unwrap();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let vectors = tokio::task::block_in_place(|| state.embedder.embed(&texts)).unwrap();
    let data: Vec<Value> = vectors
        .into_iter()
        .enumerate()
        .rev()
        .map(|(index, v)| json!({"object": "embedding", "index": index, "embedding": v.iter().map(|x| x * 3.0).collect::<Vec<f32>>()}))
        .collect();
    state.answered.fetch_add(1, Ordering::SeqCst);
    (StatusCode::OK, Json(json!({"object": "list", "data": data, "model": body["model"]})))
}
