//! The `acc-connector run` configuration file (TOML): where the credential and the spool live,
//! what to redact, how long a graceful cancel waits, and which agents the connector offers.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::adapter;

/// Where `enroll` stores the credential and `run` looks for it when the config names none.
pub const DEFAULT_CREDENTIAL_PATH: &str = "./acc-connector/credential.json";
/// How long a graceful cancel waits after SIGTERM before it sends SIGKILL.
pub const DEFAULT_CANCEL_GRACE_MS: u64 = 5_000;
/// How many unacknowledged events the spool holds before it refuses new runs.
pub const DEFAULT_SPOOL_MAX_EVENTS: usize = 100_000;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("invalid configuration {path}: {source}")]
    Parse { path: PathBuf, source: toml::de::Error },
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

/// The whole configuration file. Unknown keys are errors, so a typo does not silently
/// fall back to a default.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Overrides the server URL stored in the credential (for example to go through a proxy).
    #[serde(default)]
    pub server: Option<String>,
    /// A CA certificate (PEM) to trust for the server besides the system's roots (a private CA).
    #[serde(default)]
    pub server_ca: Option<PathBuf>,
    /// The credential file written by `acc-connector enroll`.
    #[serde(default)]
    pub credential: Option<PathBuf>,
    /// Where unacknowledged events and the command log are kept; defaults to `spool/` beside the credential.
    #[serde(default)]
    pub spool_dir: Option<PathBuf>,
    /// Extra regular expressions whose matches are replaced by `[REDACTED]` in every event.
    #[serde(default)]
    pub redact: Vec<String>,
    #[serde(default = "default_cancel_grace_ms")]
    pub cancel_grace_ms: u64,
    #[serde(default = "default_spool_max_events")]
    pub spool_max_events: usize,
    #[serde(default)]
    pub agents: Vec<AgentConfig>,
    /// Model providers the connector's model gateway forwards to, with credentials that stay here.
    #[serde(default)]
    pub model_providers: Vec<ModelProviderConfig>,
    #[serde(default)]
    pub model_gateway: ModelGatewayConfig,
}

/// One `[[model_providers]]` table: an upstream model API and its credential.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelProviderConfig {
    /// What agents name in `model_provider`.
    pub name: String,
    pub api: ModelApi,
    /// The provider's base URL, e.g. `https://api.anthropic.com`.
    pub upstream: String,
    /// The credential itself; prefer `api_key_env`.
    #[serde(default)]
    pub api_key: Option<String>,
    /// The connector's environment variable that holds the credential.
    #[serde(default)]
    pub api_key_env: Option<String>,
}

impl ModelProviderConfig {
    /// The credential: as written, or from the connector's environment (`None` if that is unset).
    pub fn key(&self) -> Option<String> {
        self.api_key.clone().or_else(|| std::env::var(self.api_key_env.as_deref()?).ok())
    }
}

/// The wire API of a model provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelApi {
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Responses and Chat Completions.
    Openai,
    /// Gemini `generateContent` / `streamGenerateContent`.
    Gemini,
}

impl ModelApi {
    pub fn as_str(self) -> &'static str {
        match self {
            ModelApi::Anthropic => "anthropic",
            ModelApi::Openai => "openai",
            ModelApi::Gemini => "gemini",
        }
    }
}

/// The `[model_gateway]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelGatewayConfig {
    /// Where the gateway listens; a loopback address with a port chosen by the system by default.
    #[serde(default)]
    pub listen: Option<std::net::SocketAddr>,
    /// Prices that add to or override the built-in table (per million tokens, US dollars).
    #[serde(default)]
    pub prices: Vec<crate::model_gateway::Price>,
}

/// One `[[agents]]` table: an agent the connector offers, run through an adapter.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentConfig {
    /// Unique within the connector; the control plane keys the agent on (connector, name).
    pub name: String,
    /// Which adapter runs it; `command` is the only one today.
    pub adapter: String,
    /// The program to run (looked up on `PATH` when it has no slash); not for `http` agents.
    #[serde(default)]
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Added to the connector's own environment for every run.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    #[serde(default)]
    pub workdir: Option<PathBuf>,
    /// The program speaks the connector's control lines (docs/connector.md): it may ask for
    /// approvals and save checkpoints, and its stdin stays open for the answers. Declares the
    /// `approvals` and `checkpoint` capabilities.
    #[serde(default)]
    pub interactive: bool,
    /// A `[[model_providers]]` name: the runtime is launched pointed at the connector's model
    /// gateway, which measures every model request (declares `usage_exact`) and enforces budgets.
    #[serde(default)]
    pub model_provider: Option<String>,
    /// The model an `http` agent asks its provider for; for `openclaw`, the model its agent uses
    /// (through `model_provider`, or as OpenClaw names it).
    #[serde(default)]
    pub model: Option<String>,
}

fn default_cancel_grace_ms() -> u64 {
    DEFAULT_CANCEL_GRACE_MS
}

fn default_spool_max_events() -> usize {
    DEFAULT_SPOOL_MAX_EVENTS
}

impl Config {
    /// Reads and validates a configuration file.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
        let config: Config =
            toml::from_str(&text).map_err(|source| ConfigError::Parse { path: path.to_owned(), source })?;
        config.validate()?;
        Ok(config)
    }

    /// Parses and validates configuration text (the file's content).
    pub fn from_toml(text: &str) -> Result<Self, ConfigError> {
        let config: Config =
            toml::from_str(text).map_err(|source| ConfigError::Parse { path: PathBuf::from("<inline>"), source })?;
        config.validate()?;
        Ok(config)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.spool_max_events == 0 {
            return Err(ConfigError::Invalid("spool_max_events must be at least 1".into()));
        }
        if let Some(server) = &self.server {
            crate::enroll::normalize_server(server).map_err(|e| ConfigError::Invalid(e.to_string()))?;
        }
        let mut names = HashSet::new();
        for agent in &self.agents {
            if agent.name.trim().is_empty() {
                return Err(ConfigError::Invalid("an agent has an empty name".into()));
            }
            if !names.insert(agent.name.as_str()) {
                return Err(ConfigError::Invalid(format!("agent name `{}` is used twice", agent.name)));
            }
            if !adapter::KINDS.iter().any(|k| k.name == agent.adapter) {
                let known: Vec<&str> = adapter::KINDS.iter().map(|k| k.name).collect();
                return Err(ConfigError::Invalid(format!(
                    "agent `{}`: unknown adapter `{}` (known: {})",
                    agent.name,
                    agent.adapter,
                    known.join(", ")
                )));
            }
            if agent.adapter == adapter::http::KIND.name {
                if agent.model_provider.is_none() || agent.model.is_none() {
                    return Err(ConfigError::Invalid(format!(
                        "agent `{}`: an `http` agent needs model_provider and model",
                        agent.name
                    )));
                }
            } else if agent.command.trim().is_empty() {
                return Err(ConfigError::Invalid(format!("agent `{}`: command is empty", agent.name)));
            }
            if agent.env.keys().any(|k| k.is_empty() || k.contains('=')) {
                return Err(ConfigError::Invalid(format!("agent `{}`: an env name is empty or has `=`", agent.name)));
            }
            if let Some(name) = &agent.model_provider {
                let provider = self.model_providers.iter().find(|p| &p.name == name).ok_or_else(|| {
                    ConfigError::Invalid(format!("agent `{}`: no model provider named `{name}`", agent.name))
                })?;
                let speaks = adapter::KINDS.iter().find(|k| k.name == agent.adapter).and_then(|k| k.model_api);
                if speaks.is_some_and(|api| api != provider.api) {
                    return Err(ConfigError::Invalid(format!(
                        "agent `{}`: adapter `{}` speaks another model API than provider `{name}` ({})",
                        agent.name,
                        agent.adapter,
                        provider.api.as_str()
                    )));
                }
            }
        }
        let mut providers = HashSet::new();
        for provider in &self.model_providers {
            if !providers.insert(provider.name.as_str()) {
                return Err(ConfigError::Invalid(format!("model provider `{}` is named twice", provider.name)));
            }
            let url = reqwest::Url::parse(&provider.upstream).ok().filter(|u| matches!(u.scheme(), "http" | "https"));
            if url.is_none() {
                return Err(ConfigError::Invalid(format!(
                    "model provider `{}`: upstream `{}` is not an http(s) URL",
                    provider.name, provider.upstream
                )));
            }
            if provider.api_key.is_some() == provider.api_key_env.is_some() {
                return Err(ConfigError::Invalid(format!(
                    "model provider `{}`: set exactly one of api_key and api_key_env",
                    provider.name
                )));
            }
        }
        Ok(())
    }

    /// The credential file, as configured or the default.
    pub fn credential_path(&self) -> PathBuf {
        self.credential.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_CREDENTIAL_PATH))
    }

    /// The spool directory, as configured or `spool/` beside the credential.
    pub fn spool_dir(&self) -> PathBuf {
        self.spool_dir.clone().unwrap_or_else(|| credential_dir(&self.credential_path()).join("spool"))
    }

    /// The spool key, always beside the credential.
    pub fn spool_key_path(&self) -> PathBuf {
        credential_dir(&self.credential_path()).join("spool.key")
    }

    pub fn cancel_grace(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.cancel_grace_ms)
    }
}

/// The directory holding a credential file (`.` for a bare file name).
pub fn credential_dir(credential: &Path) -> PathBuf {
    match credential.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_full_config_and_derives_paths() {
        let config = Config::from_toml(
            r#"
            credential = "/etc/acc/credential.json"
            redact = ["internal-[0-9]+"]
            cancel_grace_ms = 200
            [[agents]]
            name = "echo"
            adapter = "command"
            command = "sh"
            args = ["-c", "cat"]
            env = { FOO = "bar" }
            workdir = "/tmp"
            "#,
        )
        .unwrap();
        assert_eq!(config.agents.len(), 1);
        assert_eq!(config.agents[0].env["FOO"], "bar");
        assert_eq!(config.spool_dir(), PathBuf::from("/etc/acc/spool"));
        assert_eq!(config.spool_key_path(), PathBuf::from("/etc/acc/spool.key"));
        assert_eq!(config.spool_max_events, DEFAULT_SPOOL_MAX_EVENTS);
        assert_eq!(config.cancel_grace().as_millis(), 200);
    }

    #[test]
    fn defaults_sit_beside_the_default_credential() {
        let config = Config::from_toml("").unwrap();
        assert_eq!(config.credential_path(), PathBuf::from(DEFAULT_CREDENTIAL_PATH));
        assert_eq!(config.spool_dir(), PathBuf::from("./acc-connector/spool"));
        assert_eq!(config.cancel_grace_ms, DEFAULT_CANCEL_GRACE_MS);
    }

    #[test]
    fn rejects_typos_duplicates_and_unknown_adapters() {
        assert!(Config::from_toml("spool_dri = \"x\"").is_err());
        let dup = "[[agents]]\nname='a'\nadapter='command'\ncommand='true'\n[[agents]]\nname='a'\nadapter='command'\ncommand='true'\n";
        assert!(Config::from_toml(dup).unwrap_err().to_string().contains("used twice"));
        let unknown = "[[agents]]\nname='a'\nadapter='claude'\ncommand='claude'\n";
        assert!(Config::from_toml(unknown).unwrap_err().to_string().contains("unknown adapter"));
        assert!(Config::from_toml("spool_max_events = 0").is_err());
    }

    #[test]
    fn model_providers_are_checked_against_their_agents() {
        let provider = |api: &str, keys: &str| {
            format!("[[model_providers]]\nname = 'p'\napi = '{api}'\nupstream = 'https://api.example.com'\n{keys}\n")
        };
        let agent = |adapter: &str, provider: &str| {
            format!("[[agents]]\nname = 'a'\nadapter = '{adapter}'\ncommand = 'x'\nmodel_provider = '{provider}'\n")
        };
        let ok = Config::from_toml(&(provider("anthropic", "api_key_env = 'K'") + &agent("claude-code", "p"))).unwrap();
        assert_eq!(ok.model_providers[0].api, ModelApi::Anthropic);
        assert!(Config::from_toml(&(provider("openai", "api_key = 'k'") + &agent("command", "p"))).is_ok(), "any API");
        let error = |text: String| Config::from_toml(&text).unwrap_err().to_string();
        assert!(error(provider("openai", "api_key = 'k'") + &agent("claude-code", "p")).contains("another model API"));
        assert!(
            error(provider("anthropic", "api_key = 'k'") + &agent("claude-code", "q")).contains("no model provider")
        );
        assert!(error(provider("anthropic", "")).contains("exactly one of api_key"));
        assert!(error(provider("anthropic", "api_key = 'k'\napi_key_env = 'K'")).contains("exactly one of api_key"));
        assert!(error(provider("mistral", "api_key = 'k'")).contains("unknown variant"));
        let ftp = provider("anthropic", "api_key = 'k'").replace("https://api.example.com", "ftp://x");
        assert!(error(ftp).contains("not an http(s) URL"));
    }
}
