//! The Agent Control Center control plane: domain services, the GraphQL API and the HTTP/WebSocket server.

#![deny(clippy::unwrap_used)]

pub mod app;
pub mod approvals;
pub mod artifacts;
pub mod audit;
pub mod broker;
pub mod candidates;
pub mod config;
pub mod context;
pub mod db;
pub mod error;
pub mod event_path;
pub mod gateway;
pub mod graphql;
pub mod http;
pub mod idempotency;
pub mod identity;
pub mod ids;
pub mod memory;
pub mod notifications;
pub mod pagination;
pub mod projects;
pub mod provenance;
pub mod query_words;
pub mod quota;
pub mod run_tools;
pub mod runs;
pub mod settings;
pub mod skills;
pub mod usage;
pub mod wiki;
