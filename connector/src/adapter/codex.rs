//! The `codex` adapter (SPEC §9): drives OpenAI's Codex CLI headless (`codex exec --json
//! --skip-git-repo-check … PROMPT`) and maps its JSONL events (thread, turn and item events, turn
//! usage) to normalized events; a retry continues the thread with `codex exec … resume ID`.
//! `codex exec` takes no decision from outside, so this adapter declares no approvals: what its
//! sandbox (`-s …` in `args`) allows, it does (`codex-app-server` asks). The run tools reach it as
//! an MCP server set on the command line (`-c mcp_servers.acc…`), its token in the environment.
//! Its launch and its item mapping serve `codex-app-server` too.

use acc_protocol::{Capability, EventKind};
use serde_json::{Value, json};

use super::lines::{Line, LineJoiner};
use super::process::{self, Launch, Mapped, OutputMapper, ProcessEnd};
use super::run_dir::RunDir;
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, EventSink, Handshake, Health, NativeRun, RunSpec,
    bounded, context_text, event, prompt_text, resume_prompt,
};
use crate::config::{AgentConfig, ModelApi};
use crate::run_tools::SERVER_NAME;
use crate::skills::{self, Kept};

pub const KIND: AdapterKind = AdapterKind {
    name: "codex",
    description: "Codex CLI (`codex exec --json`): messages, commands and their output, file changes, turn usage; retries resume its thread",
    capabilities: &[
        Capability::Stream,
        Capability::Cancel,
        Capability::NativeResume,
        Capability::Tools,
        Capability::Mcp,
        Capability::Artifacts,
        Capability::UsageEstimated,
    ],
    model_api: Some(ModelApi::Openai),
    credential_env: &[],
};

/// The Codex CLI versions these mappings were written against and tested with (0.x: a minor line).
pub const TESTED: &str = "0.171";
/// The provider and token variable Codex is given to reach the model gateway.
const GATEWAY_PROVIDER: &str = "acc_model_gateway";
const GATEWAY_TOKEN_ENV: &str = "ACC_MODEL_GATEWAY_TOKEN";
/// The variable Codex reads the run tools' bearer token from.
const TOOLS_TOKEN_ENV: &str = "ACC_RUN_TOOLS_TOKEN";
/// How long Codex lets a run tool call take: `request_approval` waits for a person.
const TOOL_TIMEOUT_SECONDS: u32 = 24 * 3600;
pub(super) const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

#[derive(Debug)]
pub struct CodexAdapter {
    program: RuntimeProgram,
}

impl CodexAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        Self { program: program(agent, options) }
    }

    /// Starts `codex exec`, in a new thread or continuing thread `resume` (`codex exec … resume ID`).
    fn run(&self, spec: RunSpec, resume: Option<&str>, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let task = match resume {
            Some(_) => resume_prompt(&spec),
            None => prompt_text(&spec),
        };
        // `codex exec` has no system prompt of its own: the context goes after the prompt.
        let prompt = match context_text(&spec) {
            Some(context) => format!("{task}\n\n{context}"),
            None => task,
        };
        let mut launch = launch(&self.program, &spec, &["exec", "--json", "--skip-git-repo-check"], None);
        // The prompt goes last, after the configured arguments (a sandbox mode, a model…), which
        // are options of `exec` and so come before its `resume`.
        if let Some(thread) = resume {
            launch.args.extend(["resume".to_owned(), thread.to_owned()]);
        }
        launch.args.extend(["--".to_owned(), prompt]);
        let run_home = self.run_home(&spec)?;
        if let Some(home) = &run_home {
            launch.set_env("CODEX_HOME", &home.path().display().to_string());
        }
        let span = tracing::info_span!("codex", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let output = CodexOutput { _run_home: run_home, ..CodexOutput::default() };
        let process = process::spawn(launch, output, events, self.program.active.clone(), span)?;
        Ok(Box::new(process))
    }
}

/// The agent's Codex program. Codex logs by `RUST_LOG`: the connector's own level would turn its
/// stderr into hundreds of output events per run.
pub(super) fn program(agent: &AgentConfig, options: AdapterOptions) -> RuntimeProgram {
    RuntimeProgram::new(agent, options, &[("RUST_LOG", "error")])
}

/// A launch of Codex's `command` (`exec …`, `app-server`), then the configured arguments, pointed
/// at the run's model gateway when it has one. With `first_line`, stdin stays open for more.
pub(super) fn launch(program: &RuntimeProgram, spec: &RunSpec, command: &[&str], first_line: Option<String>) -> Launch {
    let mut args = Vec::new();
    if let Some(model) = &spec.model {
        // Codex takes its endpoint only from its configuration: a provider of our own, set on
        // the command line over whatever `$CODEX_HOME/config.toml` says.
        let base_url = format!("{}/v1", model.base_url);
        for setting in [
            format!("model_provider={GATEWAY_PROVIDER:?}"),
            format!("model_providers.{GATEWAY_PROVIDER}.name=\"Agent Control Center model gateway\""),
            format!("model_providers.{GATEWAY_PROVIDER}.base_url={base_url:?}"),
            format!("model_providers.{GATEWAY_PROVIDER}.wire_api=\"responses\""),
            format!("model_providers.{GATEWAY_PROVIDER}.env_key={GATEWAY_TOKEN_ENV:?}"),
        ] {
            args.extend(["-c".to_owned(), setting]);
        }
    }
    if let Some(tools) = &spec.tools {
        for setting in [
            format!("mcp_servers.{SERVER_NAME}.url={:?}", tools.url),
            format!("mcp_servers.{SERVER_NAME}.bearer_token_env_var={TOOLS_TOKEN_ENV:?}"),
            format!("mcp_servers.{SERVER_NAME}.tool_timeout_sec={TOOL_TIMEOUT_SECONDS}"),
            // Else `codex exec` (approval policy `never`) refuses every call: the control plane
            // decides what the run tools may do.
            format!("mcp_servers.{SERVER_NAME}.default_tools_approval_mode=\"approve\""),
        ] {
            args.extend(["-c".to_owned(), setting]);
        }
    }
    args.extend(command.iter().map(|arg| (*arg).to_owned()));
    let keep_stdin_open = first_line.is_some();
    let mut launch = program.launch(args, first_line, keep_stdin_open, MAX_LINE_BYTES);
    if let Some(model) = &spec.model {
        launch.set_env(GATEWAY_TOKEN_ENV, &model.token);
    }
    if let Some(tools) = &spec.tools {
        launch.set_env(TOOLS_TOKEN_ENV, &tools.token);
    }
    launch
}

impl CodexAdapter {
    /// For a run with skills, a `CODEX_HOME` of its own: Codex reads skills only from `skills/` of
    /// its home, so the run's links the user's configuration, credentials and sessions and adds the
    /// run's skills beside the user's own. It lives in the user's home, not the temporary directory,
    /// where Codex would not find its sandbox helper.
    fn run_home(&self, spec: &RunSpec) -> Result<Option<RunDir>, AdapterError> {
        if spec.skills.is_empty() {
            return Ok(None);
        }
        let home = self.program.config_dir("CODEX_HOME", ".codex")?;
        let dir = RunDir::create_in(&home.join("acc-runs"), KIND.name, spec)?;
        // Sessions stay the user's, so a later attempt resumes from them.
        skills::overlay(&home, dir.path(), Kept { dirs: &["sessions"], files: &[] }, &spec.skills)
            .map_err(|e| AdapterError::Start(e.to_string()))?;
        Ok(Some(dir))
    }
}

impl Adapter for CodexAdapter {
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

    fn reads_skills(&self) -> bool {
        true
    }
}

/// Codex's JSONL output, normalized. Public for the mapper tests on recorded output.
#[derive(Debug, Default)]
pub struct CodexOutput {
    pid: Option<u32>,
    carry: LineJoiner,
    thread_id: Option<String>,
    turn_completed: bool,
    /// The last error it reported (a failed turn, a lost connection).
    last_error: Option<String>,
    /// The run's own home, with its skills, for as long as the process runs.
    _run_home: Option<RunDir>,
}

/// The events of an item Codex started: a tool call for a command or an MCP tool.
pub(super) fn item_started(item: &Value) -> Vec<AdapterEvent> {
    match item["type"].as_str() {
        Some("command_execution") => vec![event(
            EventKind::ToolCall,
            json!({ "id": item["id"], "name": "command_execution", "input": { "command": item["command"] } }),
        )],
        Some("mcp_tool_call") => vec![event(
            EventKind::ToolCall,
            json!({ "id": item["id"], "name": format!("{}/{}", item["server"].as_str().unwrap_or("mcp"), item["tool"].as_str().unwrap_or("tool")), "input": item["arguments"] }),
        )],
        // Messages, reasoning and file changes are reported once, when complete.
        _ => Vec::new(),
    }
}

/// The events of an item Codex completed: a message, a tool result, the files a change touched.
pub(super) fn item_completed(item: &Value) -> Vec<AdapterEvent> {
    match item["type"].as_str() {
        Some("agent_message") => vec![event(
            EventKind::Message,
            json!({ "role": "assistant", "text": bounded(item["text"].as_str().unwrap_or_default()) }),
        )],
        // Hidden reasoning is never stored (SPEC §10).
        Some("reasoning") => Vec::new(),
        Some("command_execution") => vec![event(
            EventKind::ToolResult,
            json!({
                "tool_use_id": item["id"],
                "output": bounded(item["aggregated_output"].as_str().unwrap_or_default()),
                "exit_code": item["exit_code"],
                "is_error": item["exit_code"].as_i64() != Some(0),
            }),
        )],
        Some("mcp_tool_call") => vec![event(
            EventKind::ToolResult,
            json!({
                "tool_use_id": item["id"],
                "output": item["result"],
                "is_error": !item["error"].is_null(),
            }),
        )],
        // A change declined or failed touched nothing.
        Some("file_change") if item["status"] != "completed" => Vec::new(),
        Some("file_change") => item["changes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|change| {
                // `add`, or (from `codex app-server`) `{"type": "add"}`.
                let kind = change["kind"].get("type").unwrap_or(&change["kind"]);
                event(EventKind::FileChange, json!({ "path": change["path"], "kind": kind }))
            })
            .collect(),
        Some("error") => {
            let message = item["message"].as_str().unwrap_or_default();
            vec![event(EventKind::Error, json!({ "message": bounded(message) }))]
        }
        _ => vec![event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "item": item }))],
    }
}

/// The run's `usage` event from Codex's own token counts (`input_tokens`, `cached_input_tokens`,
/// `output_tokens`, `reasoning_output_tokens`).
pub(super) fn usage_event(usage: &Value) -> AdapterEvent {
    event(
        EventKind::Usage,
        json!({
            "source": "runtime",
            "input_tokens": usage["input_tokens"],
            "cached_input_tokens": usage["cached_input_tokens"],
            "output_tokens": usage["output_tokens"],
            "reasoning_output_tokens": usage["reasoning_output_tokens"],
            "tokens": "reported",
        }),
    )
}

impl CodexOutput {
    fn vendor(line: &Value) -> AdapterEvent {
        event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": line }))
    }

    fn map(&mut self, text: &str) -> Vec<AdapterEvent> {
        let Ok(line) = serde_json::from_str::<Value>(text) else {
            return vec![event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": bounded(text) }))];
        };
        match line["type"].as_str() {
            Some("thread.started") => {
                self.thread_id = line["thread_id"].as_str().map(str::to_owned);
                vec![event(EventKind::Started, json!({ "pid": self.pid, "session_id": line["thread_id"] }))]
            }
            Some("turn.started") => Vec::new(),
            Some("item.started") => item_started(&line["item"]),
            Some("item.completed") => item_completed(&line["item"]),
            Some("turn.completed") => {
                self.turn_completed = true;
                vec![usage_event(&line["usage"])]
            }
            Some("turn.failed") => {
                let message = line["error"]["message"].as_str().unwrap_or("the turn failed").to_owned();
                self.last_error = Some(message.clone());
                vec![event(EventKind::Error, json!({ "message": bounded(&message) }))]
            }
            Some("error") => {
                let message = line["message"].as_str().unwrap_or_default().to_owned();
                self.last_error = Some(message.clone());
                vec![event(EventKind::Error, json!({ "message": bounded(&message) }))]
            }
            _ => vec![Self::vendor(&line)],
        }
    }
}

impl OutputMapper for CodexOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        // `started` comes with `thread.started`, which names the session.
        self.pid = Some(pid);
        Vec::new()
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let Some(whole) = self.carry.join(line, MAX_LINE_BYTES) else { return Mapped::default() };
        self.map(&whole).into()
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        let mut data = end.result_data();
        data["session_id"] = json!(self.thread_id);
        if data["outcome"] == "succeeded" && !self.turn_completed {
            data["outcome"] = json!("failed");
        }
        if data["outcome"] == "failed" {
            let error = self.last_error.clone().unwrap_or_else(|| "Codex ended without completing its turn".into());
            data["error"] = json!(error);
        }
        data
    }
}
