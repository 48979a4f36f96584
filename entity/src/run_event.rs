//! One event of a run, with its gap-free per-run sequence; persisted before it is acknowledged.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "run_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub run_id: Uuid,
    pub sequence: i64,
    pub attempt_id: Option<Uuid>,
    pub connector_id: Option<Uuid>,
    pub event_id: Option<Uuid>,
    /// The connector's own sequence of the event; acknowledgements go up to the highest stored without a gap.
    pub connector_sequence: Option<i64>,
    pub kind: RunEventKind,
    pub data: Json,
    pub occurred_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
}

/// What an event is: the kinds adapters send (the protocol's), then the control plane's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum RunEventKind {
    /// The runtime started (its `session_id`, where it has one).
    #[sea_orm(string_value = "started")]
    Started,
    #[sea_orm(string_value = "message")]
    Message,
    #[sea_orm(string_value = "tool_call")]
    ToolCall,
    #[sea_orm(string_value = "tool_result")]
    ToolResult,
    #[sea_orm(string_value = "file_change")]
    FileChange,
    #[sea_orm(string_value = "usage")]
    Usage,
    #[sea_orm(string_value = "output")]
    Output,
    #[sea_orm(string_value = "error")]
    Error,
    #[sea_orm(string_value = "approval_requested")]
    ApprovalRequested,
    #[sea_orm(string_value = "checkpoint")]
    Checkpoint,
    /// How far the agent says it is (its `report_progress` run tool).
    #[sea_orm(string_value = "progress")]
    Progress,
    #[sea_orm(string_value = "vendor_extension")]
    VendorExtension,
    /// The attempt's end, with its outcome.
    #[sea_orm(string_value = "result")]
    Result,
    /// A status change of the run, written by the control plane.
    #[sea_orm(string_value = "status")]
    Status,
    /// A note of the control plane on the run that is not a status change.
    #[sea_orm(string_value = "notice")]
    Notice,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
