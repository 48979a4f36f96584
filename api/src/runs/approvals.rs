//! Approvals: an agent asks before an action and the run waits; a person approves or denies. An
//! approved action gets a short-lived, single-use token bound to the run, the connector, the
//! request and the action, which the connector verifies before it lets the agent go on.

use acc_entity::approval::ApprovalStatus::{self, *};
use acc_entity::approval::ApprovalSubject;
use acc_entity::{approval, run_attempt, run_event};
use acc_protocol::{APPROVAL_AUDIENCE, ApprovalClaims, ApprovalKey, Command};
use base64::Engine;
use chrono::Utc;
use sea_orm::{ActiveModelTrait, ColumnTrait, Condition, EntityTrait, PaginatorTrait, QueryFilter, Set};
use uuid::Uuid;

use super::state::RunStatus;
use super::{Result, RunService};
use crate::approvals::{Decision, NewApproval};
use crate::error::{CommonError, is_unique_violation};
use crate::identity::actor::Actor;
use crate::identity::keys::ISSUER;

/// An approval of an agent's action, with the run, attempt and request it is bound to.
pub(super) struct RunBound<'a> {
    pub approval: &'a approval::Model,
    pub run_id: Uuid,
    pub attempt_id: Uuid,
    pub request_id: &'a str,
}

impl<'a> RunBound<'a> {
    /// `None` for an approval of anything else.
    pub fn of(approval: &'a approval::Model) -> Option<Self> {
        match (approval.subject, approval.run_id, approval.attempt_id, approval.request_id.as_deref()) {
            (ApprovalSubject::RunAction, Some(run_id), Some(attempt_id), Some(request_id)) => {
                Some(Self { approval, run_id, attempt_id, request_id })
            }
            _ => None,
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
        let project = self.reader.project_of(&run).await?;
        let mut row = NewApproval {
            organization_id: run.organization_id,
            workspace_id: Some(project.workspace_id),
            project_id: Some(run.project_id),
            subject: ApprovalSubject::RunAction,
            requested_by_user_id: None,
            action: action.clone(),
            reason: text("reason"),
            details: event.data.get("details").cloned().unwrap_or(serde_json::Value::Null),
            expires_at: Utc::now() + self.policy.approval_timeout,
        }
        .row();
        row.run_id = Set(Some(run.id));
        row.attempt_id = Set(Some(attempt_id));
        row.request_id = Set(Some(request_id));
        let inserted = row.insert(&self.db).await;
        let approval = match inserted {
            Ok(approval) => approval,
            // Already recorded: this is a resent event.
            Err(e) if is_unique_violation(&e) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        tracing::info!(run_id = %run.id, approval_id = %approval.id, %action, "approval requested");
        self.approvals.announce(&approval);
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

    /// A person decides a pending approval of an agent's action. Approving issues the token the
    /// connector verifies; either way the agent is told, and the run goes on once nothing else
    /// awaits a decision.
    pub async fn decide_approval(
        &self,
        actor: &Actor,
        approval: &approval::Model,
        decision: Decision,
        reason: Option<String>,
    ) -> Result<approval::Model> {
        let bound = RunBound::of(approval).ok_or(CommonError::NotFound("approval of a run's action"))?;
        self.operable_run(actor, bound.run_id).await?;
        let decided = self.approvals.decide(&self.db, actor, approval, decision, reason).await?;
        tracing::info!(run_id = %bound.run_id, approval_id = %decided.id, status = %decided.status, "approval decided");
        self.approvals.announce(&decided);
        self.send_decision(&decided).await?;
        self.resume_if_answered(bound.run_id, &format!("{}: {}", decided.status, decided.action)).await?;
        Ok(decided)
    }

    /// Tells the agent's connector how an approval was decided. The command id is the approval
    /// id, so sending it again (after a reconnect) is harmless.
    async fn send_decision(&self, approval: &approval::Model) -> Result<()> {
        let Some(bound) = RunBound::of(approval) else {
            return Ok(());
        };
        let Some(attempt) = self.reads.one(run_attempt::Entity::find_by_id(bound.attempt_id)).await? else {
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
                run_id: bound.run_id,
                connector_id: attempt.connector_id,
                request_id: bound.request_id.to_owned(),
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
            run_id: bound.run_id,
            approval_id: approval.id,
            request_id: bound.request_id.to_owned(),
            approved,
            reason,
            approval_token,
        };
        if !self.send_command(attempt.connector_id, bound.run_id, approval.id, command) {
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
        let of_run = Condition::all().add(approval::Column::RunId.eq(run_id));
        for closed in self.approvals.close_pending(&self.db, of_run, status, reason).await? {
            self.approvals.announce(&closed);
        }
        Ok(())
    }

    /// Expires approvals nobody decided in time, of any subject; each agent whose request expired
    /// is told (as a denial) and its run goes on.
    pub(super) async fn expire_approvals(&self) -> Result<()> {
        // The sweeper is the one clock: an activation waiting for an expired approval ends in the
        // same transaction, so nobody reads the one closed and the other still waiting.
        let txn = self.db.begin_write().await?;
        let expired = self.approvals.expire_overdue(&*txn).await?;
        crate::skills::approvals_closed(&*txn, &expired).await?;
        txn.commit().await?;
        for expired in expired {
            self.approvals.announce(&expired);
            let Some(bound) = RunBound::of(&expired) else { continue };
            tracing::info!(run_id = %bound.run_id, approval_id = %expired.id, "approval expired");
            self.send_decision(&expired).await?;
            self.resume_if_answered(bound.run_id, &format!("expired: {}", expired.action)).await?;
        }
        Ok(())
    }
}
