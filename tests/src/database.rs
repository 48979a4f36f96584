//! A fresh database per test: a SQLite file in a temp dir, or a new PostgreSQL database.

use std::path::PathBuf;

use sea_orm::{ConnectionTrait, Database, DatabaseConnection};

pub struct TestDb {
    /// The data dir the server (or test) uses; holds the SQLite file when there is one.
    pub dir: PathBuf,
    /// The database URL to hand to `acc --database-url` or to sea-orm.
    pub url: String,
    postgres: Option<(String, String)>,
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("acc-test-{}", uuid::Uuid::now_v7().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl TestDb {
    pub fn sqlite() -> Self {
        let dir = temp_dir();
        let url = format!("sqlite://{}?mode=rwc", dir.join("acc.db").display());
        Self { dir, url, postgres: None }
    }

    /// A new PostgreSQL database, or `None` (with a notice) when `ACC_TEST_DATABASE_URL` is unset.
    pub async fn postgres() -> Option<Self> {
        let Ok(admin_url) = std::env::var("ACC_TEST_DATABASE_URL") else {
            eprintln!("NOTICE: ACC_TEST_DATABASE_URL is not set; skipping the PostgreSQL half of this test");
            return None;
        };
        let name = format!("acc_t_{}", uuid::Uuid::now_v7().simple());
        let admin = Database::connect(&admin_url).await.expect("connect to ACC_TEST_DATABASE_URL");
        admin.execute_unprepared(&format!("CREATE DATABASE {name}")).await.expect("create test database");
        admin.close().await.ok();
        let base = admin_url.rsplit_once('/').map(|(base, _)| base.to_owned()).expect("database URL has a path");
        Some(Self { dir: temp_dir(), url: format!("{base}/{name}"), postgres: Some((admin_url, name)) })
    }

    pub fn backend(&self) -> &'static str {
        if self.postgres.is_some() { "postgres" } else { "sqlite" }
    }

    pub async fn connect(&self) -> DatabaseConnection {
        acc_api::db::connect(&self.url).await.expect("connect to test database")
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin_url, name)) = self.postgres.take() {
            // Drop runs outside any async context we may block; use a small runtime of our own.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
                rt.block_on(async {
                    let admin = Database::connect(&admin_url).await.ok()?;
                    admin.execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await.ok()
                })
            })
            .join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
