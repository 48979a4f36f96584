//! The frames of the Agent Adapter Protocol: handshake, health, commands and their acks,
//! run events and their acks, and errors.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

/// What an agent can do; an operation needing a capability the agent lacks is refused,
/// never simulated (SPEC §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Capability {
    Stream,
    Cancel,
    NativeResume,
    Checkpoint,
    Approvals,
    Tools,
    Mcp,
    Artifacts,
    UsageExact,
    UsageEstimated,
    FilesystemScope,
    StructuredOutput,
}

impl Capability {
    pub const ALL: [Capability; 12] = [
        Capability::Stream,
        Capability::Cancel,
        Capability::NativeResume,
        Capability::Checkpoint,
        Capability::Approvals,
        Capability::Tools,
        Capability::Mcp,
        Capability::Artifacts,
        Capability::UsageExact,
        Capability::UsageEstimated,
        Capability::FilesystemScope,
        Capability::StructuredOutput,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Stream => "stream",
            Capability::Cancel => "cancel",
            Capability::NativeResume => "native_resume",
            Capability::Checkpoint => "checkpoint",
            Capability::Approvals => "approvals",
            Capability::Tools => "tools",
            Capability::Mcp => "mcp",
            Capability::Artifacts => "artifacts",
            Capability::UsageExact => "usage_exact",
            Capability::UsageEstimated => "usage_estimated",
            Capability::FilesystemScope => "filesystem_scope",
            Capability::StructuredOutput => "structured_output",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// One agent a connector offers, as its adapter describes it at handshake.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentDescriptor {
    /// Unique within the connector; the control plane keys the agent on (connector, name).
    pub name: String,
    pub adapter: String,
    pub adapter_version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_version: Option<String>,
    pub capabilities: Vec<Capability>,
}

/// Where the connector's spool stands for a run: the last sequence the control plane acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunCursor {
    pub run_id: Uuid,
    pub acked_sequence: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    Healthy,
    Degraded,
    Unhealthy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelMode {
    /// Ask the runtime to stop (SIGTERM), then force it after a grace period.
    Graceful,
    /// Stop it now (SIGKILL).
    Immediate,
}

/// A command from the control plane. Its `command_id` is its idempotency key: a connector
/// that sees the same id twice acknowledges again and does nothing more.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    StartRun {
        run_id: Uuid,
        attempt_id: Uuid,
        agent_id: Uuid,
        /// What the task asks of the agent: its objective and input.
        input: Value,
        /// The bounded context bundle the control plane assembled for the run.
        #[serde(default)]
        context: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approval_token: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        budget: Option<RunBudget>,
        /// The skill versions the run was started with, installed before the runtime starts.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skills: Vec<RunSkill>,
    },
    CancelRun {
        run_id: Uuid,
        /// Only this attempt: a cancel for an attempt that is not the one running is a no-op,
        /// so stopping a handed-off attempt never stops its successor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attempt_id: Option<Uuid>,
        mode: CancelMode,
    },
    Checkpoint {
        run_id: Uuid,
        reason: String,
    },
    /// A retry that continues the runtime's own session of the previous attempt instead of
    /// starting over; for agents with `native_resume`.
    Resume {
        run_id: Uuid,
        attempt_id: Uuid,
        agent_id: Uuid,
        /// The runtime's session id, as the previous attempt's `started` event gave it.
        session_id: String,
        /// What the task asks of the agent, as in `start_run`.
        input: Value,
        /// The context bundle, as in `start_run` (for a retry: the attempt number and the last checkpoint).
        #[serde(default)]
        context: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        budget: Option<RunBudget>,
        /// As in `start_run`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skills: Vec<RunSkill>,
    },
    ApprovalDecision {
        run_id: Uuid,
        approval_id: Uuid,
        /// The adapter's own id of the request (`data.request_id` of its `approval_requested` event).
        request_id: String,
        approved: bool,
        /// The person's reason, passed on to the agent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// Short-lived, single-use, bound to the run and the action ([`ApprovalClaims`]); present when approved.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approval_token: Option<String>,
    },
    HandoffIngest {
        run_id: Uuid,
        attempt_id: Uuid,
        agent_id: Uuid,
        bundle: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        budget: Option<RunBudget>,
        /// As in `start_run`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skills: Vec<RunSkill>,
    },
}

/// A skill version a run was started with (frozen when the run was created). The connector
/// fetches its files (`GET /v1/connectors/runs/{run_id}/skills/{skill_version_id}`, answered
/// with [`SkillFiles`]), checks them against `digest` and installs them where the agent's runtime
/// reads skills, before the runtime starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSkill {
    pub skill_version_id: Uuid,
    /// The skill's name: the directory it is installed as.
    pub name: String,
    /// `sha256:` and the hex of the sha256 of [`skill_file_list`] over the package's files.
    pub digest: String,
}

/// The files of a skill version, as the control plane serves them to the connector of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillFiles {
    pub files: Vec<SkillFile>,
}

/// One file of a skill package, by its path inside the skill's directory (`/`-separated,
/// relative, never `..`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillFile {
    pub path: String,
    /// The file's bytes, base64 (standard alphabet, padded).
    pub content_base64: String,
}

/// The text a skill package's digest is the sha256 of: for each file, sorted by path (byte
/// order), its path, a NUL, the lowercase hex of its sha256 and a line break. The same files give
/// the same text however they were packed; both sides of the protocol hash this one definition.
pub fn skill_file_list<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut files: Vec<(&str, &str)> = files.into_iter().collect();
    files.sort_unstable_by(|a, b| a.0.cmp(b.0));
    files.iter().map(|(path, sha256)| format!("{path}\0{sha256}\n")).collect()
}

/// What a run may use of its model provider, as the connector's model gateway measures it; the
/// run fails with `BUDGET_EXCEEDED` when it reaches either limit. Needs the `usage_exact` capability.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct RunBudget {
    /// Input plus output tokens, over every model request of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// Estimated cost in US dollars, from the connector's price table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cost_usd: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CommandOutcome {
    Accepted,
    Rejected { reason: String },
}

/// The `outcome` of a `result` that the connector, not the agent, gives: it restarted while the
/// run was active and the run's process is gone. The control plane retries it as it would after a
/// lapsed lease, instead of failing the run.
pub const OUTCOME_LOST: &str = "lost";

/// What happened in a run, normalized across runtimes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The runtime started; `data` has its native run reference.
    Started,
    Message,
    ToolCall,
    ToolResult,
    FileChange,
    Usage,
    /// A line of output the adapter passes through as it is.
    Output,
    Error,
    ApprovalRequested,
    Checkpoint,
    /// The agent said how far it is (its `report_progress` run tool): `data.message`, and
    /// `data.percent` when it gave one.
    Progress,
    /// Something the runtime said that the adapter does not understand (a newer runtime, say),
    /// kept as it was instead of dropped: `data.runtime` and `data.line`.
    VendorExtension,
    /// The run ended; `data.outcome` is `succeeded`, `failed` or `cancelled`.
    Result,
}

/// Error codes of [`Frame::Error`]; docs/protocol.md says which ones close the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    MalformedFrame,
    FrameTooLarge,
    UnsupportedVersion,
    IdentityMismatch,
    UnknownRun,
    /// An event whose connector sequence skips one not yet stored; nothing is stored, the
    /// connector resends from its acknowledged sequence.
    OutOfOrder,
    /// An event for a run already in a terminal status; nothing is stored, and the connector
    /// drops the run's spooled events instead of resending them.
    RunEnded,
    UnknownAgent,
    Unauthorized,
    Internal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Frame {
    /// Connector → control plane, first frame: who it is and what it offers.
    Hello {
        connector_version: String,
        agents: Vec<AgentDescriptor>,
        /// Runs the connector still holds spooled events for.
        #[serde(default)]
        resume: Vec<RunCursor>,
    },
    /// Control plane → connector: the handshake succeeded.
    HelloAck {
        /// The control plane's id for each agent, by name.
        agents: Vec<AgentId>,
        heartbeat_interval_ms: u64,
        /// Per run, the highest connector sequence already stored: resend only what comes after.
        #[serde(default)]
        resume: Vec<RunCursor>,
        /// The keys approval tokens are signed with; the connector verifies tokens against them.
        #[serde(default)]
        approval_keys: Vec<ApprovalKey>,
    },
    /// Connector → control plane, periodically: alive, and how it is.
    Heartbeat { status: HealthStatus, active_runs: Vec<Uuid> },
    /// Control plane → connector.
    Command {
        command_id: Uuid,
        #[serde(flatten)]
        command: Command,
    },
    /// Connector → control plane: a command was taken (or refused, with the reason).
    CommandAck {
        command_id: Uuid,
        #[serde(flatten)]
        outcome: CommandOutcome,
    },
    /// Connector → control plane: one run event (run, event id and sequence are on the envelope).
    Event {
        kind: EventKind,
        #[serde(default)]
        data: Value,
    },
    /// Control plane → connector: every event of the run up to this sequence is stored.
    EventAck { run_id: Uuid, up_to_sequence: u64 },
    /// Connector → control plane: the agent of a run (the envelope's `run_id`) called one of the
    /// control plane's run tools. Not spooled: a call made while the connection is down waits for
    /// it, and one never answered fails in the agent.
    ToolCall {
        call_id: Uuid,
        #[serde(flatten)]
        request: ToolRequest,
    },
    /// Control plane → connector: what a tool call came to.
    ToolResult {
        call_id: Uuid,
        #[serde(flatten)]
        outcome: ToolOutcome,
    },
    /// Either direction: something was wrong with a frame.
    Error { code: ErrorCode, message: String },
}

/// A run tool the control plane answers, with its arguments as the agent gave them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
pub enum ToolRequest {
    /// Memory the run may read that matches `query`, best first.
    MemoryQuery {
        query: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
    },
    /// A memory entry the agent proposes; it lands unverified, with the run as its provenance.
    MemoryPropose {
        subject: String,
        content: String,
        /// One of the memory kinds (`fact`, `decision`…); `fact` when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
        #[serde(default)]
        scope: ProposalScope,
    },
    /// The published page at `path` of the wiki namespace named `namespace`, of the run's project
    /// (or else of its workspace).
    WikiRead { namespace: String, path: String },
    /// A page the agent proposes for that namespace: a draft revision, with the run as its author,
    /// until people publish it.
    WikiPropose { namespace: String, path: String, title: String, source: String },
}

/// Where a `memory_propose` goes: the run's task, or the agent's own memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProposalScope {
    #[default]
    Task,
    Agent,
}

/// The answer to a [`Frame::ToolCall`]: content for the agent, or why the call was refused (a
/// SPEC §4 error code and a message the agent can act on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum ToolOutcome {
    Done { content: Value },
    Refused { code: String, message: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentId {
    pub name: String,
    pub agent_id: Uuid,
}

/// A public key the control plane signs approval tokens with (Ed25519).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalKey {
    /// The key id that tokens name in their header.
    pub kid: String,
    /// The 32-byte Ed25519 public key, base64 (standard alphabet).
    pub public_key: String,
}

/// The audience of approval tokens; no other token of the control plane carries it.
pub const APPROVAL_AUDIENCE: &str = "acc-connector-approval";

/// What an approval token (a JWT signed with EdDSA) says: which approval, for which run on which
/// connector, for exactly which action, until when. Single use: `jti` is spent on first use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalClaims {
    pub iss: String,
    pub aud: String,
    /// The approval id.
    pub sub: String,
    /// Unique per token; a connector accepts each once.
    pub jti: String,
    pub run_id: Uuid,
    pub connector_id: Uuid,
    /// The adapter's request id the approval answers.
    pub request_id: String,
    /// The action approved, exactly as the adapter described it.
    pub action: String,
    pub iat: i64,
    pub exp: i64,
}
