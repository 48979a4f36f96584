//! Relay cursor connections: turns connection arguments into a [`PageRequest`] and a [`Page`] back into a connection.

use async_graphql::OutputType;
use async_graphql::connection::{Connection, Edge};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use uuid::Uuid;

use crate::error::CommonError;
use crate::pagination::{Page, PageRequest};

fn encode_cursor(id: Uuid) -> String {
    URL_SAFE_NO_PAD.encode(id.as_bytes())
}

fn decode_cursor(raw: &str) -> Result<Uuid, CommonError> {
    URL_SAFE_NO_PAD.decode(raw).ok().and_then(|bytes| Uuid::from_slice(&bytes).ok()).ok_or_else(|| {
        CommonError::Validation {
            message: format!("`{raw}` is not a valid cursor"),
            details: serde_json::json!({ "cursor": raw }),
        }
    })
}

pub fn page_request(
    after: Option<String>,
    before: Option<String>,
    first: Option<i32>,
    last: Option<i32>,
) -> async_graphql::Result<PageRequest> {
    let decode = |c: Option<String>| c.as_deref().map(decode_cursor).transpose().map_err(super::gql_error);
    Ok(PageRequest { after: decode(after)?, before: decode(before)?, first, last })
}

/// A connection over one page; `id` gives each row's key, `node` its GraphQL object.
pub fn connection<T, N: OutputType>(
    page: Page<T>,
    id: impl Fn(&T) -> Uuid,
    node: impl Fn(T) -> N,
) -> Connection<String, N> {
    let mut connection = Connection::new(page.has_previous_page, page.has_next_page);
    connection.edges = page.items.into_iter().map(|item| Edge::new(encode_cursor(id(&item)), node(item))).collect();
    connection
}
