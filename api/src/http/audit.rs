//! The audit trail exported over HTTP, for an organization's administrators: `GET
//! /v1/audit/events` streams every event of the caller's organization as JSON lines, in sequence
//! order, with the fields its hash covers (docs/audit.md), so anyone can check the chain offline.

use axum::Extension;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::stream;

use super::SharedState;
use super::artifacts::{caller, refuse};
use super::request::CorrelationId;

/// Events read from the database at a time.
const BATCH: u64 = 500;

pub async fn export(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    headers: HeaderMap,
) -> Response {
    let actor = match caller(&state, &headers, &correlation_id).await {
        Ok(actor) => actor,
        Err(refused) => return refused,
    };
    let audit = state.services.audit.clone();
    let reader = match audit.reader(&actor) {
        Ok(reader) => reader,
        Err(e) => return refuse(e, &correlation_id),
    };
    // From the sequence after the last one sent, until a batch comes back empty. An error ends
    // the body early: the last line shows where it stopped, and the chain still verifies up to it.
    let lines = stream::unfold(Some(0i64), move |after| {
        let (audit, reader) = (audit.clone(), reader.clone());
        async move {
            let batch = match audit.events_after(&reader, after?, BATCH).await {
                Ok(batch) if !batch.is_empty() => batch,
                Ok(_) => return None,
                Err(e) => {
                    tracing::error!(error = %e, "audit export stopped");
                    return None;
                }
            };
            let last = batch.last().map(|e| e.sequence);
            let mut chunk = Vec::new();
            for event in &batch {
                chunk.extend_from_slice(crate::audit::exported(event).to_string().as_bytes());
                chunk.push(b'\n');
            }
            Some((Ok::<_, std::convert::Infallible>(Bytes::from(chunk)), last))
        }
    });
    let mut response = Body::from_stream(lines).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"audit.jsonl\""));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
