//! A scripted model API on loopback: the one stand-in of the runtime tests, at the vendor boundary
//! that cannot exist here. The real runtime talks to it as it would to its vendor and does real
//! work in a real directory; the stand-in only decides what the "model" says.
//!
//! It speaks Anthropic Messages (`POST /v1/messages`), OpenAI Responses (`POST /v1/responses`),
//! OpenAI Chat Completions (`POST /v1/chat/completions`, streamed or not) and Gemini
//! (`POST /v1beta/models/MODEL:streamGenerateContent`), streaming (server-sent events). A script is a list of steps; the step played is the
//! number of tool results the request already carries (so text the runtime appends after a tool
//! result does not restart the script). A `Shell` step calls the shell tool the runtime offered; a
//! `Tool` step calls the offered tool whose name ends with the one given (an MCP tool, which
//! runtimes name after their server); a `Say` step answers in text and ends the turn.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{Method, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// What the model does at one step of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Run this shell command with the runtime's shell tool.
    Shell(String),
    /// Call the offered tool named this (or `<server>__` this), with these arguments.
    Tool(&'static str, Value),
    /// Answer with this text, ending the turn.
    Say(String),
}

/// The runtime tests' conversation: write `hi` to `out.txt` with the shell tool, then say so.
pub fn write_hi() -> Vec<Step> {
    vec![Step::Shell("echo hi > out.txt".into()), Step::Say("Done: wrote out.txt.".into())]
}

/// A request the stand-in received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub body: Value,
    /// The credential it came with (`x-api-key`, `x-goog-api-key` or a bearer token).
    pub credential: Option<String>,
}

/// How a shell tool takes its command.
#[derive(Debug, Clone, Copy)]
enum Argument {
    /// One string under this name.
    Text(&'static str),
    /// An argv under this name (`["bash", "-lc", command]`).
    Argv(&'static str),
}

/// The shell tool under the names the runtimes offer it, and how it takes its command.
const SHELL_TOOLS: &[(&str, Argument)] = &[
    ("Bash", Argument::Text("command")),
    ("exec_command", Argument::Text("cmd")),
    ("shell", Argument::Argv("command")),
    ("run_shell_command", Argument::Text("command")),
    ("terminal", Argument::Text("command")),
    ("bash", Argument::Text("command")),
    ("exec", Argument::Text("command")),
];

impl Argument {
    fn input(self, command: &str) -> Value {
        match self {
            Argument::Text(name) => json!({ name: command }),
            Argument::Argv(name) => json!({ name: ["bash", "-lc", command] }),
        }
    }
}

/// Tokens the stand-in reports per response, so measured usage can be checked.
pub const INPUT_TOKENS: u64 = 100;
pub const OUTPUT_TOKENS: u64 = 20;

/// The provider credential the connector's model gateway holds; the runtimes never see it.
pub const PROVIDER_KEY: &str = "provider-key-held-by-the-connector";

#[derive(Clone)]
struct Shared {
    script: Arc<Vec<Step>>,
    /// Model calls get no answer for a minute.
    stall: bool,
    /// Model calls at this step (tool results so far) get no answer until released.
    hold: Option<(usize, Arc<tokio::sync::watch::Sender<bool>>)>,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

pub struct ModelApi {
    pub address: SocketAddr,
    shared: Shared,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for ModelApi {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ModelApi {
    pub async fn start(script: Vec<Step>) -> Self {
        Self::serve(Shared { script: Arc::new(script), stall: false, hold: None, requests: Arc::default() }).await
    }

    /// A stand-in whose model calls hang (for a minute): a run stays in its first model call.
    pub async fn stalling() -> Self {
        Self::serve(Shared { script: Arc::default(), stall: true, hold: None, requests: Arc::default() }).await
    }

    /// A stand-in that plays `script` but holds every model call at step `step` until
    /// [`ModelApi::release`]: a run stays there, its earlier steps done.
    pub async fn holding(script: Vec<Step>, step: usize) -> Self {
        let gate = Arc::new(tokio::sync::watch::Sender::new(false));
        Self::serve(Shared {
            script: Arc::new(script),
            stall: false,
            hold: Some((step, gate)),
            requests: Arc::default(),
        })
        .await
    }

    /// Waits (up to a minute) until a model call reached the held step.
    pub async fn wait_held(&self) {
        let (step, _) = self.shared.hold.as_ref().expect("a holding stand-in");
        for _ in 0..600 {
            if self.model_calls().iter().any(|r| tool_results(&r.path, &r.body) == Some(*step)) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("no model call reached step {step}: {:?}", self.model_calls());
    }

    /// Lets held model calls, and later ones at that step, be answered.
    pub fn release(&self) {
        if let Some((_, gate)) = &self.shared.hold {
            gate.send_replace(true);
        }
    }

    async fn serve(shared: Shared) -> Self {
        let app = Router::new().fallback(answer).with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { address, shared, task }
    }

    /// `http://127.0.0.1:PORT`, the base URL a runtime is pointed at.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// A `[[model_providers]]` table for the connector's configuration: this stand-in as the
    /// upstream of provider `name`, speaking `api`, with [`PROVIDER_KEY`].
    pub fn provider(&self, name: &str, api: &str) -> String {
        format!(
            "[[model_providers]]\nname = {name:?}\napi = {api:?}\nupstream = {:?}\napi_key = {PROVIDER_KEY:?}\n",
            self.url()
        )
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// The model calls (not probes), oldest first.
    pub fn model_calls(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.method == "POST"
                    && (matches!(r.path.as_str(), "/v1/messages" | "/v1/responses" | "/v1/chat/completions")
                        || r.path.ends_with(":streamGenerateContent"))
            })
            .collect()
    }
}

async fn answer(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let path = uri.path().to_owned();
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let credential = header("x-api-key")
        .or_else(|| header("x-goog-api-key"))
        .or_else(|| header("authorization").and_then(|v| v.strip_prefix("Bearer ")))
        .map(str::to_owned);
    shared.requests.lock().unwrap().push(Recorded {
        method: method.to_string(),
        path: path.clone(),
        body: body.clone(),
        credential,
    });
    if method == Method::POST && shared.stall {
        tokio::time::sleep(std::time::Duration::from_secs(60)).await;
    }
    if let Some((step, gate)) = &shared.hold
        && tool_results(&path, &body) == Some(*step)
    {
        let _ = gate.subscribe().wait_for(|open| *open).await;
    }
    match (method, path.as_str()) {
        (Method::POST, "/v1/messages") => anthropic(&shared.script, &body),
        (Method::POST, "/v1/responses") => responses(&shared.script, &body),
        (Method::POST, "/v1/chat/completions") => chat_completions(&shared.script, &body),
        (Method::POST, path) if path.ends_with(":streamGenerateContent") => gemini(&shared.script, &body),
        (Method::POST, "/v1/messages/count_tokens") => Json(json!({ "input_tokens": INPUT_TOKENS })).into_response(),
        // Probes (`HEAD /`, model lists…) get an empty success.
        _ => Json(json!({})).into_response(),
    }
}

/// The tool results a model call carries, by its API; `None` for what is not a model call.
fn tool_results(path: &str, request: &Value) -> Option<usize> {
    match path {
        "/v1/messages" => Some(anthropic_tool_results(request)),
        "/v1/responses" => Some(responses_tool_results(request)),
        "/v1/chat/completions" => Some(chat_tool_results(request)),
        path if path.ends_with(":streamGenerateContent") => Some(gemini_tool_results(request)),
        _ => None,
    }
}

/// Tool results already in an Anthropic conversation.
fn anthropic_tool_results(request: &Value) -> usize {
    request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|block| block["type"] == "tool_result")
        .count()
}

/// What the model says at a step: a tool call, or text that ends the turn.
enum Reply {
    Call { intro: String, tool: String, input: Value },
    Text(String),
}

/// The reply at the step a request is at (one per tool result so far, the last one repeated),
/// given the tools it offers.
fn reply(script: &[Step], done: usize, offered: &[&str]) -> Reply {
    let step = script.get(done).or(script.last()).cloned().unwrap_or_else(|| Step::Say("done".into()));
    match step {
        Step::Shell(command) => match shell_tool(offered) {
            Some((tool, argument)) => Reply::Call {
                intro: format!("I will run `{command}`."),
                tool: tool.to_owned(),
                input: argument.input(&command),
            },
            None => Reply::Text("No shell tool was offered.".into()),
        },
        Step::Tool(name, input) => {
            let found = offered.iter().find(|o| **o == name || o.ends_with(&format!("__{name}")));
            match found {
                Some(tool) => Reply::Call { intro: format!("I will call {name}."), tool: (*tool).to_owned(), input },
                None => Reply::Text(format!("No {name} tool was offered.")),
            }
        }
        Step::Say(text) => Reply::Text(text),
    }
}

/// The shell tool among those offered, by name, and how it takes its command.
fn shell_tool(offered: &[&str]) -> Option<(&'static str, Argument)> {
    SHELL_TOOLS.iter().copied().find(|(name, _)| offered.contains(name))
}

/// The names of the tools a request offers (`tools[].name`).
fn offered(request: &Value) -> Vec<&str> {
    request["tools"].as_array().into_iter().flatten().filter_map(|t| t["name"].as_str()).collect()
}

fn sse(events: &[(&str, Value)]) -> Response {
    let body: String = events.iter().map(|(name, data)| format!("event: {name}\ndata: {data}\n\n")).collect();
    ([(header::CONTENT_TYPE, "text/event-stream")], Body::from(body)).into_response()
}

fn anthropic(script: &[Step], request: &Value) -> Response {
    let offered = offered(request);
    let model = request["model"].as_str().unwrap_or("claude-stand-in");
    let usage = json!({ "input_tokens": INPUT_TOKENS, "output_tokens": 1, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0 });
    let mut events = vec![(
        "message_start",
        json!({ "type": "message_start", "message": {
            "id": "msg_stand_in", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": null, "stop_sequence": null, "usage": usage } }),
    )];
    let text_block = |index: usize, text: &str| {
        [
            (
                "content_block_start",
                json!({ "type": "content_block_start", "index": index, "content_block": { "type": "text", "text": "" } }),
            ),
            (
                "content_block_delta",
                json!({ "type": "content_block_delta", "index": index, "delta": { "type": "text_delta", "text": text } }),
            ),
            ("content_block_stop", json!({ "type": "content_block_stop", "index": index })),
        ]
    };
    let done = anthropic_tool_results(request);
    let stop_reason = match reply(script, done, &offered) {
        Reply::Call { intro, tool, mut input } => {
            events.extend(text_block(0, &intro));
            if tool == "Bash" {
                input["description"] = json!("run the command");
            }
            events.extend([
                ("content_block_start", json!({ "type": "content_block_start", "index": 1, "content_block": { "type": "tool_use", "id": format!("toolu_stand_in_{done}"), "name": tool, "input": {} } })),
                ("content_block_delta", json!({ "type": "content_block_delta", "index": 1, "delta": { "type": "input_json_delta", "partial_json": input.to_string() } })),
                ("content_block_stop", json!({ "type": "content_block_stop", "index": 1 })),
            ]);
            "tool_use"
        }
        Reply::Text(text) => {
            events.extend(text_block(0, &text));
            "end_turn"
        }
    };
    events.push((
        "message_delta",
        json!({ "type": "message_delta", "delta": { "stop_reason": stop_reason, "stop_sequence": null }, "usage": { "output_tokens": OUTPUT_TOKENS } }),
    ));
    events.push(("message_stop", json!({ "type": "message_stop" })));
    sse(&events)
}

/// Tool results already in a Responses conversation.
fn responses_tool_results(request: &Value) -> usize {
    request["input"].as_array().into_iter().flatten().filter(|item| item["type"] == "function_call_output").count()
}

/// The tools a Responses request offers: `(namespace, name)`, a namespace grouping a server's
/// tools (Codex offers each MCP server's so, as `mcp__SERVER`).
fn responses_offered(request: &Value) -> Vec<(Option<&str>, &str)> {
    let mut offered = Vec::new();
    for tool in request["tools"].as_array().into_iter().flatten() {
        match tool["type"].as_str() {
            Some("namespace") => offered.extend(
                tool["tools"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|t| Some((tool["name"].as_str(), t["name"].as_str()?))),
            ),
            _ => offered.extend(tool["name"].as_str().map(|name| (None, name))),
        }
    }
    offered
}

fn responses(script: &[Step], request: &Value) -> Response {
    let offered = responses_offered(request);
    let names: Vec<String> = offered
        .iter()
        .map(|(namespace, name)| namespace.map_or_else(|| (*name).to_owned(), |ns| format!("{ns}__{name}")))
        .collect();
    let base = json!({ "id": "resp_stand_in", "object": "response", "created_at": 0, "status": "in_progress",
        "model": request["model"], "output": [] });
    let mut events = vec![("response.created", json!({ "type": "response.created", "response": base }))];
    let done = responses_tool_results(request);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let done = match reply(script, done, &names) {
        Reply::Call { tool, input, .. } => {
            let arguments = input.to_string();
            let (namespace, name) = offered[names.iter().position(|n| *n == tool).unwrap_or_default()];
            let mut item = json!({ "type": "function_call", "id": "fc_stand_in", "call_id": format!("call_stand_in_{done}"),
                "name": name, "arguments": "", "status": "in_progress" });
            if let Some(namespace) = namespace {
                item["namespace"] = json!(namespace);
            }
            let mut done = item.clone();
            done["arguments"] = json!(arguments);
            done["status"] = json!("completed");
            events.extend([
                ("response.output_item.added", json!({ "type": "response.output_item.added", "output_index": 0, "item": item })),
                ("response.function_call_arguments.delta", json!({ "type": "response.function_call_arguments.delta", "item_id": "fc_stand_in", "output_index": 0, "delta": arguments })),
                ("response.function_call_arguments.done", json!({ "type": "response.function_call_arguments.done", "item_id": "fc_stand_in", "output_index": 0, "arguments": arguments })),
                ("response.output_item.done", json!({ "type": "response.output_item.done", "output_index": 0, "item": done })),
            ]);
            done
        }
        Reply::Text(text) => {
            let item = json!({ "type": "message", "id": "msg_stand_in", "role": "assistant", "status": "in_progress", "content": [] });
            let done = json!({ "type": "message", "id": "msg_stand_in", "role": "assistant", "status": "completed",
                "content": [{ "type": "output_text", "text": text, "annotations": [] }] });
            events.extend([
                ("response.output_item.added", json!({ "type": "response.output_item.added", "output_index": 0, "item": item })),
                ("response.content_part.added", json!({ "type": "response.content_part.added", "item_id": "msg_stand_in", "output_index": 0, "content_index": 0, "part": { "type": "output_text", "text": "", "annotations": [] } })),
                ("response.output_text.delta", json!({ "type": "response.output_text.delta", "item_id": "msg_stand_in", "output_index": 0, "content_index": 0, "delta": text })),
                ("response.output_text.done", json!({ "type": "response.output_text.done", "item_id": "msg_stand_in", "output_index": 0, "content_index": 0, "text": text })),
                ("response.output_item.done", json!({ "type": "response.output_item.done", "output_index": 0, "item": done })),
            ]);
            done
        }
    };
    let mut completed = base;
    completed["status"] = json!("completed");
    completed["output"] = json!([done]);
    completed["usage"] = json!({ "input_tokens": INPUT_TOKENS, "input_tokens_details": { "cached_tokens": 0 },
        "output_tokens": OUTPUT_TOKENS, "output_tokens_details": { "reasoning_tokens": 0 }, "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS });
    events.push(("response.completed", json!({ "type": "response.completed", "response": completed })));
    sse(&events)
}

/// Tool results already in a Chat Completions conversation. Some runtimes add user turns of their
/// own after a tool result, so the step is counted by tool results, not by turns.
fn chat_tool_results(request: &Value) -> usize {
    request["messages"].as_array().into_iter().flatten().filter(|m| m["role"] == "tool").count()
}

fn chat_completions(script: &[Step], request: &Value) -> Response {
    let offered: Vec<&str> =
        request["tools"].as_array().into_iter().flatten().filter_map(|t| t["function"]["name"].as_str()).collect();
    let model = request["model"].as_str().unwrap_or("gpt-stand-in");
    let usage = json!({ "prompt_tokens": INPUT_TOKENS, "completion_tokens": OUTPUT_TOKENS,
        "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS, "prompt_tokens_details": { "cached_tokens": 0 } });
    let (content, tool_calls, finish) = match reply(script, chat_tool_results(request), &offered) {
        Reply::Call { intro, tool, input } => {
            let call = json!({ "id": "call_stand_in", "type": "function",
                "function": { "name": tool, "arguments": input.to_string() } });
            (intro, Some(call), "tool_calls")
        }
        Reply::Text(text) => (text, None, "stop"),
    };
    if request["stream"] != true {
        let mut message = json!({ "role": "assistant", "content": content });
        if let Some(call) = &tool_calls {
            message["tool_calls"] = json!([call]);
        }
        return Json(json!({ "id": "chatcmpl-stand-in", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{ "index": 0, "message": message, "finish_reason": finish }], "usage": usage }))
        .into_response();
    }
    let chunk = |delta: Value, finish: Option<&str>| {
        json!({ "id": "chatcmpl-stand-in", "object": "chat.completion.chunk", "created": 0, "model": model,
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] })
    };
    let mut chunks =
        vec![chunk(json!({ "role": "assistant", "content": "" }), None), chunk(json!({ "content": content }), None)];
    if let Some(mut call) = tool_calls {
        call["index"] = json!(0);
        chunks.push(chunk(json!({ "tool_calls": [call] }), None));
    }
    chunks.push(chunk(json!({}), Some(finish)));
    if request["stream_options"]["include_usage"] == true {
        chunks
            .push(json!({ "id": "chatcmpl-stand-in", "object": "chat.completion.chunk", "created": 0, "model": model,
            "choices": [], "usage": usage }));
    }
    let mut body: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    body.push_str("data: [DONE]\n\n");
    ([(header::CONTENT_TYPE, "text/event-stream")], Body::from(body)).into_response()
}

/// Tool results already in a Gemini conversation.
fn gemini_tool_results(request: &Value) -> usize {
    request["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["parts"].as_array())
        .flatten()
        .filter(|part| part.get("functionResponse").is_some())
        .count()
}

fn gemini(script: &[Step], request: &Value) -> Response {
    let offered: Vec<&str> = request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["functionDeclarations"].as_array())
        .flatten()
        .filter_map(|f| f["name"].as_str())
        .collect();
    let parts = match reply(script, gemini_tool_results(request), &offered) {
        Reply::Call { intro, tool, input } => json!([
            { "text": intro },
            { "functionCall": { "name": tool, "args": input } },
        ]),
        Reply::Text(text) => json!([{ "text": text }]),
    };
    let chunk = json!({
        "candidates": [{ "content": { "role": "model", "parts": parts }, "finishReason": "STOP", "index": 0 }],
        "usageMetadata": { "promptTokenCount": INPUT_TOKENS, "candidatesTokenCount": OUTPUT_TOKENS, "totalTokenCount": INPUT_TOKENS + OUTPUT_TOKENS },
    });
    ([(header::CONTENT_TYPE, "text/event-stream")], Body::from(format!("data: {chunk}\r\n\r\n"))).into_response()
}
