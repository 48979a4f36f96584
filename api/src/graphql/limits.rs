//! What a request may ask of the server, and the typed error for each limit it exceeds.
//!
//! async-graphql bounds depth and directives itself; aliases are counted here, because they let
//! one small query ask for the same expensive field many times. Cost, time and response size
//! have their own modules (`cost`, `budget`) and share [`LimitError`].

use std::sync::Arc;

use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery};
use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::{ServerError, ServerResult, Variables};

use crate::error::{DomainError, ErrorCode};

/// A request refused, or abandoned, for what it would cost the server.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    #[error(
        "the query is too complex: it costs {cost}, more than the limit of {limit}; \
         ask for smaller pages (`first`, `last`) or nest fewer lists"
    )]
    TooCostly { cost: u64, limit: u64 },
    #[error("the response would be larger than {max_bytes} bytes; ask for smaller pages or fewer fields")]
    ResponseTooLarge { max_bytes: usize },
    #[error(
        "the request did not finish within its time budget of {timeout_ms} ms and was stopped; \
         ask for less (smaller pages, fewer nested fields), or resend a write with the same Idempotency-Key"
    )]
    TimedOut { timeout_ms: u64 },
}

impl DomainError for LimitError {
    fn code(&self) -> ErrorCode {
        match self {
            LimitError::TooCostly { .. } | LimitError::ResponseTooLarge { .. } => ErrorCode::Validation,
            // Not VALIDATION: the request may be fine and the server slow. Not retryable either:
            // the same request would most likely run out of time again.
            LimitError::TimedOut { .. } => ErrorCode::BudgetExceeded,
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            LimitError::TooCostly { cost, limit } => serde_json::json!({ "cost": cost, "limit": limit }),
            LimitError::ResponseTooLarge { max_bytes } => serde_json::json!({ "maxResponseBytes": max_bytes }),
            LimitError::TimedOut { timeout_ms } => serde_json::json!({ "requestTimeoutMs": timeout_ms }),
        }
    }
}

pub struct AliasLimit {
    max: usize,
}

impl AliasLimit {
    pub fn new(max: usize) -> Self {
        Self { max }
    }
}

impl ExtensionFactory for AliasLimit {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(AliasCheck { max: self.max })
    }
}

struct AliasCheck {
    max: usize,
}

fn count(set: &SelectionSet) -> usize {
    set.items
        .iter()
        .map(|item| match &item.node {
            Selection::Field(field) => usize::from(field.node.alias.is_some()) + count(&field.node.selection_set.node),
            Selection::InlineFragment(fragment) => count(&fragment.node.selection_set.node),
            Selection::FragmentSpread(_) => 0,
        })
        .sum()
}

#[async_graphql::async_trait::async_trait]
impl Extension for AliasCheck {
    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        let document = next.run(ctx, query, variables).await?;
        let operations: usize = document.operations.iter().map(|(_, op)| count(&op.node.selection_set.node)).sum();
        let fragments: usize = document.fragments.values().map(|f| count(&f.node.selection_set.node)).sum();
        if operations + fragments > self.max {
            return Err(ServerError::new(format!("the query uses more than {} aliases", self.max), None));
        }
        Ok(document)
    }
}
