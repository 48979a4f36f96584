//! One mapping from domain errors to GraphQL errors with `extensions { code, correlationId, retryable, details }`.

use async_graphql::{ErrorExtensionValues, ServerError, Value as GqlValue};

use crate::error::{DomainError, ErrorCode};

/// A domain error as a GraphQL error. Internal errors are logged and shown only as `INTERNAL`.
pub fn gql_error<E: DomainError>(err: E) -> async_graphql::Error {
    let code = err.code();
    let message = if code == ErrorCode::Internal {
        tracing::error!(error = ?err, "internal error");
        "internal error".to_owned()
    } else {
        err.to_string()
    };
    let mut error = async_graphql::Error::new(message);
    let mut extensions = ErrorExtensionValues::default();
    extensions.set("code", code.as_str());
    extensions.set("retryable", code.retryable());
    let details = err.details();
    if !details.is_null() {
        extensions.set("details", GqlValue::from_json(details).unwrap_or(GqlValue::Null));
    }
    error.extensions = Some(extensions);
    error
}

/// A domain error about the whole request rather than one field: no location, as the engine's
/// own errors have none.
pub fn request_error<E: DomainError>(err: E) -> ServerError {
    let error = gql_error(err).into_server_error(async_graphql::Pos::default());
    ServerError { locations: vec![], ..error }
}

/// Completes every error of a response: errors raised by the GraphQL engine itself (parse,
/// validation, limits) become `VALIDATION`, and each carries the request's correlation id.
pub fn finish_errors(errors: &mut [ServerError], correlation_id: &str) {
    for error in errors {
        let extensions = error.extensions.get_or_insert_with(ErrorExtensionValues::default);
        if extensions.get("code").is_none() {
            extensions.set("code", ErrorCode::Validation.as_str());
            extensions.set("retryable", false);
        }
        extensions.set("correlationId", correlation_id);
    }
}
