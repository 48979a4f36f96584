//! Benchmarks of run events (issue 3, item 8), each against a raw baseline measured in the same run:
//!
//! - **ingest**: events/s that several connectors get persisted and acknowledged by `acc` over the real connector
//!   protocol, against raw multi-row INSERTs (one transaction per batch) of as many rows of the same shape into a
//!   scratch copy of `run_events` in the same database; on SQLite and, with `ACC_TEST_DATABASE_URL`, PostgreSQL.
//! - **fanout**: one run's events to many graphql-transport-ws `runEvents` subscribers at a fixed rate: latency from
//!   the connector's send to each subscriber's receipt, losses, and the highest rate sustained, against a raw axum
//!   WebSocket broadcast of the same payloads to as many clients, and against the graphql-yoga peer
//!   (tests/benches/peers/yoga, Node.js; `ACC_BENCH_PEER`, on by default when `node` is installed).
//! - **memory**: the `acc` process's RSS per idle `runEvents` subscription.
//!
//! Run with `cargo bench -p acc-tests --bench run_events`; docs/benchmarks.md has the knobs and the results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use acc_protocol::{AgentDescriptor, Capability, Command, CommandOutcome, Envelope, EventKind, Frame, HealthStatus};
use acc_tests::peer::Peer;
use anyhow::{Context as _, Result, anyhow, bail, ensure};
use axum::serve::ListenerExt;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement, TransactionTrait, Value};
use serde_json::{Value as Json, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command as Process};
use tokio::sync::{broadcast, mpsc};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use uuid::Uuid;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;
type WsSink = SplitSink<Ws, Message>;

/// A delivery slower than this at its 99th percentile does not count as sustained.
const SUSTAINED_P99: Duration = Duration::from_millis(500);
/// A fan-out phase ends when every subscriber has every event, or when deliveries made no progress for this long
/// (what is missing then is lost), or [`MAX_DRAIN`] after the last send.
const GRACE: Duration = Duration::from_secs(3);
const MAX_DRAIN: Duration = Duration::from_secs(120);
/// Heartbeats keep the runs' leases (30 s by default) alive through long phases.
const HEARTBEAT: Duration = Duration::from_secs(2);
/// The broadcast capacity of the raw server: the same as the server's broker topics (api/src/broker.rs).
const RAW_CAPACITY: usize = 1024;
/// Read buffer of every WebSocket client of the bench, so 10,000 clients stay small on the bench's side.
const CLIENT_READ_BUFFER: usize = 8 * 1024;
/// The raw ingest baseline runs this many times; the median counts.
const RAW_REPEATS: usize = 3;
/// The most rows [`raw_paced`] commits together, as `acc`'s SQLite writer.
const RAW_MAX_ROWS_PER_COMMIT: usize = 1024;
/// Padding of every event payload, so an event's `data` is about 200 bytes of JSON.
const PAD: usize = 150;

const SUBSCRIPTION: &str = "subscription Events($runId: ID!) { runEvents(runId: $runId) { sequence data } }";

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("run_events: cannot start the tokio runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("run_events benchmark failed: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// What to run and how long; every knob is an environment variable (see docs/benchmarks.md).
struct Config {
    parts: Vec<String>,
    /// Length of the ingest measurement and of the fan-out phase at the base rate.
    seconds: u64,
    /// Length of each step of the fan-out ramp.
    step_seconds: u64,
    connectors: usize,
    /// Events a connector has in flight (sent, not yet acknowledged).
    window: u64,
    /// The acknowledgement latency is measured at acc's rate divided by this (2: half the rate).
    pace_divisor: u64,
    /// Rows per transaction of the raw INSERT baseline.
    batch: usize,
    subscribers: usize,
    /// The fan-out base rate, events/s.
    rate: u64,
    /// The fan-out ramp, events/s, with the base rate put in its place.
    rates: Vec<u64>,
    /// Idle subscriptions of the memory part.
    idle: usize,
    /// Subscriptions per connection in the memory part's second variant.
    per_connection: usize,
}

fn env_or<T: FromStr>(name: &str, default: T) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    match std::env::var(name) {
        Ok(value) => value.trim().parse().map_err(|e| anyhow!("{name}={value:?}: {e}")),
        Err(_) => Ok(default),
    }
}

impl Config {
    fn from_env() -> Result<Self> {
        let parts = env_or("ACC_BENCH_PARTS", "ingest,fanout,memory".to_owned())?;
        let parts: Vec<String> = parts.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect();
        for part in &parts {
            ensure!(["ingest", "fanout", "memory"].contains(&part.as_str()), "ACC_BENCH_PARTS: unknown part {part}");
        }
        let rates = env_or("ACC_BENCH_RATES", "10,20,50,200,500,1000,2000,5000".to_owned())?;
        let rates = rates
            .split(',')
            .filter(|r| !r.trim().is_empty())
            .map(|r| r.trim().parse::<u64>().with_context(|| format!("ACC_BENCH_RATES: {r:?}")))
            .collect::<Result<Vec<_>>>()?;
        let config = Self {
            parts,
            seconds: env_or("ACC_BENCH_SECONDS", 10)?,
            step_seconds: env_or("ACC_BENCH_STEP_SECONDS", 5)?,
            connectors: env_or("ACC_BENCH_CONNECTORS", 4)?,
            window: env_or("ACC_BENCH_WINDOW", 64)?,
            pace_divisor: env_or("ACC_BENCH_PACE_DIVISOR", 2)?,
            batch: env_or("ACC_BENCH_BATCH", 100)?,
            subscribers: env_or("ACC_BENCH_SUBSCRIBERS", 1000)?,
            rate: env_or("ACC_BENCH_RATE", 100)?,
            rates,
            idle: env_or("ACC_BENCH_IDLE", 10_000)?,
            per_connection: env_or("ACC_BENCH_SUBSCRIPTIONS_PER_CONNECTION", 100)?,
        };
        ensure!(config.seconds > 0 && config.step_seconds > 0, "durations must be at least 1 s");
        ensure!(config.pace_divisor > 0, "ACC_BENCH_PACE_DIVISOR must be at least 1");
        ensure!(config.connectors > 0 && config.window > 0 && config.batch > 0, "counts must be at least 1");
        ensure!(config.subscribers > 0 && config.rate > 0 && config.idle > 0 && config.per_connection > 0);
        Ok(config)
    }

    fn runs(&self, part: &str) -> bool {
        self.parts.iter().any(|p| p == part)
    }
}

async fn run() -> Result<()> {
    let config = Config::from_env()?;
    let needed = (2 * config.subscribers).max(config.idle) as u64 + 1024;
    let files = raise_file_limit(needed)?;
    let binary = acc_binary().await?;
    println!("acc binary: {}", binary.display());
    println!(
        "machine: {} CPUs available; open files limit {files}; parts {:?}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        config.parts
    );
    println!("load average before: {}", load_average());
    let mut report = Vec::new();

    if config.runs("ingest") {
        let mut rows = vec![ingest(&binary, None, &config).await.context("ingest on SQLite")?];
        match std::env::var("ACC_TEST_DATABASE_URL") {
            Ok(url) if url.starts_with("postgres") => {
                let database = PostgresDatabase::create(&url).await?;
                let result = ingest(&binary, Some(&database.url), &config).await;
                database.drop_database().await?;
                rows.push(result.context("ingest on PostgreSQL")?);
            }
            _ => println!("\nACC_TEST_DATABASE_URL is not set to a postgres:// URL: skipping ingest on PostgreSQL"),
        }
        report.push(ingest_table(&config, &rows));
    }
    if config.runs("fanout") {
        let node = acc_tests::peer::node_for_peer().await?;
        report.push(fanout(&binary, &config, node.as_deref()).await.context("fan-out")?);
    }
    if config.runs("memory") {
        report.push(memory(&binary, &config).await.context("memory")?);
    }

    println!("\nload average after: {}", load_average());
    for section in report {
        println!("\n{section}");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// Ingest
// ---------------------------------------------------------------------------------------------------------------

struct IngestRow {
    backend: &'static str,
    events: u64,
    seconds: f64,
    latency: Percentiles,
    refusals: BTreeMap<String, u64>,
    raw_rows: u64,
    raw_seconds: f64,
    raw_latency: Percentiles,
    /// Acknowledgement latency with the connectors sending at `acc`'s rate divided by `pace_divisor` (half by
    /// default), from each event's scheduled time.
    paced: Percentiles,
    paced_rate: u64,
    /// The ideal group commit's latency at the paced rate ([`raw_paced`]).
    raw_paced: Percentiles,
    load: String,
}

impl IngestRow {
    fn rate(&self) -> f64 {
        self.events as f64 / self.seconds
    }
    fn raw_rate(&self) -> f64 {
        self.raw_rows as f64 / self.raw_seconds
    }
}

/// A connector's run under load: what it sent and what was acknowledged.
struct IngestLink {
    link: Link,
    run: Uuid,
    attempt: Uuid,
    acked: u64,
    next: u64,
    /// Event id and last send time of each sequence (index = sequence - 1); a resend reuses the id.
    ids: Vec<Uuid>,
    sent: Vec<Instant>,
}

#[derive(Default)]
struct IngestStats {
    events: u64,
    refusals: BTreeMap<String, u64>,
    latencies: Vec<Duration>,
}

async fn ingest(binary: &Path, database_url: Option<&str>, config: &Config) -> Result<IngestRow> {
    let backend = if database_url.is_some() { "PostgreSQL" } else { "SQLite" };
    println!("\n== ingest on {backend}: {} connectors, window {} ==", config.connectors, config.window);
    let server = Server::start(binary, database_url).await?;
    let result = ingest_on(&server, backend, database_url, config).await;
    server.finish(result.is_ok()).await;
    result
}

async fn ingest_on(
    server: &Server,
    backend: &'static str,
    database_url: Option<&str>,
    config: &Config,
) -> Result<IngestRow> {
    let http = reqwest::Client::new();
    let tenant = Tenant::bootstrap(&http, server).await?;
    let mut links = Vec::new();
    for i in 0..config.connectors {
        let mut link = Link::connect(&http, server, &tenant, &format!("ingest-{i}")).await?;
        let task = tenant.create_task(&http, server, &format!("ingest {i}")).await?;
        tenant.start_run(&http, server, &task, &format!("ingest-{i}")).await?;
        let (run, attempt) = link.accept_start().await?;
        links.push(IngestLink { link, run, attempt, acked: 0, next: 1, ids: Vec::new(), sent: Vec::new() });
    }
    let data = payload(0, 0, 0);
    println!(
        "{} connectors online, each with a running run; payload {} bytes of JSON",
        links.len(),
        data.to_string().len()
    );

    let warmup = Duration::from_secs(config.seconds.min(2));
    let (links_back, _, _) = pump_all(links, warmup, config.window, None, &data).await?;
    let before = load_average();
    let (links, stats, elapsed) =
        pump_all(links_back, Duration::from_secs(config.seconds), config.window, None, &data).await?;
    let seconds = elapsed.as_secs_f64();
    println!(
        "acc: {} events persisted and acknowledged in {seconds:.2} s = {:.0} events/s (refusals {:?}); load {before} -> {}",
        stats.events,
        stats.events as f64 / seconds,
        stats.refusals,
        load_average()
    );

    // The same connectors at half that rate (or another part of it), evenly paced: how long an acknowledgement takes
    // when the server keeps up.
    let paced_rate = (stats.events as f64 / seconds / config.pace_divisor as f64).max(1.0) as u64;
    let each = (paced_rate / links.len() as u64).max(1);
    let (links, paced, _) =
        pump_all(links, Duration::from_secs(config.seconds), config.window, Some(each), &data).await?;
    let paced = Percentiles::of(paced.latencies);
    println!(
        "acc paced at {paced_rate} events/s ({each} per connector): ack latency p50 {} / p99 {}",
        millis(paced.p50),
        millis(paced.p99)
    );

    // Everything acknowledged is in the database, once.
    let url = match database_url {
        Some(url) => url.to_owned(),
        None => format!("sqlite://{}", server.data_dir.join("acc.db").display()),
    };
    let db = acc_api::db::connect(&url).await.with_context(|| format!("cannot open {url}"))?;
    let acked: u64 = links.iter().map(|l| l.acked).sum();
    let stored = count(&db, "SELECT COUNT(*) AS n FROM run_events WHERE connector_id IS NOT NULL").await?;
    ensure!(stored == acked, "{acked} events were acknowledged but {stored} are stored");
    println!("checked: the {acked} acknowledged events are stored, each once");

    // The raw baseline: as many rows, same shape, same database, one multi-row INSERT per transaction.
    // SQLite takes one writer at a time: concurrent raw writers would only queue on its lock (busy waits), so the
    // raw side writes from one task there, and from one task per connector on PostgreSQL.
    let mut targets: Vec<(Uuid, Uuid, Uuid)> = links.iter().map(|l| (l.run, l.attempt, l.link.id)).collect();
    if database_url.is_none() {
        targets.truncate(1);
    }
    let mut raw = Vec::new();
    for attempt in 1..=RAW_REPEATS {
        let before = load_average();
        let (rows, elapsed, latencies) = raw_ingest(&db, &targets, stats.events, config.batch, &data).await?;
        println!(
            "raw #{attempt}: {rows} rows in {:.2} s = {:.0} rows/s ({} writers, {} rows per INSERT and transaction); \
             load {before} -> {}",
            elapsed.as_secs_f64(),
            rows as f64 / elapsed.as_secs_f64(),
            targets.len(),
            config.batch,
            load_average()
        );
        raw.push((rows, elapsed, latencies));
    }
    // The median of the repeats by rate.
    raw.sort_by(|a, b| (a.0 as f64 / a.1.as_secs_f64()).total_cmp(&(b.0 as f64 / b.1.as_secs_f64())));
    let (raw_rows, raw_elapsed, raw_latencies) = raw.swap_remove(RAW_REPEATS / 2);
    let raw_seconds = raw_elapsed.as_secs_f64();
    // What the database alone takes at the paced rate, every connector's run in each commit as in acc's.
    let all: Vec<(Uuid, Uuid, Uuid)> = links.iter().map(|l| (l.run, l.attempt, l.link.id)).collect();
    let raw_paced = raw_paced(&db, &all, each, Duration::from_secs(config.seconds), &data).await?;
    let raw_paced = Percentiles::of(raw_paced);
    println!(
        "raw group commit paced at {paced_rate} rows/s: commit latency p50 {} / p99 {}",
        millis(raw_paced.p50),
        millis(raw_paced.p99)
    );
    db.close().await.context("closing the raw connection pool")?;
    Ok(IngestRow {
        backend,
        events: stats.events,
        seconds,
        latency: Percentiles::of(stats.latencies),
        refusals: stats.refusals,
        raw_rows,
        raw_seconds,
        raw_latency: Percentiles::of(raw_latencies),
        paced,
        paced_rate,
        raw_paced,
        load: load_average(),
    })
}

/// Every connector sends for `duration` (in its own task), then waits for the acknowledgement of all it sent.
async fn pump_all(
    links: Vec<IngestLink>,
    duration: Duration,
    window: u64,
    pace: Option<u64>,
    data: &Json,
) -> Result<(Vec<IngestLink>, IngestStats, Duration)> {
    let started = Instant::now();
    let until = started + duration;
    let tasks: Vec<_> = links
        .into_iter()
        .map(|mut link| {
            let data = data.clone();
            tokio::spawn(async move {
                let mut stats = IngestStats::default();
                let result = pump(&mut link, until, window, pace, &data, &mut stats).await;
                result.map(|()| (link, stats))
            })
        })
        .collect();
    let mut links = Vec::new();
    let mut total = IngestStats::default();
    for task in tasks {
        let (link, stats) = task.await.context("a connector task panicked")??;
        links.push(link);
        total.events += stats.events;
        total.latencies.extend(stats.latencies);
        for (code, n) in stats.refusals {
            *total.refusals.entry(code).or_default() += n;
        }
    }
    Ok((links, total, started.elapsed()))
}

/// Sends events as fast as acknowledgements allow (at most `window` in flight), or with `pace`, that many a second
/// on schedule, until `until`, then drains. A refused event (an `internal` error, say) is sent again with its event
/// id, and everything after it too. A latency counts from an event's last send, or with `pace` from when it was due,
/// so one held back by a full window counts its wait.
async fn pump(
    l: &mut IngestLink,
    until: Instant,
    window: u64,
    pace: Option<u64>,
    data: &Json,
    stats: &mut IngestStats,
) -> Result<()> {
    let mut heartbeat = tokio::time::interval(HEARTBEAT);
    heartbeat.tick().await;
    let (started, before) = (Instant::now(), l.next - 1);
    let due_at = |sequence: u64, rate: u64| started + schedule(rate, sequence - 1 - before);
    loop {
        let now = Instant::now();
        let sending = now < until;
        // The last sequence that may go now: the window's end, and with a pace, the last one due.
        let due = pace.map_or(u64::MAX, |rate| before + (now - started).as_nanos() as u64 * rate / 1_000_000_000 + 1);
        let last = (l.acked + window).min(due);
        if sending && l.next <= last {
            while l.next <= last {
                let index = (l.next - 1) as usize;
                if index == l.ids.len() {
                    l.ids.push(Uuid::now_v7());
                    l.sent.push(pace.map_or(now, |rate| due_at(l.next, rate)));
                }
                if pace.is_none() {
                    l.sent[index] = Instant::now();
                }
                let event = l.link.event(l.run, l.next, l.ids[index], data.clone());
                l.link.sink.feed(Message::text(acc_protocol::encode(&event)?)).await?;
                l.next += 1;
            }
            l.link.sink.flush().await?;
        } else if !sending && l.acked + 1 >= l.next {
            return Ok(());
        }
        tokio::select! {
            envelope = l.link.recv() => {
                let envelope = envelope?;
                match envelope.payload {
                    Frame::EventAck { up_to_sequence, .. } => {
                        let now = Instant::now();
                        for sequence in l.acked + 1..=up_to_sequence.min(l.next - 1) {
                            stats.latencies.push(now - l.sent[(sequence - 1) as usize]);
                            stats.events += 1;
                        }
                        l.acked = l.acked.max(up_to_sequence);
                    }
                    Frame::Error { code, .. } => {
                        *stats.refusals.entry(format!("{code:?}")).or_default() += 1;
                        // The first unstored event was refused: send again from there.
                        if envelope.sequence == Some(l.acked + 1) {
                            l.next = l.acked + 1;
                        }
                    }
                    _ => {}
                }
            }
            _ = heartbeat.tick() => l.link.heartbeat(vec![l.run]).await?,
            _ = tokio::time::sleep_until(until.into()), if sending => {}
            _ = tokio::time::sleep_until(pace.map_or(until, |rate| due_at(l.next, rate)).into()),
                if sending && pace.is_some() && l.next <= l.acked + window => {}
        }
    }
}

async fn count(db: &DatabaseConnection, sql: &str) -> Result<u64> {
    let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await?.context("no count")?;
    Ok(row.try_get::<i64>("", "n")? as u64)
}

/// Inserts `rows` rows shaped like `run_events` (same columns, indexes and foreign key, in a scratch table) from as
/// many writers as there are connectors, `batch` rows per INSERT statement and transaction.
async fn raw_ingest(
    db: &DatabaseConnection,
    targets: &[(Uuid, Uuid, Uuid)],
    rows: u64,
    batch: usize,
    data: &Json,
) -> Result<(u64, Duration, Vec<Duration>)> {
    let backend = db.get_database_backend();
    create_scratch_table(db).await?;
    let per_writer = rows.div_ceil(targets.len() as u64);
    let started = Instant::now();
    let writers: Vec<_> = targets
        .iter()
        .map(|&(run, attempt, connector)| {
            let (db, data) = (db.clone(), data.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut written = 0u64;
                while written < per_writer {
                    let n = (per_writer - written).min(batch as u64) as usize;
                    let begun = Instant::now();
                    let rows: Vec<RawRow> =
                        (1..=n as i64).map(|i| ((run, attempt, connector), written as i64 + i)).collect();
                    let statement = raw_insert(backend, &rows, &data);
                    let txn = db.begin().await?;
                    txn.execute_raw(statement).await?;
                    txn.commit().await?;
                    latencies.push(begun.elapsed());
                    written += n as u64;
                }
                anyhow::Ok((written, latencies))
            })
        })
        .collect();
    let mut written = 0;
    let mut latencies = Vec::new();
    for writer in writers {
        let (n, l) = writer.await.context("a raw writer panicked")??;
        written += n;
        latencies.extend(l);
    }
    let elapsed = started.elapsed();
    let stored = count(db, "SELECT COUNT(*) AS n FROM bench_raw_events").await?;
    ensure!(stored == written, "the raw writers wrote {written} rows but {stored} are stored");
    db.execute_unprepared("DROP TABLE bench_raw_events").await?;
    Ok((written, elapsed, latencies))
}

/// `bench_raw_events`: a copy of `run_events`' definition, with its unique indexes and its foreign key to the runs.
async fn create_scratch_table(db: &DatabaseConnection) -> Result<()> {
    db.execute_unprepared("DROP TABLE IF EXISTS bench_raw_events").await?;
    match db.get_database_backend() {
        DbBackend::Sqlite => {
            let statement = Statement::from_string(
                DbBackend::Sqlite,
                "SELECT sql FROM sqlite_master WHERE tbl_name = 'run_events' AND sql IS NOT NULL ORDER BY type DESC",
            );
            let rows = db.query_all_raw(statement).await?;
            ensure!(!rows.is_empty(), "no definition of run_events in sqlite_master");
            for row in rows {
                let sql: String = row.try_get("", "sql")?;
                db.execute_unprepared(&sql.replace("run_events", "bench_raw_events")).await?;
            }
        }
        _ => {
            db.execute_unprepared("CREATE TABLE bench_raw_events (LIKE run_events INCLUDING ALL)").await?;
            db.execute_unprepared("ALTER TABLE bench_raw_events ADD FOREIGN KEY (run_id) REFERENCES task_runs (id)")
                .await?;
        }
    }
    Ok(())
}

/// A row of the scratch table: its run, attempt and connector, and its sequence (also its connector sequence).
type RawRow = ((Uuid, Uuid, Uuid), i64);

/// One multi-row INSERT of `rows`.
fn raw_insert(backend: DbBackend, rows: &[RawRow], data: &Json) -> Statement {
    const COLUMNS: usize = 11;
    let mut sql = String::from(
        "INSERT INTO bench_raw_events (id, run_id, sequence, attempt_id, connector_id, event_id, connector_sequence, \
         kind, data, occurred_at, created_at) VALUES ",
    );
    let mut values: Vec<Value> = Vec::with_capacity(rows.len() * COLUMNS);
    let now = chrono::Utc::now();
    for (i, &((run, attempt, connector), sequence)) in rows.iter().enumerate() {
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..COLUMNS {
            if c > 0 {
                sql.push_str(", ");
            }
            match backend {
                DbBackend::Postgres => sql.push_str(&format!("${}", i * COLUMNS + c + 1)),
                _ => sql.push('?'),
            }
        }
        sql.push(')');
        values.extend([
            Value::from(Uuid::now_v7()),
            Value::from(run),
            Value::from(sequence),
            Value::from(attempt),
            Value::from(connector),
            Value::from(Uuid::now_v7()),
            Value::from(sequence),
            Value::from("output"),
            Value::from(data.clone()),
            Value::from(now),
            Value::from(now),
        ]);
    }
    Statement::from_sql_and_values(backend, sql, values)
}

/// The ideal group commit at a paced rate: each target's rows come due `each` a second, on the paced connectors'
/// schedule, and a writer inserts every row due in one multi-row INSERT (at most [`RAW_MAX_ROWS_PER_COMMIT`]) and
/// commits, again and again: one writer for every target on SQLite, one per target on PostgreSQL, as `acc` stores
/// them. A row's latency runs from its due time to its commit: an acknowledgement with no network, protocol or
/// parsing at all, so what the database and the disk alone take at that rate.
async fn raw_paced(
    db: &DatabaseConnection,
    targets: &[(Uuid, Uuid, Uuid)],
    each: u64,
    duration: Duration,
    data: &Json,
) -> Result<Vec<Duration>> {
    let backend = db.get_database_backend();
    create_scratch_table(db).await?;
    let groups: Vec<Vec<(Uuid, Uuid, Uuid)>> = match backend {
        DbBackend::Sqlite => vec![targets.to_vec()],
        _ => targets.iter().map(|t| vec![*t]).collect(),
    };
    let started = Instant::now();
    let until = started + duration;
    // Rows due by `at`, per target: the row numbered n (from 0) is due at `schedule(each, n)`.
    let due_by = move |at: Instant| (at.min(until) - started).as_nanos() as u64 * each / 1_000_000_000 + 1;
    let writers: Vec<_> = groups
        .into_iter()
        .map(|group| {
            let (db, data) = (db.clone(), data.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut committed = vec![0u64; group.len()];
                loop {
                    let due = due_by(Instant::now());
                    let mut rows: Vec<RawRow> = Vec::new();
                    let mut due_at = Vec::new();
                    'targets: for (target, done) in group.iter().zip(&mut committed) {
                        while *done < due {
                            if rows.len() == RAW_MAX_ROWS_PER_COMMIT {
                                break 'targets;
                            }
                            rows.push((*target, *done as i64 + 1));
                            due_at.push(started + schedule(each, *done));
                            *done += 1;
                        }
                    }
                    if rows.is_empty() {
                        if Instant::now() >= until {
                            return anyhow::Ok(latencies);
                        }
                        tokio::time::sleep_until((started + schedule(each, due)).into()).await;
                        continue;
                    }
                    let txn = db.begin().await?;
                    txn.execute_raw(raw_insert(backend, &rows, &data)).await?;
                    txn.commit().await?;
                    let now = Instant::now();
                    latencies.extend(due_at.iter().map(|&at| now - at));
                }
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for writer in writers {
        latencies.extend(writer.await.context("a raw writer panicked")??);
    }
    db.execute_unprepared("DROP TABLE bench_raw_events").await?;
    Ok(latencies)
}

fn ingest_table(config: &Config, rows: &[IngestRow]) -> String {
    let mut out = format!(
        "### Ingest: {} connectors, {} events in flight each, {} s; raw: {} rows per INSERT and transaction\n\n",
        config.connectors, config.window, config.seconds, config.batch
    );
    out.push_str(&format!(
        "| database | acc events/s | ack latency p50 / p99 | refusals | raw rows/s (median of 3) | raw commit p50 / p99 | acc/raw | ack p50 / p99 at acc's rate / {} | raw group commit p50 / p99 at that rate | load after |\n",
        config.pace_divisor
    ));
    out.push_str("|---|---:|---:|---|---:|---:|---:|---:|---:|---|\n");
    for row in rows {
        out.push_str(&format!(
            "| {} | {:.0} ({} in {:.1} s) | {} / {} | {} | {:.0} ({} in {:.2} s) | {} / {} | **{:.3}** | {} / {} ({}/s) | {} / {} | {} |\n",
            row.backend,
            row.rate(),
            row.events,
            row.seconds,
            millis(row.latency.p50),
            millis(row.latency.p99),
            if row.refusals.is_empty() { "none".to_owned() } else { format!("{:?}", row.refusals) },
            row.raw_rate(),
            row.raw_rows,
            row.raw_seconds,
            millis(row.raw_latency.p50),
            millis(row.raw_latency.p99),
            row.rate() / row.raw_rate(),
            millis(row.paced.p50),
            millis(row.paced.p99),
            row.paced_rate,
            millis(row.raw_paced.p50),
            millis(row.raw_paced.p99),
            row.load,
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------------------------
// Fan-out
// ---------------------------------------------------------------------------------------------------------------

/// The data of a fan-out event: phase, number in the phase, send time (µs since [`epoch`]) and padding.
fn payload(phase: u64, n: u64, sent_us: u64) -> Json {
    json!({ "p": phase, "n": n, "t": sent_us, "pad": "x".repeat(PAD) })
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_us() -> u64 {
    epoch().elapsed().as_micros() as u64
}

/// The unsigned number after `key` in compact JSON text; both servers write compact JSON.
fn number_after(text: &str, key: &str) -> Option<u64> {
    let start = text.find(key)? + key.len();
    let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
    text[start..start + digits].parse().ok()
}

/// What one subscriber received in the current phase.
struct SubLog {
    phase: u64,
    seen: Vec<bool>,
    unique: u64,
    duplicates: u64,
    /// Messages of an earlier phase that came after it was counted: late, so counted as lost there.
    late: u64,
    latencies_us: Vec<u32>,
    /// Per event (by number): its latency to this subscriber, `u32::MAX` until received.
    by_event_us: Vec<u32>,
    last_us: u64,
}

impl SubLog {
    fn new(phase: u64, count: u64) -> Self {
        let count = count as usize;
        Self {
            phase,
            seen: vec![false; count],
            unique: 0,
            duplicates: 0,
            late: 0,
            latencies_us: Vec::with_capacity(count),
            by_event_us: vec![u32::MAX; count],
            last_us: 0,
        }
    }

    fn record(&mut self, text: &str) {
        let (Some(phase), Some(n), Some(sent)) =
            (number_after(text, "\"p\":"), number_after(text, "\"n\":"), number_after(text, "\"t\":"))
        else {
            return;
        };
        let now = now_us();
        if phase != self.phase {
            self.late += 1;
            return;
        }
        match self.seen.get_mut(n as usize) {
            Some(seen) if *seen => self.duplicates += 1,
            Some(seen) => {
                *seen = true;
                self.unique += 1;
                let latency = now.saturating_sub(sent).min(u64::from(u32::MAX - 1)) as u32;
                self.latencies_us.push(latency);
                self.by_event_us[n as usize] = latency;
                self.last_us = now;
            }
            None => self.duplicates += 1,
        }
    }
}

type Logs = Vec<Arc<Mutex<SubLog>>>;

fn begin_phase(logs: &Logs, phase: u64, count: u64) {
    for log in logs {
        *log.lock().unwrap() = SubLog::new(phase, count);
    }
}

/// One side's result at one rate.
struct Phase {
    rate: u64,
    events: u64,
    subscribers: usize,
    delivered: u64,
    duplicates: u64,
    latency: PercentilesUs,
    /// Per event, the latency to the first subscriber that received it (the path up to the sockets) and from
    /// there to the last (the walk over every subscriber's socket).
    first_receipt: PercentilesUs,
    receipt_spread: PercentilesUs,
    /// Deliveries per second, from the first send to the last receipt.
    delivered_per_second: f64,
    /// CPU the `acc` process spent per delivered message, when known.
    cpu_us_per_delivery: Option<f64>,
}

impl Phase {
    fn lost(&self) -> u64 {
        self.events * self.subscribers as u64 - self.delivered
    }
    fn sustained(&self) -> bool {
        self.lost() == 0 && self.latency.p99 <= SUSTAINED_P99.as_micros() as u64
    }
}

/// Waits until every subscriber has every event of the phase, or [`GRACE`] after the last send; then reads the logs.
async fn end_phase(logs: &Logs, rate: u64, events: u64, first_send_us: u64, last_send: Instant) -> Phase {
    let expected = events * logs.len() as u64;
    let (mut progress, mut progressed) = (0, Instant::now());
    loop {
        let delivered: u64 = logs.iter().map(|l| l.lock().unwrap().unique).sum();
        if delivered > progress {
            (progress, progressed) = (delivered, Instant::now());
        }
        let now = Instant::now();
        if delivered >= expected || now > progressed.max(last_send) + GRACE || now > last_send + MAX_DRAIN {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (mut delivered, mut duplicates, mut last_us) = (0, 0, first_send_us);
    let mut latencies = Vec::with_capacity(expected as usize);
    let (mut first, mut last) = (vec![u32::MAX; events as usize], vec![0; events as usize]);
    for log in logs {
        let log = log.lock().unwrap();
        delivered += log.unique;
        duplicates += log.duplicates;
        last_us = last_us.max(log.last_us);
        latencies.extend_from_slice(&log.latencies_us);
        for (n, &latency) in log.by_event_us.iter().enumerate().filter(|(_, l)| **l != u32::MAX) {
            first[n] = first[n].min(latency);
            last[n] = last[n].max(latency);
        }
    }
    let received = first.iter().zip(&last).filter(|(f, _)| **f != u32::MAX);
    let (first_receipt, receipt_spread): (Vec<u32>, Vec<u32>) = received.map(|(f, l)| (*f, l - f)).unzip();
    let span = (last_us.saturating_sub(first_send_us)).max(1) as f64 / 1e6;
    Phase {
        rate,
        events,
        subscribers: logs.len(),
        delivered,
        duplicates,
        latency: PercentilesUs::of(latencies),
        first_receipt: PercentilesUs::of(first_receipt),
        receipt_spread: PercentilesUs::of(receipt_spread),
        delivered_per_second: delivered as f64 / span,
        cpu_us_per_delivery: None,
    }
}

/// Reads one subscriber's socket until it closes: answers pings, records every `next`.
async fn read_subscriber(mut ws: Ws, log: Arc<Mutex<SubLog>>) {
    while let Some(Ok(message)) = ws.next().await {
        match message {
            Message::Text(text) => {
                let text = text.as_str();
                if text.starts_with("{\"type\":\"ping\"") || text.contains("\"type\":\"ping\"") {
                    let _ = ws.send(Message::text(json!({"type": "pong"}).to_string())).await;
                } else {
                    log.lock().unwrap().record(text);
                }
            }
            Message::Close(_) => break,
            _ => {}
        }
    }
}

/// A graphql-transport-ws connection with `subscriptions` `runEvents` subscriptions, each of which has delivered its
/// first (replayed) event: from then on it is live.
async fn gql_subscribe(ws_url: &str, token: &str, run_gid: &str, subscriptions: usize) -> Result<Ws> {
    let mut request = ws_url.into_client_request()?;
    request.headers_mut().insert("sec-websocket-protocol", "graphql-transport-ws".parse()?);
    let config = WebSocketConfig::default().read_buffer_size(CLIENT_READ_BUFFER);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true).await?;
    let init = json!({"type": "connection_init", "payload": {"authorization": format!("Bearer {token}")}});
    ws.send(Message::text(init.to_string())).await?;
    let mut acked = false;
    let mut live = vec![false; subscriptions];
    let mut waiting = subscriptions;
    while waiting > 0 {
        let message = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .context("no answer from the subscription within 60 s")?
            .context("the subscription socket closed")??;
        let Message::Text(text) = message else { continue };
        let value: Json = serde_json::from_str(text.as_str())?;
        match value["type"].as_str() {
            Some("connection_ack") if !acked => {
                acked = true;
                for id in 0..subscriptions {
                    let start = json!({"id": id.to_string(), "type": "subscribe",
                        "payload": {"query": SUBSCRIPTION, "variables": {"runId": run_gid}}});
                    ws.feed(Message::text(start.to_string())).await?;
                }
                ws.flush().await?;
            }
            Some("ping") => ws.send(Message::text(json!({"type": "pong"}).to_string())).await?,
            Some("next") => {
                let id: usize = value["id"].as_str().and_then(|i| i.parse().ok()).context("next without an id")?;
                if !std::mem::replace(&mut live[id], true) {
                    waiting -= 1;
                }
            }
            _ => bail!("unexpected message while subscribing: {value}"),
        }
    }
    Ok(ws)
}

/// Opens `count` connections with `f(i)` at most 64 at a time.
/// Where a fan-out side's subscribers subscribe, and the process whose memory they cost.
struct Subscribing<'a> {
    ws_url: &'a str,
    token: &'a str,
    run_gid: &'a str,
    pid: u32,
}

impl Subscribing<'_> {
    /// `count` live subscribers, each read into a log of its own, with the server's RSS before and after.
    async fn live(&self, count: usize, what: &str, server: &str) -> Result<(Logs, u64, u64)> {
        let rss_before = rss_kib(self.pid)?;
        let started = Instant::now();
        let sockets = open_many(count, |_| gql_subscribe(self.ws_url, self.token, self.run_gid, 1)).await?;
        let rss_after = rss_kib(self.pid)?;
        println!(
            "{count} {what} live in {:.1} s; {server} RSS {rss_before} -> {rss_after} KiB",
            started.elapsed().as_secs_f64()
        );
        let logs: Logs = (0..count).map(|_| Arc::new(Mutex::new(SubLog::new(u64::MAX, 0)))).collect();
        for (ws, log) in sockets.into_iter().zip(&logs) {
            tokio::spawn(read_subscriber(ws, log.clone()));
        }
        Ok((logs, rss_before, rss_after))
    }
}

async fn open_many<F, Fut>(count: usize, f: F) -> Result<Vec<Ws>>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<Ws>>,
{
    let opened: Vec<Result<Ws>> = futures_util::stream::iter((0..count).map(f)).buffered(64).collect().await;
    opened.into_iter().collect()
}

/// The fan-out connector: one run, a paced sender, acknowledgements and heartbeats on the side.
struct Emitter {
    id: Uuid,
    run: Uuid,
    sink: Arc<tokio::sync::Mutex<WsSink>>,
    next: u64,
    acked: Arc<AtomicU64>,
    refused: Arc<AtomicU64>,
}

impl Emitter {
    fn start(link: Link, run: Uuid) -> Self {
        let Link { id, sink, mut stream } = link;
        let sink = Arc::new(tokio::sync::Mutex::new(sink));
        let (acked, refused) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let (a, r) = (acked.clone(), refused.clone());
        tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                let Message::Text(text) = message else { continue };
                match acc_protocol::decode(text.as_bytes()).map(|e| e.payload) {
                    Ok(Frame::EventAck { up_to_sequence, .. }) => {
                        a.fetch_max(up_to_sequence, Ordering::Relaxed);
                    }
                    Ok(Frame::Error { .. }) => {
                        r.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
        });
        let beat = sink.clone();
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(HEARTBEAT);
            loop {
                interval.tick().await;
                let frame =
                    Envelope::new(id, Frame::Heartbeat { status: HealthStatus::Healthy, active_runs: vec![run] });
                let text = acc_protocol::encode(&frame).unwrap_or_default();
                if beat.lock().await.send(Message::text(text)).await.is_err() {
                    break;
                }
            }
        });
        Self { id, run, sink, next: 1, acked, refused }
    }

    /// Sends `count` events at `rate` events/s; returns the first send time (µs) and the instant of the last send.
    async fn emit(&mut self, phase: u64, rate: u64, count: u64) -> Result<(u64, Instant)> {
        let started = Instant::now();
        let first = now_us();
        let mut n = 0;
        while n < count {
            tokio::time::sleep_until((started + schedule(rate, n)).into()).await;
            let mut sink = self.sink.lock().await;
            while n < count && started + schedule(rate, n) <= Instant::now() {
                let mut envelope =
                    Envelope::new(self.id, Frame::Event { kind: EventKind::Output, data: payload(phase, n, now_us()) });
                envelope.run_id = Some(self.run);
                envelope.event_id = Some(Uuid::now_v7());
                envelope.sequence = Some(self.next);
                sink.feed(Message::text(acc_protocol::encode(&envelope)?)).await?;
                self.next += 1;
                n += 1;
            }
            sink.flush().await?;
        }
        Ok((first, Instant::now()))
    }
}

fn schedule(rate: u64, n: u64) -> Duration {
    Duration::from_nanos(n * 1_000_000_000 / rate)
}

/// The raw baseline: an axum WebSocket server that broadcasts what it is given to every client (a tokio broadcast
/// channel, each connection writing what is queued for it and flushing once), on a runtime of its own.
struct RawServer {
    url: String,
    sender: broadcast::Sender<axum::extract::ws::Utf8Bytes>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RawServer {
    fn start() -> Result<Self> {
        use axum::extract::State;
        use axum::extract::ws::{Message as AxMessage, WebSocket, WebSocketUpgrade};

        async fn upgrade(
            State(sender): State<broadcast::Sender<axum::extract::ws::Utf8Bytes>>,
            ws: WebSocketUpgrade,
        ) -> axum::response::Response {
            ws.on_upgrade(move |socket| serve(socket, sender.subscribe()))
        }

        async fn serve(socket: WebSocket, mut receiver: broadcast::Receiver<axum::extract::ws::Utf8Bytes>) {
            let (mut sink, mut stream) = socket.split();
            tokio::spawn(async move { while let Some(Ok(_)) = stream.next().await {} });
            // Subscribed: tell the client it is live.
            if sink.send(AxMessage::Text("live".into())).await.is_err() {
                return;
            }
            loop {
                let first = match receiver.recv().await {
                    Ok(message) => message,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if sink.feed(AxMessage::Text(first)).await.is_err() {
                    break;
                }
                loop {
                    match receiver.try_recv() {
                        Ok(message) => {
                            if sink.feed(AxMessage::Text(message)).await.is_err() {
                                return;
                            }
                        }
                        Err(broadcast::error::TryRecvError::Lagged(_)) => continue,
                        Err(_) => break,
                    }
                }
                if sink.flush().await.is_err() {
                    break;
                }
            }
        }

        let (sender, _) = broadcast::channel(RAW_CAPACITY);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").context("cannot bind the raw server")?;
        listener.set_nonblocking(true)?;
        let url = format!("ws://{}/ws", listener.local_addr()?);
        let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
        let app = axum::Router::new().route("/ws", axum::routing::get(upgrade)).with_state(sender.clone());
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("raw server runtime");
            runtime.block_on(async move {
                // Without Nagle's delay, as `acc` serves.
                let listener =
                    tokio::net::TcpListener::from_std(listener).expect("raw server listener").tap_io(|tcp| {
                        let _ = tcp.set_nodelay(true);
                    });
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stop.await;
                    })
                    .await;
            });
            runtime.shutdown_timeout(Duration::from_secs(1));
        });
        Ok(Self { url, sender, shutdown: Some(shutdown), thread: Some(thread) })
    }

    async fn connect(&self) -> Result<Ws> {
        let config = WebSocketConfig::default().read_buffer_size(CLIENT_READ_BUFFER);
        let (mut ws, _) = tokio_tungstenite::connect_async_with_config(self.url.as_str(), Some(config), true).await?;
        match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) if text.as_str() == "live" => Ok(ws),
            other => bail!("the raw server did not say live: {other:?}"),
        }
    }

    /// Broadcasts `count` events at `rate`, as the `next` messages a subscriber of `runEvents` receives.
    async fn emit(&self, phase: u64, rate: u64, count: u64, sequence: &mut u64) -> Result<(u64, Instant)> {
        let started = Instant::now();
        let first = now_us();
        let mut n = 0;
        while n < count {
            tokio::time::sleep_until((started + schedule(rate, n)).into()).await;
            while n < count && started + schedule(rate, n) <= Instant::now() {
                *sequence += 1;
                let next = json!({"id": "1", "type": "next",
                    "payload": {"data": {"runEvents": {"sequence": *sequence, "data": payload(phase, n, now_us())}}}});
                let _ = self.sender.send(next.to_string().into());
                n += 1;
            }
        }
        Ok((first, Instant::now()))
    }

    fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        drop(self.sender);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// CPU time (user + system) of a process, from /proc/PID/stat, in µs (clock ticks of 10 ms).
fn cpu_us(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks * 10_000)
}

async fn fanout(binary: &Path, config: &Config, node: Option<&str>) -> Result<String> {
    println!("\n== fan-out: {} subscribers, base rate {} events/s ==", config.subscribers, config.rate);
    let server = Server::start(binary, None).await?;
    let result = fanout_on(&server, config, node).await;
    server.finish(result.is_ok()).await;
    result
}

/// acc and the raw server, then (with `node`) the peer, which starts only once they are done, so that no phase of
/// one side shares the cores with another side's backlog.
async fn fanout_on(server: &Server, config: &Config, node: Option<&str>) -> Result<String> {
    let http = reqwest::Client::new();
    let tenant = Tenant::bootstrap(&http, server).await?;
    let mut link = Link::connect(&http, server, &tenant, "fanout").await?;
    let task = tenant.create_task(&http, server, "fan-out").await?;
    let run_gid = tenant.start_run(&http, server, &task, "fanout").await?;
    let (run, _) = link.accept_start().await?;
    let mut emitter = Emitter::start(link, run);
    let subscribers = config.subscribers;

    let subscribing = Subscribing { ws_url: &server.ws_url, token: &tenant.token, run_gid: &run_gid, pid: server.pid };
    let (acc_logs, rss_before, rss_after) =
        subscribing.live(subscribers, "graphql-transport-ws subscribers", "acc").await?;

    let raw = RawServer::start()?;
    let sockets = open_many(subscribers, |_| raw.connect()).await?;
    let raw_logs: Logs = (0..subscribers).map(|_| Arc::new(Mutex::new(SubLog::new(u64::MAX, 0)))).collect();
    for (ws, log) in sockets.into_iter().zip(&raw_logs) {
        tokio::spawn(read_subscriber(ws, log.clone()));
    }
    println!("{subscribers} raw WebSocket clients live");

    let mut phase = 0u64;
    let mut raw_sequence = 0u64;
    let mut acc_phases: Vec<Phase> = Vec::new();
    let mut raw_phases: Vec<Phase> = Vec::new();

    // Warm-up on both sides: one second at the base rate, not counted.
    for side in ["acc", "raw"] {
        phase += 1;
        let logs = if side == "acc" { &acc_logs } else { &raw_logs };
        begin_phase(logs, phase, config.rate);
        let (first, last) = if side == "acc" {
            emitter.emit(phase, config.rate, config.rate).await?
        } else {
            raw.emit(phase, config.rate, config.rate, &mut raw_sequence).await?
        };
        end_phase(logs, config.rate, config.rate, first, last).await;
    }

    // The base rate on both sides (each phase drains before the next starts), then the ramp in ascending order:
    // raw first, then acc, whose overload leaves the longest backlog behind.
    let base = [(config.rate, config.seconds)];
    let mut steps: Vec<(u64, u64)> =
        config.rates.iter().filter(|&&r| r != config.rate).map(|&r| (r, config.step_seconds)).collect();
    steps.sort_unstable();
    for (side, steps) in [("raw", &base[..]), ("acc", &base[..]), ("raw", &steps[..]), ("acc", &steps[..])] {
        for &(rate, seconds) in steps {
            phase += 1;
            let events = rate * seconds;
            let load = load_average();
            let phase_result = if side == "acc" {
                begin_phase(&acc_logs, phase, events);
                let cpu_before = cpu_us(server.pid);
                let (first, last) = emitter.emit(phase, rate, events).await?;
                let mut result = end_phase(&acc_logs, rate, events, first, last).await;
                result.cpu_us_per_delivery = cpu_per_delivery(server.pid, cpu_before, result.delivered);
                result
            } else {
                begin_phase(&raw_logs, phase, events);
                let (first, last) = raw.emit(phase, rate, events, &mut raw_sequence).await?;
                end_phase(&raw_logs, rate, events, first, last).await
            };
            println!("{}", phase_line(side, seconds, &phase_result, &load));
            let sustained = phase_result.sustained();
            let phases = if side == "acc" { &mut acc_phases } else { &mut raw_phases };
            phases.push(phase_result);
            phases.sort_by_key(|p| p.rate);
            if !sustained {
                break;
            }
        }
    }
    println!(
        "connector: {} events acknowledged, {} refused",
        emitter.acked.load(Ordering::Relaxed),
        emitter.refused.load(Ordering::Relaxed)
    );
    raw.stop();
    let peer = match node {
        Some(node) => Some(
            peer_fanout(server, config, &tenant, &run_gid, node, &base, &steps).await.context("the peer's fan-out")?,
        ),
        None => None,
    };
    Ok(fanout_table(config, &acc_phases, &raw_phases, rss_before, rss_after, peer.as_ref()))
}

/// One side's phase as the bench prints it when it ends.
fn phase_line(side: &str, seconds: u64, phase: &Phase, load_before: &str) -> String {
    format!(
        "{side} at {} events/s for {seconds} s: {} of {} delivered ({} lost, {} duplicates), {:.0} msg/s, \
         latency p50 {} p99 {} max {} (an event's first receipt p50 {} p99 {}, then to its last p50 {} p99 {}){}; \
         load {load_before} -> {}",
        phase.rate,
        phase.delivered,
        phase.events * phase.subscribers as u64,
        phase.lost(),
        phase.duplicates,
        phase.delivered_per_second,
        micros(phase.latency.p50),
        micros(phase.latency.p99),
        micros(phase.latency.max),
        micros(phase.first_receipt.p50),
        micros(phase.first_receipt.p99),
        micros(phase.receipt_spread.p50),
        micros(phase.receipt_spread.p99),
        phase.cpu_us_per_delivery.map_or(String::new(), |c| format!(", {side} CPU {c:.1} µs/delivery")),
        load_average(),
    )
}

/// CPU time the process `pid` spent per delivery since `before` ([`cpu_us`]), when both readings exist.
fn cpu_per_delivery(pid: u32, before: Option<u64>, delivered: u64) -> Option<f64> {
    Some((cpu_us(pid)? - before?) as f64 / delivered.max(1) as f64)
}

/// The peer's side of the fan-out.
struct PeerFanout {
    node: String,
    phases: Vec<Phase>,
    /// The peer's RSS before and after its subscribers connected.
    rss_before: u64,
    rss_after: u64,
    /// Why the peer's phases ended early: it stopped taking events, or exited.
    failure: Option<String>,
}

/// The graphql-yoga peer on acc's `acc.db`, as many graphql-ws subscribers of the same run (one per connection), its
/// events POSTed to `/publish` at the same rates as acc's connector sends them.
async fn peer_fanout(
    server: &Server,
    config: &Config,
    tenant: &Tenant,
    run_gid: &str,
    node: &str,
    base: &[(u64, u64)],
    steps: &[(u64, u64)],
) -> Result<PeerFanout> {
    println!("\n== fan-out on the graphql-yoga peer (Node.js {node}) ==");
    let mut peer = Peer::start(&server.data_dir.join("acc.db"), &server.root.join("peer.log")).await?;
    let result = peer_phases(&mut peer, config, tenant, run_gid, node, base, steps).await;
    peer.stop().await;
    result
}

/// The peer's warm-up, base rate and ramp (each side's rates and rules are the same: see [`fanout_on`]).
async fn peer_phases(
    peer: &mut Peer,
    config: &Config,
    tenant: &Tenant,
    run_gid: &str,
    node: &str,
    base: &[(u64, u64)],
    steps: &[(u64, u64)],
) -> Result<PeerFanout> {
    let http = reqwest::Client::new();
    let mut publisher = Publisher::start(http.clone(), peer.publish_url.clone(), run_gid.to_owned());
    // One stored event (of phase 0, which no phase counts), which every subscription replays first: the sign that it
    // is live, as with acc.
    let first = publisher.event(payload(0, 0, now_us()));
    post_events(&http, &peer.publish_url, &[first]).await?;

    let subscribers = config.subscribers;
    let subscribing = Subscribing { ws_url: &peer.ws_url, token: &tenant.token, run_gid, pid: peer.pid };
    let (logs, rss_before, rss_after) =
        subscribing.live(subscribers, "graphql-ws subscribers of the peer", "peer").await?;

    // Warm-up, its JIT too: one second at the base rate, not counted.
    let mut phase = 1;
    begin_phase(&logs, phase, config.rate);
    let (first, last) = publisher.emit(phase, config.rate, config.rate).await;
    end_phase(&logs, config.rate, config.rate, first, last).await;

    let mut phases: Vec<Phase> = Vec::new();
    let mut failure = None;
    'steps: for steps in [base, steps] {
        for &(rate, seconds) in steps {
            phase += 1;
            let events = rate * seconds;
            let load = load_average();
            begin_phase(&logs, phase, events);
            let cpu_before = cpu_us(peer.pid);
            let (first, last) = publisher.emit(phase, rate, events).await;
            let mut result = end_phase(&logs, rate, events, first, last).await;
            result.cpu_us_per_delivery = cpu_per_delivery(peer.pid, cpu_before, result.delivered);
            println!("{}", phase_line("peer", seconds, &result, &load));
            let sustained = result.sustained();
            phases.push(result);
            // A crash also fails the POSTs: its exit status and log say more.
            failure = peer.exited().map(|how| format!("the peer exited: {how}")).or_else(|| publisher.failure());
            if let Some(failure) = &failure {
                println!("the peer's phases end here: {failure}");
                break 'steps;
            }
            if !sustained {
                break;
            }
        }
    }
    phases.sort_by_key(|p| p.rate);
    Ok(PeerFanout { node: node.to_owned(), phases, rss_before, rss_after, failure })
}

/// Feeds the peer as acc's connector feeds acc: events leave on schedule whatever the peer's pace. One task POSTs
/// them to `/publish` in order; whatever queued up while a POST was in flight goes in the next one, as event frames
/// queue on the connector's socket and acc stores them as one batch.
struct Publisher {
    run_id: String,
    next: u64,
    queue: mpsc::UnboundedSender<Vec<Json>>,
    failure: Arc<Mutex<Option<String>>>,
}

impl Publisher {
    fn start(http: reqwest::Client, url: String, run_id: String) -> Self {
        let (queue, mut batches) = mpsc::unbounded_channel::<Vec<Json>>();
        let failure = Arc::new(Mutex::new(None));
        let failed = failure.clone();
        tokio::spawn(async move {
            while let Some(mut events) = batches.recv().await {
                while let Ok(more) = batches.try_recv() {
                    events.extend(more);
                }
                if let Err(e) = post_events(&http, &url, &events).await {
                    *failed.lock().unwrap() = Some(format!("{e:#}"));
                    break;
                }
            }
        });
        Self { run_id, next: 1, queue, failure }
    }

    /// The next event of the run, as `/publish` takes it.
    fn event(&mut self, data: Json) -> Json {
        let event = json!({ "runId": self.run_id, "sequence": self.next, "data": data });
        self.next += 1;
        event
    }

    /// Sends `count` events at `rate` events/s; returns the first send time (µs) and the instant of the last send.
    /// A failed POST ends the sending task; [`Publisher::failure`] says why.
    async fn emit(&mut self, phase: u64, rate: u64, count: u64) -> (u64, Instant) {
        let started = Instant::now();
        let first = now_us();
        let mut n = 0;
        while n < count {
            tokio::time::sleep_until((started + schedule(rate, n)).into()).await;
            let mut due = Vec::new();
            while n < count && started + schedule(rate, n) <= Instant::now() {
                due.push(self.event(payload(phase, n, now_us())));
                n += 1;
            }
            // Once the sending task has failed, what is sent is lost, and counted so.
            let _ = self.queue.send(due);
        }
        (first, Instant::now())
    }

    fn failure(&self) -> Option<String> {
        self.failure.lock().unwrap().clone()
    }
}

async fn post_events(http: &reqwest::Client, url: &str, events: &[Json]) -> Result<()> {
    let response = http.post(url).json(events).send().await.with_context(|| format!("POST {url}"))?;
    let status = response.status();
    ensure!(status.is_success(), "POST {url} answered {status}: {}", response.text().await.unwrap_or_default());
    Ok(())
}

fn fanout_table(
    config: &Config,
    acc: &[Phase],
    raw: &[Phase],
    rss_before: u64,
    rss_after: u64,
    peer: Option<&PeerFanout>,
) -> String {
    let n = config.subscribers;
    let mut out = format!(
        "### Fan-out: one run's events to {n} subscribers on loopback\n\n\
         acc RSS with {n} live subscriptions: {rss_before} -> {rss_after} KiB \
         ({:.1} KiB each, one connection per subscriber)\n",
        (rss_after.saturating_sub(rss_before)) as f64 / n as f64
    );
    if let Some(peer) = peer {
        out.push_str(&format!(
            "peer (graphql-yoga + graphql-ws, one Node.js {} process) RSS with {n} live subscriptions: {} -> {} KiB \
             ({:.1} KiB each)\n",
            peer.node,
            peer.rss_before,
            peer.rss_after,
            (peer.rss_after.saturating_sub(peer.rss_before)) as f64 / n as f64
        ));
    }
    out.push_str(&format!("\nAt the base rate ({} events/s for {} s):\n\n", config.rate, config.seconds));
    out.push_str("| side | delivered | lost | p50 | p99 | max | msg/s |\n|---|---:|---:|---:|---:|---:|---:|\n");
    let mut sides = vec![("acc (graphql-transport-ws)", acc), ("raw axum broadcast", raw)];
    if let Some(peer) = peer {
        sides.push(("peer (graphql-yoga + graphql-ws)", &peer.phases));
    }
    for (side, phases) in sides {
        if let Some(p) = phases.iter().find(|p| p.rate == config.rate) {
            out.push_str(&format!(
                "| {side} | {} | {} | {} | {} | {} | {:.0} |\n",
                p.delivered,
                p.lost(),
                micros(p.latency.p50),
                micros(p.latency.p99),
                micros(p.latency.max),
                p.delivered_per_second
            ));
        }
    }
    let base = |phases: &[Phase]| phases.iter().find(|p| p.rate == config.rate).map(|p| (p.latency.p99, p.lost()));
    if let (Some(a), Some(r)) = (base(acc), base(raw)) {
        out.push_str(&format!(
            "\np99 acc/raw = **{:.2}** (target ≤ 1.5), lost: {} (target 0)\n",
            a.0 as f64 / r.0.max(1) as f64,
            a.1
        ));
    }
    out.push_str(&format!(
        "\nRamp (each step {} s; a step is sustained when nothing is lost and p99 ≤ {} ms; the base rate always runs on every side; \
         above it a side stops at its first unsustained step):\n\n",
        config.step_seconds,
        SUSTAINED_P99.as_millis()
    ));
    out.push_str(
        "| events/s | acc delivered msg/s | acc lost | acc p50 / p99 | acc CPU µs/delivery | raw delivered msg/s | raw lost | raw p50 / p99 |",
    );
    if peer.is_some() {
        out.push_str(" peer delivered msg/s | peer lost | peer p50 / p99 | peer CPU µs/delivery |");
    }
    out.push_str("\n|---:|---:|---:|---:|---:|---:|---:|---:|");
    if peer.is_some() {
        out.push_str("---:|---:|---:|---:|");
    }
    out.push('\n');
    let mut rates: Vec<u64> =
        acc.iter().chain(raw).chain(peer.iter().flat_map(|p| &p.phases)).map(|p| p.rate).collect();
    rates.sort_unstable();
    rates.dedup();
    let cell = |phases: &[Phase], rate: u64| -> (String, String, String) {
        match phases.iter().find(|p| p.rate == rate) {
            Some(p) => (
                format!("{:.0}{}", p.delivered_per_second, if p.sustained() { "" } else { " (not sustained)" }),
                p.lost().to_string(),
                format!("{} / {}", micros(p.latency.p50), micros(p.latency.p99)),
            ),
            None => ("–".into(), "–".into(), "–".into()),
        }
    };
    let cpu = |phases: &[Phase], rate: u64| {
        phases
            .iter()
            .find(|p| p.rate == rate)
            .and_then(|p| p.cpu_us_per_delivery)
            .map_or("–".to_owned(), |c| format!("{c:.1}"))
    };
    for rate in rates {
        let (a_rate, a_lost, a_lat) = cell(acc, rate);
        let (r_rate, r_lost, r_lat) = cell(raw, rate);
        out.push_str(&format!(
            "| {rate} | {a_rate} | {a_lost} | {a_lat} | {} | {r_rate} | {r_lost} | {r_lat} |",
            cpu(acc, rate)
        ));
        if let Some(peer) = peer {
            let (p_rate, p_lost, p_lat) = cell(&peer.phases, rate);
            out.push_str(&format!(" {p_rate} | {p_lost} | {p_lat} | {} |", cpu(&peer.phases, rate)));
        }
        out.push('\n');
    }
    let best = |phases: &[Phase]| {
        phases.iter().filter(|p| p.sustained()).max_by_key(|p| p.rate).map(|p| (p.rate, p.delivered_per_second))
    };
    match (best(acc), best(raw)) {
        (Some((a_rate, a_mps)), Some((r_rate, r_mps))) => out.push_str(&format!(
            "\nHighest rate sustained: acc {a_rate} events/s ({a_mps:.0} msg/s delivered), raw {r_rate} events/s \
             ({r_mps:.0} msg/s){}; delivered msg/s acc/raw = **{:.3}** (target ≥ 0.5)\n",
            if config.rates.iter().max().is_some_and(|&m| m <= r_rate) { ", the top of the ramp" } else { "" },
            a_mps / r_mps
        )),
        _ => out.push_str("\nOne side sustained no rate at all.\n"),
    }
    // The highest rate acc and `other` both sustain.
    let common = |other: &[Phase], name: &str| {
        let a = acc.iter().rfind(|a| a.sustained() && other.iter().any(|o| o.rate == a.rate && o.sustained()))?;
        let o = other.iter().find(|o| o.rate == a.rate)?;
        Some(format!(
            "At {} events/s, the highest rate acc and {name} both sustain: acc {:.0} msg/s, {name} {:.0} msg/s \
             (acc/{name} {:.3})\n",
            a.rate,
            a.delivered_per_second,
            o.delivered_per_second,
            a.delivered_per_second / o.delivered_per_second
        ))
    };
    out.push_str(&common(raw, "raw").unwrap_or_default());
    if let Some(peer) = peer {
        match (best(acc), best(&peer.phases)) {
            (Some((a_rate, a_mps)), Some((p_rate, p_mps))) => out.push_str(&format!(
                "Highest rate the peer sustained: {p_rate} events/s ({p_mps:.0} msg/s delivered); delivered msg/s at \
                 the highest rate each sustains, acc ({a_rate} events/s)/peer = **{:.2}** (target ≥ 10)\n",
                a_mps / p_mps
            )),
            (_, None) => out.push_str("The peer sustained no rate at all.\n"),
            (None, Some(_)) => out.push_str("acc sustained no rate at all, the peer did.\n"),
        }
        out.push_str(&common(&peer.phases, "peer").unwrap_or_default());
        if let Some(failure) = &peer.failure {
            // The first line, and the error the log names if there is one; the whole log tail is printed above.
            let lines = failure.lines();
            let summary: Vec<&str> =
                lines.clone().take(1).chain(lines.filter(|l| l.contains("Error:")).take(1)).collect();
            out.push_str(&format!("The peer's phases ended early: {}\n", summary.join(" ")));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------------------------------

fn rss_kib(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("cannot read /proc/{pid}/status"))?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).context("no VmRSS")?;
    line.split_whitespace().nth(1).context("bad VmRSS")?.parse().context("bad VmRSS")
}

async fn memory(binary: &Path, config: &Config) -> Result<String> {
    let mut out = format!(
        "### Memory: RSS of `acc` per idle `runEvents` subscription, {} subscriptions\n\n\
         | variant | connections | subscriptions | RSS before | RSS after | KiB per subscription |\n\
         |---|---:|---:|---:|---:|---:|\n",
        config.idle
    );
    let per = config.per_connection.min(config.idle);
    for (label, connections, each) in [
        ("one subscription per connection", config.idle, 1),
        ("many subscriptions per connection", config.idle.div_ceil(per), per),
    ] {
        println!("\n== memory: {connections} connections × {each} subscriptions ==");
        let server = Server::start(binary, None).await?;
        let result = memory_on(&server, connections, each).await;
        server.finish(result.is_ok()).await;
        let (before, after) = result?;
        let subscriptions = connections * each;
        let line = format!(
            "| {label} | {connections} | {subscriptions} | {before} KiB | {after} KiB | **{:.2}** |\n",
            (after.saturating_sub(before)) as f64 / subscriptions as f64
        );
        print!("{line}");
        out.push_str(&line);
    }
    out.push_str("\nTarget: ≤ 10 KiB per idle subscription at 10,000 subscribers.\n");
    Ok(out)
}

async fn memory_on(server: &Server, connections: usize, each: usize) -> Result<(u64, u64)> {
    let http = reqwest::Client::new();
    let tenant = Tenant::bootstrap(&http, server).await?;
    let mut link = Link::connect(&http, server, &tenant, "memory").await?;
    let task = tenant.create_task(&http, server, "memory").await?;
    let run_gid = tenant.start_run(&http, server, &task, "memory").await?;
    let (run, _) = link.accept_start().await?;
    let _emitter = Emitter::start(link, run);
    // A few subscriptions first, so the server's one-time allocations (schema, pools, caches) are in the baseline.
    let warm = open_many(10, |_| gql_subscribe(&server.ws_url, &tenant.token, &run_gid, 1)).await?;
    drop(warm);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = rss_kib(server.pid)?;
    let started = Instant::now();
    let sockets = open_many(connections, |_| gql_subscribe(&server.ws_url, &tenant.token, &run_gid, each)).await?;
    let logs: Vec<_> = (0..sockets.len()).map(|_| Arc::new(Mutex::new(SubLog::new(u64::MAX, 0)))).collect();
    for (ws, log) in sockets.into_iter().zip(&logs) {
        tokio::spawn(read_subscriber(ws, log.clone()));
    }
    println!("{} subscriptions live in {:.1} s", connections * each, started.elapsed().as_secs_f64());
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = rss_kib(server.pid)?;
    Ok((before, after))
}

// ---------------------------------------------------------------------------------------------------------------
// The server, the tenant and the connector protocol
// ---------------------------------------------------------------------------------------------------------------

/// Raises the soft limit of open files to the hard limit; the child `acc` inherits it.
fn raise_file_limit(needed: u64) -> Result<u64> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).context("getrlimit")?;
    if soft < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard).context("setrlimit")?;
    }
    ensure!(
        hard >= needed,
        "this run needs about {needed} open files but the hard limit is {hard}: raise it (ulimit -Hn, or \
         /etc/security/limits.conf) or lower ACC_BENCH_IDLE / ACC_BENCH_SUBSCRIBERS"
    );
    Ok(hard)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

/// The release `acc` binary next to this benchmark (same target dir), built first when it is missing.
async fn acc_binary() -> Result<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().context("the tests crate has no parent")?;
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
        let mut build = Process::new(cargo);
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

/// A running `acc serve` on a temporary data dir.
struct Server {
    child: Child,
    pid: u32,
    root: PathBuf,
    data_dir: PathBuf,
    log: PathBuf,
    graphql_url: String,
    base_url: String,
    ws_url: String,
    bootstrap_code: String,
}

impl Server {
    async fn start(binary: &Path, database_url: Option<&str>) -> Result<Self> {
        let root = std::env::temp_dir().join(format!("acc-bench-{:016x}", rand::random::<u64>()));
        let data_dir = root.join("data");
        std::fs::create_dir_all(&data_dir).with_context(|| format!("cannot create {}", data_dir.display()))?;
        let log = root.join("acc.log");
        let log_file = std::fs::File::create(&log).with_context(|| format!("cannot create {}", log.display()))?;

        let mut command = Process::new(binary);
        command.arg("serve").arg("--data-dir").arg(&data_dir).args(["--listen", "127.0.0.1:0"]);
        if let Some(url) = database_url {
            command.args(["--database-url", url]);
        }
        command
            .env_remove("ACC_DATABASE_URL")
            .env_remove("ACC_DATABASE_URL_FILE")
            .env("ACC_TOKENS__ACCESS_TOKEN_SECONDS", "86400")
            // No memory search here: a first start would otherwise download and load the
            // embedding model in the background, in the middle of the measurements.
            .env("ACC_MEMORY__FETCH_EMBEDDING_MODEL", "false")
            // Every subscriber signs in as the tenant's one user; the default cap of sockets per
            // user (64) would close all but the first.
            .env("ACC_WEBSOCKET__MAX_SOCKETS_PER_IDENTITY", "1000000")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file)
            .kill_on_drop(true);
        let mut child = command.spawn().with_context(|| format!("cannot start {}", binary.display()))?;
        let pid = child.id().context("acc has no pid")?;
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
        let failure = match tokio::time::timeout(Duration::from_secs(120), banner).await {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(_) => Some(anyhow!("acc printed no GraphQL URL and bootstrap code within 120 s")),
        };
        if let Some(e) = failure {
            let _ = child.kill().await;
            let tail = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(e.context(format!("starting acc failed; its log:\n{tail}")));
        }
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let (Some(graphql_url), Some(bootstrap_code)) = (graphql_url, bootstrap_code) else {
            bail!("acc banner incomplete");
        };
        let base_url = graphql_url.trim_end_matches("/graphql").to_owned();
        let ws_url = format!("{}/ws", graphql_url.replacen("http", "ws", 1));
        println!("acc listening: {graphql_url} (pid {pid})");
        Ok(Self { child, pid, root, data_dir, log, graphql_url, base_url, ws_url, bootstrap_code })
    }

    /// Stops the server; removes its data dir after a success, keeps it (and says where) after a failure.
    async fn finish(mut self, success: bool) {
        let _ = self.child.kill().await;
        if success {
            let _ = std::fs::remove_dir_all(&self.root);
        } else {
            eprintln!("server log kept in {}", self.log.display());
        }
    }
}

async fn graphql(
    http: &reqwest::Client,
    server: &Server,
    token: Option<&str>,
    query: &str,
    vars: Json,
) -> Result<Json> {
    let mut request = http.post(&server.graphql_url).json(&json!({ "query": query, "variables": vars }));
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

/// The owner of a fresh server, with a workspace and a project.
struct Tenant {
    token: String,
    workspace_id: String,
    project_id: String,
}

impl Tenant {
    async fn bootstrap(http: &reqwest::Client, server: &Server) -> Result<Self> {
        let data = graphql(
            http,
            server,
            None,
            "mutation ($code: String!) { redeemBootstrap(code: $code, organizationName: \"Bench\", \
             email: \"owner@bench.example\", password: \"bench-password-correct-horse\") { accessToken } }",
            json!({ "code": server.bootstrap_code }),
        )
        .await
        .context("redeemBootstrap")?;
        let token = string_at(&data, "/redeemBootstrap/accessToken")?;
        let auth = Some(token.as_str());
        let data =
            graphql(http, server, auth, "mutation { createWorkspace(name: \"bench\") { id } }", json!({})).await?;
        let workspace_id = string_at(&data, "/createWorkspace/id")?;
        let data = graphql(
            http,
            server,
            auth,
            "mutation ($w: ID!) { createProject(workspaceId: $w, name: \"run events\") { id } }",
            json!({ "w": workspace_id }),
        )
        .await?;
        let project_id = string_at(&data, "/createProject/id")?;
        Ok(Self { token, workspace_id, project_id })
    }

    async fn create_task(&self, http: &reqwest::Client, server: &Server, title: &str) -> Result<String> {
        let data = graphql(
            http,
            server,
            Some(&self.token),
            "mutation ($input: CreateTaskInput!) { createTask(input: $input) { id } }",
            json!({ "input": { "projectId": self.project_id, "title": title } }),
        )
        .await?;
        string_at(&data, "/createTask/id")
    }

    /// Starts a run of `task` on the agent named `agent`; returns the run's global id.
    async fn start_run(&self, http: &reqwest::Client, server: &Server, task: &str, agent: &str) -> Result<String> {
        let data = graphql(
            http,
            server,
            Some(&self.token),
            "query ($p: ID!) { agents(projectId: $p) { id name } }",
            json!({ "p": self.project_id }),
        )
        .await?;
        let agents = data["agents"].as_array().context("no agents")?;
        let agent_id = agents
            .iter()
            .find(|a| a["name"] == agent)
            .and_then(|a| a["id"].as_str())
            .with_context(|| format!("no agent {agent}"))?;
        let data = graphql(
            http,
            server,
            Some(&self.token),
            "mutation ($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({ "t": task, "a": agent_id }),
        )
        .await?;
        string_at(&data, "/startRun/id")
    }
}

/// A connector on the wire: enrolled over HTTP, then speaking the connector protocol over its WebSocket.
struct Link {
    id: Uuid,
    sink: WsSink,
    stream: SplitStream<Ws>,
}

impl Link {
    /// Enrolls a connector and dials in with one agent named `agent`.
    async fn connect(http: &reqwest::Client, server: &Server, tenant: &Tenant, agent: &str) -> Result<Self> {
        let data = graphql(
            http,
            server,
            Some(&tenant.token),
            "mutation ($w: ID!, $n: String!) { createEnrollmentToken(workspaceId: $w, name: $n, expiresIn: 600) { token } }",
            json!({ "w": tenant.workspace_id, "n": agent }),
        )
        .await?;
        let token = string_at(&data, "/createEnrollmentToken/token")?;
        // On SQLite an enrollment that meets another write fails with INTERNAL (see docs/benchmarks.md); the token
        // is only used up by a success, so it is retried.
        let mut tries = 0;
        let enrolled = loop {
            tries += 1;
            let response = http
                .post(format!("{}/v1/connectors/enroll", server.base_url))
                .json(&json!({ "token": token, "name": agent }))
                .send()
                .await
                .context("enroll")?;
            let status = response.status();
            let enrolled: Json = response.json().await.context("enroll answered no JSON")?;
            if status.is_success() {
                break enrolled;
            }
            ensure!(status.is_server_error() && tries < 10, "enroll answered {status}: {enrolled}");
            println!("enroll of {agent} answered {status} (try {tries}): {enrolled}; trying again");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let id: Uuid = string_at(&enrolled, "/connector_id")?.parse()?;
        let credential = string_at(&enrolled, "/credential")?;

        let url = format!("{}/v1/connectors/ws", server.base_url.replacen("http", "ws", 1));
        let mut request = url.into_client_request()?;
        request.headers_mut().insert("authorization", format!("Bearer {credential}").parse()?);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(request, None, true).await.context("dial")?;
        let (sink, stream) = ws.split();
        let mut link = Self { id, sink, stream };
        let descriptor = AgentDescriptor {
            name: agent.into(),
            adapter: "command".into(),
            adapter_version: "bench".into(),
            runtime_version: None,
            capabilities: vec![Capability::Stream],
        };
        let hello = Frame::Hello { connector_version: "bench".into(), agents: vec![descriptor], resume: vec![] };
        link.send(&Envelope::new(id, hello)).await?;
        match link.recv().await?.payload {
            Frame::HelloAck { .. } => Ok(link),
            other => bail!("expected hello_ack, got {other:?}"),
        }
    }

    async fn send(&mut self, envelope: &Envelope) -> Result<()> {
        self.sink.send(Message::text(acc_protocol::encode(envelope)?)).await?;
        Ok(())
    }

    async fn heartbeat(&mut self, active_runs: Vec<Uuid>) -> Result<()> {
        self.send(&Envelope::new(self.id, Frame::Heartbeat { status: HealthStatus::Healthy, active_runs })).await
    }

    /// The next frame from the control plane.
    async fn recv(&mut self) -> Result<Envelope> {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(60), self.stream.next())
                .await
                .context("no frame from the gateway within 60 s")?
                .context("the gateway closed the socket")??;
            match message {
                Message::Text(text) => return Ok(acc_protocol::decode(text.as_bytes())?),
                Message::Close(frame) => bail!("the gateway closed the socket: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// Takes the next `start_run` and accepts it; returns its run and attempt.
    async fn accept_start(&mut self) -> Result<(Uuid, Uuid)> {
        loop {
            if let Frame::Command { command_id, command: Command::StartRun { run_id, attempt_id, .. } } =
                self.recv().await?.payload
            {
                let ack = Frame::CommandAck { command_id, outcome: CommandOutcome::Accepted };
                self.send(&Envelope::new(self.id, ack)).await?;
                return Ok((run_id, attempt_id));
            }
        }
    }

    fn event(&self, run: Uuid, sequence: u64, event_id: Uuid, data: Json) -> Envelope {
        let mut envelope = Envelope::new(self.id, Frame::Event { kind: EventKind::Output, data });
        envelope.run_id = Some(run);
        envelope.event_id = Some(event_id);
        envelope.sequence = Some(sequence);
        envelope
    }
}

/// A throw-away PostgreSQL database next to the one `ACC_TEST_DATABASE_URL` names.
struct PostgresDatabase {
    admin: DatabaseConnection,
    name: String,
    url: String,
}

impl PostgresDatabase {
    async fn create(admin_url: &str) -> Result<Self> {
        let admin =
            sea_orm::Database::connect(admin_url).await.with_context(|| format!("cannot connect to {admin_url}"))?;
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

// ---------------------------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------------------------

struct Percentiles {
    p50: Duration,
    p99: Duration,
}

impl Percentiles {
    fn of(mut samples: Vec<Duration>) -> Self {
        if samples.is_empty() {
            return Self { p50: Duration::ZERO, p99: Duration::ZERO };
        }
        samples.sort_unstable();
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
        Self { p50: at(0.50), p99: at(0.99) }
    }
}

/// Percentiles of latencies in µs.
struct PercentilesUs {
    p50: u64,
    p99: u64,
    max: u64,
}

impl PercentilesUs {
    fn of(mut samples: Vec<u32>) -> Self {
        if samples.is_empty() {
            return Self { p50: 0, p99: 0, max: 0 };
        }
        samples.sort_unstable();
        let at = |q: f64| u64::from(samples[((samples.len() - 1) as f64 * q).round() as usize]);
        Self { p50: at(0.50), p99: at(0.99), max: at(1.0) }
    }
}

fn millis(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn micros(us: u64) -> String {
    format!("{:.1} ms", us as f64 / 1e3)
}
