//! Process groups of this host: signalling a run's whole group, and recognizing a process again
//! after a connector restart by its start time, so a reused pid is never signalled.

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// Sends `signal` to the process group `pgid`. False when the group no longer exists.
pub fn signal_group(pgid: u32, signal: Signal) -> bool {
    let Ok(raw) = i32::try_from(pgid) else { return false };
    if raw <= 1 {
        // Never the whole system, never init.
        return false;
    }
    match killpg(Pid::from_raw(raw), signal) {
        Ok(()) => true,
        Err(nix::errno::Errno::ESRCH) => false,
        Err(e) => {
            tracing::warn!(pgid, %signal, error = %e, "could not signal the process group");
            false
        }
    }
}

/// The process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`), on Linux.
pub fn start_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces; count after its end.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process group led by `pid` still exists.
pub fn group_alive(pgid: u32) -> bool {
    let Ok(raw) = i32::try_from(pgid) else { return false };
    raw > 1 && killpg(Pid::from_raw(raw), None).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_its_own_start_time() {
        if std::path::Path::new("/proc/self/stat").exists() {
            let me = std::process::id();
            assert!(start_ticks(me).is_some());
            assert_eq!(start_ticks(me), start_ticks(me));
        }
        assert_eq!(start_ticks(u32::MAX), None);
        assert!(!signal_group(1, Signal::SIGTERM));
        assert!(!signal_group(0, Signal::SIGTERM));
    }
}
