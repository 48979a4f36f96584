//! sea-orm entities of the Agent Control Center: one module per table, plain data with no logic.

#![deny(clippy::unwrap_used)]

pub mod acceptance_criterion;
pub mod api_token;
pub mod config_layer;
pub mod device_session;
pub mod idempotency_record;
pub mod organization;
pub mod project;
pub mod refresh_token;
pub mod role_binding;
pub mod task;
pub mod task_dependency;
pub mod user;
pub mod workspace;
