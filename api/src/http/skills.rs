//! Skill packages over HTTP, with the caller's bearer token: `POST /v1/skills` takes an archive
//! (`.zip` or `.tar.gz`, at most 20 MiB) as the body and, in the `Skill-Signature` header, its
//! minisign signature (the `.minisig` file's text, base64-encoded: a header holds no line breaks).
//! It answers the skill and the version it became (`201`), or the version those same files already
//! are (`200`). Errors are `{ "error": { "code", "message", "details", "correlationId" } }`.

use axum::Extension;
use axum::Json;
use axum::body::{Body, to_bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;

use super::SharedState;
use super::artifacts::{caller, refuse};
use super::request::CorrelationId;
use crate::error::CommonError;
use crate::ids::{NodeKind, gid};
use crate::skills::{Imported, MAX_ARCHIVE_BYTES};

pub async fn import(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let actor = match caller(&state, &headers, &correlation_id).await {
        Ok(actor) => actor,
        Err(refused) => return refused,
    };
    let signature = match signature(&headers) {
        Ok(signature) => signature,
        Err(e) => return refuse(e, &correlation_id),
    };
    let Ok(archive) = to_bytes(body, MAX_ARCHIVE_BYTES as usize).await else {
        let mut refused = refuse(
            CommonError::Validation {
                message: format!("an archive is at most {MAX_ARCHIVE_BYTES} bytes"),
                details: serde_json::json!({ "maxBytes": MAX_ARCHIVE_BYTES }),
            },
            &correlation_id,
        );
        *refused.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
        return refused;
    };
    match state.services.skills.import(&actor, archive, signature).await {
        Ok(Imported { skill, version, existing }) => {
            let body = serde_json::json!({
                "skill": { "id": gid(NodeKind::Skill, skill.id).0, "name": skill.name },
                "version": {
                    "id": gid(NodeKind::SkillVersion, version.id).0,
                    "number": version.number,
                    "digest": version.digest,
                    "hasScripts": version.has_scripts,
                    "signatureStatus": version.signature_status.to_string(),
                    "reviewState": version.review_state.to_string(),
                },
                "existing": existing,
            });
            let status = if existing { StatusCode::OK } else { StatusCode::CREATED };
            (status, Json(body)).into_response()
        }
        Err(e) => refuse(e, &correlation_id),
    }
}

/// The signature the `Skill-Signature` header carries, decoded; none without the header.
fn signature(headers: &HeaderMap) -> Result<Option<String>, CommonError> {
    let Some(value) = headers.get("skill-signature") else { return Ok(None) };
    let refused = || CommonError::Validation {
        message: "Skill-Signature is the .minisig file's text, base64-encoded".into(),
        details: serde_json::json!({ "header": "Skill-Signature" }),
    };
    let bytes = base64::engine::general_purpose::STANDARD.decode(value.as_bytes()).map_err(|_| refused())?;
    String::from_utf8(bytes).map(Some).map_err(|_| refused())
}
