//! The `jiuwenswarm` adapter (SPEC §9): drives JiuwenSwarm, whose agent runs in a service pair
//! (`jiuwenswarm-app`: an agent server and a gateway on loopback WebSockets) that its command line
//! (`jiuwenswarm chat --jsonl`) sends one turn to. JiuwenSwarm reads its model endpoint and key
//! once, when its services start, while the model gateway's token is per run: so each run starts
//! its own services, in a data directory and on ports of its own, and they end with the run (one
//! process group). Its `chat --jsonl` lines become normalized events. Headless `chat` cannot
//! answer a permission question, and the run's fresh data directory has JiuwenSwarm's permission
//! checks off (its default), so this adapter declares no approvals.

use std::net::TcpListener;
use std::path::Path;

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
    name: "jiuwenswarm",
    description: "JiuwenSwarm (`jiuwenswarm chat --jsonl`, its services started per run): messages, tool calls and results, usage",
    capabilities: &[Capability::Stream, Capability::Cancel, Capability::Tools, Capability::UsageEstimated],
    model_api: Some(ModelApi::Openai),
    credential_env: &["API_KEY"],
};

/// The JiuwenSwarm versions these mappings were written against and tested with (0.x: a minor line).
pub const TESTED: &str = "0.2";
/// A tool result carries the tool's whole output.
const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;
/// Defaults a user's `env` may override: no browser automation server (it would fetch Playwright
/// from npm at run time), no npm update check.
const DEFAULT_ENV: &[(&str, &str)] = &[("BROWSER_RUNTIME_MCP_ENABLED", "0"), ("NPM_CONFIG_UPDATE_NOTIFIER", "false")];
/// The exit code of `jiuwenswarm chat` (and of the launcher) when its services cannot be reached.
const SERVICES_DOWN: i32 = 3;
/// Starts the services in the background (in the run directory, where they write their logs),
/// waits until the gateway accepts connections, then becomes `jiuwenswarm chat`. Arguments: the
/// run directory, `jiuwenswarm-app`, then the chat command line.
const LAUNCHER: &str = r#"run_dir=$1 app=$2; shift 2
(cd "$run_dir" && exec "$app") > "$run_dir/app.log" 2>&1 &
for ((i = 0; i < 600; i++)); do
  if (: > "/dev/tcp/127.0.0.1/$GATEWAY_PORT") 2> /dev/null; then exec "$@"; fi
  kill -0 $! 2> /dev/null || break
  sleep 0.2
done
echo "jiuwenswarm-app did not start its gateway; the end of its log:" >&2
tail -n 20 "$run_dir/app.log" >&2
exit 3"#;

#[derive(Debug)]
pub struct JiuwenSwarmAdapter {
    program: RuntimeProgram,
    /// `jiuwenswarm-app`, beside the configured `jiuwenswarm`.
    app: String,
}

/// A program installed beside `command` (in the same `bin` directory), or found on `PATH` by name
/// when `command` is itself a bare name.
fn beside(command: &str, name: &str) -> String {
    match Path::new(command).parent().filter(|dir| !dir.as_os_str().is_empty()) {
        Some(dir) => dir.join(name).display().to_string(),
        None => name.to_owned(),
    }
}

impl JiuwenSwarmAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        // Neither program says its version; the environment's Python reads the installed package's.
        let python = beside(&agent.command, "python3");
        let asking = ["-c", "import importlib.metadata as m; print(m.version('jiuwenswarm'))"];
        Self {
            program: RuntimeProgram::asking_version_of(agent, options, DEFAULT_ENV, &python, &asking),
            app: beside(&agent.command, "jiuwenswarm-app"),
        }
    }
}

/// Free loopback ports for the run's services: the kernel's choice, released just before use.
fn free_ports() -> Result<[u16; 3], AdapterError> {
    let bind = || TcpListener::bind("127.0.0.1:0").map_err(|e| AdapterError::Start(format!("no free port: {e}")));
    let listeners = [bind()?, bind()?, bind()?];
    let port = |l: &TcpListener| l.local_addr().map(|a| a.port()).map_err(|e| AdapterError::Start(e.to_string()));
    Ok([port(&listeners[0])?, port(&listeners[1])?, port(&listeners[2])?])
}

impl Adapter for JiuwenSwarmAdapter {
    fn handshake(&self) -> Handshake {
        self.program.handshake(&KIND)
    }

    fn health(&self) -> Health {
        self.program.health("JiuwenSwarm", TESTED)
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        // `chat` has no system prompt option: the context follows the prompt.
        let prompt = match context_text(&spec) {
            Some(context) => format!("{}\n\n{context}", prompt_text(&spec)),
            None => prompt_text(&spec),
        };
        let dir = RunDir::create(KIND.name, &spec)?;
        // The services read `config/.env` over their environment, and copy in a template full of
        // placeholder keys when there is none: an empty one leaves the environment in force.
        dir.write("data/config/.env", "# The environment of each run gives the settings.\n")?;
        let session = format!("acc-{}", spec.attempt_id);
        let args = ["chat", "--jsonl", "--session", &session].map(str::to_owned).to_vec();
        let mut launch = self.program.launch(args, None, false, MAX_LINE_BYTES);
        launch.args.extend(["--".to_owned(), prompt]);
        let chat = std::mem::replace(&mut launch.program, "bash".to_owned());
        let mut argv = vec!["-c".to_owned(), LAUNCHER.to_owned(), "jiuwenswarm".to_owned()];
        argv.extend([dir.path().display().to_string(), self.app.clone(), chat]);
        launch.args.splice(0..0, argv);
        launch.set_env("JIUWENSWARM_DATA_DIR", &dir.path().join("data").display().to_string());
        let [agent_server, web, gateway] = free_ports()?;
        for (key, port) in [("AGENT_SERVER_PORT", agent_server), ("WEB_PORT", web), ("GATEWAY_PORT", gateway)] {
            launch.set_env(key, &port.to_string());
        }
        if let Some(model) = &spec.model {
            launch.set_env("API_BASE", &format!("{}/v1", model.base_url));
            launch.set_env("API_KEY", &model.token);
            launch.set_env("MODEL_PROVIDER", "OpenAI");
        }
        let mapper =
            JiuwenSwarmOutput { session_id: Some(session), run_dir: Some(dir), ..JiuwenSwarmOutput::default() };
        let span = tracing::info_span!("jiuwenswarm", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process = process::spawn(launch, mapper, events, self.program.active.clone(), span)?;
        Ok(Box::new(process))
    }
}

/// JiuwenSwarm's `chat --jsonl` lines (`{"type": "event", "event": …, "payload": …}`), normalized.
/// Public for the mapper tests on recorded output.
#[derive(Debug, Default)]
pub struct JiuwenSwarmOutput {
    pid: Option<u32>,
    carry: LineJoiner,
    session_id: Option<String>,
    /// The assistant's text streamed since its last tool call or answer.
    text: String,
    /// Its final answer, once it gave one.
    answer: Option<String>,
    last_error: Option<String>,
    run_dir: Option<RunDir>,
}

impl JiuwenSwarmOutput {
    /// A mapper for a run in session `session_id`.
    pub fn in_session(session_id: &str) -> Self {
        Self { session_id: Some(session_id.to_owned()), ..Self::default() }
    }

    /// The streamed text so far as one message, if there is any.
    fn said(&mut self) -> Option<AdapterEvent> {
        let text = std::mem::take(&mut self.text);
        (!text.trim().is_empty())
            .then(|| event(EventKind::Message, json!({ "role": "assistant", "text": bounded(text.trim()) })))
    }

    fn map(&mut self, text: &str) -> Vec<AdapterEvent> {
        let line = match serde_json::from_str::<Value>(text) {
            Ok(line) if line["type"] == "event" => line,
            _ => {
                return vec![event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": bounded(text) }))];
            }
        };
        let payload = &line["payload"];
        match line["event"].as_str().unwrap_or_default() {
            "chat.delta" => {
                self.text.push_str(payload["content"].as_str().unwrap_or_default());
                Vec::new()
            }
            // The start and end of processing, how full its context is, and a tool's progress
            // (`in_progress`, repeating its call; the result follows) add nothing to the events.
            "chat.processing_status" | "context.usage" | "chat.tool_update" => Vec::new(),
            // Hidden reasoning is never stored (SPEC §10).
            "chat.reasoning" => Vec::new(),
            "chat.tool_call" => {
                let call = &payload["tool_call"];
                let arguments = call["arguments"].as_str().unwrap_or_default();
                let input = serde_json::from_str::<Value>(arguments).unwrap_or_else(|_| json!(arguments));
                let mut events: Vec<AdapterEvent> = self.said().into_iter().collect();
                events.push(event(
                    EventKind::ToolCall,
                    json!({ "id": call["tool_call_id"], "name": call["name"], "input": input }),
                ));
                events
            }
            "chat.tool_result" => {
                // The result is Python's rendering of the tool's outcome: `success=True data=… error=None`.
                let output = payload["result"].as_str().unwrap_or_default();
                vec![event(
                    EventKind::ToolResult,
                    json!({
                        "tool_use_id": payload["tool_call_id"],
                        "name": payload["tool_name"],
                        "output": bounded(output),
                        "is_error": !output.starts_with("success=True"),
                    }),
                )]
            }
            "chat.usage_metadata" => {
                let usage = &payload["metadata"]["usage_metadata"];
                vec![event(
                    EventKind::Usage,
                    json!({
                        "source": "runtime",
                        "model": usage["model_name"],
                        "input_tokens": usage["input_tokens"],
                        "output_tokens": usage["output_tokens"],
                        "cached_input_tokens": usage["cache_tokens"],
                        "total_tokens": usage["total_tokens"],
                        "tokens": "reported",
                    }),
                )]
            }
            "chat.final" => {
                // Its content is the answer's text, streamed before as deltas.
                let answer = payload["content"].as_str().unwrap_or_default().trim().to_owned();
                self.text.clear();
                self.answer = Some(answer.clone());
                if answer.is_empty() {
                    return Vec::new();
                }
                vec![event(EventKind::Message, json!({ "role": "assistant", "text": bounded(&answer) }))]
            }
            "chat.error" => {
                let message = payload["error"].as_str().unwrap_or("JiuwenSwarm reported an error").to_owned();
                self.last_error = Some(message.clone());
                vec![event(EventKind::Error, json!({ "message": bounded(&message) }))]
            }
            _ => vec![event(EventKind::VendorExtension, json!({ "runtime": KIND.name, "line": line }))],
        }
    }
}

impl OutputMapper for JiuwenSwarmOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        // The adapter names the session, so the run has it from the start.
        self.pid = Some(pid);
        vec![event(EventKind::Started, json!({ "pid": pid, "session_id": self.session_id }))]
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let Some(whole) = self.carry.join(line, MAX_LINE_BYTES) else { return Mapped::default() };
        self.map(&whole).into()
    }

    /// Text it streamed but never closed with an answer (it stopped mid-way).
    fn flush(&mut self) -> Vec<AdapterEvent> {
        self.said().into_iter().collect()
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        let mut data = end.result_data();
        data["session_id"] = json!(self.session_id);
        if data["outcome"] == "succeeded" && self.answer.is_none() {
            data["outcome"] = json!("failed");
        }
        if data["outcome"] == "failed" {
            let error = match (&self.last_error, end.exit_code) {
                (Some(error), _) => error.clone(),
                (None, Some(SERVICES_DOWN)) => "JiuwenSwarm's services did not start (its output says why)".into(),
                (None, _) => "JiuwenSwarm ended without an answer".into(),
            };
            data["error"] = bounded(&error);
        }
        // Its services are gone with the process group: their data directory goes too.
        self.run_dir = None;
        data
    }
}
