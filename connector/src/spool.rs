//! The spool: every run event is written here, encrypted, before it is sent, and kept until the
//! control plane acknowledges it — so a disconnect or a connector restart loses nothing and the
//! events are resent in order. Bounded: when full, new runs are refused rather than events dropped.
//!
//! One append-only file per run, `runs/<run_id>.spool`: a plaintext magic line, then records of
//! `u32 length ‖ 24-byte nonce ‖ XChaCha20-Poly1305 ciphertext`, the run id bound in as associated
//! data. A record is a run header, the run's process, an event, an acknowledgement or the end.
//! A file is compacted when most of it is acknowledged and deleted once its run has ended and
//! every event is acknowledged; the run's last sequence is remembered so a later attempt of the
//! same run continues the sequence.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use acc_protocol::{
    Classification, Envelope, EventKind, Frame, MAX_FRAME_BYTES, ProtocolError, RunCursor, SCHEMA_VERSION,
};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use crate::seen::{SeenError, SeenLog};

const MAGIC: &[u8] = b"ACC-SPOOL v1\n";
const AAD_PREFIX: &[u8] = b"acc-spool-v1:";
const NONCE_LEN: usize = 24;
/// A record larger than this is corruption, not data (an event is at most one frame).
const MAX_RECORD_LEN: usize = MAX_FRAME_BYTES * 2 + 1024;
/// Encoded events kept in memory for sending, beyond which they are read back from disk.
const CACHE_LIMIT_BYTES: usize = 32 * 1024 * 1024;
/// A run file is compacted once this many bytes of it are acknowledged and they are at least half of it.
const COMPACT_MIN_BYTES: u64 = 1024 * 1024;
/// How many forgotten runs' last sequences are remembered.
const FORGOTTEN_RUNS: usize = 10_000;
/// Events of one run handed to the sender per call, so one busy run does not starve the others.
const PER_RUN_BATCH: usize = 64;

#[derive(Debug, thiserror::Error)]
pub enum SpoolError {
    #[error("spool full: {held} of {max} events await acknowledgement by the control plane")]
    Full { held: usize, max: usize },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: cannot decrypt the spool — it was written with another key than spool.key")]
    WrongKey { path: PathBuf },
    #[error("{path}: not a spool file")]
    NotASpool { path: PathBuf },
    #[error("the spool has no run {0}")]
    UnknownRun(Uuid),
    #[error("run {0} has ended; it takes no more events")]
    RunEnded(Uuid),
    #[error("spool encryption failed")]
    Crypto,
    #[error("spool record: {0}")]
    Encoding(String),
    #[error(transparent)]
    Seen(#[from] SeenError),
}

/// The process a run started, enough to find it again after a connector restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessRef {
    /// The process id, which is also its process group id.
    pub pid: u32,
    /// Its start time in clock ticks since boot (`/proc/<pid>/stat`), so a reused pid is not mistaken for it.
    pub start_ticks: Option<u64>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum Record {
    Run { run_id: Uuid, agent_id: Uuid, attempt_id: Uuid },
    Process { process: ProcessRef },
    Event { envelope: Box<Envelope> },
    Ack { up_to: u64 },
    Ended,
}

/// What the spool remembers of a run whose file it deleted.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Forgotten {
    pub attempt_id: Option<Uuid>,
    pub last_sequence: u64,
}

/// A run found unfinished when the spool was opened: its connector died while it ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orphan {
    pub run_id: Uuid,
    pub agent_id: Uuid,
    pub attempt_id: Uuid,
    pub process: Option<ProcessRef>,
}

/// What `begin_run` replaced, so `abandon_run` can put it back.
#[derive(Debug, Clone, Copy)]
pub struct Begun {
    created: bool,
    previous_attempt: Uuid,
}

#[derive(Debug)]
struct Pending {
    sequence: u64,
    offset: u64,
    len: u32,
    text: Option<Arc<str>>,
}

#[derive(Debug)]
struct RunSpool {
    path: PathBuf,
    file: File,
    len: u64,
    agent_id: Uuid,
    attempt_id: Uuid,
    last_sequence: u64,
    acked: u64,
    ended: bool,
    process: Option<ProcessRef>,
    pending: VecDeque<Pending>,
    acked_bytes: u64,
    dirty: bool,
}

pub struct Spool {
    runs_dir: PathBuf,
    cipher: XChaCha20Poly1305,
    connector_id: Uuid,
    max_events: usize,
    runs: BTreeMap<Uuid, RunSpool>,
    held: usize,
    cache_bytes: usize,
    forgotten: SeenLog<Forgotten>,
    /// `connector-id`: the connector whose runs this spool holds.
    owner_path: PathBuf,
    /// Set when the spool holds another connector's runs (its credential was replaced).
    previous_owner: Option<Uuid>,
}

impl std::fmt::Debug for Spool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spool")
            .field("runs_dir", &self.runs_dir)
            .field("runs", &self.runs.len())
            .field("held", &self.held)
            .field("max_events", &self.max_events)
            .finish_non_exhaustive()
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SpoolError + '_ {
    move |source| SpoolError::Io { path: path.to_owned(), source }
}

fn write_owner(path: &Path, connector_id: Uuid) -> Result<(), SpoolError> {
    let mut file =
        OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(path).map_err(io(path))?;
    file.write_all(format!("{connector_id}\n").as_bytes()).map_err(io(path))?;
    file.sync_all().map_err(io(path))
}

fn aad(run_id: Uuid) -> Vec<u8> {
    let mut aad = AAD_PREFIX.to_vec();
    aad.extend_from_slice(run_id.as_bytes());
    aad
}

impl Spool {
    /// Opens (creating) the spool in `dir`, reading back every run it holds.
    pub fn open(dir: &Path, key: &[u8; 32], connector_id: Uuid, max_events: usize) -> Result<Self, SpoolError> {
        let runs_dir = dir.join("runs");
        for d in [dir, runs_dir.as_path()] {
            if !d.exists() {
                use std::os::unix::fs::DirBuilderExt;
                fs::DirBuilder::new().recursive(true).mode(0o700).create(d).map_err(io(d))?;
            }
        }
        let forgotten = SeenLog::open(&dir.join("forgotten-runs.jsonl"), FORGOTTEN_RUNS)?;
        let owner_path = dir.join("connector-id");
        // A spool from before the file existed is taken to be this connector's.
        let owner = match fs::read_to_string(&owner_path) {
            Ok(text) => Uuid::parse_str(text.trim()).ok(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(io(&owner_path)(e)),
        };
        if owner.is_none() {
            write_owner(&owner_path, connector_id)?;
        }
        let mut spool = Spool {
            runs_dir: runs_dir.clone(),
            cipher: XChaCha20Poly1305::new(key.into()),
            connector_id,
            max_events: max_events.max(1),
            runs: BTreeMap::new(),
            held: 0,
            cache_bytes: 0,
            forgotten,
            owner_path,
            previous_owner: owner.filter(|o| *o != connector_id),
        };
        let mut paths: Vec<PathBuf> =
            fs::read_dir(&runs_dir).map_err(io(&runs_dir))?.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            match path.extension().and_then(|e| e.to_str()) {
                Some("spool") => {}
                Some("compact") => {
                    // An interrupted compaction; the original is intact.
                    let _ = fs::remove_file(&path);
                    continue;
                }
                _ => continue,
            }
            let Some(run_id) = path.file_stem().and_then(|s| s.to_str()).and_then(|s| Uuid::parse_str(s).ok()) else {
                continue;
            };
            if let Some(run) = spool.load_run(run_id, &path)? {
                spool.held += run.pending.len();
                spool.runs.insert(run_id, run);
            }
        }
        Ok(spool)
    }

    fn seal(&self, run_id: Uuid, record: &Record) -> Result<Vec<u8>, SpoolError> {
        let plain = serde_json::to_vec(record).map_err(|e| SpoolError::Encoding(e.to_string()))?;
        let mut nonce = [0u8; NONCE_LEN];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let aad = aad(run_id);
        let sealed = self
            .cipher
            .encrypt(&XNonce::from(nonce), Payload { msg: &plain, aad: &aad })
            .map_err(|_| SpoolError::Crypto)?;
        let body_len =
            u32::try_from(NONCE_LEN + sealed.len()).map_err(|_| SpoolError::Encoding("record too large".into()))?;
        let mut out = Vec::with_capacity(4 + body_len as usize);
        out.extend_from_slice(&body_len.to_be_bytes());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    fn open_record(&self, run_id: Uuid, body: &[u8]) -> Option<Record> {
        if body.len() < NONCE_LEN {
            return None;
        }
        let (nonce, sealed) = body.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().ok()?;
        let aad = aad(run_id);
        let plain = self.cipher.decrypt(&XNonce::from(nonce), Payload { msg: sealed, aad: &aad }).ok()?;
        serde_json::from_slice(&plain).ok()
    }

    fn load_run(&self, run_id: Uuid, path: &Path) -> Result<Option<RunSpool>, SpoolError> {
        let bytes = fs::read(path).map_err(io(path))?;
        if !bytes.starts_with(MAGIC) {
            if bytes.len() < MAGIC.len() && MAGIC.starts_with(&bytes) {
                // Died while creating the file: nothing in it.
                let _ = fs::remove_file(path);
                return Ok(None);
            }
            return Err(SpoolError::NotASpool { path: path.to_owned() });
        }
        let mut pos = MAGIC.len();
        let mut header: Option<(Uuid, Uuid)> = None;
        let mut run = RunState::default();
        let mut first = true;
        while pos < bytes.len() {
            let Some(len_bytes) = bytes.get(pos..pos + 4) else { break };
            let body_len = u32::from_be_bytes([len_bytes[0], len_bytes[1], len_bytes[2], len_bytes[3]]) as usize;
            if body_len > MAX_RECORD_LEN {
                break;
            }
            let Some(body) = bytes.get(pos + 4..pos + 4 + body_len) else { break };
            let Some(record) = self.open_record(run_id, body) else {
                if first {
                    return Err(SpoolError::WrongKey { path: path.to_owned() });
                }
                break;
            };
            first = false;
            let record_len = (4 + body_len) as u32;
            match record {
                Record::Run { run_id: id, agent_id, attempt_id } if id == run_id => {
                    header = Some((agent_id, attempt_id));
                    run.ended = false;
                    run.process = None;
                }
                Record::Run { .. } => return Err(SpoolError::NotASpool { path: path.to_owned() }),
                Record::Process { process } => run.process = Some(process),
                Record::Event { envelope } => {
                    let sequence = envelope.sequence.unwrap_or(0);
                    if sequence > run.acked {
                        run.pending.push_back(Pending { sequence, offset: pos as u64, len: record_len, text: None });
                    } else {
                        run.acked_bytes += u64::from(record_len);
                    }
                    run.last_sequence = run.last_sequence.max(sequence);
                    if matches!(envelope.payload, Frame::Event { kind: EventKind::Result, .. }) {
                        run.ended = true;
                    }
                }
                Record::Ack { up_to } => run.ack(up_to),
                Record::Ended => run.ended = true,
            }
            pos += 4 + body_len;
        }
        let Some((agent_id, attempt_id)) = header else {
            let _ = fs::remove_file(path);
            return Ok(None);
        };
        if pos < bytes.len() {
            tracing::warn!(path = %path.display(), kept = pos, dropped = bytes.len() - pos, "spool file ends in a torn or unreadable record; truncating it");
            let file = OpenOptions::new().write(true).open(path).map_err(io(path))?;
            file.set_len(pos as u64).map_err(io(path))?;
            file.sync_all().map_err(io(path))?;
        }
        let file = OpenOptions::new().read(true).append(true).open(path).map_err(io(path))?;
        Ok(Some(RunSpool {
            path: path.to_owned(),
            file,
            len: pos as u64,
            agent_id,
            attempt_id,
            last_sequence: run.last_sequence,
            acked: run.acked,
            ended: run.ended,
            process: run.process,
            pending: run.pending,
            acked_bytes: run.acked_bytes,
            dirty: false,
        }))
    }

    fn write_record(&mut self, run_id: Uuid, record: &Record) -> Result<(u64, u32), SpoolError> {
        let bytes = self.seal(run_id, record)?;
        let run = self.runs.get_mut(&run_id).ok_or(SpoolError::UnknownRun(run_id))?;
        run.file.write_all(&bytes).map_err(io(&run.path))?;
        let offset = run.len;
        run.len += bytes.len() as u64;
        run.dirty = true;
        Ok((offset, bytes.len() as u32))
    }

    /// Events held (written, not yet acknowledged).
    pub fn len(&self) -> usize {
        self.held
    }

    pub fn is_empty(&self) -> bool {
        self.held == 0
    }

    pub fn max_events(&self) -> usize {
        self.max_events
    }

    pub fn is_full(&self) -> bool {
        self.held >= self.max_events
    }

    fn full(&self) -> SpoolError {
        SpoolError::Full { held: self.held, max: self.max_events }
    }

    /// Whether this attempt of the run was already started here (it may have ended since).
    pub fn attempt_started(&self, run_id: Uuid, attempt_id: Uuid) -> bool {
        match self.runs.get(&run_id) {
            Some(run) => run.attempt_id == attempt_id,
            None => self.forgotten.get(&run_id).is_some_and(|f| f.attempt_id == Some(attempt_id)),
        }
    }

    /// Records that an attempt of a run starts here, durably, before its process is started.
    /// Refused when the spool is full.
    pub fn begin_run(&mut self, run_id: Uuid, agent_id: Uuid, attempt_id: Uuid) -> Result<Begun, SpoolError> {
        if self.is_full() {
            return Err(self.full());
        }
        let begun = match self.runs.get_mut(&run_id) {
            Some(run) => {
                let previous_attempt = run.attempt_id;
                run.agent_id = agent_id;
                run.attempt_id = attempt_id;
                run.ended = false;
                run.process = None;
                Begun { created: false, previous_attempt }
            }
            None => {
                let path = self.runs_dir.join(format!("{run_id}.spool"));
                let mut file = OpenOptions::new()
                    .read(true)
                    .append(true)
                    .create_new(true)
                    .mode(0o600)
                    .open(&path)
                    .map_err(io(&path))?;
                file.write_all(MAGIC).map_err(io(&path))?;
                let base = self.forgotten.get(&run_id).map_or(0, |f| f.last_sequence);
                self.runs.insert(
                    run_id,
                    RunSpool {
                        path,
                        file,
                        len: MAGIC.len() as u64,
                        agent_id,
                        attempt_id,
                        last_sequence: base,
                        acked: base,
                        ended: false,
                        process: None,
                        pending: VecDeque::new(),
                        acked_bytes: 0,
                        dirty: true,
                    },
                );
                Begun { created: true, previous_attempt: attempt_id }
            }
        };
        self.write_record(run_id, &Record::Run { run_id, agent_id, attempt_id })?;
        let acked = self.runs.get(&run_id).map_or(0, |r| r.acked);
        if begun.created && acked > 0 {
            self.write_record(run_id, &Record::Ack { up_to: acked })?;
        }
        self.sync_run(run_id)?;
        Ok(begun)
    }

    /// Undoes `begin_run` when the process could not be started.
    pub fn abandon_run(&mut self, run_id: Uuid, begun: Begun) -> Result<(), SpoolError> {
        if begun.created {
            if let Some(run) = self.runs.remove(&run_id) {
                self.held -= run.pending.len();
                fs::remove_file(&run.path).map_err(io(&run.path))?;
            }
            return Ok(());
        }
        let agent_id = self.runs.get(&run_id).ok_or(SpoolError::UnknownRun(run_id))?.agent_id;
        let attempt_id = begun.previous_attempt;
        self.write_record(run_id, &Record::Run { run_id, agent_id, attempt_id })?;
        self.write_record(run_id, &Record::Ended)?;
        if let Some(run) = self.runs.get_mut(&run_id) {
            run.attempt_id = attempt_id;
            run.ended = true;
        }
        self.forget_if_done(run_id)
    }

    /// Records the process a run started.
    pub fn set_process(&mut self, run_id: Uuid, process: ProcessRef) -> Result<(), SpoolError> {
        self.write_record(run_id, &Record::Process { process })?;
        if let Some(run) = self.runs.get_mut(&run_id) {
            run.process = Some(process);
        }
        self.sync_run(run_id)
    }

    /// Appends the run's next event (sequence assigned here: 1, 2, 3… gap-free) and returns its sequence.
    /// A `Result` event ends the run. Refused when the spool is full; the caller waits for acknowledgements.
    pub fn append(&mut self, run_id: Uuid, kind: EventKind, data: Value) -> Result<u64, SpoolError> {
        self.append_inner(run_id, kind, data, true)
    }

    /// Appends even when the spool is full: only for the one `Result` that ends a run found
    /// unfinished at start-up, so the bound is exceeded by at most one event per such run.
    pub fn append_unbounded(&mut self, run_id: Uuid, kind: EventKind, data: Value) -> Result<u64, SpoolError> {
        self.append_inner(run_id, kind, data, false)
    }

    fn append_inner(&mut self, run_id: Uuid, kind: EventKind, data: Value, bounded: bool) -> Result<u64, SpoolError> {
        let run = self.runs.get(&run_id).ok_or(SpoolError::UnknownRun(run_id))?;
        if run.ended {
            return Err(SpoolError::RunEnded(run_id));
        }
        if bounded && self.is_full() {
            return Err(self.full());
        }
        let sequence = run.last_sequence + 1;
        let mut envelope = Envelope {
            schema_version: SCHEMA_VERSION,
            connector_id: self.connector_id,
            agent_id: Some(run.agent_id),
            run_id: Some(run_id),
            event_id: Some(Uuid::now_v7()),
            sequence: Some(sequence),
            occurred_at: chrono::Utc::now(),
            classification: Classification::Internal,
            payload: Frame::Event { kind, data },
            vendor_extension: None,
        };
        let text = match acc_protocol::encode(&envelope) {
            Ok(text) => text,
            Err(ProtocolError::TooLarge { size, .. }) => {
                // Adapters bound their lines; this is a last resort so the frame can still be sent.
                envelope.payload =
                    Frame::Event { kind, data: serde_json::json!({ "truncated": true, "original_bytes": size }) };
                acc_protocol::encode(&envelope).map_err(|e| SpoolError::Encoding(e.to_string()))?
            }
            Err(e) => return Err(SpoolError::Encoding(e.to_string())),
        };
        let (offset, len) = self.write_record(run_id, &Record::Event { envelope: Box::new(envelope) })?;
        let cached = if self.cache_bytes + text.len() <= CACHE_LIMIT_BYTES {
            self.cache_bytes += text.len();
            Some(Arc::from(text))
        } else {
            None
        };
        let run = self.runs.get_mut(&run_id).ok_or(SpoolError::UnknownRun(run_id))?;
        run.pending.push_back(Pending { sequence, offset, len, text: cached });
        run.last_sequence = sequence;
        if kind == EventKind::Result {
            run.ended = true;
        }
        self.held += 1;
        Ok(sequence)
    }

    /// Marks a run ended without a `Result` event (no more events will be accepted).
    pub fn end_run(&mut self, run_id: Uuid) -> Result<(), SpoolError> {
        match self.runs.get(&run_id) {
            None => return Ok(()),
            Some(run) if run.ended => {}
            Some(_) => {
                self.write_record(run_id, &Record::Ended)?;
                if let Some(run) = self.runs.get_mut(&run_id) {
                    run.ended = true;
                }
            }
        }
        self.forget_if_done(run_id)
    }

    /// The control plane stored every event of the run up to `up_to`: forget them.
    /// Returns how many events were released.
    pub fn ack(&mut self, run_id: Uuid, up_to: u64) -> Result<usize, SpoolError> {
        let Some(run) = self.runs.get(&run_id) else { return Ok(0) };
        if up_to <= run.acked {
            return Ok(0);
        }
        let up_to = if up_to > run.last_sequence {
            tracing::warn!(%run_id, up_to, last_sequence = run.last_sequence, "acknowledgement beyond the last event sent");
            run.last_sequence
        } else {
            up_to
        };
        if up_to <= run.acked {
            return Ok(0);
        }
        self.write_record(run_id, &Record::Ack { up_to })?;
        let run = self.runs.get_mut(&run_id).ok_or(SpoolError::UnknownRun(run_id))?;
        let before = run.pending.len();
        let mut freed_cache = 0;
        while run.pending.front().is_some_and(|p| p.sequence <= up_to) {
            if let Some(p) = run.pending.pop_front() {
                run.acked_bytes += u64::from(p.len);
                freed_cache += p.text.map_or(0, |t| t.len());
            }
        }
        run.acked = up_to;
        let released = before - run.pending.len();
        self.held -= released;
        self.cache_bytes -= freed_cache;
        self.forget_if_done(run_id)?;
        self.maybe_compact(run_id)?;
        Ok(released)
    }

    /// The connector whose runs this spool held when it was opened, if not the one it was
    /// opened for: then `start_over` is due.
    pub fn previous_owner(&self) -> Option<Uuid> {
        self.previous_owner
    }

    /// Starts over under another connector identity, with no run and no remembered sequence:
    /// the control plane refuses the old identity's events, and expects a run's events from a
    /// connector it never heard from to start at sequence 1. Call it once no run is active.
    /// Returns how many unacknowledged events were dropped.
    pub fn start_over(&mut self, connector_id: Uuid) -> Result<usize, SpoolError> {
        let dropped = self.held;
        for run in std::mem::take(&mut self.runs).into_values() {
            fs::remove_file(&run.path).map_err(io(&run.path))?;
        }
        self.held = 0;
        self.cache_bytes = 0;
        self.forgotten.clear()?;
        write_owner(&self.owner_path, connector_id)?;
        self.connector_id = connector_id;
        self.previous_owner = None;
        Ok(dropped)
    }

    /// Deletes an ended, fully acknowledged run's file, remembering its last sequence.
    fn forget_if_done(&mut self, run_id: Uuid) -> Result<(), SpoolError> {
        let Some(run) = self.runs.get(&run_id) else { return Ok(()) };
        if !run.ended || !run.pending.is_empty() {
            return Ok(());
        }
        self.forgotten
            .insert(run_id, Forgotten { attempt_id: Some(run.attempt_id), last_sequence: run.last_sequence })?;
        if let Some(run) = self.runs.remove(&run_id) {
            fs::remove_file(&run.path).map_err(io(&run.path))?;
        }
        Ok(())
    }

    fn maybe_compact(&mut self, run_id: Uuid) -> Result<(), SpoolError> {
        let Some(run) = self.runs.get(&run_id) else { return Ok(()) };
        if run.acked_bytes < COMPACT_MIN_BYTES || run.acked_bytes * 2 < run.len {
            return Ok(());
        }
        let tmp = run.path.with_extension("compact");
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let header = [
            Some(Record::Run { run_id, agent_id: run.agent_id, attempt_id: run.attempt_id }),
            (run.acked > 0).then_some(Record::Ack { up_to: run.acked }),
            run.process.filter(|_| !run.ended).map(|process| Record::Process { process }),
        ];
        for record in header.into_iter().flatten() {
            out.extend_from_slice(&self.seal(run_id, &record)?);
        }
        let mut offsets = Vec::with_capacity(run.pending.len());
        for p in &run.pending {
            let mut buf = vec![0u8; p.len as usize];
            run.file.read_exact_at(&mut buf, p.offset).map_err(io(&run.path))?;
            offsets.push(out.len() as u64);
            out.extend_from_slice(&buf);
        }
        if run.ended {
            out.extend_from_slice(&self.seal(run_id, &Record::Ended)?);
        }
        {
            let mut file =
                OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp).map_err(io(&tmp))?;
            file.write_all(&out).map_err(io(&tmp))?;
            file.sync_all().map_err(io(&tmp))?;
        }
        let run = self.runs.get_mut(&run_id).ok_or(SpoolError::UnknownRun(run_id))?;
        fs::rename(&tmp, &run.path).map_err(io(&run.path))?;
        run.file = OpenOptions::new().read(true).append(true).open(&run.path).map_err(io(&run.path))?;
        run.len = out.len() as u64;
        run.acked_bytes = 0;
        run.dirty = false;
        for (p, offset) in run.pending.iter_mut().zip(offsets) {
            p.offset = offset;
        }
        tracing::debug!(%run_id, bytes = run.len, "compacted the run's spool file");
        Ok(())
    }

    /// Every run the spool holds — not ended, or with unacknowledged events — with the last
    /// sequence acknowledged: the `resume` of `Hello`. It tells a control plane that restarted
    /// which runs this connector still has, including a quiet one, or one ending this very moment.
    pub fn resume_cursors(&self) -> Vec<RunCursor> {
        self.runs.iter().map(|(id, r)| RunCursor { run_id: *id, acked_sequence: r.acked }).collect()
    }

    /// The control plane will store nothing more of the run (it ended there): its unacknowledged
    /// events are dropped as if acknowledged, so they are never sent again. Returns how many.
    pub fn discard(&mut self, run_id: Uuid) -> Result<usize, SpoolError> {
        let Some(last) = self.runs.get(&run_id).map(|r| r.last_sequence) else { return Ok(0) };
        self.ack(run_id, last)
    }

    /// Runs left unfinished by a previous connector process.
    pub fn unfinished(&self) -> Vec<Orphan> {
        self.runs
            .iter()
            .filter(|(_, r)| !r.ended)
            .map(|(id, r)| Orphan { run_id: *id, agent_id: r.agent_id, attempt_id: r.attempt_id, process: r.process })
            .collect()
    }

    /// The agent and current attempt of a run the spool holds.
    pub fn run_identity(&self, run_id: Uuid) -> Option<(Uuid, Uuid)> {
        self.runs.get(&run_id).map(|r| (r.agent_id, r.attempt_id))
    }

    /// The last sequence assigned to a run (0 when none).
    pub fn last_sequence(&self, run_id: Uuid) -> u64 {
        match self.runs.get(&run_id) {
            Some(r) => r.last_sequence,
            None => self.forgotten.get(&run_id).map_or(0, |f| f.last_sequence),
        }
    }

    fn read_text(&self, run_id: Uuid, run: &RunSpool, p: &Pending) -> Result<Arc<str>, SpoolError> {
        if let Some(text) = &p.text {
            return Ok(text.clone());
        }
        let envelope = self.read_envelope(run_id, run, p)?;
        acc_protocol::encode(&envelope).map(Arc::from).map_err(|e| SpoolError::Encoding(e.to_string()))
    }

    fn read_envelope(&self, run_id: Uuid, run: &RunSpool, p: &Pending) -> Result<Envelope, SpoolError> {
        let mut buf = vec![0u8; p.len as usize];
        run.file.read_exact_at(&mut buf, p.offset).map_err(io(&run.path))?;
        match self.open_record(run_id, buf.get(4..).unwrap_or_default()) {
            Some(Record::Event { mut envelope }) => {
                envelope.connector_id = self.connector_id;
                Ok(*envelope)
            }
            _ => Err(SpoolError::Encoding(format!("{}: unreadable event at offset {}", run.path.display(), p.offset))),
        }
    }

    /// The next events to send, in order per run, after the cursors in `sent` (a run missing
    /// from `sent` starts after its acknowledged sequence); advances `sent`. Encoded frames.
    pub fn next_unsent(&self, sent: &mut HashMap<Uuid, u64>, limit: usize) -> Result<Vec<Arc<str>>, SpoolError> {
        let mut out = Vec::new();
        for (run_id, run) in &self.runs {
            if out.len() >= limit {
                break;
            }
            let cursor = sent.get(run_id).copied().unwrap_or(run.acked).max(run.acked);
            let start = run.pending.partition_point(|p| p.sequence <= cursor);
            let take = PER_RUN_BATCH.min(limit - out.len());
            let mut last = cursor;
            for p in run.pending.iter().skip(start).take(take) {
                out.push(self.read_text(*run_id, run, p)?);
                last = p.sequence;
            }
            sent.insert(*run_id, last);
        }
        Ok(out)
    }

    /// The unacknowledged events of a run, decoded, in order.
    pub fn unacked(&self, run_id: Uuid) -> Result<Vec<Envelope>, SpoolError> {
        let Some(run) = self.runs.get(&run_id) else { return Ok(Vec::new()) };
        run.pending.iter().map(|p| self.read_envelope(run_id, run, p)).collect()
    }

    fn sync_run(&mut self, run_id: Uuid) -> Result<(), SpoolError> {
        if let Some(run) = self.runs.get_mut(&run_id) {
            run.file.sync_data().map_err(io(&run.path))?;
            run.dirty = false;
        }
        Ok(())
    }

    /// Flushes every written record to stable storage.
    pub fn sync(&mut self) -> Result<(), SpoolError> {
        for run in self.runs.values_mut().filter(|r| r.dirty) {
            run.file.sync_data().map_err(io(&run.path))?;
            run.dirty = false;
        }
        Ok(())
    }
}

/// A run's state while its file is read back.
#[derive(Default)]
struct RunState {
    last_sequence: u64,
    acked: u64,
    ended: bool,
    process: Option<ProcessRef>,
    pending: VecDeque<Pending>,
    acked_bytes: u64,
}

impl RunState {
    fn ack(&mut self, up_to: u64) {
        self.acked = self.acked.max(up_to);
        self.last_sequence = self.last_sequence.max(up_to);
        while self.pending.front().is_some_and(|p| p.sequence <= self.acked) {
            if let Some(p) = self.pending.pop_front() {
                self.acked_bytes += u64::from(p.len);
            }
        }
    }
}
