//! Passwords (argon2id, on the blocking pool, a few at a time) and opaque bearer secrets (refresh,
//! API and bootstrap tokens, stored as SHA-256).

use std::sync::{Arc, OnceLock};

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::error::CommonError;

pub const MIN_PASSWORD_LEN: usize = 10;

/// What `Debug` shows in place of a secret, so a logged value never carries one.
pub const REDACTED: &str = "[redacted]";

/// Where argon2 runs. A hash or verification takes tens of milliseconds of CPU and 19 MiB, so it
/// runs on the blocking pool, never on an executor thread (a burst of logins would stall every
/// request), and at most one per core at once: a burst queues instead of allocating a 19 MiB
/// buffer per request.
struct PasswordWork {
    permits: Arc<Semaphore>,
}

impl PasswordWork {
    fn new(at_once: usize) -> Self {
        Self { permits: Arc::new(Semaphore::new(at_once.max(1))) }
    }

    /// The process's one pool, sized to the cores.
    fn shared() -> &'static Self {
        static SHARED: OnceLock<PasswordWork> = OnceLock::new();
        SHARED.get_or_init(|| Self::new(std::thread::available_parallelism().map_or(1, |n| n.get())))
    }

    /// Runs `work` on the blocking pool once a permit is free. The permit goes with the work, so a
    /// caller that gives up (a client that disconnects) cannot let more run at once.
    async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, CommonError> {
        let permit = self.permits.clone().acquire_owned().await.map_err(|e| CommonError::Internal(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| CommonError::Internal(format!("password hashing failed: {e}")))
    }
}

pub async fn hash_password(password: &str) -> Result<String, CommonError> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(CommonError::validation(format!("a password needs at least {MIN_PASSWORD_LEN} characters")));
    }
    let password = password.to_owned();
    PasswordWork::shared().run(move || hash_now(&password)).await?
}

fn hash_now(password: &str) -> Result<String, CommonError> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| CommonError::Internal(e.to_string()))
}

pub async fn verify_password(password: &str, hash: &str) -> bool {
    let (password, hash) = (password.to_owned(), hash.to_owned());
    PasswordWork::shared().run(move || verify_now(&password, &hash)).await.unwrap_or(false)
}

fn verify_now(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// Checks a password against a fixed hash, so an unknown account costs as much as a known one.
pub async fn burn_password_check(password: &str) {
    static DUMMY: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    let hash =
        DUMMY.get_or_init(|| async { hash_password("dummy-password-for-timing").await.unwrap_or_default() }).await;
    verify_password(password, hash).await;
}

/// A new random secret with a readable prefix that says what it is (`acc_rt_`, `acc_pat_`).
pub fn new_secret(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn secrets_equal(a: &str, b: &str) -> bool {
    let (a, b) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn argon2id_round_trip_and_short_password_refused() {
        let hash = hash_password("correct horse battery").await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse battery", &hash).await);
        assert!(!verify_password("wrong horse battery", &hash).await);
        assert!(hash_password("short").await.is_err());
    }

    /// On a runtime with one thread, a task started after a verification still runs while it is in
    /// flight: it could not if argon2 ran on the executor thread.
    #[tokio::test(flavor = "current_thread")]
    async fn other_requests_run_while_a_password_is_checked() {
        let hash = hash_now("correct horse battery").unwrap();
        let (ran, seen) = std::sync::mpsc::channel();
        let work = PasswordWork::new(1);
        let check = work.run(move || {
            let verified = verify_now("correct horse battery", &hash);
            // Waits for the other task; if this ran on the executor thread, it never would come.
            let other_ran = seen.recv_timeout(std::time::Duration::from_secs(30)).is_ok();
            (verified, other_ran)
        });
        let other = tokio::spawn(async move { ran.send(()).ok() });
        assert_eq!(check.await.unwrap(), (true, true));
        other.await.unwrap();
    }

    /// A burst of checks queues: no more than the permits run at once, and all of them finish.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_hashes_run_at_once_than_there_are_permits() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::{Condvar, Mutex};
        const AT_ONCE: usize = 2;
        const BURST: usize = 6;
        let work = Arc::new(PasswordWork::new(AT_ONCE));
        let (started, running, most) =
            (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let tasks: Vec<_> = (0..BURST)
            .map(|_| {
                let (work, started, running, most, gate) =
                    (work.clone(), started.clone(), running.clone(), most.clone(), gate.clone());
                tokio::spawn(async move {
                    work.run(move || {
                        started.fetch_add(1, Ordering::SeqCst);
                        most.fetch_max(running.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                        let (open, opened) = &*gate;
                        let _open = opened.wait_while(open.lock().unwrap(), |open| !*open).unwrap();
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
        while started.load(Ordering::SeqCst) < AT_ONCE {
            assert!(tokio::time::Instant::now() < deadline, "the first checks never started");
            tokio::task::yield_now().await;
        }
        // Every permit is taken by a check that cannot finish, so the rest wait for one.
        assert_eq!(work.permits.available_permits(), 0);
        assert_eq!(started.load(Ordering::SeqCst), AT_ONCE);
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        assert_eq!(started.load(Ordering::SeqCst), BURST);
        assert_eq!(most.load(Ordering::SeqCst), AT_ONCE);
    }

    #[test]
    fn sign_ins_and_new_accounts_never_show_their_secrets() {
        use acc_entity::{device_session, user};
        let now = chrono::Utc::now();
        let id = uuid::Uuid::now_v7();
        let user = user::Model {
            id,
            organization_id: id,
            email: "dev@acme.test".into(),
            display_name: "Dev".into(),
            password_hash: hash_now("correct horse battery").unwrap(),
            is_server_admin: false,
            disabled: false,
            revision: 1,
            created_at: now,
            updated_at: now,
        };
        let session = device_session::Model {
            id,
            organization_id: id,
            user_id: id,
            device_name: "laptop".into(),
            client_address: None,
            revoked_at: None,
            revoked_reason: None,
            last_used_at: now,
            revision: 1,
            created_at: now,
            updated_at: now,
        };
        let (access, refresh) = ("eyJ.access-token-secret.sig", new_secret("acc_rt_"));
        let sign_in = super::super::SignIn {
            access_token: access.into(),
            access_token_expires_at: now,
            refresh_token: refresh.clone(),
            session,
            user: user.clone(),
        };
        let shown = format!("{sign_in:?}");
        for secret in [access, &refresh, &user.password_hash] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.contains(REDACTED) && shown.contains(&id.to_string()), "{shown}");
        let new = super::super::NewUser {
            email: "dev@acme.test".into(),
            display_name: "Dev".into(),
            password: "correct horse battery".into(),
        };
        let shown = format!("{new:?}");
        assert!(!shown.contains("correct horse battery") && shown.contains("dev@acme.test"), "{shown}");
    }

    #[test]
    fn secrets_are_unique_and_compare() {
        let (a, b) = (new_secret("acc_rt_"), new_secret("acc_rt_"));
        assert_ne!(a, b);
        assert!(secrets_equal(&a, &a.clone()));
        assert!(!secrets_equal(&a, &b));
        assert_eq!(hash_secret(&a), hash_secret(&a));
    }
}
