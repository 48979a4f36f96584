//! GraphQL over HTTP: POST runs any operation; GET runs only queries (a browser that opens
//! `/graphql` gets GraphiQL before this, from `http::web`).

use async_graphql::Response as GqlResponse;
use async_graphql::parser::types::OperationType;
use axum::Extension;
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::request::{ClientAddress, CorrelationId, bearer, context, device};
use super::{AppState, SharedState};
use crate::error::{CommonError, DomainError};
use crate::graphql::{request_data, request_error, response_json};

const GRAPHQL_RESPONSE: &str = "application/graphql-response+json";

/// The response as JSON, unless it is larger than `max_bytes`: then only the error saying so.
fn respond(
    headers: &HeaderMap,
    status: StatusCode,
    response: GqlResponse,
    correlation_id: &str,
    max_bytes: usize,
) -> Response {
    let accepts_graphql =
        headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains(GRAPHQL_RESPONSE));
    let content_type = if accepts_graphql { GRAPHQL_RESPONSE } else { "application/json" };
    let body = response_json(response, correlation_id, max_bytes);
    (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// A response that is only an error, for requests refused before the schema runs.
fn refuse(headers: &HeaderMap, status: StatusCode, err: impl DomainError, correlation_id: &str) -> Response {
    let response = GqlResponse::from_errors(vec![request_error(err)]);
    // One error is a few hundred bytes, whatever the response bound.
    respond(headers, status, response, correlation_id, usize::MAX)
}

async fn run(
    state: &AppState,
    headers: &HeaderMap,
    address: ClientAddress,
    correlation_id: String,
    request: async_graphql::Request,
) -> Response {
    let idempotency_key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let ctx =
        context(&state.services, bearer(headers), correlation_id.clone(), idempotency_key, device(headers, address))
            .await;
    let ctx = match ctx {
        Ok(ctx) => ctx,
        Err((_, err)) => return refuse(headers, StatusCode::UNAUTHORIZED, err, &correlation_id),
    };
    let mut request = request;
    request.data = request_data(&state.services, ctx);
    let response = state.schema.execute(request).await;
    respond(headers, StatusCode::OK, response, &correlation_id, state.services.limits.max_response_bytes)
}

pub async fn post(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    address: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let bytes: Bytes = match axum::body::to_bytes(body, state.max_body_bytes).await {
        Ok(bytes) => bytes,
        Err(_) => {
            let err =
                CommonError::validation(format!("the request body is larger than {} bytes", state.max_body_bytes));
            return refuse(&headers, StatusCode::PAYLOAD_TOO_LARGE, err, &correlation_id);
        }
    };
    let request: async_graphql::Request = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Array(_)) => {
            let err = CommonError::validation("batched requests are not supported; send one operation per request");
            return refuse(&headers, StatusCode::BAD_REQUEST, err, &correlation_id);
        }
        Ok(value) if value.get("query").and_then(|q| q.as_str()).is_none() => {
            let err = CommonError::validation("a GraphQL request is a JSON object with a `query` string");
            return refuse(&headers, StatusCode::BAD_REQUEST, err, &correlation_id);
        }
        Ok(value) => match serde_json::from_value(value) {
            Ok(request) => request,
            Err(e) => {
                let err = CommonError::validation(format!("the request is not a GraphQL request: {e}"));
                return refuse(&headers, StatusCode::BAD_REQUEST, err, &correlation_id);
            }
        },
        Err(e) => {
            let err = CommonError::validation(format!("the request body is not valid JSON: {e}"));
            return refuse(&headers, StatusCode::BAD_REQUEST, err, &correlation_id);
        }
    };
    run(&state, &headers, address, correlation_id, request).await
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetParams {
    query: Option<String>,
    operation_name: Option<String>,
    variables: Option<String>,
}

pub async fn get(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    address: ClientAddress,
    headers: HeaderMap,
    Query(params): Query<GetParams>,
) -> Response {
    let Some(query) = params.query else {
        let err = CommonError::validation(
            "a GET of /graphql needs a `query` parameter (a browser that asks for a page gets GraphiQL)",
        );
        return refuse(&headers, StatusCode::BAD_REQUEST, err, &correlation_id);
    };
    let variables = match params.variables.as_deref().map(serde_json::from_str::<serde_json::Value>).transpose() {
        Ok(v) => v.map(async_graphql::Variables::from_json).unwrap_or_default(),
        Err(e) => {
            let err = CommonError::validation(format!("`variables` is not valid JSON: {e}"));
            return refuse(&headers, StatusCode::BAD_REQUEST, err, &correlation_id);
        }
    };
    // Only queries may run over GET: a GET must never change anything.
    if let Ok(document) = async_graphql::parser::parse_query(&query) {
        let operation = match &params.operation_name {
            Some(name) => {
                document.operations.iter().find(|(n, _)| n.is_some_and(|n| n.as_str() == name)).map(|(_, op)| op)
            }
            None => document.operations.iter().next().map(|(_, op)| op),
        };
        if operation.is_some_and(|op| op.node.ty != OperationType::Query) {
            let err = CommonError::validation(
                "only queries can be sent with GET; use POST for mutations and /graphql/ws for subscriptions",
            );
            let mut response = refuse(&headers, StatusCode::METHOD_NOT_ALLOWED, err, &correlation_id);
            response.headers_mut().insert(header::ALLOW, header::HeaderValue::from_static("POST"));
            return response;
        }
    }
    let mut request = async_graphql::Request::new(query).variables(variables);
    if let Some(name) = params.operation_name {
        request = request.operation_name(name);
    }
    run(&state, &headers, address, correlation_id, request).await
}
