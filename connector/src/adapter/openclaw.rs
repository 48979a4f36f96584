//! The `openclaw` adapter (SPEC §9): drives OpenClaw through its Gateway WebSocket protocol. Each
//! run starts a gateway of its own (`openclaw gateway run`, token auth, on a loopback port the
//! adapter picks) with its own configuration, state directory and HOME, so nothing carries over
//! between runs. The connector connects as an operator client with a device identity it signs
//! with ed25519, sends one `agent` request, and maps the gateway's `agent` and `chat` events and
//! the request's final answer to normalized events. OpenClaw is configured to ask before every
//! shell command (`tools.exec.ask: "always"`): each `exec.approval.requested` becomes an approval
//! the control plane decides, answered with `exec.approval.resolve`. The run ends when the agent
//! request is answered; then the gateway is stopped.

use std::collections::HashMap;
use std::os::unix::fs::DirBuilderExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acc_protocol::{CancelMode, Capability, EventKind};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signer, SigningKey};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message;
use tracing::Instrument;

use super::lines::Line;
use super::process::{self, Mapped, OutputMapper, ProcessEnd, ProcessRun};
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, ApprovalDecision, EventSink, Handshake, Health,
    NativeRun, RunSpec, bounded, context_text, event, prompt_text,
};
use crate::config::{AgentConfig, ModelApi};
use crate::lock;
use crate::skills;

pub const KIND: AdapterKind = AdapterKind {
    name: "openclaw",
    description: "OpenClaw through its Gateway WebSocket protocol, one gateway per run: messages, tool calls and results, file changes, usage; every shell command is an approval",
    capabilities: &[
        Capability::Stream,
        Capability::Cancel,
        Capability::Approvals,
        Capability::Tools,
        Capability::Artifacts,
        Capability::UsageEstimated,
    ],
    model_api: Some(ModelApi::Openai),
    credential_env: &[],
};

/// The OpenClaw versions these mappings were written against and tested with (calendar versions:
/// a year.month line).
pub const TESTED: &str = "2026.9";
/// The Gateway protocol version this client speaks.
pub const PROTOCOL_VERSION: u64 = 4;
/// How the client presents itself: a backend operator that resolves exec approvals. Waiting for
/// an approval needs `operator.admin`; without it OpenClaw denies every command that asks.
const CLIENT_ID: &str = "gateway-client";
const CLIENT_MODE: &str = "backend";
const ROLE: &str = "operator";
const SCOPES: &[&str] = &["operator.admin", "operator.approvals"];
const PLATFORM: &str = "linux";
/// The ids of the client's own requests.
const CONNECT: &str = "connect";
const AGENT: &str = "agent";
const RESOLVE: &str = "resolve";
/// How long the gateway may take to say it is ready (a few seconds; more on a busy machine).
const STARTUP: Duration = Duration::from_secs(120);
/// The line of the gateway's log that says it accepts connections.
const READY_LINE: &str = "[gateway] ready";
/// The variable that carries the run's model gateway token; the configuration names it.
const GATEWAY_TOKEN_ENV: &str = "ACC_MODEL_GATEWAY_TOKEN";
const MAX_LINE_BYTES: usize = 64 * 1024;
/// Gateway events that are its own housekeeping (task records, health, keep-alives) or the echo
/// of the client's own decision: not events of the run.
const HOUSEKEEPING: &[&str] = &[
    "tick",
    "health",
    "heartbeat",
    "presence",
    "task",
    "cron",
    "sessions.changed",
    "update.available",
    "skills.changed",
    "chat.metadata.changed",
    "exec.approval.resolved",
];
/// Tools whose successful call changed the file at their `path` argument.
const FILE_TOOLS: &[&str] = &["write", "edit"];

#[derive(Debug)]
pub struct OpenClawAdapter {
    program: RuntimeProgram,
    /// The agent's workspace (absolute): OpenClaw runs its tools there.
    workspace: PathBuf,
    /// The model its agent uses, and the provider it reaches it through (the model gateway).
    model: Option<String>,
    provider: Option<String>,
}

impl OpenClawAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        // Quiet: no mDNS announcements, no chat channels, no self-update.
        let quiet =
            [("OPENCLAW_DISABLE_BONJOUR", "1"), ("OPENCLAW_SKIP_CHANNELS", "1"), ("OPENCLAW_NO_AUTO_UPDATE", "1")];
        let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let workspace = agent.workdir.as_ref().map_or_else(|| here.clone(), |dir| here.join(dir));
        Self {
            program: RuntimeProgram::new(agent, options, &quiet),
            workspace,
            model: agent.model.clone(),
            provider: agent.model_provider.clone(),
        }
    }

    /// The model OpenClaw's agent uses: `provider/model` through the model gateway, or the
    /// configured `model` as OpenClaw names it (with a credential of its own in the environment).
    fn primary_model(&self, spec: &RunSpec) -> Result<Option<String>, AdapterError> {
        match (&self.provider, &self.model, &spec.model) {
            (Some(provider), Some(model), Some(_)) => Ok(Some(format!("{provider}/{model}"))),
            (Some(_), None, _) => {
                Err(AdapterError::Start("an `openclaw` agent with a model provider names its `model`".into()))
            }
            (_, model, _) => Ok(model.clone()),
        }
    }
}

/// OpenClaw's configuration for one run's gateway. The model provider's key is the run's gateway
/// token, which OpenClaw reads from the environment (`${…}`), so no file holds it.
pub fn gateway_config(
    port: u16,
    workspace: &std::path::Path,
    log_file: &std::path::Path,
    primary: Option<&str>,
    gateway: Option<(&str, &str)>,
) -> Value {
    // Only the run's turn: no seeding of the workdir, no heartbeat turns, and no "utility model"
    // calls (activity recaps for its own UI) that would spend the run's budget.
    let mut defaults = json!({
        "workspace": workspace,
        "skipBootstrap": true,
        "heartbeat": { "every": "0m" },
        "utilityModel": "",
    });
    if let Some(primary) = primary {
        defaults["model"] = json!({ "primary": primary });
    }
    let mut models = json!({ "catalogRefresh": { "enabled": false } });
    if let (Some((provider, base_url)), Some(primary)) = (gateway, primary) {
        let model = primary.split_once('/').map_or(primary, |(_, model)| model);
        models["providers"] = json!({ provider: {
            "baseUrl": format!("{base_url}/v1"),
            "apiKey": format!("${{{GATEWAY_TOKEN_ENV}}}"),
            "api": "openai-completions",
            "models": [{ "id": model, "name": model }],
        } });
    }
    json!({
        "gateway": { "mode": "local", "bind": "loopback", "port": port, "auth": { "mode": "token" } },
        "models": models,
        "agents": { "defaults": defaults },
        "tools": { "exec": { "ask": "always" } },
        // No scheduled turns (its bundled plugins add some) on a gateway that serves one run.
        "cron": { "enabled": false },
        "update": { "checkOnStart": false },
        "logging": { "file": log_file },
    })
}

/// A run's own directory (configuration, state, HOME, log), removed when the run is over.
#[derive(Debug)]
struct RunDir(PathBuf);

impl RunDir {
    fn create(spec: &RunSpec) -> Result<Self, AdapterError> {
        let path = std::env::temp_dir().join(format!("acc-openclaw-{}", spec.attempt_id));
        let dir = Self(path.clone());
        let create = || -> std::io::Result<()> {
            let mut builder = std::fs::DirBuilder::new();
            builder.mode(0o700);
            builder.create(&path)?;
            builder.create(path.join("home"))?;
            builder.create(path.join("state"))
        };
        create().map_err(|e| AdapterError::Start(format!("{}: {e}", path.display())))?;
        Ok(dir)
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A free loopback port for the run's gateway: the OS picks one, which is released just before
/// the gateway binds it.
fn free_port() -> Result<u16, AdapterError> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| AdapterError::Start(e.to_string()))?;
    Ok(listener.local_addr().map_err(|e| AdapterError::Start(e.to_string()))?.port())
}

impl Adapter for OpenClawAdapter {
    fn handshake(&self) -> Handshake {
        self.program.handshake(&KIND)
    }

    fn health(&self) -> Health {
        self.program.health("OpenClaw", TESTED)
    }

    fn reads_skills(&self) -> bool {
        true
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let primary = self.primary_model(&spec)?;
        let dir = RunDir::create(&spec)?;
        let port = free_port()?;
        let gateway = self.provider.as_deref().zip(spec.model.as_ref().map(|m| m.base_url.as_str()));
        let mut config =
            gateway_config(port, &self.workspace, &dir.0.join("openclaw.log"), primary.as_deref(), gateway);
        if !spec.skills.is_empty() {
            // The run's skills, in its own directory, beside those OpenClaw finds for itself.
            let skills_dir = dir.0.join("skills");
            skills::install(&spec.skills, &skills_dir).map_err(|e| AdapterError::Start(e.to_string()))?;
            config["skills"] = json!({ "load": { "extraDirs": [skills_dir] } });
        }
        let config_path = dir.0.join("openclaw.json");
        std::fs::write(&config_path, config.to_string())
            .map_err(|e| AdapterError::Start(format!("{}: {e}", config_path.display())))?;
        let token = URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>());
        let args =
            ["--no-color", "gateway", "run", "--port", &port.to_string(), "--bind", "loopback", "--auth", "token"]
                .map(str::to_owned)
                .to_vec();
        let mut launch = self.program.launch(args, None, false, MAX_LINE_BYTES);
        let path = |name: &str| dir.0.join(name).display().to_string();
        launch.set_env("HOME", &path("home"));
        launch.set_env("OPENCLAW_STATE_DIR", &path("state"));
        launch.set_env("OPENCLAW_CONFIG_PATH", &config_path.display().to_string());
        launch.set_env("OPENCLAW_GATEWAY_TOKEN", &token);
        if let Some(model) = &spec.model {
            launch.set_env(GATEWAY_TOKEN_ENV, &model.token);
        }

        let shared = Arc::new(Mutex::new(Shared::default()));
        let (ready, ready_rx) = watch::channel(false);
        let gateway_log = GatewayLog { shared: shared.clone(), ready, run_dir: Some(dir) };
        let span = tracing::info_span!("openclaw", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process =
            Arc::new(process::spawn(launch, gateway_log, events.clone(), self.program.active.clone(), span.clone())?);
        lock(&shared).pid = Some(process.pid());

        let request = agent_request(&spec);
        let conversation = Conversation::new(Device::generate(), token, request, shared.clone());
        let (outgoing, outgoing_rx) = mpsc::unbounded_channel();
        let client =
            Client { port, conversation, ready: ready_rx, outgoing: outgoing_rx, events, process: process.clone() };
        tokio::spawn(client.run().instrument(span));
        Ok(Box::new(OpenClawRun { process, shared, outgoing }))
    }
}

/// The `agent` request of a run: its prompt, the context as extra system prompt, a session of its own.
fn agent_request(spec: &RunSpec) -> Value {
    let mut params = json!({
        "message": prompt_text(spec),
        "agentId": "main",
        "sessionKey": format!("agent:main:acc-{}", spec.attempt_id),
        "idempotencyKey": spec.attempt_id.to_string(),
        "deliver": false,
    });
    if let Some(context) = context_text(spec) {
        params["extraSystemPrompt"] = json!(context);
    }
    request(AGENT, "agent", params)
}

fn request(id: &str, method: &str, params: Value) -> Value {
    json!({ "type": "req", "id": id, "method": method, "params": params })
}

/// The client's device identity: an ed25519 key pair made for the run. OpenClaw names a device by
/// the SHA-256 of its raw public key and pairs a loopback device automatically.
#[derive(Debug)]
pub struct Device {
    key: SigningKey,
}

impl Device {
    pub fn generate() -> Self {
        Self { key: SigningKey::generate(&mut rand::rngs::OsRng) }
    }

    pub fn new(key: SigningKey) -> Self {
        Self { key }
    }

    pub fn id(&self) -> String {
        format!("{:x}", Sha256::digest(self.key.verifying_key().as_bytes()))
    }

    /// The `device` of a `connect` request: the v3 payload (`v3|device|client|mode|role|scopes|
    /// signedAt|token|nonce|platform|deviceFamily`) signed, base64url without padding.
    fn connect_proof(&self, token: &str, nonce: &str, signed_at: i64) -> Value {
        let payload = [
            "v3",
            &self.id(),
            CLIENT_ID,
            CLIENT_MODE,
            ROLE,
            &SCOPES.join(","),
            &signed_at.to_string(),
            token,
            nonce,
            PLATFORM,
            "",
        ]
        .join("|");
        json!({
            "id": self.id(),
            "publicKey": URL_SAFE_NO_PAD.encode(self.key.verifying_key().as_bytes()),
            "signature": URL_SAFE_NO_PAD.encode(self.key.sign(payload.as_bytes()).to_bytes()),
            "signedAt": signed_at,
            "nonce": nonce,
        })
    }
}

/// What the run's handle, the gateway's process and the conversation share.
#[derive(Debug, Default)]
struct Shared {
    pid: Option<u32>,
    session_id: Option<String>,
    /// Approval requests awaiting a decision: their id, and whether `allow-once` may answer them.
    asked: HashMap<String, bool>,
    /// The agent request was answered: `Ok` with its status, or why it failed.
    answered: Option<Result<(), String>>,
    /// Why the conversation broke off before an answer.
    broken: Option<String>,
    cancelled: bool,
}

/// The gateway's own output: its log lines pass through as output; the one that says it is ready
/// lets the client connect. It ends the run once the gateway has stopped.
struct GatewayLog {
    shared: Arc<Mutex<Shared>>,
    ready: watch::Sender<bool>,
    run_dir: Option<RunDir>,
}

impl OutputMapper for GatewayLog {
    fn spawned(&mut self, _pid: u32) -> Vec<AdapterEvent> {
        // `started` comes with the agent's lifecycle start, which names its session.
        Vec::new()
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        if line.text.trim_end().ends_with(READY_LINE) {
            self.ready.send_replace(true);
        }
        vec![process::output_event("stdout", line)].into()
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        self.run_dir = None;
        result_data(&lock(&self.shared), end)
    }
}

/// How the run ended, once its gateway stopped.
fn result_data(shared: &Shared, end: &ProcessEnd) -> Value {
    let mut data = end.result_data();
    data["session_id"] = json!(shared.session_id);
    // The client stops the gateway once the agent request is answered: that answer says how
    // the run went, not the signal that stopped it.
    if shared.cancelled {
        data["outcome"] = json!("cancelled");
        return data;
    }
    let error = match &shared.answered {
        Some(Ok(())) => {
            data["outcome"] = json!("succeeded");
            return data;
        }
        Some(Err(error)) => error.clone(),
        None => shared.broken.clone().or_else(|| end.error.clone()).unwrap_or_else(|| {
            format!("the OpenClaw gateway stopped before the agent answered (exit {:?})", end.exit_code)
        }),
    };
    data["outcome"] = json!("failed");
    data["error"] = bounded(&error);
    data
}

/// What one gateway frame meant: events of the run, frames to send back, and whether the
/// conversation is over.
#[derive(Debug, Default)]
pub struct Step {
    pub events: Vec<AdapterEvent>,
    pub replies: Vec<Value>,
    pub done: bool,
}

/// The client's side of the Gateway protocol for one run, and the mapping of what the gateway
/// sends to normalized events. Public for the mapper tests on recorded frames.
#[derive(Debug)]
pub struct Conversation {
    device: Device,
    token: String,
    /// The `agent` request, sent once connected.
    agent: Value,
    shared: Arc<Mutex<Shared>>,
    /// From `hello-ok`.
    server_version: Value,
    /// The gateway's id of the run (from the `agent` request's acceptance).
    run_id: Option<String>,
    /// The arguments of the tool calls under way, by call id.
    tool_inputs: HashMap<String, Value>,
    started: bool,
    /// The last error reported: OpenClaw says the same failure in its lifecycle, its chat and
    /// its answer.
    last_error: Option<String>,
}

fn vendor(frame: &Value) -> AdapterEvent {
    event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "frame": frame }))
}

/// The text blocks of a tool result's content.
fn text_of(content: &Value) -> String {
    let blocks = content.as_array().into_iter().flatten();
    blocks.filter_map(|block| block["text"].as_str()).collect::<Vec<_>>().join("\n")
}

fn error_text(error: &Value) -> String {
    error["message"].as_str().map_or_else(|| error.to_string(), str::to_owned)
}

impl Conversation {
    fn new(device: Device, token: String, agent: Value, shared: Arc<Mutex<Shared>>) -> Self {
        Self {
            device,
            token,
            agent,
            shared,
            server_version: Value::Null,
            run_id: None,
            tool_inputs: HashMap::new(),
            started: false,
            last_error: None,
        }
    }

    /// A conversation on its own (for the mapper tests), with `agent` as its request.
    pub fn standalone(device: Device, token: &str, agent: Value) -> Self {
        Self::new(device, token.to_owned(), agent, Arc::default())
    }

    /// The `Result` data the run would end with, once the gateway stopped (for the mapper tests).
    pub fn result(&self, end: &ProcessEnd) -> Value {
        result_data(&lock(&self.shared), end)
    }

    /// The frame that passes a person's decision on one of the run's approval requests, if it is
    /// still pending.
    pub fn decide(&self, decision: &ApprovalDecision) -> Option<Value> {
        resolution(&self.shared, decision)
    }

    /// An `error` event, unless it repeats the last one.
    fn error(&mut self, message: &str) -> Vec<AdapterEvent> {
        if self.last_error.as_deref() == Some(message) {
            return Vec::new();
        }
        self.last_error = Some(message.to_owned());
        vec![event(EventKind::Error, json!({ "message": bounded(message) }))]
    }

    fn broken(&self, why: String) -> Step {
        lock(&self.shared).broken = Some(why.clone());
        Step {
            events: vec![event(EventKind::Error, json!({ "message": bounded(&why) }))],
            done: true,
            ..Step::default()
        }
    }

    /// One frame from the gateway.
    pub fn frame(&mut self, frame: &Value) -> Step {
        match frame["type"].as_str() {
            Some("event") => self.event(frame),
            Some("res") => self.response(frame),
            _ => Step { events: vec![vendor(frame)], ..Step::default() },
        }
    }

    fn response(&mut self, frame: &Value) -> Step {
        let (ok, payload) = (frame["ok"] == true, &frame["payload"]);
        match frame["id"].as_str() {
            Some(CONNECT) if ok => {
                self.server_version = payload["server"]["version"].clone();
                Step { replies: vec![self.agent.clone()], ..Step::default() }
            }
            Some(CONNECT) => {
                self.broken(format!("the OpenClaw gateway refused the connection: {}", error_text(&frame["error"])))
            }
            Some(AGENT) if ok && payload["status"] == "accepted" => {
                self.run_id = payload["runId"].as_str().map(str::to_owned);
                Step::default()
            }
            Some(AGENT) => self.answered(frame),
            Some(id) if id.starts_with(RESOLVE) && !ok => {
                let why = format!("OpenClaw refused the approval decision: {}", error_text(&frame["error"]));
                Step { events: vec![event(EventKind::Error, json!({ "message": bounded(&why) }))], ..Step::default() }
            }
            Some(id) if id.starts_with(RESOLVE) => Step::default(),
            _ => Step { events: vec![vendor(frame)], ..Step::default() },
        }
    }

    /// The final answer to the `agent` request: the agent's reply, the run's usage as OpenClaw
    /// counted it, and its end.
    fn answered(&mut self, frame: &Value) -> Step {
        let payload = &frame["payload"];
        let meta = &payload["result"]["meta"]["agentMeta"];
        let replies = payload["result"]["payloads"].as_array().into_iter().flatten();
        let said = replies.filter_map(|reply| reply["text"].as_str()).filter(|text| !text.trim().is_empty());
        let mut events: Vec<AdapterEvent> =
            said.map(|text| event(EventKind::Message, json!({ "role": "assistant", "text": bounded(text) }))).collect();
        let usage = &meta["usage"];
        if usage.is_object() {
            events.push(event(
                EventKind::Usage,
                json!({
                    "source": "runtime",
                    "model": meta["model"],
                    "input_tokens": usage["input"],
                    "output_tokens": usage["output"],
                    "cached_input_tokens": usage["cacheRead"],
                    "cache_write_tokens": usage["cacheWrite"],
                    "total_tokens": usage["total"],
                    "tokens": "reported",
                }),
            ));
        }
        let answered = if frame["ok"] == true && payload["status"] == "ok" {
            Ok(())
        } else {
            let why = frame["error"]["message"].as_str().or_else(|| payload["summary"].as_str());
            let why = why.unwrap_or("OpenClaw gave no reason").to_owned();
            events.extend(self.error(&why));
            Err(why)
        };
        lock(&self.shared).answered = Some(answered);
        Step { events, done: true, ..Step::default() }
    }

    /// Whether an event belongs to this run (the gateway serves only this run, but its own
    /// scheduled turns would carry other ids).
    fn ours(&self, payload: &Value) -> bool {
        match (&self.run_id, payload["runId"].as_str()) {
            (Some(ours), Some(theirs)) => ours == theirs,
            _ => true,
        }
    }

    fn event(&mut self, frame: &Value) -> Step {
        let payload = &frame["payload"];
        let name = frame["event"].as_str().unwrap_or_default();
        let events = match name {
            "connect.challenge" => {
                let nonce = payload["nonce"].as_str().unwrap_or_default();
                let signed_at = chrono::Utc::now().timestamp_millis();
                let connect = request(
                    CONNECT,
                    "connect",
                    json!({
                        "minProtocol": PROTOCOL_VERSION,
                        "maxProtocol": PROTOCOL_VERSION,
                        "client": { "id": CLIENT_ID, "version": crate::VERSION, "platform": PLATFORM, "mode": CLIENT_MODE },
                        "caps": ["exec-approvals", "tool-events"],
                        "auth": { "token": self.token },
                        "role": ROLE,
                        "scopes": SCOPES,
                        "device": self.device.connect_proof(&self.token, nonce, signed_at),
                    }),
                );
                return Step { replies: vec![connect], ..Step::default() };
            }
            _ if HOUSEKEEPING.contains(&name) => Vec::new(),
            _ if !self.ours(payload) => Vec::new(),
            "agent" => self.agent_event(frame),
            "chat" => match payload["state"].as_str() {
                Some("error") => self.error(payload["errorMessage"].as_str().unwrap_or("the chat turn failed")),
                // The turn's text so far, all of it in one message: the preambles and the
                // answer's payloads say it once each.
                Some("delta" | "final") => Vec::new(),
                _ => vec![vendor(frame)],
            },
            "exec.approval.requested" => self.approval(payload),
            _ => vec![vendor(frame)],
        };
        Step { events, ..Step::default() }
    }

    fn agent_event(&mut self, frame: &Value) -> Vec<AdapterEvent> {
        let payload = &frame["payload"];
        let data = &payload["data"];
        match (payload["stream"].as_str(), data["phase"].as_str()) {
            // OpenClaw starts the turn again after a failed model call: the run started once.
            (Some("lifecycle"), Some("start")) if self.started => Vec::new(),
            (Some("lifecycle"), Some("start")) => {
                self.started = true;
                let session = payload["sessionId"].as_str().map(str::to_owned);
                let mut shared = lock(&self.shared);
                shared.session_id = session.clone();
                vec![event(
                    EventKind::Started,
                    json!({
                        "pid": shared.pid,
                        "session_id": session,
                        "session_key": payload["sessionKey"],
                        "agent": payload["agentId"],
                        "runtime_version": self.server_version,
                        "protocol_version": PROTOCOL_VERSION,
                    }),
                )]
            }
            (Some("lifecycle"), Some("error")) => self.error(data["error"].as_str().unwrap_or("the agent run failed")),
            // Its progress through the turn; the answer and the approvals say what matters.
            (Some("lifecycle"), Some("model" | "finishing" | "end" | "waiting-approval" | "approval-resolved")) => {
                Vec::new()
            }
            // What the model says before it calls a tool.
            (Some("item"), Some("end")) if data["kind"] == "preamble" => {
                let text = data["progressText"].as_str().unwrap_or_default();
                vec![event(EventKind::Message, json!({ "role": "assistant", "text": bounded(text) }))]
            }
            // Items and command output repeat the tool stream; assistant deltas and running usage
            // add up to the final message and the answer's usage; an approval repeats the decision.
            (Some("item"), _) if matches!(data["kind"].as_str(), Some("preamble" | "tool")) => Vec::new(),
            (Some("command_output" | "assistant" | "usage" | "approval"), _) => Vec::new(),
            (Some("tool"), Some("start")) => {
                if let Some(id) = data["toolCallId"].as_str() {
                    self.tool_inputs.insert(id.to_owned(), data["args"].clone());
                }
                vec![event(
                    EventKind::ToolCall,
                    json!({ "id": data["toolCallId"], "name": data["name"], "input": data["args"] }),
                )]
            }
            (Some("tool"), Some("update")) => Vec::new(),
            (Some("tool"), Some("result")) => self.tool_result(data),
            _ => vec![vendor(frame)],
        }
    }

    fn tool_result(&mut self, data: &Value) -> Vec<AdapterEvent> {
        let details = &data["result"]["details"];
        let is_error = data["isError"] == true;
        let mut events = vec![event(
            EventKind::ToolResult,
            json!({
                "tool_use_id": data["toolCallId"],
                "output": bounded(&text_of(&data["result"]["content"])),
                "exit_code": details["exitCode"],
                "is_error": is_error,
                "duration_ms": details["durationMs"],
            }),
        )];
        let name = data["name"].as_str().unwrap_or_default();
        // The file is named in the call's arguments, which came with its start.
        let input = data["toolCallId"].as_str().and_then(|id| self.tool_inputs.remove(id)).unwrap_or_default();
        if let Some(path) = input["path"].as_str().filter(|_| !is_error && FILE_TOOLS.contains(&name)) {
            events.push(event(EventKind::FileChange, json!({ "path": path, "tool": name })));
        }
        events
    }

    /// `exec.approval.requested`: the command waits until a person decides.
    fn approval(&mut self, payload: &Value) -> Vec<AdapterEvent> {
        let request = &payload["request"];
        let Some(id) = payload["id"].as_str() else { return vec![vendor(payload)] };
        let allowed = request["allowedDecisions"].as_array().into_iter().flatten();
        let may_allow = allowed.clone().any(|d| *d == "allow-once");
        lock(&self.shared).asked.insert(id.to_owned(), may_allow);
        let command = request["command"].as_str().unwrap_or_default();
        let action: String = format!("exec: {command}").chars().take(500).collect();
        vec![event(
            EventKind::ApprovalRequested,
            json!({
                "request_id": id,
                "action": action,
                "reason": request["warningText"],
                "details": {
                    "tool_call_id": request["toolCallId"],
                    "command": command,
                    "cwd": request["cwd"],
                    "resolved_path": request["resolvedPath"],
                    "host": request["host"],
                    "allowed_decisions": allowed.collect::<Vec<_>>(),
                    "expires_at_ms": payload["expiresAtMs"],
                },
            }),
        )]
    }
}

/// The frame that answers an approval request, if it is still pending: `allow-once` for an
/// approval (never one that allows for the rest of the session), `deny` otherwise.
fn resolution(shared: &Mutex<Shared>, decision: &ApprovalDecision) -> Option<Value> {
    let may_allow = lock(shared).asked.remove(&decision.request_id)?;
    let answer = if decision.approved && may_allow { "allow-once" } else { "deny" };
    let params = json!({ "id": decision.request_id, "decision": answer });
    Some(request(&format!("{RESOLVE}-{}", decision.request_id), "exec.approval.resolve", params))
}

/// The run's WebSocket client: connects once the gateway is ready, runs the conversation, and
/// stops the gateway when it is over.
struct Client {
    port: u16,
    conversation: Conversation,
    ready: watch::Receiver<bool>,
    outgoing: mpsc::UnboundedReceiver<Value>,
    events: EventSink,
    process: Arc<ProcessRun>,
}

impl Client {
    async fn run(mut self) {
        if let Err(why) = self.converse().await {
            let step = self.conversation.broken(why);
            for event in step.events {
                let _ = self.events.send(event).await;
            }
        }
        // The gateway serves this run only.
        self.process.cancel(CancelMode::Graceful);
    }

    async fn converse(&mut self) -> Result<(), String> {
        match tokio::time::timeout(STARTUP, self.ready.wait_for(|ready| *ready)).await {
            Ok(Ok(_)) => {}
            // The gateway exited before it was ready; its end is the run's.
            Ok(Err(_)) => return Ok(()),
            Err(_) => return Err(format!("the OpenClaw gateway was not ready within {}s", STARTUP.as_secs())),
        }
        let url = format!("ws://127.0.0.1:{}", self.port);
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .map_err(|e| format!("could not connect to the OpenClaw gateway at {url}: {e}"))?;
        let (mut sink, mut stream) = socket.split();
        loop {
            let frame = tokio::select! {
                message = stream.next() => match message {
                    Some(Ok(Message::Text(text))) => serde_json::from_str::<Value>(text.as_str())
                        .unwrap_or_else(|_| Value::String(text.as_str().to_owned())),
                    Some(Ok(Message::Close(_))) | None => return Err("the OpenClaw gateway closed the connection".into()),
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Err(format!("the OpenClaw gateway connection failed: {e}")),
                },
                Some(frame) = self.outgoing.recv() => {
                    sink.send(Message::text(frame.to_string())).await.map_err(|e| e.to_string())?;
                    continue;
                }
            };
            let step = self.conversation.frame(&frame);
            for reply in step.replies {
                sink.send(Message::text(reply.to_string())).await.map_err(|e| e.to_string())?;
            }
            for event in step.events {
                if self.events.send(event).await.is_err() {
                    return Ok(());
                }
            }
            if step.done {
                let _ = sink.close().await;
                return Ok(());
            }
        }
    }
}

#[derive(Debug)]
struct OpenClawRun {
    process: Arc<ProcessRun>,
    shared: Arc<Mutex<Shared>>,
    outgoing: mpsc::UnboundedSender<Value>,
}

impl NativeRun for OpenClawRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.process.pid())
    }

    fn pid(&self) -> Option<u32> {
        Some(self.process.pid())
    }

    /// Stops the run's gateway (SIGTERM, SIGKILL after the grace period), and with it the turn
    /// and any command waiting for approval.
    fn cancel(&self, mode: CancelMode) {
        lock(&self.shared).cancelled = true;
        self.process.cancel(mode);
    }

    fn decide_approval(&self, decision: ApprovalDecision) -> Result<(), AdapterError> {
        let frame = resolution(&self.shared, &decision)
            .ok_or_else(|| AdapterError::NotListening(format!("no approval request {}", decision.request_id)))?;
        self.outgoing.send(frame).map_err(|_| AdapterError::NotListening("the gateway connection is closed".into()))
    }
}
