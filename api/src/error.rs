//! The error codes of SPEC §4 and the trait every domain error implements to be shown to clients.
//!
//! Each domain has its own `thiserror` enum; the GraphQL layer maps any of them once, through
//! [`DomainError`], into `extensions { code, correlationId, retryable, details }`.

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    Unauthenticated,
    Forbidden,
    NotFound,
    Validation,
    Conflict,
    IdempotencyMismatch,
    RateLimited,
    BudgetExceeded,
    CapabilityMissing,
    InvalidTransition,
    Internal,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Unauthenticated => "UNAUTHENTICATED",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::Validation => "VALIDATION",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::IdempotencyMismatch => "IDEMPOTENCY_MISMATCH",
            ErrorCode::RateLimited => "RATE_LIMITED",
            ErrorCode::BudgetExceeded => "BUDGET_EXCEEDED",
            ErrorCode::CapabilityMissing => "CAPABILITY_MISSING",
            ErrorCode::InvalidTransition => "INVALID_TRANSITION",
            ErrorCode::Internal => "INTERNAL",
        }
    }

    /// Whether the same request may succeed if simply sent again later.
    pub fn retryable(self) -> bool {
        matches!(self, ErrorCode::RateLimited | ErrorCode::Internal)
    }
}

/// A domain error as clients see it.
pub trait DomainError: std::error::Error {
    fn code(&self) -> ErrorCode;

    /// Machine-readable facts a client can act on (the current revision, a cycle's path…).
    fn details(&self) -> Value {
        Value::Null
    }
}

/// Errors shared by every domain: the caller, the input or the store.
#[derive(Debug, thiserror::Error)]
pub enum CommonError {
    #[error("authentication required")]
    Unauthenticated,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error("{message}")]
    Validation { message: String, details: Value },
    #[error("stale revision: expected {expected}, current is {current}")]
    Conflict { expected: i64, current: i64 },
    #[error("idempotency key was already used with different input")]
    IdempotencyMismatch,
    #[error("too many attempts; retry in {retry_after_seconds} s")]
    RateLimited { retry_after_seconds: u64 },
    #[error("internal error")]
    Database(#[from] sea_orm::DbErr),
    #[error("internal error")]
    Internal(String),
}

impl CommonError {
    pub fn validation(message: impl Into<String>) -> Self {
        CommonError::Validation { message: message.into(), details: Value::Null }
    }
}

impl DomainError for CommonError {
    fn code(&self) -> ErrorCode {
        match self {
            CommonError::Unauthenticated => ErrorCode::Unauthenticated,
            CommonError::Forbidden(_) => ErrorCode::Forbidden,
            CommonError::NotFound(_) => ErrorCode::NotFound,
            CommonError::Validation { .. } => ErrorCode::Validation,
            CommonError::Conflict { .. } => ErrorCode::Conflict,
            CommonError::IdempotencyMismatch => ErrorCode::IdempotencyMismatch,
            CommonError::RateLimited { .. } => ErrorCode::RateLimited,
            CommonError::Database(_) | CommonError::Internal(_) => ErrorCode::Internal,
        }
    }

    fn details(&self) -> Value {
        match self {
            CommonError::Validation { details, .. } => details.clone(),
            CommonError::Conflict { expected, current } => {
                serde_json::json!({ "expectedRevision": expected, "currentRevision": current })
            }
            CommonError::RateLimited { retry_after_seconds } => {
                serde_json::json!({ "retryAfterSeconds": retry_after_seconds })
            }
            _ => Value::Null,
        }
    }
}

/// Whether a database error is a unique-constraint violation (a duplicate name, a reused key).
pub fn is_unique_violation(err: &sea_orm::DbErr) -> bool {
    matches!(err.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_)))
}
