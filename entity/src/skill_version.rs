//! One imported package of a skill: immutable content (manifest, instructions, files, digest,
//! signature) and the review state that says whether it may be activated.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "skill_versions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub skill_id: Uuid,
    pub number: i32,
    /// `sha256:` over the package's canonical file list: the same files, however packed, are one digest.
    pub digest: String,
    /// The archive as imported, in the artifact store under this sha256.
    pub archive_sha256: String,
    pub archive_size: i64,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub metadata: Json,
    pub allowed_tools: Json,
    /// SKILL.md after its front matter.
    pub instructions: String,
    /// `[{path, size, sha256}]`, by path.
    pub files: Json,
    pub has_scripts: bool,
    /// The minisign signature given with the archive.
    pub signature: Option<String>,
    pub signature_status: SignatureStatus,
    pub signer_key_id: Option<String>,
    pub review_state: ReviewState,
    pub review_reason: Option<String>,
    pub reviewed_by: Option<Uuid>,
    pub imported_by: Option<Uuid>,
    pub revision: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// What the signature check found when the package was imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum SignatureStatus {
    /// Signed by a key the organization trusts.
    #[sea_orm(string_value = "verified")]
    Verified,
    #[sea_orm(string_value = "unsigned")]
    Unsigned,
    /// Signed by a key the organization does not know.
    #[sea_orm(string_value = "unknown_signer")]
    UnknownSigner,
    /// Signed by a key the organization revoked.
    #[sea_orm(string_value = "revoked_key")]
    RevokedKey,
    /// The signature does not match the bytes (tampered) or cannot be read.
    #[sea_orm(string_value = "invalid")]
    Invalid,
}

/// Whether a version may be activated: only `Approved` ones may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ReviewState {
    /// Not signed by a trusted key: held until a person reviews it.
    #[sea_orm(string_value = "quarantined")]
    Quarantined,
    /// Someone asked administrators to review it.
    #[sea_orm(string_value = "in_review")]
    InReview,
    #[sea_orm(string_value = "approved")]
    Approved,
    #[sea_orm(string_value = "rejected")]
    Rejected,
    /// Withdrawn after approval; its activations end.
    #[sea_orm(string_value = "revoked")]
    Revoked,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
