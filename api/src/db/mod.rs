//! Database connection: SQLite (WAL, synchronous=FULL) by default, PostgreSQL when the URL says so.

mod reads;

pub use reads::{Reads, StatementCounter};

use std::path::PathBuf;
use std::time::Duration;

use acc_migration::{Migrator, MigratorTrait};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr,
    SqliteTransactionMode, TransactionOptions, TransactionTrait,
};

/// Opens the database and applies the pragmas the embedded profile relies on.
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    let mut options = ConnectOptions::new(url.to_owned());
    options.connect_timeout(Duration::from_secs(10)).acquire_timeout(Duration::from_secs(10)).sqlx_logging(false);
    if url.starts_with("sqlite:") {
        // One writer at a time is SQLite's rule; a small pool avoids busy writers queuing on locks.
        options.max_connections(8).min_connections(1);
        options.map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Full)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
                .create_if_missing(true)
        });
    } else {
        options.max_connections(32).min_connections(1);
    }
    Database::connect(options).await
}

/// The database as a service uses it: writes and transactions through the pool, and reads that
/// need no transaction through [`Reads`].
#[derive(Clone)]
pub struct Store {
    pub pool: DatabaseConnection,
    pub reads: Reads,
}

/// Whose turn it is to write to SQLite, in this process.
static SQLITE_WRITER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The turn to write to SQLite, held until dropped (after the commit); `None` on PostgreSQL.
pub type WriteTurn = Option<tokio::sync::MutexGuard<'static, ()>>;

/// Begins a transaction that writes. On SQLite, writers first take their turn in a queue in
/// this process, so they wake the moment the writer before them is done instead of polling
/// the busy handler; then the write lock at `BEGIN IMMEDIATE`, since a deferred transaction
/// that reads first cannot become the writer once another one committed in between
/// (SQLITE_BUSY, which the busy timeout cannot wait out). PostgreSQL needs neither. Keep the
/// turn until the transaction has ended.
pub async fn begin_write(db: &DatabaseConnection) -> Result<(DatabaseTransaction, WriteTurn), DbErr> {
    let turn = match db.get_database_backend() {
        DbBackend::Sqlite => Some(SQLITE_WRITER.lock().await),
        _ => None,
    };
    let options =
        TransactionOptions { sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate), ..Default::default() };
    Ok((db.begin_with_options(options).await?, turn))
}

/// The file a `sqlite:` URL names, if it names one (not `sqlite::memory:`).
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or_default();
    (!path.is_empty() && !path.starts_with(":memory:")).then(|| PathBuf::from(path))
}

pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    Migrator::up(db, None).await
}

/// Ready when the database answers and no migration is pending.
pub async fn readiness(db: &DatabaseConnection) -> Result<(), String> {
    db.execute_unprepared("SELECT 1").await.map_err(|e| format!("database unreachable: {e}"))?;
    let pending = Migrator::get_pending_migrations(db).await.map_err(|e| format!("cannot read migrations: {e}"))?;
    if pending.is_empty() { Ok(()) } else { Err(format!("{} migrations pending", pending.len())) }
}

pub fn backend_name(db: &DatabaseConnection) -> &'static str {
    match db.get_database_backend() {
        DbBackend::Sqlite => "sqlite",
        DbBackend::Postgres => "postgres",
        _ => "other",
    }
}
