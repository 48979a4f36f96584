//! Database connection: SQLite (WAL, synchronous=FULL) by default, PostgreSQL when the URL says so.

mod reads;

pub use reads::{Reads, StatementCounter};

use std::path::PathBuf;
use std::time::Duration;

use acc_migration::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::SqlitePoolOptions;
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr, ExecResult,
    QueryResult, SqliteTransactionMode, SqlxSqliteConnector, Statement, TransactionOptions, TransactionTrait,
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
                .busy_timeout(BUSY_TIMEOUT)
                .foreign_keys(true)
                .create_if_missing(true)
        });
    } else {
        // sqlx pings a connection when it is taken from the pool and again when it goes back:
        // two round trips to PostgreSQL around every statement a read runs. The first is kept
        // only for a connection idle long enough to have been cut (a server restart, a
        // failover) since it last worked; one in steady use goes straight to its statement.
        options.max_connections(32).min_connections(1).test_before_acquire_if_idle_for(PING_AFTER_IDLE);
    }
    Database::connect(options).await
}

/// How long a PostgreSQL connection may sit in the pool before it is pinged on its way out.
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// The database as a service uses it: writes and transactions through the pool, and reads that
/// need no transaction through [`Reads`].
#[derive(Clone)]
pub struct Store {
    pub pool: Pool,
    pub reads: Reads,
}

/// Whose turn it is to write to SQLite, in this process.
static SQLITE_WRITER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// SQLite's busy timeout, and the longest a writer waits for its turn: one that waits longer
/// fails as SQLite would have failed it, rather than hang (say, a write outside the transaction
/// its task holds the turn for).
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The turn to write to SQLite, held until dropped (after the commit); `None` on PostgreSQL.
pub type WriteTurn = Option<tokio::sync::MutexGuard<'static, ()>>;

/// The pool services write through. On SQLite every writer of this process waits for its turn
/// in one queue and wakes the moment the writer before it is done: transactions
/// ([`Pool::begin_write`]) and single statements that write alike. A write that went straight
/// to SQLite would poll its busy handler instead, whose back-off grows to 100 ms a try; behind a
/// steady writer (run events coming in) a connector's heartbeat waited hundreds of milliseconds
/// that way, and every event behind it on the connector's socket with it.
#[derive(Clone)]
pub struct Pool {
    db: DatabaseConnection,
    /// What writes go through. On SQLite, a connection of its own: writes take turns anyway, and
    /// a write on the pool's next connection found that connection's page cache stale after the
    /// writes made on the others, and read again every page it touched (most of a small
    /// commit's time; docs/benchmarks.md). On PostgreSQL, the pool itself.
    writes: DatabaseConnection,
}

impl Pool {
    pub fn new(db: DatabaseConnection) -> Self {
        let writes = match db.get_database_backend() {
            DbBackend::Sqlite => {
                let options = db.get_sqlite_connection_pool().connect_options();
                let one = SqlitePoolOptions::new()
                    .max_connections(1)
                    .acquire_timeout(BUSY_TIMEOUT)
                    .connect_lazy_with((*options).clone());
                SqlxSqliteConnector::from_sqlx_sqlite_pool(one)
            }
            _ => db.clone(),
        };
        Self { db, writes }
    }

    /// Counts each statement of the writes' own connection with `counter`, as the pool's are
    /// (tests count work).
    pub fn counted(mut self, counter: StatementCounter) -> Self {
        if self.db.get_database_backend() == DbBackend::Sqlite {
            self.writes.set_metric_callback(move |_| counter());
        }
        self
    }

    pub fn connection(&self) -> &DatabaseConnection {
        &self.db
    }

    /// Where a statement goes: the writes' connection when it holds the turn to write.
    fn for_statement(&self, turn: &WriteTurn) -> &DatabaseConnection {
        if turn.is_some() { &self.writes } else { &self.db }
    }

    /// Begins a transaction that writes. On SQLite, after the turn, it takes the write lock at
    /// `BEGIN IMMEDIATE`, since a deferred transaction that reads first cannot become the writer
    /// once another one committed in between (SQLITE_BUSY, which the busy timeout cannot wait
    /// out). PostgreSQL needs neither. The turn ends with the transaction.
    pub async fn begin_write(&self) -> Result<WriteTransaction, DbErr> {
        let turn = self.turn().await?;
        let options = TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..Default::default()
        };
        Ok(WriteTransaction { txn: self.writes.begin_with_options(options).await?, _turn: turn })
    }

    async fn turn(&self) -> Result<WriteTurn, DbErr> {
        if self.db.get_database_backend() != DbBackend::Sqlite {
            return Ok(None);
        }
        match tokio::time::timeout(BUSY_TIMEOUT, SQLITE_WRITER.lock()).await {
            Ok(turn) => Ok(Some(turn)),
            Err(_) => Err(DbErr::Custom("database is locked: no turn to write within the busy timeout".into())),
        }
    }

    /// The turn for a single statement: only one that may write needs it.
    async fn turn_for(&self, sql: &str) -> Result<WriteTurn, DbErr> {
        let reads_only = sql.trim_start().get(..6).is_some_and(|verb| verb.eq_ignore_ascii_case("select"));
        if reads_only { Ok(None) } else { self.turn().await }
    }
}

/// A transaction that writes, holding the turn (on SQLite) until it commits, rolls back or is
/// dropped; so whatever the caller writes after it waits in the queue like everyone else.
pub struct WriteTransaction {
    // Declared first, so a dropped transaction rolls back before the turn is given back.
    txn: DatabaseTransaction,
    _turn: WriteTurn,
}

impl WriteTransaction {
    pub async fn commit(self) -> Result<(), DbErr> {
        self.txn.commit().await
    }

    pub async fn rollback(self) -> Result<(), DbErr> {
        self.txn.rollback().await
    }
}

impl std::ops::Deref for WriteTransaction {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        &self.txn
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for WriteTransaction {
    fn get_database_backend(&self) -> DbBackend {
        self.txn.get_database_backend()
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        self.txn.execute_raw(stmt).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.txn.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.txn.query_one_raw(stmt).await
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.txn.query_all_raw(stmt).await
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for Pool {
    fn get_database_backend(&self) -> DbBackend {
        self.db.get_database_backend()
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        let turn = self.turn_for(&stmt.sql).await?;
        self.for_statement(&turn).execute_raw(stmt).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        let turn = self.turn_for(sql).await?;
        self.for_statement(&turn).execute_unprepared(sql).await
    }

    // `INSERT … RETURNING` and `UPDATE … RETURNING` come this way too.
    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        let turn = self.turn_for(&stmt.sql).await?;
        self.for_statement(&turn).query_one_raw(stmt).await
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        let turn = self.turn_for(&stmt.sql).await?;
        self.for_statement(&turn).query_all_raw(stmt).await
    }

    fn support_returning(&self) -> bool {
        self.db.support_returning()
    }
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

/// A migrated SQLite database `acc.db` in a new temporary directory named after `what`, for
/// tests; the directory is the caller's to remove.
#[cfg(test)]
pub(crate) async fn migrated_sqlite(what: &str) -> (DatabaseConnection, PathBuf) {
    let dir = std::env::temp_dir().join(format!("acc-{what}-{}", uuid::Uuid::now_v7().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = connect(&format!("sqlite://{}?mode=rwc", dir.join("acc.db").display())).await.unwrap();
    migrate(&db).await.unwrap();
    (db, dir)
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

/// The pool's connections: how many are open, and how many of them idle.
pub fn pool_usage(db: &DatabaseConnection) -> (u32, u32) {
    match db.get_database_backend() {
        DbBackend::Sqlite => {
            let pool = db.get_sqlite_connection_pool();
            (pool.size(), u32::try_from(pool.num_idle()).unwrap_or(u32::MAX))
        }
        DbBackend::Postgres => {
            let pool = db.get_postgres_connection_pool();
            (pool.size(), u32::try_from(pool.num_idle()).unwrap_or(u32::MAX))
        }
        _ => (0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn marks(pool: &Pool) -> Vec<i64> {
        let select = Statement::from_string(DbBackend::Sqlite, "SELECT n FROM marks ORDER BY rowid");
        let rows = pool.query_all_raw(select).await.unwrap();
        rows.iter().map(|row| row.try_get::<i64>("", "n").unwrap()).collect()
    }

    /// A single statement that writes waits in the same queue as transactions: nothing of it
    /// reaches SQLite while another writer of this process holds the turn, even when SQLite's
    /// own lock is free; and it runs as soon as the turn is given back.
    #[tokio::test]
    async fn a_single_write_waits_for_the_turn() {
        let dir = std::env::temp_dir().join(format!("acc-turn-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let pool = Pool::new(connect(&format!("sqlite://{}?mode=rwc", dir.join("acc.db").display())).await.unwrap());
        pool.execute_unprepared("CREATE TABLE marks (n INTEGER NOT NULL)").await.unwrap();

        let turn = SQLITE_WRITER.lock().await;
        let single = tokio::spawn({
            let pool = pool.clone();
            async move { pool.execute_unprepared("INSERT INTO marks VALUES (1)").await.map(drop) }
        });
        // Time enough for a write that skipped the queue to land.
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(marks(&pool).await, Vec::<i64>::new(), "the write went ahead of the turn");
        drop(turn);
        single.await.unwrap().unwrap();
        assert_eq!(marks(&pool).await, [1]);
        std::fs::remove_dir_all(dir).ok();
    }

    /// Every write goes through the same connection, whose page cache stays warm, while reads
    /// that need no turn are spread over the pool: a temporary table (which only the connection
    /// that made it sees) made by one write is there for every later write and transaction, even
    /// with reads keeping the pool's other connections busy in between.
    #[tokio::test]
    async fn writes_go_through_one_connection() {
        let (db, dir) = migrated_sqlite("writes").await;
        let pool = Pool::new(db);
        pool.execute_unprepared("CREATE TEMP TABLE marks (n INTEGER NOT NULL)").await.unwrap();
        for n in 0..20 {
            let reads = (0..4).map(|_| pool.query_all_raw(Statement::from_string(DbBackend::Sqlite, "SELECT 1")));
            futures_util::future::try_join_all(reads).await.unwrap();
            if n % 2 == 0 {
                pool.execute_unprepared(&format!("INSERT INTO marks VALUES ({n})")).await.unwrap();
            } else {
                let txn = pool.begin_write().await.unwrap();
                txn.execute_unprepared(&format!("INSERT INTO marks VALUES ({n})")).await.unwrap();
                txn.commit().await.unwrap();
            }
        }
        let txn = pool.begin_write().await.unwrap();
        let count = txn.query_one_raw(Statement::from_string(DbBackend::Sqlite, "SELECT count(*) AS n FROM marks"));
        let count: i64 = count.await.unwrap().unwrap().try_get("", "n").unwrap();
        assert_eq!(count, 20);
        drop(txn);
        std::fs::remove_dir_all(dir).ok();
    }
}
