//! The audit trail (SPEC §16): an append-only record of every security and lifecycle action, one
//! hash chain per organization.
//!
//! Services append an [`Entry`] in the transaction of the action it records, so the event exists
//! exactly when the action does. Each event carries the hash of the one before it over a
//! canonical encoding ([`event_hash`]); the organization's head row, locked by every append, makes
//! the chain take one event at a time on any number of replicas. Checkpoints sign the chain's hash
//! at a sequence with the server's audit key, which lives in the data dir, not the database: a
//! row edited, deleted, reordered or inserted breaks a hash or a link, and whoever recomputes the
//! hashes after editing still cannot forge the checkpoints. [`AuditLog::verify`] names the first
//! broken link.

pub mod graphql;

use std::future::Future;
use std::sync::Arc;

use acc_entity::audit_event::{self, AuditAction, AuditActorKind, AuditTargetKind};
use acc_entity::{audit_checkpoint, audit_head};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, SubsecRound, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::db::{Pool, Reads, Store};
use crate::error::CommonError;
use crate::identity::actor::{Actor, Permission, ScopePath};
use crate::identity::keys::SigningKeys;
use crate::ids::new_id;
use crate::pagination::{Page, PageRequest, paginate};
use crate::runs::ActingRun;

/// The `previous_hash` of an organization's first event.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// A chain is checkpointed at least every this many events…
const CHECKPOINT_EVERY: i64 = 100;
/// …and, when it grew, at least this often (by the next append, or the checkpoint sweep).
pub const CHECKPOINT_INTERVAL: std::time::Duration = std::time::Duration::from_secs(60);

/// How many events a verification reads at a time.
const VERIFY_BATCH: u64 = 1000;

tokio::task_local! {
    static CORRELATION_ID: String;
}

/// Runs `work` with `correlation_id` as the correlation id of what it appends to the trail.
pub async fn correlated<F: Future>(correlation_id: String, work: F) -> F::Output {
    CORRELATION_ID.scope(correlation_id, work).await
}

/// Who acted, as the trail records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditActor {
    /// A person; `api_token_id` when they acted through one of their API tokens.
    User {
        user_id: Uuid,
        api_token_id: Option<Uuid>,
    },
    Connector(Uuid),
    /// An agent, through the tools of the run it works on.
    Agent {
        agent_id: Uuid,
        run_id: Uuid,
    },
    System,
    /// Someone not signed in.
    Anonymous,
}

impl AuditActor {
    fn stored(self) -> (AuditActorKind, Option<Uuid>) {
        match self {
            AuditActor::User { user_id, .. } => (AuditActorKind::User, Some(user_id)),
            AuditActor::Connector(id) => (AuditActorKind::Connector, Some(id)),
            AuditActor::Agent { agent_id, .. } => (AuditActorKind::Agent, Some(agent_id)),
            AuditActor::System => (AuditActorKind::System, None),
            AuditActor::Anonymous => (AuditActorKind::Anonymous, None),
        }
    }
}

impl From<&Actor> for AuditActor {
    fn from(actor: &Actor) -> Self {
        AuditActor::User { user_id: actor.user_id, api_token_id: actor.api_token_id }
    }
}

impl From<&ActingRun> for AuditActor {
    fn from(acting: &ActingRun) -> Self {
        AuditActor::Agent { agent_id: acting.agent_id, run_id: acting.run.id }
    }
}

/// What a service records: who did what to what, where. The trail adds when, the correlation id
/// of the request or command, and the chain.
#[derive(Debug, Clone)]
pub struct Entry {
    pub actor: AuditActor,
    pub action: AuditAction,
    pub target: Option<(AuditTargetKind, Uuid)>,
    /// Where it happened: the organization whose chain it joins, and a workspace or project of it.
    pub scope: ScopePath,
    /// Names, reasons, changed keys: what says what happened, never a secret or content.
    pub details: Map<String, Value>,
}

impl Entry {
    /// What `actor` did in organization `organization_id`.
    pub fn new(organization_id: Uuid, actor: AuditActor, action: AuditAction) -> Self {
        Self { actor, action, target: None, scope: ScopePath::organization(organization_id), details: Map::new() }
    }

    /// What `actor` did in their own organization.
    pub fn by(actor: &Actor, action: AuditAction) -> Self {
        Self::new(actor.organization_id, actor.into(), action)
    }

    pub fn on(mut self, kind: AuditTargetKind, id: Uuid) -> Self {
        self.target = Some((kind, id));
        self
    }

    /// Where it happened, when in a workspace or project (of the entry's organization).
    pub fn at(mut self, path: &ScopePath) -> Self {
        debug_assert_eq!(path.organization_id, self.scope.organization_id);
        self.scope = *path;
        self
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.details.insert(key.to_owned(), value.into());
        self
    }
}

/// What a verification found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verification {
    /// Events read, in sequence, up to the first broken link or the end.
    pub events: i64,
    /// Signed checkpoints checked.
    pub checkpoints: i64,
    pub first_broken: Option<BrokenLink>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLink {
    /// The sequence where the chain stops holding.
    pub sequence: i64,
    pub problem: Problem,
}

/// What is wrong where a chain stops holding (`AuditProblem` in GraphQL says each in words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    Missing,
    Altered,
    Unlinked,
    Rewritten,
    ForgedCheckpoint,
    Appended,
}

/// Which events a reader asks for.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub actions: Vec<AuditAction>,
    pub actor_id: Option<Uuid>,
    pub target_id: Option<Uuid>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
}

/// Proof that the caller may read their organization's trail (its administrators).
#[derive(Clone)]
pub struct AuditReader {
    organization_id: Uuid,
}

#[derive(Clone)]
pub struct AuditLog {
    db: Pool,
    reads: Reads,
    keys: Arc<SigningKeys>,
}

impl AuditLog {
    pub fn new(store: &Store, keys: Arc<SigningKeys>) -> Self {
        Self { db: store.pool.clone(), reads: store.reads.clone(), keys }
    }

    /// Appends `entry` to its organization's chain on `txn`, the transaction of the action it
    /// records, and checkpoints the chain when it is due.
    pub async fn append(&self, txn: &impl ConnectionTrait, entry: Entry) -> Result<(), DbErr> {
        let now = Utc::now().trunc_subsecs(6);
        let organization_id = entry.scope.organization_id;
        let head = locked_head(txn, organization_id).await?;
        let (actor_kind, actor_id) = entry.actor.stored();
        let mut details = entry.details;
        match entry.actor {
            AuditActor::User { api_token_id: Some(token), .. } => {
                details.insert("api_token_id".into(), token.to_string().into());
            }
            AuditActor::Agent { run_id, .. } => {
                details.insert("run_id".into(), run_id.to_string().into());
            }
            _ => {}
        }
        let mut event = audit_event::Model {
            id: new_id(),
            organization_id,
            sequence: head.sequence + 1,
            actor_kind,
            actor_id,
            action: entry.action,
            target_kind: entry.target.map(|(kind, _)| kind),
            target_id: entry.target.map(|(_, id)| id),
            workspace_id: entry.scope.workspace_id,
            project_id: entry.scope.project_id,
            correlation_id: CORRELATION_ID.try_with(Clone::clone).ok(),
            details: Value::Object(details),
            previous_hash: head.hash.clone(),
            hash: String::new(),
            created_at: now,
        };
        event.hash = event_hash(&event);
        let (sequence, hash) = (event.sequence, event.hash.clone());
        audit_event::ActiveModel::from(event).insert(txn).await?;
        let due = sequence - head.checkpointed_sequence >= CHECKPOINT_EVERY
            || now - head.checkpointed_at >= chrono::Duration::from_std(CHECKPOINT_INTERVAL).unwrap_or_default();
        let mut update = audit_head::Entity::update_many()
            .col_expr(audit_head::Column::Sequence, Expr::value(sequence))
            .col_expr(audit_head::Column::Hash, Expr::value(hash.clone()))
            .filter(audit_head::Column::OrganizationId.eq(organization_id));
        if due {
            self.checkpoint(txn, organization_id, sequence, &hash, now).await?;
            update = update
                .col_expr(audit_head::Column::CheckpointedSequence, Expr::value(sequence))
                .col_expr(audit_head::Column::CheckpointedAt, Expr::value(now));
        }
        update.exec(txn).await?;
        Ok(())
    }

    /// Appends `entry` in a transaction of its own, in the background, for an action that writes
    /// nothing else (a refused sign-in): the caller's answer neither waits for it nor shows by its
    /// timing that something was written. A trail that cannot be written is logged.
    pub fn append_detached(&self, entry: Entry) {
        let log = self.clone();
        let correlation_id = CORRELATION_ID.try_with(Clone::clone).ok();
        let appending = async move {
            let action = entry.action;
            let appended = async {
                let txn = log.db.begin_write().await?;
                log.append(&txn, entry).await?;
                txn.commit().await
            }
            .await;
            if let Err(e) = appended {
                tracing::error!(error = %e, %action, "could not append to the audit trail");
            }
        };
        tokio::spawn(async move {
            match correlation_id {
                Some(id) => correlated(id, appending).await,
                None => appending.await,
            }
        });
    }

    async fn checkpoint(
        &self,
        txn: &impl ConnectionTrait,
        organization_id: Uuid,
        sequence: i64,
        hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        let (key_id, signature) = self
            .keys
            .sign_message(checkpoint_message(organization_id, sequence, hash).as_bytes())
            .map_err(|e| DbErr::Custom(e.to_string()))?;
        audit_checkpoint::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(organization_id),
            sequence: Set(sequence),
            hash: Set(hash.to_owned()),
            key_id: Set(key_id),
            signature: Set(STANDARD.encode(signature)),
            created_at: Set(now),
        }
        .insert(txn)
        .await?;
        Ok(())
    }

    /// Checkpoints every chain that grew since its last checkpoint, so that no more than
    /// [`CHECKPOINT_INTERVAL`] of events stays unsigned. Returns how many it signed.
    pub async fn checkpoint_heads(&self) -> Result<usize, DbErr> {
        let heads = audit_head::Entity::find()
            .filter(Expr::col(audit_head::Column::Sequence).gt(Expr::col(audit_head::Column::CheckpointedSequence)))
            .all(&self.db)
            .await?;
        let mut signed = 0;
        for stale in heads {
            let txn = self.db.begin_write().await?;
            // Read again under the lock: an append may have checkpointed it meanwhile.
            let head = locked_head(&txn, stale.organization_id).await?;
            if head.sequence > head.checkpointed_sequence {
                let now = Utc::now().trunc_subsecs(6);
                self.checkpoint(&txn, head.organization_id, head.sequence, &head.hash, now).await?;
                audit_head::Entity::update_many()
                    .col_expr(audit_head::Column::CheckpointedSequence, Expr::value(head.sequence))
                    .col_expr(audit_head::Column::CheckpointedAt, Expr::value(now))
                    .filter(audit_head::Column::OrganizationId.eq(head.organization_id))
                    .exec(&txn)
                    .await?;
                signed += 1;
            }
            txn.commit().await?;
        }
        Ok(signed)
    }

    /// Signs the chains' heads every [`CHECKPOINT_INTERVAL`], for as long as the server runs.
    pub fn spawn_checkpoints(&self) {
        let log = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(CHECKPOINT_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(e) = log.checkpoint_heads().await {
                    tracing::error!(error = %e, "could not checkpoint the audit trail");
                }
            }
        });
    }

    /// The caller's proof that they may read their organization's trail.
    pub fn reader(&self, actor: &Actor) -> Result<AuditReader, CommonError> {
        actor.authorize(Permission::Administer, &ScopePath::organization(actor.organization_id), "audit trail")?;
        Ok(AuditReader { organization_id: actor.organization_id })
    }

    /// The organization's events that match `filter`, oldest first (ask for `last` for the newest).
    pub async fn events(
        &self,
        reader: &AuditReader,
        filter: &AuditFilter,
        page: &PageRequest,
        max: u64,
    ) -> Result<Page<audit_event::Model>, CommonError> {
        let mut select =
            audit_event::Entity::find().filter(audit_event::Column::OrganizationId.eq(reader.organization_id));
        if !filter.actions.is_empty() {
            select = select.filter(audit_event::Column::Action.is_in(filter.actions.iter().copied()));
        }
        if let Some(actor_id) = filter.actor_id {
            select = select.filter(audit_event::Column::ActorId.eq(actor_id));
        }
        if let Some(target_id) = filter.target_id {
            select = select.filter(audit_event::Column::TargetId.eq(target_id));
        }
        if let Some(from) = filter.from {
            select = select.filter(audit_event::Column::CreatedAt.gte(from));
        }
        if let Some(to) = filter.to {
            select = select.filter(audit_event::Column::CreatedAt.lt(to));
        }
        paginate(&self.reads, select, audit_event::Column::Id, page, max).await
    }

    /// One event of the reader's organization.
    pub async fn event(&self, reader: &AuditReader, id: Uuid) -> Result<audit_event::Model, CommonError> {
        self.reads
            .one(audit_event::Entity::find_by_id(id))
            .await?
            .filter(|e| e.organization_id == reader.organization_id)
            .ok_or(CommonError::NotFound("audit event"))
    }

    /// Events `after` the sequence given, in sequence order, `limit` at most: what an export reads.
    pub async fn events_after(
        &self,
        reader: &AuditReader,
        after: i64,
        limit: u64,
    ) -> Result<Vec<audit_event::Model>, CommonError> {
        Ok(self
            .reads
            .all(
                audit_event::Entity::find()
                    .filter(audit_event::Column::OrganizationId.eq(reader.organization_id))
                    .filter(audit_event::Column::Sequence.gt(after))
                    .order_by_asc(audit_event::Column::Sequence)
                    .limit(limit),
            )
            .await?)
    }

    /// Walks the organization's chain from its first event and says where it first stops holding.
    pub async fn verify(&self, reader: &AuditReader) -> Result<Verification, CommonError> {
        let organization_id = reader.organization_id;
        let checkpoints = self
            .reads
            .all(
                audit_checkpoint::Entity::find()
                    .filter(audit_checkpoint::Column::OrganizationId.eq(organization_id))
                    .order_by_asc(audit_checkpoint::Column::Sequence),
            )
            .await?;
        let mut checks = checkpoints.iter().peekable();
        let mut verification = Verification { events: 0, checkpoints: 0, first_broken: None };
        let broken = |verification: &mut Verification, sequence, problem| {
            verification.first_broken = Some(BrokenLink { sequence, problem });
        };
        let (mut sequence, mut hash) = (0i64, GENESIS.to_owned());
        'walk: loop {
            let batch = self.events_after(reader, sequence, VERIFY_BATCH).await?;
            if batch.is_empty() {
                break;
            }
            for event in batch {
                if event.sequence != sequence + 1 {
                    broken(&mut verification, sequence + 1, Problem::Missing);
                    break 'walk;
                }
                if event.previous_hash != hash {
                    broken(&mut verification, event.sequence, Problem::Unlinked);
                    break 'walk;
                }
                if event_hash(&event) != event.hash {
                    broken(&mut verification, event.sequence, Problem::Altered);
                    break 'walk;
                }
                while let Some(check) = checks.next_if(|c| c.sequence <= event.sequence) {
                    if let Some(problem) = self.checkpoint_problem(check, &event) {
                        broken(&mut verification, check.sequence, problem);
                        break 'walk;
                    }
                    verification.checkpoints += 1;
                }
                (sequence, hash) = (event.sequence, event.hash);
                verification.events += 1;
            }
        }
        if verification.first_broken.is_some() {
            return Ok(verification);
        }
        // A checkpoint beyond the last event: signed events were removed from the end.
        if let Some(check) = checks.next() {
            broken(&mut verification, Ord::min(check.sequence, sequence + 1), Problem::Missing);
            return Ok(verification);
        }
        let head = self.reads.one(audit_head::Entity::find_by_id(organization_id)).await?;
        let (head_sequence, head_hash) = head.map_or((0, GENESIS.to_owned()), |h| (h.sequence, h.hash));
        if head_sequence > sequence {
            broken(&mut verification, sequence + 1, Problem::Missing);
        } else if head_sequence < sequence {
            broken(&mut verification, head_sequence + 1, Problem::Appended);
        } else if head_hash != hash {
            broken(&mut verification, sequence, Problem::Rewritten);
        }
        Ok(verification)
    }

    /// What is wrong with `check`, a checkpoint at or before `event`; `None` when it holds.
    fn checkpoint_problem(&self, check: &audit_checkpoint::Model, event: &audit_event::Model) -> Option<Problem> {
        let message = checkpoint_message(check.organization_id, check.sequence, &check.hash);
        let signature = STANDARD.decode(&check.signature).unwrap_or_default();
        if !self.keys.verifies_message(&check.key_id, message.as_bytes(), &signature) {
            Some(Problem::ForgedCheckpoint)
        } else if check.sequence != event.sequence {
            // The walk reaches every sequence in turn: a checkpoint it passed has no event.
            Some(Problem::Missing)
        } else if check.hash != event.hash {
            Some(Problem::Rewritten)
        } else {
            None
        }
    }
}

/// The organization's head, created at the first append and locked until the transaction ends.
async fn locked_head(txn: &impl ConnectionTrait, organization_id: Uuid) -> Result<audit_head::Model, DbErr> {
    audit_head::Entity::insert(audit_head::ActiveModel {
        organization_id: Set(organization_id),
        sequence: Set(0),
        hash: Set(GENESIS.to_owned()),
        checkpointed_sequence: Set(0),
        // Never: the chain's first event is checkpointed.
        checkpointed_at: Set(DateTime::<Utc>::UNIX_EPOCH),
    })
    .on_conflict_do_nothing_on([audit_head::Column::OrganizationId])
    .exec_without_returning(txn)
    .await?;
    audit_head::Entity::find_by_id(organization_id)
        .lock_exclusive()
        .one(txn)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("audit head".into()))
}

/// What a checkpoint signs.
pub fn checkpoint_message(organization_id: Uuid, sequence: i64, hash: &str) -> String {
    format!("acc audit checkpoint v1\n{organization_id}\n{sequence}\n{hash}")
}

/// The hash of an event: sha256, hex, of the canonical JSON of everything it says, the previous
/// event's hash included. Public so that anyone holding an export can check the chain.
pub fn event_hash(event: &audit_event::Model) -> String {
    let mut encoded = String::new();
    canonical(&hashed(event), &mut encoded);
    hex::encode(Sha256::digest(encoded.as_bytes()))
}

/// An event as the export writes it: what its hash covers, its id and its hash.
pub fn exported(event: &audit_event::Model) -> Value {
    let mut fields = hashed(event);
    fields["id"] = json!(event.id);
    fields["hash"] = json!(event.hash);
    fields
}

/// What an event's hash covers: everything it says, the previous event's hash included.
fn hashed(event: &audit_event::Model) -> Value {
    json!({
        "v": 1,
        "organization_id": event.organization_id,
        "sequence": event.sequence,
        "occurred_at": event.created_at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
        "actor_kind": event.actor_kind.to_string(),
        "actor_id": event.actor_id,
        "action": event.action.to_string(),
        "target_kind": event.target_kind.map(|kind| kind.to_string()),
        "target_id": event.target_id,
        "workspace_id": event.workspace_id,
        "project_id": event.project_id,
        "correlation_id": event.correlation_id,
        "details": event.details,
        "previous_hash": event.previous_hash,
    })
}

/// JSON with every object's keys sorted (by their UTF-8 bytes) and no whitespace, whatever order
/// the value was built or stored in.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoding_does_not_depend_on_the_order_keys_were_written_in() {
        let (mut a, mut b) = (String::new(), String::new());
        canonical(&json!({"b": [1, {"y": true, "x": null}], "a": "é\n"}), &mut a);
        let mut reordered = Map::new();
        reordered.insert("a".into(), json!("é\n"));
        reordered.insert("b".into(), json!([1, {"x": null, "y": true}]));
        canonical(&Value::Object(reordered), &mut b);
        assert_eq!(a, b);
        assert_eq!(a, r#"{"a":"é\n","b":[1,{"x":null,"y":true}]}"#);
    }
}
