//! The `hermes` adapter (SPEC §9): drives Nous Research's Hermes Agent in its one-shot mode
//! (`hermes -z PROMPT --accept-hooks --usage-file FILE`) and watches it through its own observer
//! hooks. One-shot mode prints only the final answer, so each run gets a Hermes *managed scope*
//! (`HERMES_MANAGED_DIR`, a `config.yaml` Hermes merges per key over the user's own) that adds two
//! shell hooks, `on_session_start` and `post_tool_call`, whose command copies the hook's JSON
//! payload onto Hermes's stdout as one line — live events without patching Hermes. With a model
//! provider the same overlay points Hermes's model at the connector's model gateway. One-shot mode
//! bypasses Hermes's approvals, so this adapter declares none.

use std::path::{Path, PathBuf};

use acc_protocol::{Capability, EventKind};
use serde_json::{Value, json};

use super::lines::{Line, LineJoiner};
use super::process::{self, Mapped, OutputMapper, ProcessEnd};
use super::run_dir::RunDir;
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, EventSink, Handshake, Health, NativeRun, RunSpec,
    bounded, context_text, event, prompt_text,
};
use crate::config::{AgentConfig, ModelApi};

pub const KIND: AdapterKind = AdapterKind {
    name: "hermes",
    description: "Hermes Agent one-shot (`hermes -z`) with observer hooks: session, tool calls and results, file changes, final answer, usage",
    capabilities: &[Capability::Stream, Capability::Cancel, Capability::Tools, Capability::UsageEstimated],
    model_api: Some(ModelApi::Openai),
    credential_env: &[],
};

/// The Hermes Agent versions these mappings were written against and tested with (0.x: a minor line).
pub const TESTED: &str = "0.19";
/// The variable that carries the run's gateway token; the overlay names it, so no file holds it.
const GATEWAY_TOKEN_ENV: &str = "ACC_MODEL_GATEWAY_TOKEN";
/// The hook command: Hermes pipes the hook's payload (one JSON object) to its stdin, and this
/// appends it as a line to the stdout of its parent, Hermes, which the connector reads.
const HOOK_COMMAND: &str = "sh -c '{ cat; echo; } >> /proc/$PPID/fd/1'";
/// The hooks the adapter adds. Observers only: a user's `pre_tool_call` policy hooks stay in force.
const HOOKS: &[&str] = &["on_session_start", "post_tool_call"];
/// A hook payload carries the tool's whole result.
const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

#[derive(Debug)]
pub struct HermesAdapter {
    program: RuntimeProgram,
}

impl HermesAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        // `hermes --version` also asks PyPI for updates; `hermes acp --version` only says it.
        Self { program: RuntimeProgram::asking_version(agent, options, &[], &["acp", "--version"]) }
    }
}

/// The per-run managed-scope overlay (YAML, written as JSON, which YAML reads as is).
fn overlay(gateway: Option<&str>) -> Value {
    let hooks: serde_json::Map<String, Value> =
        HOOKS.iter().map(|hook| ((*hook).to_owned(), json!([{ "command": HOOK_COMMAND }]))).collect();
    let mut overlay = json!({ "hooks": hooks });
    if let Some(base_url) = gateway {
        overlay["model"] = json!({
            "provider": "custom",
            "base_url": format!("{base_url}/v1"),
            "api_key": format!("${{{GATEWAY_TOKEN_ENV}}}"),
        });
    }
    overlay
}

impl Adapter for HermesAdapter {
    fn handshake(&self) -> Handshake {
        self.program.handshake(&KIND)
    }

    fn health(&self) -> Health {
        self.program.health("Hermes Agent", TESTED)
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        // One-shot mode has no system prompt option: the context follows the prompt.
        let prompt = match context_text(&spec) {
            Some(context) => format!("{}\n\n{context}", prompt_text(&spec)),
            None => prompt_text(&spec),
        };
        let dir = RunDir::create(KIND.name, &spec)?;
        dir.write("config.yaml", &overlay(spec.model.as_ref().map(|m| m.base_url.as_str())).to_string())?;
        let usage_file = dir.path().join("usage.json");
        // `--accept-hooks`: hooks register before one-shot mode accepts them, and there is no TTY to ask.
        let args = vec![
            "-z".to_owned(),
            prompt,
            "--accept-hooks".into(),
            "--usage-file".into(),
            usage_file.display().to_string(),
        ];
        let mut launch = self.program.launch(args, None, false, MAX_LINE_BYTES);
        launch.set_env("HERMES_MANAGED_DIR", &dir.path().display().to_string());
        if let Some(model) = &spec.model {
            launch.set_env(GATEWAY_TOKEN_ENV, &model.token);
        }
        let mapper = HermesOutput { usage_file: Some(usage_file), run_dir: Some(dir), ..HermesOutput::default() };
        let span = tracing::info_span!("hermes", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process = process::spawn(launch, mapper, events, self.program.active.clone(), span)?;
        Ok(Box::new(process))
    }
}

/// Hermes's hook lines and final answer, normalized; its usage report read at the end. Public
/// for the mapper tests on recorded output.
#[derive(Debug, Default)]
pub struct HermesOutput {
    pid: Option<u32>,
    carry: LineJoiner,
    session_id: Option<String>,
    /// The final answer: every stdout line that is not a hook's.
    answer: Vec<String>,
    usage_file: Option<PathBuf>,
    /// Its `--usage-file` report, once read.
    report: Option<Value>,
    run_dir: Option<RunDir>,
}

impl HermesOutput {
    /// A mapper that reads Hermes's usage report from `usage_file` when the output ends.
    pub fn reading_usage(usage_file: &Path) -> Self {
        Self { usage_file: Some(usage_file.to_owned()), ..Self::default() }
    }

    fn hook(&mut self, line: &Value) -> Vec<AdapterEvent> {
        let extra = &line["extra"];
        match line["hook_event_name"].as_str() {
            // Only the first session is the run's; a subagent's has its own.
            Some("on_session_start") if self.session_id.is_none() => {
                self.session_id = line["session_id"].as_str().map(str::to_owned);
                vec![event(
                    EventKind::Started,
                    json!({ "pid": self.pid, "session_id": line["session_id"], "model": extra["model"], "cwd": line["cwd"] }),
                )]
            }
            Some("post_tool_call") => {
                let id = &extra["tool_call_id"];
                let output = extra["result"].as_str().unwrap_or_default();
                // Tools answer in JSON: a command's exit code, the files a tool modified.
                let result: Value = serde_json::from_str(output).unwrap_or(Value::Null);
                let mut events = vec![
                    event(
                        EventKind::ToolCall,
                        json!({ "id": id, "name": line["tool_name"], "input": line["tool_input"] }),
                    ),
                    event(
                        EventKind::ToolResult,
                        json!({
                            "tool_use_id": id,
                            "output": bounded(output),
                            "exit_code": result["exit_code"],
                            "is_error": extra["status"] != "ok" || result["exit_code"].as_i64().is_some_and(|c| c != 0),
                            "error": extra["error_message"],
                            "duration_ms": extra["duration_ms"],
                        }),
                    ),
                ];
                events.extend(
                    result["files_modified"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|path| event(EventKind::FileChange, json!({ "path": path, "tool": line["tool_name"] }))),
                );
                events
            }
            _ => vec![event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "hook": line }))],
        }
    }

    fn failed(&self) -> bool {
        self.report.as_ref().is_none_or(|r| r["failed"] != false || r["completed"] != true)
    }
}

impl OutputMapper for HermesOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        // `started` comes with the `on_session_start` hook, which names the session.
        self.pid = Some(pid);
        Vec::new()
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let Some(whole) = self.carry.join(line, MAX_LINE_BYTES) else { return Mapped::default() };
        match serde_json::from_str::<Value>(&whole) {
            Ok(hook) if hook["hook_event_name"].is_string() => self.hook(&hook).into(),
            _ => {
                self.answer.push(whole);
                Mapped::default()
            }
        }
    }

    /// The final answer and the usage report, once Hermes has exited.
    fn flush(&mut self) -> Vec<AdapterEvent> {
        self.report = self
            .usage_file
            .as_ref()
            .and_then(|file| std::fs::read(file).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok());
        let mut events = Vec::new();
        let answer = self.answer.join("\n");
        if !answer.trim().is_empty() {
            // A failed one-shot run prints its error where the answer would be.
            events.push(if self.failed() {
                event(EventKind::Error, json!({ "message": bounded(answer.trim()) }))
            } else {
                event(EventKind::Message, json!({ "role": "assistant", "text": bounded(answer.trim()) }))
            });
        }
        if let Some(report) = &self.report {
            let mut usage = json!({
                "source": "runtime",
                "model": report["model"],
                "input_tokens": report["input_tokens"],
                "output_tokens": report["output_tokens"],
                "cached_input_tokens": report["cache_read_tokens"],
                "cache_write_tokens": report["cache_write_tokens"],
                "reasoning_tokens": report["reasoning_tokens"],
                "total_tokens": report["total_tokens"],
                "requests": report["api_calls"],
                "tokens": "reported",
            });
            // Its cost estimate only when it knew the model's price.
            if report["cost_status"].as_str().is_some_and(|status| status != "unknown") {
                usage["cost_usd"] = report["estimated_cost_usd"].clone();
            }
            events.push(event(EventKind::Usage, usage));
        }
        events
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        let mut data = end.result_data();
        data["session_id"] = json!(self.session_id);
        // It exits 0 even when its model could not be reached: its report says how the run went.
        if data["outcome"] == "succeeded" && self.failed() {
            data["outcome"] = json!("failed");
        }
        if data["outcome"] == "failed" {
            let reported = self.report.as_ref().and_then(|r| r["failure"].as_str()).map(str::to_owned);
            let said = Some(self.answer.join("\n").trim().to_owned()).filter(|text| !text.is_empty());
            let error = reported.or(said).unwrap_or_else(|| "Hermes ended without completing its turn".into());
            data["error"] = bounded(&error);
        }
        self.run_dir = None;
        data
    }
}
