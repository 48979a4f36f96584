//! The adapter trait: the Agent Adapter Protocol operations of SPEC §8 (handshake, health, start
//! with its ordered event stream, cancel, checkpoint, resume, approvals, handoff ingestion, usage),
//! each adapter declaring its capabilities honestly. An operation an adapter cannot do answers
//! `CapabilityMissing` — it is never simulated.

pub mod command;
pub mod lines;

use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

use acc_protocol::{CancelMode, Capability, EventKind, HealthStatus};
use serde_json::Value;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::config::AgentConfig;

/// An adapter kind the connector knows, as `acc-connector adapters` lists it.
#[derive(Debug, Clone, Copy)]
pub struct AdapterKind {
    pub name: &'static str,
    pub description: &'static str,
    pub capabilities: &'static [Capability],
}

/// Every adapter kind built in.
pub const KINDS: &[AdapterKind] = &[command::KIND];

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
#[derive(Debug, Clone, PartialEq)]
pub struct RunSpec {
    pub run_id: Uuid,
    pub attempt_id: Uuid,
    pub agent_id: Uuid,
    pub input: Value,
    pub context: Value,
    pub approval_token: Option<String>,
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

/// An approval decision the control plane relays to a run.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalDecision {
    pub approval_id: Uuid,
    pub approved: bool,
    pub approval_token: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum AdapterError {
    /// The adapter does not declare the capability the operation needs.
    #[error("capability missing: {}", .0.as_str())]
    CapabilityMissing(Capability),
    #[error("could not start: {0}")]
    Start(String),
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

    /// AAP `checkpoint(native_run_ref, reason)` → the checkpoint.
    fn checkpoint(&self, _run: &dyn NativeRun, _reason: &str) -> Result<Value, AdapterError> {
        Err(AdapterError::CapabilityMissing(Capability::Checkpoint))
    }

    /// AAP `resume(native_run_ref | checkpoint)`.
    fn resume(
        &self,
        _spec: RunSpec,
        _checkpoint: Option<&Value>,
        _events: EventSink,
    ) -> Result<Box<dyn NativeRun>, AdapterError> {
        Err(AdapterError::CapabilityMissing(Capability::NativeResume))
    }

    /// Relays a person's decision on an approval the run asked for.
    fn decide_approval(&self, _run: &dyn NativeRun, _decision: ApprovalDecision) -> Result<(), AdapterError> {
        Err(AdapterError::CapabilityMissing(Capability::Approvals))
    }

    /// Takes over a run from the handoff bundle another agent's checkpoint produced.
    fn ingest_handoff(
        &self,
        _spec: RunSpec,
        _bundle: &Value,
        _events: EventSink,
    ) -> Result<Box<dyn NativeRun>, AdapterError> {
        Err(AdapterError::CapabilityMissing(Capability::Checkpoint))
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
        other => Err(AdapterError::Start(format!("unknown adapter `{other}`"))),
    }
}
