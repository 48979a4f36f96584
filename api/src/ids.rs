//! Global object ids: opaque strings that say which kind of object a UUID names.
//!
//! A global id is base64url("Kind:uuid"). Clients treat it as opaque; the server decodes it
//! once, at the edge, into a [`GlobalId`] whose kind is checked by the caller.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use uuid::Uuid;

use crate::error::CommonError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    Organization,
    User,
    Session,
    ApiToken,
    RoleBinding,
    Workspace,
    Project,
    Task,
    AcceptanceCriterion,
    SettingsLayer,
    EnrollmentToken,
    Connector,
    Agent,
    TaskRun,
    Approval,
    MemoryEntry,
    MemoryVersion,
    MemoryConflict,
    Artifact,
    ArtifactVersion,
    WikiNamespace,
    WikiPage,
    WikiRevision,
    WikiAttachment,
    Skill,
    SkillVersion,
    SkillActivation,
    SkillPublisherKey,
    Candidate,
    AuditEvent,
    BudgetPolicy,
    Notification,
}

impl NodeKind {
    const ALL: [NodeKind; 32] = [
        NodeKind::Organization,
        NodeKind::User,
        NodeKind::Session,
        NodeKind::ApiToken,
        NodeKind::RoleBinding,
        NodeKind::Workspace,
        NodeKind::Project,
        NodeKind::Task,
        NodeKind::AcceptanceCriterion,
        NodeKind::SettingsLayer,
        NodeKind::EnrollmentToken,
        NodeKind::Connector,
        NodeKind::Agent,
        NodeKind::TaskRun,
        NodeKind::Approval,
        NodeKind::MemoryEntry,
        NodeKind::MemoryVersion,
        NodeKind::MemoryConflict,
        NodeKind::Artifact,
        NodeKind::ArtifactVersion,
        NodeKind::WikiNamespace,
        NodeKind::WikiPage,
        NodeKind::WikiRevision,
        NodeKind::WikiAttachment,
        NodeKind::Skill,
        NodeKind::SkillVersion,
        NodeKind::SkillActivation,
        NodeKind::SkillPublisherKey,
        NodeKind::Candidate,
        NodeKind::AuditEvent,
        NodeKind::BudgetPolicy,
        NodeKind::Notification,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Organization => "Organization",
            NodeKind::User => "User",
            NodeKind::Session => "Session",
            NodeKind::ApiToken => "ApiToken",
            NodeKind::RoleBinding => "RoleBinding",
            NodeKind::Workspace => "Workspace",
            NodeKind::Project => "Project",
            NodeKind::Task => "Task",
            NodeKind::AcceptanceCriterion => "AcceptanceCriterion",
            NodeKind::SettingsLayer => "SettingsLayer",
            NodeKind::EnrollmentToken => "EnrollmentToken",
            NodeKind::Connector => "Connector",
            NodeKind::Agent => "Agent",
            NodeKind::TaskRun => "TaskRun",
            NodeKind::Approval => "Approval",
            NodeKind::MemoryEntry => "MemoryEntry",
            NodeKind::MemoryVersion => "MemoryVersion",
            NodeKind::MemoryConflict => "MemoryConflict",
            NodeKind::Artifact => "Artifact",
            NodeKind::ArtifactVersion => "ArtifactVersion",
            NodeKind::WikiNamespace => "WikiNamespace",
            NodeKind::WikiPage => "WikiPage",
            NodeKind::WikiRevision => "WikiRevision",
            NodeKind::WikiAttachment => "WikiAttachment",
            NodeKind::Skill => "Skill",
            NodeKind::SkillVersion => "SkillVersion",
            NodeKind::SkillActivation => "SkillActivation",
            NodeKind::SkillPublisherKey => "SkillPublisherKey",
            NodeKind::Candidate => "Candidate",
            NodeKind::AuditEvent => "AuditEvent",
            NodeKind::BudgetPolicy => "BudgetPolicy",
            NodeKind::Notification => "Notification",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GlobalId {
    pub kind: NodeKind,
    pub id: Uuid,
}

impl GlobalId {
    pub fn new(kind: NodeKind, id: Uuid) -> Self {
        Self { kind, id }
    }

    pub fn encode(self) -> String {
        // "Kind:uuid" put together on the stack: every object of every response shows its id.
        let mut text = [0u8; 64];
        let name = self.kind.name().as_bytes();
        let colon = name.len();
        let end = colon + 1 + uuid::fmt::Hyphenated::LENGTH;
        text[..colon].copy_from_slice(name);
        text[colon] = b':';
        self.id.hyphenated().encode_lower(&mut text[colon + 1..end]);
        URL_SAFE_NO_PAD.encode(&text[..end])
    }

    /// Decodes any well-formed global id; a malformed one is a `VALIDATION` error.
    pub fn decode(raw: &str) -> Result<Self, CommonError> {
        let invalid = || CommonError::Validation {
            message: format!("`{raw}` is not a valid id"),
            details: serde_json::json!({ "id": raw }),
        };
        let bytes = URL_SAFE_NO_PAD.decode(raw).map_err(|_| invalid())?;
        let text = String::from_utf8(bytes).map_err(|_| invalid())?;
        let (kind, id) = text.split_once(':').ok_or_else(invalid)?;
        let kind = NodeKind::from_name(kind).ok_or_else(invalid)?;
        let id = Uuid::parse_str(id).map_err(|_| invalid())?;
        Ok(Self { kind, id })
    }

    /// Decodes an id that must name an object of `kind`.
    pub fn decode_as(raw: &str, kind: NodeKind) -> Result<Uuid, CommonError> {
        let gid = Self::decode(raw)?;
        if gid.kind == kind {
            Ok(gid.id)
        } else {
            Err(CommonError::Validation {
                message: format!("`{raw}` is a {} id, expected a {} id", gid.kind.name(), kind.name()),
                details: serde_json::json!({ "id": raw, "expected": kind.name() }),
            })
        }
    }
}

/// The global id of an object, as every `id` field shows it.
pub fn gid(kind: NodeKind, id: Uuid) -> async_graphql::ID {
    async_graphql::ID(GlobalId::new(kind, id).encode())
}

/// An id argument that must name an object of `kind`; anything else is `VALIDATION`.
pub fn decode(raw: &async_graphql::ID, kind: NodeKind) -> async_graphql::Result<Uuid> {
    GlobalId::decode_as(raw, kind).map_err(crate::graphql::gql_error)
}

/// A fresh time-ordered id for a new row.
pub fn new_id() -> Uuid {
    Uuid::now_v7()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_kind() {
        for kind in NodeKind::ALL {
            let gid = GlobalId::new(kind, new_id());
            assert_eq!(GlobalId::decode(&gid.encode()).unwrap(), gid);
            // The wire form clients keep: base64url of "Kind:uuid".
            assert_eq!(gid.encode(), URL_SAFE_NO_PAD.encode(format!("{}:{}", kind.name(), gid.id)));
        }
    }

    #[test]
    fn malformed_and_wrong_kind_are_validation_errors() {
        for raw in [
            "",
            "not base64!",
            &URL_SAFE_NO_PAD.encode("Task:nope"),
            &URL_SAFE_NO_PAD.encode("Bogus:0190b7c4-0000-7000-8000-000000000000"),
        ] {
            assert!(matches!(GlobalId::decode(raw), Err(CommonError::Validation { .. })), "{raw}");
        }
        let project = GlobalId::new(NodeKind::Project, new_id()).encode();
        assert!(GlobalId::decode_as(&project, NodeKind::Task).is_err());
    }
}
