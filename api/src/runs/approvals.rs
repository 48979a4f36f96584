//! Approvals: an agent asks before an action and the run waits; a person approves or denies. An
//! approved action gets a short-lived, single-use token bound to the run, the connector, the
//! request and the action, which the connector verifies before it lets the agent go on.

use std::collections::HashSet;

use acc_entity::approval::ApprovalStatus::{self, *};
use acc_entity::{approval, run_attempt, run_event};
use acc_protocol::{APPROVAL_AUDIENCE, ApprovalClaims, ApprovalKey, Command};
use base64::Engine;
use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use uuid::Uuid;

use super::state::RunStatus;
use super::{Result, RunError, RunService};
use crate::broker::{Event, Topic};
use crate::error::{CommonError, is_unique_violation};
use crate::identity::actor::Actor;
use crate::identity::keys::ISSUER;
use crate::ids::new_id;

/// The longest reason a person may give.
const MAX_REASON_CHARS: usize = 2000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Approve,
    Deny,
}

/// Whose approvals a subscriber may see, decided when it subscribes.
#[derive(Debug, Clone)]
pub enum ApprovalAudience {
    /// Every project of the organization.
    Organization(Uuid),
    /// These projects only.
    Projects(HashSet<Uuid>),
}

impl ApprovalAudience {
    pub fn admits(&self, approval: &approval::Model) -> bool {
        match self {
            ApprovalAudience::Organization(org) => approval.organization_id == *org,
            ApprovalAudience::Projects(projects) => projects.contains(&approval.project_id),
        }
    }
}

impl RunService {
    /// An adapter asked for approval (`approval_requested {request_id, action, reason?, details?}`):
    /// a pending Approval, and the run waits for it.
    pub(super) async fn approval_requested(&self, event: &run_event::Model, attempt_id: Uuid) -> Result<()> {
        let text = |key: &str| event.data.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        let Some(request_id) = text("request_id") else {
            tracing::warn!(run_id = %event.run_id, "an approval request without a request_id; nobody could answer it");
            return Ok(());
        };
        let run = self.load(event.run_id).await?;
        let status = RunStatus::from_stored(&run.status);
        let current = self.current_attempt(run.id).await?.is_some_and(|a| a.id == attempt_id);
        if !current || !matches!(status, RunStatus::Running | RunStatus::WaitingApproval) {
            return Ok(());
        }
        let action = text("action").unwrap_or_else(|| "(the agent did not say)".to_owned());
        let now = Utc::now();
        let inserted = approval::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(run.organization_id),
            project_id: Set(run.project_id),
            run_id: Set(run.id),
            attempt_id: Set(attempt_id),
            request_id: Set(request_id),
            action: Set(action.clone()),
            reason: Set(text("reason")),
            details: Set(event.data.get("details").cloned().unwrap_or(serde_json::Value::Null)),
            status: Set(Pending),
            expires_at: Set(now + self.policy.approval_timeout),
            decided_by: Set(None),
            decided_at: Set(None),
            decision_reason: Set(None),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&self.db)
        .await;
        let approval = match inserted {
            Ok(approval) => approval,
            // Already recorded: this is a resent event.
            Err(e) if is_unique_violation(&e) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        tracing::info!(run_id = %run.id, approval_id = %approval.id, %action, "approval requested");
        self.announce(&approval);
        if status == RunStatus::Running {
            self.set_status(run.id, RunStatus::WaitingApproval, Some(format!("approval requested: {action}"))).await?;
        }
        Ok(())
    }

    /// The public keys approval tokens are signed with, for the connectors that verify them.
    pub fn approval_keys(&self) -> Vec<ApprovalKey> {
        let base64 = base64::engine::general_purpose::STANDARD;
        self.keys
            .public_keys()
            .into_iter()
            .map(|(kid, key)| ApprovalKey { kid, public_key: base64.encode(key) })
            .collect()
    }

    fn announce(&self, approval: &approval::Model) {
        self.broker.publish(Topic::OrganizationApprovals(approval.organization_id), Event::Approval(approval.clone()));
    }

    /// A person decides a pending approval. Approving issues the token the connector verifies;
    /// either way the agent is told, and the run goes on once nothing else awaits a decision.
    pub async fn decide_approval(
        &self,
        actor: &Actor,
        id: Uuid,
        decision: Decision,
        reason: Option<String>,
    ) -> Result<approval::Model> {
        let approval = self.reader.approval(actor, id).await?;
        self.operable_run(actor, approval.run_id).await?;
        let reason = reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
        if reason.as_ref().is_some_and(|r| r.chars().count() > MAX_REASON_CHARS) {
            return Err(CommonError::validation(format!("a reason has at most {MAX_REASON_CHARS} characters")).into());
        }
        if approval.status != Pending {
            return Err(RunError::ApprovalClosed { status: approval.status });
        }
        let now = Utc::now();
        if approval.expires_at <= now {
            return Err(RunError::ApprovalClosed { status: Expired });
        }
        let status = match decision {
            Decision::Approve => Approved,
            Decision::Deny => Denied,
        };
        let decided = approval::Entity::update_many()
            .col_expr(approval::Column::Status, Expr::value(status))
            .col_expr(approval::Column::DecidedBy, Expr::value(actor.user_id))
            .col_expr(approval::Column::DecidedAt, Expr::value(now))
            .col_expr(approval::Column::DecisionReason, Expr::value(reason))
            .col_expr(approval::Column::Revision, Expr::value(approval.revision + 1))
            .col_expr(approval::Column::UpdatedAt, Expr::value(now))
            .filter(approval::Column::Id.eq(id))
            .filter(approval::Column::Status.eq(Pending))
            .exec(&self.db)
            .await?;
        let approval = self.reader.approval(actor, id).await?;
        if decided.rows_affected == 0 {
            // Someone else decided it (or it expired) in between.
            return Err(RunError::ApprovalClosed { status: approval.status });
        }
        tracing::info!(run_id = %approval.run_id, approval_id = %id, %status, "approval decided");
        self.announce(&approval);
        self.send_decision(&approval).await?;
        self.resume_if_answered(approval.run_id, &format!("{status}: {}", approval.action)).await?;
        Ok(approval)
    }

    /// Tells the agent's connector how an approval was decided. The command id is the approval
    /// id, so sending it again (after a reconnect) is harmless.
    async fn send_decision(&self, approval: &approval::Model) -> Result<()> {
        let Some(attempt) = self.reads.one(run_attempt::Entity::find_by_id(approval.attempt_id)).await? else {
            return Ok(());
        };
        let approved = approval.status == Approved;
        let approval_token = if approved {
            let iat = Utc::now().timestamp();
            let lifetime = self.policy.approval_token.as_secs().max(1) as i64;
            let claims = ApprovalClaims {
                iss: ISSUER.to_owned(),
                aud: APPROVAL_AUDIENCE.to_owned(),
                sub: approval.id.to_string(),
                jti: approval.id.to_string(),
                run_id: approval.run_id,
                connector_id: attempt.connector_id,
                request_id: approval.request_id.clone(),
                action: approval.action.clone(),
                iat,
                exp: iat + lifetime,
            };
            Some(self.keys.sign(&claims).map_err(|e| CommonError::Internal(e.to_string()))?)
        } else {
            None
        };
        let reason = approval.decision_reason.clone();
        let command = Command::ApprovalDecision {
            run_id: approval.run_id,
            approval_id: approval.id,
            request_id: approval.request_id.clone(),
            approved,
            reason,
            approval_token,
        };
        if !self.send_command(attempt.connector_id, approval.run_id, approval.id, command) {
            tracing::info!(approval_id = %approval.id, "the connector is offline; the decision goes out when it reconnects");
        }
        Ok(())
    }

    /// Resends the decisions of an attempt's approvals (its connector reconnected).
    pub(super) async fn resend_decisions(&self, attempt: &run_attempt::Model) -> Result<()> {
        let decided = self
            .reads
            .all(
                approval::Entity::find()
                    .filter(approval::Column::AttemptId.eq(attempt.id))
                    .filter(approval::Column::Status.is_in([Approved, Denied, Expired])),
            )
            .await?;
        for approval in &decided {
            self.send_decision(approval).await?;
        }
        Ok(())
    }

    /// A run waiting for approval goes on once no approval of it is pending.
    async fn resume_if_answered(&self, run_id: Uuid, reason: &str) -> Result<()> {
        let pending = approval::Entity::find()
            .filter(approval::Column::RunId.eq(run_id))
            .filter(approval::Column::Status.eq(Pending))
            .count(&self.db)
            .await?;
        if pending == 0 {
            self.set_status_if(run_id, RunStatus::WaitingApproval, RunStatus::Running, Some(reason.to_owned())).await?;
        }
        Ok(())
    }

    /// Closes a run's pending approvals without a decision (the run ended, or was cancelled).
    pub(super) async fn close_pending_approvals(
        &self,
        run_id: Uuid,
        status: ApprovalStatus,
        reason: &str,
    ) -> Result<()> {
        let pending = self
            .reads
            .all(
                approval::Entity::find()
                    .filter(approval::Column::RunId.eq(run_id))
                    .filter(approval::Column::Status.eq(Pending)),
            )
            .await?;
        for approval in pending {
            if let Some(closed) = self.close_approval(&approval, status, reason).await? {
                self.announce(&closed);
            }
        }
        Ok(())
    }

    /// Moves a pending approval to `status` without a person's decision; `None` if it was no
    /// longer pending.
    async fn close_approval(
        &self,
        approval: &approval::Model,
        status: ApprovalStatus,
        reason: &str,
    ) -> Result<Option<approval::Model>> {
        let now = Utc::now();
        let closed = approval::Entity::update_many()
            .col_expr(approval::Column::Status, Expr::value(status))
            .col_expr(approval::Column::DecidedAt, Expr::value(now))
            .col_expr(approval::Column::DecisionReason, Expr::value(reason))
            .col_expr(approval::Column::Revision, Expr::value(approval.revision + 1))
            .col_expr(approval::Column::UpdatedAt, Expr::value(now))
            .filter(approval::Column::Id.eq(approval.id))
            .filter(approval::Column::Status.eq(Pending))
            .exec(&self.db)
            .await?;
        if closed.rows_affected == 0 {
            return Ok(None);
        }
        Ok(self.reads.one(approval::Entity::find_by_id(approval.id)).await?)
    }

    /// Expires approvals nobody decided in time: the agent is told (as a denial) and the run goes on.
    pub(super) async fn expire_approvals(&self) -> Result<()> {
        let overdue = self
            .reads
            .all(
                approval::Entity::find()
                    .filter(approval::Column::Status.eq(Pending))
                    .filter(approval::Column::ExpiresAt.lt(Utc::now())),
            )
            .await?;
        for approval in overdue {
            let Some(expired) = self.close_approval(&approval, Expired, "nobody decided in time").await? else {
                continue;
            };
            tracing::info!(run_id = %expired.run_id, approval_id = %expired.id, "approval expired");
            self.announce(&expired);
            self.send_decision(&expired).await?;
            self.resume_if_answered(expired.run_id, &format!("expired: {}", expired.action)).await?;
        }
        Ok(())
    }
}
