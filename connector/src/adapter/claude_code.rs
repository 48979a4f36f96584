//! The `claude-code` adapter (SPEC §9): drives Anthropic's Claude Code CLI headless, in its
//! stream-json mode both ways (`claude -p --input-format stream-json --output-format stream-json
//! --verbose --permission-prompt-tool stdio`). The run's input becomes the prompt, its context the
//! appended system prompt; every tool use it wants to make arrives as a `can_use_tool` control
//! request, which becomes an approval the control plane decides, answered on stdin. The run tools
//! reach it as an MCP server (`--mcp-config`, a file of the run's own), their tools allowed
//! without a prompt: the control plane decides what they may do.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use acc_protocol::{CancelMode, Capability, EventKind};
use serde_json::{Value, json};

use super::lines::{Line, LineJoiner};
use super::process::{self, Mapped, OutputMapper, ProcessEnd, ProcessRun};
use super::run_dir::RunDir;
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, ApprovalDecision, EventSink, Handshake, Health,
    NativeRun, RunSpec, bounded, context_text, event, prompt_text, resume_prompt, tool_action,
};
use crate::config::{AgentConfig, ModelApi};
use crate::lock;
use crate::run_tools::{RUN_TOOLS, SERVER_NAME};
use crate::skills;

pub const KIND: AdapterKind = AdapterKind {
    name: "claude-code",
    description: "Claude Code (`claude`) headless in stream-json mode: messages, tool calls and results, usage; every tool use is an approval; retries resume its session",
    capabilities: &[
        Capability::Stream,
        Capability::Cancel,
        Capability::NativeResume,
        Capability::Approvals,
        Capability::Tools,
        Capability::Mcp,
        Capability::Artifacts,
        Capability::UsageEstimated,
    ],
    model_api: Some(ModelApi::Anthropic),
    credential_env: &["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"],
};

/// The Claude Code versions these mappings were written against and tested with.
pub const TESTED: &str = "2";
/// A stream-json line can be long (a large tool result); longer ones are kept as a vendor extension.
const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;
/// Tools whose use changes a file (its `file_path`).
const FILE_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit"];

#[derive(Debug)]
pub struct ClaudeCodeAdapter {
    program: RuntimeProgram,
}

impl ClaudeCodeAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        // A managed agent makes no calls of its own beyond the model API (updates, telemetry, titles).
        let quiet = [("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")];
        Self { program: RuntimeProgram::new(agent, options, &quiet) }
    }

    /// Starts `claude`, in a new session or continuing `resume` (`--resume`, which keeps the
    /// session's transcript and id).
    fn run(&self, spec: RunSpec, resume: Option<&str>, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let mut args: Vec<String> = [
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--input-format",
            "stream-json",
            "--permission-prompt-tool",
            "stdio",
        ]
        .map(str::to_owned)
        .to_vec();
        if let Some(context) = context_text(&spec) {
            args.extend(["--append-system-prompt".to_owned(), context]);
        }
        // The run's own directory: its run tools' configuration, and its skills, which Claude Code
        // reads from `.claude/skills` of a directory it is given (`--add-dir`).
        let run_dir = if spec.tools.is_some() || !spec.skills.is_empty() {
            Some(RunDir::create(KIND.name, &spec)?)
        } else {
            None
        };
        if let (Some(dir), Some(tools)) = (&run_dir, &spec.tools) {
            let server = json!({ "type": "http", "url": tools.url, "headers": { "Authorization": format!("Bearer {}", tools.token) } });
            let config = dir.write("mcp.json", &json!({ "mcpServers": { SERVER_NAME: server } }).to_string())?;
            let allowed: Vec<String> = RUN_TOOLS.iter().map(|tool| format!("mcp__{SERVER_NAME}__{tool}")).collect();
            args.extend(["--mcp-config".to_owned(), config.display().to_string()]);
            args.extend(["--allowedTools".to_owned(), allowed.join(",")]);
        }
        if let Some(dir) = run_dir.as_ref().filter(|_| !spec.skills.is_empty()) {
            skills::install(&spec.skills, &dir.path().join(".claude/skills"))
                .map_err(|e| AdapterError::Start(e.to_string()))?;
            args.extend(["--add-dir".to_owned(), dir.path().display().to_string()]);
        }
        let text = match resume {
            Some(session) => {
                args.extend(["--resume".to_owned(), session.to_owned()]);
                resume_prompt(&spec)
            }
            None => prompt_text(&spec),
        };
        let prompt = json!({ "type": "user", "message": { "role": "user", "content": text } });
        let mut launch = self.program.launch(args, Some(prompt.to_string()), true, MAX_LINE_BYTES);
        if spec.tools.is_some() {
            // The run tools in the model's tool list from the start, not behind a tool search.
            launch.set_env("ENABLE_TOOL_SEARCH", "false");
        }
        if let Some(model) = &spec.model {
            launch.set_env("ANTHROPIC_BASE_URL", &model.base_url);
            // Either is sent as the credential; both carry the run's token, so neither reaches the provider.
            launch.set_env("ANTHROPIC_API_KEY", &model.token);
            launch.set_env("ANTHROPIC_AUTH_TOKEN", &model.token);
        }
        let asked = Arc::new(Mutex::new(HashMap::new()));
        let mapper = ClaudeOutput { asked: asked.clone(), _run_dir: run_dir, ..ClaudeOutput::default() };
        let span = tracing::info_span!("claude_code", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process = process::spawn(launch, mapper, events, self.program.active.clone(), span)?;
        Ok(Box::new(ClaudeRun { process, asked }))
    }
}

impl Adapter for ClaudeCodeAdapter {
    fn handshake(&self) -> Handshake {
        self.program.handshake(&KIND)
    }

    fn health(&self) -> Health {
        self.program.health("Claude Code", TESTED)
    }

    fn reads_skills(&self) -> bool {
        true
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        self.run(spec, None, events)
    }

    fn resume(&self, spec: RunSpec, session_id: &str, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        self.run(spec, Some(session_id), events)
    }
}

#[derive(Debug)]
struct ClaudeRun {
    process: ProcessRun,
    /// Permission requests awaiting a decision: request id → the tool input to allow.
    asked: Arc<Mutex<HashMap<String, Value>>>,
}

impl NativeRun for ClaudeRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.process.pid())
    }

    fn pid(&self) -> Option<u32> {
        Some(self.process.pid())
    }

    fn cancel(&self, mode: CancelMode) {
        self.process.cancel(mode);
    }

    fn decide_approval(&self, decision: ApprovalDecision) -> Result<(), AdapterError> {
        let input = lock(&self.asked)
            .remove(&decision.request_id)
            .ok_or_else(|| AdapterError::NotListening(format!("no permission request {}", decision.request_id)))?;
        let answer = if decision.approved {
            json!({ "behavior": "allow", "updatedInput": input })
        } else {
            let message = decision.reason.unwrap_or_else(|| "denied by a person".to_owned());
            json!({ "behavior": "deny", "message": message })
        };
        let response = json!({
            "type": "control_response",
            "response": { "subtype": "success", "request_id": decision.request_id, "response": answer },
        });
        self.process.write_line(response.to_string())
    }
}

/// Claude Code's stream-json output, normalized. Public for the mapper tests on recorded output.
#[derive(Debug, Default)]
pub struct ClaudeOutput {
    pid: Option<u32>,
    /// The pieces of a line longer than the reader's limit.
    carry: LineJoiner,
    result: Option<Value>,
    asked: Arc<Mutex<HashMap<String, Value>>>,
    /// The run tools' configuration and the run's skills, for as long as the process runs.
    _run_dir: Option<RunDir>,
}

/// A tool result's content: a string, or text blocks.
fn result_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join("\n"),
        other => other.to_string(),
    }
}

/// The inputs that say what a tool use would do: the command, the file, the address.
const ACTION_KEYS: &[&str] = &["command", "file_path", "url"];

impl ClaudeOutput {
    fn vendor(line: &str) -> AdapterEvent {
        event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": bounded(line) }))
    }

    fn assistant(message: &Value) -> Vec<AdapterEvent> {
        let mut events = Vec::new();
        for block in message["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("text") => events.push(event(
                    EventKind::Message,
                    json!({ "role": "assistant", "text": bounded(block["text"].as_str().unwrap_or_default()) }),
                )),
                Some("tool_use") => {
                    let name = block["name"].as_str().unwrap_or_default();
                    events.push(event(
                        EventKind::ToolCall,
                        json!({ "id": block["id"], "name": name, "input": block["input"] }),
                    ));
                    if let Some(path) = block["input"]["file_path"].as_str().filter(|_| FILE_TOOLS.contains(&name)) {
                        events.push(event(EventKind::FileChange, json!({ "path": path, "tool": name })));
                    }
                }
                // Hidden reasoning is never stored (SPEC §10).
                Some("thinking" | "redacted_thinking") => {}
                _ => events.push(event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "block": block }))),
            }
        }
        events
    }

    fn user(message: &Value) -> Vec<AdapterEvent> {
        let blocks = match &message["content"] {
            Value::String(text) => {
                return vec![event(EventKind::Message, json!({ "role": "user", "text": bounded(text) }))];
            }
            Value::Array(blocks) => blocks,
            _ => return Vec::new(),
        };
        blocks
            .iter()
            .map(|block| match block["type"].as_str() {
                Some("tool_result") => event(
                    EventKind::ToolResult,
                    json!({
                        "tool_use_id": block["tool_use_id"],
                        "output": bounded(&result_text(&block["content"])),
                        "is_error": block["is_error"].as_bool().unwrap_or(false),
                    }),
                ),
                Some("text") => event(
                    EventKind::Message,
                    json!({ "role": "user", "text": bounded(block["text"].as_str().unwrap_or_default()) }),
                ),
                _ => event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "block": block })),
            })
            .collect()
    }

    fn permission_request(&mut self, line: &Value) -> AdapterEvent {
        let request = &line["request"];
        let request_id = line["request_id"].as_str().unwrap_or_default().to_owned();
        let tool = request["tool_name"].as_str().unwrap_or("a tool");
        lock(&self.asked).insert(request_id.clone(), request["input"].clone());
        event(
            EventKind::ApprovalRequested,
            json!({
                "request_id": request_id,
                "action": tool_action(tool, &request["input"], ACTION_KEYS),
                "reason": request["description"],
                "details": { "tool_name": tool, "input": request["input"] },
            }),
        )
    }

    fn result_line(&mut self, line: Value) -> Vec<AdapterEvent> {
        let usage = &line["usage"];
        let usage = event(
            EventKind::Usage,
            json!({
                "source": "runtime",
                "input_tokens": usage["input_tokens"],
                "output_tokens": usage["output_tokens"],
                "cache_read_input_tokens": usage["cache_read_input_tokens"],
                "cache_creation_input_tokens": usage["cache_creation_input_tokens"],
                // Claude Code's own price estimate, not what the provider bills.
                "cost_usd": line["total_cost_usd"],
                "cost": "estimated",
                "tokens": "reported",
            }),
        );
        self.result = Some(line);
        vec![usage]
    }

    /// One complete stdout line.
    fn map(&mut self, text: &str) -> Mapped {
        let Ok(line) = serde_json::from_str::<Value>(text) else { return vec![Self::vendor(text)].into() };
        match (line["type"].as_str(), line["subtype"].as_str()) {
            (Some("system"), Some("init")) => vec![event(
                EventKind::Started,
                json!({
                    "pid": self.pid,
                    "session_id": line["session_id"],
                    "model": line["model"],
                    "runtime_version": line["claude_code_version"],
                    "permission_mode": line["permissionMode"],
                    "cwd": line["cwd"],
                }),
            )]
            .into(),
            (Some("assistant"), _) => Self::assistant(&line["message"]).into(),
            (Some("user"), _) => Self::user(&line["message"]).into(),
            (Some("control_request"), _) if line["request"]["subtype"] == "can_use_tool" => {
                vec![self.permission_request(&line)].into()
            }
            // The run is over: its stdin must close for the process to exit.
            (Some("result"), _) => Mapped { events: self.result_line(line), close_stdin: true, ..Mapped::default() },
            _ => vec![Self::vendor(text)].into(),
        }
    }
}

impl OutputMapper for ClaudeOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        // `started` comes with the session's init line, which names the session.
        self.pid = Some(pid);
        Vec::new()
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let Some(whole) = self.carry.join(line, MAX_LINE_BYTES) else { return Mapped::default() };
        self.map(&whole)
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        let Some(result) = self.result.take() else {
            let mut data = end.result_data();
            if !end.cancelled {
                data["outcome"] = json!("failed");
                data["error"] = json!("Claude Code ended without a result");
            }
            return data;
        };
        let succeeded = result["subtype"] == "success" && result["is_error"] != true && end.error.is_none();
        let outcome = match (end.cancelled, succeeded) {
            (true, _) => "cancelled",
            (false, true) => "succeeded",
            (false, false) => "failed",
        };
        let mut data = json!({
            "outcome": outcome,
            "exit_code": end.exit_code,
            "signal": end.signal,
            "session_id": result["session_id"],
            "result": bounded(result["result"].as_str().unwrap_or_default()),
            "num_turns": result["num_turns"],
            "permission_denials": result["permission_denials"],
        });
        if outcome == "failed" {
            data["error"] =
                json!(format!("Claude Code ended with {}", result["subtype"].as_str().unwrap_or("an error")));
        }
        data
    }
}
