//! The Agent Adapter Protocol wire types (filled in by the run pipeline).

#![deny(clippy::unwrap_used)]
