//! The encrypted spool on a real directory: it survives reopening, keeps order, forgets only
//! acknowledged events, is not plaintext on disk, refuses when full, and recovers a torn tail.

use std::collections::HashMap;
use std::path::Path;

use acc_connector::spool::{ProcessRef, Spool, SpoolError};
use acc_protocol::{EventKind, Frame, RunCursor};
use serde_json::{Value, json};
use uuid::Uuid;

const KEY: [u8; 32] = [7; 32];

fn open(dir: &Path, max: usize) -> Spool {
    Spool::open(dir, &KEY, CONNECTOR, max).unwrap()
}

const CONNECTOR: Uuid = Uuid::from_u128(0x01a2_37a0_0000_7000_8000_0000_0000_0001);

fn lines(spool: &Spool, run: Uuid) -> Vec<(u64, Value)> {
    spool
        .unacked(run)
        .unwrap()
        .into_iter()
        .map(|e| {
            let Frame::Event { data, .. } = e.payload else { panic!("not an event") };
            (e.sequence.unwrap(), data)
        })
        .collect()
}

fn files(dir: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for entry in walk(dir) {
        out.push(std::fs::read(entry).unwrap());
    }
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn survives_reopening_in_order_and_drops_only_acknowledged_events() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, agent, attempt) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    let event_ids;
    {
        let mut spool = open(tmp.path(), 100);
        spool.begin_run(run, agent, attempt).unwrap();
        spool.set_process(run, ProcessRef { pid: 4242, start_ticks: Some(99) }).unwrap();
        for i in 1..=5 {
            assert_eq!(spool.append(run, EventKind::Output, json!({"line": format!("line {i}")})).unwrap(), i);
        }
        assert_eq!(spool.ack(run, 2).unwrap(), 2);
        assert_eq!(spool.len(), 3);
        event_ids = spool.unacked(run).unwrap().iter().map(|e| e.event_id.unwrap()).collect::<Vec<_>>();
        spool.sync().unwrap();
    }
    let mut spool = open(tmp.path(), 100);
    assert_eq!(spool.len(), 3);
    assert_eq!(
        lines(&spool, run),
        [(3, json!({"line": "line 3"})), (4, json!({"line": "line 4"})), (5, json!({"line": "line 5"}))]
    );
    let reread: Vec<Uuid> = spool.unacked(run).unwrap().iter().map(|e| e.event_id.unwrap()).collect();
    assert_eq!(reread, event_ids, "a resend carries the same event ids, so the control plane deduplicates");
    let envelope = &spool.unacked(run).unwrap()[0];
    assert_eq!((envelope.run_id, envelope.agent_id, envelope.connector_id), (Some(run), Some(agent), CONNECTOR));
    assert_eq!(spool.resume_cursors(), [RunCursor { run_id: run, acked_sequence: 2 }]);
    let orphans = spool.unfinished();
    assert_eq!(orphans.len(), 1);
    assert_eq!(orphans[0].process, Some(ProcessRef { pid: 4242, start_ticks: Some(99) }));

    // The sequence goes on after a reopen, gap-free.
    assert_eq!(spool.append(run, EventKind::Result, json!({"outcome": "succeeded"})).unwrap(), 6);
    assert!(matches!(spool.append(run, EventKind::Output, json!({})), Err(SpoolError::RunEnded(_))));
    assert!(spool.unfinished().is_empty());

    // Send cursors: everything after the acknowledged sequence, in order, then nothing more.
    let mut sent = HashMap::new();
    let frames = spool.next_unsent(&mut sent, 100).unwrap();
    let sequences: Vec<u64> =
        frames.iter().map(|f| acc_protocol::decode(f.as_bytes()).unwrap().sequence.unwrap()).collect();
    assert_eq!(sequences, [3, 4, 5, 6]);
    assert!(spool.next_unsent(&mut sent, 100).unwrap().is_empty());
    // A partial acknowledgement keeps the rest; a stale one changes nothing.
    spool.ack(run, 4).unwrap();
    spool.ack(run, 3).unwrap();
    assert_eq!(lines(&spool, run).iter().map(|(s, _)| *s).collect::<Vec<_>>(), [5, 6]);
    // Acknowledging the end forgets the run and deletes its file.
    spool.ack(run, 6).unwrap();
    assert!(spool.is_empty());
    assert!(spool.resume_cursors().is_empty());
    assert!(walk(&tmp.path().join("runs")).is_empty(), "the ended, acknowledged run's file is gone");
    drop(spool);
    let spool = open(tmp.path(), 100);
    assert!(spool.is_empty());
    assert_eq!(spool.last_sequence(run), 6, "the run's last sequence is remembered");
    assert!(spool.attempt_started(run, attempt));
}

#[test]
fn a_later_attempt_of_the_same_run_continues_its_sequence() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, agent) = (Uuid::now_v7(), Uuid::now_v7());
    let mut spool = open(tmp.path(), 100);
    spool.begin_run(run, agent, Uuid::now_v7()).unwrap();
    spool.append(run, EventKind::Result, json!({"outcome": "failed"})).unwrap();
    spool.ack(run, 1).unwrap();
    let second = Uuid::now_v7();
    spool.begin_run(run, agent, second).unwrap();
    assert_eq!(spool.append(run, EventKind::Started, json!({})).unwrap(), 2);
    drop(spool);
    let mut spool = open(tmp.path(), 100);
    assert_eq!(spool.append(run, EventKind::Output, json!({})).unwrap(), 3);
    assert!(spool.attempt_started(run, second));
}

#[test]
fn nothing_is_readable_as_plaintext_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let run = Uuid::now_v7();
    let mut spool = open(tmp.path(), 100);
    spool.begin_run(run, Uuid::now_v7(), Uuid::now_v7()).unwrap();
    spool.append(run, EventKind::Output, json!({"line": "the-secret-plan-is-42"})).unwrap();
    spool.sync().unwrap();
    let blobs = files(&tmp.path().join("runs"));
    assert_eq!(blobs.len(), 1);
    for needle in ["the-secret-plan-is-42", "output", "stream", "line", &run.to_string(), "schema_version"] {
        assert!(!blobs[0].windows(needle.len()).any(|w| w == needle.as_bytes()), "`{needle}` is on disk in clear");
    }
    // Files are owner-only.
    use std::os::unix::fs::PermissionsExt;
    for path in walk(tmp.path()) {
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o077, 0, "{}", path.display());
    }
    // Another key cannot read it and does not destroy it.
    drop(spool);
    let err = Spool::open(tmp.path(), &[8; 32], CONNECTOR, 100).unwrap_err();
    assert!(matches!(err, SpoolError::WrongKey { .. }), "{err}");
    assert_eq!(open(tmp.path(), 100).len(), 1);
}

#[test]
fn refuses_new_runs_and_events_when_full_and_takes_them_again_after_acks() {
    let tmp = tempfile::tempdir().unwrap();
    let run = Uuid::now_v7();
    let mut spool = open(tmp.path(), 3);
    spool.begin_run(run, Uuid::now_v7(), Uuid::now_v7()).unwrap();
    for _ in 0..3 {
        spool.append(run, EventKind::Output, json!({})).unwrap();
    }
    assert!(spool.is_full());
    assert!(matches!(spool.append(run, EventKind::Output, json!({})), Err(SpoolError::Full { held: 3, max: 3 })));
    let other = Uuid::now_v7();
    let err = spool.begin_run(other, Uuid::now_v7(), Uuid::now_v7()).unwrap_err();
    assert_eq!(err.to_string(), "spool full: 3 of 3 events await acknowledgement by the control plane");
    // Nothing was dropped to make room.
    assert_eq!(spool.unacked(run).unwrap().len(), 3);
    // Full after a restart too.
    drop(spool);
    let mut spool = open(tmp.path(), 3);
    assert!(spool.is_full());
    spool.ack(run, 1).unwrap();
    assert_eq!(spool.append(run, EventKind::Output, json!({})).unwrap(), 4);
    spool.ack(run, 4).unwrap();
    spool.begin_run(other, Uuid::now_v7(), Uuid::now_v7()).unwrap();
}

#[test]
fn a_torn_last_record_is_cut_off_and_the_rest_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let run = Uuid::now_v7();
    {
        let mut spool = open(tmp.path(), 100);
        spool.begin_run(run, Uuid::now_v7(), Uuid::now_v7()).unwrap();
        for i in 0..3 {
            spool.append(run, EventKind::Output, json!({"i": i})).unwrap();
        }
        spool.sync().unwrap();
    }
    let path = tmp.path().join("runs").join(format!("{run}.spool"));
    let len = std::fs::metadata(&path).unwrap().len();
    // The connector died in the middle of writing the third event.
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(len - 10).unwrap();
    let mut spool = open(tmp.path(), 100);
    assert_eq!(lines(&spool, run), [(1, json!({"i": 0})), (2, json!({"i": 1}))]);
    assert_eq!(spool.append(run, EventKind::Output, json!({"i": "again"})).unwrap(), 3);
    drop(spool);
    let spool = open(tmp.path(), 100);
    assert_eq!(lines(&spool, run).len(), 3);
}

#[test]
fn a_long_run_is_compacted_as_it_is_acknowledged() {
    let tmp = tempfile::tempdir().unwrap();
    let run = Uuid::now_v7();
    let path = tmp.path().join("runs").join(format!("{run}.spool"));
    let mut spool = open(tmp.path(), 100_000);
    spool.begin_run(run, Uuid::now_v7(), Uuid::now_v7()).unwrap();
    let filler = "x".repeat(1000);
    for i in 1..=3000u64 {
        spool.append(run, EventKind::Output, json!({"i": i, "line": filler})).unwrap();
        if i % 100 == 0 {
            spool.ack(run, i - 10).unwrap();
        }
    }
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < 2_500_000, "acknowledged events were compacted away: {size} bytes");
    let kept = lines(&spool, run);
    assert_eq!(kept.iter().map(|(s, _)| *s).collect::<Vec<_>>(), (2991..=3000).collect::<Vec<_>>());
    drop(spool);
    let spool = open(tmp.path(), 100_000);
    assert_eq!(lines(&spool, run).len(), 10);
    assert_eq!(spool.last_sequence(run), 3000);
}

#[test]
fn abandoning_a_run_that_never_started_leaves_no_trace() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, attempt) = (Uuid::now_v7(), Uuid::now_v7());
    let mut spool = open(tmp.path(), 100);
    let begun = spool.begin_run(run, Uuid::now_v7(), attempt).unwrap();
    spool.abandon_run(run, begun).unwrap();
    assert!(!spool.attempt_started(run, attempt), "the attempt may be started again");
    assert!(walk(&tmp.path().join("runs")).is_empty());
}
