//! What the adapters of vendor runtimes (`claude-code`, `codex`, …) share: the runtime's program
//! as configured, the version it reports, and the health that version implies.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use acc_protocol::HealthStatus;

use super::process::Launch;
use super::{AdapterError, AdapterKind, AdapterOptions, Handshake, Health, runtime_version};
use crate::config::AgentConfig;

/// A vendor runtime's program as an agent's configuration gives it.
#[derive(Debug)]
pub struct RuntimeProgram {
    program: String,
    /// Appended to the adapter's own arguments.
    args: Vec<String>,
    env: Vec<(String, String)>,
    workdir: Option<PathBuf>,
    grace: Duration,
    /// What it said its version was at start-up.
    version: Option<String>,
    /// Runs in progress.
    pub active: Arc<AtomicUsize>,
}

impl RuntimeProgram {
    /// The agent's program, with `defaults` added to its environment unless it sets them itself.
    pub fn new(agent: &AgentConfig, options: AdapterOptions, defaults: &[(&str, &str)]) -> Self {
        Self::asking_version(agent, options, defaults, &["--version"])
    }

    /// As [`RuntimeProgram::new`], for a runtime whose `--version` does more than print it: its
    /// version is asked with `version_args`.
    pub fn asking_version(
        agent: &AgentConfig,
        options: AdapterOptions,
        defaults: &[(&str, &str)],
        version_args: &[&str],
    ) -> Self {
        Self::asking_version_of(agent, options, defaults, &agent.command, version_args)
    }

    /// As [`RuntimeProgram::asking_version`], for a runtime whose own programs do not say their
    /// version: `version_program` (with `version_args`, in the agent's environment) does.
    pub fn asking_version_of(
        agent: &AgentConfig,
        options: AdapterOptions,
        defaults: &[(&str, &str)],
        version_program: &str,
        version_args: &[&str],
    ) -> Self {
        let mut env: Vec<(String, String)> = agent.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        for (key, value) in defaults {
            if !agent.env.contains_key(*key) {
                env.push(((*key).to_owned(), (*value).to_owned()));
            }
        }
        Self {
            program: agent.command.clone(),
            args: agent.args.clone(),
            version: runtime_version(version_program, version_args, &env),
            env,
            workdir: agent.workdir.clone(),
            grace: options.cancel_grace,
            active: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub fn handshake(&self, kind: &AdapterKind) -> Handshake {
        Handshake {
            adapter: kind.name,
            adapter_version: crate::VERSION.to_owned(),
            runtime_version: self.version.clone(),
            capabilities: kind.capabilities.to_vec(),
        }
    }

    /// Healthy on the tested line of versions (`tested`: a major version such as `2`, or for a
    /// 0.x runtime a minor one such as `0.171`); degraded, saying so, on another; unhealthy when
    /// the program did not even say its version.
    pub fn health(&self, runtime: &str, tested: &str) -> Health {
        let started = Instant::now();
        let (status, detail) = match self.version.as_deref() {
            None => (HealthStatus::Unhealthy, Some(format!("`{}` did not say its version", self.program))),
            Some(version) if version == tested || version.starts_with(&format!("{tested}.")) => {
                (HealthStatus::Healthy, None)
            }
            Some(version) => {
                (HealthStatus::Degraded, Some(format!("{runtime} {version} is untested (tested: {tested}.x)")))
            }
        };
        Health { status, latency: started.elapsed(), active_runs: self.active.load(Ordering::Relaxed), detail }
    }

    /// A variable of the program's environment: the agent's configuration's, else the connector's.
    pub fn env_var(&self, name: &str) -> Option<String> {
        let configured = self.env.iter().rev().find(|(key, _)| key == name).map(|(_, value)| value.clone());
        configured.or_else(|| std::env::var(name).ok())
    }

    /// The runtime's own configuration directory: `$var` when set, else `~/under_home`.
    pub fn config_dir(&self, var: &str, under_home: &str) -> Result<PathBuf, AdapterError> {
        match self.env_var(var) {
            Some(dir) => Ok(PathBuf::from(dir)),
            None => self
                .env_var("HOME")
                .map(|home| Path::new(&home).join(under_home))
                .ok_or_else(|| AdapterError::Start(format!("neither {var} nor HOME is set"))),
        }
    }

    /// A launch of the program with the adapter's `args` first, then the configured ones.
    pub fn launch(
        &self,
        args: Vec<String>,
        first_line: Option<String>,
        keep_stdin_open: bool,
        max_line_bytes: usize,
    ) -> Launch {
        Launch {
            program: self.program.clone(),
            args: args.into_iter().chain(self.args.iter().cloned()).collect(),
            env: self.env.clone(),
            workdir: self.workdir.clone(),
            first_line,
            keep_stdin_open,
            max_line_bytes,
            grace: self.grace,
        }
    }
}
