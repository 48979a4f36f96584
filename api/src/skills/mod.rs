//! Skills (SPEC §12): Agent Skills packages an organization imports, keeps as immutable versions
//! and activates per scope. A package is validated field by field and file by file (`package`);
//! its digest is over its canonical file list; its minisign signature is checked against the
//! publisher keys the organization trusts. Signed by a trusted key, a version is approved; any
//! other (unsigned, unknown signer, revoked key, tampered) is quarantined until an administrator
//! reviews it. Only approved versions are activated, and activating a package with scripts waits
//! for an Approval decided by another person.

pub mod graphql;
pub mod package;

use std::convert::Infallible;

use acc_entity::approval::{self, ApprovalStatus, ApprovalSubject};
use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::skill_activation::ActivationStatus;
use acc_entity::skill_version::{ReviewState, SignatureStatus};
use acc_entity::{project, run_skill, skill, skill_activation, skill_publisher_key, skill_version};
use acc_protocol::{RunSkill, SkillFile};
use base64::Engine;
use bytes::Bytes;
use chrono::{Duration, Utc};
use futures_util::TryStreamExt;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder,
    QuerySelect, Set,
};
use uuid::Uuid;

use crate::approvals::{ApprovalError, ApprovalService, Decision, NewApproval, checked_reason};
use crate::artifacts::ArtifactStore;
use crate::audit::{AuditLog, Entry};
use crate::db::{Pool, Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::identity::actor::{Actor, Permission, ScopeKind, ScopePath};
use crate::ids::new_id;
use crate::pagination::{Page, PageRequest, paginate};
use crate::runs::ActingRun;
use package::{PackageError, SignatureCheck, TrustedKey};

/// The largest archive imported.
pub const MAX_ARCHIVE_BYTES: u64 = 20 * 1024 * 1024;
/// How long an activation with scripts waits for its approval.
const ACTIVATION_APPROVAL_LIFETIME: Duration = Duration::days(7);
const MAX_KEY_NAME_CHARS: usize = 100;

#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    #[error(transparent)]
    Common(#[from] CommonError),
    #[error(transparent)]
    Approval(#[from] ApprovalError),
    #[error("the package is refused: {0}")]
    Package(#[from] PackageError),
    /// A review or activation the version's state does not allow.
    #[error("the version is {state}: {message}")]
    State { state: ReviewState, message: &'static str },
    /// Approving an activation one asked for oneself.
    #[error("you asked for this activation; another person must approve it")]
    OwnRequest,
}

impl From<sea_orm::DbErr> for SkillError {
    fn from(e: sea_orm::DbErr) -> Self {
        SkillError::Common(e.into())
    }
}

impl DomainError for SkillError {
    fn code(&self) -> ErrorCode {
        match self {
            SkillError::Common(e) => e.code(),
            SkillError::Approval(e) => e.code(),
            SkillError::Package(_) => ErrorCode::Validation,
            SkillError::State { .. } => ErrorCode::InvalidTransition,
            SkillError::OwnRequest => ErrorCode::Forbidden,
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            SkillError::Common(e) => e.details(),
            SkillError::Approval(e) => e.details(),
            SkillError::Package(e) => package_details(e),
            SkillError::State { state, .. } => serde_json::json!({ "reviewState": state.to_string() }),
            SkillError::OwnRequest => serde_json::json!({ "needs": "another approver" }),
        }
    }
}

type Result<T, E = SkillError> = std::result::Result<T, E>;

/// What a client needs to point at the refused part: the field or the path.
fn package_details(e: &PackageError) -> serde_json::Value {
    match e {
        PackageError::Field { field, .. } => serde_json::json!({ "field": field }),
        PackageError::UnknownField { field } => serde_json::json!({ "field": field }),
        PackageError::DirectoryName { directory, .. } => serde_json::json!({ "field": "name", "directory": directory }),
        PackageError::PublicKey(_) => serde_json::json!({ "argument": "publicKey" }),
        PackageError::UnsafePath { path, .. }
        | PackageError::Symlink { path }
        | PackageError::HardLink { path }
        | PackageError::Device { path }
        | PackageError::Fifo { path }
        | PackageError::UnsupportedEntry { path, .. }
        | PackageError::DuplicatePath { path }
        | PackageError::PathConflict { path }
        | PackageError::FileTooLarge { path } => serde_json::json!({ "path": path }),
        _ => serde_json::Value::Null,
    }
}

/// An imported package: its version, and whether it was already there (the same files again).
#[derive(Debug, Clone)]
pub struct Imported {
    pub skill: skill::Model,
    pub version: skill_version::Model,
    pub existing: bool,
}

#[derive(Clone)]
pub struct SkillService {
    db: Pool,
    reads: Reads,
    /// Where archives' bytes are kept, as artifacts' are.
    store: ArtifactStore,
    approvals: ApprovalService,
    audit: AuditLog,
    max_page_size: u64,
}

impl SkillService {
    pub fn new(
        store: &Store,
        bytes: ArtifactStore,
        approvals: ApprovalService,
        audit: AuditLog,
        max_page_size: u64,
    ) -> Self {
        Self { db: store.pool.clone(), reads: store.reads.clone(), store: bytes, approvals, audit, max_page_size }
    }

    /// The files of the skill version `run_id` was started with, for the connector that holds the
    /// run's working attempt (the caller's proof, `acting`): read again from the stored archive and
    /// checked against the digest the run froze. A version the run was not started with is
    /// `NOT_FOUND`.
    pub async fn files_for_run(&self, acting: &ActingRun, skill_version_id: Uuid) -> Result<Vec<SkillFile>> {
        let frozen = self
            .reads
            .one(
                run_skill::Entity::find()
                    .filter(run_skill::Column::RunId.eq(acting.run.id))
                    .filter(run_skill::Column::SkillVersionId.eq(skill_version_id)),
            )
            .await?
            .ok_or(CommonError::NotFound("skill version"))?;
        let stored = self.store.get(frozen.organization_id, &frozen.archive_sha256, None).await.map_err(internal)?;
        let archive: Vec<Bytes> = stored.try_collect().await.map_err(internal)?;
        let (package, contents) = package::unpack(&archive.concat())?;
        if package.digest != frozen.digest {
            return Err(internal(format!("the stored archive of {skill_version_id} no longer has its digest")).into());
        }
        let base64 = base64::engine::general_purpose::STANDARD;
        Ok(package
            .files
            .into_iter()
            .zip(contents)
            .map(|(file, bytes)| SkillFile { path: file.path, content_base64: base64.encode(bytes) })
            .collect())
    }

    /// Trusts a publisher's minisign public key for the organization; administrators only.
    pub async fn trust_key(&self, actor: &Actor, name: &str, public_key: &str) -> Result<skill_publisher_key::Model> {
        actor.authorize(Permission::Administer, &ScopePath::organization(actor.organization_id), "organization")?;
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_KEY_NAME_CHARS || name.chars().any(char::is_control) {
            return Err(CommonError::Validation {
                message: format!("a publisher's name is 1 to {MAX_KEY_NAME_CHARS} characters"),
                details: serde_json::json!({ "argument": "name" }),
            }
            .into());
        }
        let key_id = package::key_id_of(public_key)?;
        let key = skill_publisher_key::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(actor.organization_id),
            name: Set(name.to_owned()),
            key_id: Set(key_id),
            public_key: Set(public_key.trim().to_owned()),
            revoked_at: Set(None),
            created_by_user_id: Set(Some(actor.user_id)),
            created_at: Set(Utc::now()),
        };
        let txn = self.db.begin_write().await?;
        let key = key.insert(&*txn).await.map_err(|e| -> SkillError {
            if is_unique_violation(&e) {
                CommonError::Validation {
                    message: "this key is already trusted (or was, and is revoked)".into(),
                    details: serde_json::json!({ "argument": "publicKey" }),
                }
                .into()
            } else {
                e.into()
            }
        })?;
        self.audit.append(&*txn, key_entry(actor, AuditAction::SkillPublisherKeyTrusted, &key)).await?;
        txn.commit().await?;
        Ok(key)
    }

    /// Revokes a trusted key: what it signs is quarantined from now on, and the versions it
    /// approved are quarantined again (and their activations end) until a person reviews them.
    pub async fn revoke_key(&self, actor: &Actor, id: Uuid) -> Result<skill_publisher_key::Model> {
        actor.authorize(Permission::Administer, &ScopePath::organization(actor.organization_id), "organization")?;
        let key = self.key_in(actor, id).await?;
        if key.revoked_at.is_some() {
            return Ok(key);
        }
        let txn = self.db.begin_write().await?;
        let mut active = key.into_active_model();
        active.revoked_at = Set(Some(Utc::now()));
        let key = active.update(&*txn).await?;
        let signed = skill_version::Entity::find()
            .filter(skill_version::Column::OrganizationId.eq(actor.organization_id))
            .filter(skill_version::Column::SignerKeyId.eq(key.key_id.as_str()))
            .filter(skill_version::Column::ReviewState.eq(ReviewState::Approved))
            .filter(skill_version::Column::ReviewedBy.is_null())
            .all(&*txn)
            .await?;
        let versions =
            Condition::all().add(skill_activation::Column::SkillVersionId.is_in(signed.iter().map(|v| v.id)));
        let cancelled = self.end_activations(&*txn, versions).await?;
        let reason = format!("the key {} that signed it was revoked", key.key_id);
        let quarantined = signed.len();
        for version in signed {
            set_review(&*txn, version, ReviewState::Quarantined, None, Some(reason.clone())).await?;
        }
        let revoked = key_entry(actor, AuditAction::SkillPublisherKeyRevoked, &key).with("quarantined", quarantined);
        self.audit.append(&*txn, revoked).await?;
        txn.commit().await?;
        cancelled.iter().for_each(|a| self.approvals.announce(a));
        Ok(key)
    }

    /// The organization's publisher keys, newest first.
    pub async fn keys(&self, actor: &Actor) -> Result<Vec<skill_publisher_key::Model>> {
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "organization")?;
        let select = skill_publisher_key::Entity::find()
            .filter(skill_publisher_key::Column::OrganizationId.eq(actor.organization_id))
            .order_by_desc(skill_publisher_key::Column::Id);
        Ok(self.reads.all(select).await?)
    }

    /// Imports a package (a `.zip` or `.tar.gz` archive) with its minisign signature, if any, as
    /// the next version of the skill it names. The same files again are the version already there.
    pub async fn import(&self, actor: &Actor, archive: Bytes, signature: Option<String>) -> Result<Imported> {
        actor.authorize(Permission::WriteTasks, &ScopePath::organization(actor.organization_id), "organization")?;
        if archive.len() as u64 > MAX_ARCHIVE_BYTES {
            return Err(PackageError::ArchiveTooLarge.into());
        }
        let package = package::read_package(&archive)?;
        let trusted: Vec<TrustedKey> = self
            .reads
            .all(
                skill_publisher_key::Entity::find()
                    .filter(skill_publisher_key::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?
            .into_iter()
            .map(|k| TrustedKey { key_id: k.key_id, public_key: k.public_key, revoked: k.revoked_at.is_some() })
            .collect();
        let check = package::check_signature(&archive, signature.as_deref(), &trusted);
        let (signature_status, signer_key_id) = match check {
            SignatureCheck::Verified { key_id } => (SignatureStatus::Verified, Some(key_id)),
            SignatureCheck::Unsigned => (SignatureStatus::Unsigned, None),
            SignatureCheck::UnknownSigner { key_id } => (SignatureStatus::UnknownSigner, Some(key_id)),
            SignatureCheck::RevokedKey { key_id } => (SignatureStatus::RevokedKey, Some(key_id)),
            SignatureCheck::Invalid { .. } => (SignatureStatus::Invalid, None),
        };
        let review_state = match signature_status {
            SignatureStatus::Verified => ReviewState::Approved,
            _ => ReviewState::Quarantined,
        };
        let size = archive.len() as i64;
        let stored = self
            .store
            .put(
                actor.organization_id,
                futures_util::stream::once(async { Ok::<_, Infallible>(archive) }),
                MAX_ARCHIVE_BYTES,
            )
            .await
            .map_err(|e| CommonError::Internal(e.to_string()))?;
        let txn = self.db.begin_write().await?;
        let now = Utc::now();
        let named = skill::Entity::find()
            .filter(skill::Column::OrganizationId.eq(actor.organization_id))
            .filter(skill::Column::Name.eq(package.manifest.name.as_str()))
            .lock_exclusive()
            .one(&*txn)
            .await?;
        let skill = match named {
            Some(skill) => skill,
            None => {
                skill::ActiveModel {
                    id: Set(new_id()),
                    organization_id: Set(actor.organization_id),
                    name: Set(package.manifest.name.clone()),
                    latest_version: Set(0),
                    revision: Set(1),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&*txn)
                .await?
            }
        };
        let same = skill_version::Entity::find()
            .filter(skill_version::Column::SkillId.eq(skill.id))
            .filter(skill_version::Column::Digest.eq(package.digest.as_str()))
            .one(&*txn)
            .await?;
        if let Some(version) = same {
            return Ok(Imported { skill, version, existing: true });
        }
        let number = skill.latest_version + 1;
        let files: Vec<serde_json::Value> = package
            .files
            .iter()
            .map(|f| serde_json::json!({ "path": f.path, "size": f.size, "sha256": f.sha256 }))
            .collect();
        let manifest = package.manifest;
        let version = skill_version::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(actor.organization_id),
            skill_id: Set(skill.id),
            number: Set(number),
            digest: Set(package.digest),
            archive_sha256: Set(stored.sha256),
            archive_size: Set(size),
            description: Set(manifest.description),
            license: Set(manifest.license),
            compatibility: Set(manifest.compatibility),
            metadata: Set(serde_json::json!(manifest.metadata)),
            allowed_tools: Set(serde_json::json!(manifest.allowed_tools)),
            instructions: Set(package.instructions),
            files: Set(serde_json::Value::Array(files)),
            has_scripts: Set(package.has_scripts),
            signature: Set(signature),
            signature_status: Set(signature_status),
            signer_key_id: Set(signer_key_id),
            review_state: Set(review_state),
            review_reason: Set(None),
            reviewed_by: Set(None),
            imported_by: Set(Some(actor.user_id)),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&*txn)
        .await?;
        let mut active = skill.into_active_model();
        active.latest_version = Set(number);
        active.revision = Set(active.revision.as_ref() + 1);
        active.updated_at = Set(now);
        let skill = active.update(&*txn).await?;
        let imported = version_entry(actor, AuditAction::SkillImported, &skill, &version)
            .with("signature", version.signature_status.to_string())
            .with("review_state", version.review_state.to_string());
        self.audit.append(&*txn, imported).await?;
        txn.commit().await?;
        tracing::info!(skill = %skill.name, number, state = %version.review_state, signature = %version.signature_status, "skill imported");
        Ok(Imported { skill, version, existing: false })
    }

    /// Asks administrators to review a quarantined version.
    pub async fn request_review(
        &self,
        actor: &Actor,
        version_id: Uuid,
        reason: Option<String>,
    ) -> Result<skill_version::Model> {
        actor.authorize(Permission::WriteTasks, &ScopePath::organization(actor.organization_id), "organization")?;
        let reason = checked_reason(reason)?;
        let version = self.version(actor, version_id).await?;
        if version.review_state != ReviewState::Quarantined {
            return Err(SkillError::State {
                state: version.review_state,
                message: "only a quarantined version is sent for review",
            });
        }
        self.reviewed(actor, AuditAction::SkillReviewRequested, version, ReviewState::InReview, None, reason).await
    }

    /// An administrator approves or rejects a quarantined (or in review) version. Approving one
    /// not signed by a trusted key needs a reason: why it is trusted anyway.
    pub async fn review(
        &self,
        actor: &Actor,
        version_id: Uuid,
        decision: Decision,
        reason: Option<String>,
    ) -> Result<skill_version::Model> {
        actor.authorize(Permission::Administer, &ScopePath::organization(actor.organization_id), "organization")?;
        let reason = checked_reason(reason)?;
        let version = self.version(actor, version_id).await?;
        if !matches!(version.review_state, ReviewState::Quarantined | ReviewState::InReview) {
            return Err(SkillError::State {
                state: version.review_state,
                message: "only a quarantined version or one in review is reviewed",
            });
        }
        if decision == Decision::Approve && version.signature_status != SignatureStatus::Verified && reason.is_none() {
            return Err(CommonError::Validation {
                message: "approving a package no trusted key signed needs a reason".into(),
                details: serde_json::json!({ "argument": "reason", "signatureStatus": version.signature_status.to_string() }),
            }
            .into());
        }
        let state = match decision {
            Decision::Approve => ReviewState::Approved,
            Decision::Deny => ReviewState::Rejected,
        };
        self.reviewed(actor, AuditAction::SkillReviewed, version, state, Some(actor.user_id), reason).await
    }

    /// Moves a version to `state` and records it with `action`.
    async fn reviewed(
        &self,
        actor: &Actor,
        action: AuditAction,
        version: skill_version::Model,
        state: ReviewState,
        reviewer: Option<Uuid>,
        reason: Option<String>,
    ) -> Result<skill_version::Model> {
        let skill = self.skill(actor, version.skill_id).await?;
        let txn = self.db.begin_write().await?;
        let version = set_review(&*txn, version, state, reviewer, reason).await?;
        let recorded = version_entry(actor, action, &skill, &version)
            .with("review_state", state.to_string())
            .with("reason", version.review_reason.clone());
        self.audit.append(&*txn, recorded).await?;
        txn.commit().await?;
        Ok(version)
    }

    /// Withdraws an approved version: its activations end, and no run gets it again.
    pub async fn revoke(
        &self,
        actor: &Actor,
        version_id: Uuid,
        reason: Option<String>,
    ) -> Result<skill_version::Model> {
        actor.authorize(Permission::Administer, &ScopePath::organization(actor.organization_id), "organization")?;
        let reason = checked_reason(reason)?;
        let version = self.version(actor, version_id).await?;
        if version.review_state != ReviewState::Approved {
            return Err(SkillError::State {
                state: version.review_state,
                message: "only an approved version is revoked",
            });
        }
        let skill = self.skill(actor, version.skill_id).await?;
        let txn = self.db.begin_write().await?;
        let of_version = Condition::all().add(skill_activation::Column::SkillVersionId.eq(version.id));
        let cancelled = self.end_activations(&*txn, of_version).await?;
        let version = set_review(&*txn, version, ReviewState::Revoked, Some(actor.user_id), reason).await?;
        let revoked = version_entry(actor, AuditAction::SkillRevoked, &skill, &version)
            .with("reason", version.review_reason.clone());
        self.audit.append(&*txn, revoked).await?;
        txn.commit().await?;
        cancelled.iter().for_each(|a| self.approvals.announce(a));
        Ok(version)
    }

    /// Activates an approved version in an organization, workspace or project the caller
    /// administers, in place of any other version of the skill there. A package with scripts
    /// waits for an approval (`SKILL_ACTIVATION`) that another person decides.
    pub async fn activate(
        &self,
        actor: &Actor,
        version_id: Uuid,
        kind: ScopeKind,
        scope_id: Uuid,
    ) -> Result<(skill_activation::Model, Option<approval::Model>)> {
        let path = crate::identity::scope_path(&self.reads, actor, kind, scope_id).await?;
        actor.authorize(Permission::Administer, &path, "scope")?;
        let version = self.version(actor, version_id).await?;
        if version.review_state != ReviewState::Approved {
            return Err(SkillError::State {
                state: version.review_state,
                message: "only an approved version is activated",
            });
        }
        let skill = self.skill(actor, version.skill_id).await?;
        let txn = self.db.begin_write().await?;
        let earlier = Condition::all()
            .add(skill_activation::Column::SkillId.eq(skill.id))
            .add(skill_activation::Column::ScopeId.eq(scope_id));
        let cancelled = self.end_activations(&*txn, earlier).await?;
        let now = Utc::now();
        let status = if version.has_scripts { ActivationStatus::PendingApproval } else { ActivationStatus::Active };
        let activation = skill_activation::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(actor.organization_id),
            skill_version_id: Set(version.id),
            skill_id: Set(skill.id),
            workspace_id: Set(path.workspace_id),
            project_id: Set(path.project_id),
            scope_id: Set(scope_id),
            status: Set(status),
            activated_by: Set(Some(actor.user_id)),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&*txn)
        .await?;
        let asked = if version.has_scripts {
            let scripts: Vec<String> = files_of(&version).into_iter().filter(|p| p.starts_with("scripts/")).collect();
            let mut row = NewApproval {
                organization_id: actor.organization_id,
                workspace_id: path.workspace_id,
                project_id: path.project_id,
                subject: ApprovalSubject::SkillActivation,
                requested_by_user_id: Some(actor.user_id),
                action: format!(
                    "activate skill {} version {} with its scripts in this {}",
                    skill.name,
                    version.number,
                    kind.as_str()
                ),
                reason: None,
                details: serde_json::json!({
                    "skill": skill.name,
                    "version": version.number,
                    "digest": version.digest,
                    "scripts": scripts,
                    "scope": kind.as_str(),
                }),
                expires_at: now + ACTIVATION_APPROVAL_LIFETIME,
            }
            .row();
            row.skill_activation_id = Set(Some(activation.id));
            Some(approval::Entity::insert(row).exec_with_returning(&*txn).await?)
        } else {
            None
        };
        let activated = Entry::by(actor, AuditAction::SkillActivated)
            .on(AuditTargetKind::SkillActivation, activation.id)
            .at(&path)
            .with("skill", skill.name.as_str())
            .with("version", version.number)
            .with("status", status.to_string());
        self.audit.append(&*txn, activated).await?;
        txn.commit().await?;
        for closed in cancelled.iter().chain(asked.iter()) {
            self.approvals.announce(closed);
        }
        Ok((activation, asked))
    }

    /// Switches an activation off (or withdraws one waiting for approval).
    pub async fn deactivate(&self, actor: &Actor, activation_id: Uuid) -> Result<skill_activation::Model> {
        let activation = self.activation(actor, activation_id).await?;
        actor.authorize(Permission::Administer, &activation_path(&activation), "skill activation")?;
        let txn = self.db.begin_write().await?;
        let closed =
            self.end_activations(&*txn, Condition::all().add(skill_activation::Column::Id.eq(activation.id))).await?;
        let deactivated = Entry::by(actor, AuditAction::SkillDeactivated)
            .on(AuditTargetKind::SkillActivation, activation.id)
            .at(&activation_path(&activation));
        self.audit.append(&*txn, deactivated).await?;
        txn.commit().await?;
        closed.iter().for_each(|a| self.approvals.announce(a));
        self.activation(actor, activation_id).await
    }

    /// A person decides the approval of an activation with scripts: approving makes it active.
    /// Those who administer its scope decide, but not the person who activated it.
    pub async fn decide_activation(
        &self,
        actor: &Actor,
        approval: &approval::Model,
        decision: Decision,
        reason: Option<String>,
    ) -> Result<approval::Model> {
        let not_found = || CommonError::NotFound("approval of a skill activation");
        let id = approval.skill_activation_id.filter(|_| approval.subject == ApprovalSubject::SkillActivation);
        let activation = self.activation(actor, id.ok_or_else(not_found)?).await?;
        actor.authorize(Permission::Administer, &activation_path(&activation), "skill activation")?;
        if decision == Decision::Approve && activation.activated_by == Some(actor.user_id) {
            return Err(SkillError::OwnRequest);
        }
        let txn = self.db.begin_write().await?;
        let decided = self.approvals.decide(&*txn, actor, approval, decision, reason).await?;
        let status = if decided.status == ApprovalStatus::Approved {
            ActivationStatus::Active
        } else {
            ActivationStatus::Inactive
        };
        skill_activation::Entity::update_many()
            .col_expr(skill_activation::Column::Status, Expr::value(status))
            .col_expr(skill_activation::Column::Revision, Expr::value(activation.revision + 1))
            .col_expr(skill_activation::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(skill_activation::Column::Id.eq(activation.id))
            .filter(skill_activation::Column::Status.eq(ActivationStatus::PendingApproval))
            .exec(&*txn)
            .await?;
        txn.commit().await?;
        self.approvals.announce(&decided);
        Ok(decided)
    }

    /// The skills of the organization, oldest first.
    pub async fn skills(&self, actor: &Actor, page: &PageRequest) -> Result<Page<skill::Model>> {
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "organization")?;
        let select = skill::Entity::find().filter(skill::Column::OrganizationId.eq(actor.organization_id));
        Ok(paginate(&self.reads, select, skill::Column::Id, page, self.max_page_size).await?)
    }

    pub async fn skill(&self, actor: &Actor, id: Uuid) -> Result<skill::Model> {
        let select = skill::Entity::find_by_id(id).filter(skill::Column::OrganizationId.eq(actor.organization_id));
        let found = self.reads.one(select).await?.ok_or(CommonError::NotFound("skill"))?;
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "skill")?;
        Ok(found)
    }

    pub async fn version(&self, actor: &Actor, id: Uuid) -> Result<skill_version::Model> {
        let select = skill_version::Entity::find_by_id(id)
            .filter(skill_version::Column::OrganizationId.eq(actor.organization_id));
        let found = self.reads.one(select).await?.ok_or(CommonError::NotFound("skill version"))?;
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "skill version")?;
        Ok(found)
    }

    /// The organization's versions among `ids`, in the order of `ids`; those it has not are left out.
    pub async fn versions_by_id(&self, actor: &Actor, ids: &[Uuid]) -> Result<Vec<skill_version::Model>> {
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "skill version")?;
        let select = skill_version::Entity::find()
            .filter(skill_version::Column::OrganizationId.eq(actor.organization_id))
            .filter(skill_version::Column::Id.is_in(ids.iter().copied()));
        let found = self.reads.all(select).await?;
        Ok(ids.iter().filter_map(|id| found.iter().find(|v| v.id == *id).cloned()).collect())
    }

    /// The versions of the organization's skills `skill_ids`, newest first, by skill.
    pub async fn versions_of(
        &self,
        actor: &Actor,
        skill_ids: &[Uuid],
    ) -> Result<std::collections::HashMap<Uuid, Vec<skill_version::Model>>> {
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "skill")?;
        let select = skill_version::Entity::find()
            .filter(skill_version::Column::OrganizationId.eq(actor.organization_id))
            .filter(skill_version::Column::SkillId.is_in(skill_ids.iter().copied()))
            .order_by_desc(skill_version::Column::Number);
        let mut by_skill: std::collections::HashMap<Uuid, Vec<skill_version::Model>> = std::collections::HashMap::new();
        for version in self.reads.all(select).await? {
            by_skill.entry(version.skill_id).or_default().push(version);
        }
        Ok(by_skill)
    }

    pub async fn activation(&self, actor: &Actor, id: Uuid) -> Result<skill_activation::Model> {
        let select = skill_activation::Entity::find_by_id(id)
            .filter(skill_activation::Column::OrganizationId.eq(actor.organization_id));
        let found = self.reads.one(select).await?.ok_or(CommonError::NotFound("skill activation"))?;
        actor.authorize(Permission::Read, &activation_path(&found), "skill activation")?;
        Ok(found)
    }

    /// What applies in a scope: the activations there and in the scopes above it (a project's
    /// workspace and organization), not yet ended; for each skill the narrowest scope's.
    pub async fn activations(
        &self,
        actor: &Actor,
        kind: ScopeKind,
        scope_id: Uuid,
    ) -> Result<Vec<skill_activation::Model>> {
        let path = crate::identity::scope_path(&self.reads, actor, kind, scope_id).await?;
        actor.authorize(Permission::Read, &path, "scope")?;
        Ok(applying(&self.db, &path).await?)
    }

    /// Ends the activations `which` selects that have not ended, and cancels the approvals they
    /// were waiting for; returns those approvals, to announce once committed.
    async fn end_activations(&self, txn: &impl ConnectionTrait, which: Condition) -> Result<Vec<approval::Model>> {
        let open = skill_activation::Entity::find()
            .filter(which)
            .filter(skill_activation::Column::Status.ne(ActivationStatus::Inactive))
            .all(txn)
            .await?;
        if open.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<Uuid> = open.iter().map(|a| a.id).collect();
        skill_activation::Entity::update_many()
            .col_expr(skill_activation::Column::Status, Expr::value(ActivationStatus::Inactive))
            .col_expr(skill_activation::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(skill_activation::Column::Id.is_in(ids.iter().copied()))
            .exec(txn)
            .await?;
        let waiting = Condition::all().add(approval::Column::SkillActivationId.is_in(ids));
        Ok(self.approvals.close_pending(txn, waiting, ApprovalStatus::Cancelled, "the activation ended").await?)
    }

    /// A publisher key of the organization.
    pub async fn key(&self, actor: &Actor, id: Uuid) -> Result<skill_publisher_key::Model> {
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "skill publisher key")?;
        self.key_in(actor, id).await
    }

    async fn key_in(&self, actor: &Actor, id: Uuid) -> Result<skill_publisher_key::Model> {
        let select = skill_publisher_key::Entity::find_by_id(id)
            .filter(skill_publisher_key::Column::OrganizationId.eq(actor.organization_id));
        Ok(self.reads.one(select).await?.ok_or(CommonError::NotFound("skill publisher key"))?)
    }
}

/// The activations that apply at `path`: its own and its parents', not ended; for each skill the
/// narrowest scope's.
async fn applying(
    conn: &impl ConnectionTrait,
    path: &ScopePath,
) -> Result<Vec<skill_activation::Model>, sea_orm::DbErr> {
    Ok(narrowest(open_activations(conn, path).await?, |a| (a.skill_id, scope_depth(a))))
}

/// The activations of `path` and its parents that are not ended, oldest first.
async fn open_activations(
    conn: &impl ConnectionTrait,
    path: &ScopePath,
) -> Result<Vec<skill_activation::Model>, sea_orm::DbErr> {
    let scopes = [Some(path.organization_id), path.workspace_id, path.project_id];
    skill_activation::Entity::find()
        .filter(skill_activation::Column::OrganizationId.eq(path.organization_id))
        .filter(skill_activation::Column::ScopeId.is_in(scopes.into_iter().flatten()))
        .filter(skill_activation::Column::Status.ne(ActivationStatus::Inactive))
        .order_by_asc(skill_activation::Column::Id)
        .all(conn)
        .await
}

/// Of `items` (oldest first), for each skill the one of the narrowest scope, the newest of equals;
/// `key` gives an item's skill and scope depth.
fn narrowest<T>(items: Vec<T>, key: impl Fn(&T) -> (Uuid, u8)) -> Vec<T> {
    let mut kept: Vec<T> = Vec::new();
    for item in items {
        let (skill, depth) = key(&item);
        match kept.iter_mut().find(|k| key(k).0 == skill) {
            Some(held) if key(held).1 <= depth => *held = item,
            Some(_) => {}
            None => kept.push(item),
        }
    }
    kept
}

/// A skill version switched on in a scope itself (not inherited): one of its skill selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Selected {
    pub skill_id: Uuid,
    pub version_id: Uuid,
}

/// A scope's skill selection as a run should see it instead of the scope's own activations: a
/// candidate's side.
#[derive(Debug, Clone, Copy)]
pub struct ReplacedSelection<'a> {
    pub scope_id: Uuid,
    pub kind: ScopeKind,
    pub selection: &'a [Selected],
}

/// Makes `selection` the skill selection of the scope at `path` (`scope_id`), on `conn` (a
/// candidate being applied): each skill's activation there that differs ends, and each selected
/// version not active there is switched on. Versions are checked by the caller.
pub async fn set_selection(
    conn: &impl ConnectionTrait,
    path: &ScopePath,
    scope_id: Uuid,
    selection: &[Selected],
    by: Uuid,
) -> Result<(), sea_orm::DbErr> {
    let current = self::selection(conn, scope_id).await?;
    let now = Utc::now();
    let ended: Vec<Uuid> = current.iter().filter(|c| !selection.contains(c)).map(|c| c.skill_id).collect();
    let started: Vec<&Selected> = selection.iter().filter(|s| !current.contains(s)).collect();
    let replaced = started.iter().map(|s| s.skill_id);
    skill_activation::Entity::update_many()
        .col_expr(skill_activation::Column::Status, Expr::value(ActivationStatus::Inactive))
        .col_expr(skill_activation::Column::Revision, Expr::col(skill_activation::Column::Revision).add(1))
        .col_expr(skill_activation::Column::UpdatedAt, Expr::value(now))
        .filter(skill_activation::Column::ScopeId.eq(scope_id))
        .filter(skill_activation::Column::Status.ne(ActivationStatus::Inactive))
        .filter(skill_activation::Column::SkillId.is_in(ended.into_iter().chain(replaced)))
        .exec(conn)
        .await?;
    for selected in started {
        skill_activation::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(path.organization_id),
            skill_version_id: Set(selected.version_id),
            skill_id: Set(selected.skill_id),
            workspace_id: Set(path.workspace_id),
            project_id: Set(path.project_id),
            scope_id: Set(scope_id),
            status: Set(ActivationStatus::Active),
            activated_by: Set(Some(by)),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(conn)
        .await?;
    }
    Ok(())
}

/// The versions among `version_ids` a candidate may switch on without a review of its own: the
/// organization's, approved, without scripts (activating scripts needs its own approval). Any
/// other is `VALIDATION`, naming it.
pub async fn selectable(
    reads: &Reads,
    organization_id: Uuid,
    version_ids: &[Uuid],
) -> Result<Vec<Selected>, CommonError> {
    let versions = reads
        .all(
            skill_version::Entity::find()
                .filter(skill_version::Column::OrganizationId.eq(organization_id))
                .filter(skill_version::Column::Id.is_in(version_ids.iter().copied())),
        )
        .await?;
    let mut selected = Vec::with_capacity(version_ids.len());
    for (index, id) in version_ids.iter().enumerate() {
        let refused = |message: &str| CommonError::Validation {
            message: message.to_owned(),
            details: serde_json::json!({ "argument": "activateSkillVersionIds", "index": index }),
        };
        let version = versions.iter().find(|v| v.id == *id).ok_or_else(|| refused("no such skill version"))?;
        if version.review_state != ReviewState::Approved {
            return Err(refused("only an approved version can be switched on"));
        }
        if version.has_scripts {
            return Err(refused(
                "a package with scripts is switched on with activateSkill, which asks for its own approval",
            ));
        }
        selected.push(Selected { skill_id: version.skill_id, version_id: version.id });
    }
    Ok(selected)
}

/// The skill selection of `scope_id` itself: its active activations, by skill.
pub async fn selection(conn: &impl ConnectionTrait, scope_id: Uuid) -> Result<Vec<Selected>, sea_orm::DbErr> {
    let active = skill_activation::Entity::find()
        .filter(skill_activation::Column::ScopeId.eq(scope_id))
        .filter(skill_activation::Column::Status.eq(ActivationStatus::Active))
        .order_by_asc(skill_activation::Column::Id)
        .all(conn)
        .await?;
    let mut selected: Vec<Selected> =
        active.into_iter().map(|a| Selected { skill_id: a.skill_id, version_id: a.skill_version_id }).collect();
    selected.sort_by_key(|s| s.skill_id);
    Ok(selected)
}

/// Freezes into a run starting in `project` the skill versions active there (approved, and not
/// waiting for an approval), in `txn` with the run's own insert: what it was started with stays,
/// whatever is activated later. With `replaced`, that scope's own activations count as its
/// selection says instead.
pub async fn freeze_for_run(
    txn: &impl ConnectionTrait,
    project: &project::Model,
    run_id: Uuid,
    replaced: Option<ReplacedSelection<'_>>,
) -> Result<Vec<run_skill::Model>, sea_orm::DbErr> {
    let path = ScopePath::project(project.organization_id, project.workspace_id, project.id);
    // (skill, version, scope depth, active)
    let mut open: Vec<(Uuid, Uuid, u8, bool)> = open_activations(txn, &path)
        .await?
        .into_iter()
        .filter(|a| replaced.is_none_or(|r| a.scope_id != r.scope_id))
        .map(|a| (a.skill_id, a.skill_version_id, scope_depth(&a), a.status == ActivationStatus::Active))
        .collect();
    if let Some(replaced) = replaced {
        let depth = match replaced.kind {
            ScopeKind::Organization => 0,
            ScopeKind::Workspace => 1,
            ScopeKind::Project => 2,
        };
        open.extend(replaced.selection.iter().map(|s| (s.skill_id, s.version_id, depth, true)));
    }
    let active: Vec<Uuid> =
        narrowest(open, |&(skill, _, depth, _)| (skill, depth)).into_iter().filter(|a| a.3).map(|a| a.1).collect();
    if active.is_empty() {
        return Ok(Vec::new());
    }
    let versions = skill_version::Entity::find()
        .filter(skill_version::Column::Id.is_in(active))
        .filter(skill_version::Column::ReviewState.eq(ReviewState::Approved))
        .all(txn)
        .await?;
    let names: std::collections::HashMap<Uuid, String> = skill::Entity::find()
        .filter(skill::Column::Id.is_in(versions.iter().map(|v| v.skill_id)))
        .all(txn)
        .await?
        .into_iter()
        .map(|s| (s.id, s.name))
        .collect();
    let now = Utc::now();
    let mut frozen = Vec::new();
    for version in versions {
        let row = run_skill::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(version.organization_id),
            run_id: Set(run_id),
            skill_id: Set(version.skill_id),
            skill_version_id: Set(version.id),
            name: Set(names.get(&version.skill_id).cloned().unwrap_or_default()),
            number: Set(version.number),
            digest: Set(version.digest),
            archive_sha256: Set(version.archive_sha256),
            created_at: Set(now),
        };
        frozen.push(row.insert(txn).await?);
    }
    Ok(frozen)
}

/// The skill versions `run_id` was started with, as its connector is told them.
pub async fn frozen_for_run(reads: &Reads, run_id: Uuid) -> Result<Vec<RunSkill>, sea_orm::DbErr> {
    let frozen = reads
        .all(
            run_skill::Entity::find().filter(run_skill::Column::RunId.eq(run_id)).order_by_asc(run_skill::Column::Name),
        )
        .await?;
    Ok(frozen
        .into_iter()
        .map(|s| RunSkill { skill_version_id: s.skill_version_id, name: s.name, digest: s.digest })
        .collect())
}

/// Ends the activations whose approvals `closed` ended without a decision (nobody decided in
/// time): an activation waits for its approval, never longer.
pub async fn approvals_closed(conn: &impl ConnectionTrait, closed: &[approval::Model]) -> Result<(), sea_orm::DbErr> {
    let waiting: Vec<Uuid> = closed
        .iter()
        .filter(|a| a.subject == ApprovalSubject::SkillActivation)
        .filter_map(|a| a.skill_activation_id)
        .collect();
    if waiting.is_empty() {
        return Ok(());
    }
    skill_activation::Entity::update_many()
        .col_expr(skill_activation::Column::Status, Expr::value(ActivationStatus::Inactive))
        .col_expr(skill_activation::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(skill_activation::Column::Id.is_in(waiting))
        .filter(skill_activation::Column::Status.eq(ActivationStatus::PendingApproval))
        .exec(conn)
        .await
        .map(drop)
}

async fn set_review(
    conn: &impl ConnectionTrait,
    version: skill_version::Model,
    state: ReviewState,
    reviewed_by: Option<Uuid>,
    reason: Option<String>,
) -> Result<skill_version::Model, sea_orm::DbErr> {
    let mut active = version.into_active_model();
    active.review_state = Set(state);
    active.reviewed_by = Set(reviewed_by);
    active.review_reason = Set(reason);
    active.revision = Set(active.revision.as_ref() + 1);
    active.updated_at = Set(Utc::now());
    active.update(conn).await
}

/// The paths of a version's files.
fn files_of(version: &skill_version::Model) -> Vec<String> {
    let files = version.files.as_array().map(Vec::as_slice).unwrap_or_default();
    files.iter().filter_map(|f| f["path"].as_str().map(str::to_owned)).collect()
}

fn key_entry(actor: &Actor, action: AuditAction, key: &skill_publisher_key::Model) -> Entry {
    Entry::by(actor, action)
        .on(AuditTargetKind::SkillPublisherKey, key.id)
        .with("name", key.name.as_str())
        .with("key_id", key.key_id.as_str())
}

fn version_entry(actor: &Actor, action: AuditAction, skill: &skill::Model, version: &skill_version::Model) -> Entry {
    Entry::by(actor, action)
        .on(AuditTargetKind::SkillVersion, version.id)
        .with("skill", skill.name.as_str())
        .with("version", version.number)
}

fn activation_path(activation: &skill_activation::Model) -> ScopePath {
    match (activation.workspace_id, activation.project_id) {
        (Some(workspace), Some(project)) => ScopePath::project(activation.organization_id, workspace, project),
        (Some(workspace), None) => ScopePath::workspace(activation.organization_id, workspace),
        _ => ScopePath::organization(activation.organization_id),
    }
}

/// How narrow an activation's scope is: organization 0, workspace 1, project 2.
fn scope_depth(activation: &skill_activation::Model) -> u8 {
    u8::from(activation.workspace_id.is_some()) + u8::from(activation.project_id.is_some())
}

fn internal(e: impl std::fmt::Display) -> CommonError {
    CommonError::Internal(e.to_string())
}
