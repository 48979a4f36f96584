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

/// Completes subscription errors the way [`finish_errors`] does for HTTP, with the connection's correlation id.
pub struct CorrelatedSubscriptionErrors;

impl async_graphql::extensions::ExtensionFactory for CorrelatedSubscriptionErrors {
    fn create(&self) -> std::sync::Arc<dyn async_graphql::extensions::Extension> {
        std::sync::Arc::new(CorrelatedSubscriptionErrors)
    }
}

impl async_graphql::extensions::Extension for CorrelatedSubscriptionErrors {
    fn subscribe<'s>(
        &self,
        ctx: &async_graphql::extensions::ExtensionContext<'_>,
        stream: futures_util::stream::BoxStream<'s, async_graphql::Response>,
        next: async_graphql::extensions::NextSubscribe<'_>,
    ) -> futures_util::stream::BoxStream<'s, async_graphql::Response> {
        use futures_util::StreamExt;
        let correlation_id =
            ctx.data_opt::<super::RequestContext>().map(|r| r.correlation_id.clone()).unwrap_or_default();
        next.run(ctx, stream)
            .map(move |mut response| {
                finish_errors(&mut response.errors, &correlation_id);
                response
            })
            .boxed()
    }
}
