//! `acc_connector`: the library behind the `acc-connector` binary — enrollment, configuration,
//! the adapters that run agents, the model gateway, the run tools, redaction, the encrypted spool and the connection to the control plane.

#![deny(clippy::unwrap_used)]

pub mod adapter;
pub mod approval;
pub mod backoff;
pub mod config;
pub mod connection;
pub mod credential;
pub mod doctor;
pub mod enroll;
pub mod model_gateway;
pub mod process;
pub mod redact;
pub mod run_files;
pub mod run_tools;
pub mod runtime;
pub mod seen;
pub mod skills;
pub mod spool;
pub mod tls;

/// The connector's version, sent in `Hello` and as every built-in adapter's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A fresh random token a runtime presents for one run (to the model gateway, to the run tools):
/// `prefix` and 24 random bytes in hex.
pub(crate) fn run_token(prefix: &str) -> String {
    use rand::RngCore;
    let mut secret = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut secret);
    format!("{prefix}{}", hex(&secret))
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Locks a mutex, taking the data even if a panicking thread poisoned it: every critical
/// section here leaves the data consistent before anything can panic.
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
