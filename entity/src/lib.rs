//! sea-orm entities of the Agent Control Center: one module per table, plain data with no logic.

#![deny(clippy::unwrap_used)]

pub mod acceptance_criterion;
pub mod agent;
pub mod api_token;
pub mod approval;
pub mod artifact;
pub mod artifact_version;
pub mod audit_checkpoint;
pub mod audit_event;
pub mod audit_head;
pub mod budget_policy;
pub mod candidate;
pub mod capability_snapshot;
pub mod checkpoint;
pub mod config_layer;
pub mod connector;
pub mod context_record;
pub mod device_session;
pub mod enrollment_token;
pub mod idempotency_record;
pub mod memory_conflict;
pub mod memory_entry;
pub mod memory_vector;
pub mod memory_version;
pub mod notification;
pub mod notification_delivery;
pub mod notification_preference;
pub mod oidc_sign_in;
pub mod organization;
pub mod project;
pub mod push_subscription;
pub mod refresh_token;
pub mod role_binding;
pub mod run_attempt;
pub mod run_event;
pub mod run_skill;
pub mod skill;
pub mod skill_activation;
pub mod skill_publisher_key;
pub mod skill_version;
pub mod task;
pub mod task_dependency;
pub mod task_run;
pub mod usage_record;
pub mod user;
pub mod user_identity;
pub mod wiki_alias;
pub mod wiki_attachment;
pub mod wiki_link;
pub mod wiki_namespace;
pub mod wiki_page;
pub mod wiki_revision;
pub mod wiki_vector;
pub mod workspace;

/// Shows a stored enum (`DeriveActiveEnum`) as its stored value, as logs and error messages say it.
macro_rules! display_as_stored {
    ($($enum:ty),+) => {$(
        impl std::fmt::Display for $enum {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&sea_orm::ActiveEnum::to_value(self))
            }
        }
    )+};
}

display_as_stored!(
    approval::ApprovalStatus,
    approval::ApprovalSubject,
    audit_event::AuditAction,
    audit_event::AuditActorKind,
    audit_event::AuditTargetKind,
    budget_policy::BudgetPeriod,
    budget_policy::BudgetScope,
    memory_conflict::ConflictResolution,
    memory_conflict::ConflictStatus,
    memory_entry::MemoryKind,
    memory_entry::MemoryScopeKind,
    memory_version::Sensitivity,
    memory_version::Verification,
    notification::NotificationKind,
    notification_delivery::DeliveryStatus,
    notification_preference::NotificationChannel,
    run_attempt::AttemptKind,
    run_attempt::AttemptStatus,
    run_event::RunEventKind,
    skill_activation::ActivationStatus,
    skill_version::ReviewState,
    skill_version::SignatureStatus,
    usage_record::UsageSource
);
