//! The `gemini` adapter (SPEC §9): drives Google's Gemini CLI headless (`gemini -p PROMPT
//! --output-format stream-json --skip-trust`) and maps its JSON lines (init, message, tool_use,
//! tool_result, error, result with stats) to normalized events; a retry continues the session
//! with `--resume SESSION_ID`. Its headless mode takes no
//! decision from outside (tools run by its `--approval-mode`), so this adapter declares no
//! approvals; Gemini CLI's ACP mode does, through the `acp` adapter.

use acc_protocol::{Capability, EventKind};
use serde_json::{Value, json};

use std::path::Path;

use super::lines::{Line, LineJoiner};
use super::process::{self, Mapped, OutputMapper, ProcessEnd};
use super::run_dir::RunDir;
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, EventSink, Handshake, Health, NativeRun, RunSpec,
    bounded, context_text, event, prompt_text, resume_prompt,
};
use crate::config::{AgentConfig, ModelApi};
use crate::skills::{self, Kept};

pub const KIND: AdapterKind = AdapterKind {
    name: "gemini",
    description: "Gemini CLI headless (`gemini -p … --output-format stream-json`): messages, tool calls and results, usage; retries resume its session",
    capabilities: &[
        Capability::Stream,
        Capability::Cancel,
        Capability::NativeResume,
        Capability::Tools,
        Capability::Artifacts,
        Capability::UsageEstimated,
    ],
    model_api: Some(ModelApi::Gemini),
    credential_env: &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
};

/// The Gemini CLI versions these mappings were written against and tested with (0.x: a minor line).
pub const TESTED: &str = "0.61";
const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;
/// Tools whose use changes a file (its `file_path`).
const FILE_TOOLS: &[&str] = &["write_file", "replace"];

#[derive(Debug)]
pub struct GeminiAdapter {
    program: RuntimeProgram,
}

impl GeminiAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        Self { program: RuntimeProgram::new(agent, options, &[]) }
    }

    /// Starts `gemini`, in a new session or continuing session `resume` (`--resume`).
    fn run(&self, spec: RunSpec, resume: Option<&str>, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let task = match resume {
            Some(_) => resume_prompt(&spec),
            None => prompt_text(&spec),
        };
        // Headless Gemini CLI has no option to add to its system prompt: the context follows the prompt.
        let prompt = match context_text(&spec) {
            Some(context) => format!("{task}\n\n{context}"),
            None => task,
        };
        let mut args =
            vec!["-p".to_owned(), prompt, "--output-format".into(), "stream-json".into(), "--skip-trust".into()];
        if let Some(session) = resume {
            args.extend(["--resume".to_owned(), session.to_owned()]);
        }
        let mut launch = self.program.launch(args, None, false, MAX_LINE_BYTES);
        if let Some(model) = &spec.model {
            launch.set_env("GOOGLE_GEMINI_BASE_URL", &model.base_url);
            launch.set_env("GEMINI_API_KEY", &model.token);
        }
        let run_home = self.run_home(&spec)?;
        if let Some(home) = &run_home {
            launch.set_env("GEMINI_CLI_HOME", &home.path().display().to_string());
        }
        let span = tracing::info_span!("gemini", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let output = GeminiOutput { _run_home: run_home, ..GeminiOutput::default() };
        let process = process::spawn(launch, output, events, self.program.active.clone(), span)?;
        Ok(Box::new(process))
    }
}

impl GeminiAdapter {
    /// For a run with skills, a home of its own (`GEMINI_CLI_HOME`): Gemini CLI reads skills only
    /// from `.gemini/skills` of its home, so the run's `.gemini` links the user's settings,
    /// credentials, sessions and history, and adds the run's skills beside the user's own.
    fn run_home(&self, spec: &RunSpec) -> Result<Option<RunDir>, AdapterError> {
        if spec.skills.is_empty() {
            return Ok(None);
        }
        let home = self.program.env_var("GEMINI_CLI_HOME").or_else(|| self.program.env_var("HOME"));
        let home = home.ok_or_else(|| AdapterError::Start("neither GEMINI_CLI_HOME nor HOME is set".into()))?;
        let dir = RunDir::create(KIND.name, spec)?;
        // Sessions (`tmp`) stay the user's, so a later attempt resumes from them.
        skills::overlay(
            &Path::new(&home).join(".gemini"),
            &dir.path().join(".gemini"),
            Kept { dirs: &["tmp", "history"], files: &[] },
            &spec.skills,
        )
        .map_err(|e| AdapterError::Start(e.to_string()))?;
        Ok(Some(dir))
    }
}

impl Adapter for GeminiAdapter {
    fn handshake(&self) -> Handshake {
        self.program.handshake(&KIND)
    }

    fn health(&self) -> Health {
        self.program.health("Gemini CLI", TESTED)
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

/// Gemini CLI's stream-json output, normalized. Public for the mapper tests on recorded output.
#[derive(Debug, Default)]
pub struct GeminiOutput {
    pid: Option<u32>,
    carry: LineJoiner,
    session_id: Option<String>,
    /// The assistant's message so far: it streams in pieces (`delta: true`), kept as one event.
    speaking: String,
    status: Option<String>,
    last_error: Option<String>,
    /// The run's own home, with its skills, for as long as the process runs.
    _run_home: Option<RunDir>,
}

/// What an exit status of Gemini CLI means, when it is not 0.
fn exit_reason(code: i32) -> Option<&'static str> {
    match code {
        41 => Some("Gemini CLI could not authenticate (exit 41)"),
        42 => Some("Gemini CLI refused its input (exit 42)"),
        53 => Some("Gemini CLI reached its turn limit (exit 53)"),
        55 => Some("Gemini CLI does not trust the working directory (exit 55)"),
        _ => None,
    }
}

impl GeminiOutput {
    /// The assistant's message, once it is complete.
    fn said(&mut self) -> Option<AdapterEvent> {
        (!self.speaking.is_empty()).then(|| {
            let text = std::mem::take(&mut self.speaking);
            event(EventKind::Message, json!({ "role": "assistant", "text": bounded(&text) }))
        })
    }

    fn map(&mut self, text: &str) -> Vec<AdapterEvent> {
        let Ok(line) = serde_json::from_str::<Value>(text) else {
            let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
            events.push(event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": bounded(text) })));
            return events;
        };
        let kind = line["type"].as_str();
        if kind == Some("message") && line["role"] == "assistant" {
            self.speaking.push_str(line["content"].as_str().unwrap_or_default());
            if line["delta"] == true {
                return Vec::new();
            }
            return self.said().into_iter().collect();
        }
        let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
        match kind {
            Some("init") => {
                self.session_id = line["session_id"].as_str().map(str::to_owned);
                events.push(event(
                    EventKind::Started,
                    json!({ "pid": self.pid, "session_id": line["session_id"], "model": line["model"] }),
                ));
            }
            Some("message") => events.push(event(
                EventKind::Message,
                json!({ "role": line["role"], "text": bounded(line["content"].as_str().unwrap_or_default()) }),
            )),
            Some("tool_use") => {
                let name = line["tool_name"].as_str().unwrap_or_default();
                events.push(event(
                    EventKind::ToolCall,
                    json!({ "id": line["tool_id"], "name": name, "input": line["parameters"] }),
                ));
                if let Some(path) = line["parameters"]["file_path"].as_str().filter(|_| FILE_TOOLS.contains(&name)) {
                    events.push(event(EventKind::FileChange, json!({ "path": path, "tool": name })));
                }
            }
            Some("tool_result") => events.push(event(
                EventKind::ToolResult,
                json!({
                    "tool_use_id": line["tool_id"],
                    "output": bounded(&match &line["output"] { Value::String(s) => s.clone(), other => other.to_string() }),
                    "is_error": line["status"] != "success",
                }),
            )),
            Some("error") => {
                let message = line["message"].as_str().unwrap_or_default().to_owned();
                self.last_error = Some(message.clone());
                events.push(event(EventKind::Error, json!({ "message": bounded(&message), "severity": line["severity"] })));
            }
            Some("result") => {
                self.status = line["status"].as_str().map(str::to_owned);
                if let Some(message) = line["error"]["message"].as_str() {
                    self.last_error = Some(message.to_owned());
                }
                let stats = &line["stats"];
                events.push(event(
                    EventKind::Usage,
                    json!({
                        "source": "runtime",
                        "input_tokens": stats["input_tokens"],
                        "output_tokens": stats["output_tokens"],
                        "cached_input_tokens": stats["cached"],
                        "total_tokens": stats["total_tokens"],
                        "tool_calls": stats["tool_calls"],
                        "tokens": "reported",
                    }),
                ));
            }
            _ => events.push(event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": line }))),
        }
        events
    }
}

impl OutputMapper for GeminiOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        // `started` comes with the init line, which names the session.
        self.pid = Some(pid);
        Vec::new()
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let Some(whole) = self.carry.join(line, MAX_LINE_BYTES) else { return Mapped::default() };
        self.map(&whole).into()
    }

    fn flush(&mut self) -> Vec<AdapterEvent> {
        self.said().into_iter().collect()
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        let mut data = end.result_data();
        data["session_id"] = json!(self.session_id);
        if data["outcome"] == "succeeded" && self.status.as_deref() != Some("success") {
            data["outcome"] = json!("failed");
        }
        if data["outcome"] == "failed" {
            let reason = end.exit_code.and_then(exit_reason).map(str::to_owned);
            let error = self.last_error.clone().or(reason).unwrap_or_else(|| "Gemini CLI ended without success".into());
            data["error"] = json!(error);
        }
        data
    }
}
