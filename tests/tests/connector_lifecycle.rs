//! A connector's life after enrollment, with the real `acc` and `acc-connector` binaries.

mod common;

use std::path::Path;
use std::time::Duration;

use acc_tests::{Server, TestDb};
use common::{enroll, online_agents, run_connector};

const GREETER: &str = r#"
[[agents]]
name = "greeter"
adapter = "command"
command = "sh"
args = ["-c", "echo hello"]
"#;

/// Waits until the file at `path` contains `needle`; returns its text.
async fn wait_for_line(path: &Path, needle: &str) -> String {
    let mut text = String::new();
    for _ in 0..400 {
        text = std::fs::read_to_string(path).unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{} never said `{needle}`:\n{text}", path.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_written_to_a_file_carry_no_colour_codes() {
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    // Both binaries write their stderr to a file here, as under systemd or `2>log`.
    let _connector = run_connector(&dir, &credential, GREETER);
    online_agents(&f.owner, &f.project_id, 1).await;
    let logs = [
        ("acc", wait_for_line(&dir.join("acc.log"), "connector online").await),
        ("acc-connector", wait_for_line(&dir.join("connector.log"), "handshake complete").await),
    ];
    for (binary, log) in logs {
        assert!(!log.contains('\x1b'), "{binary} wrote colour codes into its log file:\n{log}");
    }
}

