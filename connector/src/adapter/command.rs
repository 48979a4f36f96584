//! The `command` adapter (SPEC §9 "Generic"): runs any program as an agent in its own process
//! group. The run input goes to its stdin and `ACC_RUN_INPUT`; each stdout line becomes an
//! `Output` event (a JSON object line keeps its structure), each stderr line too; the exit status
//! becomes the `Result`. Cancel sends SIGTERM to the group, then SIGKILL after the grace period.
//! An `interactive` program also speaks control lines ([`super::control`]): approvals and
//! checkpoints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use acc_protocol::{CancelMode, Capability, EventKind, HealthStatus};
use serde_json::{Value, json};

use super::lines::{Line, MAX_LINE_BYTES};
use super::process::{self, Launch, Mapped, OutputMapper, ProcessEnd, ProcessRun};
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, ApprovalDecision, EventSink, Handshake, Health,
    NativeRun, RunSpec, control, model_gateway_env,
};
use crate::config::AgentConfig;

pub const KIND: AdapterKind = AdapterKind {
    name: "command",
    description: "any program: stdin and ACC_RUN_INPUT get the input, stdout/stderr lines become events, the exit status the outcome; with `interactive = true` it also asks for approvals and saves checkpoints over control lines",
    capabilities: &[Capability::Stream, Capability::Cancel],
    model_api: None,
    credential_env: &[],
};

/// What an `interactive` program can do besides.
const INTERACTIVE_CAPABILITIES: &[Capability] = &[Capability::Approvals, Capability::Checkpoint];

#[derive(Debug)]
pub struct CommandAdapter {
    program: String,
    args: Vec<String>,
    env: BTreeMap<String, String>,
    workdir: Option<PathBuf>,
    interactive: bool,
    grace: Duration,
    active: Arc<AtomicUsize>,
}

impl CommandAdapter {
    pub fn new(agent: &AgentConfig, options: AdapterOptions) -> Self {
        Self {
            program: agent.command.clone(),
            args: agent.args.clone(),
            env: agent.env.clone(),
            workdir: agent.workdir.clone(),
            interactive: agent.interactive,
            grace: options.cancel_grace,
            active: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Whether the program can be found and executed.
    fn resolve(&self) -> Result<PathBuf, String> {
        use std::os::unix::fs::PermissionsExt;
        let executable = |p: &Path| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
        if self.program.contains('/') {
            let path = match &self.workdir {
                Some(dir) if Path::new(&self.program).is_relative() => dir.join(&self.program),
                _ => PathBuf::from(&self.program),
            };
            return if executable(&path) {
                Ok(path)
            } else {
                Err(format!("{} is not an executable file", path.display()))
            };
        }
        let path = self.env.get("PATH").cloned().or_else(|| std::env::var("PATH").ok()).unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(&self.program))
            .find(|p| executable(p))
            .ok_or_else(|| format!("`{}` is not on PATH", self.program))
    }
}

impl Adapter for CommandAdapter {
    fn handshake(&self) -> Handshake {
        Handshake {
            adapter: KIND.name,
            adapter_version: crate::VERSION.to_owned(),
            runtime_version: None,
            capabilities: KIND
                .capabilities
                .iter()
                .chain(INTERACTIVE_CAPABILITIES.iter().filter(|_| self.interactive))
                .copied()
                .collect(),
        }
    }

    fn health(&self) -> Health {
        let started = Instant::now();
        let resolved = self.resolve();
        let workdir_ok = self.workdir.as_ref().is_none_or(|d| d.is_dir());
        let (status, detail) = match (resolved, workdir_ok) {
            (Ok(_), true) => (HealthStatus::Healthy, None),
            (Err(e), _) => (HealthStatus::Unhealthy, Some(e)),
            (Ok(_), false) => (HealthStatus::Unhealthy, Some("the workdir does not exist".to_owned())),
        };
        Health { status, latency: started.elapsed(), active_runs: self.active.load(Ordering::Relaxed), detail }
    }

    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let input = serde_json::to_string(&spec.input).map_err(|e| AdapterError::Start(e.to_string()))?;
        let mut env: Vec<(String, String)> = self.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        env.extend([
            ("ACC_RUN_ID".to_owned(), spec.run_id.to_string()),
            ("ACC_ATTEMPT_ID".to_owned(), spec.attempt_id.to_string()),
            ("ACC_AGENT_ID".to_owned(), spec.agent_id.to_string()),
            ("ACC_RUN_INPUT".to_owned(), input.clone()),
        ]);
        env.extend(context_env(&spec.context));
        env.extend(model_gateway_env(&spec));
        let launch = Launch {
            program: self.program.clone(),
            args: self.args.clone(),
            env,
            workdir: self.workdir.clone(),
            first_line: Some(input),
            keep_stdin_open: self.interactive,
            max_line_bytes: MAX_LINE_BYTES,
            grace: self.grace,
        };
        let checkpoint_reason = Arc::new(Mutex::new(None));
        let mapper = CommandOutput { interactive: self.interactive, checkpoint_reason: checkpoint_reason.clone() };
        let span = tracing::info_span!("command", run_id = %spec.run_id, attempt_id = %spec.attempt_id);
        let process = process::spawn(launch, mapper, events, self.active.clone(), span)?;
        Ok(Box::new(CommandRun { process, interactive: self.interactive, checkpoint_reason }))
    }
}

/// The context bundle as `ACC_RUN_CONTEXT`, when there is one (a handoff's bundle, a retry's checkpoint).
fn context_env(context: &Value) -> Option<(String, String)> {
    let empty = context.is_null() || context.as_object().is_some_and(|o| o.is_empty());
    (!empty).then(|| ("ACC_RUN_CONTEXT".to_owned(), context.to_string()))
}

#[derive(Debug)]
struct CommandRun {
    process: ProcessRun,
    interactive: bool,
    /// Why the connector last asked for a checkpoint, for the checkpoint the program reports next.
    checkpoint_reason: Arc<Mutex<Option<String>>>,
}

impl CommandRun {
    fn tell(&self, line: String, missing: Capability) -> Result<(), AdapterError> {
        if !self.interactive {
            return Err(AdapterError::CapabilityMissing(missing));
        }
        self.process.write_line(line)
    }
}

impl NativeRun for CommandRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.process.pid())
    }

    fn pid(&self) -> Option<u32> {
        Some(self.process.pid())
    }

    fn cancel(&self, mode: CancelMode) {
        self.process.cancel(mode);
    }

    fn checkpoint(&self, reason: &str) -> Result<(), AdapterError> {
        self.tell(control::checkpoint_request_line(reason), Capability::Checkpoint)?;
        *crate::lock(&self.checkpoint_reason) = Some(reason.to_owned());
        Ok(())
    }

    fn decide_approval(&self, decision: ApprovalDecision) -> Result<(), AdapterError> {
        self.tell(control::decision_line(&decision), Capability::Approvals)
    }
}

/// What a command's output means: each line an `Output` event (a JSON object line keeps its
/// structure); for an interactive program, control lines are the events they stand for.
struct CommandOutput {
    interactive: bool,
    checkpoint_reason: Arc<Mutex<Option<String>>>,
}

impl OutputMapper for CommandOutput {
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent> {
        vec![AdapterEvent::new(EventKind::Started, json!({ "pid": pid }))]
    }

    fn stdout(&mut self, line: Line) -> Mapped {
        let mut data = json!({ "stream": "stdout" });
        let object = (!line.partial && line.text.trim_start().starts_with('{'))
            .then(|| serde_json::from_str::<Value>(&line.text).ok())
            .flatten()
            .filter(Value::is_object);
        if self.interactive
            && let Some(map) = object.as_ref().and_then(Value::as_object)
        {
            let asked = map.get(control::KEY).is_some_and(|k| k == "checkpoint");
            let reason = if asked { crate::lock(&self.checkpoint_reason).take() } else { None };
            if let Some(event) = control::event_of(map, reason) {
                return vec![event].into();
            }
        }
        match object {
            Some(object) => data["json"] = object,
            None => data["line"] = Value::String(line.text),
        }
        if line.partial {
            data["partial"] = Value::Bool(true);
        }
        vec![AdapterEvent::new(EventKind::Output, data)].into()
    }

    fn result(&mut self, end: &ProcessEnd) -> Value {
        end.result_data()
    }
}
