//! Configuration: one TOML file, `ACC_*` environment overrides and command-line flags, read only here.
//!
//! Precedence, lowest first: built-in defaults, the `--config` file, `ACC_*` variables, flags.
//! A secret may be given as `<key>_file` naming a file that holds it; the file wins over the value.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration: {0}")]
    Invalid(String),
    #[error("could not read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
}

/// Everything `acc` needs to run, after all layers are merged.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// Where SQLite, signing keys and local files live.
    pub data_dir: PathBuf,
    /// Address the HTTP server binds.
    pub listen: SocketAddr,
    /// `sqlite://…` or `postgres://…`; empty means `acc.db` in the data dir.
    pub database_url: Option<String>,
    pub database_url_file: Option<PathBuf>,
    /// TLS certificate and key (PEM); required to bind a non-loopback address.
    pub tls_cert_file: Option<PathBuf>,
    pub tls_key_file: Option<PathBuf>,
    /// An operator-chosen bootstrap code for unattended installs.
    pub bootstrap_code_file: Option<PathBuf>,
    /// A built web client to serve at `/` instead of the one built into the binary.
    pub web_dir: Option<PathBuf>,
    /// Origins other than the server's own whose pages may call the GraphQL API (CORS): by
    /// default the desktop and Android apps, whose pages come from the app, not from the server.
    pub allowed_origins: Vec<String>,
    pub limits: Limits,
    pub tokens: TokenLifetimes,
    pub runs: RunSettings,
}

/// Timings of the connector gateway and the run orchestrator.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunSettings {
    /// How often connectors send heartbeats; three missed ones close the connection.
    pub heartbeat_interval_ms: u64,
    /// How long a run may stay `cancelling` before it is cancelled without the connector's word.
    pub cancel_timeout_ms: u64,
    /// An attempt's lease on its connector; every heartbeat renews it, and a lapsed one fails the attempt.
    pub lease_ms: u64,
    /// Attempts a run may have (first start and retries after a lapsed lease or a lost host), frozen per run at start.
    pub max_attempts: u32,
    /// The wait before a retry; it doubles with each further attempt.
    pub retry_backoff_ms: u64,
    /// How long an approval request waits for a person before it expires (and counts as denied).
    pub approval_timeout_ms: u64,
    /// How long an approval token is valid: long enough to reach the connector, no longer.
    pub approval_token_ms: u64,
}

impl Default for RunSettings {
    fn default() -> Self {
        Self {
            heartbeat_interval_ms: 5_000,
            cancel_timeout_ms: 30_000,
            lease_ms: 30_000,
            max_attempts: 3,
            retry_backoff_ms: 2_000,
            approval_timeout_ms: 3_600_000,
            approval_token_ms: 120_000,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Limits {
    pub max_body_bytes: usize,
    pub max_depth: usize,
    pub max_complexity: usize,
    pub max_aliases: usize,
    pub max_directives: usize,
    pub max_page_size: u64,
    pub login_attempts_per_minute_per_account: u32,
    pub login_attempts_per_minute_per_address: u32,
    pub introspection: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TokenLifetimes {
    pub access_token_seconds: i64,
    pub refresh_token_days: i64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./acc-data"),
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: None,
            database_url_file: None,
            tls_cert_file: None,
            tls_key_file: None,
            bootstrap_code_file: None,
            web_dir: None,
            allowed_origins: APP_ORIGINS.iter().map(|o| (*o).to_owned()).collect(),
            limits: Limits::default(),
            tokens: TokenLifetimes::default(),
            runs: RunSettings::default(),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 256 * 1024,
            max_depth: 12,
            max_complexity: 5_000,
            max_aliases: 30,
            max_directives: 10,
            max_page_size: 100,
            login_attempts_per_minute_per_account: 10,
            login_attempts_per_minute_per_address: 30,
            introspection: true,
        }
    }
}

impl Default for TokenLifetimes {
    fn default() -> Self {
        Self { access_token_seconds: 15 * 60, refresh_token_days: 30 }
    }
}

/// Values given on the command line; `None` leaves the lower layers in force.
#[derive(Debug, Default, Serialize)]
pub struct Overrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<SocketAddr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bootstrap_code_file: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub web_dir: Option<PathBuf>,
}

/// The origins of the web client's pages inside its wrappers: the Tauri desktop app (macOS and
/// Linux, then Windows) and the Capacitor Android app.
pub const APP_ORIGINS: &[&str] = &["tauri://localhost", "http://tauri.localhost", "https://localhost"];

/// `scheme://host[:port]`, as a browser sends it in `Origin`.
fn is_origin(origin: &str) -> bool {
    match origin.split_once("://") {
        Some((scheme, authority)) => {
            !scheme.is_empty()
                && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !authority.is_empty()
                && authority.chars().all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c))
        }
        None => false,
    }
}

impl Config {
    /// Merges defaults, the file, the environment and the flags, then resolves `*_file` secrets.
    pub fn load(file: Option<&Path>, overrides: Overrides) -> Result<Self, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        if let Some(path) = file {
            if !path.exists() {
                return Err(ConfigError::Invalid(format!("config file {} does not exist", path.display())));
            }
            figment = figment.merge(Toml::file(path));
        }
        let mut config: Config = figment
            .merge(Env::prefixed("ACC_").split("__"))
            .merge(Serialized::defaults(overrides))
            .extract()
            .map_err(|e| ConfigError::Invalid(e.to_string()))?;
        if let Some(path) = &config.database_url_file {
            config.database_url = Some(read_secret(path)?);
        }
        Ok(config)
    }

    /// The database URL in force: the configured one, or SQLite in the data dir.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) if !url.is_empty() => url.clone(),
            _ => format!("sqlite://{}?mode=rwc", self.data_dir.join("acc.db").display()),
        }
    }

    pub fn tls(&self) -> Option<(&Path, &Path)> {
        match (&self.tls_cert_file, &self.tls_key_file) {
            (Some(cert), Some(key)) => Some((cert.as_path(), key.as_path())),
            _ => None,
        }
    }

    /// Refuses settings that would expose the server unsafely.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.tls_cert_file.is_some() != self.tls_key_file.is_some() {
            return Err(ConfigError::Invalid("tls_cert_file and tls_key_file must be given together".into()));
        }
        if !self.listen.ip().is_loopback() && self.tls().is_none() {
            return Err(ConfigError::Invalid(format!(
                "refusing to listen on {} without TLS: only loopback addresses may serve plain HTTP; \
                 set tls_cert_file and tls_key_file (ACC_TLS_CERT_FILE, ACC_TLS_KEY_FILE) or listen on 127.0.0.1",
                self.listen
            )));
        }
        if let Some(dir) = &self.web_dir
            && !dir.join("index.html").is_file()
        {
            return Err(ConfigError::Invalid(format!(
                "web_dir {} has no index.html; build the web client (`npm ci && npm run build` in clients/web) or leave web_dir unset",
                dir.display()
            )));
        }
        if let Some(origin) = self.allowed_origins.iter().find(|o| !is_origin(o)) {
            return Err(ConfigError::Invalid(format!(
                "allowed_origins: {origin:?} is not an origin (scheme://host[:port], no path; `*` is not allowed)"
            )));
        }
        let runs = &self.runs;
        if runs.lease_ms < 2 * runs.heartbeat_interval_ms {
            return Err(ConfigError::Invalid(format!(
                "runs.lease_ms ({}) must be at least twice runs.heartbeat_interval_ms ({}), or every late heartbeat fails a run",
                runs.lease_ms, runs.heartbeat_interval_ms
            )));
        }
        if runs.max_attempts == 0 || runs.heartbeat_interval_ms == 0 {
            return Err(ConfigError::Invalid(
                "runs.max_attempts and runs.heartbeat_interval_ms must be positive".into(),
            ));
        }
        Ok(())
    }

    pub fn bootstrap_code(&self) -> Result<Option<String>, ConfigError> {
        self.bootstrap_code_file.as_deref().map(read_secret).transpose()
    }
}

/// Reads a secret from a file, without its trailing newline.
pub fn read_secret(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path)
        .map(|s| s.trim_end_matches(['\n', '\r']).to_owned())
        .map_err(|source| ConfigError::Read { path: path.to_owned(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_loopback_without_tls_is_refused() {
        let config = Config { listen: "0.0.0.0:8080".parse().unwrap(), ..Config::default() };
        let err = config.validate().unwrap_err().to_string();
        assert!(err.contains("without TLS"), "{err}");
    }

    #[test]
    fn a_lease_shorter_than_two_heartbeats_is_refused() {
        let mut config = Config::default();
        config.runs.lease_ms = config.runs.heartbeat_interval_ms;
        let err = config.validate().unwrap_err().to_string();
        assert!(err.contains("runs.lease_ms"), "{err}");
    }

    #[test]
    fn loopback_plain_http_is_allowed() {
        Config::default().validate().unwrap();
    }

    #[test]
    fn file_then_flags_layering() {
        let dir = std::env::temp_dir().join(format!("acc-config-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("acc.toml");
        std::fs::write(&file, "listen = \"127.0.0.1:9000\"\ndata_dir = \"/tmp/x\"\n[limits]\nmax_depth = 5\n").unwrap();
        let config =
            Config::load(Some(&file), Overrides { data_dir: Some("/tmp/y".into()), ..Overrides::default() }).unwrap();
        assert_eq!(config.listen.port(), 9000);
        assert_eq!(config.data_dir, PathBuf::from("/tmp/y"));
        assert_eq!(config.limits.max_depth, 5);
        assert_eq!(config.limits.max_aliases, Limits::default().max_aliases);
    }

    #[test]
    fn a_web_dir_without_a_build_is_refused() {
        let dir = std::env::temp_dir().join(format!("acc-web-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = Config { web_dir: Some(dir.clone()), ..Config::default() };
        let err = config.validate().unwrap_err().to_string();
        assert!(err.contains("has no index.html"), "{err}");
        std::fs::write(dir.join("index.html"), "<!doctype html>").unwrap();
        config.validate().unwrap();
    }

    #[test]
    fn secret_from_file_drops_newline() {
        let path = std::env::temp_dir().join(format!("acc-secret-{}", uuid::Uuid::now_v7()));
        std::fs::write(&path, "postgres://x\n").unwrap();
        assert_eq!(read_secret(&path).unwrap(), "postgres://x");
    }
}
