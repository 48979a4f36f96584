//! Test harness: real `acc` processes on fresh databases (SQLite, and PostgreSQL when
//! `ACC_TEST_DATABASE_URL` is set), and a GraphQL client that speaks HTTP and graphql-transport-ws.

pub mod architecture;
mod client;
pub mod connector_client;
mod counted;
mod database;
mod embedding;
pub mod embedding_service;
pub mod fuzz;
pub mod identity_provider;
pub mod mail_relay;
pub mod memory_corpus;
pub mod model_api;
pub mod object_store;
pub mod peer;
pub mod push_service;
pub mod runtimes;
pub mod server;
pub mod tls;

pub use client::{Client, GqlResponse, Subscription};
pub use counted::CountedApp;
pub use database::TestDb;
pub use embedding::{embedding_model_dir, wait_for_retrieval_mode, with_embedding_model};
pub use server::{Server, ServerOptions};

pub const PASSWORD: &str = "correct horse battery staple";

/// A client operation kept in `tests/queries/NAME.graphql`, as a real client keeps its operations.
#[macro_export]
macro_rules! op {
    ($name:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/queries/", $name, ".graphql"))
    };
}

/// Runs one async test body on SQLite and, when configured, on PostgreSQL.
#[macro_export]
macro_rules! on_both_databases {
    ($name:ident, $body:expr) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = $crate::TestDb::sqlite();
                ($body)(db).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(db) = $crate::TestDb::postgres().await else { return };
                ($body)(db).await;
            }
        }
    };
}
