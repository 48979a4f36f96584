//! The Agent Adapter Protocol on the wire: the versioned envelope every frame travels in,
//! between the control plane's connector gateway and `acc-connector`. Serde types only, no I/O.

#![deny(clippy::unwrap_used)]

mod frames;

pub use frames::*;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The envelope version this crate speaks. A frame with another version is refused.
pub const SCHEMA_VERSION: u32 = 1;

/// The largest frame either side accepts, in bytes of JSON.
pub const MAX_FRAME_BYTES: usize = 1024 * 1024;

/// How sensitive a frame's payload is; narrows who may read what it becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Classification {
    Public,
    #[default]
    Internal,
    Confidential,
    Secret,
}

/// Every frame, in either direction, travels in one envelope (SPEC §8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    pub schema_version: u32,
    /// The connector the frame is from or for; must match the authenticated identity.
    pub connector_id: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<Uuid>,
    /// Unique per connector; the control plane deduplicates events by `(connector_id, event_id)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<Uuid>,
    /// The connector's own gap-free sequence of a run's events, the cursor it resumes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<u64>,
    pub occurred_at: chrono::DateTime<chrono::Utc>,
    #[serde(default)]
    pub classification: Classification,
    pub payload: Frame,
    /// Anything a runtime said that the adapter could not map, kept rather than dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor_extension: Option<serde_json::Value>,
}

impl Envelope {
    /// A frame with no run attached.
    pub fn new(connector_id: Uuid, payload: Frame) -> Self {
        Self {
            schema_version: SCHEMA_VERSION,
            connector_id,
            agent_id: None,
            run_id: None,
            event_id: None,
            sequence: None,
            occurred_at: chrono::Utc::now(),
            classification: Classification::default(),
            payload,
            vendor_extension: None,
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProtocolError {
    #[error("frame of {size} bytes exceeds the {max} byte limit")]
    TooLarge { size: usize, max: usize },
    #[error("unsupported schema_version {found}; this side speaks {SCHEMA_VERSION}")]
    UnsupportedVersion { found: u64 },
    #[error("malformed frame: {0}")]
    Malformed(String),
}

impl ProtocolError {
    /// The code sent back in an [`Frame::Error`] frame.
    pub fn code(&self) -> ErrorCode {
        match self {
            ProtocolError::TooLarge { .. } => ErrorCode::FrameTooLarge,
            ProtocolError::UnsupportedVersion { .. } => ErrorCode::UnsupportedVersion,
            ProtocolError::Malformed(_) => ErrorCode::MalformedFrame,
        }
    }
}

/// Parses one frame: size first, then the version, then the shape.
pub fn decode(bytes: &[u8]) -> Result<Envelope, ProtocolError> {
    if bytes.len() > MAX_FRAME_BYTES {
        return Err(ProtocolError::TooLarge { size: bytes.len(), max: MAX_FRAME_BYTES });
    }
    #[derive(Deserialize)]
    struct Version {
        schema_version: Option<u64>,
    }
    let version: Version = serde_json::from_slice(bytes).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    match version.schema_version {
        Some(v) if v == u64::from(SCHEMA_VERSION) => {}
        Some(found) => return Err(ProtocolError::UnsupportedVersion { found }),
        None => return Err(ProtocolError::Malformed("missing schema_version".into())),
    }
    serde_json::from_slice(bytes).map_err(|e| ProtocolError::Malformed(e.to_string()))
}

pub fn encode(envelope: &Envelope) -> Result<String, ProtocolError> {
    let text = serde_json::to_string(envelope).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    if text.len() > MAX_FRAME_BYTES {
        return Err(ProtocolError::TooLarge { size: text.len(), max: MAX_FRAME_BYTES });
    }
    Ok(text)
}

#[cfg(test)]
mod tests;
