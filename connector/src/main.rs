//! `acc-connector`: enrolls with a control plane, then runs its agents and streams their events.

#![deny(clippy::unwrap_used)]

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use acc_connector::adapter::KINDS;
use acc_connector::config::{Config, DEFAULT_CREDENTIAL_PATH};
use acc_connector::connection::{self, Identity};
use acc_connector::credential::write_credential;
use acc_connector::doctor::{self, Verdict};
use acc_connector::enroll;
use acc_connector::runtime::Runtime;
use acc_protocol::CancelMode;
use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use tokio::sync::watch;

#[derive(Parser)]
#[command(name = "acc-connector", version, about = "Runs agents for an Agent Control Center control plane")]
struct Cli {
    /// Log format on stderr (the level comes from RUST_LOG, default `info`).
    #[arg(long, value_enum, default_value_t = LogFormat::Text, global = true, env = "ACC_CONNECTOR_LOG_FORMAT")]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Clone, Copy, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Cmd {
    /// Exchange a single-use enrollment token for this connector's credential.
    Enroll {
        /// The control plane, e.g. https://acc.example.com
        #[arg(long)]
        server: String,
        /// The enrollment token (also read from ACC_ENROLL_TOKEN, which keeps it out of `ps`).
        #[arg(long, env = "ACC_ENROLL_TOKEN", hide_env_values = true)]
        token: String,
        /// The connector's name in the control plane (default: this host's name).
        #[arg(long)]
        name: Option<String>,
        /// Where to store the credential.
        #[arg(long, default_value = DEFAULT_CREDENTIAL_PATH)]
        credential: PathBuf,
        /// Replace an existing credential at that path.
        #[arg(long)]
        force: bool,
        /// A CA certificate (PEM) to trust for the server besides the system's (a private CA).
        #[arg(long)]
        server_ca: Option<PathBuf>,
    },
    /// Connect to the control plane and run agents until stopped (SIGINT/SIGTERM).
    Run {
        /// The TOML configuration file.
        #[arg(long)]
        config: PathBuf,
    },
    /// Check a configuration before running it: the credential, model providers' keys, and each
    /// agent's program, version, workdir and model access (names of variables, never values).
    Doctor {
        /// The TOML configuration file.
        #[arg(long)]
        config: PathBuf,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the built-in adapters and their capabilities.
    Adapters {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
}

fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colour codes only for a person at a terminal, never into a log file or a journal.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    init_logging(cli.log_format);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(dispatch(cli.command)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn dispatch(command: Cmd) -> anyhow::Result<()> {
    // Both rustls providers can end up compiled in (the workspace enables aws-lc-rs, reqwest ring);
    // choose one explicitly so neither TLS client panics. An error means one is already installed.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    match command {
        Cmd::Enroll { server, token, name, credential, force, server_ca } => {
            enroll_command(&server, &token, name, &credential, force, server_ca.as_deref()).await
        }
        Cmd::Run { config } => run_command(&config).await,
        Cmd::Adapters { json } => {
            adapters_command(json);
            Ok(())
        }
        Cmd::Doctor { config, json } => doctor_command(&config, json),
    }
}

fn doctor_command(config_path: &std::path::Path, json: bool) -> anyhow::Result<()> {
    let config = Config::load(config_path)?;
    let checks = doctor::diagnose(&config);
    if json {
        println!("{}", serde_json::to_string_pretty(&checks)?);
    } else {
        for c in &checks {
            let verdict = match c.verdict {
                Verdict::Ok => "ok",
                Verdict::Warn => "warn",
                Verdict::Fail => "FAIL",
            };
            println!("{verdict:<5} {:<24} {:<13} {}", c.subject, c.check, c.detail);
        }
    }
    let failed = checks.iter().filter(|c| c.verdict == Verdict::Fail).count();
    if failed > 0 {
        anyhow::bail!("{failed} check(s) failed");
    }
    Ok(())
}

async fn enroll_command(
    server: &str,
    token: &str,
    name: Option<String>,
    path: &std::path::Path,
    force: bool,
    server_ca: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    if !force && path.exists() {
        anyhow::bail!("a credential already exists at {}; pass --force to replace it", path.display());
    }
    let name = name.unwrap_or_else(enroll::default_name);
    let credential = enroll::enroll(server, token, &name, server_ca).await?;
    write_credential(path, &credential, force)
        .with_context(|| format!("storing the credential at {}", path.display()))?;
    println!(
        "enrolled connector {} as `{name}`; credential stored at {} (owner-only)",
        credential.connector_id,
        path.display()
    );
    Ok(())
}

fn adapters_command(json: bool) {
    if json {
        let list: Vec<serde_json::Value> = KINDS
            .iter()
            .map(|k| {
                serde_json::json!({
                    "adapter": k.name,
                    "version": acc_connector::VERSION,
                    "capabilities": k.capabilities.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
                    "description": k.description,
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(list));
        return;
    }
    for kind in KINDS {
        let caps: Vec<&str> = kind.capabilities.iter().map(|c| c.as_str()).collect();
        println!("{}\t{}\tcapabilities: {}", kind.name, acc_connector::VERSION, caps.join(", "));
        println!("\t{}", kind.description);
    }
}

async fn run_command(config_path: &std::path::Path) -> anyhow::Result<()> {
    let config = Config::load(config_path)?;
    let identity = Identity::from_config(&config);
    let target = identity.load().context("reading the credential (run `acc-connector enroll` first?)")?;
    let runtime = Runtime::open(&config, target.connector_id).await?;
    tracing::info!(
        connector_id = %target.connector_id,
        url = %target.url,
        agents = runtime.agents().len(),
        spooled = runtime.spooled(),
        "acc-connector starting"
    );
    let (stop, stopped) = watch::channel(false);
    let connection = tokio::spawn(connection::run(runtime.clone(), identity, target, stopped.clone()));
    let syncer = tokio::spawn(sync_spool(runtime.clone(), stopped));

    wait_for_stop_signal().await?;
    tracing::info!(active = runtime.active_runs().len(), "stopping: cancelling active runs");
    runtime.cancel_all(CancelMode::Graceful);
    if !runtime.wait_idle(config.cancel_grace() + Duration::from_secs(5)).await {
        tracing::warn!("some runs did not end in time");
    }
    if !runtime.wait_drained(Duration::from_secs(3)).await {
        tracing::info!(spooled = runtime.spooled(), "events not yet acknowledged stay in the spool for the next start");
    }
    let _ = stop.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(3), connection).await;
    let _ = syncer.await;
    runtime.sync_spool()?;
    tracing::info!("stopped");
    Ok(())
}

/// Flushes the spool to stable storage regularly (events are written at once, synced in batches).
async fn sync_spool(runtime: Arc<Runtime>, mut stopped: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopped.changed() => return,
        }
        if let Err(e) = runtime.sync_spool() {
            tracing::error!(error = %e, "could not sync the spool");
        }
    }
}

async fn wait_for_stop_signal() -> anyhow::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
    let mut interrupt = signal(SignalKind::interrupt()).context("installing the SIGINT handler")?;
    tokio::select! {
        _ = terminate.recv() => tracing::info!("SIGTERM"),
        _ = interrupt.recv() => tracing::info!("SIGINT"),
    }
    Ok(())
}
