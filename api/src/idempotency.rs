//! `Idempotency-Key` for create mutations: the same key with the same input returns the first
//! result; with different input it is `IDEMPOTENCY_MISMATCH`. Keys belong to the calling user.

use acc_entity::idempotency_record;
use chrono::Utc;
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseTransaction, DbErr, EntityTrait, QueryFilter, Set};
use serde::Serialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::db::Pool;
use crate::error::{CommonError, is_unique_violation};
use crate::identity::actor::Actor;
use crate::ids::new_id;

pub const MAX_KEY_LEN: usize = 200;

/// Whether a create ran now or was answered from an earlier request with the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Created(Uuid),
    Replayed(Uuid),
}

impl Outcome {
    pub fn id(self) -> Uuid {
        match self {
            Outcome::Created(id) | Outcome::Replayed(id) => id,
        }
    }
}

fn request_hash(operation: &str, input: &impl Serialize) -> Result<String, CommonError> {
    let body = serde_json::to_vec(input).map_err(|e| CommonError::Internal(e.to_string()))?;
    let mut hasher = Sha256::new();
    hasher.update(operation.as_bytes());
    hasher.update([0]);
    hasher.update(&body);
    Ok(hex::encode(hasher.finalize()))
}

async fn earlier(
    db: &Pool,
    actor: &Actor,
    key: &str,
    operation: &str,
    hash: &str,
) -> Result<Option<Uuid>, CommonError> {
    let found = idempotency_record::Entity::find()
        .filter(idempotency_record::Column::UserId.eq(actor.user_id))
        .filter(idempotency_record::Column::IdempotencyKey.eq(key))
        .one(db)
        .await?;
    match found {
        None => Ok(None),
        Some(r) if r.operation == operation && r.request_hash == hash => Ok(Some(r.resource_id)),
        Some(_) => Err(CommonError::IdempotencyMismatch),
    }
}

/// Runs `create` in a transaction, at most once per key: the record and the created row
/// commit together, so a crash between them cannot leave one without the other.
pub async fn create_once<E>(
    db: &Pool,
    actor: &Actor,
    key: Option<&str>,
    operation: &'static str,
    input: &impl Serialize,
    create: impl AsyncFnOnce(&DatabaseTransaction) -> Result<Uuid, E>,
) -> Result<Outcome, E>
where
    E: From<CommonError> + From<DbErr>,
{
    let Some(key) = key else {
        let txn = db.begin_write().await?;
        let id = create(&txn).await?;
        txn.commit().await?;
        return Ok(Outcome::Created(id));
    };
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(CommonError::validation(format!("an idempotency key needs 1 to {MAX_KEY_LEN} characters")).into());
    }
    let hash = request_hash(operation, input)?;
    if let Some(id) = earlier(db, actor, key, operation, &hash).await? {
        return Ok(Outcome::Replayed(id));
    }
    let txn = db.begin_write().await?;
    let id = create(&txn).await?;
    let recorded = idempotency_record::ActiveModel {
        id: Set(new_id()),
        organization_id: Set(actor.organization_id),
        user_id: Set(actor.user_id),
        idempotency_key: Set(key.to_owned()),
        operation: Set(operation.to_owned()),
        request_hash: Set(hash.clone()),
        resource_id: Set(id),
        created_at: Set(Utc::now()),
    }
    .insert(&txn)
    .await;
    match recorded {
        Ok(_) => {
            txn.commit().await?;
            Ok(Outcome::Created(id))
        }
        // A concurrent request with the same key won the race; answer as it did.
        Err(e) if is_unique_violation(&e) => {
            txn.rollback().await?;
            match earlier(db, actor, key, operation, &hash).await? {
                Some(id) => Ok(Outcome::Replayed(id)),
                None => Err(CommonError::Database(e).into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}
