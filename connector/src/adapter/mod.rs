//! The adapter trait: the Agent Adapter Protocol operations of SPEC §8 (handshake, health, start
//! with its ordered event stream, cancel, checkpoint, resume, approvals, handoff ingestion, usage),
//! each adapter declaring its capabilities honestly. An operation an adapter cannot do answers
//! `CapabilityMissing` — it is never simulated.

pub mod acp;
pub mod claude_code;
pub mod codex;
pub mod codex_app_server;
pub mod command;
pub mod control;
pub mod gemini;
pub mod hermes;
pub mod http;
pub mod jiuwenswarm;
pub mod lines;
pub mod openclaw;
pub mod process;
pub mod run_dir;
pub mod vendor;

use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

use acc_protocol::{CancelMode, Capability, EventKind, HealthStatus, RunBudget};
use serde_json::Value;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::config::{AgentConfig, ModelApi};
use crate::model_gateway::ModelAccess;
use crate::run_tools::RunToolsAccess;
use crate::skills::Skill;

/// An adapter kind the connector knows, as `acc-connector adapters` lists it.
#[derive(Debug, Clone, Copy)]
pub struct AdapterKind {
    pub name: &'static str,
    pub description: &'static str,
    pub capabilities: &'static [Capability],
    /// The model API its runtime speaks, for the model gateway; `None`: whichever the agent's provider has.
    pub model_api: Option<ModelApi>,
    /// Environment variables one of which gives its runtime a credential of its own, when it has
    /// no model provider (`acc-connector doctor` looks for them); empty when that lives elsewhere.
    pub credential_env: &'static [&'static str],
}

/// Every adapter kind built in.
pub const KINDS: &[AdapterKind] = &[
    command::KIND,
    claude_code::KIND,
    codex::KIND,
    codex_app_server::KIND,
    gemini::KIND,
    acp::KIND,
    http::KIND,
    hermes::KIND,
    openclaw::KIND,
    jiuwenswarm::KIND,
];

/// AAP `handshake()`: what the adapter is and what it can do.
#[derive(Debug, Clone, PartialEq)]
pub struct Handshake {
    pub adapter: &'static str,
    pub adapter_version: String,
    pub runtime_version: Option<String>,
    pub capabilities: Vec<Capability>,
}

/// AAP `health()`.
#[derive(Debug, Clone, PartialEq)]
pub struct Health {
    pub status: HealthStatus,
    /// How long the check took.
    pub latency: Duration,
    pub active_runs: usize,
    /// Why the status is not healthy.
    pub detail: Option<String>,
}

/// AAP `usage(scope)`: how much a run used, and how sure the adapter is.
#[derive(Debug, Clone, PartialEq)]
pub enum Usage {
    Measured(Value),
    Estimated(Value),
    Unknown,
}

/// What `start` needs: the run spec and the context bundle of SPEC §7.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunSpec {
    pub run_id: Uuid,
    pub attempt_id: Uuid,
    pub agent_id: Uuid,
    pub input: Value,
    pub context: Value,
    pub approval_token: Option<String>,
    /// What the run may use of its model provider.
    pub budget: Option<RunBudget>,
    /// Where the runtime reaches its model provider through the connector's model gateway, when
    /// the agent has one: the adapter launches the runtime pointed there.
    pub model: Option<ModelAccess>,
    /// Where the runtime reaches the run tools (an MCP server), when its adapter declares `mcp`.
    pub tools: Option<RunToolsAccess>,
    /// The skills the run was started with, checked against their digests, for an adapter whose
    /// runtime reads skills: it installs them where its runtime looks, for this run only.
    pub skills: Vec<Skill>,
}

/// One normalized event of a run, before redaction and sequencing.
#[derive(Debug, Clone, PartialEq)]
pub struct AdapterEvent {
    pub kind: EventKind,
    pub data: Value,
}

impl AdapterEvent {
    pub fn new(kind: EventKind, data: Value) -> Self {
        Self { kind, data }
    }
}

/// Where a run's events go (AAP `stream`): in order; the last one is `Result`. A bounded channel,
/// so a consumer that cannot keep up slows the run down instead of growing memory.
pub type EventSink = mpsc::Sender<AdapterEvent>;

/// An approval decision for a run, after the connector checked its token: `approved` is true only
/// with a valid one.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalDecision {
    pub approval_id: Uuid,
    /// The adapter's own id of the request, from its `ApprovalRequested` event.
    pub request_id: String,
    pub approved: bool,
    pub reason: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum AdapterError {
    /// The adapter does not declare the capability the operation needs.
    #[error("capability missing: {}", .0.as_str())]
    CapabilityMissing(Capability),
    #[error("could not start: {0}")]
    Start(String),
    #[error("the agent no longer listens: {0}")]
    NotListening(String),
}

/// A run in progress, as its adapter holds it (its native run reference).
pub trait NativeRun: Send + Sync + Debug {
    /// The runtime's own reference to the run (for `command`: `pid:<pid>`).
    fn native_ref(&self) -> String;
    /// The process (and process group) id, when the run is an OS process of this host.
    fn pid(&self) -> Option<u32>;
    /// AAP `cancel(native_run_ref, mode)`; idempotent, and `Immediate` overrides a pending `Graceful`.
    /// The run ends with a `Result` whose outcome is `cancelled`.
    fn cancel(&self, mode: CancelMode);

    /// AAP `checkpoint(native_run_ref, reason)`: asks the runtime to save its state, which arrives
    /// as a `Checkpoint` event of the run.
    fn checkpoint(&self, _reason: &str) -> Result<(), AdapterError> {
        Err(AdapterError::CapabilityMissing(Capability::Checkpoint))
    }

    /// Passes a person's decision on an approval the run asked for.
    fn decide_approval(&self, _decision: ApprovalDecision) -> Result<(), AdapterError> {
        Err(AdapterError::CapabilityMissing(Capability::Approvals))
    }
}

/// One runtime behind the AAP. The default methods refuse what needs a capability the adapter
/// lacks; an adapter overrides exactly the operations it declares.
pub trait Adapter: Send + Sync + Debug {
    /// AAP `handshake()`: identity, adapter and runtime versions, capabilities.
    fn handshake(&self) -> Handshake;

    /// AAP `health()`.
    fn health(&self) -> Health;

    /// AAP `start(run_spec, context_bundle, approval_token?) → native_run_ref`. Events go to `events`
    /// in order (`Started` first, `Result` last).
    fn start(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError>;

    /// Whether its runtime reads skills: the adapter installs `RunSpec::skills` where the runtime
    /// looks (docs/runtimes.md). Any other adapter's runs start without them.
    fn reads_skills(&self) -> bool {
        false
    }

    /// AAP `resume(native_run_ref)`: a new attempt that continues the runtime's own session
    /// `session_id` (an earlier attempt's, from its `Started` event) instead of starting over.
    fn resume(
        &self,
        _spec: RunSpec,
        _session_id: &str,
        _events: EventSink,
    ) -> Result<Box<dyn NativeRun>, AdapterError> {
        Err(AdapterError::CapabilityMissing(Capability::NativeResume))
    }

    /// Takes over a run handed off by another agent: a start whose context is the handoff bundle
    /// (`spec.context`). An adapter with a better way to ingest a bundle overrides this.
    fn ingest_handoff(&self, spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        self.start(spec, events)
    }

    /// AAP `usage(scope)`.
    fn usage(&self, _run: &dyn NativeRun) -> Usage {
        Usage::Unknown
    }

    fn has(&self, capability: Capability) -> bool {
        self.handshake().capabilities.contains(&capability)
    }
}

/// Settings every adapter gets from the connector configuration.
#[derive(Debug, Clone, Copy)]
pub struct AdapterOptions {
    /// How long a graceful cancel waits before forcing.
    pub cancel_grace: Duration,
}

/// The adapter for one configured agent.
pub fn build(agent: &AgentConfig, options: AdapterOptions) -> Result<Arc<dyn Adapter>, AdapterError> {
    match agent.adapter.as_str() {
        "command" => Ok(Arc::new(command::CommandAdapter::new(agent, options))),
        "claude-code" => Ok(Arc::new(claude_code::ClaudeCodeAdapter::new(agent, options))),
        "codex" => Ok(Arc::new(codex::CodexAdapter::new(agent, options))),
        "codex-app-server" => Ok(Arc::new(codex_app_server::CodexAppServerAdapter::new(agent, options))),
        "gemini" => Ok(Arc::new(gemini::GeminiAdapter::new(agent, options))),
        "acp" => Ok(Arc::new(acp::AcpAdapter::new(agent, options))),
        "http" => Ok(Arc::new(http::HttpAdapter::new(agent, options))),
        "hermes" => Ok(Arc::new(hermes::HermesAdapter::new(agent, options))),
        "openclaw" => Ok(Arc::new(openclaw::OpenClawAdapter::new(agent, options))),
        "jiuwenswarm" => Ok(Arc::new(jiuwenswarm::JiuwenSwarmAdapter::new(agent, options))),
        other => Err(AdapterError::Start(format!("unknown adapter `{other}`"))),
    }
}

/// Text an event carries at most, in characters; longer text is cut and marked `…`.
pub const MAX_TEXT_CHARS: usize = 64 * 1024;

/// Text cut to [`MAX_TEXT_CHARS`].
pub fn bounded(text: &str) -> Value {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((cut, _)) => Value::String(format!("{}…", &text[..cut])),
        None => Value::String(text.to_owned()),
    }
}

/// What a tool use would do, in one line for an approval: the first of the input's `keys` it has
/// (the command, the file…), else the whole input.
pub fn tool_action(tool: &str, input: &Value, keys: &[&str]) -> String {
    let detail =
        keys.iter().find_map(|key| input[key].as_str()).map(str::to_owned).unwrap_or_else(|| input.to_string());
    format!("{tool}: {}", detail.chars().take(500).collect::<String>())
}

/// One normalized event (shorthand for [`AdapterEvent::new`]).
pub fn event(kind: EventKind, data: Value) -> AdapterEvent {
    AdapterEvent::new(kind, data)
}

/// How a program that is not a known runtime reaches the model gateway: the variables it may use
/// (`ACC_MODEL_GATEWAY_URL`, `ACC_MODEL_GATEWAY_TOKEN` as its API key), when the agent has one.
pub fn model_gateway_env(spec: &RunSpec) -> Vec<(String, String)> {
    spec.model
        .iter()
        .flat_map(|model| {
            [
                ("ACC_MODEL_GATEWAY_URL".to_owned(), model.base_url.clone()),
                ("ACC_MODEL_GATEWAY_TOKEN".to_owned(), model.token.clone()),
            ]
        })
        .collect()
}

/// A run's prompt: `input.prompt`, else `input.objective`, else the input itself (as JSON).
pub fn prompt_text(spec: &RunSpec) -> String {
    let named = ["prompt", "objective"].iter().find_map(|key| spec.input[key].as_str());
    match (named, &spec.input) {
        (Some(text), _) => text.to_owned(),
        (None, Value::String(text)) => text.clone(),
        (None, input) => serde_json::to_string_pretty(input).unwrap_or_default(),
    }
}

/// The prompt of a resumed attempt: the runtime's session already holds the task and the work
/// done so far, so it is told to go on, with the task again in case the session lost its end.
pub fn resume_prompt(spec: &RunSpec) -> String {
    format!(
        "Your previous attempt at this task was interrupted before it finished. Continue where you left off \
         and complete the task.\n\nThe task: {}",
        prompt_text(spec)
    )
}

/// The context the control plane gave a run (a handoff bundle, a retry's checkpoint) as text for
/// a system prompt; `None` when there is none.
pub fn context_text(spec: &RunSpec) -> Option<String> {
    let empty = spec.context.is_null() || spec.context.as_object().is_some_and(|o| o.is_empty());
    (!empty).then(|| {
        let json = serde_json::to_string_pretty(&spec.context).unwrap_or_default();
        format!("Context for this run from Agent Control Center (JSON):\n{json}")
    })
}

/// The version a runtime prints when asked with `args` (`--version`): its first dotted number, or
/// `None` if it does not answer within a few seconds.
pub fn runtime_version(program: &str, args: &[&str], env: &[(String, String)]) -> Option<String> {
    let mut child = std::process::Command::new(program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while child.try_wait().ok()?.is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut output = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut output).ok()?;
    output
        .split_whitespace()
        .map(|word| word.trim_start_matches('v'))
        .find(|word| word.split('.').count() >= 2 && word.split('.').all(|part| part.parse::<u64>().is_ok()))
        .map(str::to_owned)
}
