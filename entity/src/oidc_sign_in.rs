//! An OpenID Connect sign-in begun and not yet finished.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "oidc_sign_ins")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    /// The hash of the flow secret the client that began it holds.
    #[sea_orm(unique)]
    pub flow_hash: String,
    /// The configured provider's id.
    pub provider: String,
    pub state: String,
    pub redirect_uri: String,
    pub expires_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
