//! One version of an artifact: bytes in the artifact store, named by their sha256. Never changes.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "artifact_versions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub artifact_id: Uuid,
    /// 1 for the first version of the artifact, then +1 per version.
    pub number: i32,
    /// sha256 of the bytes, lowercase hex: where the store keeps them.
    pub sha256: String,
    pub size_bytes: i64,
    /// As the uploader declared it; served only as an attachment.
    pub media_type: String,
    /// Where it came from: `{"source": "person", "userId"}` or `{"source": "run", "runId", "attemptId"}`.
    pub provenance: Json,
    pub created_by_user_id: Option<Uuid>,
    /// The run whose work it is, when a run's connector uploaded it.
    pub run_id: Option<Uuid>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
