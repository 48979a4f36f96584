//! The `hermes` adapter (SPEC §9): drives Nous Research's Hermes Agent in its one-shot mode
//! (`hermes -z PROMPT --accept-hooks --usage-file FILE`) and watches it through its own observer
//! hooks. One-shot mode prints only the final answer, so each run gets a Hermes *managed scope*
//! (`HERMES_MANAGED_DIR`, a `config.yaml` Hermes merges per key over the user's own) that adds two
//! shell hooks, `on_session_start` and `post_tool_call`, whose command copies the hook's JSON
//! payload onto Hermes's stdout as one line — live events without patching Hermes. With a model
//! provider the same overlay points Hermes's model at the connector's model gateway. One-shot mode
//! bypasses Hermes's own approvals, so the overlay also adds a `pre_tool_call` hook that makes
//! every tool call a remote approval: it reports the call the same way and waits on a FIFO in the
//! run's private directory for the person's decision, which it hands Hermes as its verdict. A run
//! with skills gets a Hermes home of its own that links the user's (`KEPT`) and adds the skills.

use std::collections::HashSet;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use acc_protocol::{CancelMode, Capability, EventKind};
use serde_json::{Value, json};

use super::lines::{Line, LineJoiner};
use super::process::{self, Mapped, OutputMapper, ProcessEnd, ProcessRun};
use super::run_dir::RunDir;
use super::vendor::RuntimeProgram;
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, ApprovalDecision, EventSink, Handshake, Health,
    NativeRun, RunSpec, bounded, context_text, event, prompt_text, tool_action,
};
use crate::config::{AgentConfig, ModelApi};
use crate::lock;
use crate::skills::{self, Kept};

pub const KIND: AdapterKind = AdapterKind {
    name: "hermes",
    description: "Hermes Agent one-shot (`hermes -z`) with hooks: session, tool calls and results, file changes, final answer, usage; every tool call is an approval",
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

/// The Hermes Agent versions these mappings were written against and tested with (0.x: a minor line).
pub const TESTED: &str = "0.19";
/// The variable that carries the run's gateway token; the overlay names it, so no file holds it.
const GATEWAY_TOKEN_ENV: &str = "ACC_MODEL_GATEWAY_TOKEN";
/// The hook command: Hermes pipes the hook's payload (one JSON object) to its stdin, and this
/// appends it as a line to the stdout of its parent, Hermes, which the connector reads.
const HOOK_COMMAND: &str = "sh -c '{ cat; echo; } >> /proc/$PPID/fd/1'";
/// The observer hooks the adapter adds (replacing the user's for these events: YAML lists are
/// replaced, not merged).
const HOOKS: &[&str] = &["on_session_start", "post_tool_call"];
/// How long the approval hook waits for a decision. Hermes runs a tool whose hook timed out (at
/// most 300 s, [`APPROVAL_HOOK_TIMEOUT_SECS`]), so the hook gives up first, and blocks the call.
const DECISION_WAIT_SECS: i64 = 290;
/// How long Hermes lets the approval hook run: its longest hook timeout.
const APPROVAL_HOOK_TIMEOUT_SECS: u64 = 300;

/// The approval hook's command, after the user's own `pre_tool_call` hooks. It makes a FIFO in
/// the run's directory (`HERMES_MANAGED_DIR`, private to the connector's user) and opens it
/// before it reports the call — one line on Hermes's stdout with the FIFO's name as the request
/// id — so the adapter can answer as soon as it reads the line. The answer is one line of JSON it
/// prints as its verdict: `{}` lets the call run, `{"action": "block", "message": …}` blocks it,
/// and the message is the tool result the model sees. Anything going wrong blocks the call; the
/// answer is printed as it came (`printf`, not `echo`, which would turn a reason's escaped
/// backslashes into invalid JSON, and Hermes runs a call whose hook said no valid JSON). The
/// command is the same for every run, so Hermes's hook allowlist keeps one entry for it.
fn approval_hook() -> String {
    format!(
        r#"sh -c 'd=$(mktemp -d "$HERMES_MANAGED_DIR/request.XXXXXXXX") && mkfifo -m 600 "$d/answer" && exec 3<>"$d/answer" && printf "{{\"acc_approval\": \"%s\", \"hook\": %s}}\n" "${{d##*/}}" "$(cat)" >> /proc/$PPID/fd/1 && a=$(timeout {DECISION_WAIT_SECS} head -n 1 <&3); [ -n "$a" ] || a="{{\"action\": \"block\", \"message\": \"Blocked: no decision from Agent Control Center within {DECISION_WAIT_SECS} seconds.\"}}"; printf "%s\n" "$a"'"#
    )
}

/// The inputs of Hermes's tools that say what a call would do.
const ACTION_KEYS: &[&str] = &["command", "path", "url", "query", "code"];
/// A person's reason, as far as it goes to Hermes (a FIFO takes a short line at once).
const MAX_REASON_CHARS: usize = 4096;
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

/// The per-run managed-scope overlay (YAML, written as JSON, which YAML reads as is), with the
/// user's own `pre_tool_call` hooks (from `user_config`, their `config.yaml`) before the adapter's.
fn overlay(gateway: Option<&str>, user_config: Option<&str>) -> Value {
    let mut hooks: serde_json::Map<String, Value> =
        HOOKS.iter().map(|hook| ((*hook).to_owned(), json!([{ "command": HOOK_COMMAND }]))).collect();
    let mut policy = user_pre_tool_call_hooks(user_config);
    policy.push(json!({ "command": approval_hook(), "timeout": APPROVAL_HOOK_TIMEOUT_SECS }));
    hooks.insert("pre_tool_call".into(), Value::Array(policy));
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

/// The `hooks.pre_tool_call` entries of a Hermes `config.yaml`; none when it has none or is not YAML.
pub fn user_pre_tool_call_hooks(config: Option<&str>) -> Vec<Value> {
    config
        .and_then(|text| serde_norway::from_str::<Value>(text).ok())
        .and_then(|config| config["hooks"]["pre_tool_call"].as_array().cloned())
        .unwrap_or_default()
}

/// What of the user's Hermes home stays the user's when a run with skills gets a home of its own
/// (Hermes reads skills only from `skills/` of its home, and `skills.external_dirs` only from the
/// home's own `config.yaml`, which the managed scope does not reach): its sessions, logs, memories
/// and schedules, its session database (SQLite puts the journal beside a linked file), and its
/// credentials with their lock, so a token refreshed during the run is the user's.
const KEPT: Kept =
    Kept { dirs: &["sessions", "logs", "memories", "cron"], files: &["state.db", "auth.json", "auth.lock"] };

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
        let user_home = self.program.config_dir("HERMES_HOME", ".hermes")?;
        let user_config = std::fs::read_to_string(user_home.join("config.yaml")).ok();
        let gateway = spec.model.as_ref().map(|m| m.base_url.as_str());
        dir.write("config.yaml", &overlay(gateway, user_config.as_deref()).to_string())?;
        launch.set_env("HERMES_MANAGED_DIR", &dir.path().display().to_string());
        if !spec.skills.is_empty() {
            let home = dir.path().join("home");
            skills::overlay(&user_home, &home, KEPT, &spec.skills).map_err(|e| AdapterError::Start(e.to_string()))?;
            launch.set_env("HERMES_HOME", &home.display().to_string());
        }
        if let Some(model) = &spec.model {
            launch.set_env(GATEWAY_TOKEN_ENV, &model.token);
        }
        let asked = Arc::new(Mutex::new(HashSet::new()));
        let requests = dir.path().to_owned();
        let mapper = HermesOutput {
            usage_file: Some(usage_file),
            run_dir: Some(dir),
            asked: asked.clone(),
            ..HermesOutput::default()
        };
        let span = tracing::info_span!("hermes", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process = process::spawn(launch, mapper, events, self.program.active.clone(), span)?;
        Ok(Box::new(HermesRun { process, requests, asked }))
    }

    fn reads_skills(&self) -> bool {
        true
    }
}

#[derive(Debug)]
struct HermesRun {
    process: ProcessRun,
    /// The run's directory, where each waiting approval hook has its FIFO.
    requests: PathBuf,
    /// Approval requests awaiting a decision.
    asked: Arc<Mutex<HashSet<String>>>,
}

impl NativeRun for HermesRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.process.pid())
    }

    fn pid(&self) -> Option<u32> {
        Some(self.process.pid())
    }

    /// A hook waiting for a decision is in the run's process group, so it goes with the run.
    fn cancel(&self, mode: CancelMode) {
        self.process.cancel(mode);
    }

    fn decide_approval(&self, decision: ApprovalDecision) -> Result<(), AdapterError> {
        if !lock(&self.asked).remove(&decision.request_id) {
            return Err(AdapterError::NotListening(format!("no approval request {}", decision.request_id)));
        }
        let verdict = verdict(&decision);
        // Non-blocking: with no hook reading any more (it gave up waiting), the open fails at once.
        let fifo = self.requests.join(&decision.request_id).join("answer");
        let mut answer = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .map_err(|e| AdapterError::NotListening(format!("Hermes no longer waits for this decision: {e}")))?;
        writeln!(answer, "{verdict}").map_err(|e| AdapterError::NotListening(format!("{}: {e}", fifo.display())))
    }
}

/// What the approval hook tells Hermes: nothing to let the call run, else a block with the
/// reason (the person's, or why the connector refused an approval), which the model gets as the
/// tool's result.
pub fn verdict(decision: &ApprovalDecision) -> Value {
    if decision.approved {
        return json!({});
    }
    let message = match &decision.reason {
        Some(reason) => format!(
            "Agent Control Center denied this tool call: {}",
            reason.chars().take(MAX_REASON_CHARS).collect::<String>()
        ),
        None => "Agent Control Center denied this tool call.".to_owned(),
    };
    json!({ "action": "block", "message": message })
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
    /// Approval requests awaiting a decision, shared with the run.
    asked: Arc<Mutex<HashSet<String>>>,
}

/// A request id is the name of the hook's FIFO directory in the run's directory, and nothing else.
fn is_request_id(id: &str) -> bool {
    id.strip_prefix("request.").is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric()))
}

impl HermesOutput {
    /// A mapper that reads Hermes's usage report from `usage_file` when the output ends.
    pub fn reading_usage(usage_file: &Path) -> Self {
        Self { usage_file: Some(usage_file.to_owned()), ..Self::default() }
    }

    /// The approval hook's report of a tool call Hermes wants to make (a `pre_tool_call` payload).
    fn approval(&mut self, request_id: &str, hook: &Value) -> AdapterEvent {
        let tool = hook["tool_name"].as_str().unwrap_or("a tool");
        lock(&self.asked).insert(request_id.to_owned());
        event(
            EventKind::ApprovalRequested,
            json!({
                "request_id": request_id,
                "action": tool_action(tool, &hook["tool_input"], ACTION_KEYS),
                "details": {
                    "tool_name": tool,
                    "input": hook["tool_input"],
                    "tool_call_id": hook["extra"]["tool_call_id"],
                    "expires_at_ms": chrono::Utc::now().timestamp_millis() + DECISION_WAIT_SECS * 1000,
                },
            }),
        )
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
        let line = serde_json::from_str::<Value>(&whole).unwrap_or(Value::Null);
        if line["hook_event_name"].is_string() {
            return self.hook(&line).into();
        }
        match line["acc_approval"].as_str().filter(|id| is_request_id(id)) {
            Some(request_id) => vec![self.approval(request_id, &line["hook"])].into(),
            None => {
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
