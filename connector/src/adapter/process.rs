//! An agent's program as an OS process in its own process group, for the adapters that run one
//! (`command`, `claude-code`, …): spawn it, write its stdin, read its output line by line through
//! the adapter's [`OutputMapper`], cancel it by signal (SIGTERM, then SIGKILL after a grace
//! period), and end the run with a `Result` when it exits.

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acc_protocol::{CancelMode, EventKind};
use nix::sys::signal::Signal;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWriteExt};
use tokio::process::Child;
use tokio::sync::{mpsc, watch};
use tracing::Instrument;

use super::lines::{Line, LineReader};
use super::{AdapterError, AdapterEvent, EventSink, NativeRun};
use crate::lock;
use crate::process::signal_group;

/// How long the output pipes may stay open after the process group is gone before the run ends anyway.
const OUTPUT_DRAIN: Duration = Duration::from_secs(5);
/// Lines queued for a program's stdin.
const STDIN_BUFFER: usize = 16;

/// What to run, and how.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    /// Added to the connector's own environment.
    pub env: Vec<(String, String)>,
    pub workdir: Option<PathBuf>,
    /// The first line written to stdin; `None` closes stdin at once (the program reads none).
    pub first_line: Option<String>,
    /// Keep stdin open after the first line, for lines the adapter writes later.
    pub keep_stdin_open: bool,
    /// Longer output lines come in pieces marked partial.
    pub max_line_bytes: usize,
    /// SIGTERM → SIGKILL grace period of a graceful cancel.
    pub grace: Duration,
}

impl Launch {
    /// Sets an environment variable of the program, over any the configuration gives.
    pub fn set_env(&mut self, key: &str, value: &str) {
        self.env.retain(|(k, _)| k != key);
        self.env.push((key.to_owned(), value.to_owned()));
    }
}

/// What one stdout line meant.
#[derive(Debug, Default)]
pub struct Mapped {
    pub events: Vec<AdapterEvent>,
    /// The program has said all it will: close its stdin (some programs wait on it to exit).
    pub close_stdin: bool,
    /// Lines to write to the program's stdin in answer (a protocol spoken both ways); they need
    /// [`Launch::keep_stdin_open`].
    pub replies: Vec<String>,
}

impl From<Vec<AdapterEvent>> for Mapped {
    fn from(events: Vec<AdapterEvent>) -> Self {
        Self { events, ..Self::default() }
    }
}

/// How the process ended.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessEnd {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// A cancel was requested.
    pub cancelled: bool,
    /// It could not even be waited for.
    pub error: Option<String>,
}

impl ProcessEnd {
    /// `cancelled` whenever a cancel was requested, `succeeded` on exit status 0, else `failed`.
    pub fn outcome(&self) -> &'static str {
        match (self.cancelled, self.exit_code) {
            (true, _) => "cancelled",
            (false, Some(0)) if self.error.is_none() => "succeeded",
            _ => "failed",
        }
    }

    /// The `Result` data of a run whose program says nothing more about its end.
    pub fn result_data(&self) -> Value {
        let mut data = json!({ "outcome": self.outcome(), "exit_code": self.exit_code, "signal": self.signal });
        if let Some(error) = &self.error {
            data["error"] = Value::String(error.clone());
        }
        data
    }
}

/// A line of the program's output passed through as it is: an `output` event of `stream`.
pub fn output_event(stream: &str, line: Line) -> AdapterEvent {
    let mut data = json!({ "stream": stream, "line": line.text });
    if line.partial {
        data["partial"] = Value::Bool(true);
    }
    AdapterEvent::new(EventKind::Output, data)
}

/// What an adapter makes of its program's output: the events of each line, and the result.
pub trait OutputMapper: Send + 'static {
    /// Events for the moment the process started.
    fn spawned(&mut self, pid: u32) -> Vec<AdapterEvent>;
    /// One line of stdout.
    fn stdout(&mut self, line: Line) -> Mapped;
    /// One line of stderr: passed through as output.
    fn stderr(&mut self, line: Line) -> Vec<AdapterEvent> {
        vec![output_event("stderr", line)]
    }
    /// Events still held when the output ends (a message that was streaming in pieces).
    fn flush(&mut self) -> Vec<AdapterEvent> {
        Vec::new()
    }
    /// The `Result` data, once the process ended and its output was read.
    fn result(&mut self, end: &ProcessEnd) -> Value;
}

/// A running program: its pid (also its process group), cancel, and its stdin.
#[derive(Debug)]
pub struct ProcessRun {
    pid: u32,
    cancel: watch::Sender<Option<CancelMode>>,
    stdin: Option<mpsc::Sender<String>>,
}

impl ProcessRun {
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Idempotent; `Immediate` overrides a pending `Graceful`.
    pub fn cancel(&self, mode: CancelMode) {
        self.cancel.send_if_modified(|current| match (*current, mode) {
            (None, _) | (Some(CancelMode::Graceful), CancelMode::Immediate) => {
                *current = Some(mode);
                true
            }
            _ => false,
        });
    }

    /// Writes one line to the program's stdin (kept open by [`Launch::keep_stdin_open`]).
    pub fn write_line(&self, line: String) -> Result<(), AdapterError> {
        let stdin = self.stdin.as_ref().ok_or_else(|| AdapterError::NotListening("its stdin is closed".into()))?;
        stdin.try_send(line).map_err(|e| AdapterError::NotListening(format!("its stdin: {e}")))
    }
}

/// A running program that is asked to stop over its own protocol before it is signalled (`acp`,
/// `codex-app-server`).
#[derive(Debug)]
pub struct AskingRun {
    pub process: Arc<ProcessRun>,
    grace: Duration,
    runtime: tokio::runtime::Handle,
}

impl AskingRun {
    /// `process`, with `grace` for the program to stop once asked. Called within the runtime.
    pub fn new(process: ProcessRun, grace: Duration) -> Self {
        Self { process: Arc::new(process), grace, runtime: tokio::runtime::Handle::current() }
    }

    /// `first`: no cancel was asked for before. Its `asking` lines (none when the program cannot
    /// be asked yet) are written; a graceful cancel then gives the program the grace period to
    /// end its turn before the supervisor's signals (SIGTERM, SIGKILL after another grace period).
    pub fn cancel(&self, mode: CancelMode, first: bool, asking: Vec<String>) {
        let asked = first && !asking.is_empty();
        if asked {
            for line in asking {
                if let Err(e) = self.process.write_line(line) {
                    tracing::debug!(error = %e, "could not ask the program to stop");
                }
            }
        }
        match mode {
            CancelMode::Graceful if asked => {
                let (process, grace) = (self.process.clone(), self.grace);
                self.runtime.spawn(async move {
                    tokio::time::sleep(grace).await;
                    process.cancel(CancelMode::Graceful);
                });
            }
            // A second graceful cancel: the one under way goes on.
            CancelMode::Graceful if !first => {}
            mode => self.process.cancel(mode),
        }
    }
}

/// Starts the program in its own process group. Its events go to `events` in order: the
/// mapper's, then the `Result` after exit. `active` counts the runs in progress.
/// A program run with nothing to pass it after its start is a native run as it stands.
impl NativeRun for ProcessRun {
    fn native_ref(&self) -> String {
        format!("pid:{}", self.pid())
    }

    fn pid(&self) -> Option<u32> {
        Some(ProcessRun::pid(self))
    }

    fn cancel(&self, mode: CancelMode) {
        ProcessRun::cancel(self, mode);
    }
}

pub fn spawn<M: OutputMapper>(
    launch: Launch,
    mapper: M,
    events: EventSink,
    active: Arc<AtomicUsize>,
    span: tracing::Span,
) -> Result<ProcessRun, AdapterError> {
    let mut command = tokio::process::Command::new(&launch.program);
    command
        .args(&launch.args)
        .envs(launch.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so cancel reaches everything it forks.
        .process_group(0)
        .kill_on_drop(false);
    if let Some(dir) = &launch.workdir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().map_err(|e| AdapterError::Start(format!("{}: {e}", launch.program)))?;
    let Some(pid) = child.id() else {
        return Err(AdapterError::Start(format!("{}: exited before it could be observed", launch.program)));
    };
    let (cancel, cancel_rx) = watch::channel(None);
    let (stdin, stdin_rx) = mpsc::channel(STDIN_BUFFER);
    let (close_stdin, close_rx) = watch::channel(false);
    active.fetch_add(1, Ordering::Relaxed);
    let supervisor = Supervisor {
        pid,
        grace: launch.grace,
        events,
        cancel_rx,
        mapper: Arc::new(Mutex::new(mapper)),
        close_stdin,
        stdin: stdin.downgrade(),
        active,
    };
    let io = Io {
        stdin: child.stdin.take().map(|pipe| StdinFeed {
            pipe,
            first_line: launch.first_line,
            later: launch.keep_stdin_open.then_some(stdin_rx),
            close: close_rx,
        }),
        stdout: child.stdout.take(),
        stderr: child.stderr.take(),
        max_line_bytes: launch.max_line_bytes,
    };
    tokio::spawn(supervisor.run(io, child).instrument(span));
    let stdin = launch.keep_stdin_open.then_some(stdin);
    Ok(ProcessRun { pid, cancel, stdin })
}

/// What is written to the program's stdin: the first line, then (if kept open) the adapter's
/// lines until the mapper or the adapter closes it.
struct StdinFeed {
    pipe: tokio::process::ChildStdin,
    first_line: Option<String>,
    later: Option<mpsc::Receiver<String>>,
    close: watch::Receiver<bool>,
}

impl StdinFeed {
    async fn write(mut self) {
        // A program that does not read its stdin closes it; that is not an error.
        if let Some(line) = &self.first_line {
            if self.pipe.write_all(line.as_bytes()).await.is_err() || self.pipe.write_all(b"\n").await.is_err() {
                return;
            }
            let _ = self.pipe.flush().await;
        }
        if let Some(mut lines) = self.later.take() {
            loop {
                tokio::select! {
                    // Lines queued before the close are written first.
                    biased;
                    line = lines.recv() => {
                        let Some(line) = line else { break };
                        if self.pipe.write_all(line.as_bytes()).await.is_err() || self.pipe.write_all(b"\n").await.is_err() {
                            break;
                        }
                        let _ = self.pipe.flush().await;
                    }
                    changed = self.close.changed() => {
                        if changed.is_err() || *self.close.borrow() {
                            break;
                        }
                    }
                }
            }
        }
        let _ = self.pipe.shutdown().await;
    }
}

struct Io {
    stdin: Option<StdinFeed>,
    stdout: Option<tokio::process::ChildStdout>,
    stderr: Option<tokio::process::ChildStderr>,
    max_line_bytes: usize,
}

struct Supervisor<M> {
    pid: u32,
    grace: Duration,
    events: EventSink,
    cancel_rx: watch::Receiver<Option<CancelMode>>,
    mapper: Arc<Mutex<M>>,
    close_stdin: watch::Sender<bool>,
    /// The mapper's replies go there (read only with `keep_stdin_open`). Weak, so stdin still
    /// closes when the run's handle is dropped.
    stdin: mpsc::WeakSender<String>,
    active: Arc<AtomicUsize>,
}

/// Which output stream a reader forwards.
#[derive(Clone, Copy)]
enum Stream {
    Stdout,
    Stderr,
}

impl<M: OutputMapper> Supervisor<M> {
    async fn run(mut self, io: Io, mut child: Child) {
        let pid = self.pid;
        let started = lock(&self.mapper).spawned(pid);
        for event in started {
            let _ = self.events.send(event).await;
        }
        if let Some(feed) = io.stdin {
            tokio::spawn(feed.write());
        }
        let readers = [
            io.stdout.map(|s| self.reader(s, Stream::Stdout, io.max_line_bytes)),
            io.stderr.map(|s| self.reader(s, Stream::Stderr, io.max_line_bytes)),
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
        let _ = self.close_stdin.send(true);
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
        let end = match status {
            Ok(status) => ProcessEnd {
                exit_code: status.code(),
                signal: status.signal(),
                cancelled: cancelled.is_some(),
                error: None,
            },
            Err(e) => ProcessEnd {
                exit_code: None,
                signal: None,
                cancelled: cancelled.is_some(),
                error: Some(format!("could not wait for the process: {e}")),
            },
        };
        let held = lock(&self.mapper).flush();
        for event in held {
            let _ = self.events.send(event).await;
        }
        let data = lock(&self.mapper).result(&end);
        tracing::info!(outcome = %data["outcome"], exit_code = ?end.exit_code, signal = ?end.signal, "run ended");
        let _ = self.events.send(AdapterEvent::new(EventKind::Result, data)).await;
        self.active.fetch_sub(1, Ordering::Relaxed);
    }

    /// Forwards one output stream through the mapper, line by line.
    fn reader<R: AsyncRead + Unpin + Send + 'static>(
        &self,
        stream: R,
        which: Stream,
        max_line_bytes: usize,
    ) -> tokio::task::JoinHandle<()> {
        let (mapper, events, close_stdin) = (self.mapper.clone(), self.events.clone(), self.close_stdin.clone());
        let stdin = self.stdin.clone();
        let forward = async move {
            let mut lines = LineReader::new(stream, max_line_bytes);
            loop {
                let line = match lines.next_line().await {
                    Ok(Some(line)) => line,
                    Ok(None) => return,
                    Err(e) => {
                        tracing::warn!(error = %e, "reading the run's output failed");
                        return;
                    }
                };
                let mapped = match which {
                    Stream::Stdout => lock(&mapper).stdout(line),
                    Stream::Stderr => lock(&mapper).stderr(line).into(),
                };
                // A program whose stdin is closed reads no answer; that is its end, not an error.
                if let Some(stdin) = stdin.upgrade().filter(|_| !mapped.replies.is_empty()) {
                    for reply in mapped.replies {
                        let _ = stdin.send(reply).await;
                    }
                }
                if mapped.close_stdin {
                    let _ = close_stdin.send(true);
                }
                for event in mapped.events {
                    if events.send(event).await.is_err() {
                        return;
                    }
                }
            }
        };
        tokio::spawn(forward.in_current_span())
    }
}
