//! `acc-connector doctor`: checks what a configuration needs before `run` — the credential, each
//! model provider's key, and per agent its program, the version it reports against the tested one,
//! its working directory, and the credential its runtime needs. It names environment variables,
//! never their values.

use std::path::{Path, PathBuf};

use acc_protocol::HealthStatus;
use serde::Serialize;

use crate::adapter::{self, Adapter, AdapterOptions};
use crate::config::{AgentConfig, Config};
use crate::credential;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Ok,
    /// Works, with a caveat worth knowing.
    Warn,
    /// `run` would fail, or the agent could not run.
    Fail,
}

/// One check and what it found.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// What was checked: `credential`, `provider NAME` or `agent NAME`.
    pub subject: String,
    pub check: &'static str,
    pub verdict: Verdict,
    pub detail: String,
}

fn check(subject: &str, check: &'static str, verdict: Verdict, detail: impl Into<String>) -> Check {
    Check { subject: subject.to_owned(), check, verdict, detail: detail.into() }
}

/// Every check of a configuration, in order: credential, model providers, agents.
pub fn diagnose(config: &Config) -> Vec<Check> {
    let mut checks = Vec::new();
    let path = config.credential_path();
    checks.push(match credential::read_credential(&path) {
        Ok(c) => check("credential", "enrolled", Verdict::Ok, format!("connector {} of {}", c.connector_id, c.server)),
        Err(e) => check("credential", "enrolled", Verdict::Fail, format!("{e} (run `acc-connector enroll` first?)")),
    });
    for provider in &config.model_providers {
        let subject = format!("provider {}", provider.name);
        checks.push(match (&provider.api_key_env, provider.key()) {
            (None, _) => check(&subject, "key", Verdict::Warn, "written in the configuration; prefer api_key_env"),
            (Some(variable), Some(_)) => check(&subject, "key", Verdict::Ok, format!("{variable} is set")),
            (Some(variable), None) => check(&subject, "key", Verdict::Fail, format!("{variable} is not set")),
        });
    }
    let options = AdapterOptions { cancel_grace: config.cancel_grace() };
    for agent in &config.agents {
        checks.extend(diagnose_agent(agent, options));
    }
    checks
}

/// The version the runtime reports, against its adapter's tested line.
fn version_check(subject: &str, agent: &AgentConfig, adapter: &dyn Adapter) -> Check {
    let health = adapter.health();
    let verdict = match health.status {
        HealthStatus::Healthy => Verdict::Ok,
        HealthStatus::Degraded => Verdict::Warn,
        HealthStatus::Unhealthy => Verdict::Fail,
    };
    let detail = match (health.detail, adapter.handshake().runtime_version) {
        (Some(detail), _) => detail,
        (None, Some(version)) => format!("{} {version}", agent.adapter),
        (None, None) => format!("{} (no version to check)", agent.adapter),
    };
    check(subject, "version", verdict, detail)
}

fn diagnose_agent(agent: &AgentConfig, options: AdapterOptions) -> Vec<Check> {
    let subject = format!("agent {}", agent.name);
    let mut checks = Vec::new();
    // An `http` agent runs no program: its endpoint is its model provider's.
    if !agent.command.is_empty() {
        let Some(program) = find_program(&agent.command, agent.env.get("PATH").map(String::as_str)) else {
            checks.push(check(&subject, "program", Verdict::Fail, format!("`{}` not found", agent.command)));
            return checks;
        };
        checks.push(check(&subject, "program", Verdict::Ok, program.display().to_string()));
        checks.extend(adapter::build(agent, options).ok().map(|adapter| version_check(&subject, agent, &*adapter)));
    }
    if let Some(workdir) = &agent.workdir {
        checks.push(match workdir.is_dir() {
            true => check(&subject, "workdir", Verdict::Ok, workdir.display().to_string()),
            false => check(&subject, "workdir", Verdict::Fail, format!("{} is not a directory", workdir.display())),
        });
    }
    let kind = adapter::KINDS.iter().find(|k| k.name == agent.adapter);
    checks.push(match (&agent.model_provider, kind.map(|k| k.credential_env).unwrap_or_default()) {
        (Some(provider), _) => {
            check(&subject, "model access", Verdict::Ok, format!("through the model gateway to `{provider}`"))
        }
        (None, []) => check(&subject, "model access", Verdict::Ok, "its own configuration (no model provider)"),
        (None, names) => {
            match names.iter().find(|name| agent.env.contains_key(**name) || std::env::var_os(name).is_some()) {
                Some(name) => {
                    check(&subject, "model access", Verdict::Ok, format!("{name} is set; usage only as reported"))
                }
                None => check(
                    &subject,
                    "model access",
                    Verdict::Warn,
                    format!(
                        "none of {} is set (fine if the runtime is logged in); or give it a model_provider",
                        names.join(", ")
                    ),
                ),
            }
        }
    });
    checks
}

/// The program a command names: a path as it is, else the first match on `path` (the agent's
/// own `PATH`, else the connector's).
fn find_program(command: &str, path: Option<&str>) -> Option<PathBuf> {
    let executable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if command.contains('/') {
        let path = PathBuf::from(command);
        return executable(&path).then_some(path);
    }
    let search = path.map(std::ffi::OsString::from).or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&search).map(|dir| dir.join(command)).find(|p| executable(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_programs_by_path_and_on_the_search_path() {
        assert_eq!(find_program("sh", Some("/nonexistent:/bin")), Some(PathBuf::from("/bin/sh")));
        assert_eq!(find_program("sh", Some("/nonexistent")), None);
        assert_eq!(find_program("/bin/sh", None), Some(PathBuf::from("/bin/sh")));
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "#!/bin/sh\n").unwrap();
        assert_eq!(find_program(plain.to_str().unwrap(), None), None, "not executable");
    }
}
