//! One dispatch of a run to an agent: first start, retry or handoff target.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "run_attempts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub run_id: Uuid,
    pub number: i32,
    pub kind: AttemptKind,
    pub agent_id: Uuid,
    pub connector_id: Uuid,
    pub status: AttemptStatus,
    pub lease_expires_at: Option<DateTimeUtc>,
    pub ended_at: Option<DateTimeUtc>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// Why the attempt exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum AttemptKind {
    /// The run's first dispatch.
    #[sea_orm(string_value = "start")]
    Start,
    /// A later dispatch that starts over.
    #[sea_orm(string_value = "retry")]
    Retry,
    /// A later dispatch that continues the runtime's own session of an earlier attempt.
    #[sea_orm(string_value = "resume")]
    Resume,
    /// A dispatch to the target of a handoff, from the source's checkpoint.
    #[sea_orm(string_value = "handoff")]
    Handoff,
}

/// Where an attempt stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum AttemptStatus {
    /// The start (or handoff) command is on its way; no answer yet.
    #[sea_orm(string_value = "dispatched")]
    Dispatched,
    #[sea_orm(string_value = "running")]
    Running,
    /// Checkpointed for a handoff and told to stop; its lease holds until the target takes over.
    #[sea_orm(string_value = "handing_off")]
    HandingOff,
    /// Stopped after its handoff checkpoint; its lease still holds until the target takes over.
    #[sea_orm(string_value = "stopped")]
    Stopped,
    #[sea_orm(string_value = "handed_off")]
    HandedOff,
    #[sea_orm(string_value = "ended")]
    Ended,
    /// Its connector refused to start it.
    #[sea_orm(string_value = "refused")]
    Refused,
    /// Its connector went away before it could be sent.
    #[sea_orm(string_value = "undelivered")]
    Undelivered,
    /// Its connector stopped renewing the lease.
    #[sea_orm(string_value = "lapsed")]
    Lapsed,
    /// Closed at start-up by versions that ended every live run there; no longer written.
    #[sea_orm(string_value = "interrupted")]
    Interrupted,
    /// Its connector lost it: restarted without it, or came back without reporting it.
    #[sea_orm(string_value = "lost")]
    Lost,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
