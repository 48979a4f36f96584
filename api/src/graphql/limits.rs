//! The alias limit: async-graphql bounds depth, complexity and directives itself, but not aliases,
//! which let one small query ask for the same expensive field many times.

use std::sync::Arc;

use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery};
use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::{ServerError, ServerResult, Variables};

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
