//! An operator's embedding service instead of the built-in model: any endpoint that speaks
//! OpenAI's `POST /v1/embeddings` (OpenAI, Azure OpenAI, Ollama, vLLM, LiteLLM, text-embeddings-
//! inference…). Its vectors are made unit length here, since not every service does.

use serde::Deserialize;
use serde_json::json;

use super::embedding::EmbeddingError;

pub struct EmbeddingEndpoint {
    client: reqwest::Client,
    /// `…/embeddings` under the configured base URL.
    url: String,
    model: String,
    key: Option<String>,
    dimensions: usize,
}

#[derive(Deserialize)]
struct Response {
    data: Vec<Datum>,
}

#[derive(Deserialize)]
struct Datum {
    index: usize,
    embedding: Vec<f32>,
}

impl EmbeddingEndpoint {
    /// The endpoint under `base_url` (e.g. `https://api.openai.com/v1`) serving `model`, checked by
    /// embedding one text, which also tells the length of its vectors.
    pub async fn connect(base_url: &str, model: &str, key: Option<String>) -> Result<Self, EmbeddingError> {
        let mut endpoint = Self {
            client: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(30))
                .build()
                .map_err(|e| EmbeddingError::Failed(e.to_string()))?,
            url: format!("{}/embeddings", base_url.trim_end_matches('/')),
            model: model.to_owned(),
            key,
            dimensions: 0,
        };
        let probe = endpoint.embed(vec!["ready".to_owned()]).await?;
        endpoint.dimensions = probe[0].len();
        Ok(endpoint)
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// One unit-length vector per text, in order.
    pub async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        let failed = |reason: String| EmbeddingError::Endpoint { url: self.url.clone(), reason };
        let count = texts.len();
        let mut request = self.client.post(&self.url).json(&json!({"model": self.model, "input": texts}));
        if let Some(key) = &self.key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| failed(e.to_string()))?;
        if !response.status().is_success() {
            return Err(failed(format!("it answered {}", response.status())));
        }
        let mut body: Response = response.json().await.map_err(|e| failed(format!("its answer: {e}")))?;
        body.data.sort_by_key(|d| d.index);
        let length = body.data.first().map_or(0, |d| d.embedding.len());
        let expected = if self.dimensions == 0 { length } else { self.dimensions };
        if body.data.len() != count || length == 0 || body.data.iter().any(|d| d.embedding.len() != expected) {
            return Err(failed(format!("{} vectors of {expected} numbers were expected", count)));
        }
        Ok(body.data.into_iter().map(|d| unit(d.embedding)).collect())
    }
}

fn unit(mut vector: Vec<f32>) -> Vec<f32> {
    let length = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
    if length > 0.0 {
        vector.iter_mut().for_each(|v| *v /= length);
    }
    vector
}
