//! What the context broker gave a run: its items (source, content hash, tokens, kept or left out)
//! and the bundle the connector received. One per run; every attempt of the run gets the same.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "context_records")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub run_id: Uuid,
    /// The run's token budget for its context (`context.tokenBudget` when it started).
    pub token_budget: i32,
    /// Tokens of the items kept.
    pub tokens_used: i32,
    /// `[{ "kind", "source", "title", "contentHash", "tokens", "included", "redactions" }]`, in priority order.
    pub items: Json,
    pub bundle: Json,
    /// sha256 of the bundle's JSON, lowercase hex: equal bundles, equal hashes.
    pub bundle_hash: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
