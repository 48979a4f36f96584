//! Benchmark: `tasks(first: 50)` with nested assignee and dependencies over HTTP (driven by wrk) against the raw
//! sea-orm query loop that reads the same rows from the same database, in the same run; on SQLite also against the
//! graphql-yoga peer (tests/benches/peers/yoga, Node.js) serving the same page from the same `acc.db`.
//!
//! Run with `cargo bench -p acc-tests --bench tasks_page`. `ACC_BENCH_SECONDS` sets the length of each measured run
//! (default 10); when `ACC_TEST_DATABASE_URL` names a PostgreSQL server the whole comparison is repeated there on a
//! fresh database (without the peer). `ACC_BENCH_PEER=0` skips the peer, which otherwise runs when `node` is
//! installed. `ACC_BENCH_HOLD=1` keeps the seeded server up for a profiler (see [`hold`]). Results and their
//! interpretation live in docs/benchmarks.md.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use acc_api::db::Reads;
use acc_entity::{task, task_dependency, user};
use acc_tests::peer::Peer;
use anyhow::{Context as _, Result, anyhow, bail, ensure};
use rand::SeedableRng;
use rand::rngs::StdRng;
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, FromQueryResult, Statement, Value,
};
use serde_json::{Value as Json, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use uuid::Uuid;

/// Tasks in the benchmark project; the page reads the first [`PAGE_SIZE`] of them.
const TASKS: usize = 200;
/// Each task depends on up to this many earlier tasks (so the graph has no cycle).
const DEPENDENCIES_PER_TASK: usize = 2;
const PAGE_SIZE: usize = 50;
const CONCURRENCIES: [usize; 3] = [1, 8, 32];
/// acc and the peer are compared at this many connections.
const PEER_CONCURRENCY: usize = 16;
const WRK_THREADS: usize = 2;
/// The server's own pool sizes (api/src/db.rs), so the raw loop gets as many connections as the server.
const SQLITE_POOL: u32 = 8;
const POSTGRES_POOL: u32 = 32;

const PAGE_QUERY: &str = "query Page($projectId: ID!) { tasks(projectId: $projectId, first: 50) { edges { node { \
                          id title assignee { id email } dependencies { id title } } } } }";

/// Requests that add one layer of the page's work at a time, measured at concurrency 1 to show where the time goes.
const BREAKDOWN: [Probe; 6] = [
    Probe {
        label: "`{ __typename }`, no token: HTTP + JSON + GraphQL parse/validate",
        statements: 0,
        query: "{ __typename }",
        token: false,
    },
    Probe {
        label: "`{ __typename }` with the bearer token: + authentication (the caller cached per session)",
        statements: 0,
        query: "{ __typename }",
        token: true,
    },
    Probe {
        label: "`tasks(first: 50) { id title }`: + the page (the project is checked from memory)",
        statements: 1,
        query: "query Flat($projectId: ID!) { tasks(projectId: $projectId, first: 50) { edges { node { id title } } } }",
        token: true,
    },
    Probe {
        label: "the flat page + assignees (one batch)",
        statements: 2,
        query: "query Assignees($projectId: ID!) { tasks(projectId: $projectId, first: 50) { edges { node { id title \
                assignee { id email } } } } }",
        token: true,
    },
    Probe {
        label: "the flat page + dependencies (one batch, one joined statement)",
        statements: 2,
        query: "query Dependencies($projectId: ID!) { tasks(projectId: $projectId, first: 50) { edges { node { id title \
                dependencies { id title } } } } }",
        token: true,
    },
    Probe {
        label: "the full page: + assignees and dependencies (DataLoader)",
        statements: 3,
        query: PAGE_QUERY,
        token: true,
    },
];

/// One request of the breakdown.
struct Probe {
    label: &'static str,
    /// SQL statements the server runs for it (api/src/identity, api/src/projects).
    statements: usize,
    query: &'static str,
    token: bool,
}

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("tasks_page: cannot start the tokio runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tasks_page benchmark failed: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<()> {
    require_wrk().await?;
    let seconds = bench_seconds()?;
    let binary = acc_binary().await?;
    println!("acc binary: {}", binary.display());
    println!(
        "machine: {} CPUs available; {TASKS} tasks, ~{DEPENDENCIES_PER_TASK} dependencies each, page of {PAGE_SIZE}, \
         {seconds} s per run",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );

    let node = acc_tests::peer::node_for_peer().await?;

    println!("load average before: {}", load_average());
    let mut tables = vec![("SQLite", bench_backend(&binary, None, node.as_deref(), seconds).await?)];
    match std::env::var("ACC_TEST_DATABASE_URL") {
        Ok(url) if url.starts_with("postgres") => {
            let database = PostgresDatabase::create(&url).await?;
            let result = bench_backend(&binary, Some(&database.url), None, seconds).await;
            database.drop_database().await?;
            tables.push(("PostgreSQL", result?));
        }
        _ => println!("\nACC_TEST_DATABASE_URL is not set to a postgres:// URL: skipping the PostgreSQL half"),
    }

    println!("load average after: {}", load_average());

    for (backend, result) in &tables {
        println!("\n{backend}: tasks(first: {PAGE_SIZE}) {{ assignee, dependencies }}, {seconds} s per run\n");
        print_table(&result.rows);
        println!("\n{backend}: breakdown at concurrency 1 (each line adds work to the one above)\n");
        print_breakdown(&result.breakdown);
        if let Some(peer) = &result.peer {
            println!(
                "\n{backend}: acc and the graphql-yoga peer at concurrency {PEER_CONCURRENCY}, one after the other\n"
            );
            print_peer(peer);
        }
    }
    Ok(())
}

/// The 1, 5 and 15 minute load averages: other work on a shared machine skews every figure.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

async fn require_wrk() -> Result<()> {
    match Command::new("wrk").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().await {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("wrk is not installed; install it with `apt-get update && apt-get install -y wrk` and run again")
        }
        Err(e) => Err(anyhow!(e).context("cannot run wrk")),
    }
}

fn bench_seconds() -> Result<u64> {
    match std::env::var("ACC_BENCH_SECONDS") {
        Ok(value) => {
            let seconds: u64 = value.trim().parse().with_context(|| format!("ACC_BENCH_SECONDS={value:?}"))?;
            ensure!(seconds > 0, "ACC_BENCH_SECONDS must be at least 1");
            Ok(seconds)
        }
        Err(_) => Ok(10),
    }
}

/// The release `acc` binary next to this benchmark (same target dir), built first when it is missing.
async fn acc_binary() -> Result<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().context("the tests crate has no parent")?;
    // This benchmark runs from <target>/release/deps/; without that layout fall back to CARGO_TARGET_DIR or ./target.
    let exe = std::env::current_exe().context("cannot locate the benchmark executable")?;
    let release = match exe.parent().filter(|deps| deps.ends_with("deps")).and_then(Path::parent) {
        Some(release) => release.to_owned(),
        None => {
            let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace.join("target"), PathBuf::from);
            workspace.join(target).join("release")
        }
    };
    let binary = release.join("acc");
    if !binary.exists() {
        println!("{} is missing: running cargo build --release -p acc-api", binary.display());
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut build = Command::new(cargo);
        build.args(["build", "--release", "-p", "acc-api"]).current_dir(workspace);
        if let Some(target) = release.parent() {
            build.env("CARGO_TARGET_DIR", target);
        }
        let status = build.status().await.context("cannot run cargo")?;
        ensure!(status.success(), "cargo build --release -p acc-api failed");
        ensure!(binary.exists(), "cargo build did not produce {}", binary.display());
    }
    Ok(binary)
}

/// Everything measured on one database.
struct BackendResult {
    rows: Vec<Row>,
    breakdown: Vec<BreakdownRow>,
    peer: Option<PeerComparison>,
}

/// acc and the peer at [`PEER_CONCURRENCY`].
struct PeerComparison {
    node: String,
    acc: Measure,
    peer: Measure,
    /// The raw loop at the same concurrency, in the same process as the database driver.
    raw: Option<Measure>,
    /// The raw loop at the same concurrency through acc's own SQLite reads.
    in_thread: Option<Measure>,
}

struct BreakdownRow {
    label: String,
    statements: usize,
    measure: Measure,
}

/// One line of the result table.
struct Row {
    concurrency: usize,
    graphql: Measure,
    raw: Measure,
    /// SQLite: the same statements through acc's own reads on the calling thread (`acc_api::db::Reads`).
    in_thread: Option<Measure>,
}

struct Measure {
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

/// Seeds a fresh server on one database, checks that GraphQL and the raw loop read the same page, then measures
/// both at every concurrency; with `node` (SQLite only), then acc against the peer.
async fn bench_backend(
    binary: &Path,
    database_url: Option<&str>,
    node: Option<&str>,
    seconds: u64,
) -> Result<BackendResult> {
    let backend = if database_url.is_some() { "PostgreSQL" } else { "SQLite" };
    println!("\n== {backend} ==");
    let server = Server::start(binary, database_url).await?;
    let result = measure_server(&server, database_url, node, seconds).await;
    if result.is_err() {
        eprintln!("server log kept in {}", server.log.display());
        server.kill().await;
    } else {
        server.stop().await;
    }
    result
}

async fn measure_server(
    server: &Server,
    database_url: Option<&str>,
    node: Option<&str>,
    seconds: u64,
) -> Result<BackendResult> {
    let client = reqwest::Client::new();
    let started = Instant::now();
    let seed = seed(&client, server, &server.bootstrap_code).await?;
    println!("seeded {TASKS} tasks and {} dependencies in {:.1} s", seed.dependencies, started.elapsed().as_secs_f64());

    let (db, pool) = match database_url {
        Some(url) => (connect_raw(url, false).await?, POSTGRES_POOL),
        None => {
            let file = server.data_dir.join("acc.db");
            (connect_raw(&format!("sqlite://{}", file.display()), true).await?, SQLITE_POOL)
        }
    };
    let scope = RawScope::read(&db).await?;
    let expected = graphql_page(&client, &server.graphql_url, &seed).await?;
    let actual = raw_page(&db, &scope).await?.summary();
    ensure!(expected == actual, "GraphQL and the raw loop read different pages:\n{expected:?}\n{actual:?}");
    ensure!(expected.len() == PAGE_SIZE, "the page has {} tasks, not {PAGE_SIZE}", expected.len());
    ensure!(expected.iter().all(|t| t.assignee.is_some()), "a task of the page has no assignee");
    let edges: usize = expected.iter().map(|t| t.dependencies.len()).sum();
    println!("checked: {PAGE_SIZE} edges with assignees and {edges} dependencies, identical over GraphQL and raw SQL");
    println!("raw loop pool: {pool} connections (as the server's)");

    let script = write_wrk_script(server, "page", PAGE_QUERY, &seed, Some(&seed.token))?;
    if std::env::var_os("ACC_BENCH_HOLD").is_some() {
        hold(server, &seed, &script).await?;
    }
    let warmup = seconds.min(2);
    wrk(&server.graphql_url, &script, 8, warmup).await.context("wrk warm-up")?;
    raw_load(&db, &scope, RawWork::Page, 8, Duration::from_secs(warmup)).await.context("raw warm-up")?;

    // On SQLite, also the loop through the reads acc itself uses: what is left without HTTP and GraphQL.
    let reads = database_url.is_none().then(|| Reads::for_database(&db, Some(&server.data_dir.join("acc.db"))));
    if let Some(reads) = &reads {
        let actual = raw_page_in_thread(reads, &scope).await?.summary();
        ensure!(expected == actual, "GraphQL and acc's own reads read different pages:\n{expected:?}\n{actual:?}");
    }
    let in_thread = async |concurrency: usize| match &reads {
        Some(reads) => {
            let work = RawWork::PageInThread(reads.clone());
            raw_load(&db, &scope, work, concurrency, Duration::from_secs(seconds)).await.map(Some)
        }
        None => Ok(None),
    };

    let mut rows = Vec::new();
    for concurrency in CONCURRENCIES {
        let graphql = wrk(&server.graphql_url, &script, concurrency, seconds).await?;
        let raw = raw_load(&db, &scope, RawWork::Page, concurrency, Duration::from_secs(seconds)).await?;
        let row = Row { concurrency, graphql, raw, in_thread: in_thread(concurrency).await? };
        println!("{} load {}", table_line(&row), load_average());
        rows.push(row);
    }

    let mut breakdown = Vec::new();
    for (i, probe) in BREAKDOWN.iter().enumerate() {
        let token = probe.token.then_some(seed.token.as_str());
        let vars = variables(probe.query, &seed);
        graphql(&client, &server.graphql_url, token, probe.query, vars).await.context("breakdown request")?;
        let script = write_wrk_script(server, &format!("probe{i}"), probe.query, &seed, token)?;
        let measure = wrk(&server.graphql_url, &script, 1, seconds).await?;
        let row = BreakdownRow { label: probe.label.to_owned(), statements: probe.statements, measure };
        println!("{} load {}", breakdown_line(&row), load_average());
        breakdown.push(row);
    }
    ensure!(raw_request(&db, &scope).await?.summary() == expected, "the raw request loop read another page");
    let mut raw_lines = vec![
        (RawWork::Page, "raw loop: the page's statements", 4),
        (RawWork::Request, "raw loop: all the server's statements (+ session, user, roles, project)", 8),
    ];
    if let Some(reads) = &reads {
        raw_lines.push((
            RawWork::PageInThread(reads.clone()),
            "raw loop: the page's statements through acc's reads",
            4,
        ));
    }
    for (work, label, statements) in raw_lines {
        let measure = raw_load(&db, &scope, work, 1, Duration::from_secs(seconds)).await?;
        let row = BreakdownRow { label: label.to_owned(), statements, measure };
        println!("{} load {}", breakdown_line(&row), load_average());
        breakdown.push(row);
    }
    let peer = match node {
        Some(node) => {
            let mut comparison = compare_with_peer(server, &client, &seed, &expected, &script, node, seconds).await?;
            // The ceiling the driver sets: the raw loop alone, at the same concurrency.
            let raw = raw_load(&db, &scope, RawWork::Page, PEER_CONCURRENCY, Duration::from_secs(seconds)).await?;
            println!("raw loop at {PEER_CONCURRENCY}: {:.0} it/s, p99 {}", raw.per_second, millis(raw.p99));
            comparison.raw = Some(raw);
            comparison.in_thread = in_thread(PEER_CONCURRENCY).await?;
            Some(comparison)
        }
        None => None,
    };
    db.close().await.context("closing the raw connection pool")?;
    Ok(BackendResult { rows, breakdown, peer })
}

/// `ACC_BENCH_HOLD=1`: keeps the seeded server up, with a wrk script for the page and each breakdown probe, until
/// Enter is pressed, so that a profiler can watch one kind of request at a time.
async fn hold(server: &Server, seed: &Seed, page: &Path) -> Result<()> {
    println!("holding acc (pid {}) at {}", server.child.id().unwrap_or_default(), server.graphql_url);
    println!("  the page: wrk -t1 -c1 -d30s -s {} {}", page.display(), server.graphql_url);
    for (i, probe) in BREAKDOWN.iter().enumerate() {
        let token = probe.token.then_some(seed.token.as_str());
        let script = write_wrk_script(server, &format!("probe{i}"), probe.query, seed, token)?;
        println!("  {}: wrk -t1 -c1 -d30s -s {} {}", probe.label, script.display(), server.graphql_url);
    }
    println!("press Enter to go on with the measurements");
    let mut line = String::new();
    BufReader::new(tokio::io::stdin()).read_line(&mut line).await.context("reading stdin")?;
    Ok(())
}

/// Starts the peer on the server's `acc.db`, checks that it serves the same page byte for byte, then measures acc
/// and the peer with the same wrk script at [`PEER_CONCURRENCY`], after a warm-up of the peer (its JIT too).
async fn compare_with_peer(
    server: &Server,
    client: &reqwest::Client,
    seed: &Seed,
    expected: &[TaskSummary],
    script: &Path,
    node: &str,
    seconds: u64,
) -> Result<PeerComparison> {
    let peer = Peer::start(&server.data_dir.join("acc.db"), &server.root.join("peer.log")).await?;
    let result = measure_peer(&peer, server, client, seed, expected, script, seconds).await;
    peer.stop().await;
    let (acc, peer) = result?;
    Ok(PeerComparison { node: node.to_owned(), acc, peer, raw: None, in_thread: None })
}

/// acc's and the peer's figures.
async fn measure_peer(
    peer: &Peer,
    server: &Server,
    client: &reqwest::Client,
    seed: &Seed,
    expected: &[TaskSummary],
    script: &Path,
    seconds: u64,
) -> Result<(Measure, Measure)> {
    let actual = graphql_page(client, &peer.graphql_url, seed).await.context("the peer's page")?;
    ensure!(actual == expected, "acc and the peer serve different pages:\n{expected:?}\n{actual:?}");
    // Ids too: the peer encodes acc's global ids, so the two responses must be the same bytes.
    let acc_body = page_body(client, &server.graphql_url, seed).await.context("acc's page")?;
    let peer_body = page_body(client, &peer.graphql_url, seed).await.context("the peer's page")?;
    ensure!(
        acc_body == peer_body,
        "acc and the peer serve the same tasks, but not the same JSON:\n{acc_body}\n{peer_body}"
    );
    println!("checked: the peer's response is byte for byte acc's ({} bytes)", acc_body.len());

    wrk(&peer.graphql_url, script, 8, seconds.min(2)).await.context("wrk warm-up of the peer")?;
    let acc = wrk(&server.graphql_url, script, PEER_CONCURRENCY, seconds).await?;
    println!(
        "acc at {PEER_CONCURRENCY}: {:.0} req/s, p99 {}; load {}",
        acc.per_second,
        millis(acc.p99),
        load_average()
    );
    let measured = wrk(&peer.graphql_url, script, PEER_CONCURRENCY, seconds).await?;
    println!(
        "peer at {PEER_CONCURRENCY}: {:.0} req/s, p99 {}; load {}",
        measured.per_second,
        millis(measured.p99),
        load_average()
    );
    Ok((acc, measured))
}

/// A running `acc serve` on a temporary data dir.
struct Server {
    child: Child,
    root: PathBuf,
    data_dir: PathBuf,
    log: PathBuf,
    graphql_url: String,
    bootstrap_code: String,
}

impl Server {
    async fn start(binary: &Path, database_url: Option<&str>) -> Result<Self> {
        let root = std::env::temp_dir().join(format!("acc-bench-{:016x}", rand::random::<u64>()));
        let data_dir = root.join("data");
        std::fs::create_dir_all(&data_dir).with_context(|| format!("cannot create {}", data_dir.display()))?;
        let log = root.join("acc.log");
        let log_file = std::fs::File::create(&log).with_context(|| format!("cannot create {}", log.display()))?;

        let mut command = Command::new(binary);
        command.arg("serve").arg("--data-dir").arg(&data_dir).args(["--listen", "127.0.0.1:0"]);
        if let Some(url) = database_url {
            command.args(["--database-url", url]);
        }
        // Only the flags decide the database; a long run must not outlive the access token.
        command
            .env_remove("ACC_DATABASE_URL")
            .env_remove("ACC_DATABASE_URL_FILE")
            .env("ACC_TOKENS__ACCESS_TOKEN_SECONDS", "86400")
            // No memory search here: a first start would otherwise download and load the
            // embedding model in the background, in the middle of the measurements.
            .env("ACC_MEMORY__FETCH_EMBEDDING_MODEL", "false")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file)
            .kill_on_drop(true);
        let mut child = command.spawn().with_context(|| format!("cannot start {}", binary.display()))?;
        let stdout = child.stdout.take().context("no stdout from acc")?;
        let mut lines = BufReader::new(stdout).lines();

        let (mut graphql_url, mut bootstrap_code) = (None, None);
        let banner = async {
            while let Some(line) = lines.next_line().await? {
                if let Some(url) = line.strip_prefix("GraphQL: ") {
                    graphql_url = Some(url.trim().to_owned());
                } else if let Some((_, code)) = line.split_once("redeemBootstrap mutation): ") {
                    bootstrap_code = Some(code.trim().to_owned());
                }
                if graphql_url.is_some() && bootstrap_code.is_some() {
                    return Ok(());
                }
            }
            Err(anyhow!("acc exited before printing its GraphQL URL and bootstrap code"))
        };
        let started = tokio::time::timeout(Duration::from_secs(120), banner).await;
        let failure = match started {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(_) => Some(anyhow!("acc printed no GraphQL URL and bootstrap code within 120 s")),
        };
        if let Some(e) = failure {
            let _ = child.kill().await;
            let tail = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(e.context(format!("starting acc failed; its log:\n{tail}")));
        }
        // Keep draining stdout so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

        let (Some(graphql_url), Some(bootstrap_code)) = (graphql_url, bootstrap_code) else {
            bail!("acc banner incomplete");
        };
        println!("acc listening: {graphql_url}");
        Ok(Self { child, root, data_dir, log, graphql_url, bootstrap_code })
    }

    async fn kill(mut self) {
        let _ = self.child.kill().await;
    }

    /// Stops the server and removes its data dir.
    async fn stop(mut self) {
        let _ = self.child.kill().await;
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// What the seeding left behind, as the GraphQL client sees it.
struct Seed {
    token: String,
    project_id: String,
    dependencies: usize,
}

async fn graphql(client: &reqwest::Client, url: &str, token: Option<&str>, query: &str, vars: Json) -> Result<Json> {
    let mut request = client.post(url).json(&json!({ "query": query, "variables": vars }));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.context("GraphQL request failed")?;
    let status = response.status();
    let body: Json = response.json().await.context("GraphQL response is not JSON")?;
    if let Some(errors) = body.get("errors").filter(|e| e.as_array().is_some_and(|a| !a.is_empty())) {
        bail!("GraphQL errors (HTTP {status}): {errors}");
    }
    ensure!(status.is_success(), "GraphQL answered HTTP {status}: {body}");
    body.get("data").cloned().context("GraphQL response without data")
}

fn string_at(value: &Json, pointer: &str) -> Result<String> {
    value.pointer(pointer).and_then(Json::as_str).map(str::to_owned).with_context(|| format!("no {pointer} in {value}"))
}

/// Bootstraps the owner, then creates one workspace, one project and [`TASKS`] tasks assigned to the owner, each
/// depending on up to [`DEPENDENCIES_PER_TASK`] earlier tasks (a fixed seed, so every run has the same graph).
async fn seed(client: &reqwest::Client, server: &Server, code: &str) -> Result<Seed> {
    let url = server.graphql_url.as_str();
    let data = graphql(
        client,
        url,
        None,
        "mutation ($code: String!) { redeemBootstrap(code: $code, organizationName: \"Bench\", \
         email: \"owner@bench.example\", password: \"bench-password-correct-horse\") { accessToken user { id } } }",
        json!({ "code": code }),
    )
    .await
    .context("redeemBootstrap")?;
    let token = string_at(&data, "/redeemBootstrap/accessToken")?;
    let owner = string_at(&data, "/redeemBootstrap/user/id")?;
    let auth = Some(token.as_str());

    let data = graphql(client, url, auth, "mutation { createWorkspace(name: \"bench\") { id } }", json!({})).await?;
    let workspace = string_at(&data, "/createWorkspace/id")?;
    let data = graphql(
        client,
        url,
        auth,
        "mutation ($w: ID!) { createProject(workspaceId: $w, name: \"tasks page\") { id } }",
        json!({ "w": workspace }),
    )
    .await?;
    let project_id = string_at(&data, "/createProject/id")?;

    // Sequential, so ids (UUIDv7) follow the titles' order.
    let mut tasks = Vec::with_capacity(TASKS);
    for i in 0..TASKS {
        let data = graphql(
            client,
            url,
            auth,
            "mutation ($input: CreateTaskInput!) { createTask(input: $input) { id } }",
            json!({ "input": { "projectId": project_id, "title": format!("task {i:03}"), "assigneeId": owner } }),
        )
        .await
        .with_context(|| format!("createTask {i}"))?;
        tasks.push(string_at(&data, "/createTask/id")?);
    }

    let mut rng = StdRng::seed_from_u64(0x7a5c);
    let mut edges = Vec::new();
    for i in 1..TASKS {
        for j in rand::seq::index::sample(&mut rng, i, DEPENDENCIES_PER_TASK.min(i)) {
            edges.push((tasks[i].clone(), tasks[j].clone()));
        }
    }
    // One at a time: concurrent dependency edits on SQLite can fail with "database is locked" (see
    // docs/benchmarks.md), and the seeding is not what is measured.
    let dependencies = edges.len();
    for (task, prerequisite) in edges {
        graphql(
            client,
            url,
            auth,
            "mutation ($t: ID!, $d: ID!) { addTaskDependency(taskId: $t, dependsOnId: $d) { id } }",
            json!({ "t": task, "d": prerequisite }),
        )
        .await
        .context("addTaskDependency")?;
    }
    Ok(Seed { token, project_id, dependencies })
}

/// One task of the page as both paths must see it.
#[derive(Debug, PartialEq, Eq)]
struct TaskSummary {
    title: String,
    assignee: Option<String>,
    dependencies: Vec<String>,
}

async fn graphql_page(client: &reqwest::Client, url: &str, seed: &Seed) -> Result<Vec<TaskSummary>> {
    let vars = json!({ "projectId": seed.project_id });
    let data = graphql(client, url, Some(&seed.token), PAGE_QUERY, vars).await?;
    let edges = data.pointer("/tasks/edges").and_then(Json::as_array).context("no tasks.edges")?;
    edges
        .iter()
        .map(|edge| {
            let node = edge.get("node").context("edge without node")?;
            let dependencies = node.get("dependencies").and_then(Json::as_array).context("no dependencies")?;
            Ok(TaskSummary {
                title: string_at(node, "/title")?,
                assignee: node.pointer("/assignee/email").and_then(Json::as_str).map(str::to_owned),
                dependencies: dependencies.iter().map(|d| string_at(d, "/title")).collect::<Result<_>>()?,
            })
        })
        .collect()
}

/// The page's response body as the server wrote it.
async fn page_body(client: &reqwest::Client, url: &str, seed: &Seed) -> Result<String> {
    let body = json!({ "query": PAGE_QUERY, "variables": { "projectId": seed.project_id } });
    let response = client.post(url).bearer_auth(&seed.token).json(&body).send().await.context("request failed")?;
    let status = response.status();
    let text = response.text().await.context("reading the response")?;
    ensure!(status.is_success(), "HTTP {status}: {text}");
    Ok(text)
}

/// The variables a query declares: `$projectId` or none.
fn variables(query: &str, seed: &Seed) -> Json {
    if query.contains("$projectId") { json!({ "projectId": seed.project_id }) } else { json!({}) }
}

/// A wrk script that POSTs `query` (with the project id as `$projectId`) and counts responses that are not a clean
/// HTTP 200 without `errors`.
fn write_wrk_script(server: &Server, name: &str, query: &str, seed: &Seed, token: Option<&str>) -> Result<PathBuf> {
    let body = json!({ "query": query, "variables": variables(query, seed) }).to_string();
    ensure!(!body.contains("]==]"), "the request body cannot be quoted for Lua");
    let authorization =
        token.map(|token| format!("wrk.headers[\"Authorization\"] = \"Bearer {token}\"\n")).unwrap_or_default();
    let script = format!(
        r#"wrk.method = "POST"
wrk.body = [==[{body}]==]
wrk.headers["Content-Type"] = "application/json"
{authorization}
local threads = {{}}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  responses = 0
  failures = 0
end

function response(status, headers, body)
  responses = responses + 1
  if status ~= 200 or string.find(body, '"errors"', 1, true) then
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  local responses, failures = 0, 0
  for _, thread in ipairs(threads) do
    responses = responses + thread:get("responses")
    failures = failures + thread:get("failures")
  end
  io.write(string.format("acc-bench responses=%d failures=%d\n", responses, failures))
end
"#
    );
    let path = server.root.join(format!("{name}.lua"));
    std::fs::write(&path, script).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// Runs wrk against the GraphQL endpoint and reads req/s and p50/p99 from its `--latency` report.
async fn wrk(url: &str, script: &Path, concurrency: usize, seconds: u64) -> Result<Measure> {
    let threads = WRK_THREADS.min(concurrency);
    let output = Command::new("wrk")
        .args(["-t", &threads.to_string(), "-c", &concurrency.to_string(), "-d", &format!("{seconds}s")])
        .args(["--timeout", "30s", "--latency", "-s"])
        .arg(script)
        .arg(url)
        .output()
        .await
        .context("cannot run wrk")?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    ensure!(output.status.success(), "wrk failed: {stdout}{}", String::from_utf8_lossy(&output.stderr));
    parse_wrk(&stdout).with_context(|| format!("unexpected wrk output:\n{stdout}"))
}

fn parse_wrk(report: &str) -> Result<Measure> {
    let mut measure = Measure { per_second: 0.0, p50: Duration::ZERO, p99: Duration::ZERO };
    let (mut responses, mut failures) = (None, None);
    for line in report.lines().map(str::trim) {
        if let Some(value) = line.strip_prefix("50%") {
            measure.p50 = parse_wrk_duration(value.trim())?;
        } else if let Some(value) = line.strip_prefix("99%") {
            measure.p99 = parse_wrk_duration(value.trim())?;
        } else if let Some(value) = line.strip_prefix("Requests/sec:") {
            measure.per_second = value.trim().parse().context("Requests/sec")?;
        } else if line.starts_with("Socket errors:") {
            eprintln!("warning: wrk reported {line}");
        } else if let Some(counts) = line.strip_prefix("acc-bench ") {
            for field in counts.split_whitespace() {
                match field.split_once('=') {
                    Some(("responses", n)) => responses = Some(n.parse::<u64>()?),
                    Some(("failures", n)) => failures = Some(n.parse::<u64>()?),
                    _ => {}
                }
            }
        }
    }
    let (Some(responses), Some(failures)) = (responses, failures) else { bail!("the Lua script reported nothing") };
    ensure!(responses > 0 && measure.per_second > 0.0, "wrk got no responses");
    ensure!(failures == 0, "{failures} of {responses} responses were not HTTP 200 without errors");
    ensure!(measure.p50 > Duration::ZERO && measure.p99 > Duration::ZERO, "no latency distribution");
    Ok(measure)
}

/// wrk prints durations as `635.00us`, `2.10ms`, `1.02s` or `1.00m`.
fn parse_wrk_duration(text: &str) -> Result<Duration> {
    let split = text.find(|c: char| c.is_ascii_alphabetic()).with_context(|| format!("no unit in {text:?}"))?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().with_context(|| format!("bad duration {text:?}"))?;
    let seconds = match unit {
        "us" => number / 1e6,
        "ms" => number / 1e3,
        "s" => number,
        "m" => number * 60.0,
        "h" => number * 3600.0,
        _ => bail!("unknown unit in {text:?}"),
    };
    Ok(Duration::from_secs_f64(seconds))
}

/// Opens the server's database for the raw loop: SQLite read-only (WAL lets readers run beside the server).
async fn connect_raw(url: &str, sqlite: bool) -> Result<DatabaseConnection> {
    let mut options = ConnectOptions::new(url.to_owned());
    options.connect_timeout(Duration::from_secs(10)).acquire_timeout(Duration::from_secs(30)).sqlx_logging(false);
    if sqlite {
        options.max_connections(SQLITE_POOL).min_connections(1);
        options.map_sqlx_sqlite_opts(|opts| opts.read_only(true).busy_timeout(Duration::from_secs(10)));
    } else {
        // As the server's pool (api/src/db/mod.rs): no ping before a statement on a busy connection.
        options
            .max_connections(POSTGRES_POOL)
            .min_connections(1)
            .test_before_acquire_if_idle_for(acc_api::db::PING_AFTER_IDLE);
    }
    Database::connect(options).await.with_context(|| format!("cannot open {url} for the raw loop"))
}

/// The project and tenant the raw loop reads, found in the database itself.
#[derive(Clone)]
struct RawScope {
    backend: DbBackend,
    project_id: Uuid,
    organization_id: Uuid,
    /// The owner's session, which the bearer token names.
    session_id: Uuid,
}

/// An id and its tenant, of a project or a session.
#[derive(FromQueryResult)]
struct ProjectRow {
    id: Uuid,
    organization_id: Uuid,
}

impl RawScope {
    async fn read(db: &DatabaseConnection) -> Result<Self> {
        let backend = db.get_database_backend();
        let statement = Statement::from_string(backend, "SELECT id, organization_id FROM projects");
        let projects = ProjectRow::find_by_statement(statement).all(db).await?;
        let [project] = projects.as_slice() else { bail!("expected one project, found {}", projects.len()) };
        let statement = Statement::from_string(backend, "SELECT id, organization_id FROM device_sessions");
        let sessions = ProjectRow::find_by_statement(statement).all(db).await?;
        let [session] = sessions.as_slice() else { bail!("expected one session, found {}", sessions.len()) };
        Ok(Self { backend, project_id: project.id, organization_id: project.organization_id, session_id: session.id })
    }
}

// The rows are decoded whole, as the server's models are, even where the page reads only a few columns.
#[derive(FromQueryResult)]
#[allow(dead_code)]
struct SessionRow {
    id: Uuid,
    organization_id: Uuid,
    user_id: Uuid,
    device_name: String,
    client_address: Option<String>,
    revoked_at: Option<chrono::DateTime<chrono::Utc>>,
    revoked_reason: Option<String>,
    last_used_at: chrono::DateTime<chrono::Utc>,
    revision: i64,
    created_at: chrono::DateTime<chrono::Utc>,
    updated_at: chrono::DateTime<chrono::Utc>,
}

#[derive(FromQueryResult)]
#[allow(dead_code)]
struct RoleBindingRow {
    id: Uuid,
    organization_id: Uuid,
    subject_id: Uuid,
    role: String,
    scope_kind: String,
    scope_id: Uuid,
    created_at: chrono::DateTime<chrono::Utc>,
}

#[derive(FromQueryResult)]
#[allow(dead_code)]
struct FullProjectRow {
    id: Uuid,
    organization_id: Uuid,
    workspace_id: Uuid,
    name: String,
    description: String,
    revision: i64,
    created_at: chrono::DateTime<chrono::Utc>,
    updated_at: chrono::DateTime<chrono::Utc>,
}

const TASK_COLUMNS: &str = "id, organization_id, project_id, title, description, status, priority, labels, \
                            assignee_user_id, assignee_agent_id, revision, created_at, updated_at";
const USER_COLUMNS: &str = "id, organization_id, email, display_name, password_hash, is_server_admin, disabled, revision, created_at, updated_at";

/// A page as a hand-written, DataLoader-optimal resolver holds it.
struct RawPage {
    tasks: Vec<task::Model>,
    assignees: HashMap<Uuid, user::Model>,
    dependencies: HashMap<Uuid, Vec<Uuid>>,
    dependency_tasks: HashMap<Uuid, task::Model>,
}

impl RawPage {
    fn summary(&self) -> Vec<TaskSummary> {
        self.tasks
            .iter()
            .map(|task| TaskSummary {
                title: task.title.clone(),
                assignee: task.assignee_user_id.and_then(|id| self.assignees.get(&id)).map(|u| u.email.clone()),
                dependencies: self
                    .dependencies
                    .get(&task.id)
                    .into_iter()
                    .flatten()
                    .filter_map(|id| self.dependency_tasks.get(id).map(|t| t.title.clone()))
                    .collect(),
            })
            .collect()
    }
}

/// `?, ?, ?` for SQLite, `$2, $3, $4` for PostgreSQL: `count` placeholders after `before` earlier ones.
fn placeholders(backend: DbBackend, before: usize, count: usize) -> String {
    let one = |i: usize| if backend == DbBackend::Postgres { format!("${}", before + i + 1) } else { "?".to_owned() };
    (0..count).map(one).collect::<Vec<_>>().join(", ")
}

/// The same four statements the server's resolvers need for the data (the page with one look-ahead row, the
/// assignees, the dependency edges, the dependency tasks) — without authentication, authorization, GraphQL or JSON.
async fn raw_page(db: &DatabaseConnection, scope: &RawScope) -> Result<RawPage> {
    let backend = scope.backend;
    let sql = format!(
        "SELECT {TASK_COLUMNS} FROM tasks WHERE project_id = {} ORDER BY id LIMIT {}",
        placeholders(backend, 0, 1),
        PAGE_SIZE + 1
    );
    let statement = Statement::from_sql_and_values(backend, sql, [Value::from(scope.project_id)]);
    let mut tasks = task::Model::find_by_statement(statement).all(db).await?;
    tasks.truncate(PAGE_SIZE);

    let mut assignee_ids: Vec<Uuid> = tasks.iter().filter_map(|t| t.assignee_user_id).collect();
    assignee_ids.sort_unstable();
    assignee_ids.dedup();
    let mut assignees = HashMap::new();
    if !assignee_ids.is_empty() {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE id IN ({}) AND organization_id = {}",
            placeholders(backend, 0, assignee_ids.len()),
            placeholders(backend, assignee_ids.len(), 1)
        );
        let values = assignee_ids.iter().copied().chain([scope.organization_id]).map(Value::from);
        let statement = Statement::from_sql_and_values(backend, sql, values);
        assignees = user::Model::find_by_statement(statement).all(db).await?.into_iter().map(|u| (u.id, u)).collect();
    }

    let task_ids: Vec<Uuid> = tasks.iter().map(|t| t.id).collect();
    let sql = format!(
        "SELECT id, organization_id, task_id, depends_on_task_id, created_at FROM task_dependencies \
         WHERE task_id IN ({}) AND organization_id = {} ORDER BY depends_on_task_id",
        placeholders(backend, 0, task_ids.len()),
        placeholders(backend, task_ids.len(), 1)
    );
    let values = task_ids.iter().copied().chain([scope.organization_id]).map(Value::from);
    let edges =
        task_dependency::Model::find_by_statement(Statement::from_sql_and_values(backend, sql, values)).all(db).await?;
    let mut dependencies: HashMap<Uuid, Vec<Uuid>> = HashMap::new();
    for edge in &edges {
        dependencies.entry(edge.task_id).or_default().push(edge.depends_on_task_id);
    }

    let mut wanted: Vec<Uuid> = edges.iter().map(|e| e.depends_on_task_id).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut dependency_tasks = HashMap::new();
    if !wanted.is_empty() {
        let sql = format!("SELECT {TASK_COLUMNS} FROM tasks WHERE id IN ({})", placeholders(backend, 0, wanted.len()));
        let statement = Statement::from_sql_and_values(backend, sql, wanted.into_iter().map(Value::from));
        let rows = task::Model::find_by_statement(statement).all(db).await?;
        dependency_tasks = rows.into_iter().map(|t| (t.id, t)).collect();
    }
    Ok(RawPage { tasks, assignees, dependencies, dependency_tasks })
}

/// What a raw iteration reads.
#[derive(Clone)]
enum RawWork {
    /// The page's rows: [`raw_page`].
    Page,
    /// Everything the server reads for the request: [`raw_request`].
    Request,
    /// The page's rows through acc's own SQLite reads: [`raw_page_in_thread`].
    PageInThread(Reads),
}

/// [`raw_page`]'s four statements, as entity selects through acc's SQLite reads (rusqlite on the calling thread):
/// what the server's data layer costs without HTTP, authentication or GraphQL.
async fn raw_page_in_thread(reads: &Reads, scope: &RawScope) -> Result<RawPage> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
    let page = task::Entity::find().filter(task::Column::ProjectId.eq(scope.project_id));
    let mut tasks = reads.all(page.order_by_asc(task::Column::Id).limit(PAGE_SIZE as u64 + 1)).await?;
    tasks.truncate(PAGE_SIZE);
    let assignee_ids: Vec<Uuid> = tasks.iter().filter_map(|t| t.assignee_user_id).collect();
    let users = user::Entity::find()
        .filter(user::Column::Id.is_in(assignee_ids))
        .filter(user::Column::OrganizationId.eq(scope.organization_id));
    let assignees = reads.all(users).await?.into_iter().map(|u| (u.id, u)).collect();
    let edges = task_dependency::Entity::find()
        .filter(task_dependency::Column::TaskId.is_in(tasks.iter().map(|t| t.id)))
        .filter(task_dependency::Column::OrganizationId.eq(scope.organization_id))
        .order_by_asc(task_dependency::Column::DependsOnTaskId);
    let mut dependencies: HashMap<Uuid, Vec<Uuid>> = HashMap::new();
    for edge in reads.all(edges).await? {
        dependencies.entry(edge.task_id).or_default().push(edge.depends_on_task_id);
    }
    let wanted = dependencies.values().flatten().copied().collect::<std::collections::HashSet<_>>();
    let rows = reads.all(task::Entity::find().filter(task::Column::Id.is_in(wanted))).await?;
    let dependency_tasks = rows.into_iter().map(|t| (t.id, t)).collect();
    Ok(RawPage { tasks, assignees, dependencies, dependency_tasks })
}

/// The statements the server adds before the page: the session the token names, its user, the user's role
/// bindings and the project (checked in memory, as the server's `Actor` does) — then [`raw_page`].
async fn raw_request(db: &DatabaseConnection, scope: &RawScope) -> Result<RawPage> {
    let backend = scope.backend;
    let one = placeholders(backend, 0, 1);
    let sql = format!(
        "SELECT id, organization_id, user_id, device_name, client_address, revoked_at, revoked_reason, last_used_at, \
         revision, created_at, updated_at FROM device_sessions WHERE id = {one} LIMIT 1"
    );
    let statement = Statement::from_sql_and_values(backend, sql, [Value::from(scope.session_id)]);
    let session = SessionRow::find_by_statement(statement).one(db).await?.context("no session")?;
    ensure!(session.revoked_at.is_none(), "the session is revoked");

    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = {one} LIMIT 1");
    let statement = Statement::from_sql_and_values(backend, sql, [Value::from(session.user_id)]);
    let user = user::Model::find_by_statement(statement).one(db).await?.context("no user")?;
    ensure!(!user.disabled, "the user is disabled");

    let sql = format!(
        "SELECT id, organization_id, subject_id, role, scope_kind, scope_id, created_at FROM role_bindings \
         WHERE subject_id = {one}"
    );
    let statement = Statement::from_sql_and_values(backend, sql, [Value::from(user.id)]);
    let grants = RoleBindingRow::find_by_statement(statement).all(db).await?;

    let sql = format!(
        "SELECT id, organization_id, workspace_id, name, description, revision, created_at, updated_at FROM projects \
         WHERE id = {one} LIMIT 1"
    );
    let statement = Statement::from_sql_and_values(backend, sql, [Value::from(scope.project_id)]);
    let project = FullProjectRow::find_by_statement(statement).one(db).await?.context("no project")?;
    ensure!(
        project.organization_id == user.organization_id && grants.iter().any(|g| g.role == "owner"),
        "the owner may not read the project"
    );
    raw_page(db, scope).await
}

/// `concurrency` tokio tasks run [`raw_page`] (or [`raw_request`]) back to back for `duration`; every iteration's latency is kept.
async fn raw_load(
    db: &DatabaseConnection,
    scope: &RawScope,
    work: RawWork,
    concurrency: usize,
    duration: Duration,
) -> Result<Measure> {
    let started = Instant::now();
    let deadline = started + duration;
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (db, scope, work) = (db.clone(), scope.clone(), work.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while Instant::now() < deadline {
                    let begun = Instant::now();
                    let page = match &work {
                        RawWork::Page => raw_page(&db, &scope).await?,
                        RawWork::Request => raw_request(&db, &scope).await?,
                        RawWork::PageInThread(reads) => raw_page_in_thread(reads, &scope).await?,
                    };
                    latencies.push(begun.elapsed());
                    std::hint::black_box(page);
                }
                anyhow::Ok(latencies)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await.context("a raw worker panicked")??);
    }
    let elapsed = started.elapsed();
    ensure!(!latencies.is_empty(), "the raw loop completed no iteration");
    latencies.sort_unstable();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    Ok(Measure { per_second: latencies.len() as f64 / elapsed.as_secs_f64(), p50: at(0.50), p99: at(0.99) })
}

/// A throw-away PostgreSQL database next to the one `ACC_TEST_DATABASE_URL` names.
struct PostgresDatabase {
    admin: DatabaseConnection,
    name: String,
    url: String,
}

impl PostgresDatabase {
    async fn create(admin_url: &str) -> Result<Self> {
        let admin = Database::connect(admin_url).await.with_context(|| format!("cannot connect to {admin_url}"))?;
        let name = format!("acc_bench_{:016x}", rand::random::<u64>());
        admin.execute_unprepared(&format!("CREATE DATABASE {name}")).await.context("CREATE DATABASE")?;
        let url = with_database(admin_url, &name)?;
        println!("\ncreated PostgreSQL database {name}");
        Ok(Self { admin, name, url })
    }

    async fn drop_database(self) -> Result<()> {
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        self.admin.execute_unprepared(&sql).await.context("DROP DATABASE")?;
        self.admin.close().await.context("closing the admin connection")?;
        Ok(())
    }
}

/// `postgres://user@host:5432/test?sslmode=disable` with its database replaced by `name`.
fn with_database(url: &str, name: &str) -> Result<String> {
    let (base, query) = url.split_once('?').map_or((url, None), |(base, query)| (base, Some(query)));
    let authority = base.find("://").context("the database URL has no scheme")? + 3;
    let path = base[authority..].find('/').map_or(base.len(), |i| authority + i);
    let mut out = format!("{}/{name}", &base[..path]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    Ok(out)
}

fn millis(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn table_line(row: &Row) -> String {
    let in_thread = match &row.in_thread {
        Some(m) => format!(" {:.0} | {:.2} |", m.per_second, row.graphql.per_second / m.per_second),
        None => " – | – |".to_owned(),
    };
    format!(
        "| {} | {:.0} | {} | {} | {:.0} | {} | {} | {:.2} |{in_thread}",
        row.concurrency,
        row.graphql.per_second,
        millis(row.graphql.p50),
        millis(row.graphql.p99),
        row.raw.per_second,
        millis(row.raw.p50),
        millis(row.raw.p99),
        row.graphql.per_second / row.raw.per_second,
    )
}

fn print_table(rows: &[Row]) {
    println!(
        "| concurrency | GraphQL req/s | GraphQL p50 | GraphQL p99 | raw it/s | raw p50 | raw p99 | GraphQL/raw \
         | raw through acc's reads it/s | GraphQL/that |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        println!("{}", table_line(row));
    }
}

fn breakdown_line(row: &BreakdownRow) -> String {
    let BreakdownRow { label, statements, measure } = row;
    format!(
        "| {label} | {statements} | {:.0} | {} | {} |",
        measure.per_second,
        millis(measure.p50),
        millis(measure.p99)
    )
}

fn print_breakdown(breakdown: &[BreakdownRow]) {
    println!("| request | SQL statements | req/s | p50 | p99 |");
    println!("|---|---:|---:|---:|---:|");
    for row in breakdown {
        println!("{}", breakdown_line(row));
    }
}

fn print_peer(comparison: &PeerComparison) {
    let PeerComparison { node, acc, peer, raw, in_thread } = comparison;
    println!("| server | req/s | p50 | p99 |");
    println!("|---|---:|---:|---:|");
    let sides =
        [("acc".to_owned(), Some(acc)), (format!("peer: graphql-yoga, one Node.js {node} process"), Some(peer))];
    let raw_sides = [
        ("raw loop (in process, no HTTP or GraphQL)".to_owned(), raw.as_ref()),
        ("raw loop through acc's own SQLite reads".to_owned(), in_thread.as_ref()),
    ];
    for (label, measure) in sides.into_iter().chain(raw_sides) {
        let Some(measure) = measure else { continue };
        println!("| {label} | {:.0} | {} | {} |", measure.per_second, millis(measure.p50), millis(measure.p99));
    }
    println!(
        "\nacc/peer req/s = **{:.2}** (target ≥ 3), p99 acc/peer = {:.2}",
        acc.per_second / peer.per_second,
        acc.p99.as_secs_f64() / peer.p99.as_secs_f64()
    );
    if let Some(raw) = raw {
        println!("raw loop/peer req/s = {:.2}: the most the driver leaves room for", raw.per_second / peer.per_second);
    }
}
