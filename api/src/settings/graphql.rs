//! GraphQL types and thin resolvers for settings layers and effective settings.

use acc_entity::config_layer;
use async_graphql::{Context, Enum, ID, Json, Object, SimpleObject};
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{EffectiveEntry, Layer, SettingsScope, known};
use crate::error::CommonError;
use crate::graphql::{ContextExt, gql_error};
use crate::ids::{GlobalId, NodeKind};

fn scope_node_kind(scope: SettingsScope) -> NodeKind {
    match scope {
        SettingsScope::Organization => NodeKind::Organization,
        SettingsScope::Workspace => NodeKind::Workspace,
        SettingsScope::Project => NodeKind::Project,
        SettingsScope::Task => NodeKind::Task,
    }
}

fn scope_gid(scope: SettingsScope, id: Uuid) -> ID {
    ID(GlobalId::new(scope_node_kind(scope), id).encode())
}

fn decode_scope(raw: &ID) -> async_graphql::Result<(SettingsScope, Uuid)> {
    let id = GlobalId::decode(raw).map_err(gql_error)?;
    let scope = match id.kind {
        NodeKind::Organization => SettingsScope::Organization,
        NodeKind::Workspace => SettingsScope::Workspace,
        NodeKind::Project => SettingsScope::Project,
        NodeKind::Task => SettingsScope::Task,
        _ => {
            return Err(gql_error(CommonError::validation(
                "a settings scope is an organization, workspace, project or task id",
            )));
        }
    };
    Ok((scope, id.id))
}

/// What is written at one scope.
pub struct SettingsLayer(pub config_layer::Model);

#[Object]
impl SettingsLayer {
    pub async fn id(&self) -> ID {
        ID(GlobalId::new(NodeKind::SettingsLayer, self.0.id).encode())
    }
    async fn scope_id(&self) -> ID {
        scope_gid(SettingsScope::from_stored(&self.0.scope_kind), self.0.scope_id)
    }
    async fn settings(&self) -> Json<serde_json::Value> {
        Json(self.0.settings.clone())
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.0.updated_at
    }
}

/// One scope of the inheritance chain; `revision` is 0 where nothing is written yet.
#[derive(SimpleObject)]
pub struct SettingsChainLink {
    scope_id: ID,
    scope_kind: String,
    revision: i64,
    settings: Json<serde_json::Value>,
}

impl From<Layer> for SettingsChainLink {
    fn from(layer: Layer) -> Self {
        Self {
            scope_id: scope_gid(layer.scope, layer.scope_id),
            scope_kind: layer.scope.as_str().to_owned(),
            revision: layer.row.as_ref().map_or(0, |r| r.revision),
            settings: Json(layer.row.map_or_else(|| serde_json::json!({}), |r| r.settings)),
        }
    }
}

/// A leaf setting in force, and the scope it comes from.
#[derive(SimpleObject)]
pub struct EffectiveSetting {
    /// Dotted path, e.g. `plugins.memory.enabled`.
    key: String,
    value: Json<serde_json::Value>,
    source_scope_id: ID,
    source_scope_kind: String,
}

impl From<EffectiveEntry> for EffectiveSetting {
    fn from(entry: EffectiveEntry) -> Self {
        Self {
            key: entry.key,
            value: Json(entry.value),
            source_scope_id: scope_gid(entry.source_scope, entry.source_scope_id),
            source_scope_kind: entry.source_scope.as_str().to_owned(),
        }
    }
}

#[derive(SimpleObject)]
pub struct EffectiveSettings {
    scope_id: ID,
    /// Every leaf in force, sorted by key.
    entries: Vec<EffectiveSetting>,
    /// The chain, broadest first.
    layers: Vec<SettingsChainLink>,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
pub enum SettingType {
    Boolean,
    /// A whole number from the key's `minimum` to its `maximum`.
    Integer,
}

impl From<known::SettingType> for SettingType {
    fn from(value: known::SettingType) -> Self {
        match value {
            known::SettingType::Boolean => SettingType::Boolean,
            known::SettingType::Integer { .. } => SettingType::Integer,
        }
    }
}

/// A settings key the control plane reads itself, with its type and the value in force where no
/// layer sets it. A layer that gives it a value of another type is refused (`VALIDATION`).
pub struct KnownSetting(&'static known::KnownSetting);

#[Object]
impl KnownSetting {
    /// Dotted, as `effectiveSettings` lists it.
    async fn key(&self) -> &str {
        self.0.key
    }
    #[graphql(name = "type")]
    async fn setting_type(&self) -> SettingType {
        self.0.setting_type.into()
    }
    async fn default(&self) -> Json<serde_json::Value> {
        Json(self.0.default.to_json())
    }
    /// The least value an integer key takes.
    async fn minimum(&self) -> Option<i64> {
        match self.0.setting_type {
            known::SettingType::Integer { min, .. } => Some(min),
            known::SettingType::Boolean => None,
        }
    }
    /// The greatest value an integer key takes.
    async fn maximum(&self) -> Option<i64> {
        match self.0.setting_type {
            known::SettingType::Integer { max, .. } => Some(max),
            known::SettingType::Boolean => None,
        }
    }
    async fn description(&self) -> &str {
        self.0.description
    }
}

#[derive(Default)]
pub struct SettingsQuery;

#[Object]
impl SettingsQuery {
    /// The settings keys the control plane reads itself; other keys are free-form.
    async fn known_settings(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<KnownSetting>> {
        ctx.actor()?;
        Ok(known::KNOWN.iter().map(KnownSetting).collect())
    }

    /// The settings in force at a scope, each with the layer it was inherited from.
    async fn effective_settings(&self, ctx: &Context<'_>, scope_id: ID) -> async_graphql::Result<EffectiveSettings> {
        let (scope, id) = decode_scope(&scope_id)?;
        let effective = ctx.services().settings.effective(ctx.actor()?, scope, id).await.map_err(gql_error)?;
        Ok(EffectiveSettings {
            scope_id,
            entries: effective.entries.into_iter().map(Into::into).collect(),
            layers: effective.layers.into_iter().map(Into::into).collect(),
        })
    }
}

#[derive(Default)]
pub struct SettingsMutation;

#[Object]
impl SettingsMutation {
    /// Applies a JSON merge patch to the settings written at a scope (`null` removes a key).
    /// `expectedRevision` is the layer's current revision (0 if nothing is written there yet).
    async fn set_settings(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
        patch: Json<serde_json::Value>,
        expected_revision: i64,
    ) -> async_graphql::Result<SettingsLayer> {
        let (scope, id) = decode_scope(&scope_id)?;
        let layer = ctx.services().settings.set_settings(ctx.actor()?, scope, id, &patch.0, expected_revision).await;
        layer.map(SettingsLayer).map_err(gql_error)
    }
}
