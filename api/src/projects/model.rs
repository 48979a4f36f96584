//! Task status and priority: the closed sets of values a task can take.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    #[default]
    Todo,
    InProgress,
    Blocked,
    InReview,
    Done,
    Cancelled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskPriority {
    #[default]
    None,
    Low,
    Medium,
    High,
    Urgent,
}

macro_rules! stored_as_text {
    ($ty:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $ty {
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $text),+ }
            }

            /// Reads a stored value; anything unknown is a bug in the data, shown as the default.
            pub fn from_stored(s: &str) -> Self {
                match s { $($text => $ty::$variant,)+ _ => Self::default() }
            }
        }
    };
}

stored_as_text!(TaskStatus { Todo => "todo", InProgress => "in_progress", Blocked => "blocked", InReview => "in_review", Done => "done", Cancelled => "cancelled" });
stored_as_text!(TaskPriority { None => "none", Low => "low", Medium => "medium", High => "high", Urgent => "urgent" });
