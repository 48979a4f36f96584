//! One version of a memory entry. Its content never changes; its verification does.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "memory_versions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub entry_id: Uuid,
    /// 1 for the first version of the entry, then +1 per version.
    pub number: i32,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    #[sea_orm(column_type = "Text", nullable)]
    pub summary: Option<String>,
    /// sha256 of the content, lowercase hex.
    pub content_hash: String,
    /// Where it came from: `{"source": "person"|"agent", "runId", "eventSequence", "artifactId"}`.
    pub provenance: Json,
    pub confidence: Option<f64>,
    pub verification: Verification,
    pub sensitivity: Sensitivity,
    pub valid_from: DateTimeUtc,
    pub valid_until: Option<DateTimeUtc>,
    pub supersedes_version_id: Option<Uuid>,
    /// Users who alone may read it (besides administrators); empty: whoever the scope and
    /// sensitivity allow.
    pub acl: Json,
    pub created_by_user_id: Option<Uuid>,
    pub created_by_run_id: Option<Uuid>,
    /// When it became the entry's current version; `None` while it waits in a conflict, or never was.
    pub became_current_at: Option<DateTimeUtc>,
    pub verified_by: Option<Uuid>,
    pub verified_at: Option<DateTimeUtc>,
    pub retracted_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum Verification {
    /// As written: an agent's conclusion, or a person's note nobody has checked.
    #[sea_orm(string_value = "unverified")]
    Unverified,
    #[sea_orm(string_value = "verified")]
    Verified,
    #[sea_orm(string_value = "disputed")]
    Disputed,
    /// Withdrawn: kept for history, never served as true.
    #[sea_orm(string_value = "retracted")]
    Retracted,
}

/// How far reading narrows: the least role that reads a version of each sensitivity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum Sensitivity {
    /// Anyone who can read the scope.
    #[sea_orm(string_value = "internal")]
    Internal,
    /// Members and above.
    #[sea_orm(string_value = "confidential")]
    Confidential,
    /// Administrators and above.
    #[sea_orm(string_value = "restricted")]
    Restricted,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
