//! The `codex-app-server` adapter (SPEC §9): drives OpenAI's Codex CLI through `codex app-server`,
//! its JSON-RPC protocol over stdio, so that a person decides what it runs. The connector is the
//! client: `initialize`, `thread/start` (or `thread/resume` for a retry) with the approval policy
//! `untrusted` and the run's context as developer instructions, then one `turn/start` with the
//! prompt. Its items map as `codex exec`'s do (they are the same items, named in camelCase); each
//! command or file change it asks to make is an approval the control plane decides, answered
//! `accept` or `decline`. Cancel asks with `turn/interrupt` first, then signals.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use acc_protocol::{CancelMode, Capability, EventKind};
use serde_json::{Value, json};

use super::codex::{self, MAX_LINE_BYTES, TESTED, item_completed, item_started, usage_event};
use super::lines::{Line, LineJoiner};
use super::process::{self, AskingRun, Mapped, OutputMapper, ProcessEnd};
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, ApprovalDecision, EventSink, Handshake, Health,
    NativeRun, RunSpec, bounded, context_text, event, prompt_text, resume_prompt, tool_action,
};
use crate::config::{AgentConfig, ModelApi};
use crate::lock;

pub const KIND: AdapterKind = AdapterKind {
    name: "codex-app-server",
    description: "Codex CLI through `codex app-server` (JSON-RPC): messages, commands and their output, file changes, turn usage; every command and file change is an approval; retries resume its thread",
    capabilities: &[
        Capability::Stream,
        Capability::Cancel,
        Capability::NativeResume,
        Capability::Approvals,
        Capability::Tools,
        Capability::Artifacts,
        Capability::UsageEstimated,
    ],
    model_api: Some(ModelApi::Openai),
    credential_env: &[],
};

/// The ids of the client's own requests: one of each per run.
const INITIALIZE: u64 = 1;
const THREAD: u64 = 2;
const TURN: u64 = 3;
const INTERRUPT: u64 = 4;
/// JSON-RPC: the client does not offer the method the server called.
const METHOD_NOT_FOUND: i64 = -32601;
/// Codex asks before anything but the commands it knows only read; the person decides the rest.
const APPROVAL_POLICY: &str = "untrusted";
/// The server's requests that are approvals, and the tool they are about.
const APPROVALS: &[(&str, &str)] = &[
    ("item/commandExecution/requestApproval", "command_execution"),
    ("item/fileChange/requestApproval", "file_change"),
];
/// The item types whose `codex exec` counterparts the Codex mapping knows.
const ITEM_TYPES: &[&str] = &["agentMessage", "reasoning", "commandExecution", "mcpToolCall", "fileChange"];
/// Notifications that say nothing a run's events keep: deltas of items reported whole when
/// complete, the turn's diff so far (its files come as `file_change`), status flags, the echo of
/// requests answered.
const QUIET: &[&str] = &[
    "turn/diff/updated",
    "thread/started",
    "thread/status/changed",
    "turn/started",
    "serverRequest/resolved",
    "account/rateLimits/updated",
    "remoteControl/status/changed",
    "item/agentMessage/delta",
    "item/commandExecution/outputDelta",
    "item/fileChange/outputDelta",
    "item/plan/delta",
    "item/reasoning/summaryTextDelta",
    "item/reasoning/summaryPartAdded",
    "item/reasoning/textDelta",
];

#[derive(Debug)]
pub struct CodexAppServerAdapter {
    program: RuntimeProgram,
}

impl CodexAppServerAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        Self { program: codex::program(agent, options) }
    }

    /// Starts `codex app-server`, for a new thread or to continue thread `resume`.
    fn run(&self, spec: RunSpec, resume: Option<&str>, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let launch = codex::launch(&self.program, &spec, &["app-server"], Some(initialize_request()));
        let grace = launch.grace;
        let mapper = AppServerOutput::new(&spec, resume);
        let shared = mapper.shared.clone();
        let span = tracing::info_span!("codex_app_server", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process = process::spawn(launch, mapper, events, self.program.active.clone(), span)?;
        Ok(Box::new(AppServerRun { run: AskingRun::new(process, grace), shared }))
    }
}

impl Adapter for CodexAppServerAdapter {
    fn handshake(&self) -> Handshake {
        self.program.handshake(&KIND)
    }

    fn health(&self) -> Health {
        self.program.health("Codex CLI", TESTED)
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        self.run(spec, None, events)
    }

    fn resume(&self, spec: RunSpec, session_id: &str, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        self.run(spec, Some(session_id), events)
    }
}

/// What the run's handle and its output mapper share.
#[derive(Debug, Default)]
struct Shared {
    thread_id: Option<String>,
    turn_id: Option<String>,
    /// Approval requests awaiting a decision: request id → their JSON-RPC id.
    asked: HashMap<String, Value>,
    /// A cancel was asked for: the outcome is `cancelled`, and approval requests are answered so.
    cancelled: bool,
}

/// The answer to approval request `id`: `accept`, `decline` or `cancel` (decline, and end the turn).
fn decision(id: &Value, decision: &str) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "decision": decision } }).to_string()
}

fn request(id: u64, method: &str, params: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

/// The first line to the server.
pub fn initialize_request() -> String {
    let client = json!({ "name": "acc-connector", "version": crate::VERSION });
    request(INITIALIZE, "initialize", json!({ "clientInfo": client, "capabilities": null }))
}

#[derive(Debug)]
struct AppServerRun {
    run: AskingRun,
    shared: Arc<Mutex<Shared>>,
}

impl NativeRun for AppServerRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.run.process.pid())
    }

    fn pid(&self) -> Option<u32> {
        Some(self.run.process.pid())
    }

    /// `turn/interrupt` (and `cancel` to every pending approval request) first, then signals.
    fn cancel(&self, mode: CancelMode) {
        let (first, asking) = {
            let mut shared = lock(&self.shared);
            let first = !std::mem::replace(&mut shared.cancelled, true);
            let pending: Vec<Value> = shared.asked.drain().map(|(_, id)| id).collect();
            let asking: Vec<String> = match (&shared.thread_id, &shared.turn_id) {
                (Some(thread), Some(turn)) => {
                    let interrupt = request(INTERRUPT, "turn/interrupt", json!({ "threadId": thread, "turnId": turn }));
                    std::iter::once(interrupt).chain(pending.iter().map(|id| decision(id, "cancel"))).collect()
                }
                _ => Vec::new(),
            };
            (first, asking)
        };
        self.run.cancel(mode, first, asking);
    }

    fn decide_approval(&self, approval: ApprovalDecision) -> Result<(), AdapterError> {
        let id = lock(&self.shared)
            .asked
            .remove(&approval.request_id)
            .ok_or_else(|| AdapterError::NotListening(format!("no approval request {}", approval.request_id)))?;
        // One call at a time: never `acceptForSession`.
        let answer = if approval.approved { "accept" } else { "decline" };
        self.run.process.write_line(decision(&id, answer))
    }
}

/// Token counts in Codex's camelCase (`inputTokens`, …) as the snake_case ones of `codex exec`.
fn exec_usage(usage: &Value) -> Value {
    json!({
        "input_tokens": usage["inputTokens"],
        "cached_input_tokens": usage["cachedInputTokens"],
        "output_tokens": usage["outputTokens"],
        "reasoning_output_tokens": usage["reasoningOutputTokens"],
    })
}

/// `name` in snake_case (`aggregatedOutput` → `aggregated_output`).
fn snake_case(name: &str) -> String {
    let mut snake = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            snake.push('_');
            snake.push(c.to_ascii_lowercase());
        } else {
            snake.push(c);
        }
    }
    snake
}

/// An app-server item of a type `codex exec` also reports, as `codex exec` names it: its type and
/// keys in snake_case.
fn exec_item(item: &Value) -> Option<Value> {
    let kind = item["type"].as_str().filter(|kind| ITEM_TYPES.contains(kind))?;
    let mut renamed: serde_json::Map<String, Value> =
        item.as_object()?.iter().map(|(key, value)| (snake_case(key), value.clone())).collect();
    renamed.insert("type".to_owned(), Value::String(snake_case(kind)));
    Some(Value::Object(renamed))
}

/// The token counts of one turn: the thread's totals after it less those before it.
fn difference(after: &Value, before: Option<&Value>) -> Value {
    let mut turn = exec_usage(after);
    if let (Some(before), Some(counts)) = (before.map(exec_usage), turn.as_object_mut()) {
        for (key, count) in counts.iter_mut() {
            if let (Some(a), Some(b)) = (count.as_u64(), before[key].as_u64()) {
                *count = json!(a.saturating_sub(b));
            }
        }
    }
    turn
}

/// `codex app-server`'s messages, normalized, and the client's side of the conversation. Public
/// for the mapper tests on recorded output.
#[derive(Debug)]
pub struct AppServerOutput {
    pid: Option<u32>,
    carry: LineJoiner,
    shared: Arc<Mutex<Shared>>,
    /// `thread/start`, or `thread/resume` of the thread to continue.
    thread_request: String,
    prompt: String,
    /// File changes started, by item id: what a file change approval is about.
    items: HashMap<String, Value>,
    /// The thread's token totals before this run's turn, and after its last model call.
    usage_before: Option<Value>,
    usage_after: Option<Value>,
    /// The turn, once completed.
    turn: Option<Value>,
    /// The last error it reported, or why the conversation broke off.
    error: Option<String>,
}

impl AppServerOutput {
    /// The mapper of one run, continuing thread `resume` if given.
    pub fn new(spec: &RunSpec, resume: Option<&str>) -> Self {
        let mut params = json!({ "approvalPolicy": APPROVAL_POLICY });
        if let Some(context) = context_text(spec) {
            params["developerInstructions"] = json!(context);
        }
        let (thread_request, prompt) = match resume {
            Some(thread) => {
                params["threadId"] = json!(thread);
                // The turns so far stay with the server; the run needs none of them.
                params["excludeTurns"] = json!(true);
                (request(THREAD, "thread/resume", params), resume_prompt(spec))
            }
            None => (request(THREAD, "thread/start", params), prompt_text(spec)),
        };
        Self {
            pid: None,
            carry: LineJoiner::default(),
            shared: Arc::default(),
            thread_request,
            prompt,
            items: HashMap::new(),
            usage_before: None,
            usage_after: None,
            turn: None,
            error: None,
        }
    }

    fn vendor(message: Value) -> AdapterEvent {
        event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": message }))
    }

    /// The conversation cannot go on: an error event, and stdin closes so the server exits.
    fn broken(&mut self, message: String) -> Mapped {
        let events = vec![event(EventKind::Error, json!({ "message": bounded(&message) }))];
        self.error = Some(message);
        Mapped { events, close_stdin: true, ..Mapped::default() }
    }

    fn map(&mut self, text: &str) -> Mapped {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return vec![Self::vendor(bounded(text))].into();
        };
        match (message["method"].as_str(), message.get("id")) {
            (Some(method), Some(id)) => self.server_request(method, id, &message),
            (Some(method), None) => self.notification(method, &message["params"], &message),
            (None, Some(_)) => self.response(&message),
            (None, None) => vec![Self::vendor(message)].into(),
        }
    }

    /// An answer to one of the client's requests.
    fn response(&mut self, message: &Value) -> Mapped {
        let result = &message["result"];
        let refused = |what: &str| {
            let error = &message["error"];
            let text = error["message"].as_str().unwrap_or("no message");
            format!("Codex refused {what}: {text} (code {})", error["code"])
        };
        let failed = message.get("error").is_some();
        match message["id"].as_u64() {
            Some(INITIALIZE) if failed => self.broken(refused("initialize")),
            Some(INITIALIZE) => {
                let initialized = json!({ "jsonrpc": "2.0", "method": "initialized" }).to_string();
                Mapped { replies: vec![initialized, self.thread_request.clone()], ..Mapped::default() }
            }
            Some(THREAD) if failed => self.broken(refused("the thread")),
            Some(THREAD) => {
                let Some(thread) = result["thread"]["id"].as_str() else {
                    return self.broken("Codex answered no thread id".to_owned());
                };
                lock(&self.shared).thread_id = Some(thread.to_owned());
                let started = event(
                    EventKind::Started,
                    json!({
                        "pid": self.pid,
                        "session_id": thread,
                        "model": result["model"],
                        "approval_policy": result["approvalPolicy"],
                        "sandbox": result["sandbox"]["type"],
                    }),
                );
                let input = [json!({ "type": "text", "text": self.prompt, "text_elements": [] })];
                let turn = request(TURN, "turn/start", json!({ "threadId": thread, "input": input }));
                Mapped { events: vec![started], replies: vec![turn], ..Mapped::default() }
            }
            Some(TURN) if failed => self.broken(refused("the turn")),
            Some(TURN) => {
                lock(&self.shared).turn_id = result["turn"]["id"].as_str().map(str::to_owned);
                Mapped::default()
            }
            // The interrupt was taken; the turn ends as `interrupted`.
            Some(INTERRUPT) if !failed => Mapped::default(),
            _ => vec![Self::vendor(message.clone())].into(),
        }
    }

    fn notification(&mut self, method: &str, params: &Value, message: &Value) -> Mapped {
        let events = match method {
            "item/started" => {
                let item = &params["item"];
                if let (Some("fileChange"), Some(id)) = (item["type"].as_str(), item["id"].as_str()) {
                    self.items.insert(id.to_owned(), item.clone());
                }
                exec_item(item).map(|item| item_started(&item)).unwrap_or_default()
            }
            "item/completed" => match (params["item"]["type"].as_str(), exec_item(&params["item"])) {
                // The prompt the client sent: the run's input already.
                (Some("userMessage"), _) => Vec::new(),
                (_, Some(item)) => item_completed(&item),
                (_, None) => {
                    vec![event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "item": params["item"] }))]
                }
            },
            "thread/tokenUsage/updated" => {
                let total = params["tokenUsage"]["total"].clone();
                let ours = lock(&self.shared).turn_id.as_deref().is_some_and(|turn| params["turnId"] == turn);
                // Totals of earlier turns come first when a thread is resumed.
                if ours {
                    self.usage_after = Some(total)
                } else {
                    self.usage_before = Some(total)
                }
                Vec::new()
            }
            "turn/completed" => return self.turn_completed(&params["turn"]),
            "error" => {
                let message = params["error"]["message"].as_str().unwrap_or("Codex reported an error").to_owned();
                self.error = Some(message.clone());
                vec![event(
                    EventKind::Error,
                    json!({ "message": bounded(&message), "will_retry": params["willRetry"] }),
                )]
            }
            quiet if QUIET.contains(&quiet) => Vec::new(),
            _ => vec![Self::vendor(message.clone())],
        };
        events.into()
    }

    /// The turn is over: its usage, its error if it failed; stdin closes so the server exits.
    fn turn_completed(&mut self, turn: &Value) -> Mapped {
        let mut events: Vec<AdapterEvent> = self
            .usage_after
            .as_ref()
            .map(|after| usage_event(&difference(after, self.usage_before.as_ref())))
            .into_iter()
            .collect();
        if turn["status"] == "failed" {
            let message = turn["error"]["message"].as_str().unwrap_or("the turn failed").to_owned();
            events.push(event(EventKind::Error, json!({ "message": bounded(&message) })));
            self.error = Some(message);
        }
        self.turn = Some(turn.clone());
        Mapped { events, close_stdin: true, ..Mapped::default() }
    }

    /// A request of the server: an approval the control plane decides, or one this client does
    /// not offer, refused so the server does not wait.
    fn server_request(&mut self, method: &str, id: &Value, message: &Value) -> Mapped {
        let Some((_, tool)) = APPROVALS.iter().find(|(approval, _)| *approval == method) else {
            let error = json!({ "code": METHOD_NOT_FOUND, "message": format!("the client does not offer {method}") });
            let reply = json!({ "jsonrpc": "2.0", "id": id, "error": error }).to_string();
            return Mapped { events: vec![Self::vendor(message.clone())], replies: vec![reply], ..Mapped::default() };
        };
        let mut shared = lock(&self.shared);
        if shared.cancelled {
            return Mapped { replies: vec![decision(id, "cancel")], ..Mapped::default() };
        }
        let request_id = match id {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        shared.asked.insert(request_id.clone(), id.clone());
        drop(shared);
        let params = &message["params"];
        let item_id = params["itemId"].as_str().unwrap_or_default();
        let (action, details) = if *tool == "command_execution" {
            let details = json!({
                "tool_name": tool,
                "item_id": item_id,
                "command": params["command"],
                "cwd": params["cwd"],
                "command_actions": params["commandActions"],
            });
            (tool_action(tool, params, &["command"]), details)
        } else {
            let changes: Vec<Value> =
                self.items.get(item_id).and_then(|item| item["changes"].as_array()).map_or_else(Vec::new, |changes| {
                    changes.iter().map(|c| json!({ "path": c["path"], "kind": c["kind"]["type"] })).collect()
                });
            let paths: Vec<&str> = changes.iter().filter_map(|c| c["path"].as_str()).collect();
            let details =
                json!({ "tool_name": tool, "item_id": item_id, "changes": changes, "grant_root": params["grantRoot"] });
            (tool_action(tool, &json!({ "paths": paths.join(", ") }), &["paths"]), details)
        };
        let requested = event(
            EventKind::ApprovalRequested,
            json!({ "request_id": request_id, "action": action, "reason": params["reason"], "details": details }),
        );
        vec![requested].into()
    }
}

impl OutputMapper for AppServerOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        // `started` comes with the thread, which names the session.
        self.pid = Some(pid);
        Vec::new()
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let Some(whole) = self.carry.join(line, MAX_LINE_BYTES) else { return Mapped::default() };
        self.map(&whole)
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        let shared = lock(&self.shared);
        let mut data = end.result_data();
        data["session_id"] = json!(shared.thread_id);
        let status = self.turn.as_ref().and_then(|turn| turn["status"].as_str());
        data["turn_status"] = json!(status);
        let outcome = match (end.cancelled || shared.cancelled || status == Some("interrupted"), status) {
            (true, _) => "cancelled",
            (false, Some("completed")) if end.error.is_none() => "succeeded",
            _ => "failed",
        };
        data["outcome"] = json!(outcome);
        if outcome == "failed" {
            let error = self.error.clone().or_else(|| end.error.clone());
            data["error"] = json!(error.unwrap_or_else(|| "Codex ended without completing its turn".to_owned()));
        }
        data
    }
}
