//! Reads outside a transaction: on SQLite, on the calling thread; on PostgreSQL, through the pool.
//!
//! sqlx runs each SQLite connection on a thread of its own and hands it every statement, and
//! every row back, through channels: on a page of tasks those hand-offs (futex and eventfd
//! wake-ups, task switches) cost a third of the server's CPU, more than SQLite itself. SQLite is
//! a library, and a read from its page cache takes microseconds, so a read is better done where
//! it is asked for, as better-sqlite3 does in Node.js: [`Reads`] keeps one read-only connection
//! per thread and runs each statement on the thread that awaits it. Writes and transactions stay
//! on the sqlx pool, behind the writer's turn ([`super::Pool::begin_write`]). In WAL mode a reader never
//! waits for the writer, and sees every transaction committed before its statement starts, so a
//! read after a write sees the write.
//!
//! Services build their queries with sea-orm as for any database. A row becomes its model through
//! the entity's own columns (`ActiveModel::try_set`), each decoded as the type the entity
//! declares, since SQLite says only `integer` for an `i32` and an `i64` alike; a column the entity
//! does not have is refused, so a statement of other columns stays on the pool.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use rusqlite::config::DbConfig;
use rusqlite::types::{ToSqlOutput, Value as SqliteValue, ValueRef};
use sea_orm::sea_query::{ColumnType, OptionEnum, Value, ValueType};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, DbBackend, DbErr, EntityTrait, FromQueryResult,
    QuerySelect, QueryTrait, Select, Statement, TryIntoModel,
};
use uuid::Uuid;

/// Where reads that need no transaction go.
#[derive(Clone)]
pub enum Reads {
    /// PostgreSQL: the same pool as writes.
    Pool(DatabaseConnection),
    /// SQLite: a connection of the calling thread's own.
    Sqlite(Arc<SqliteReads>),
}

/// Called after each statement a reader runs (tests count them, as they count the pool's).
pub type StatementCounter = Arc<dyn Fn() + Send + Sync>;

impl Reads {
    /// Reads for `db`, opened on the same database file when it is SQLite.
    pub fn for_database(db: &DatabaseConnection, sqlite_file: Option<&Path>) -> Self {
        match (db.get_database_backend(), sqlite_file) {
            (DbBackend::Sqlite, Some(path)) => Reads::Sqlite(Arc::new(SqliteReads::new(path))),
            _ => Reads::Pool(db.clone()),
        }
    }

    /// Counts each statement read here with `counter`.
    pub fn counted(self, counter: StatementCounter) -> Self {
        match self {
            Reads::Sqlite(reads) => Reads::Sqlite(Arc::new(SqliteReads { counter: Some(counter), ..(*reads).clone() })),
            pool => pool,
        }
    }

    /// What counts the statements read here, if anything does.
    pub fn counter(&self) -> Option<StatementCounter> {
        match self {
            Reads::Sqlite(reads) => reads.counter.clone(),
            Reads::Pool(_) => None,
        }
    }

    /// Every row of `select`, as models.
    pub async fn all<E>(&self, select: Select<E>) -> Result<Vec<E::Model>, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        match self {
            Reads::Pool(db) => select.all(db).await,
            Reads::Sqlite(reads) => {
                let rows = reads.rows::<E>(select.build(DbBackend::Sqlite), None)?;
                Ok(rows.into_iter().map(|(_, model)| model).collect())
            }
        }
    }

    /// The first row of `select`, if any.
    pub async fn one<E>(&self, select: Select<E>) -> Result<Option<E::Model>, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        match self {
            Reads::Pool(db) => select.one(db).await,
            Reads::Sqlite(_) => Ok(self.all(select.limit(1)).await?.into_iter().next()),
        }
    }

    /// Every row of `select`, each with the value of one more column, `key` (what it was found
    /// by: the other end of an edge, say).
    pub async fn all_keyed<E, K>(&self, select: Select<E>, key: &'static str) -> Result<Vec<(K, E::Model)>, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
        K: KeyType,
    {
        match self {
            Reads::Pool(db) => {
                let rows = db.query_all_raw(select.build(db.get_database_backend())).await?;
                rows.iter()
                    .map(|row| {
                        Ok((row.try_get::<K>("", key)?, <E::Model as FromQueryResult>::from_query_result(row, "")?))
                    })
                    .collect()
            }
            Reads::Sqlite(reads) => {
                let rows =
                    reads.rows::<E>(select.build(DbBackend::Sqlite), Some((key, Decode::of(&K::column_type())?)))?;
                rows.into_iter()
                    .map(|(found, model)| {
                        let found = found.ok_or_else(|| DbErr::Type(format!("no {key} column")))?;
                        Ok((K::try_from(found).map_err(|e| DbErr::Type(e.to_string()))?, model))
                    })
                    .collect()
            }
        }
    }
}

/// A key column's type: read from a pool's row, or decoded from SQLite as its `ColumnType` says.
pub trait KeyType: sea_orm::TryGetable + ValueType + Send {}
impl<T: sea_orm::TryGetable + ValueType + Send> KeyType for T {}

/// Read-only connections to one SQLite file, one per thread that reads.
#[derive(Clone)]
pub struct SqliteReads {
    /// Tells this database's connections from others' on the same thread (tests open many).
    id: u64,
    path: PathBuf,
    counter: Option<StatementCounter>,
}

static NEXT_READS_ID: AtomicU64 = AtomicU64::new(1);

/// Statements kept prepared per connection: a request's reads are a few dozen shapes.
const PREPARED_STATEMENTS: usize = 64;

thread_local! {
    /// This thread's connections, by [`SqliteReads::id`].
    static CONNECTIONS: RefCell<Vec<(u64, rusqlite::Connection)>> = const { RefCell::new(Vec::new()) };
}

/// How a column's stored value becomes the sea-orm value its model field takes.
#[derive(Clone, Copy, Debug)]
enum Decode {
    Uuid,
    DateTimeUtc,
    Json,
    Bool,
    I32,
    I64,
    F64,
    Text,
    Bytes,
}

impl Decode {
    fn of(column_type: &ColumnType) -> Result<Self, DbErr> {
        Ok(match column_type {
            ColumnType::Uuid => Decode::Uuid,
            ColumnType::TimestampWithTimeZone => Decode::DateTimeUtc,
            ColumnType::Json | ColumnType::JsonBinary => Decode::Json,
            ColumnType::Boolean => Decode::Bool,
            ColumnType::Integer => Decode::I32,
            ColumnType::BigInteger => Decode::I64,
            ColumnType::Float | ColumnType::Double => Decode::F64,
            ColumnType::String(_) | ColumnType::Text | ColumnType::Char(_) | ColumnType::Enum { .. } => Decode::Text,
            ColumnType::Blob | ColumnType::Binary(_) | ColumnType::VarBinary(_) => Decode::Bytes,
            other => return Err(DbErr::Type(format!("SQLite reads do not decode {other:?} columns"))),
        })
    }

    fn value(self, stored: ValueRef<'_>) -> Result<Value, DbErr> {
        let wrong = |stored: ValueRef<'_>| DbErr::Type(format!("a {:?} column holds {:?}", self, stored.data_type()));
        Ok(match (self, stored) {
            (Decode::Uuid, ValueRef::Null) => Value::Uuid(None),
            (Decode::Uuid, ValueRef::Blob(bytes)) => {
                Value::Uuid(Some(Uuid::from_slice(bytes).map_err(|e| DbErr::Type(e.to_string()))?))
            }
            (Decode::Uuid, ValueRef::Text(text)) => Value::Uuid(Some(
                std::str::from_utf8(text).ok().and_then(|t| Uuid::parse_str(t).ok()).ok_or_else(|| wrong(stored))?,
            )),
            (Decode::DateTimeUtc, ValueRef::Null) => Value::ChronoDateTimeUtc(None),
            (Decode::DateTimeUtc, ValueRef::Text(text)) => Value::ChronoDateTimeUtc(Some(
                std::str::from_utf8(text).ok().and_then(parse_timestamp).ok_or_else(|| wrong(stored))?,
            )),
            (Decode::Json, ValueRef::Null) => Value::Json(None),
            (Decode::Json, ValueRef::Text(text) | ValueRef::Blob(text)) => {
                Value::Json(Some(Box::new(serde_json::from_slice(text).map_err(|e| DbErr::Json(e.to_string()))?)))
            }
            (Decode::Bool, ValueRef::Null) => Value::Bool(None),
            (Decode::Bool, ValueRef::Integer(i)) => Value::Bool(Some(i != 0)),
            (Decode::I32, ValueRef::Null) => Value::Int(None),
            (Decode::I32, ValueRef::Integer(i)) => {
                Value::Int(Some(<i32 as TryFrom<i64>>::try_from(i).map_err(|_| wrong(stored))?))
            }
            (Decode::I64, ValueRef::Null) => Value::BigInt(None),
            (Decode::I64, ValueRef::Integer(i)) => Value::BigInt(Some(i)),
            (Decode::F64, ValueRef::Null) => Value::Double(None),
            (Decode::F64, ValueRef::Real(f)) => Value::Double(Some(f)),
            (Decode::F64, ValueRef::Integer(i)) => Value::Double(Some(i as f64)),
            (Decode::Text, ValueRef::Null) => Value::String(None),
            (Decode::Text, ValueRef::Text(text)) => {
                Value::String(Some(std::str::from_utf8(text).map_err(|_| wrong(stored))?.to_owned()))
            }
            (Decode::Bytes, ValueRef::Null) => Value::Bytes(None),
            (Decode::Bytes, ValueRef::Blob(bytes)) => Value::Bytes(Some(bytes.to_vec())),
            _ => return Err(wrong(stored)),
        })
    }
}

/// A timestamp as sqlx writes it (RFC 3339), or SQLite's own `YYYY-MM-DD HH:MM:SS` (UTC).
fn parse_timestamp(text: &str) -> Option<DateTime<Utc>> {
    utc_rfc3339(text.as_bytes()).or_else(|| {
        DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .ok()
            .or_else(|| NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f").ok().map(|t| t.and_utc()))
    })
}

/// The one form every timestamp here is written in, `YYYY-MM-DDTHH:MM:SS[.fraction]+00:00`,
/// read without chrono's general parser: rows carry two timestamps each, and that parser was a
/// seventh of what decoding a page's rows cost. Anything else (another offset, a leap second)
/// is `None`, for chrono to read.
fn utc_rfc3339(text: &[u8]) -> Option<DateTime<Utc>> {
    fn number(digits: &[u8]) -> Option<u32> {
        digits.iter().try_fold(0u32, |n, &d| d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0')))
    }
    let (main, rest) = text.split_at_checked(19)?;
    if [main[4], main[7], main[10], main[13], main[16]] != *b"--T::" {
        return None;
    }
    let fraction = rest.strip_suffix(b"+00:00").or_else(|| rest.strip_suffix(b"Z"))?;
    let nanos = match fraction {
        [] => 0,
        [b'.', digits @ ..] if (1..=9).contains(&digits.len()) => number(digits)? * 10u32.pow(9 - digits.len() as u32),
        _ => return None,
    };
    let date = NaiveDate::from_ymd_opt(number(&main[0..4])? as i32, number(&main[5..7])?, number(&main[8..10])?)?;
    let time =
        NaiveTime::from_hms_nano_opt(number(&main[11..13])?, number(&main[14..16])?, number(&main[17..19])?, nanos)?;
    Some(date.and_time(time).and_utc())
}

/// A sea-orm value as sqlx binds it for SQLite, so comparisons with stored values hold.
fn bind_value(value: Value) -> Result<ToSqlOutput<'static>, DbErr> {
    let owned = |v: SqliteValue| ToSqlOutput::Owned(v);
    Ok(owned(match value {
        Value::Bool(Some(b)) => SqliteValue::Integer(i64::from(b)),
        Value::TinyInt(Some(i)) => SqliteValue::Integer(i64::from(i)),
        Value::SmallInt(Some(i)) => SqliteValue::Integer(i64::from(i)),
        Value::Int(Some(i)) => SqliteValue::Integer(i64::from(i)),
        Value::BigInt(Some(i)) => SqliteValue::Integer(i),
        Value::TinyUnsigned(Some(i)) => SqliteValue::Integer(i64::from(i)),
        Value::SmallUnsigned(Some(i)) => SqliteValue::Integer(i64::from(i)),
        Value::Unsigned(Some(i)) => SqliteValue::Integer(i64::from(i)),
        Value::BigUnsigned(Some(i)) => SqliteValue::Integer(
            <i64 as TryFrom<u64>>::try_from(i).map_err(|_| DbErr::Type(format!("{i} is too large for SQLite")))?,
        ),
        Value::Float(Some(f)) => SqliteValue::Real(f64::from(f)),
        Value::Double(Some(f)) => SqliteValue::Real(f),
        Value::String(Some(s)) => SqliteValue::Text(s),
        Value::Char(Some(c)) => SqliteValue::Text(c.to_string()),
        Value::Enum(OptionEnum::Some(e)) => SqliteValue::Text(e.value.into_owned()),
        Value::Bytes(Some(b)) => SqliteValue::Blob(b),
        Value::Uuid(Some(u)) => SqliteValue::Blob(u.as_bytes().to_vec()),
        Value::ChronoDateTimeUtc(Some(t)) => SqliteValue::Text(t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, false)),
        Value::Json(Some(j)) => SqliteValue::Text(j.to_string()),
        Value::Bool(None)
        | Value::TinyInt(None)
        | Value::SmallInt(None)
        | Value::Int(None)
        | Value::BigInt(None)
        | Value::TinyUnsigned(None)
        | Value::SmallUnsigned(None)
        | Value::Unsigned(None)
        | Value::BigUnsigned(None)
        | Value::Float(None)
        | Value::Double(None)
        | Value::String(None)
        | Value::Char(None)
        | Value::Enum(OptionEnum::None(_))
        | Value::Bytes(None)
        | Value::Uuid(None)
        | Value::ChronoDateTimeUtc(None)
        | Value::Json(None) => SqliteValue::Null,
        other => return Err(DbErr::Type(format!("SQLite reads do not bind {other:?}"))),
    }))
}

fn sqlite_error(e: rusqlite::Error) -> DbErr {
    DbErr::Custom(format!("SQLite read: {e}"))
}

impl SqliteReads {
    fn new(path: &Path) -> Self {
        Self { id: NEXT_READS_ID.fetch_add(1, Ordering::Relaxed), path: path.to_owned(), counter: None }
    }

    /// Runs `read` on this thread's connection, opening it on first use.
    fn with_connection<T>(&self, read: impl FnOnce(&rusqlite::Connection) -> Result<T, DbErr>) -> Result<T, DbErr> {
        CONNECTIONS.with(|connections| {
            let mut connections = connections.borrow_mut();
            let index = match connections.iter().position(|(id, _)| *id == self.id) {
                Some(index) => index,
                None => {
                    connections.push((self.id, self.open()?));
                    connections.len() - 1
                }
            };
            read(&connections[index].1)
        })
    }

    fn open(&self) -> Result<rusqlite::Connection, DbErr> {
        let connection = rusqlite::Connection::open(&self.path).map_err(sqlite_error)?;
        // Reads only: a statement that would write fails instead.
        connection.execute_batch("PRAGMA query_only = ON;").map_err(sqlite_error)?;
        connection.busy_timeout(super::BUSY_TIMEOUT).map_err(sqlite_error)?;
        connection.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
        // Plans that do not depend on bound values: otherwise SQLite plans with a `LIMIT ?`'s
        // value, and a kept statement is prepared again every time it is bound (every page).
        connection.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true).map_err(sqlite_error)?;
        Ok(connection)
    }

    /// The rows of `statement` as models of `E`, each with the value of its `key` column when
    /// one is named.
    fn rows<E>(&self, statement: Statement, key: Option<(&str, Decode)>) -> Result<KeyedRows<E::Model>, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        let rows = self.with_connection(|connection| {
            let mut prepared = connection.prepare_cached(&statement.sql).map_err(sqlite_error)?;
            for (index, value) in statement.values.map(|v| v.0).unwrap_or_default().into_iter().enumerate() {
                prepared.raw_bind_parameter(index + 1, bind_value(value)?).map_err(sqlite_error)?;
            }
            // Each column once: the entity's column it fills and how it decodes, or the key.
            let plan = (0..prepared.column_count())
                .map(|index| {
                    let name = prepared.column_name(index).map_err(sqlite_error)?;
                    match key {
                        Some((key, decode)) if key == name => Ok(Target::Key(decode)),
                        _ => Target::<E>::column(name),
                    }
                })
                .collect::<Result<Vec<Target<E>>, DbErr>>()?;
            let mut rows = prepared.raw_query();
            let mut models = Vec::new();
            while let Some(row) = rows.next().map_err(sqlite_error)? {
                let mut model = E::ActiveModel::default();
                let mut found = None;
                for (index, target) in plan.iter().enumerate() {
                    let stored = row.get_ref(index).map_err(sqlite_error)?;
                    match target {
                        Target::Column(column, decode) => model.try_set(*column, decode.value(stored)?)?,
                        Target::Key(decode) => found = Some(decode.value(stored)?),
                    }
                }
                models.push((found, model.try_into_model()?));
            }
            Ok(models)
        });
        if let Some(counter) = &self.counter {
            counter();
        }
        rows
    }
}

/// Models, each with the value of its key column when one was asked for.
type KeyedRows<M> = Vec<(Option<Value>, M)>;

/// Where a column of a row goes.
enum Target<E: EntityTrait> {
    Column(E::Column, Decode),
    Key(Decode),
}

impl<E: EntityTrait> Target<E> {
    /// The entity's column of that name, decoded as the entity declares it.
    fn column(name: &str) -> Result<Self, DbErr> {
        let column = E::Column::from_str(name)
            .map_err(|_| DbErr::Type(format!("{name} is not a column of {}", E::default().table_name())))?;
        Ok(Target::Column(column, Decode::of(column.def().get_column_type())?))
    }
}

#[cfg(test)]
mod tests {
    use acc_entity::{organization, project, run_event, task, task_run, user, workspace};
    use chrono::{Duration, SecondsFormat};
    use sea_orm::{ActiveModelTrait, ColumnTrait, IntoActiveModel, QueryFilter, QueryOrder, QuerySelect, QueryTrait};

    use super::*;

    /// A migrated SQLite database in a fresh directory, and its reads.
    async fn database() -> (DatabaseConnection, Reads, PathBuf) {
        let (db, dir) = crate::db::migrated_sqlite("reads").await;
        let reads = Reads::for_database(&db, Some(&dir.join("acc.db")));
        assert!(matches!(reads, Reads::Sqlite(_)));
        (db, reads, dir)
    }

    /// Every column type the entities use, NULL and not, written through the pool.
    async fn seed(db: &DatabaseConnection) -> (Uuid, DateTime<Utc>) {
        let now = Utc::now();
        let id = || Uuid::now_v7();
        let org = organization::Model { id: id(), name: "Acme".into(), revision: 1, created_at: now, updated_at: now };
        org.clone().into_active_model().insert(db).await.unwrap();
        let user = user::Model {
            id: id(),
            organization_id: org.id,
            email: "o@acme.test".into(),
            display_name: "Olive \u{1F600}".into(),
            password_hash: "x".into(),
            is_server_admin: true,
            disabled: false,
            revision: 3,
            created_at: now,
            updated_at: now,
        };
        user.clone().into_active_model().insert(db).await.unwrap();
        let ws = workspace::Model {
            id: id(),
            organization_id: org.id,
            name: "W".into(),
            description: String::new(),
            revision: 1,
            created_at: now,
            updated_at: now,
        };
        ws.clone().into_active_model().insert(db).await.unwrap();
        let project = project::Model {
            id: id(),
            organization_id: org.id,
            workspace_id: ws.id,
            name: "P".into(),
            description: "d".into(),
            revision: 1,
            created_at: now,
            updated_at: now,
        };
        project.clone().into_active_model().insert(db).await.unwrap();
        for (n, assignee) in [(0, None), (1, Some(user.id))] {
            let task = task::Model {
                id: id(),
                organization_id: org.id,
                project_id: project.id,
                title: format!("task {n}"),
                description: "line\nline".into(),
                status: "todo".into(),
                priority: "high".into(),
                labels: serde_json::json!(["a", {"b": [1.5, null]}]),
                assignee_user_id: assignee,
                assignee_agent_id: None,
                revision: i64::MAX - n,
                created_at: now - Duration::milliseconds(n),
                updated_at: now,
            };
            task.clone().into_active_model().insert(db).await.unwrap();
            let run = task_run::Model {
                id: id(),
                organization_id: org.id,
                project_id: project.id,
                task_id: task.id,
                agent_id: assignee,
                requested_agent_id: None,
                handoff_target_id: None,
                status: "running".into(),
                status_reason: assignee.map(|_| "why".into()),
                required_capabilities: serde_json::json!([]),
                input: serde_json::json!({"objective": "x"}),
                created_by: user.id,
                max_attempts: i32::MAX,
                budget: assignee.map(|_| serde_json::json!({"tokens": 10})),
                composition: None,
                revision: 1,
                created_at: now,
                updated_at: now,
            };
            run.clone().into_active_model().insert(db).await.unwrap();
            let event = run_event::Model {
                id: id(),
                run_id: run.id,
                sequence: 1,
                attempt_id: None,
                connector_id: assignee,
                event_id: None,
                connector_sequence: assignee.map(|_| -7),
                kind: run_event::RunEventKind::ToolCall,
                data: serde_json::json!({"name": "ls"}),
                occurred_at: now,
                created_at: now,
            };
            event.into_active_model().insert(db).await.unwrap();
        }
        (user.id, now)
    }

    /// What the pool reads, and what reads on this thread read, for the same select.
    async fn both<E>(db: &DatabaseConnection, reads: &Reads, select: Select<E>) -> (Vec<E::Model>, Vec<E::Model>)
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        (select.clone().all(db).await.unwrap(), reads.all(select).await.unwrap())
    }

    #[tokio::test]
    async fn every_column_reads_as_the_pool_reads_it() {
        let (db, reads, _dir) = database().await;
        seed(&db).await;
        let (pool, here) = both(&db, &reads, user::Entity::find()).await;
        assert_eq!((pool.len(), &pool), (1, &here));
        let (pool, here) = both(&db, &reads, task::Entity::find().order_by_asc(task::Column::Id)).await;
        assert_eq!((pool.len(), &pool), (2, &here));
        let (pool, here) = both(&db, &reads, task_run::Entity::find().order_by_asc(task_run::Column::Id)).await;
        assert_eq!((pool.len(), &pool), (2, &here));
        let (pool, here) = both(&db, &reads, run_event::Entity::find().order_by_asc(run_event::Column::Id)).await;
        assert_eq!((pool.len(), &pool), (2, &here));
        let (pool, here) = both(&db, &reads, project::Entity::find()).await;
        assert_eq!((pool.len(), &pool), (1, &here));
    }

    #[tokio::test]
    async fn values_bind_as_the_pool_binds_them() {
        let (db, reads, _dir) = database().await;
        let (user_id, now) = seed(&db).await;
        let filters = [
            task::Entity::find().filter(task::Column::AssigneeUserId.eq(user_id)),
            task::Entity::find().filter(task::Column::AssigneeUserId.is_null()),
            task::Entity::find().filter(task::Column::CreatedAt.lt(now)),
            task::Entity::find().filter(task::Column::CreatedAt.eq(now)),
            task::Entity::find().filter(task::Column::Revision.eq(i64::MAX)),
            task::Entity::find().filter(task::Column::Title.contains("1")),
        ];
        for select in filters {
            let (pool, here) = both(&db, &reads, select).await;
            assert_eq!((pool.len(), &pool), (1, &here));
        }
        let admins = user::Entity::find().filter(user::Column::IsServerAdmin.eq(true));
        assert_eq!(reads.all(admins).await.unwrap().len(), 1);
        let calls = run_event::Entity::find().filter(run_event::Column::Kind.eq(run_event::RunEventKind::ToolCall));
        assert_eq!(reads.all(calls).await.unwrap().len(), 2);
    }

    #[tokio::test]
    async fn a_read_sees_what_was_committed_before_it_and_cannot_write() {
        let (db, reads, _dir) = database().await;
        assert!(reads.all(user::Entity::find()).await.unwrap().is_empty());
        seed(&db).await;
        assert_eq!(reads.all(user::Entity::find()).await.unwrap().len(), 1, "the commit is seen at once");
        let Reads::Sqlite(sqlite) = &reads else { unreachable!() };
        let write = sqlite.with_connection(|c| c.execute("DELETE FROM users", []).map_err(sqlite_error));
        assert!(write.is_err(), "a reader's connection refuses to write");
        assert_eq!(user::Entity::find().all(&db).await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_kept_statement_is_not_prepared_again_for_each_page() {
        let (db, reads, _dir) = database().await;
        seed(&db).await;
        let page = |size| task::Entity::find().order_by_asc(task::Column::Id).limit(size);
        for size in [1, 2, 1] {
            assert_eq!(reads.all(page(size)).await.unwrap().len(), size as usize);
        }
        let Reads::Sqlite(sqlite) = &reads else { unreachable!() };
        let sql = page(1).build(DbBackend::Sqlite).sql;
        assert!(sql.ends_with("LIMIT ?"), "{sql}");
        let prepared_again = sqlite.with_connection(|c| {
            let statement = c.prepare_cached(&sql).map_err(sqlite_error)?;
            Ok(statement.get_status(rusqlite::StatementStatus::RePrepare))
        });
        assert_eq!(prepared_again.unwrap(), 0);
    }

    fn chrono_reads(text: &str) -> Option<DateTime<Utc>> {
        DateTime::parse_from_rfc3339(text).ok().map(|t| t.with_timezone(&Utc))
    }

    proptest::proptest! {
        /// Whatever the server writes reads back as chrono reads it, by the short way.
        #[test]
        fn a_written_timestamp_reads_back_the_short_way(
            seconds in 0i64..253_402_300_799, nanos in 0u32..1_000_000_000, form in 0usize..4
        ) {
            let written = DateTime::from_timestamp(seconds, nanos).unwrap();
            let form = [SecondsFormat::AutoSi, SecondsFormat::Secs, SecondsFormat::Millis, SecondsFormat::Nanos][form];
            for text in [written.to_rfc3339_opts(form, false), written.to_rfc3339_opts(form, true)] {
                proptest::prop_assert_eq!(utc_rfc3339(text.as_bytes()), chrono_reads(&text), "{}", text);
                proptest::prop_assert!(utc_rfc3339(text.as_bytes()).is_some(), "{}", text);
            }
        }

        /// Any other text: the short way reads it as chrono does, or leaves it to chrono.
        #[test]
        fn other_text_is_never_read_differently(text in "[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,10})?(Z|[+-][0-9]{2}:[0-9]{2})?") {
            if let Some(short) = utc_rfc3339(text.as_bytes()) {
                proptest::prop_assert_eq!(Some(short), chrono_reads(&text), "{}", text);
            }
        }
    }

    #[test]
    fn timestamps_in_other_forms_are_still_read() {
        let expected = DateTime::parse_from_rfc3339("2026-12-05T12:00:00.5Z").unwrap().with_timezone(&Utc);
        assert_eq!(parse_timestamp("2026-12-05T14:00:00.5+02:00"), Some(expected));
        assert_eq!(parse_timestamp("2026-12-05 12:00:00.5"), Some(expected));
        assert_eq!(utc_rfc3339(b"2026-12-05T14:00:00.5+02:00"), None);
        assert_eq!(parse_timestamp("2026-12-05T12:00:60Z"), chrono_reads("2026-12-05T12:00:60Z"));
        assert_eq!(parse_timestamp("2026-02-30T12:00:00Z"), None);
        assert_eq!(parse_timestamp("not a time"), None);
    }

    #[tokio::test]
    async fn a_column_the_entity_does_not_have_is_refused() {
        let (db, reads, _dir) = database().await;
        seed(&db).await;
        let other = task::Entity::find().column_as(task::Column::Title, "other");
        let refused = reads.all(other).await.unwrap_err();
        assert!(refused.to_string().contains("other is not a column of tasks"), "{refused}");
    }
}
