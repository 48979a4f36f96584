//! What a request may ask of the server, and the typed error for each limit it exceeds.
//!
//! async-graphql bounds depth and directives itself; [`Admission`] counts aliases, because they
//! let one small query ask for the same expensive field many times, and the cost (`cost`).
//! Time and response size are bounded in `budget`. All share [`LimitError`].
//!
//! These checks run before the engine rather than as engine extensions: once a schema has any
//! extension, the engine routes every field of every response through it (a boxed future and two
//! schema lookups per field, per extension): about 6 % of a page of tasks' CPU in perf.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::{Request, ServerError};
use lru::LruCache;

use super::cost::QueryCost;
use super::errors::request_error;
use crate::config::Limits;
use crate::error::{DomainError, ErrorCode};

/// A request refused, or abandoned, for what it would cost the server.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    #[error(
        "the query is too complex: it costs {cost}, more than the limit of {limit}; \
         ask for smaller pages (`first`, `last`) or nest fewer lists"
    )]
    TooCostly { cost: u64, limit: u64 },
    #[error("the query uses more than {max} aliases")]
    TooManyAliases { max: usize },
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
            LimitError::TooCostly { .. } | LimitError::TooManyAliases { .. } | LimitError::ResponseTooLarge { .. } => {
                ErrorCode::Validation
            }
            // Not VALIDATION: the request may be fine and the server slow. Not retryable either:
            // the same request would most likely run out of time again.
            LimitError::TimedOut { .. } => ErrorCode::BudgetExceeded,
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            LimitError::TooCostly { cost, limit } => serde_json::json!({ "cost": cost, "limit": limit }),
            LimitError::TooManyAliases { max } => serde_json::json!({ "maxAliases": max }),
            LimitError::ResponseTooLarge { max_bytes } => serde_json::json!({ "maxResponseBytes": max_bytes }),
            LimitError::TimedOut { timeout_ms } => serde_json::json!({ "requestTimeoutMs": timeout_ms }),
        }
    }
}

/// The limits an operation is admitted under before the engine sees it.
pub struct Admission {
    max_aliases: usize,
    cost: QueryCost,
    max_cost: u64,
    /// How long a query or mutation may run (`limits.request_timeout_ms`).
    pub time_budget: Duration,
    /// Documents parsed before, by their text: clients send the same few queries again and
    /// again, and copying a parsed document costs a fraction of parsing it (about 5 % of a page
    /// of tasks' instructions went to the parser).
    parsed: Mutex<LruCache<String, Arc<Parsed>>>,
}

/// A document and its alias count, which depend on the query's text alone (its cost does not:
/// variables can change page sizes).
struct Parsed {
    document: ExecutableDocument,
    aliases: usize,
}

/// How many parsed documents are kept, and the longest query text kept: bounds the cache's
/// memory whatever clients send (a document takes some ten times its text).
const PARSED_DOCUMENTS: NonZeroUsize = NonZeroUsize::new(256).expect("not zero");
const MAX_KEPT_QUERY_BYTES: usize = 4096;

impl Admission {
    pub fn new(cost: QueryCost, limits: &Limits) -> Self {
        Self {
            max_aliases: limits.max_aliases,
            cost,
            max_cost: limits.max_complexity as u64,
            time_budget: Duration::from_millis(limits.request_timeout_ms),
            parsed: Mutex::new(LruCache::new(PARSED_DOCUMENTS)),
        }
    }

    /// Refuses an operation with too many aliases or that costs too much, before the engine
    /// looks at it: the engine's own checks expand every fragment spread, so a kilobyte of
    /// fragments that each spread the next twice would keep them busy for minutes. A query that
    /// does not parse is left to the engine, which says why. Admitted, what `/metrics` calls it
    /// ([`QueryCost::operation_label`]).
    pub fn admit(&self, request: &mut Request) -> Result<String, ServerError> {
        let Some(parsed) = self.parse(&request.query) else { return Ok("other".to_owned()) };
        if parsed.aliases > self.max_aliases {
            return Err(request_error(LimitError::TooManyAliases { max: self.max_aliases }));
        }
        let cost = self.cost.of(&parsed.document, request.operation_name.as_deref(), &request.variables);
        if cost > self.max_cost {
            return Err(request_error(LimitError::TooCostly { cost, limit: self.max_cost }));
        }
        let label = self.cost.operation_label(&parsed.document, request.operation_name.as_deref());
        // Parsed once: the engine takes a copy of this document instead of parsing the query again.
        request.set_parsed_query(parsed.document.clone());
        Ok(label)
    }

    /// `query` parsed, from the cache when it was parsed before; `None` when it does not parse.
    fn parse(&self, query: &str) -> Option<Arc<Parsed>> {
        if let Ok(mut kept) = self.parsed.lock()
            && let Some(parsed) = kept.get(query)
        {
            return Some(Arc::clone(parsed));
        }
        let document = async_graphql::parser::parse_query(query).ok()?;
        let aliases = document.operations.iter().map(|(_, op)| aliases(&op.node.selection_set.node)).sum::<usize>()
            + document.fragments.values().map(|f| aliases(&f.node.selection_set.node)).sum::<usize>();
        let parsed = Arc::new(Parsed { document, aliases });
        if query.len() <= MAX_KEPT_QUERY_BYTES
            && let Ok(mut kept) = self.parsed.lock()
        {
            kept.put(query.to_owned(), Arc::clone(&parsed));
        }
        Some(parsed)
    }
}

fn aliases(set: &SelectionSet) -> usize {
    set.items
        .iter()
        .map(|item| match &item.node {
            Selection::Field(field) => {
                usize::from(field.node.alias.is_some()) + aliases(&field.node.selection_set.node)
            }
            Selection::InlineFragment(fragment) => aliases(&fragment.node.selection_set.node),
            Selection::FragmentSpread(_) => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;

    use crate::config::Limits;
    use crate::graphql::build_schema;

    fn refusal(response: &async_graphql::Response) -> (String, serde_json::Value) {
        let error = &response.errors[0];
        let code = error.extensions.as_ref().and_then(|e| e.get("code")).cloned();
        (error.message.clone(), code.map(|c| c.into_json().unwrap()).unwrap_or_default())
    }

    #[tokio::test]
    async fn queries_and_subscriptions_over_a_limit_are_refused_before_they_run() {
        let schema = build_schema(None, &Limits { max_aliases: 1, ..Limits::default() });
        let ok = schema.execute("{ a: __typename }").await;
        assert!(ok.errors.is_empty(), "{:?}", ok.errors);

        let aliased = schema.execute("{ a: __typename b: __typename }").await;
        assert_eq!(refusal(&aliased), ("the query uses more than 1 aliases".to_owned(), "VALIDATION".into()));

        let subscription =
            "subscription { a: runEvents(runId: \"x\") { sequence } b: runEvents(runId: \"x\") { sequence } }";
        let mut refused = schema.execute_stream(async_graphql::Request::new(subscription));
        let first = refused.next().await.expect("a refusal");
        assert_eq!(refusal(&first), ("the query uses more than 1 aliases".to_owned(), "VALIDATION".into()));
        assert!(refused.next().await.is_none(), "a refused subscription ends");

        let schema = build_schema(None, &Limits { max_complexity: 10, ..Limits::default() });
        let costly = schema.execute("{ workspaces(first: 50) { edges { node { id } } } }").await;
        let (message, code) = refusal(&costly);
        assert!(message.starts_with("the query is too complex"), "{message}");
        assert_eq!(code, "VALIDATION");
    }

    #[test]
    fn a_query_sent_again_is_parsed_once_and_its_cost_still_follows_its_variables() {
        let schema = build_schema(None, &Limits { max_complexity: 10, ..Limits::default() });
        let admission = &schema.admission;
        let query = "query Page($n: Int) { workspaces(first: $n) { edges { node { id } } } }";
        let admit = |query: &str, n: i32| {
            let variables = async_graphql::Variables::from_json(serde_json::json!({ "n": n }));
            admission.admit(&mut async_graphql::Request::new(query).variables(variables)).map_err(|e| e.message)
        };
        assert_eq!(admit(query, 1).as_deref(), Ok("query workspaces"));
        let refused = admit(query, 50).unwrap_err();
        assert!(refused.starts_with("the query is too complex"), "{refused}");
        // A root field the schema lacks is never a label.
        assert_eq!(admit("{ __typename }", 0).as_deref(), Ok("other"));
        assert_eq!(admit("{ whatIWrite }", 0).as_deref(), Ok("other"));
        assert_eq!(admit(query, 2).as_deref(), Ok("query workspaces"));
        assert_eq!(admission.parsed.lock().unwrap().len(), 3, "three texts, three documents kept");

        let long = format!("{{ __typename {} }}", " ".repeat(super::MAX_KEPT_QUERY_BYTES));
        assert_eq!(admit(&long, 0).as_deref(), Ok("other"));
        assert_eq!(admission.parsed.lock().unwrap().len(), 3, "a longer text is parsed, not kept");
    }
}
