//! `acc`: the control plane's command line — serve, migrate, print the schema, rotate signing keys.

#![deny(clippy::unwrap_used)]

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use acc_api::app::App;
use acc_api::config::{Config, Overrides};
use acc_api::http::WebClient;
use clap::{Args, Parser, Subcommand};

/// A GraphQL response is hundreds of small values built and dropped across worker threads;
/// glibc's malloc spent about a fifth of a page of tasks on them (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "acc", version, about = "Agent Control Center: the control plane for your AI agents")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start the control plane (SQLite in ./acc-data on 127.0.0.1:8080 unless told otherwise).
    Serve(ServeArgs),
    /// Apply pending database migrations and exit.
    Migrate(CommonArgs),
    /// Print the GraphQL schema (SDL) to stdout.
    Schema,
    /// Manage the JWT signing keys in the data dir.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Manage the models acc runs itself.
    Models {
        #[command(subcommand)]
        command: ModelsCommand,
    },
}

#[derive(Subcommand)]
enum ModelsCommand {
    /// Download memory's embedding model (all-MiniLM-L6-v2, 87 MB) into the data dir, or into
    /// `memory.embedding_model_dir`, checked against the digest built into acc.
    Fetch(CommonArgs),
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Add a new access-token and approval-token signing key; tokens signed by older keys stay
    /// valid until they expire, then those keys retire.
    Rotate(CommonArgs),
}

#[derive(Args)]
struct CommonArgs {
    /// TOML configuration file.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Directory for the SQLite database, signing keys and local files.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// `sqlite://…` or `postgres://…` (default: SQLite in the data dir).
    #[arg(long)]
    database_url: Option<String>,
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Address to listen on; anything but loopback needs TLS.
    #[arg(long)]
    listen: Option<std::net::SocketAddr>,
    /// A file holding the bootstrap code to use instead of a random one.
    #[arg(long)]
    bootstrap_code_file: Option<PathBuf>,
    /// A built web client to serve at `/` instead of the one built into `acc`.
    #[arg(long)]
    web_dir: Option<PathBuf>,
}

fn load(common: &CommonArgs, serve: Option<&ServeArgs>) -> Result<Config, String> {
    let overrides = Overrides {
        data_dir: common.data_dir.clone(),
        listen: serve.and_then(|s| s.listen),
        database_url: common.database_url.clone().map(Into::into),
        bootstrap_code_file: serve.and_then(|s| s.bootstrap_code_file.clone()),
        web_dir: serve.and_then(|s| s.web_dir.clone()),
    };
    let config = Config::load(common.config.as_deref(), overrides).map_err(|e| e.to_string())?;
    config.validate().map_err(|e| e.to_string())?;
    Ok(config)
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,sea_orm=warn"));
    // Colour codes only for a person at a terminal, never into a log file or a journal.
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let config = load(&args.common, Some(&args))?;
    let app = App::build(&config).await.map_err(|e| e.to_string())?;
    app.state.connector_certificates.log(&config.trusted_proxies);
    app.state.services.runs.spawn_sweeper();
    app.state.services.memory.spawn_embedding_model(config.embedding_source().map_err(|e| e.to_string())?);
    app.state.services.wiki.spawn_embedding_backfill();
    app.state.services.audit.spawn_checkpoints();
    app.state.services.notifications.spawn_outbox();
    let listener =
        std::net::TcpListener::bind(config.listen).map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let metrics = match config.metrics.listen {
        Some(listen) => {
            Some(tokio::net::TcpListener::bind(listen).await.map_err(|e| format!("cannot listen on {listen}: {e}"))?)
        }
        None => None,
    };
    print_banner(&config, &app, address, metrics.as_ref().and_then(|m| m.local_addr().ok()));
    if let Some(metrics) = metrics {
        let router = acc_api::http::metrics_router(app.state.metrics.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(metrics, router).await {
                tracing::error!(error = %e, "the metrics listener stopped");
            }
        });
    }
    let tls = config.tls().map(|(certificate, key)| acc_api::http::tls::Tls {
        certificate: certificate.to_owned(),
        key: key.to_owned(),
        connector_ca: app.state.services.gateway.connector_ca().certificate_der(),
    });
    acc_api::http::serve(listener, app.router(), tls).await.map_err(|e| e.to_string())
}

/// What an operator needs to start using the server (SPEC §2); tests and scripts read it too.
fn print_banner(config: &Config, app: &App, address: std::net::SocketAddr, metrics: Option<std::net::SocketAddr>) {
    let (http, ws) = if app.tls { ("https", "wss") } else { ("http", "ws") };
    println!("Agent Control Center {} on {http}://{address}", env!("CARGO_PKG_VERSION"));
    println!("GraphQL: {http}://{address}/graphql");
    println!("GraphQL subscriptions: {ws}://{address}/graphql/ws");
    println!("Connectors: {ws}://{address}/v1/connectors/ws");
    println!("Database: {}", acc_api::db::backend_name(&app.state.db));
    if let Some(metrics) = metrics {
        println!("Metrics: http://{metrics}/metrics");
    }
    match &app.web {
        WebClient::Dir(dir) => println!("Web client: {http}://{address}/ (from {})", dir.display()),
        WebClient::BuiltIn => println!("Web client: {http}://{address}/ (built in)"),
        WebClient::Missing => println!(
            "Web client: not built into this acc (install Node.js 20.19+ and npm and build again, or set --web-dir)"
        ),
    }
    // A code the operator supplied in a file stays there: printed, it would land in logs.
    match (&app.bootstrap_code, &config.bootstrap_code_file) {
        (Some(_), Some(file)) => {
            println!("Bootstrap code: the one in {} (redeem once with the redeemBootstrap mutation)", file.display())
        }
        (Some(code), None) => println!("Bootstrap code (redeem once with the redeemBootstrap mutation): {code}"),
        (None, _) => {}
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Schema => {
            print!("{}", acc_api::graphql::sdl());
            Ok(())
        }
        Command::Serve(args) => {
            init_tracing();
            serve(args).await
        }
        Command::Migrate(common) => {
            init_tracing();
            async {
                let config = load(&common, None)?;
                std::fs::create_dir_all(&config.data_dir).map_err(|e| e.to_string())?;
                let db = acc_api::db::connect(&config.database_url()).await.map_err(|e| e.to_string())?;
                acc_api::db::migrate(&db).await.map_err(|e| e.to_string())?;
                println!("migrations applied");
                Ok(())
            }
            .await
        }
        Command::Models { command: ModelsCommand::Fetch(common) } => {
            async {
                use acc_api::memory::embedding;
                let config = load(&common, None)?;
                let dir = config.embedding_model_dir();
                match embedding::fetch(&config.memory.embedding_model_url, &dir).await.map_err(|e| e.to_string())? {
                    true => println!("{} fetched into {}", embedding::MODEL_NAME, dir.display()),
                    false => println!("{} is already in {}", embedding::MODEL_NAME, dir.display()),
                }
                Ok(())
            }
            .await
        }
        Command::Keys { command: KeysCommand::Rotate(common) } => load(&common, None).and_then(|config| {
            use acc_api::identity::keys::{KeyPurpose, SigningKeys};
            for purpose in KeyPurpose::ALL {
                let kid = SigningKeys::rotate(&config.data_dir, purpose, config.token_lifetime(purpose))
                    .map_err(|e| e.to_string())?;
                println!("new {} signing key {kid}", purpose.signs());
            }
            println!("restart the server to sign with them; older keys retire once their tokens have expired");
            Ok(())
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("acc: {message}");
            ExitCode::FAILURE
        }
    }
}
