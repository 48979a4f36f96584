//! Composition root: builds the services, the schema and the router from a [`Config`].

use std::sync::Arc;

use sea_orm::DatabaseConnection;

use std::time::Duration;

use crate::approvals::ApprovalService;
use crate::artifacts::{ArtifactService, ArtifactStore};
use crate::audit::AuditLog;
use crate::broker::Broker;
use crate::candidates::CandidateService;
use crate::config::Config;
use crate::context::ContextBroker;
use crate::db::{Pool, Reads, Store};
use crate::gateway::GatewayService;
use crate::gateway::ca::ConnectorCa;
use crate::graphql::fanout::SubscriptionFanout;
use crate::graphql::{AppSchema, build_schema};
use crate::http::metrics::Metrics;
use crate::http::{AppState, WebClient, router};
use crate::identity::keys::{KeyPurpose, SigningKeys};
use crate::identity::login_limiter::LoginLimiter;
use crate::identity::oidc::OidcProviders;
use crate::identity::{Bootstrap, IdentityService, SignInRules, secrets};
use crate::memory::{MemoryService, VectorSearch};
use crate::notifications::NotificationService;
use crate::notifications::email::Mailer;
use crate::notifications::outbox::Outbox;
use crate::notifications::push::Pusher;
use crate::projects::ProjectService;
use crate::run_tools::RunToolService;
use crate::runs::{RunPolicy, RunReader, RunService};
use crate::settings::SettingsService;
use crate::skills::SkillService;
use crate::usage::UsageService;
use crate::wiki::WikiService;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error("database: {0}")]
    Database(#[from] sea_orm::DbErr),
    #[error(transparent)]
    Keys(#[from] crate::identity::keys::KeyError),
    #[error(transparent)]
    ConnectorCa(#[from] crate::gateway::ca::CaError),
    #[error(transparent)]
    ArtifactStore(#[from] crate::artifacts::StoreError),
    #[error(transparent)]
    Mailer(#[from] crate::notifications::email::MailerError),
    #[error(transparent)]
    Push(#[from] crate::notifications::push::PushError),
    #[error("data dir {path}: {source}")]
    DataDir { path: std::path::PathBuf, source: std::io::Error },
}

/// The domain services, shared by every request.
#[derive(Clone)]
pub struct Services {
    pub identity: IdentityService,
    pub projects: ProjectService,
    pub settings: SettingsService,
    pub memory: MemoryService,
    pub artifacts: ArtifactService,
    pub wiki: WikiService,
    /// Every decision someone asked a person for.
    pub approvals: ApprovalService,
    pub skills: SkillService,
    pub candidates: CandidateService,
    /// What runs used, and the budgets that limit it.
    pub usage: UsageService,
    /// What people are told: a decision waits, a run failed, a budget is nearly spent.
    pub notifications: NotificationService,
    /// The tamper-evident record of security and lifecycle actions.
    pub audit: AuditLog,
    /// What each run's agent starts with.
    pub context: ContextBroker,
    pub gateway: GatewayService,
    /// The commands that change runs.
    pub runs: RunService,
    /// What a caller may read of runs.
    pub run_reader: RunReader,
    /// What agents ask of the control plane during their runs.
    pub run_tools: RunToolService,
    pub broker: Broker,
    pub limits: Arc<crate::config::Limits>,
}

pub struct App {
    pub state: AppState,
    /// The bootstrap code, while no account exists.
    pub bootstrap_code: Option<String>,
    /// Where the web client's pages come from, served at `/`.
    pub web: WebClient,
    /// Whether the server speaks TLS, which browsers are then told to insist on (HSTS).
    pub tls: bool,
    /// Other origins whose pages may call the API (the desktop and Android apps).
    pub allowed_origins: Vec<String>,
}

impl App {
    /// Opens the data dir and database, applies migrations and wires the services.
    pub async fn build(config: &Config) -> Result<Self, StartError> {
        create_private_dir(&config.data_dir)
            .map_err(|source| StartError::DataDir { path: config.data_dir.clone(), source })?;
        let db = crate::db::connect(&config.database_url()).await?;
        crate::db::migrate(&db).await?;
        Self::assemble(config, db).await
    }

    /// Wires the services over an open, migrated database.
    pub async fn assemble(config: &Config, db: DatabaseConnection) -> Result<Self, StartError> {
        let reads = Reads::for_database(&db, crate::db::sqlite_file(&config.database_url()).as_deref());
        Self::assemble_with_reads(config, db, reads).await
    }

    /// [`Self::assemble`], with the reads given (tests count their statements).
    pub async fn assemble_with_reads(
        config: &Config,
        db: DatabaseConnection,
        reads: Reads,
    ) -> Result<Self, StartError> {
        let mut pool = Pool::new(db.clone());
        if let Some(counter) = reads.counter() {
            pool = pool.counted(counter);
        }
        let store = Store { pool: pool.clone(), reads };
        let keys_for = |purpose| SigningKeys::load_or_create(&config.data_dir, purpose, config.token_lifetime(purpose));
        let keys = Arc::new(keys_for(KeyPurpose::Access)?);
        let approval_keys = Arc::new(keys_for(KeyPurpose::Approval)?);
        let audit = AuditLog::new(&store, Arc::new(keys_for(KeyPurpose::Audit)?));
        let limiter = Arc::new(LoginLimiter::new(
            config.limits.login_attempts_per_minute_per_account,
            config.limits.login_attempts_per_minute_per_address,
        ));
        let bootstrap = Arc::new(Bootstrap::new(None));
        let broker = Broker::new();
        let connector_ca = Arc::new(ConnectorCa::load_or_create(&config.data_dir)?);
        let heartbeat = Duration::from_millis(config.runs.heartbeat_interval_ms);
        let gateway = GatewayService::new(pool.clone(), broker.clone(), connector_ca, heartbeat, audit.clone());
        let timings = &config.runs;
        let policy = RunPolicy {
            cancel_timeout: Duration::from_millis(timings.cancel_timeout_ms),
            lease: Duration::from_millis(timings.lease_ms),
            max_attempts: timings.max_attempts,
            retry_backoff: Duration::from_millis(timings.retry_backoff_ms),
            approval_timeout: Duration::from_millis(timings.approval_timeout_ms),
            approval_token: Duration::from_millis(timings.approval_token_ms),
        };
        let settings = SettingsService::new(pool.clone(), audit.clone());
        let projects = ProjectService::new(
            store.clone(),
            broker.clone(),
            settings.clone(),
            audit.clone(),
            config.limits.max_page_size,
        );
        let run_reader = RunReader::new(db.clone(), store.reads.clone(), broker.clone(), config.limits.max_page_size);
        // One embedding model, loaded once, for memory and the wiki.
        let vectors = Arc::new(VectorSearch::default());
        let memory = MemoryService::new(store.clone(), broker.clone(), vectors.clone(), audit.clone());
        let mailer = match (&config.smtp, &config.public_url) {
            (Some(smtp), Some(public_url)) => Some(Mailer::new(smtp, public_url)?),
            _ => None,
        };
        let pusher =
            Pusher::open(&config.data_dir.join("keys"), config.push_contact(), &config.push.allowed_endpoints)?;
        let outbox = Outbox::new(pool.clone(), mailer, pusher);
        let notifications =
            NotificationService::new(&store, broker.clone(), audit.clone(), outbox, config.limits.max_page_size);
        let approvals = ApprovalService::new(
            &store,
            broker.clone(),
            config.limits.max_page_size,
            audit.clone(),
            notifications.clone(),
        );
        let bytes = ArtifactStore::open(&config.artifact_store()?)?;
        let artifacts = ArtifactService::new(
            store.clone(),
            bytes.clone(),
            audit.clone(),
            config.artifacts.max_upload_bytes,
            config.limits.max_page_size,
        );
        let wiki = WikiService::new(
            store.clone(),
            broker.clone(),
            approvals.clone(),
            vectors,
            artifacts.clone(),
            audit.clone(),
            config.limits.max_page_size,
        );
        let context =
            ContextBroker::new(store.clone(), memory.clone(), wiki.clone(), settings.clone(), run_reader.clone());
        crate::context::warm_up();
        let usage = UsageService::new(&store, audit.clone(), notifications.clone());
        let runs = RunService::new(
            store.clone(),
            broker.clone(),
            gateway.clone(),
            projects.clone(),
            approval_keys,
            policy,
            run_reader.clone(),
            context.clone(),
            approvals.clone(),
            audit.clone(),
            usage.clone(),
            notifications.clone(),
        );
        // No connector is connected to a process that just started; their runs live on.
        gateway.mark_all_offline().await.map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
        let live = runs.resume_after_restart().await.map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
        if live > 0 {
            tracing::info!(live, "live runs kept: their connectors have one lease to come back for them");
        }
        let skills = SkillService::new(&store, bytes, approvals.clone(), audit.clone(), config.limits.max_page_size);
        let candidates =
            CandidateService::new(&store, settings.clone(), runs.clone(), run_reader.clone(), audit.clone());
        let rules = SignInRules {
            lifetimes: config.tokens.clone(),
            limiter,
            oidc: Arc::new(OidcProviders::new(&config.oidc)?),
        };
        let identity = IdentityService::new(store, keys, rules, bootstrap.clone(), broker.clone(), audit.clone());
        let limits = Arc::new(config.limits.clone());
        let run_tools = RunToolService::new(
            run_reader.clone(),
            runs.clone(),
            memory.clone(),
            artifacts.clone(),
            wiki.clone(),
            config.limits.run_tool_calls_per_minute_per_run,
        );
        let services = Services {
            projects,
            settings,
            memory,
            artifacts,
            wiki,
            approvals,
            skills,
            candidates,
            usage,
            notifications,
            context,
            gateway,
            runs,
            run_tools,
            run_reader,
            identity,
            audit,
            broker,
            limits,
        };
        let bootstrap_code = if services.identity.has_users().await.map_err(db_error)? {
            None
        } else {
            let code = config.bootstrap_code()?.unwrap_or_else(|| secrets::new_secret("acc_boot_"));
            bootstrap.offer(code.clone());
            Some(code)
        };
        let schema: AppSchema = build_schema(Some(services.clone()), &config.limits);
        let fanout = Arc::new(SubscriptionFanout::default());
        let metrics =
            Arc::new(Metrics::new(schema.operation_times(), fanout.clone(), services.gateway.clone(), db.clone()));
        let state = AppState {
            schema,
            services,
            db,
            max_body_bytes: config.limits.max_body_bytes,
            websocket: config.websocket.clone(),
            sockets: Default::default(),
            fanout,
            trusted_proxies: config.trusted_proxies.clone(),
            connector_certificates: crate::http::CertificateSource::new(config),
            metrics,
        };
        Ok(Self {
            state,
            bootstrap_code,
            web: WebClient::new(config.web_dir.clone()),
            tls: config.tls().is_some(),
            allowed_origins: config.allowed_origins.clone(),
        })
    }

    pub fn router(&self) -> axum::Router {
        router(self.state.clone(), self.web.clone(), &self.allowed_origins, self.tls)
    }
}

fn db_error(e: crate::identity::IdentityError) -> sea_orm::DbErr {
    sea_orm::DbErr::Custom(e.to_string())
}

/// The data dir holds the database and signing keys: only its owner may read it.
fn create_private_dir(path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let existed = path.exists();
    std::fs::create_dir_all(path)?;
    if !existed {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}
