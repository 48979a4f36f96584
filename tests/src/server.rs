//! Starts the real `acc` binary on a free port and stops it when dropped.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::client::Client;
use crate::database::TestDb;

/// A workspace binary next to the test executable (`cargo test --workspace` builds them).
pub fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let bin = dir.join(name);
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build --workspace --bins` or `cargo test --workspace`",
        bin.display()
    );
    bin
}

pub fn acc_binary() -> PathBuf {
    binary("acc")
}

#[derive(Default, Clone)]
pub struct ServerOptions {
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// Serve over TLS with these; clients trust their CA.
    pub tls: Option<crate::tls::TestCertificates>,
}

pub struct Server {
    child: Child,
    options: ServerOptions,
    pub url: String,
    pub ws_url: String,
    pub bootstrap_code: Option<String>,
    /// What `acc serve` printed at start, line by line.
    pub banner: Vec<String>,
    pub db: TestDb,
}

impl Server {
    pub async fn start(db: TestDb) -> Self {
        Self::start_with(db, ServerOptions::default()).await
    }

    pub async fn start_with(db: TestDb, options: ServerOptions) -> Self {
        let (child, url, code, banner) = spawn(&db, &options, "127.0.0.1:0");
        let ws_url = format!("{}/ws", url.replacen("http", "ws", 1));
        Self { child, options, url, ws_url, bootstrap_code: code, banner, db }
    }

    /// Kills the server with SIGKILL, as a crash would, and starts it again on the same data.
    pub async fn crash_and_restart(&mut self) {
        self.kill();
        self.restart().await;
    }

    /// Starts the server again after [`Server::kill`], on the same data and the same address, so
    /// connectors find it where they left it.
    pub async fn restart(&mut self) {
        let address = self.url.split("://").nth(1).and_then(|rest| rest.split('/').next()).unwrap().to_owned();
        let (child, url, code, banner) = spawn(&self.db, &self.options, &address);
        self.child = child;
        self.banner = banner;
        self.ws_url = format!("{}/ws", url.replacen("http", "ws", 1));
        self.url = url;
        self.bootstrap_code = code;
    }

    /// Stops the server and starts it again on the same data with other options, for settings
    /// that take effect only at start.
    pub async fn restart_with(&mut self, options: ServerOptions) {
        self.options = options;
        self.crash_and_restart().await;
    }

    /// The server's process id, to read what it uses from `/proc/<pid>`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn base_url(&self) -> String {
        self.url.trim_end_matches("/graphql").to_owned()
    }

    pub fn client(&self) -> Client {
        let client = Client::new(&self.url, &self.ws_url);
        match &self.options.tls {
            Some(tls) => client.trusting(&std::fs::read(&tls.ca).unwrap()),
            None => client,
        }
    }

    /// Redeems the bootstrap code: an owner of a new organization "Acme", signed in.
    pub async fn owner(&self) -> Client {
        let code = self.bootstrap_code.clone().expect("a fresh server prints a bootstrap code");
        let mut client = self.client();
        let response = client
            .gql(
                crate::op!("redeem_bootstrap"),
                serde_json::json!({"code": code, "org": "Acme", "email": "owner@acme.test", "password": crate::PASSWORD}),
            )
            .await;
        let token = response.data("redeemBootstrap")["accessToken"].as_str().unwrap().to_owned();
        client.token = Some(token);
        client
    }

    /// Stops the server at once, as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.db.dir.join("acc.log")).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts `acc serve` on `db` at `listen`; returns the process, its GraphQL URL, the bootstrap
/// code it offers (printed, or in the file it names) and the banner it printed.
fn spawn(db: &TestDb, options: &ServerOptions, listen: &str) -> (Child, String, Option<String>, Vec<String>) {
    let log = std::fs::OpenOptions::new().create(true).append(true).open(db.dir.join("acc.log")).unwrap();
    let tls_env = options.tls.as_ref().map(|t| t.env()).unwrap_or_default();
    let mut child = Command::new(acc_binary())
        .arg("serve")
        .args(["--data-dir", db.dir.to_str().unwrap(), "--listen", listen, "--database-url", &db.url])
        .args(&options.args)
        // The embedding model only where a test gives it (`crate::embedding_model_dir`).
        .env("ACC_MEMORY__FETCH_EMBEDDING_MODEL", "false")
        .env("RUST_LOG", "info,sqlx=warn")
        // A test's own settings win, its `RUST_LOG` too.
        .envs(options.env.iter().chain(&tls_env).map(|(k, v)| (k.as_str(), v.as_str())))
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut banner = Vec::new();
    // Every banner ends with the web client's line, or the bootstrap line right after it.
    while !banner.iter().any(|l: &String| l.starts_with("Web client:")) {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => banner.push(line),
            Err(_) => {
                let _ = child.kill();
                let log = std::fs::read_to_string(db.dir.join("acc.log")).unwrap_or_default();
                panic!("acc did not start:\n{log}");
            }
        }
    }
    if let Ok(line) = rx.recv_timeout(Duration::from_millis(300)) {
        banner.push(line);
    }
    let url = banner.iter().find_map(|l| l.strip_prefix("GraphQL: ")).expect("the banner names the GraphQL URL");
    let code = banner.iter().find_map(|line| {
        if let Some((_, code)) = line.split_once("redeemBootstrap mutation): ") {
            return Some(code.trim().to_owned());
        }
        // A code from a file is not printed, only where it is.
        let file = line.strip_prefix("Bootstrap code: the one in ")?.split(" (redeem").next()?;
        Some(std::fs::read_to_string(file).unwrap().trim_end().to_owned())
    });
    (child, url.trim().to_owned(), code, banner)
}
