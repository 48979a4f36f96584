//! Wiki pages' attachments over HTTP, with the caller's bearer token: `POST
//! /v1/wiki/pages/{pageId}/attachments?name=…` streams the body into the artifact store as the
//! next version of the page's attachment so named (`Content-Type` is its media type), and `GET
//! /v1/wiki/attachments/{id}` streams a version back as artifacts' downloads are served (always an
//! attachment, one byte range when asked). Errors are `{ "error": { "code", "message", "details",
//! "correlationId" } }` with the status the code implies.

use acc_entity::wiki_attachment;
use axum::Extension;
use axum::Json;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::SharedState;
use super::artifacts::{StoredFile, caller, media_type_of, refuse, serve_file};
use super::request::CorrelationId;
use crate::artifacts::ArtifactError;
use crate::error::{CommonError, DomainError, ErrorCode};
use crate::ids::{GlobalId, NodeKind, gid};
use crate::wiki::graphql::attachment_path;
use crate::wiki::{Attach, WikiError};

#[derive(Deserialize)]
pub struct AttachQuery {
    name: String,
}

pub async fn attach(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    headers: HeaderMap,
    Path(page_id): Path<String>,
    query: Result<Query<AttachQuery>, QueryRejection>,
    body: Body,
) -> Response {
    let actor = match caller(&state, &headers, &correlation_id).await {
        Ok(actor) => actor,
        Err(refused) => return refused,
    };
    let attach = match read_attach(&page_id, query, &headers) {
        Ok(attach) => attach,
        Err(e) => return refuse(e, &correlation_id),
    };
    match state.services.wiki.attach(&actor, attach, body.into_data_stream()).await {
        Ok(attachment) => {
            (StatusCode::CREATED, Json(serde_json::json!({ "attachment": described(&attachment) }))).into_response()
        }
        Err(e) => refused(e, &correlation_id),
    }
}

fn read_attach(
    page_id: &str,
    query: Result<Query<AttachQuery>, QueryRejection>,
    headers: &HeaderMap,
) -> Result<Attach, CommonError> {
    let Query(query) = query.map_err(|e| CommonError::Validation {
        message: format!("an attachment is named in the query: name ({e})"),
        details: serde_json::json!({ "argument": "name" }),
    })?;
    let media_type = media_type_of(headers)?;
    Ok(Attach { page_id: GlobalId::decode_as(page_id, NodeKind::WikiPage)?, name: query.name, media_type })
}

fn described(attachment: &wiki_attachment::Model) -> serde_json::Value {
    serde_json::json!({
        "id": gid(NodeKind::WikiAttachment, attachment.id).0,
        "name": attachment.name,
        "number": attachment.number,
        "sha256": attachment.sha256,
        "sizeBytes": attachment.size_bytes,
        "mediaType": attachment.media_type,
        "downloadPath": attachment_path(attachment.id),
    })
}

/// A refusal, with `413` for a body over the upload limit; a failure of the server is logged.
fn refused(e: WikiError, correlation_id: &str) -> Response {
    let too_large = matches!(e, WikiError::Artifact(ArtifactError::TooLarge(_)));
    if e.code() == ErrorCode::Internal {
        tracing::error!(error = %e, "a wiki attachment's upload or download failed");
    }
    let mut response = refuse(e, correlation_id);
    if too_large {
        *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
    }
    response
}

pub async fn download(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let actor = match caller(&state, &headers, &correlation_id).await {
        Ok(actor) => actor,
        Err(refused) => return refused,
    };
    let id = match GlobalId::decode_as(&id, NodeKind::WikiAttachment) {
        Ok(id) => id,
        Err(e) => return refuse(e, &correlation_id),
    };
    let wiki = &state.services.wiki;
    let attachment = match wiki.attachment(&actor, id).await {
        Ok(found) => found,
        Err(e) => return refused(e, &correlation_id),
    };
    let attachment = &attachment;
    let file = StoredFile {
        name: &attachment.name,
        sha256: &attachment.sha256,
        size: attachment.size_bytes,
        media_type: &attachment.media_type,
    };
    let correlation = correlation_id.as_str();
    serve_file(&headers, &file, &correlation_id, |part| async move {
        wiki.attachment_bytes(attachment, part).await.map_err(|e| refused(e, correlation))
    })
    .await
}
