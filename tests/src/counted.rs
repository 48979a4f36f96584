//! The control plane assembled in the test's own process over a database whose SQL statements
//! are counted, for tests that count work instead of timing it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use acc_api::app::App;
use acc_api::config::Config;
use acc_api::db::Reads;

use crate::TestDb;

pub struct CountedApp {
    pub app: App,
    statements: Arc<AtomicUsize>,
}

impl CountedApp {
    /// Migrates `db` and assembles the control plane over it (no listener; see `serve`).
    pub async fn assemble(db: &TestDb) -> Self {
        let statements = Arc::new(AtomicUsize::new(0));
        let mut conn = db.connect().await;
        acc_api::db::migrate(&conn).await.unwrap();
        let counter = statements.clone();
        conn.set_metric_callback(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        let config = Config { data_dir: db.dir.clone(), ..Config::default() };
        // Reads on the calling thread (SQLite) are counted as the pool's statements are.
        let counter = statements.clone();
        let reads =
            Reads::for_database(&conn, acc_api::db::sqlite_file(&db.url).as_deref()).counted(Arc::new(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            }));
        Self { app: App::assemble_with_reads(&config, conn, reads).await.unwrap(), statements }
    }

    /// SQL statements run so far.
    pub fn statements(&self) -> usize {
        self.statements.load(Ordering::SeqCst)
    }

    /// Statements run since `from` (an earlier [`Self::statements`]).
    pub fn since(&self, from: usize) -> usize {
        self.statements() - from
    }

    /// Serves HTTP on a free loopback port; returns `http://host:port`.
    pub fn serve(&self) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(acc_api::http::serve(listener, self.app.router(), None));
        format!("http://{address}")
    }
}
