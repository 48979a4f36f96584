//! The `command` adapter (SPEC §9 "Generic"): runs any program as an agent in its own process
//! group. The run input goes to its stdin and `ACC_RUN_INPUT`; each stdout line becomes an
//! `Output` event (a JSON object line keeps its structure), each stderr line too; the exit status
//! becomes the `Result`. Cancel sends SIGTERM to the group, then SIGKILL after the grace period.
//! An `interactive` program also speaks control lines ([`super::control`]): approvals and
//! checkpoints.

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use acc_protocol::{CancelMode, Capability, EventKind, HealthStatus};
use nix::sys::signal::Signal;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWriteExt};
use tokio::process::Child;
use tokio::sync::{mpsc, watch};
use tracing::Instrument;

use super::lines::{LineReader, MAX_LINE_BYTES};
use super::{
    Adapter, AdapterError, AdapterEvent, AdapterKind, AdapterOptions, ApprovalDecision, EventSink, Handshake, Health,
    NativeRun, RunSpec, control,
};
use crate::config::AgentConfig;
use crate::process::signal_group;

pub const KIND: AdapterKind = AdapterKind {
    name: "command",
    description: "any program: stdin and ACC_RUN_INPUT get the input, stdout/stderr lines become events, the exit status the outcome; with `interactive = true` it also asks for approvals and saves checkpoints over control lines",
    capabilities: &[Capability::Stream, Capability::Cancel],
};

/// What an `interactive` program can do besides.
const INTERACTIVE_CAPABILITIES: &[Capability] = &[Capability::Approvals, Capability::Checkpoint];

/// Control lines queued for a program's stdin.
const CONTROL_BUFFER: usize = 16;

/// How long the output pipes may stay open after the process group is gone before the run ends anyway.
const OUTPUT_DRAIN: Duration = Duration::from_secs(5);

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
        let mut command = tokio::process::Command::new(&self.program);
        command
            .args(&self.args)
            .envs(&self.env)
            .env("ACC_RUN_ID", spec.run_id.to_string())
            .env("ACC_ATTEMPT_ID", spec.attempt_id.to_string())
            .env("ACC_AGENT_ID", spec.agent_id.to_string())
            .env("ACC_RUN_INPUT", &input)
            .envs(context_env(&spec.context))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so cancel reaches everything it forks.
            .process_group(0)
            .kill_on_drop(false);
        if let Some(dir) = &self.workdir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| AdapterError::Start(format!("{}: {e}", self.program)))?;
        let Some(pid) = child.id() else {
            return Err(AdapterError::Start(format!("{}: exited before it could be observed", self.program)));
        };
        let (cancel, cancel_rx) = watch::channel(None);
        let (control, control_rx) = match self.interactive {
            true => {
                let (sender, receiver) = mpsc::channel(CONTROL_BUFFER);
                (Some(sender), Some(receiver))
            }
            false => (None, None),
        };
        let checkpoint_reason = Arc::new(Mutex::new(None));
        self.active.fetch_add(1, Ordering::Relaxed);
        let supervisor = Supervisor {
            pid,
            grace: self.grace,
            events,
            cancel_rx,
            control: control_rx.map(|receiver| Control { receiver, checkpoint_reason: checkpoint_reason.clone() }),
            active: self.active.clone(),
        };
        let span = tracing::info_span!("command", run_id = %spec.run_id, attempt_id = %spec.attempt_id, pid);
        tokio::spawn(supervisor.run(child_io(&mut child), child, input).instrument(span));
        Ok(Box::new(CommandRun { pid, cancel, control, checkpoint_reason }))
    }
}

/// The context bundle as `ACC_RUN_CONTEXT`, when there is one (a handoff's bundle, a retry's checkpoint).
fn context_env(context: &Value) -> Option<(&'static str, String)> {
    let empty = context.is_null() || context.as_object().is_some_and(|o| o.is_empty());
    (!empty).then(|| ("ACC_RUN_CONTEXT", context.to_string()))
}

#[derive(Debug)]
struct CommandRun {
    pid: u32,
    cancel: watch::Sender<Option<CancelMode>>,
    /// Lines for an interactive program's stdin; `None` for one that is not.
    control: Option<mpsc::Sender<String>>,
    /// Why the connector last asked for a checkpoint, for the checkpoint the program reports next.
    checkpoint_reason: Arc<Mutex<Option<String>>>,
}

impl CommandRun {
    fn tell(&self, line: String, missing: Capability) -> Result<(), AdapterError> {
        let control = self.control.as_ref().ok_or(AdapterError::CapabilityMissing(missing))?;
        control.try_send(line).map_err(|e| AdapterError::NotListening(format!("its stdin: {e}")))
    }
}

impl NativeRun for CommandRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.pid)
    }

    fn pid(&self) -> Option<u32> {
        Some(self.pid)
    }

    fn cancel(&self, mode: CancelMode) {
        self.cancel.send_if_modified(|current| match (*current, mode) {
            (None, _) | (Some(CancelMode::Graceful), CancelMode::Immediate) => {
                *current = Some(mode);
                true
            }
            _ => false,
        });
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

/// An interactive run's side of its control lines.
struct Control {
    receiver: mpsc::Receiver<String>,
    checkpoint_reason: Arc<Mutex<Option<String>>>,
}

struct ChildIo {
    stdin: Option<tokio::process::ChildStdin>,
    stdout: Option<tokio::process::ChildStdout>,
    stderr: Option<tokio::process::ChildStderr>,
}

fn child_io(child: &mut Child) -> ChildIo {
    ChildIo { stdin: child.stdin.take(), stdout: child.stdout.take(), stderr: child.stderr.take() }
}

struct Supervisor {
    pid: u32,
    grace: Duration,
    events: EventSink,
    cancel_rx: watch::Receiver<Option<CancelMode>>,
    control: Option<Control>,
    active: Arc<AtomicUsize>,
}

impl Supervisor {
    async fn run(mut self, io: ChildIo, mut child: Child, input: String) {
        let pid = self.pid;
        let _ = self.events.send(AdapterEvent::new(EventKind::Started, json!({ "pid": pid }))).await;
        let (mut control_lines, checkpoint_reason) = match self.control.take() {
            Some(Control { receiver, checkpoint_reason }) => (Some(receiver), Some(checkpoint_reason)),
            None => (None, None),
        };
        if let Some(mut stdin) = io.stdin {
            tokio::spawn(async move {
                // One line of JSON; an interactive program then gets its control lines. A program
                // that does not read its stdin closes it; that is not an error.
                let _ = stdin.write_all(input.as_bytes()).await;
                let _ = stdin.write_all(b"\n").await;
                if let Some(lines) = control_lines.as_mut() {
                    while let Some(line) = lines.recv().await {
                        if stdin.write_all(line.as_bytes()).await.is_err() || stdin.write_all(b"\n").await.is_err() {
                            break;
                        }
                        let _ = stdin.flush().await;
                    }
                }
                let _ = stdin.shutdown().await;
            });
        }
        let stdout = Stream { name: "stdout", parse_json: true, control: checkpoint_reason };
        let stderr = Stream { name: "stderr", parse_json: false, control: None };
        let readers = [
            io.stdout.map(|s| tokio::spawn(forward(s, stdout, self.events.clone()).in_current_span())),
            io.stderr.map(|s| tokio::spawn(forward(s, stderr, self.events.clone()).in_current_span())),
        ];

        let mut cancelled: Option<CancelMode> = None;
        let mut kill_at: Option<tokio::time::Instant> = None;
        let mut cancel_open = true;
        let status = loop {
            let deadline = async {
                match kill_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                status = child.wait() => break status,
                changed = self.cancel_rx.changed(), if cancel_open => {
                    if changed.is_err() {
                        cancel_open = false;
                        continue;
                    }
                    let requested = *self.cancel_rx.borrow_and_update();
                    match requested {
                        Some(CancelMode::Graceful) if cancelled.is_none() => {
                            tracing::info!(grace_ms = self.grace.as_millis() as u64, "cancel: SIGTERM to the process group");
                            signal_group(pid, Signal::SIGTERM);
                            kill_at = Some(tokio::time::Instant::now() + self.grace);
                            cancelled = Some(CancelMode::Graceful);
                        }
                        Some(CancelMode::Immediate) if cancelled != Some(CancelMode::Immediate) => {
                            tracing::info!("cancel: SIGKILL to the process group");
                            signal_group(pid, Signal::SIGKILL);
                            kill_at = None;
                            cancelled = Some(CancelMode::Immediate);
                        }
                        _ => {}
                    }
                }
                () = deadline => {
                    tracing::info!("cancel: grace period over, SIGKILL to the process group");
                    signal_group(pid, Signal::SIGKILL);
                    kill_at = None;
                }
            }
        };
        // The run is over: whatever it left running in its group goes with it.
        if signal_group(pid, Signal::SIGKILL) {
            tracing::debug!("killed processes the run left behind");
        }
        let handles: Vec<_> = readers.into_iter().flatten().collect();
        let aborts: Vec<_> = handles.iter().map(|h| h.abort_handle()).collect();
        let drained = tokio::time::timeout(OUTPUT_DRAIN, async {
            for handle in handles {
                let _ = handle.await;
            }
        })
        .await;
        if drained.is_err() {
            tracing::warn!("the run's output stayed open after its processes ended; not waiting for it");
            aborts.iter().for_each(|a| a.abort());
        }
        let data = match status {
            Ok(status) => {
                let outcome = if cancelled.is_some() {
                    "cancelled"
                } else if status.success() {
                    "succeeded"
                } else {
                    "failed"
                };
                json!({ "outcome": outcome, "exit_code": status.code(), "signal": status.signal() })
            }
            Err(e) => json!({
                "outcome": if cancelled.is_some() { "cancelled" } else { "failed" },
                "exit_code": null,
                "signal": null,
                "error": format!("could not wait for the process: {e}"),
            }),
        };
        tracing::info!(outcome = %data["outcome"], exit_code = %data["exit_code"], signal = %data["signal"], "run ended");
        let _ = self.events.send(AdapterEvent::new(EventKind::Result, data)).await;
        self.active.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How one output stream of a program is read.
struct Stream {
    name: &'static str,
    /// JSON object lines keep their structure.
    parse_json: bool,
    /// For an interactive program's stdout: control lines are events of their own, and this is
    /// why the connector last asked for a checkpoint.
    control: Option<Arc<Mutex<Option<String>>>>,
}

/// Forwards one output stream, line by line, as `Output` events (and, from an interactive
/// program, control lines as the events they stand for).
async fn forward<R: AsyncRead + Unpin>(stream: R, how: Stream, events: EventSink) {
    let Stream { name, parse_json, control } = how;
    let mut lines = LineReader::new(stream, MAX_LINE_BYTES);
    loop {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(stream = name, error = %e, "reading the run's output failed");
                return;
            }
        };
        let mut data = json!({ "stream": name });
        let object = (parse_json && !line.partial && line.text.trim_start().starts_with('{'))
            .then(|| serde_json::from_str::<Value>(&line.text).ok())
            .flatten()
            .filter(Value::is_object);
        let controlled = control.as_ref().zip(object.as_ref().and_then(Value::as_object)).and_then(|(reason, map)| {
            let asked = map.get(control::KEY).is_some_and(|k| k == "checkpoint").then(|| crate::lock(reason).take());
            control::event_of(map, asked.flatten())
        });
        if let Some(event) = controlled {
            if events.send(event).await.is_err() {
                return;
            }
            continue;
        }
        match object {
            Some(object) => data["json"] = object,
            None => data["line"] = Value::String(line.text),
        }
        if line.partial {
            data["partial"] = Value::Bool(true);
        }
        if events.send(AdapterEvent::new(EventKind::Output, data)).await.is_err() {
            return;
        }
    }
}
