//! Who wrote a memory version or an artifact version: a person, or an agent during its run. The
//! provenance every such row records, and the columns it fills.

use serde_json::{Value, json};
use uuid::Uuid;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    Person(Uuid),
    /// An agent, during this attempt of its run (through its connector).
    Run {
        run_id: Uuid,
        attempt_id: Uuid,
    },
}

impl Author {
    /// `{"source": "person", "userId"}` or `{"source": "run", "runId", "attemptId"}`.
    pub fn provenance(self) -> Value {
        match self {
            Author::Person(user_id) => json!({ "source": "person", "userId": user_id }),
            Author::Run { run_id, attempt_id } => json!({ "source": "run", "runId": run_id, "attemptId": attempt_id }),
        }
    }

    pub fn user_id(self) -> Option<Uuid> {
        match self {
            Author::Person(user_id) => Some(user_id),
            Author::Run { .. } => None,
        }
    }

    pub fn run_id(self) -> Option<Uuid> {
        match self {
            Author::Person(_) => None,
            Author::Run { run_id, .. } => Some(run_id),
        }
    }
}
