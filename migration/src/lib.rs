//! Schema migrations: frozen history that builds the same schema on SQLite and PostgreSQL.
//!
//! Migrations never import the entity crate: once released, a migration must keep meaning
//! what it meant, whatever the entities become.

#![deny(clippy::unwrap_used)]

pub use sea_orm_migration::prelude::*;

mod m20261202_000001_foundation;
mod m20261202_000002_runs;
mod m20261203_000003_run_lifecycle;
mod m20261203_000004_run_usage;
mod m20261203_000005_connector_removal;
mod m20261205_000006_dependents_index;
mod m20261205_000007_memory;
mod m20261205_000008_memory_search;
mod m20261205_000009_memory_vectors;
mod m20261205_000010_memory_search_words;
mod m20261206_000011_memory_search_versions;
mod m20261206_000012_artifacts;
mod m20261206_000013_context_records;
mod m20261206_000014_wiki;
mod m20261206_000015_wiki_search;
mod m20261206_000016_approval_subjects;
mod m20261207_000017_skills;
mod m20261207_000018_candidates;
mod m20261207_000019_wiki_vectors;
mod m20261207_000020_wiki_attachments;
mod m20261207_000021_wiki_namespace_acl;
mod m20261207_000022_audit;
mod m20261207_000023_usage;
mod m20261207_000024_notifications;
mod m20261207_000025_oidc;
mod m20261207_000026_notification_delivery;
mod m20261207_000027_push_subscriptions;
mod tables;

/// How SQLite's memory search index is filled from the versions, for the search benchmark.
pub use m20261206_000011_memory_search_versions::SQLITE_FILL as SQLITE_MEMORY_SEARCH_FILL;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261202_000001_foundation::Migration),
            Box::new(m20261202_000002_runs::Migration),
            Box::new(m20261203_000003_run_lifecycle::Migration),
            Box::new(m20261203_000004_run_usage::Migration),
            Box::new(m20261203_000005_connector_removal::Migration),
            Box::new(m20261205_000006_dependents_index::Migration),
            Box::new(m20261205_000007_memory::Migration),
            Box::new(m20261205_000008_memory_search::Migration),
            Box::new(m20261205_000009_memory_vectors::Migration),
            Box::new(m20261205_000010_memory_search_words::Migration),
            Box::new(m20261206_000011_memory_search_versions::Migration),
            Box::new(m20261206_000012_artifacts::Migration),
            Box::new(m20261206_000013_context_records::Migration),
            Box::new(m20261206_000014_wiki::Migration),
            Box::new(m20261206_000015_wiki_search::Migration),
            Box::new(m20261206_000016_approval_subjects::Migration),
            Box::new(m20261207_000017_skills::Migration),
            Box::new(m20261207_000018_candidates::Migration),
            Box::new(m20261207_000019_wiki_vectors::Migration),
            Box::new(m20261207_000020_wiki_attachments::Migration),
            Box::new(m20261207_000021_wiki_namespace_acl::Migration),
            Box::new(m20261207_000022_audit::Migration),
            Box::new(m20261207_000023_usage::Migration),
            Box::new(m20261207_000024_notifications::Migration),
            Box::new(m20261207_000025_oidc::Migration),
            Box::new(m20261207_000026_notification_delivery::Migration),
            Box::new(m20261207_000027_push_subscriptions::Migration),
        ]
    }
}
