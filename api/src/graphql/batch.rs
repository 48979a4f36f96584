//! Batching without a timer: the keys a request's resolvers ask for in one pass are loaded with
//! one query.
//!
//! The engine polls sibling fields (the `assignee` of each task of a page) one after the other
//! in the same pass over the request. The first of them to ask for a key opens a batch and
//! yields once; by the time it runs again the others of that pass have added their keys to it,
//! and it loads them all while they wait for the result. So a page costs one query per relation
//! whatever its size, and no request ever sleeps to wait for keys (async-graphql's `DataLoader`
//! waits a fixed delay in a spawned task instead).
//!
//! "Once its siblings ran" holds on a runtime worker's task, where every request runs: there
//! tokio wakes a `yield_now` only after the task's whole poll. Outside one (a test's own body on
//! a multi-thread runtime) it wakes at once, and a sibling that finishes first lets the engine
//! poll the yielder again before the rest of the pass joined.
//!
//! A page resolver that knows what its objects will ask for loads it ahead (`prime`): the
//! objects then find their values at their first poll and complete in one pass, instead of each
//! waiting for the batch and being woken and polled again (on PostgreSQL, where a read is never
//! ready at once, that second round over a page's hundreds of field futures costs more than the
//! statement).

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use async_graphql::dataloader::Loader;
use tokio::sync::OnceCell;

/// Keys asked for together, and their values once loaded.
struct Batch<K, V, E> {
    keys: Mutex<Vec<K>>,
    loaded: OnceCell<Result<HashMap<K, V>, E>>,
}

/// A request's batches over `T`, one open batch per key type.
pub struct BatchLoader<T> {
    loader: T,
    open: Mutex<HashMap<TypeId, Box<dyn Any + Send>>>,
    /// Per key type, the values loaded ahead by `prime`, `None` for a key that has none; kept for
    /// the request's life, as the objects of a page share keys (their project, an assignee).
    primed: Mutex<HashMap<TypeId, Box<dyn Any + Send>>>,
}

impl<T> BatchLoader<T> {
    pub fn new(loader: T) -> Self {
        Self { loader, open: Mutex::default(), primed: Mutex::default() }
    }

    /// Loads `keys` now, in one query, so that `load_one` answers each of them at once for the
    /// rest of the request. Only for a query operation: a mutation's later fields and a
    /// subscription's next event must read what changed since.
    pub async fn prime<K>(&self, keys: Vec<K>) -> Result<(), T::Error>
    where
        T: Loader<K>,
        K: Send + Sync + Hash + Eq + Clone + 'static,
    {
        if keys.is_empty() {
            return Ok(());
        }
        let mut values = self.loader.load(&keys).await?;
        let mut primed = self.primed.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let slot = primed.entry(TypeId::of::<K>()).or_insert_with(|| Box::new(HashMap::<K, Option<T::Value>>::new()));
        let Some(slot) = slot.downcast_mut::<HashMap<K, Option<T::Value>>>() else {
            unreachable!("a primed slot holds its own key type");
        };
        for key in keys {
            let value = values.remove(&key);
            slot.entry(key).or_insert(value);
        }
        Ok(())
    }

    /// What `prime` loaded for `key`: `None` if it was not primed.
    fn primed<K>(&self, key: &K) -> Option<Option<T::Value>>
    where
        T: Loader<K>,
        K: Send + Sync + Hash + Eq + Clone + 'static,
    {
        let primed = self.primed.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        primed.get(&TypeId::of::<K>())?.downcast_ref::<HashMap<K, Option<T::Value>>>()?.get(key).cloned()
    }

    /// The value of `key`, loaded with the keys its siblings ask for in the same pass.
    pub async fn load_one<K>(&self, key: K) -> Result<Option<T::Value>, T::Error>
    where
        T: Loader<K>,
        T::Error: Sync,
        K: Send + Sync + Hash + Eq + Clone + 'static,
    {
        if let Some(value) = self.primed(&key) {
            return Ok(value);
        }
        let batch = self.join::<K>(key.clone());
        let loaded = batch
            .loaded
            .get_or_init(|| async {
                // Let the siblings of this pass add their keys, then close the batch to new ones.
                tokio::task::yield_now().await;
                self.close::<K>(&batch);
                let keys = batch.keys.lock().map(|keys| keys.clone()).unwrap_or_default();
                // Boxed: a load carries a database query's state, and unboxed it would size every
                // field future of the objects that use this loader (a page's hundreds of them),
                // which the engine moves around as it resolves them. Only the batch's opener loads.
                Box::pin(self.loader.load(&keys)).await
            })
            .await;
        match loaded {
            Ok(values) => Ok(values.get(&key).cloned()),
            Err(e) => Err(e.clone()),
        }
    }

    /// Adds `key` to the open batch of its type, opening one if there is none.
    fn join<K>(&self, key: K) -> Arc<Batch<K, T::Value, T::Error>>
    where
        T: Loader<K>,
        T::Error: Sync,
        K: Send + Sync + Hash + Eq + Clone + 'static,
    {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let slot = open.entry(TypeId::of::<K>()).or_insert_with(|| {
            let batch: Arc<Batch<K, T::Value, T::Error>> =
                Arc::new(Batch { keys: Mutex::default(), loaded: OnceCell::new() });
            Box::new(batch)
        });
        // The slot of `K` holds batches of `K`: it was made just above for that type.
        let batch = slot.downcast_ref::<Arc<Batch<K, T::Value, T::Error>>>().cloned().unwrap_or_else(|| {
            unreachable!("a batch slot holds its own key type");
        });
        if let Ok(mut keys) = batch.keys.lock()
            && !keys.contains(&key)
        {
            keys.push(key);
        }
        batch
    }

    /// Ends `batch`'s time to take keys: the next key of its type opens a new one.
    fn close<K>(&self, batch: &Arc<Batch<K, T::Value, T::Error>>)
    where
        T: Loader<K>,
        T::Error: Sync,
        K: Send + Sync + Hash + Eq + Clone + 'static,
    {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let current =
            open.get(&TypeId::of::<K>()).and_then(|slot| slot.downcast_ref::<Arc<Batch<K, T::Value, T::Error>>>());
        if current.is_some_and(|current| Arc::ptr_eq(current, batch)) {
            open.remove(&TypeId::of::<K>());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// Squares its keys, counting its loads; has no value for 0 and fails for a key of 1000.
    #[derive(Default)]
    struct Squares {
        loads: AtomicUsize,
    }

    impl Loader<u32> for Squares {
        type Value = u32;
        type Error = String;

        async fn load(&self, keys: &[u32]) -> Result<HashMap<u32, u32>, String> {
            self.loads.fetch_add(1, Ordering::SeqCst);
            if keys.contains(&1000) {
                return Err("unlucky".into());
            }
            Ok(keys.iter().filter(|k| **k != 0).map(|k| (*k, k * k)).collect())
        }
    }

    #[tokio::test]
    async fn keys_asked_for_in_one_pass_are_loaded_together_and_later_ones_apart() {
        let loader = BatchLoader::new(Squares::default());
        let values = futures_util::future::join_all((1..=50).map(|k| loader.load_one(k % 40))).await;
        assert_eq!(values[3], Ok(Some(16)));
        assert_eq!(values[43], Ok(Some(16)), "a key asked twice has its value twice");
        assert_eq!(loader.loader.loads.load(Ordering::SeqCst), 1, "fifty keys, one load");

        assert_eq!(loader.load_one(7).await, Ok(Some(49)));
        assert_eq!(loader.loader.loads.load(Ordering::SeqCst), 2, "a later key is a new batch");
    }

    #[tokio::test]
    async fn a_failed_load_fails_every_key_of_its_batch() {
        let loader = BatchLoader::new(Squares::default());
        let values = futures_util::future::join_all([1, 1000].map(|k| loader.load_one(k))).await;
        assert_eq!(values, [Err("unlucky".to_owned()), Err("unlucky".to_owned())]);
    }

    #[tokio::test]
    async fn primed_keys_are_answered_without_a_load() {
        let loader = BatchLoader::new(Squares::default());
        loader.prime(Vec::<u32>::new()).await.unwrap();
        assert_eq!(loader.loader.loads.load(Ordering::SeqCst), 0, "nothing to prime, no load");

        loader.prime(vec![0, 3, 5, 3]).await.unwrap();
        assert_eq!(loader.loader.loads.load(Ordering::SeqCst), 1);
        let values = futures_util::future::join_all([3, 5, 0].map(|k| loader.load_one(k))).await;
        assert_eq!(values, [Ok(Some(9)), Ok(Some(25)), Ok(None)], "a primed key without a value has none");
        assert_eq!(loader.loader.loads.load(Ordering::SeqCst), 1, "primed keys need no load");

        assert_eq!(loader.load_one(6).await, Ok(Some(36)));
        assert_eq!(loader.loader.loads.load(Ordering::SeqCst), 2, "a key not primed is loaded");
        assert_eq!(loader.load_one(3).await, Ok(Some(9)));
        assert_eq!(loader.loader.loads.load(Ordering::SeqCst), 2, "a primed value is kept for the request");

        assert_eq!(loader.prime(vec![1000]).await, Err("unlucky".to_owned()));
    }
}
