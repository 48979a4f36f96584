//! The database layer: migrations on both databases (up from empty, down to empty, up again,
//! and fresh), and a PostgreSQL pool that gets over its connections being cut.

use acc_migration::{Migrator, MigratorTrait, SchemaManager};
use acc_tests::{TestDb, on_both_databases};
use sea_orm::ConnectionTrait;

const TABLES: &[&str] = &[
    "organizations",
    "users",
    "device_sessions",
    "refresh_tokens",
    "api_tokens",
    "role_bindings",
    "workspaces",
    "projects",
    "tasks",
    "task_dependencies",
    "acceptance_criteria",
    "config_layers",
    "idempotency_records",
    "enrollment_tokens",
    "connectors",
    "agents",
    "capability_snapshots",
    "task_runs",
    "run_attempts",
    "run_events",
    "approvals",
    "checkpoints",
];

async fn present(db: &sea_orm::DatabaseConnection) -> Vec<&'static str> {
    let manager = SchemaManager::new(db);
    let mut found = Vec::new();
    for table in TABLES {
        if manager.has_table(*table).await.unwrap() {
            found.push(*table);
        }
    }
    found
}

on_both_databases!(migrations_go_up_down_and_fresh, |db: TestDb| async move {
    // One connection: `fresh` turns SQLite's foreign-key checks off per connection before it drops tables.
    let mut options = sea_orm::ConnectOptions::new(db.url.clone());
    options.max_connections(1);
    let conn = sea_orm::Database::connect(options).await.unwrap();
    assert!(present(&conn).await.is_empty());
    assert_eq!(Migrator::get_pending_migrations(&conn).await.unwrap().len(), Migrator::migrations().len());

    Migrator::up(&conn, None).await.unwrap();
    assert_eq!(present(&conn).await, TABLES);
    assert!(Migrator::get_pending_migrations(&conn).await.unwrap().is_empty());
    acc_api::db::readiness(&conn).await.unwrap();

    Migrator::down(&conn, None).await.unwrap();
    assert!(present(&conn).await.is_empty(), "down removes every table");
    assert!(acc_api::db::readiness(&conn).await.is_err(), "not ready with migrations pending");

    Migrator::up(&conn, None).await.unwrap();
    assert_eq!(present(&conn).await, TABLES, "up again after down");
    Migrator::fresh(&conn).await.unwrap();
    assert_eq!(present(&conn).await, TABLES);
    assert!(Migrator::get_pending_migrations(&conn).await.unwrap().is_empty());
});

/// PostgreSQL cut every connection (a restart, a failover). The pool pings a connection on its way
/// out only once it has sat idle for `PING_AFTER_IDLE`; by then the cut ones are found dead and
/// replaced, so no statement after that meets one.
#[tokio::test]
async fn statements_succeed_after_postgres_cut_the_pools_connections() {
    let Some(db) = TestDb::postgres().await else { return };
    let pool = db.connect().await;
    // Several connections in the pool, all idle afterwards.
    let busy = futures_util::future::join_all((0..4).map(|_| pool.execute_unprepared("SELECT pg_sleep(0.05)"))).await;
    assert!(busy.iter().all(Result::is_ok), "{busy:?}");

    let killer = sea_orm::Database::connect(&db.url).await.unwrap();
    let cut = killer
        .query_all_raw(sea_orm::Statement::from_string(
            sea_orm::DbBackend::Postgres,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        ))
        .await
        .unwrap();
    assert!(cut.len() >= 4, "the pool's connections were cut: {}", cut.len());

    tokio::time::sleep(acc_api::db::PING_AFTER_IDLE + std::time::Duration::from_millis(200)).await;
    for attempt in 0..8 {
        pool.execute_unprepared("SELECT 1").await.unwrap_or_else(|e| panic!("statement {attempt} after the cut: {e}"));
    }
}
