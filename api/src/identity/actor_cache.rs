//! Callers recently authenticated by their session, so a request does not read the session,
//! the user and the grants again: kept for a few seconds, and dropped the moment an
//! [`AccessChange`] concerns them (logout, revoked session, refresh-token reuse, disabled
//! account, role change).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use uuid::Uuid;

use super::AccessChange;
use super::actor::Actor;

/// How long a caller is trusted without reading the database again. Changes this process makes
/// drop it at once; this bounds how long a change made elsewhere (another replica, an operator
/// editing the database) can go unseen.
const ACTOR_TTL: Duration = Duration::from_secs(10);
/// Beyond this many sessions the cache starts over, so a flood of sessions cannot grow it.
const MAX_ACTORS: usize = 10_000;

#[derive(Default)]
pub struct ActorCache {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// By session id: the actor, and when it was read.
    actors: HashMap<Uuid, (Actor, Instant)>,
    /// Bumped by every access change, so a read of the database that began before a change
    /// cannot put what it read back after the change dropped it.
    generation: u64,
}

impl ActorCache {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The actor of a session, if read recently and unchanged since.
    pub fn get(&self, session_id: Uuid) -> Option<Actor> {
        let inner = self.inner();
        let (actor, read_at) = inner.actors.get(&session_id)?;
        (read_at.elapsed() < ACTOR_TTL).then(|| actor.clone())
    }

    /// Where the cache stands before reading an actor from the database; hand it to [`Self::keep`].
    pub fn generation(&self) -> u64 {
        self.inner().generation
    }

    /// Keeps the actor of a session read from the database, unless access changed meanwhile.
    pub fn keep(&self, session_id: Uuid, actor: &Actor, read_at_generation: u64) {
        let mut inner = self.inner();
        if inner.generation != read_at_generation {
            return;
        }
        if inner.actors.len() >= MAX_ACTORS {
            inner.actors.clear();
        }
        inner.actors.insert(session_id, (actor.clone(), Instant::now()));
    }

    /// Drops what `change` makes stale.
    pub fn forget(&self, change: AccessChange) {
        let mut inner = self.inner();
        inner.generation += 1;
        match change {
            AccessChange::SessionEnded(session_id) => {
                inner.actors.remove(&session_id);
            }
            AccessChange::UserDisabled(user_id) | AccessChange::RolesChanged(user_id) => {
                inner.actors.retain(|_, (actor, _)| actor.user_id != user_id);
            }
            // API tokens are not cached.
            AccessChange::ApiTokenRevoked(_) => {}
        }
    }
}
