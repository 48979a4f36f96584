//! The run state machine of SPEC §7 as one transition table.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunStatus {
    Queued,
    Dispatching,
    Running,
    WaitingApproval,
    Checkpointing,
    HandoffReady,
    Blocked,
    Cancelling,
    Succeeded,
    Failed,
    Cancelled,
    Interrupted,
}

use RunStatus::*;

impl RunStatus {
    pub const ALL: [RunStatus; 12] = [
        Queued,
        Dispatching,
        Running,
        WaitingApproval,
        Checkpointing,
        HandoffReady,
        Blocked,
        Cancelling,
        Succeeded,
        Failed,
        Cancelled,
        Interrupted,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Queued => "queued",
            Dispatching => "dispatching",
            Running => "running",
            WaitingApproval => "waiting_approval",
            Checkpointing => "checkpointing",
            HandoffReady => "handoff_ready",
            Blocked => "blocked",
            Cancelling => "cancelling",
            Succeeded => "succeeded",
            Failed => "failed",
            Cancelled => "cancelled",
            Interrupted => "interrupted",
        }
    }

    pub fn from_stored(s: &str) -> Self {
        Self::ALL.into_iter().find(|r| r.as_str() == s).unwrap_or(Interrupted)
    }

    /// Terminal states are final: nothing leaves them.
    pub fn is_terminal(self) -> bool {
        matches!(self, Succeeded | Failed | Cancelled | Interrupted)
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every allowed transition, and nothing else.
const TRANSITIONS: &[(RunStatus, RunStatus)] = &[
    (Queued, Dispatching),
    (Dispatching, Running),
    (Running, Succeeded),
    (Running, Failed),
    (Running, WaitingApproval),
    (WaitingApproval, Running),
    (Running, Checkpointing),
    (Checkpointing, HandoffReady),
    (Checkpointing, Running),
    (HandoffReady, Dispatching),
    (Running, Dispatching),
    (Running, Cancelling),
    (Cancelling, Cancelled),
    (Queued, Cancelled),
    (Dispatching, Cancelled),
    (WaitingApproval, Cancelled),
    (Blocked, Cancelled),
    (Dispatching, Blocked),
    (HandoffReady, Blocked),
    (Blocked, HandoffReady),
    // A dispatch the connector refused, or a connection lost before the run started.
    (Dispatching, Failed),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a run cannot go from {from} to {to}")]
pub struct InvalidTransition {
    pub from: RunStatus,
    pub to: RunStatus,
}

/// Checks one step of the state machine.
pub fn transition(from: RunStatus, to: RunStatus) -> Result<RunStatus, InvalidTransition> {
    let allowed = TRANSITIONS.contains(&(from, to)) || (to == Interrupted && !from.is_terminal());
    if allowed { Ok(to) } else { Err(InvalidTransition { from, to }) }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_happy_path_and_cancel_paths_are_allowed() {
        for path in [
            &[Queued, Dispatching, Running, Succeeded][..],
            &[Queued, Dispatching, Running, WaitingApproval, Running, Failed],
            &[Queued, Dispatching, Running, Cancelling, Cancelled],
            &[Queued, Dispatching, Blocked, HandoffReady, Dispatching, Running, Checkpointing, HandoffReady],
            &[Queued, Cancelled],
        ] {
            for pair in path.windows(2) {
                transition(pair[0], pair[1]).unwrap();
            }
        }
    }

    #[test]
    fn skipping_states_is_invalid() {
        assert_eq!(transition(Queued, Running), Err(InvalidTransition { from: Queued, to: Running }));
        assert!(transition(Running, Cancelled).is_err(), "a running run is cancelled through cancelling");
        assert!(transition(Succeeded, Interrupted).is_err());
    }

    proptest! {
        /// Random sequences of requested transitions: every accepted step is in the table (or an
        /// interruption of a live run), and nothing ever leaves a terminal state.
        #[test]
        fn random_commands_never_make_an_illegal_move(steps in proptest::collection::vec(0usize..12, 1..60)) {
            let mut state = Queued;
            for step in steps {
                let wanted = RunStatus::ALL[step];
                match transition(state, wanted) {
                    Ok(next) => {
                        prop_assert!(!state.is_terminal(), "left terminal {state}");
                        prop_assert!(TRANSITIONS.contains(&(state, next)) || next == Interrupted);
                        state = next;
                    }
                    Err(e) => prop_assert_eq!(e, InvalidTransition { from: state, to: wanted }),
                }
            }
        }
    }
}
