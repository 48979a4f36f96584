//! Artifacts' bytes over HTTP, with the caller's bearer token: `POST /v1/artifacts?projectId=…
//! &taskId=…&name=…` streams the body into the store as the next version of the artifact so named
//! (`Content-Type` is its media type), and `GET /v1/artifacts/versions/{id}` streams a version
//! back, always as an attachment, or the one byte range its `Range` header asks for (a download
//! that broke off resumes where it stopped; `If-Range` with the ETag keeps it to the same bytes,
//! which a version never changes anyway). Errors are `{ "error": { "code", "message", "details",
//! "correlationId" } }` with the status the code implies.

use std::ops::Range;

use axum::Extension;
use axum::Json;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::stream::BoxStream;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;

use super::SharedState;
use super::request::{CorrelationId, bearer};
use crate::artifacts::graphql::download_path;
use crate::artifacts::{ArtifactAt, ArtifactError, Upload};
use crate::error::{CommonError, DomainError, ErrorCode};
use crate::identity::actor::Actor;
use crate::ids::{GlobalId, NodeKind, gid};

pub(super) fn refuse(err: impl DomainError, correlation_id: &str) -> Response {
    let status = match err.code() {
        ErrorCode::Unauthenticated => StatusCode::UNAUTHORIZED,
        ErrorCode::Forbidden => StatusCode::FORBIDDEN,
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::Validation => StatusCode::BAD_REQUEST,
        ErrorCode::Conflict | ErrorCode::InvalidTransition => StatusCode::CONFLICT,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let body = serde_json::json!({ "error": {
        "code": err.code().as_str(),
        "message": err.to_string(),
        "details": err.details(),
        "correlationId": correlation_id,
    }});
    (status, Json(body)).into_response()
}

/// The caller, from the bearer token; without a valid one, the response refusing them.
pub(super) async fn caller(state: &SharedState, headers: &HeaderMap, correlation_id: &str) -> Result<Actor, Response> {
    let Some(token) = bearer(headers) else { return Err(refuse(CommonError::Unauthenticated, correlation_id)) };
    state.services.identity.authenticate(token).await.map_err(|e| refuse(e, correlation_id))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadQuery {
    project_id: String,
    task_id: Option<String>,
    name: String,
}

pub async fn upload(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    headers: HeaderMap,
    query: Result<Query<UploadQuery>, QueryRejection>,
    body: Body,
) -> Response {
    let actor = match caller(&state, &headers, &correlation_id).await {
        Ok(actor) => actor,
        Err(refused) => return refused,
    };
    let upload = match read_upload(query, &headers) {
        Ok(upload) => upload,
        Err(e) => return refuse(e, &correlation_id),
    };
    let stored = state.services.artifacts.upload(&actor, upload, body.into_data_stream()).await;
    uploaded(stored, &correlation_id)
}

/// The answer to an upload: the artifact and its new version, or why not.
pub(super) fn uploaded(stored: Result<ArtifactAt, ArtifactError>, correlation_id: &str) -> Response {
    match stored {
        Ok(ArtifactAt { artifact, version }) => {
            let body = serde_json::json!({
                "artifact": {
                    "id": gid(NodeKind::Artifact, artifact.id).0,
                    "name": artifact.name,
                    "revision": artifact.revision,
                },
                "version": {
                    "id": gid(NodeKind::ArtifactVersion, version.id).0,
                    "number": version.number,
                    "sha256": version.sha256,
                    "sizeBytes": version.size_bytes,
                    "mediaType": version.media_type,
                    "downloadPath": download_path(version.id),
                },
            });
            (StatusCode::CREATED, Json(body)).into_response()
        }
        Err(e @ ArtifactError::TooLarge(_)) => {
            let mut refused = refuse(e, correlation_id);
            *refused.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
            refused
        }
        Err(e) => {
            if e.code() == ErrorCode::Internal {
                tracing::error!(error = %e, "an artifact upload failed");
            }
            refuse(e, correlation_id)
        }
    }
}

fn read_upload(query: Result<Query<UploadQuery>, QueryRejection>, headers: &HeaderMap) -> Result<Upload, CommonError> {
    let Query(query) = query.map_err(|e| CommonError::Validation {
        message: format!("an upload names its place in the query: projectId, name and optionally taskId ({e})"),
        details: serde_json::json!({ "arguments": ["projectId", "taskId", "name"] }),
    })?;
    let media_type = media_type_of(headers)?;
    Ok(Upload {
        project_id: GlobalId::decode_as(&query.project_id, NodeKind::Project)?,
        task_id: query.task_id.as_deref().map(|id| GlobalId::decode_as(id, NodeKind::Task)).transpose()?,
        name: query.name,
        media_type,
    })
}

/// The media type an upload declares (`Content-Type`), if it does.
pub(super) fn media_type_of(headers: &HeaderMap) -> Result<Option<String>, CommonError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else { return Ok(None) };
    Ok(Some(value.to_str().map_err(|_| CommonError::validation("Content-Type is not text"))?.to_owned()))
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
    let id = match GlobalId::decode_as(&id, NodeKind::ArtifactVersion) {
        Ok(id) => id,
        Err(e) => return refuse(e, &correlation_id),
    };
    let artifacts = &state.services.artifacts;
    let refused = |e: ArtifactError| {
        if e.code() == ErrorCode::Internal {
            tracing::error!(error = %e, "an artifact download failed");
        }
        refuse(e, &correlation_id)
    };
    let ArtifactAt { artifact, version } = match artifacts.version_at(&actor, id).await {
        Ok(found) => found,
        Err(e) => return refused(e),
    };
    let version = &version;
    let file = StoredFile {
        name: &artifact.name,
        sha256: &version.sha256,
        size: version.size_bytes,
        media_type: &version.media_type,
    };
    serve_file(
        &headers,
        &file,
        &correlation_id,
        |part| async move { artifacts.bytes(version, part).await.map_err(refused) },
    )
    .await
}

/// A stored file as its download serves it.
pub(super) struct StoredFile<'a> {
    /// Its name (a relative path): the download is saved by its last part.
    pub name: &'a str,
    pub sha256: &'a str,
    pub size: i64,
    pub media_type: &'a str,
}

/// Serves the bytes of `file` that `headers` ask for, as an attachment: `304` to a client that
/// holds them (a stored file never changes), one `Range` (`206`, or `416` outside the bytes), or
/// all of them. `bytes` reads those of a range, or all with `None`, from the store.
pub(super) async fn serve_file<F, B>(
    headers: &HeaderMap,
    file: &StoredFile<'_>,
    correlation_id: &str,
    bytes: F,
) -> Response
where
    F: FnOnce(Option<Range<u64>>) -> B,
    B: std::future::Future<Output = Result<BoxStream<'static, Result<Bytes, object_store::Error>>, Response>>,
{
    let etag = format!("\"{}\"", file.sha256);
    if headers.get(header::IF_NONE_MATCH).is_some_and(|held| held.as_bytes() == etag.as_bytes()) {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    let size = file.size.unsigned_abs();
    let part = match asked_range(headers, size, &etag) {
        Ok(part) => part,
        Err(NotSatisfiable) => {
            let refusal = CommonError::validation(format!("the range asked for is not within the {size} bytes"));
            let mut response = refuse(refusal, correlation_id);
            *response.status_mut() = StatusCode::RANGE_NOT_SATISFIABLE;
            if let Ok(value) = HeaderValue::from_str(&format!("bytes */{size}")) {
                response.headers_mut().insert(header::CONTENT_RANGE, value);
            }
            return response;
        }
    };
    let bytes = match bytes(part.clone()).await {
        Ok(bytes) => bytes,
        Err(refused) => return refused,
    };
    let file_name = file.name.rsplit('/').next().unwrap_or(file.name);
    let disposition = format!("attachment; filename*=UTF-8''{}", utf8_percent_encode(file_name, NON_ALPHANUMERIC));
    let mut response = Body::from_stream(bytes).into_response();
    let response_headers = response.headers_mut();
    let mut set = |name, value: String| {
        if let Ok(value) = HeaderValue::from_str(&value) {
            response_headers.insert(name, value);
        }
    };
    set(header::CONTENT_TYPE, file.media_type.to_owned());
    set(header::ACCEPT_RANGES, "bytes".to_owned());
    match &part {
        Some(part) => {
            set(header::CONTENT_LENGTH, (part.end - part.start).to_string());
            set(header::CONTENT_RANGE, format!("bytes {}-{}/{size}", part.start, part.end - 1));
        }
        None => set(header::CONTENT_LENGTH, size.to_string()),
    }
    set(header::CONTENT_DISPOSITION, disposition);
    set(header::ETAG, etag);
    set(header::CACHE_CONTROL, "private, no-cache".to_owned());
    // Bytes anyone uploaded are never a page of this origin, even opened directly.
    set(header::CONTENT_SECURITY_POLICY, "sandbox; default-src 'none'".to_owned());
    if part.is_some() {
        *response.status_mut() = StatusCode::PARTIAL_CONTENT;
    }
    response
}

/// A `Range` header that is malformed or outside the bytes (416).
struct NotSatisfiable;

/// The bytes of `size` a download asks for: `None` for all of them (no `Range`, an `If-Range`
/// naming other bytes, several ranges, which one response of the whole answers, or nothing to
/// cut).
fn asked_range(headers: &HeaderMap, size: u64, etag: &str) -> Result<Option<Range<u64>>, NotSatisfiable> {
    let Some(range) = headers.get(header::RANGE) else { return Ok(None) };
    if size == 0 || headers.get(header::IF_RANGE).is_some_and(|held| held.as_bytes() != etag.as_bytes()) {
        return Ok(None);
    }
    let range = range.to_str().map_err(|_| NotSatisfiable)?;
    let ranges =
        http_range_header::parse_range_header(range).and_then(|r| r.validate(size)).map_err(|_| NotSatisfiable)?;
    Ok(match <[_; 1]>::try_from(ranges) {
        Ok([one]) => Some(*one.start()..one.end() + 1),
        Err(_) => None,
    })
}
