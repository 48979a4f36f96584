//! What one request may take beyond its cost: time (`limits.request_timeout_ms`) and response
//! size (`limits.max_response_bytes`). Cost (`cost`) bounds what a query asks for; these bound
//! what it turns out to need when lists are longer, or values larger, than the cost rule assumed.

use std::time::Duration;

use async_graphql::Response;
use serde::Serialize;

use super::errors::{finish_errors, request_error};
use super::limits::LimitError;

/// The JSON a client receives for `response`: its errors completed ([`finish_errors`]), and,
/// should it be larger than `max_bytes`, a response of that one refusal instead (never a part of
/// it). HTTP responses and every result a socket sends go through here.
pub fn response_json(mut response: Response, correlation_id: &str, max_bytes: usize) -> Vec<u8> {
    finish_errors(&mut response.errors, correlation_id);
    match to_json_within(&response, max_bytes) {
        Ok(json) => json,
        Err(err) => {
            tracing::warn!(max_bytes, "response refused: over the size bound");
            let mut refusal = Response::from_errors(vec![request_error(err)]);
            finish_errors(&mut refusal.errors, correlation_id);
            // One error is a few hundred bytes, whatever the bound.
            serde_json::to_vec(&refusal).unwrap_or_default()
        }
    }
}

/// JSON of `payload`, or [`LimitError::ResponseTooLarge`] once it would pass `max_bytes`: the
/// JSON is written into a buffer that refuses to grow past the bound, so an oversized payload
/// never exists whole.
fn to_json_within<T: Serialize + ?Sized>(payload: &T, max_bytes: usize) -> Result<Vec<u8>, LimitError> {
    let mut writer = Bounded { bytes: Vec::with_capacity(FIRST_CAPACITY.min(max_bytes)), max: max_bytes };
    // The only error a GraphQL response meets while serializing is this writer's refusal.
    serde_json::to_writer(&mut writer, payload).map_err(|_| LimitError::ResponseTooLarge { max_bytes })?;
    Ok(writer.bytes)
}

/// Where a response's JSON starts: most fit, and a page of 50 tasks grows it once or twice.
const FIRST_CAPACITY: usize = 8 * 1024;

/// A buffer that holds at most `max` bytes. serde_json writes a response a token at a time
/// (thousands of writes for a page), so each write is inlined to a bound check and a copy.
struct Bounded {
    bytes: Vec<u8>,
    max: usize,
}

impl std::io::Write for Bounded {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        // `bytes` never passes `max`, so the room left cannot underflow.
        if buf.len() > self.max - self.bytes.len() {
            return Err(over_the_bound());
        }
        self.bytes.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cold]
fn over_the_bound() -> std::io::Error {
    std::io::Error::other("the response is over its size bound")
}

/// Ends a query or mutation at its time budget: its future is dropped, so the work stops (a
/// write that has committed stays committed, as when a client hangs up).
pub async fn within_time_budget(budget: Duration, execution: impl Future<Output = Response>) -> Response {
    match tokio::time::timeout(budget, execution).await {
        Ok(response) => response,
        Err(_) => {
            let timeout_ms = budget.as_millis() as u64;
            tracing::warn!(timeout_ms, "request stopped at its time budget");
            Response::from_errors(vec![request_error(LimitError::TimedOut { timeout_ms })])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_within_the_bound_is_written_whole() {
        let payload = serde_json::json!({"data": {"title": "x".repeat(100)}});
        let bytes = to_json_within(&payload, 1024).unwrap();
        assert_eq!(bytes, serde_json::to_vec(&payload).unwrap());
    }

    #[test]
    fn json_over_the_bound_is_refused_without_being_kept() {
        let payload = serde_json::json!({"data": {"title": "x".repeat(100)}});
        let exact = serde_json::to_vec(&payload).unwrap().len();
        assert!(to_json_within(&payload, exact).is_ok());
        let err = to_json_within(&payload, exact - 1).unwrap_err();
        assert!(matches!(err, LimitError::ResponseTooLarge { max_bytes } if max_bytes == exact - 1), "{err}");
    }
}
