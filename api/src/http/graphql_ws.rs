//! Subscriptions over graphql-transport-ws. Browsers cannot set headers on a WebSocket, so the
//! access token comes in `connection_init` (`{"authorization": "Bearer …"}`); a bad one closes
//! the connection (close code 1002, the reason saying why).

use async_graphql::Data;
use async_graphql::http::ALL_WEBSOCKET_PROTOCOLS;
use async_graphql_axum::{GraphQLProtocol, GraphQLWebSocket};
use axum::Extension;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::request::{ClientAddress, CorrelationId, context, device};
use crate::graphql::{gql_error, request_data};

fn token(payload: &serde_json::Value) -> Option<String> {
    ["authorization", "Authorization", "accessToken"]
        .iter()
        .find_map(|k| payload.get(k).and_then(|v| v.as_str()))
        .map(|v| v.strip_prefix("Bearer ").unwrap_or(v).trim().to_owned())
}

pub async fn upgrade(
    State(state): State<AppState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    address: ClientAddress,
    headers: HeaderMap,
    protocol: GraphQLProtocol,
    upgrade: WebSocketUpgrade,
) -> Response {
    let offered = headers.get(axum::http::header::SEC_WEBSOCKET_PROTOCOL).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !offered.split(',').any(|p| p.trim() == "graphql-transport-ws") {
        return (StatusCode::BAD_REQUEST, "only the graphql-transport-ws protocol is supported").into_response();
    }
    let device = device(&headers, address);
    upgrade.protocols(ALL_WEBSOCKET_PROTOCOLS).max_message_size(state.max_body_bytes).on_upgrade(
        move |socket| async move {
            let services = state.services.clone();
            GraphQLWebSocket::new(socket, state.schema.clone(), protocol)
                .on_connection_init(move |payload| async move {
                    let token = token(&payload);
                    let ctx = context(&services, token.as_deref(), correlation_id, None, device)
                        .await
                        .map_err(|(_, e)| gql_error(e))?;
                    let data: Data = request_data(&services, ctx);
                    Ok(data)
                })
                .serve()
                .await
        },
    )
}
