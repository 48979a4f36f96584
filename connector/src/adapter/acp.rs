//! The `acp` adapter (SPEC §9): drives any agent that speaks the Agent Client Protocol (JSON-RPC
//! 2.0, one message per line on stdin and stdout), such as `gemini --acp`. The connector is the
//! ACP client: `initialize` (protocol version 1, no file system or terminal of its own to offer),
//! `session/new` in the agent's workdir, then one `session/prompt` with the run's prompt and
//! context. The agent's `session/update` notifications become normalized events, each
//! `session/request_permission` an approval the control plane decides, and the prompt's stop
//! reason the run's outcome. Cancel asks with `session/cancel` first, then signals.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use acc_protocol::{CancelMode, Capability, EventKind};
use serde_json::{Value, json};

use super::lines::{Line, LineJoiner};
use super::process::{self, AskingRun, Mapped, OutputMapper, ProcessEnd};
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, ApprovalDecision, EventSink, Handshake, Health,
    NativeRun, RunSpec, bounded, context_text, event, model_gateway_env, prompt_text,
};
use crate::config::AgentConfig;
use crate::lock;

pub const KIND: AdapterKind = AdapterKind {
    name: "acp",
    description: "any Agent Client Protocol agent over stdio (such as `gemini --acp`): messages, tool calls and results, file changes; every permission request is an approval",
    capabilities: &[
        Capability::Stream,
        Capability::Cancel,
        Capability::Approvals,
        Capability::Tools,
        Capability::Artifacts,
    ],
    model_api: None,
    credential_env: &[],
};

/// The ACP version this client speaks (a major version; the agent answers with the one it picks).
pub const PROTOCOL_VERSION: u64 = 1;
/// The agent these mappings were tested with: Gemini CLI `--acp`, a 0.x minor line.
pub const TESTED: &str = "0.61";
const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;
/// The ids of the client's own requests: one of each per run.
const INITIALIZE: u64 = 1;
const NEW_SESSION: u64 = 2;
const PROMPT: u64 = 3;
/// JSON-RPC: the client does not offer the method the agent called.
const METHOD_NOT_FOUND: i64 = -32601;
/// Tool kinds that change files, at the locations the tool call names.
const FILE_KINDS: &[&str] = &["edit", "delete", "move"];

#[derive(Debug)]
pub struct AcpAdapter {
    program: RuntimeProgram,
    /// The session's working directory, absolute as ACP requires: the agent's workdir, else the connector's.
    cwd: PathBuf,
}

impl AcpAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let cwd = agent.workdir.as_ref().map_or_else(|| here.clone(), |dir| here.join(dir));
        Self { program: RuntimeProgram::new(agent, options, &[]), cwd }
    }
}

impl Adapter for AcpAdapter {
    fn handshake(&self) -> Handshake {
        self.program.handshake(&KIND)
    }

    fn health(&self) -> Health {
        self.program.health("The ACP agent", TESTED)
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        // The agent's own arguments (such as `--acp`) come from the configuration alone.
        let mut launch = self.program.launch(Vec::new(), Some(initialize_request()), true, MAX_LINE_BYTES);
        launch.env.extend(model_gateway_env(&spec));
        let grace = launch.grace;
        let mapper = AcpOutput::new(&self.cwd, &spec);
        let shared = mapper.shared.clone();
        let span = tracing::info_span!("acp", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process = process::spawn(launch, mapper, events, self.program.active.clone(), span)?;
        Ok(Box::new(AcpRun { run: AskingRun::new(process, grace), shared }))
    }
}

/// What the run's handle and its output mapper share.
#[derive(Debug, Default)]
struct Shared {
    session_id: Option<String>,
    /// Permission requests awaiting a decision, by request id.
    asked: HashMap<String, Asked>,
    /// A cancel was asked for: the outcome is `cancelled`, and permission requests are answered so.
    cancelled: bool,
}

/// A permission request of the agent: its JSON-RPC id, and the options that answer it.
#[derive(Debug)]
struct Asked {
    id: Value,
    /// The option that allows this one call (never one that allows for the rest of the session).
    allow_once: Option<String>,
    reject: Option<String>,
}

impl Asked {
    /// The JSON-RPC response: the chosen option, or `cancelled` when none fits.
    fn answer(&self, option: Option<&String>) -> String {
        let outcome = match option {
            Some(id) => json!({ "outcome": "selected", "optionId": id }),
            None => json!({ "outcome": "cancelled" }),
        };
        json!({ "jsonrpc": "2.0", "id": self.id, "result": { "outcome": outcome } }).to_string()
    }
}

#[derive(Debug)]
struct AcpRun {
    run: AskingRun,
    shared: Arc<Mutex<Shared>>,
}

impl NativeRun for AcpRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.run.process.pid())
    }

    fn pid(&self) -> Option<u32> {
        Some(self.run.process.pid())
    }

    /// `session/cancel` (and `cancelled` to every pending permission request) first, then signals.
    fn cancel(&self, mode: CancelMode) {
        let (first, asking) = {
            let mut shared = lock(&self.shared);
            let first = !std::mem::replace(&mut shared.cancelled, true);
            let pending: Vec<Asked> = shared.asked.drain().map(|(_, asked)| asked).collect();
            let asking: Vec<String> = match &shared.session_id {
                Some(session) => {
                    let notification =
                        json!({ "jsonrpc": "2.0", "method": "session/cancel", "params": { "sessionId": session } });
                    std::iter::once(notification.to_string()).chain(pending.iter().map(|a| a.answer(None))).collect()
                }
                None => Vec::new(),
            };
            (first, asking)
        };
        self.run.cancel(mode, first, asking);
    }

    fn decide_approval(&self, decision: ApprovalDecision) -> Result<(), AdapterError> {
        let asked = lock(&self.shared)
            .asked
            .remove(&decision.request_id)
            .ok_or_else(|| AdapterError::NotListening(format!("no permission request {}", decision.request_id)))?;
        let option = if decision.approved { asked.allow_once.as_ref() } else { asked.reject.as_ref() };
        self.run.process.write_line(asked.answer(option))
    }
}

/// A tool call as the agent described it so far (`tool_call`, then `tool_call_update`s).
#[derive(Debug, Default)]
struct Tool {
    title: String,
    kind: String,
    input: Value,
    /// The files it works on: its locations and the paths of its diffs.
    paths: Vec<String>,
    /// Its `tool_result` was reported.
    finished: bool,
}

impl Tool {
    fn merge(&mut self, update: &Value) {
        if let Some(title) = update["title"].as_str() {
            self.title = title.to_owned();
        }
        if let Some(kind) = update["kind"].as_str() {
            self.kind = kind.to_owned();
        }
        if !update["rawInput"].is_null() {
            self.input = update["rawInput"].clone();
        }
        let locations = update["locations"].as_array().into_iter().flatten().filter_map(|l| l["path"].as_str());
        let diffs = update["content"].as_array().into_iter().flatten().filter(|c| c["type"] == "diff");
        for path in locations.chain(diffs.filter_map(|c| c["path"].as_str())) {
            if !self.paths.iter().any(|p| p == path) {
                self.paths.push(path.to_owned());
            }
        }
    }
}

/// An ACP agent's output, normalized, and the client's side of the conversation. Public for the
/// mapper tests on recorded output.
#[derive(Debug)]
pub struct AcpOutput {
    pid: Option<u32>,
    carry: LineJoiner,
    cwd: String,
    /// The content blocks of the run's prompt.
    prompt: Vec<Value>,
    shared: Arc<Mutex<Shared>>,
    /// `agentInfo` from the agent's `initialize` answer.
    agent: Value,
    /// The agent's message so far: it streams in chunks, kept as one event.
    speaking: String,
    tools: HashMap<String, Tool>,
    stop_reason: Option<String>,
    /// Why the conversation broke off (an error answer, a protocol mismatch).
    error: Option<String>,
}

fn vendor(line: Value) -> AdapterEvent {
    event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": line }))
}

fn request(id: u64, method: &str, params: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

/// The first line to the agent: `initialize`, offering no client capabilities (the agent uses its
/// own file system and terminal, in its workdir).
pub fn initialize_request() -> String {
    let capabilities = json!({ "fs": { "readTextFile": false, "writeTextFile": false }, "terminal": false });
    let client = json!({ "name": "acc-connector", "version": crate::VERSION });
    request(
        INITIALIZE,
        "initialize",
        json!({ "protocolVersion": PROTOCOL_VERSION, "clientCapabilities": capabilities, "clientInfo": client }),
    )
}

/// The text of tool call content: text blocks, and what diffs and terminals stand for.
fn content_text(content: &Value) -> String {
    let parts = content.as_array().into_iter().flatten().filter_map(|item| match item["type"].as_str() {
        Some("content") => item["content"]["text"].as_str().map(str::to_owned),
        Some("diff") => item["path"].as_str().map(|path| format!("(diff of {path})")),
        Some("terminal") => item["terminalId"].as_str().map(|id| format!("(terminal {id})")),
        _ => None,
    });
    parts.collect::<Vec<_>>().join("\n")
}

/// What an error answer to one of the client's requests says.
fn error_text(what: &str, error: &Value) -> String {
    let message = error["message"].as_str().unwrap_or("no message");
    format!("the agent refused {what}: {message} (code {})", error["code"])
}

/// Why a turn that did not end normally ended, by its stop reason.
fn stop_text(reason: &str) -> String {
    match reason {
        "max_tokens" => "the agent reached its token limit (max_tokens)".to_owned(),
        "max_turn_requests" => {
            "the agent reached its limit of model requests in one turn (max_turn_requests)".to_owned()
        }
        "refusal" => "the agent refused to go on (refusal)".to_owned(),
        other => format!("the agent stopped the turn: {other}"),
    }
}

impl AcpOutput {
    /// The mapper of one run, whose session works in `cwd`.
    pub fn new(cwd: &Path, spec: &RunSpec) -> Self {
        let text = |text: String| json!({ "type": "text", "text": text });
        let prompt = std::iter::once(text(prompt_text(spec))).chain(context_text(spec).map(text)).collect();
        Self {
            pid: None,
            carry: LineJoiner::default(),
            cwd: cwd.display().to_string(),
            prompt,
            shared: Arc::default(),
            agent: Value::Null,
            speaking: String::new(),
            tools: HashMap::new(),
            stop_reason: None,
            error: None,
        }
    }

    /// The agent's message, once it is complete.
    fn said(&mut self) -> Option<AdapterEvent> {
        (!self.speaking.is_empty()).then(|| {
            let text = std::mem::take(&mut self.speaking);
            event(EventKind::Message, json!({ "role": "assistant", "text": bounded(&text) }))
        })
    }

    /// The conversation cannot go on: an error event, and stdin closes so the agent exits.
    fn broken(&mut self, message: String, mut events: Vec<AdapterEvent>) -> Mapped {
        events.push(event(EventKind::Error, json!({ "message": bounded(&message) })));
        self.error = Some(message);
        Mapped { events, close_stdin: true, ..Mapped::default() }
    }

    fn map(&mut self, text: &str) -> Mapped {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
            events.push(vendor(bounded(text)));
            return events.into();
        };
        match (message["method"].as_str(), message.get("id")) {
            (Some("session/update"), None) => self.update(&message["params"]["update"], &message).into(),
            (Some("session/request_permission"), Some(id)) => self.permission(id, &message["params"]),
            (Some(_), Some(id)) => self.unsupported(id, message.clone()),
            (None, Some(_)) => self.response(&message),
            _ => {
                let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
                events.push(vendor(message));
                events.into()
            }
        }
    }

    /// An answer to one of the client's requests.
    fn response(&mut self, message: &Value) -> Mapped {
        let events: Vec<AdapterEvent> = self.said().into_iter().collect();
        let (result, error) = (&message["result"], message.get("error"));
        match message["id"].as_u64() {
            Some(INITIALIZE) => {
                if let Some(error) = error {
                    return self.broken(error_text("initialize", error), events);
                }
                if result["protocolVersion"].as_u64() != Some(PROTOCOL_VERSION) {
                    let spoken = format!(
                        "the agent speaks ACP version {}; this client speaks {PROTOCOL_VERSION}",
                        result["protocolVersion"]
                    );
                    return self.broken(spoken, events);
                }
                self.agent = result["agentInfo"].clone();
                let new_session = request(NEW_SESSION, "session/new", json!({ "cwd": self.cwd, "mcpServers": [] }));
                Mapped { events, replies: vec![new_session], ..Mapped::default() }
            }
            Some(NEW_SESSION) => {
                let session = result["sessionId"].as_str().map(str::to_owned);
                let (Some(session), None) = (session, error) else {
                    let why = error.map_or_else(
                        || "session/new answered no session id".to_owned(),
                        |e| error_text("session/new", e),
                    );
                    return self.broken(why, events);
                };
                lock(&self.shared).session_id = Some(session.clone());
                let started = event(
                    EventKind::Started,
                    json!({
                        "pid": self.pid,
                        "session_id": session,
                        "agent": self.agent["name"],
                        "runtime_version": self.agent["version"],
                        "protocol_version": PROTOCOL_VERSION,
                        "mode": result["modes"]["currentModeId"],
                        "model": result["models"]["currentModelId"],
                    }),
                );
                let prompt = request(PROMPT, "session/prompt", json!({ "sessionId": session, "prompt": self.prompt }));
                let mut events = events;
                events.push(started);
                Mapped { events, replies: vec![prompt], ..Mapped::default() }
            }
            Some(PROMPT) => {
                if let Some(error) = error {
                    return self.broken(error_text("the prompt", error), events);
                }
                self.stop_reason = Some(result["stopReason"].as_str().unwrap_or("unknown").to_owned());
                let mut events = events;
                // Gemini CLI reports the turn's tokens in the answer's `_meta`.
                let tokens = &result["_meta"]["quota"]["token_count"];
                if tokens.is_object() {
                    events.push(event(
                        EventKind::Usage,
                        json!({
                            "source": "runtime",
                            "input_tokens": tokens["input_tokens"],
                            "output_tokens": tokens["output_tokens"],
                            "models": result["_meta"]["quota"]["model_usage"],
                            "tokens": "reported",
                        }),
                    ));
                }
                // The turn is over: with its stdin closed the agent exits.
                Mapped { events, close_stdin: true, ..Mapped::default() }
            }
            _ => {
                let mut events = events;
                events.push(vendor(message.clone()));
                events.into()
            }
        }
    }

    /// One `session/update` notification.
    fn update(&mut self, update: &Value, message: &Value) -> Vec<AdapterEvent> {
        let kind = update["sessionUpdate"].as_str();
        if kind == Some("agent_message_chunk") && update["content"]["type"] == "text" {
            self.speaking.push_str(update["content"]["text"].as_str().unwrap_or_default());
            return Vec::new();
        }
        let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
        match kind {
            // The model's reasoning is not kept (SPEC §10).
            Some("agent_thought_chunk") => {}
            Some("user_message_chunk") if update["content"]["type"] == "text" => events.push(event(
                EventKind::Message,
                json!({ "role": "user", "text": bounded(update["content"]["text"].as_str().unwrap_or_default()) }),
            )),
            Some("tool_call" | "tool_call_update") => self.tool(update, &mut events),
            Some("plan") => events
                .push(event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "plan": update["entries"] }))),
            _ => events.push(vendor(message.clone())),
        }
        events
    }

    /// A tool call, new or updated: `tool_call` the first time it is seen, `tool_result` (and
    /// `file_change` for a completed edit) once it completed or failed.
    fn tool(&mut self, update: &Value, events: &mut Vec<AdapterEvent>) {
        let id = update["toolCallId"].as_str().unwrap_or_default().to_owned();
        let seen = self.tools.contains_key(&id);
        let tool = self.tools.entry(id.clone()).or_default();
        tool.merge(update);
        if !seen {
            events.push(event(
                EventKind::ToolCall,
                json!({ "id": id, "name": tool.kind, "title": tool.title, "input": tool.input }),
            ));
        }
        let status = update["status"].as_str();
        if tool.finished || !matches!(status, Some("completed" | "failed")) {
            return;
        }
        tool.finished = true;
        let mut output = content_text(&update["content"]);
        if output.is_empty() && !update["rawOutput"].is_null() {
            output = update["rawOutput"].to_string();
        }
        events.push(event(
            EventKind::ToolResult,
            json!({ "tool_use_id": id, "output": bounded(&output), "is_error": status == Some("failed") }),
        ));
        if status == Some("completed") && FILE_KINDS.contains(&tool.kind.as_str()) {
            for path in &tool.paths {
                events
                    .push(event(EventKind::FileChange, json!({ "path": path, "tool": tool.title, "kind": tool.kind })));
            }
        }
    }

    /// `session/request_permission`: the tool call it is about, and an approval request.
    fn permission(&mut self, id: &Value, params: &Value) -> Mapped {
        let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
        let call = &params["toolCall"];
        self.tool(call, &mut events);
        let options = params["options"].as_array().map(Vec::as_slice).unwrap_or_default();
        let option = |kinds: &[&str]| {
            let chosen = kinds.iter().find_map(|kind| options.iter().find(|o| o["kind"] == *kind));
            chosen.and_then(|o| o["optionId"].as_str()).map(str::to_owned)
        };
        let asked = Asked {
            id: id.clone(),
            allow_once: option(&["allow_once"]),
            reject: option(&["reject_once", "reject_always"]),
        };
        let request_id = match id {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let mut shared = lock(&self.shared);
        if shared.cancelled {
            return Mapped { events, replies: vec![asked.answer(None)], ..Mapped::default() };
        }
        shared.asked.insert(request_id.clone(), asked);
        drop(shared);
        let tool = self.tools.get(call["toolCallId"].as_str().unwrap_or_default());
        let (kind, title) = tool.map(|t| (t.kind.as_str(), t.title.as_str())).unwrap_or_default();
        let action: String = format!("{kind}: {title}").chars().take(500).collect();
        events.push(event(
            EventKind::ApprovalRequested,
            json!({
                "request_id": request_id,
                "action": action,
                "reason": Value::Null,
                "details": {
                    "tool_call_id": call["toolCallId"],
                    "kind": kind,
                    "title": title,
                    "input": call["rawInput"],
                    "locations": call["locations"],
                    "content": bounded(&content_text(&call["content"])),
                    "options": params["options"],
                },
            }),
        ));
        events.into()
    }

    /// A request of a method this client does not offer: refused, so the agent does not wait.
    fn unsupported(&mut self, id: &Value, message: Value) -> Mapped {
        let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
        let method = message["method"].as_str().unwrap_or_default().to_owned();
        events.push(vendor(message));
        let error = json!({ "code": METHOD_NOT_FOUND, "message": format!("the client does not offer {method}") });
        let reply = json!({ "jsonrpc": "2.0", "id": id, "error": error }).to_string();
        Mapped { events, replies: vec![reply], ..Mapped::default() }
    }
}

impl OutputMapper for AcpOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        // `started` comes with the session, which names it.
        self.pid = Some(pid);
        Vec::new()
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let Some(whole) = self.carry.join(line, MAX_LINE_BYTES) else { return Mapped::default() };
        self.map(&whole)
    }

    fn flush(&mut self) -> Vec<AdapterEvent> {
        self.said().into_iter().collect()
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        let shared = lock(&self.shared);
        let mut data = end.result_data();
        data["session_id"] = json!(shared.session_id);
        data["stop_reason"] = json!(self.stop_reason);
        let cancelled = end.cancelled || shared.cancelled || self.stop_reason.as_deref() == Some("cancelled");
        let outcome = match (cancelled, self.stop_reason.as_deref()) {
            (true, _) => "cancelled",
            (false, Some("end_turn")) if end.error.is_none() => "succeeded",
            _ => "failed",
        };
        data["outcome"] = json!(outcome);
        if outcome == "failed" {
            let error = self.error.clone().or_else(|| end.error.clone()).unwrap_or_else(|| match &self.stop_reason {
                Some(reason) => stop_text(reason),
                None => "the agent ended without answering the prompt".to_owned(),
            });
            data["error"] = json!(error);
        }
        data
    }
}
