//! Migrations on both databases: up from empty, down to empty, up again, and fresh.

use acc_migration::{Migrator, MigratorTrait, SchemaManager};
use acc_tests::{TestDb, on_both_databases};

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
