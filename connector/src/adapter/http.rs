//! The `http` adapter (SPEC §9 "Generic"): an OpenAI-compatible chat endpoint as an agent. A run
//! is one streamed Chat Completions request — the run's context as the system message, its prompt
//! as the user message — through the connector's model gateway to the agent's model provider, so
//! its usage is measured there and its budget holds. The reply streams into one `message`;
//! cancel drops the request.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use acc_protocol::{CancelMode, Capability, EventKind, HealthStatus};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::Notify;
use tracing::Instrument;

use super::{
    Adapter, AdapterError, AdapterKind, AdapterOptions, EventSink, Handshake, Health, NativeRun, RunSpec, bounded,
    context_text, event, prompt_text,
};
use crate::config::{AgentConfig, ModelApi};
use crate::model_gateway::ModelAccess;

pub const KIND: AdapterKind = AdapterKind {
    name: "http",
    description: "an OpenAI-compatible chat endpoint (the agent's model provider) as an agent: one streamed Chat Completions request per run",
    capabilities: &[Capability::Stream, Capability::Cancel],
    model_api: Some(ModelApi::Openai),
    credential_env: &[],
};

#[derive(Debug)]
pub struct HttpAdapter {
    model: String,
    client: reqwest::Client,
    active: Arc<AtomicUsize>,
}

impl HttpAdapter {
    pub fn new(agent: &AgentConfig, _options: AdapterOptions) -> Self {
        Self { model: agent.model.clone().unwrap_or_default(), client: reqwest::Client::new(), active: Arc::default() }
    }
}

impl Adapter for HttpAdapter {
    fn handshake(&self) -> Handshake {
        Handshake {
            adapter: KIND.name,
            adapter_version: crate::VERSION.to_owned(),
            runtime_version: None,
            capabilities: KIND.capabilities.to_vec(),
        }
    }

    fn health(&self) -> Health {
        let started = Instant::now();
        Health {
            status: HealthStatus::Healthy,
            latency: started.elapsed(),
            active_runs: self.active.load(Ordering::Relaxed),
            detail: None,
        }
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let Some(access) = spec.model.clone() else {
            return Err(AdapterError::Start("an `http` agent needs a model_provider".into()));
        };
        let mut messages = Vec::new();
        if let Some(context) = context_text(&spec) {
            messages.push(json!({ "role": "system", "content": context }));
        }
        messages.push(json!({ "role": "user", "content": prompt_text(&spec) }));
        let body = json!({ "model": self.model, "messages": messages, "stream": true });
        let exchange =
            Exchange { client: self.client.clone(), access, body, events: events.clone(), model: self.model.clone() };
        let cancel = Arc::new(Notify::new());
        let cancelled = cancel.clone();
        let active = self.active.clone();
        active.fetch_add(1, Ordering::Relaxed);
        let span = tracing::info_span!("http", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        tokio::spawn(
            async move {
                // Dropping the request future closes its connection: the gateway and the provider stop.
                let result = tokio::select! {
                    outcome = exchange.run() => match outcome {
                        Ok(finish) => json!({ "outcome": "succeeded", "finish_reason": finish }),
                        Err(error) => json!({ "outcome": "failed", "error": error }),
                    },
                    () = cancelled.notified() => json!({ "outcome": "cancelled" }),
                };
                active.fetch_sub(1, Ordering::Relaxed);
                let _ = events.send(event(EventKind::Result, result)).await;
            }
            .instrument(span),
        );
        Ok(Box::new(HttpRun { cancel }))
    }
}

/// One request of a run, and where its events go.
struct Exchange {
    client: reqwest::Client,
    access: ModelAccess,
    body: Value,
    events: EventSink,
    model: String,
}

impl Exchange {
    /// Streams the reply into one `message`; returns the finish reason, or why it failed.
    async fn run(self) -> Result<Value, String> {
        let url = format!("{}/v1/chat/completions", self.access.base_url);
        let _ = self.events.send(event(EventKind::Started, json!({ "model": self.model }))).await;
        let response = self
            .client
            .post(&url)
            .bearer_auth(&self.access.token)
            .json(&self.body)
            .send()
            .await
            .map_err(|e| format!("the endpoint could not be reached: {e}"))?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            let message = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v["error"]["message"].as_str().map(str::to_owned))
                .unwrap_or(text);
            let error = format!("the endpoint answered {status}: {message}");
            let _ = self.events.send(event(EventKind::Error, json!({ "message": bounded(&error) }))).await;
            return Err(error);
        }
        let (mut text, mut finish, mut pending) = (String::new(), Value::Null, Vec::new());
        let mut body = response.bytes_stream();
        while let Some(chunk) = body.next().await {
            pending.extend_from_slice(&chunk.map_err(|e| format!("the reply broke off: {e}"))?);
            while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                let Some(data) = std::str::from_utf8(&line).ok().and_then(|l| l.trim().strip_prefix("data:")) else {
                    continue;
                };
                let Ok(chunk) = serde_json::from_str::<Value>(data.trim()) else { continue };
                let choice = &chunk["choices"][0];
                text.push_str(choice["delta"]["content"].as_str().unwrap_or_default());
                if !choice["finish_reason"].is_null() {
                    finish = choice["finish_reason"].clone();
                }
            }
        }
        let _ =
            self.events.send(event(EventKind::Message, json!({ "role": "assistant", "text": bounded(&text) }))).await;
        Ok(finish)
    }
}

#[derive(Debug)]
struct HttpRun {
    cancel: Arc<Notify>,
}

impl NativeRun for HttpRun {
    fn native_ref(&self) -> String {
        "http".to_owned()
    }

    fn pid(&self) -> Option<u32> {
        None
    }

    /// Both modes stop at once: there is nothing to wind down but the request.
    fn cancel(&self, _mode: CancelMode) {
        self.cancel.notify_one();
    }
}
