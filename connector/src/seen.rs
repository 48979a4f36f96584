//! A bounded, persisted memory of the last N ids and what became of them — the command ids
//! already handled (so a redelivered command is acknowledged again, not executed again) and the
//! runs the spool has forgotten. JSON lines, owner-only, compacted when twice its bound.

use std::collections::{HashMap, VecDeque};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct SeenError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

#[derive(Serialize, Deserialize)]
struct Line<V> {
    id: Uuid,
    value: V,
}

/// The last `capacity` ids inserted, with their values, surviving a restart.
#[derive(Debug)]
pub struct SeenLog<V> {
    path: PathBuf,
    capacity: usize,
    order: VecDeque<Uuid>,
    values: HashMap<Uuid, V>,
    file: File,
    lines_in_file: usize,
}

impl<V: Serialize + DeserializeOwned + Clone> SeenLog<V> {
    pub fn open(path: &Path, capacity: usize) -> Result<Self, SeenError> {
        let err = |source| SeenError { path: path.to_owned(), source };
        let capacity = capacity.max(1);
        let mut order = VecDeque::new();
        let mut values = HashMap::new();
        let mut lines_in_file = 0;
        let mut torn_tail = false;
        match fs::read(path) {
            Ok(bytes) => {
                torn_tail = bytes.last().is_some_and(|b| *b != b'\n');
                for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                    lines_in_file += 1;
                    // A torn last line (the connector died mid-write) is skipped.
                    let Ok(Line { id, value }) = serde_json::from_slice::<Line<V>>(line) else {
                        tracing::warn!(path = %path.display(), "skipping an unreadable line");
                        continue;
                    };
                    if values.insert(id, value).is_none() {
                        order.push_back(id);
                    }
                    while order.len() > capacity {
                        if let Some(old) = order.pop_front() {
                            values.remove(&old);
                        }
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(err(e)),
        }
        let mut file = OpenOptions::new().create(true).append(true).mode(0o600).open(path).map_err(err)?;
        if torn_tail {
            // End the torn line so the next record starts on a line of its own.
            file.write_all(b"\n").map_err(err)?;
        }
        let mut log = Self { path: path.to_owned(), capacity, order, values, file, lines_in_file };
        if log.lines_in_file > 2 * log.capacity {
            log.compact()?;
        }
        Ok(log)
    }

    pub fn get(&self, id: &Uuid) -> Option<&V> {
        self.values.get(id)
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Records `id`, durably (fsync) before returning; forgets the oldest beyond the bound.
    pub fn insert(&mut self, id: Uuid, value: V) -> Result<(), SeenError> {
        let err = |source| SeenError { path: self.path.clone(), source };
        let mut line = serde_json::to_vec(&Line { id, value: value.clone() }).map_err(|e| err(e.into()))?;
        line.push(b'\n');
        self.file.write_all(&line).map_err(err)?;
        self.file.sync_data().map_err(err)?;
        self.lines_in_file += 1;
        if self.values.insert(id, value).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.values.remove(&old);
            }
        }
        if self.lines_in_file > 2 * self.capacity {
            self.compact()?;
        }
        Ok(())
    }

    /// Forgets every id, on disk too.
    pub fn clear(&mut self) -> Result<(), SeenError> {
        let err = |source| SeenError { path: self.path.clone(), source };
        self.file.set_len(0).map_err(err)?;
        self.file.sync_all().map_err(err)?;
        self.order.clear();
        self.values.clear();
        self.lines_in_file = 0;
        Ok(())
    }

    /// Rewrites the file with only the remembered ids (temporary file, then rename).
    fn compact(&mut self) -> Result<(), SeenError> {
        let err = |source| SeenError { path: self.path.clone(), source };
        let tmp = self.path.with_extension("compact.tmp");
        {
            let mut out =
                OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp).map_err(err)?;
            let mut buf = Vec::new();
            for id in &self.order {
                if let Some(value) = self.values.get(id) {
                    serde_json::to_writer(&mut buf, &Line { id: *id, value }).map_err(|e| err(e.into()))?;
                    buf.push(b'\n');
                }
            }
            out.write_all(&buf).map_err(err)?;
            out.sync_all().map_err(err)?;
        }
        fs::rename(&tmp, &self.path).map_err(err)?;
        self.file = OpenOptions::new().append(true).open(&self.path).map_err(err)?;
        self.lines_in_file = self.order.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_across_reopen_and_forgets_the_oldest() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("commands.jsonl");
        let ids: Vec<Uuid> = (0..25).map(|_| Uuid::now_v7()).collect();
        {
            let mut log = SeenLog::<u32>::open(&path, 10).unwrap();
            for (i, id) in ids.iter().enumerate() {
                log.insert(*id, i as u32).unwrap();
            }
            assert_eq!(log.len(), 10);
        }
        let log = SeenLog::<u32>::open(&path, 10).unwrap();
        assert_eq!(log.len(), 10);
        assert_eq!(log.get(&ids[24]), Some(&24));
        assert_eq!(log.get(&ids[15]), Some(&15));
        assert_eq!(log.get(&ids[14]), None);
        // Compaction kept the file near its bound.
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        assert!(lines <= 20, "{lines} lines");
    }

    #[test]
    fn a_torn_last_line_is_skipped() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("commands.jsonl");
        let id = Uuid::now_v7();
        {
            let mut log = SeenLog::<String>::open(&path, 10).unwrap();
            log.insert(id, "accepted".into()).unwrap();
        }
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"id\":\"0190").unwrap();
        let second = Uuid::now_v7();
        {
            let mut log = SeenLog::<String>::open(&path, 10).unwrap();
            assert_eq!(log.get(&id).map(String::as_str), Some("accepted"));
            assert_eq!(log.len(), 1);
            log.insert(second, "rejected".into()).unwrap();
        }
        let log = SeenLog::<String>::open(&path, 10).unwrap();
        assert_eq!(log.get(&second).map(String::as_str), Some("rejected"));
        assert_eq!(log.len(), 2);
    }

    #[test]
    fn a_cleared_log_stays_empty_after_reopen() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("forgotten-runs.jsonl");
        let (old, new) = (Uuid::now_v7(), Uuid::now_v7());
        {
            let mut log = SeenLog::<u32>::open(&path, 10).unwrap();
            log.insert(old, 1).unwrap();
            log.clear().unwrap();
            assert!(log.is_empty());
            log.insert(new, 2).unwrap();
        }
        let log = SeenLog::<u32>::open(&path, 10).unwrap();
        assert_eq!((log.get(&old), log.get(&new), log.len()), (None, Some(&2), 1));
    }
}
