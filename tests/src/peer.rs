//! The Node.js peer of the benchmarks (`tests/benches/peers/yoga`): a typical graphql-yoga + graphql-ws +
//! better-sqlite3 + DataLoader server, started on acc's own SQLite database so both serve the same data.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow, bail, ensure};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Lines of the peer's log kept when it exits on its own.
const LOG_TAIL_LINES: usize = 15;

/// The peer's package: its `package.json`, lock and `server.mjs`.
pub fn package_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers/yoga")
}

/// Whether a benchmark measures the peer, and with which Node.js (its `node --version`). `ACC_BENCH_PEER` says
/// (`1`/`0`); unset, the peer runs when `node` does. Says on stdout why it is skipped.
pub async fn node_for_peer() -> Result<Option<String>> {
    let wanted = match std::env::var("ACC_BENCH_PEER") {
        Ok(value) => match value.trim() {
            "1" | "true" | "yes" | "on" => Some(true),
            "0" | "false" | "no" | "off" => Some(false),
            other => bail!("ACC_BENCH_PEER={other:?}: expected 1 or 0"),
        },
        Err(_) => None,
    };
    if wanted == Some(false) {
        println!("ACC_BENCH_PEER=0: the graphql-yoga peer is skipped");
        return Ok(None);
    }
    match Command::new("node").arg("--version").stdin(Stdio::null()).output().await {
        Ok(output) if output.status.success() => Ok(Some(String::from_utf8_lossy(&output.stdout).trim().to_owned())),
        result => {
            let reason = match result {
                Ok(output) => format!("`node --version` failed: {}", String::from_utf8_lossy(&output.stderr).trim()),
                Err(e) => format!("node is not installed ({e})"),
            };
            ensure!(wanted.is_none(), "ACC_BENCH_PEER=1 but {reason}");
            println!("{reason}: the graphql-yoga peer is skipped");
            Ok(None)
        }
    }
}

/// A running peer, killed when dropped.
pub struct Peer {
    child: Child,
    pub pid: u32,
    /// GraphQL over HTTP, and graphql-transport-ws at the same path.
    pub graphql_url: String,
    pub ws_url: String,
    /// `POST` run events here: `{"runId", "sequence", "data"}` or an array of them.
    pub publish_url: String,
    log: PathBuf,
}

impl Peer {
    /// Installs the peer's packages if they are missing (`npm ci`), then starts `node server.mjs` on `database`
    /// (acc's `acc.db`), its stderr going to `log`.
    pub async fn start(database: &Path, log: &Path) -> Result<Self> {
        let dir = package_dir();
        if !dir.join("node_modules").exists() {
            install(&dir).await?;
        }
        let log_file = std::fs::File::create(log).with_context(|| format!("cannot create {}", log.display()))?;
        let mut child = Command::new("node")
            .arg("server.mjs")
            .current_dir(&dir)
            .env("PEER_DATABASE", database)
            .env("PEER_PORT", "0")
            // As a Node.js service is deployed (acc is measured as its release build).
            .env("NODE_ENV", "production")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file)
            .kill_on_drop(true)
            .spawn()
            .context("cannot start node server.mjs")?;
        let pid = child.id().context("the peer has no pid")?;
        let stdout = child.stdout.take().context("no stdout from the peer")?;
        let mut lines = BufReader::new(stdout).lines();
        let banner = async {
            while let Some(line) = lines.next_line().await? {
                if let Some(url) = line.strip_prefix("PEER: ") {
                    return Ok(url.trim().to_owned());
                }
            }
            Err(anyhow!("the peer exited before printing its URL"))
        };
        let graphql_url = match tokio::time::timeout(Duration::from_secs(60), banner).await {
            Ok(Ok(url)) => url,
            failure => {
                let _ = child.kill().await;
                let error = match failure {
                    Ok(Err(e)) => e,
                    _ => anyhow!("the peer printed no URL within 60 s"),
                };
                let tail = std::fs::read_to_string(log).unwrap_or_default();
                return Err(error.context(format!("starting the peer failed; its log:\n{tail}")));
            }
        };
        // Keep draining stdout so the peer never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let ws_url = graphql_url.replacen("http", "ws", 1);
        let publish_url = format!("{}/publish", graphql_url.trim_end_matches("/graphql"));
        println!("peer listening: {graphql_url} (pid {pid})");
        Ok(Self { child, pid, graphql_url, ws_url, publish_url, log: log.to_owned() })
    }

    /// `None` while the process runs; once it has exited, how, with the end of its log (the log itself goes with
    /// the benchmark's temporary directory).
    pub fn exited(&mut self) -> Option<String> {
        let status = match self.child.try_wait() {
            Ok(None) => return None,
            Ok(Some(status)) => status.to_string(),
            Err(e) => format!("cannot tell how: {e}"),
        };
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = lines[lines.len().saturating_sub(LOG_TAIL_LINES)..].join("\n");
        Some(format!("{status}; its log ends with:\n{tail}"))
    }

    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// `npm ci` in the peer's directory: the exact versions of its lock (better-sqlite3 compiles, which takes minutes).
async fn install(dir: &Path) -> Result<()> {
    println!("{}: node_modules is missing, running npm ci (this compiles better-sqlite3)", dir.display());
    let output = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .await
        .context("cannot run npm (is it installed with node?)")?;
    ensure!(
        output.status.success(),
        "npm ci failed in {}:\n{}{}",
        dir.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(())
}
