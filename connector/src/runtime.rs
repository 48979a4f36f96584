//! The connector's state between connections: its agents and their adapters, the runs in
//! flight, the spool and the command log. Executes commands (each command id once), turns adapter
//! events into redacted, sequenced, spooled events, and answers what the connection needs to send.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acc_protocol::{
    AgentDescriptor, AgentId, ApprovalKey, CancelMode, Capability, Command, CommandOutcome, EventKind, Frame,
    HealthStatus, OUTCOME_LOST, RunCursor, RunSkill,
};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tracing::Instrument;
use uuid::Uuid;

use crate::adapter::{self, Adapter, AdapterError, AdapterOptions, ApprovalDecision, EventSink, NativeRun, RunSpec};
use crate::approval::{ApprovalVerifier, Expected, RedeemError};
use crate::config::Config;
use crate::credential::{self, CredentialError};
use crate::lock;
use crate::model_gateway::{BUDGET_EXCEEDED, ModelGateway, ModelGatewayError};
use crate::process::{signal_group, start_ticks};
use crate::redact::{LineRedactor, RedactError, Redactor};
use crate::run_files::{NotSent, RunFiles, ServerFiles};
use crate::run_tools::{QueuedCall, RunTools, RunToolsError};
use crate::seen::{SeenError, SeenLog};
use crate::skills::Skill;
use crate::spool::{Begun, ProcessRef, Spool, SpoolError};

/// How many command ids are remembered (and their outcomes) to answer redeliveries.
pub const REMEMBERED_COMMANDS: usize = 10_000;
/// Events an adapter may have in flight to the spool before it waits.
const EVENT_BUFFER: usize = 256;
/// How long runs killed for an identity switch get to report their end.
const IDENTITY_SWITCH_WAIT: Duration = Duration::from_secs(5);
/// The most changed files of one run sent at its end; an agent that rewrote a whole tree has its
/// first ones (by path) sent, and the rest named in the log.
const MAX_CHANGED_FILES: usize = 100;
/// How long a run's result waits for its changed files to be sent.
const CHANGED_FILES_WAIT: Duration = Duration::from_secs(120);

#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error(transparent)]
    Credential(#[from] CredentialError),
    #[error(transparent)]
    Spool(#[from] SpoolError),
    #[error(transparent)]
    Seen(#[from] SeenError),
    #[error(transparent)]
    Redact(#[from] RedactError),
    #[error("agent `{name}`: {source}")]
    Adapter { name: String, source: AdapterError },
    #[error(transparent)]
    ModelGateway(#[from] ModelGatewayError),
    #[error(transparent)]
    RunTools(#[from] RunToolsError),
}

/// A configured agent and the adapter that runs it.
#[derive(Debug, Clone)]
pub struct Agent {
    pub name: String,
    pub adapter: Arc<dyn Adapter>,
    /// The model provider its runtime reaches through the model gateway.
    pub model_provider: Option<String>,
    /// Where it works: the files its `attach_artifact` run tool may send, and those it changed.
    pub workdir: Option<std::path::PathBuf>,
}

#[derive(Debug)]
struct ActiveRun {
    attempt_id: Uuid,
    agent: usize,
    native: Box<dyn NativeRun>,
}

#[derive(Debug)]
pub struct Runtime {
    /// Replaced when a new credential gives the connector a new identity (see `adopt_identity`).
    connector_id: Mutex<Uuid>,
    agents: Vec<Agent>,
    /// The control plane's agent ids (from `HelloAck`), to our agents.
    agent_ids: Mutex<HashMap<Uuid, usize>>,
    spool: Mutex<Spool>,
    commands: Mutex<SeenLog<CommandOutcome>>,
    runs: Mutex<HashMap<Uuid, ActiveRun>>,
    /// Verifies the tokens of approved actions.
    approvals: ApprovalVerifier,
    /// Approval requests sent and not yet answered: (run, request id) → the action, as sent.
    approval_requests: Mutex<HashMap<(Uuid, String), String>>,
    redactor: Redactor,
    /// Present when the configuration has model providers.
    model_gateway: Option<ModelGateway>,
    /// The MCP server agents call the control plane's tools through.
    run_tools: Option<RunTools>,
    /// Sends runs' files to the control plane, and fetches their skills.
    files: RunFiles,
    /// The checked skills of start commands, by attempt, fetched before the command executes.
    fetched_skills: Mutex<HashMap<Uuid, Vec<Skill>>>,
    /// Woken when events are written to the spool: the connection sends them.
    events_written: Notify,
    /// Woken when acknowledgements free spool space: runs waiting to write continue.
    space_freed: Notify,
    /// Woken when a run ends.
    run_ended: Notify,
}

/// What executing a command came to.
enum Executed {
    /// Final: a redelivery of the command id is answered with it, and nothing is executed again.
    Done(CommandOutcome),
    /// Refused for now (the agent did not take what it was handed): a redelivery executes it again.
    NotYet(String),
}

impl From<CommandOutcome> for Executed {
    fn from(outcome: CommandOutcome) -> Self {
        Executed::Done(outcome)
    }
}

fn rejected(reason: impl Into<String>) -> CommandOutcome {
    CommandOutcome::Rejected { reason: reason.into() }
}

fn missing(capability: Capability) -> CommandOutcome {
    rejected(AdapterError::CapabilityMissing(capability).to_string())
}

impl Runtime {
    /// Everything `run` needs from the configuration: the spool key beside the credential, the
    /// spool and command log in the spool directory, the redactor, one adapter per agent, and the
    /// model gateway when there are model providers.
    pub async fn open(config: &Config, connector_id: Uuid) -> Result<Arc<Self>, RuntimeError> {
        let options = AdapterOptions { cancel_grace: config.cancel_grace() };
        let agents = config
            .agents
            .iter()
            .map(|a| {
                adapter::build(a, options)
                    .map(|adapter| Agent {
                        name: a.name.clone(),
                        adapter,
                        model_provider: a.model_provider.clone(),
                        workdir: a.workdir.clone(),
                    })
                    .map_err(|source| RuntimeError::Adapter { name: a.name.clone(), source })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let provider_keys: Vec<String> = config.model_providers.iter().filter_map(|p| p.key()).collect();
        let mut literals: Vec<&str> = config.agents.iter().flat_map(|a| Redactor::secret_env_values(&a.env)).collect();
        literals.extend(provider_keys.iter().map(String::as_str));
        let redactor = Redactor::new(&config.redact, literals)?;
        let key = credential::load_or_create_key(&config.spool_key_path())?;
        let spool_dir = config.spool_dir();
        let spool = Spool::open(&spool_dir, &key, connector_id, config.spool_max_events)?;
        let (model_gateway, over_budget) = if config.model_providers.is_empty() {
            (None, None)
        } else {
            let (gateway, over_budget) =
                ModelGateway::start(&config.model_gateway, &config.model_providers, redactor.clone()).await?;
            (Some(gateway), Some(over_budget))
        };
        let run_tools = RunTools::start().await?;
        let runtime = Self::new(connector_id, agents, spool, &spool_dir, redactor, model_gateway, Some(run_tools))?;
        if let Some(over_budget) = over_budget {
            tokio::spawn(stop_over_budget(Arc::downgrade(&runtime), over_budget));
        }
        Ok(runtime)
    }

    /// A runtime over an opened spool; the command log lives in `spool_dir`. Runs a previous
    /// process left unfinished are ended here (see [`Runtime::recover`]).
    pub fn new(
        connector_id: Uuid,
        agents: Vec<Agent>,
        spool: Spool,
        spool_dir: &Path,
        redactor: Redactor,
        model_gateway: Option<ModelGateway>,
        run_tools: Option<RunTools>,
    ) -> Result<Arc<Self>, RuntimeError> {
        let commands = SeenLog::open(&spool_dir.join("commands.jsonl"), REMEMBERED_COMMANDS)?;
        let approvals = ApprovalVerifier::open(&spool_dir.join("approval-tokens.jsonl"), connector_id)?;
        let runtime = Arc::new(Self {
            connector_id: Mutex::new(connector_id),
            agents,
            agent_ids: Mutex::new(HashMap::new()),
            spool: Mutex::new(spool),
            commands: Mutex::new(commands),
            runs: Mutex::new(HashMap::new()),
            approvals,
            approval_requests: Mutex::new(HashMap::new()),
            redactor,
            model_gateway,
            files: run_tools.as_ref().map(|tools| tools.files().clone()).unwrap_or_default(),
            fetched_skills: Mutex::new(HashMap::new()),
            run_tools,
            events_written: Notify::new(),
            space_freed: Notify::new(),
            run_ended: Notify::new(),
        });
        runtime.recover()?;
        Ok(runtime)
    }

    /// Ends the runs a previous connector process left running: their process group is killed if
    /// it is provably the same process (same start time), and a `Result` of `lost` is spooled,
    /// so the control plane learns the outcome instead of waiting for a lease to lapse. A spool
    /// of another connector identity (the credential was replaced while stopped) starts over
    /// instead, as after `adopt_identity`: the control plane would refuse what it holds.
    fn recover(&self) -> Result<(), RuntimeError> {
        let mut spool = lock(&self.spool);
        let previous_owner = spool.previous_owner();
        for orphan in spool.unfinished() {
            let span = tracing::warn_span!("recover", run_id = %orphan.run_id, attempt_id = %orphan.attempt_id);
            let _entered = span.enter();
            let stopped = match orphan.process {
                Some(ProcessRef { pid, start_ticks: Some(ticks) }) if start_ticks(pid) == Some(ticks) => {
                    signal_group(pid, nix::sys::signal::Signal::SIGKILL)
                }
                _ => false,
            };
            tracing::warn!(stopped, "the run was active when the connector stopped; ending it as failed");
            if previous_owner.is_some() {
                continue;
            }
            spool.append_unbounded(
                orphan.run_id,
                EventKind::Result,
                json!({
                    "outcome": OUTCOME_LOST,
                    "exit_code": null,
                    "signal": null,
                    "error": if stopped {
                        "the connector stopped while the run was active; its process group was killed on restart"
                    } else {
                        "the connector stopped while the run was active; its process was gone on restart"
                    },
                }),
            )?;
        }
        if let Some(previous) = previous_owner {
            let dropped = spool.start_over(self.connector_id())?;
            tracing::warn!(
                %previous,
                dropped_events = dropped,
                "the spool was another connector's (the credential was replaced); it starts over, its unsent events dropped"
            );
        }
        spool.sync()?;
        Ok(())
    }

    pub fn connector_id(&self) -> Uuid {
        *lock(&self.connector_id)
    }

    /// Takes on a new connector identity: the control plane refused the old credential (the
    /// connector was revoked) and `acc-connector enroll --force` wrote a new one. Nothing of the
    /// old identity can reach the control plane any more, so its runs are stopped and the spool
    /// starts over; a run retried here then starts its events at sequence 1, as the control plane
    /// expects of a connector it never heard from.
    pub async fn adopt_identity(&self, connector_id: Uuid) -> Result<(), SpoolError> {
        let stopped = lock(&self.runs).len();
        self.cancel_all(CancelMode::Immediate);
        if !self.wait_idle(IDENTITY_SWITCH_WAIT).await {
            tracing::warn!("some runs of the old identity did not stop in time");
        }
        let dropped = lock(&self.spool).start_over(connector_id)?;
        self.approvals.set_connector(connector_id);
        lock(&self.approval_requests).clear();
        lock(&self.agent_ids).clear();
        *lock(&self.connector_id) = connector_id;
        tracing::warn!(
            %connector_id,
            stopped_runs = stopped,
            dropped_events = dropped,
            "now the connector the new credential names; the old identity's runs were stopped and their unsent events dropped"
        );
        self.space_freed.notify_waiters();
        Ok(())
    }

    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// What `Hello` says about each agent.
    pub fn descriptors(&self) -> Vec<AgentDescriptor> {
        self.agents
            .iter()
            .map(|a| {
                let h = a.adapter.handshake();
                let mut capabilities = h.capabilities;
                if self.metered(a) {
                    capabilities.push(Capability::UsageExact);
                    capabilities.sort_by_key(|c| Capability::ALL.iter().position(|known| known == c));
                }
                AgentDescriptor {
                    name: a.name.clone(),
                    adapter: h.adapter.to_owned(),
                    adapter_version: h.adapter_version,
                    runtime_version: h.runtime_version,
                    capabilities,
                }
            })
            .collect()
    }

    /// Whether the agent's model requests go through the model gateway.
    fn metered(&self, agent: &Agent) -> bool {
        self.model_gateway.is_some() && agent.model_provider.is_some()
    }

    /// The first frame of a connection.
    pub fn hello(&self) -> Frame {
        Frame::Hello {
            connector_version: crate::VERSION.to_owned(),
            agents: self.descriptors(),
            resume: lock(&self.spool).resume_cursors(),
        }
    }

    /// Takes in `HelloAck`: the agents' ids, the keys approval tokens are signed with, and per run
    /// what the control plane already stored (acknowledged here). Returns the send cursors:
    /// resend only what comes after.
    pub fn apply_hello_ack(
        &self,
        agents: &[AgentId],
        resume: &[RunCursor],
        approval_keys: &[ApprovalKey],
    ) -> Result<HashMap<Uuid, u64>, SpoolError> {
        self.approvals.set_keys(approval_keys);
        {
            let mut ids = lock(&self.agent_ids);
            ids.clear();
            for AgentId { name, agent_id } in agents {
                match self.agents.iter().position(|a| &a.name == name) {
                    Some(index) => {
                        ids.insert(*agent_id, index);
                    }
                    None => tracing::warn!(agent = %name, "HelloAck names an agent this connector does not offer"),
                }
            }
            for (index, agent) in self.agents.iter().enumerate() {
                if !ids.values().any(|i| *i == index) {
                    tracing::warn!(agent = %agent.name, "the control plane did not register this agent");
                }
            }
        }
        let mut sent = HashMap::new();
        let mut spool = lock(&self.spool);
        for cursor in resume {
            if cursor.acked_sequence == u64::MAX {
                // The run has ended there, or is gone: nothing more of it can be stored.
                spool.discard(cursor.run_id)?;
            } else {
                spool.ack(cursor.run_id, cursor.acked_sequence)?;
                sent.insert(cursor.run_id, cursor.acked_sequence);
            }
        }
        drop(spool);
        self.space_freed.notify_waiters();
        Ok(sent)
    }

    /// The control plane refused an event of the run because the run has ended there: nothing
    /// of it will be stored any more, so its spooled events are dropped instead of resent.
    pub fn run_ended(&self, run_id: Uuid) -> Result<(), SpoolError> {
        let dropped = lock(&self.spool).discard(run_id)?;
        if dropped > 0 {
            tracing::warn!(%run_id, dropped, "the run has ended on the control plane; its unsent events are dropped");
            self.space_freed.notify_waiters();
        }
        Ok(())
    }

    /// The control plane stored the run's events up to `up_to`.
    pub fn ack_events(&self, run_id: Uuid, up_to: u64) -> Result<(), SpoolError> {
        let released = lock(&self.spool).ack(run_id, up_to)?;
        tracing::trace!(%run_id, up_to, released, "events acknowledged");
        if released > 0 {
            self.space_freed.notify_waiters();
        }
        Ok(())
    }

    /// Encoded event frames to send next (see [`Spool::next_unsent`]).
    pub fn next_unsent(&self, sent: &mut HashMap<Uuid, u64>, limit: usize) -> Result<Vec<Arc<str>>, SpoolError> {
        lock(&self.spool).next_unsent(sent, limit)
    }

    pub fn events_written(&self) -> &Notify {
        &self.events_written
    }

    /// Run tool calls to send to the control plane, oldest first.
    pub fn queued_tool_calls(&self) -> Vec<QueuedCall> {
        self.run_tools.as_ref().map(RunTools::take_queued).unwrap_or_default()
    }

    /// Waits until a run tool call is queued (forever without run tools).
    pub async fn tool_call_queued(&self) {
        match &self.run_tools {
            Some(tools) => tools.call_queued().notified().await,
            None => std::future::pending().await,
        }
    }

    /// Where runs' files go: the connection's server and credential.
    pub fn set_server_files(&self, upload: ServerFiles) {
        self.files.set_upload(upload);
    }

    /// The control plane answered a run tool call.
    pub fn tool_answered(&self, call_id: Uuid, outcome: acc_protocol::ToolOutcome) {
        if let Some(tools) = &self.run_tools {
            tools.answered(call_id, outcome);
        }
    }

    pub fn active_runs(&self) -> Vec<Uuid> {
        let mut runs: Vec<Uuid> = lock(&self.runs).keys().copied().collect();
        runs.sort();
        runs
    }

    /// Events held in the spool, awaiting acknowledgement.
    pub fn spooled(&self) -> usize {
        lock(&self.spool).len()
    }

    /// Healthy, or degraded when the spool is full (new runs are refused) or an agent is unhealthy.
    pub fn health(&self) -> HealthStatus {
        let full = lock(&self.spool).is_full();
        let agent_down = self.agents.iter().any(|a| a.adapter.health().status != HealthStatus::Healthy);
        if full || agent_down { HealthStatus::Degraded } else { HealthStatus::Healthy }
    }

    pub fn sync_spool(&self) -> Result<(), SpoolError> {
        lock(&self.spool).sync()
    }

    /// Fetches and checks the skills a start of a run names, for an agent whose runtime reads
    /// skills, before the command executes (`handle_command` installs them); nothing for any other
    /// command, or one seen before. A skill that cannot be fetched or does not match its digest
    /// refuses the start, and is not remembered: a resend tries again.
    pub async fn fetch_skills(&self, command_id: Uuid, command: &Command) -> Result<(), CommandOutcome> {
        let (run_id, attempt_id, agent_id, skills) = match command {
            Command::StartRun { run_id, attempt_id, agent_id, skills, .. }
            | Command::Resume { run_id, attempt_id, agent_id, skills, .. }
            | Command::HandoffIngest { run_id, attempt_id, agent_id, skills, .. } => {
                (*run_id, *attempt_id, *agent_id, skills)
            }
            _ => return Ok(()),
        };
        if skills.is_empty() || !self.reads_skills(agent_id) || lock(&self.commands).get(&command_id).is_some() {
            return Ok(());
        }
        let fetched = self.files.fetch_skills(run_id, skills).await.map_err(|e| rejected(e.to_string()))?;
        tracing::info!(skills = fetched.len(), "the run's skills are fetched and match their digests");
        lock(&self.fetched_skills).insert(attempt_id, fetched);
        Ok(())
    }

    /// Whether the runtime of the agent the control plane knows as `agent_id` reads skills.
    fn reads_skills(&self, agent_id: Uuid) -> bool {
        lock(&self.agent_ids).get(&agent_id).is_some_and(|&agent| self.agents[agent].adapter.reads_skills())
    }

    /// Executes a command once per command id: a command id seen before gets its first outcome
    /// again and nothing is executed. Returns the outcome and whether it was a redelivery. A
    /// decision the agent did not take is the exception: it is refused, and not remembered, so
    /// the control plane's resend hands it over again.
    pub fn handle_command(self: &Arc<Self>, command_id: Uuid, command: Command) -> (CommandOutcome, bool) {
        if let Some(previous) = lock(&self.commands).get(&command_id).cloned() {
            tracing::info!(%command_id, "command seen before; acknowledging again without executing it");
            return (previous, true);
        }
        let outcome = match self.execute(command) {
            Executed::Done(outcome) => outcome,
            Executed::NotYet(reason) => {
                tracing::warn!(%reason, "command refused for now; a resend executes it again");
                return (rejected(reason), false);
            }
        };
        match &outcome {
            CommandOutcome::Accepted => tracing::info!("command accepted"),
            CommandOutcome::Rejected { reason } => tracing::warn!(%reason, "command rejected"),
        }
        if let Err(e) = lock(&self.commands).insert(command_id, outcome.clone()) {
            tracing::error!(error = %e, "could not record the command id; a redelivery would execute it again");
        }
        (outcome, false)
    }

    fn execute(self: &Arc<Self>, command: Command) -> Executed {
        match command {
            Command::StartRun { run_id, attempt_id, agent_id, input, context, approval_token, budget, skills } => {
                let spec = RunSpec {
                    run_id,
                    attempt_id,
                    agent_id,
                    input,
                    context,
                    approval_token,
                    budget,
                    ..RunSpec::default()
                };
                self.launch(spec, &skills, None, |adapter, spec, events| adapter.start(spec, events))
            }
            Command::CancelRun { run_id, attempt_id, mode } => {
                match lock(&self.runs).get(&run_id) {
                    Some(run) if attempt_id.is_some_and(|a| a != run.attempt_id) => {
                        tracing::info!(%run_id, "cancel of another attempt than the one running here: nothing to do");
                    }
                    Some(run) => {
                        tracing::info!(%run_id, ?mode, native = %run.native.native_ref(), "cancelling");
                        run.native.cancel(mode);
                    }
                    None => tracing::info!(%run_id, "cancel of a run that is not active here: nothing to do"),
                }
                CommandOutcome::Accepted.into()
            }
            Command::Checkpoint { run_id, reason } => {
                let runs = lock(&self.runs);
                let Some(run) = runs.get(&run_id) else {
                    return self.not_active(run_id, Capability::Checkpoint).into();
                };
                if !self.agents[run.agent].adapter.has(Capability::Checkpoint) {
                    return missing(Capability::Checkpoint).into();
                }
                // The checkpoint itself arrives as one of the run's events.
                match run.native.checkpoint(&reason) {
                    Ok(()) => CommandOutcome::Accepted.into(),
                    Err(e) => rejected(e.to_string()).into(),
                }
            }
            Command::ApprovalDecision { run_id, approval_id, request_id, approved, reason, approval_token } => {
                let runs = lock(&self.runs);
                let Some(run) = runs.get(&run_id) else {
                    return self.not_active(run_id, Capability::Approvals).into();
                };
                // The agent asked through its `request_approval` run tool, or its runtime asked.
                let tools = self.run_tools.as_ref().filter(|tools| tools.awaits(run_id, &request_id));
                if tools.is_none() && !self.agents[run.agent].adapter.has(Capability::Approvals) {
                    return missing(Capability::Approvals).into();
                }
                let hand_over = |decision: ApprovalDecision| match tools {
                    Some(tools) => tools.decide(run_id, decision).map_err(AdapterError::NotListening),
                    None => run.native.decide_approval(decision),
                };
                let key = (run_id, request_id.clone());
                let action = lock(&self.approval_requests).get(&key).cloned();
                let decision = |approved, reason| ApprovalDecision {
                    approval_id,
                    request_id: request_id.clone(),
                    approved,
                    reason,
                };
                let handed = if approved {
                    // The token is spent only once the agent took the approval.
                    let expected = Expected { run_id, request_id: &request_id, action: action.as_deref() };
                    let approval = decision(true, reason.clone());
                    match self.approvals.redeem(approval_token.as_deref(), expected, |_| hand_over(approval)) {
                        Ok(_) => Ok(CommandOutcome::Accepted),
                        Err(RedeemError::HandOver(e)) => Err(e),
                        // Without a valid token the action is refused: the agent is told no.
                        Err(RedeemError::Token(e)) => {
                            tracing::warn!(%approval_id, error = %e, "refusing an approval whose token does not verify");
                            let denial = decision(false, Some(format!("refused by the connector: {e}")));
                            hand_over(denial).map(|()| rejected(format!("invalid approval token: {e}")))
                        }
                    }
                } else {
                    hand_over(decision(false, reason)).map(|()| CommandOutcome::Accepted)
                };
                match handed {
                    Ok(outcome) => {
                        lock(&self.approval_requests).remove(&key);
                        outcome.into()
                    }
                    Err(e) => Executed::NotYet(format!("the agent did not take the decision: {e}")),
                }
            }
            Command::Resume { run_id, attempt_id, agent_id, session_id, input, context, budget, skills } => {
                let spec = RunSpec { run_id, attempt_id, agent_id, input, context, budget, ..RunSpec::default() };
                self.launch(spec, &skills, Some(Capability::NativeResume), move |adapter, spec, events| {
                    adapter.resume(spec, &session_id, events)
                })
            }
            Command::HandoffIngest { run_id, attempt_id, agent_id, bundle, budget, skills } => {
                // The target starts from the bundle: the original input, and the bundle as its context.
                let input = bundle.get("input").cloned().unwrap_or(Value::Null);
                let spec =
                    RunSpec { run_id, attempt_id, agent_id, input, context: bundle, budget, ..RunSpec::default() };
                self.launch(spec, &skills, None, |adapter, spec, events| adapter.ingest_handoff(spec, events))
            }
        }
    }

    /// The refusal for an operation on a run that is not active here: the capability is missing if
    /// no agent of this connector has it, else the run is unknown.
    fn not_active(&self, run_id: Uuid, capability: Capability) -> CommandOutcome {
        if self.agents.iter().any(|a| a.adapter.has(capability)) {
            rejected(format!("run {run_id} is not active on this connector"))
        } else {
            missing(capability)
        }
    }

    /// Starts a run attempt through the agent's adapter (`start`, `resume` or `ingest_handoff`):
    /// spooled before the process starts, so a restart knows about it; refused when the spool is full.
    /// `skills` are those the command names: an agent whose runtime reads skills gets them as
    /// `fetch_skills` checked them; any other runs without them.
    fn launch(
        self: &Arc<Self>,
        mut spec: RunSpec,
        skills: &[RunSkill],
        needs: Option<Capability>,
        start: impl FnOnce(&dyn Adapter, RunSpec, EventSink) -> Result<Box<dyn NativeRun>, AdapterError>,
    ) -> Executed {
        let RunSpec { run_id, attempt_id, agent_id, .. } = spec;
        let Some(agent) = lock(&self.agent_ids).get(&agent_id).copied() else {
            return rejected(format!("unknown agent {agent_id}: this connector does not offer it")).into();
        };
        let adapter = self.agents[agent].adapter.clone();
        if !skills.is_empty() {
            if !adapter.reads_skills() {
                tracing::warn!(%run_id, skills = skills.len(), "the agent's runtime reads no skills; it runs without the run's skills");
            } else {
                match lock(&self.fetched_skills).remove(&attempt_id) {
                    Some(fetched) => spec.skills = fetched,
                    None => return Executed::NotYet("the run's skills are not fetched yet".into()),
                }
            }
        }
        self.start_attempt(spec, agent, &adapter, needs, start).into()
    }

    fn start_attempt(
        self: &Arc<Self>,
        mut spec: RunSpec,
        agent: usize,
        adapter: &Arc<dyn Adapter>,
        needs: Option<Capability>,
        start: impl FnOnce(&dyn Adapter, RunSpec, EventSink) -> Result<Box<dyn NativeRun>, AdapterError>,
    ) -> CommandOutcome {
        let RunSpec { run_id, attempt_id, agent_id, .. } = spec;
        if let Some(capability) = needs
            && !adapter.has(capability)
        {
            return missing(capability);
        }
        // Only measured usage can hold a run to a budget.
        if spec.budget.is_some() && !self.metered(&self.agents[agent]) {
            return missing(Capability::UsageExact);
        }
        let mut runs = lock(&self.runs);
        if let Some(active) = runs.get(&run_id) {
            if active.attempt_id == attempt_id {
                tracing::info!(%run_id, %attempt_id, "the attempt is already running here");
                return CommandOutcome::Accepted;
            }
            // The control plane gave the run a new attempt: the old one lost it, so it stops now.
            tracing::warn!(%run_id, old = %active.attempt_id, "a new attempt of a run still running here; stopping the old one");
            active.native.cancel(CancelMode::Immediate);
            return rejected(format!(
                "the previous attempt {} of run {run_id} is still stopping here",
                active.attempt_id
            ));
        }
        let mut spool = lock(&self.spool);
        if spool.attempt_started(run_id, attempt_id) {
            tracing::info!(%run_id, %attempt_id, "the attempt already ran here; not starting it again");
            return CommandOutcome::Accepted;
        }
        let begun: Begun = match spool.begin_run(run_id, agent_id, attempt_id) {
            Ok(begun) => begun,
            Err(e @ SpoolError::Full { .. }) => return rejected(format!("{e}; refusing new runs")),
            Err(e) => return rejected(format!("spool: {e}")),
        };
        let (events, receiver) = mpsc::channel(EVENT_BUFFER);
        if let (Some(gateway), Some(provider)) = (&self.model_gateway, &self.agents[agent].model_provider) {
            spec.model = Some(gateway.open_run(run_id, provider, spec.budget, &events));
        }
        if let Some(tools) = self.run_tools.as_ref().filter(|_| adapter.has(Capability::Mcp)) {
            spec.tools = Some(tools.open_run(run_id, &events, self.agents[agent].workdir.clone()));
        }
        let native = match start(adapter.as_ref(), spec, events) {
            Ok(native) => native,
            Err(e) => {
                if let Some(gateway) = &self.model_gateway {
                    gateway.forget_run(run_id);
                }
                if let Some(tools) = &self.run_tools {
                    tools.close_run(run_id);
                }
                if let Err(undo) = spool.abandon_run(run_id, begun) {
                    tracing::error!(error = %undo, "could not undo the spooled run start");
                }
                return rejected(e.to_string());
            }
        };
        if let Some(pid) = native.pid()
            && let Err(e) = spool.set_process(run_id, ProcessRef { pid, start_ticks: start_ticks(pid) })
        {
            tracing::error!(error = %e, "could not record the run's process");
        }
        drop(spool);
        let changes_in = self.agents[agent].workdir.clone().filter(|_| adapter.has(Capability::Artifacts));
        let span = tracing::info_span!("run", %run_id, %attempt_id, agent = %self.agents[agent].name);
        span.in_scope(|| tracing::info!(native = %native.native_ref(), "run started"));
        runs.insert(run_id, ActiveRun { attempt_id, agent, native });
        drop(runs);
        tokio::spawn(self.clone().pump(run_id, receiver, changes_in).instrument(span));
        CommandOutcome::Accepted
    }

    /// Moves a run's events from its adapter to the spool: redacted, sequenced, in order. With
    /// `changes_in` (the agent's working directory, when its adapter reports changed files), the
    /// files the run changed there are sent as artifacts before its result.
    async fn pump(
        self: Arc<Self>,
        run_id: Uuid,
        mut events: mpsc::Receiver<adapter::AdapterEvent>,
        changes_in: Option<PathBuf>,
    ) {
        let mut streams: HashMap<String, LineRedactor> = HashMap::new();
        let mut changed = BTreeSet::new();
        let mut ended = false;
        while let Some(mut event) = events.recv().await {
            if event.kind == EventKind::FileChange
                && changes_in.is_some()
                && let Some(path) = event.data.get("path").and_then(Value::as_str)
            {
                changed.insert(path.to_owned());
            }
            if event.kind == EventKind::Result {
                // The control plane takes a run's files only until it learns of its end.
                if let Some(workdir) = &changes_in {
                    self.send_changed(run_id, workdir, std::mem::take(&mut changed)).await;
                }
                // What the model gateway still records of the run goes before its result.
                let (late, exceeded) = self.settle_metering(run_id, &mut events).await;
                for late in late {
                    let data = self.redact(&mut streams, late.kind, late.data);
                    if let Err(e) = self.append(run_id, late.kind, data).await {
                        tracing::error!(error = %e, "could not spool the run's usage");
                    }
                }
                if let Some(reason) = exceeded {
                    event.data["outcome"] = json!("failed");
                    event.data["code"] = json!(BUDGET_EXCEEDED);
                    event.data["error"] = json!(reason);
                }
            }
            let data = self.redact(&mut streams, event.kind, event.data);
            match event.kind {
                // The control plane learns of the end from this event and may start the run's next
                // attempt here at once (a handoff): by then this one must no longer count as active.
                EventKind::Result => self.forget_run(run_id),
                EventKind::ApprovalRequested => self.remember_request(run_id, &data),
                _ => {}
            }
            if let Err(e) = self.append(run_id, event.kind, data).await {
                tracing::error!(error = %e, "could not spool the run's event; the run is stopped");
                if let Some(run) = lock(&self.runs).get(&run_id) {
                    run.native.cancel(CancelMode::Immediate);
                }
                break;
            }
            if event.kind == EventKind::Result {
                ended = true;
                break;
            }
        }
        if !ended {
            self.forget_run(run_id);
            let data = json!({ "outcome": "failed", "exit_code": null, "signal": null, "error": "the adapter ended without a result" });
            if let Err(e) = self.append(run_id, EventKind::Result, data).await {
                tracing::error!(error = %e, "could not spool the run's result");
                let _ = lock(&self.spool).end_run(run_id);
            }
        }
        self.forget_run(run_id);
        self.run_ended.notify_waiters();
    }

    /// Sends the files a run changed in `workdir`, each as the next version of the artifact named
    /// by its path there. A file since deleted, or outside the directory, is not sent; nor is
    /// anything once [`CHANGED_FILES_WAIT`] has passed.
    async fn send_changed(&self, run_id: Uuid, workdir: &Path, changed: BTreeSet<String>) {
        if changed.len() > MAX_CHANGED_FILES {
            let unsent: Vec<&String> = changed.iter().skip(MAX_CHANGED_FILES).collect();
            tracing::warn!(?unsent, "the run changed more than {MAX_CHANGED_FILES} files; these are not sent");
        }
        let sending = async {
            for path in changed.iter().take(MAX_CHANGED_FILES) {
                match self.files.attach(run_id, workdir, path, None).await {
                    Ok(_) => tracing::debug!(%path, "changed file sent"),
                    Err(NotSent::Missing(_)) => tracing::debug!(%path, "a changed file is gone; not sent"),
                    Err(reason) => tracing::warn!(%path, %reason, "a changed file was not sent"),
                }
            }
        };
        if tokio::time::timeout(CHANGED_FILES_WAIT, sending).await.is_err() {
            tracing::warn!("sending the run's changed files took too long; the rest are not sent");
        }
    }

    /// The run is no longer active here, and nothing it asked for awaits an answer.
    fn forget_run(&self, run_id: Uuid) {
        lock(&self.runs).remove(&run_id);
        lock(&self.approval_requests).retain(|(run, _), _| *run != run_id);
        if let Some(gateway) = &self.model_gateway {
            gateway.forget_run(run_id);
        }
        if let Some(tools) = &self.run_tools {
            tools.close_run(run_id);
        }
    }

    /// At a run's end: waits for the model gateway to record the run's last requests, and returns
    /// the events it sent meanwhile and why the budget stopped the run, if it did.
    async fn settle_metering(
        &self,
        run_id: Uuid,
        events: &mut mpsc::Receiver<adapter::AdapterEvent>,
    ) -> (Vec<adapter::AdapterEvent>, Option<String>) {
        let Some(gateway) = &self.model_gateway else { return (Vec::new(), None) };
        let exceeded = gateway.close_run(run_id).await;
        let mut late = Vec::new();
        while let Ok(event) = events.try_recv() {
            late.push(event);
        }
        (late, exceeded)
    }

    /// Stops a run whose budget is used up; its result then says so.
    fn stop_run(&self, run_id: Uuid) {
        if let Some(run) = lock(&self.runs).get(&run_id) {
            tracing::warn!(%run_id, "stopping the run: its budget is used up");
            run.native.cancel(CancelMode::Graceful);
        }
    }

    /// An approval request about to be sent: its approval token must name exactly this action.
    fn remember_request(&self, run_id: Uuid, data: &Value) {
        let text = |key: &str| data.get(key).and_then(Value::as_str).map(str::to_owned);
        if let (Some(request_id), Some(action)) = (text("request_id"), text("action")) {
            lock(&self.approval_requests).insert((run_id, request_id), action);
        }
    }

    fn redact(&self, streams: &mut HashMap<String, LineRedactor>, kind: EventKind, mut data: Value) -> Value {
        if kind == EventKind::Output {
            let stream = data.get("stream").and_then(Value::as_str).unwrap_or_default().to_owned();
            if let Some(Value::String(line)) = data.get_mut("line") {
                *line = streams.entry(stream).or_default().redact_line(&self.redactor, line);
            }
        }
        self.redactor.redact_value(data)
    }

    /// Spools one event, waiting while the spool is full (the run is slowed, nothing is dropped).
    async fn append(&self, run_id: Uuid, kind: EventKind, data: Value) -> Result<u64, SpoolError> {
        let mut warned = false;
        loop {
            let space = self.space_freed.notified();
            tokio::pin!(space);
            space.as_mut().enable();
            {
                let mut spool = lock(&self.spool);
                if !spool.is_full() {
                    let sequence = spool.append(run_id, kind, data)?;
                    drop(spool);
                    self.events_written.notify_one();
                    return Ok(sequence);
                }
                if !warned {
                    tracing::warn!(
                        held = spool.len(),
                        max = spool.max_events(),
                        "spool full; the run waits for acknowledgements"
                    );
                    warned = true;
                }
            }
            space.await;
        }
    }

    /// Cancels every active run.
    pub fn cancel_all(&self, mode: CancelMode) {
        for run in lock(&self.runs).values() {
            run.native.cancel(mode);
        }
    }

    /// Waits until no run is active and every run's end is in the spool, or the timeout; true
    /// when so.
    pub async fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let ended = self.run_ended.notified();
            tokio::pin!(ended);
            ended.as_mut().enable();
            if self.idle() {
                return true;
            }
            if tokio::time::timeout_at(deadline, ended).await.is_err() {
                return self.idle();
            }
        }
    }

    fn idle(&self) -> bool {
        // A run is forgotten as active just before its result is spooled.
        let none_active = lock(&self.runs).is_empty();
        none_active && lock(&self.spool).unfinished().is_empty()
    }

    /// Waits until every spooled event is acknowledged, or the timeout; true when all are.
    pub async fn wait_drained(&self, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let freed = self.space_freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            if lock(&self.spool).is_empty() {
                return true;
            }
            if tokio::time::timeout_at(deadline, freed).await.is_err() {
                return lock(&self.spool).is_empty();
            }
        }
    }

    /// The unacknowledged events of a run (for inspection and tests).
    pub fn spooled_events(&self, run_id: Uuid) -> Result<Vec<acc_protocol::Envelope>, SpoolError> {
        lock(&self.spool).unacked(run_id)
    }
}

/// Stops the runs the model gateway reports over budget, for as long as the runtime exists.
async fn stop_over_budget(runtime: std::sync::Weak<Runtime>, mut over_budget: mpsc::UnboundedReceiver<Uuid>) {
    while let Some(run_id) = over_budget.recv().await {
        let Some(runtime) = runtime.upgrade() else { return };
        runtime.stop_run(run_id);
    }
}
