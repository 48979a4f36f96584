//! GraphQL for the context broker: `runContext`, what a run's agent was given.

use acc_entity::context_record;
use async_graphql::{Context, Enum, ID, Json, Object, SimpleObject};
use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::ItemKind;
use crate::graphql::{ContextExt, gql_error};
use crate::ids::{NodeKind, decode, gid};

/// What an item of a run's context is.
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(remote = "ItemKind")]
pub enum ContextItemKind {
    Objective,
    AcceptanceCriterion,
    Description,
    Memory,
    WikiPage,
    EarlierRun,
}

/// One item the broker offered a run, kept or left out for the budget.
#[derive(SimpleObject, Deserialize)]
#[graphql(complex)]
#[serde(rename_all = "camelCase")]
pub struct ContextItem {
    #[graphql(skip)]
    kind: ItemKind,
    /// Where it came from: `task:<id>`, `criterion:<id>`, `memory:<entry>/<version>`, `run:<id>`.
    source: String,
    title: String,
    /// sha256 of its text as given (after redaction), lowercase hex.
    content_hash: String,
    /// Its tokens, counted with tiktoken's o200k.
    tokens: i32,
    /// Whether it fit the budget and went to the agent.
    included: bool,
    /// Secrets removed from it.
    redactions: i32,
}

#[async_graphql::ComplexObject]
impl ContextItem {
    async fn kind(&self) -> ContextItemKind {
        self.kind.into()
    }
}

/// What the context broker gave a run: the same bundle for every attempt.
pub struct RunContext(pub context_record::Model);

#[Object]
impl RunContext {
    async fn run_id(&self) -> ID {
        gid(NodeKind::TaskRun, self.0.run_id)
    }
    /// The most tokens its context could hold (`context.tokenBudget` at its first dispatch).
    async fn token_budget(&self) -> i32 {
        self.0.token_budget
    }
    /// Tokens of what it was given.
    async fn tokens_used(&self) -> i32 {
        self.0.tokens_used
    }
    /// sha256 of the bundle: equal inputs give equal bundles, and equal hashes.
    async fn bundle_hash(&self) -> &str {
        &self.0.bundle_hash
    }
    /// Everything offered, in priority order, kept or left out.
    async fn items(&self) -> async_graphql::Result<Vec<ContextItem>> {
        Ok(serde_json::from_value(self.0.items.clone())?)
    }
    /// The bundle exactly as the connector received it.
    async fn bundle(&self) -> Json<serde_json::Value> {
        Json(self.0.bundle.clone())
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

#[derive(Default)]
pub struct ContextQuery;

#[Object]
impl ContextQuery {
    /// What the agent of a run the caller may read was given at its first dispatch; null before.
    async fn run_context(&self, ctx: &Context<'_>, run_id: ID) -> async_graphql::Result<Option<RunContext>> {
        let id = decode(&run_id, NodeKind::TaskRun)?;
        let record = ctx.services().context.of_run(ctx.actor()?, id).await.map_err(gql_error)?;
        Ok(record.map(RunContext))
    }
}
