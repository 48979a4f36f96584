//! An organization's audit chain hash at a sequence, signed with the server's audit key (Ed25519),
//! which is kept outside the database.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_checkpoints")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub sequence: i64,
    pub hash: String,
    pub key_id: String,
    /// Base64 of the Ed25519 signature over `audit_checkpoint_message`.
    pub signature: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
