//! The event path's own thread. Connector sockets, the run-event writer and the executions of
//! shared subscriptions run on a runtime of their own, so an event on its way to its
//! subscribers never waits in the run queue behind the socket writes of the event before it:
//! at 1,000 subscribers that wait was most of an event's latency (docs/benchmarks.md). The OS
//! shares the cores between this thread and the rest.

use std::sync::OnceLock;

use tokio::runtime::{Builder, Handle};
use tokio::task::JoinHandle;

/// Runs `task` on the event path's thread.
pub fn spawn<F>(task: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    handle().spawn(task)
}

fn handle() -> &'static Handle {
    static HANDLE: OnceLock<Handle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let runtime =
            Builder::new_current_thread().enable_all().build().expect("cannot build the event path's runtime");
        let handle = runtime.handle().clone();
        // The runtime drives its tasks, timers and sockets for as long as the process lives.
        std::thread::Builder::new()
            .name("acc-events".into())
            .spawn(move || runtime.block_on(std::future::pending::<()>()))
            .expect("cannot start the event path's thread");
        handle
    })
}
