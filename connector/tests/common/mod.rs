//! Helpers shared by the connector's tests: agent configs, collecting a run's events, process checks.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::time::Duration;

use acc_connector::adapter::AdapterEvent;
use acc_connector::config::AgentConfig;
use acc_protocol::EventKind;
use tokio::sync::mpsc;

pub fn sh_agent(name: &str, script: &str) -> AgentConfig {
    AgentConfig {
        name: name.to_owned(),
        adapter: "command".to_owned(),
        command: "sh".to_owned(),
        args: vec!["-c".to_owned(), script.to_owned()],
        env: BTreeMap::new(),
        workdir: None,
        interactive: false,
    }
}

/// Every event until (and with) the `Result`, failing after `limit`.
pub async fn collect(rx: &mut mpsc::Receiver<AdapterEvent>, limit: Duration) -> Vec<AdapterEvent> {
    let mut events = Vec::new();
    tokio::time::timeout(limit, async {
        while let Some(event) = rx.recv().await {
            let last = event.kind == EventKind::Result;
            events.push(event);
            if last {
                break;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no result within {limit:?}; got {events:?}"));
    events
}

/// Whether a process exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat.rfind(')').and_then(|i| stat[i + 1..].split_whitespace().next().map(str::to_owned));
            !matches!(state.as_deref(), Some("Z") | Some("X"))
        }
    }
}

/// Waits for `condition` to hold, polling.
pub async fn eventually(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + limit;
    while tokio::time::Instant::now() < deadline {
        if condition() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    condition()
}
