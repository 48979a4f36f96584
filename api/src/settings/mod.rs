//! Settings layers (SPEC §5.4): organization → workspace → project → task. Each key is
//! inherited unless a narrower layer overrides it; an explicit `false` is a value, not absence.
//! Writes are JSON merge patches (RFC 7386) checked against the layer's revision.

pub mod graphql;
pub mod known;

use std::collections::BTreeMap;

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{config_layer, project, task, workspace};
use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::audit::{AuditLog, Entry};
use crate::db::Pool;
use crate::error::{CommonError, is_unique_violation};
use crate::identity::actor::{Actor, Permission, ScopePath};
use crate::ids::new_id;

pub type SettingsError = CommonError;
type Result<T> = std::result::Result<T, SettingsError>;

const MAX_PATCH_BYTES: usize = 64 * 1024;
const MAX_DEPTH: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsScope {
    Organization,
    Workspace,
    Project,
    Task,
}

impl SettingsScope {
    pub fn as_str(self) -> &'static str {
        match self {
            SettingsScope::Organization => "organization",
            SettingsScope::Workspace => "workspace",
            SettingsScope::Project => "project",
            SettingsScope::Task => "task",
        }
    }

    pub fn from_stored(s: &str) -> Self {
        match s {
            "workspace" => SettingsScope::Workspace,
            "project" => SettingsScope::Project,
            "task" => SettingsScope::Task,
            _ => SettingsScope::Organization,
        }
    }
}

/// One scope of a chain and what is written there (if anything).
#[derive(Debug, Clone)]
pub struct Layer {
    pub scope: SettingsScope,
    pub scope_id: Uuid,
    pub row: Option<config_layer::Model>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EffectiveEntry {
    /// Dotted path of a leaf value, e.g. `plugins.memory.enabled`.
    pub key: String,
    pub value: Value,
    pub source_scope: SettingsScope,
    pub source_scope_id: Uuid,
}

#[derive(Debug, Clone)]
pub struct Effective {
    /// Broadest first.
    pub layers: Vec<Layer>,
    pub entries: Vec<EffectiveEntry>,
}

#[derive(Clone)]
pub struct SettingsService {
    db: Pool,
    audit: AuditLog,
}

impl SettingsService {
    pub fn new(db: Pool, audit: AuditLog) -> Self {
        Self { db, audit }
    }

    /// The scopes from the organization down to `scope`, and where `scope` sits for
    /// authorization; not found outside the caller's organization.
    async fn chain(
        &self,
        actor: &Actor,
        scope: SettingsScope,
        id: Uuid,
    ) -> Result<(Vec<(SettingsScope, Uuid)>, ScopePath)> {
        let (chain, path) = self.chain_of(scope, id).await?;
        if path.organization_id != actor.organization_id {
            return Err(CommonError::NotFound("settings scope"));
        }
        Ok((chain, path))
    }

    /// [`Self::chain`], for whoever's scope it is.
    async fn chain_of(&self, scope: SettingsScope, id: Uuid) -> Result<(Vec<(SettingsScope, Uuid)>, ScopePath)> {
        let not_found = || CommonError::NotFound("settings scope");
        let (task_id, project_id) = match scope {
            SettingsScope::Task => {
                let task = task::Entity::find_by_id(id).one(&self.db).await?.ok_or_else(not_found)?;
                (Some(task.id), Some(task.project_id))
            }
            SettingsScope::Project => (None, Some(id)),
            _ => (None, None),
        };
        let (workspace_id, project) = match project_id {
            Some(pid) => {
                let p = project::Entity::find_by_id(pid).one(&self.db).await?.ok_or_else(not_found)?;
                (Some(p.workspace_id), Some(p))
            }
            None if scope == SettingsScope::Workspace => (Some(id), None),
            None => (None, None),
        };
        let organization_id = match workspace_id {
            Some(wid) => workspace::Entity::find_by_id(wid).one(&self.db).await?.ok_or_else(not_found)?.organization_id,
            None => id,
        };
        let mut chain = vec![(SettingsScope::Organization, organization_id)];
        chain.extend(workspace_id.map(|w| (SettingsScope::Workspace, w)));
        chain.extend(project.as_ref().map(|p| (SettingsScope::Project, p.id)));
        chain.extend(task_id.map(|t| (SettingsScope::Task, t)));
        let path = ScopePath { organization_id, workspace_id, project_id };
        Ok((chain, path))
    }

    pub async fn effective(&self, actor: &Actor, scope: SettingsScope, id: Uuid) -> Result<Effective> {
        let (chain, path) = self.chain(actor, scope, id).await?;
        actor.authorize(Permission::Read, &path, "settings scope")?;
        self.resolved(chain).await
    }

    /// Whether a project's tasks follow their runs (`tasks.statusFollowsRuns`): read by the
    /// control plane itself, for nobody's request.
    pub async fn task_status_follows_runs(&self, project_id: Uuid) -> Result<bool> {
        let (chain, _) = self.chain_of(SettingsScope::Project, project_id).await?;
        let effective = self.resolved(chain).await?;
        let entry = effective.entries.iter().find(|e| e.key == known::TASK_STATUS_FOLLOWS_RUNS);
        Ok(known::boolean(known::TASK_STATUS_FOLLOWS_RUNS, entry.map(|e| &e.value)))
    }

    /// The token budget of a run of `task_id`'s context (`context.tokenBudget`): read by the
    /// control plane itself, for nobody's request.
    /// The context budget of a run of `task_id`; with `layer`, that scope's settings layer is the
    /// one given (a candidate's) instead of the stored one.
    pub async fn context_token_budget(&self, task_id: Uuid, layer: Option<(Uuid, &Value)>) -> Result<i64> {
        let (chain, _) = self.chain_of(SettingsScope::Task, task_id).await?;
        let mut effective = self.resolved(chain).await?;
        if let Some((scope_id, settings)) = layer {
            for held in effective.layers.iter_mut().filter(|l| l.scope_id == scope_id) {
                held.row = Some(config_layer::Model {
                    settings: settings.clone(),
                    ..held.row.clone().unwrap_or_else(|| empty_layer(scope_id))
                });
            }
            effective.entries = resolve(&effective.layers);
        }
        let entry = effective.entries.iter().find(|e| e.key == known::CONTEXT_TOKEN_BUDGET);
        Ok(known::integer(known::CONTEXT_TOKEN_BUDGET, entry.map(|e| &e.value)))
    }

    async fn resolved(&self, chain: Vec<(SettingsScope, Uuid)>) -> Result<Effective> {
        let rows = config_layer::Entity::find()
            .filter(config_layer::Column::ScopeId.is_in(chain.iter().map(|(_, id)| *id)))
            .all(&self.db)
            .await?;
        let layers: Vec<Layer> = chain
            .into_iter()
            .map(|(scope, scope_id)| Layer {
                scope,
                scope_id,
                row: rows.iter().find(|r| r.scope_id == scope_id).cloned(),
            })
            .collect();
        Ok(Effective { entries: resolve(&layers), layers })
    }

    pub async fn layer(&self, actor: &Actor, layer_id: Uuid) -> Result<config_layer::Model> {
        let row = config_layer::Entity::find_by_id(layer_id)
            .one(&self.db)
            .await?
            .ok_or(CommonError::NotFound("settings layer"))?;
        let (_, path) = self.chain(actor, SettingsScope::from_stored(&row.scope_kind), row.scope_id).await?;
        actor.authorize(Permission::Read, &path, "settings layer")?;
        Ok(row)
    }

    /// Applies a merge patch to the layer at `scope`; `expected_revision` 0 means "no layer yet".
    pub async fn set_settings(
        &self,
        actor: &Actor,
        scope: SettingsScope,
        id: Uuid,
        patch: &Value,
        expected_revision: i64,
    ) -> Result<config_layer::Model> {
        let (_, path) = self.chain(actor, scope, id).await?;
        let needed = if scope == SettingsScope::Task { Permission::WriteTasks } else { Permission::Administer };
        actor.authorize(needed, &path, "settings scope")?;
        validate_patch(patch)?;
        let txn = self.db.begin_write().await?;
        let layer = write_layer(&txn, path.organization_id, scope, id, patch, expected_revision).await?;
        // The keys it changed, not their values: settings may name what is not the trail's to keep.
        let keys: Vec<&String> = patch.as_object().map(|o| o.keys().collect()).unwrap_or_default();
        let written = Entry::by(actor, AuditAction::SettingsWritten)
            .on(AuditTargetKind::SettingsLayer, layer.id)
            .at(&path)
            .with("scope_kind", scope.as_str())
            .with("keys", serde_json::json!(keys))
            .with("revision", layer.revision);
        self.audit.append(&txn, written).await?;
        txn.commit().await?;
        Ok(layer)
    }

    /// The settings layer of `scope_id` itself, if it has one.
    pub async fn own_layer(&self, scope_id: Uuid) -> Result<Option<config_layer::Model>> {
        Ok(config_layer::Entity::find().filter(config_layer::Column::ScopeId.eq(scope_id)).one(&self.db).await?)
    }
}

/// The revision of `scope_id`'s own settings layer, on `conn`; 0 when it has none.
pub async fn layer_revision(conn: &impl ConnectionTrait, scope_id: Uuid) -> Result<i64> {
    let layer = config_layer::Entity::find().filter(config_layer::Column::ScopeId.eq(scope_id)).one(conn).await?;
    Ok(layer.map_or(0, |l| l.revision))
}

/// `patch` (a JSON merge patch, checked as `setSettings` checks one) over `settings`: what the
/// layer would hold, refused if it holds a known key's wrong type or range.
pub fn patched(settings: &Value, patch: &Value) -> Result<Value> {
    validate_patch(patch)?;
    let mut settings = settings.clone();
    merge_patch(&mut settings, patch);
    known::check(&settings)?;
    Ok(settings)
}

/// Writes `patch` over the settings layer of `scope` `id`, on `conn`, if its revision is still
/// `expected_revision` (0: it has none yet); else `CONFLICT`, and nothing is written.
pub async fn write_layer(
    conn: &impl ConnectionTrait,
    organization_id: Uuid,
    scope: SettingsScope,
    id: Uuid,
    patch: &Value,
    expected_revision: i64,
) -> Result<config_layer::Model> {
    let current = config_layer::Entity::find().filter(config_layer::Column::ScopeId.eq(id)).one(conn).await?;
    let now = Utc::now();
    match current {
        None if expected_revision == 0 => {
            let mut settings = Value::Object(Map::new());
            merge_patch(&mut settings, patch);
            known::check(&settings)?;
            let inserted = config_layer::ActiveModel {
                id: Set(new_id()),
                organization_id: Set(organization_id),
                scope_kind: Set(scope.as_str().to_owned()),
                scope_id: Set(id),
                settings: Set(settings),
                revision: Set(1),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(conn)
            .await;
            match inserted {
                Ok(row) => Ok(row),
                // Someone else created the layer first: the caller's revision 0 is stale.
                Err(e) if is_unique_violation(&e) => Err(CommonError::Conflict { expected: 0, current: 1 }),
                Err(e) => Err(e.into()),
            }
        }
        None => Err(CommonError::Conflict { expected: expected_revision, current: 0 }),
        Some(row) if row.revision != expected_revision => {
            Err(CommonError::Conflict { expected: expected_revision, current: row.revision })
        }
        Some(row) => {
            let mut settings = row.settings.clone();
            merge_patch(&mut settings, patch);
            known::check(&settings)?;
            let result = config_layer::Entity::update_many()
                .col_expr(config_layer::Column::Settings, Expr::value(settings))
                .col_expr(config_layer::Column::Revision, Expr::value(row.revision + 1))
                .col_expr(config_layer::Column::UpdatedAt, Expr::value(now))
                .filter(config_layer::Column::Id.eq(row.id))
                .filter(config_layer::Column::Revision.eq(row.revision))
                .exec(conn)
                .await?;
            if result.rows_affected == 0 {
                return Err(CommonError::Conflict { expected: expected_revision, current: row.revision + 1 });
            }
            Ok(config_layer::Entity::find_by_id(row.id).one(conn).await?.unwrap_or(row))
        }
    }
}

fn validate_patch(patch: &Value) -> Result<()> {
    if !patch.is_object() {
        return Err(CommonError::validation("a settings patch must be a JSON object"));
    }
    if serde_json::to_vec(patch).map(|b| b.len()).unwrap_or(usize::MAX) > MAX_PATCH_BYTES {
        return Err(CommonError::validation(format!("a settings patch is at most {MAX_PATCH_BYTES} bytes")));
    }
    fn depth(v: &Value) -> usize {
        match v {
            Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }
    if depth(patch) > MAX_DEPTH {
        return Err(CommonError::validation(format!("settings nest at most {MAX_DEPTH} levels")));
    }
    if let Value::Object(map) = patch
        && map.keys().any(|k| k.is_empty() || k.contains('.'))
    {
        return Err(CommonError::validation("a settings key is non-empty and has no `.`"));
    }
    Ok(())
}

/// RFC 7386: objects merge key by key, `null` removes a key, anything else replaces.
fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(map) = target {
        for (key, value) in patch {
            if value.is_null() {
                map.remove(key);
            } else {
                merge_patch(map.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

fn leaves(prefix: &str, value: &Value, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                leaves(&key, v, out);
            }
        }
        leaf => out.push((prefix.to_owned(), leaf.clone())),
    }
}

/// Every leaf key with the value of the narrowest layer that sets it.
/// A layer for a scope that has none stored, to hold settings given for it.
fn empty_layer(scope_id: Uuid) -> config_layer::Model {
    let now = Utc::now();
    config_layer::Model {
        id: Uuid::nil(),
        organization_id: Uuid::nil(),
        scope_kind: String::new(),
        scope_id,
        settings: Value::Object(Map::new()),
        revision: 0,
        created_at: now,
        updated_at: now,
    }
}

fn resolve(layers: &[Layer]) -> Vec<EffectiveEntry> {
    let mut resolved: BTreeMap<String, EffectiveEntry> = BTreeMap::new();
    for layer in layers {
        let Some(row) = &layer.row else { continue };
        let mut found = Vec::new();
        leaves("", &row.settings, &mut found);
        for (key, value) in found {
            // A narrower leaf replaces a broader subtree under it and any broader leaf above it.
            let below = format!("{key}.");
            resolved.retain(|k, _| !k.starts_with(&below) && !key.starts_with(&format!("{k}.")));
            resolved.insert(
                key.clone(),
                EffectiveEntry { key, value, source_scope: layer.scope, source_scope_id: layer.scope_id },
            );
        }
    }
    resolved.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn layer(scope: SettingsScope, settings: Value) -> Layer {
        let now = Utc::now();
        let id = new_id();
        Layer {
            scope,
            scope_id: id,
            row: Some(config_layer::Model {
                id: new_id(),
                organization_id: Uuid::nil(),
                scope_kind: scope.as_str().into(),
                scope_id: id,
                settings,
                revision: 1,
                created_at: now,
                updated_at: now,
            }),
        }
    }

    #[test]
    fn merge_patch_follows_rfc_7386() {
        let mut doc = json!({"a": {"b": 1, "c": 2}, "d": 3});
        merge_patch(&mut doc, &json!({"a": {"b": null, "e": false}, "d": [1]}));
        assert_eq!(doc, json!({"a": {"c": 2, "e": false}, "d": [1]}));
    }

    #[test]
    fn narrower_layers_override_and_explicit_false_is_kept() {
        let layers = vec![
            layer(SettingsScope::Organization, json!({"memory": {"enabled": true, "limit": 5}, "model": "a"})),
            layer(SettingsScope::Project, json!({"memory": {"enabled": false}})),
        ];
        let entries = resolve(&layers);
        let get = |k: &str| entries.iter().find(|e| e.key == k).cloned().unwrap();
        assert_eq!(get("memory.enabled").value, json!(false));
        assert_eq!(get("memory.enabled").source_scope, SettingsScope::Project);
        assert_eq!(get("memory.limit").source_scope, SettingsScope::Organization);
        assert_eq!(get("model").value, json!("a"));
        assert!(!entries.iter().any(|e| e.key == "absent"));
    }

    #[test]
    fn a_narrower_leaf_replaces_a_broader_subtree() {
        let layers = vec![
            layer(SettingsScope::Organization, json!({"tools": {"shell": {"enabled": true}}})),
            layer(SettingsScope::Task, json!({"tools": {"shell": "off"}})),
        ];
        let keys: Vec<_> = resolve(&layers).into_iter().map(|e| e.key).collect();
        assert_eq!(keys, vec!["tools.shell"]);
    }

    #[test]
    fn patches_must_be_objects_without_dotted_keys() {
        assert!(validate_patch(&json!([1])).is_err());
        assert!(validate_patch(&json!({"a.b": 1})).is_err());
        assert!(validate_patch(&json!({"a": {"b": 1}})).is_ok());
    }
}
