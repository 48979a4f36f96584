//! GraphQL types and thin resolvers for enrollment, connectors, agents and their live status.

use acc_entity::{agent, connector, enrollment_token};
use async_graphql::{Context, Enum, ID, Object, SimpleObject, Subscription};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};

use crate::broker::{Delivery, Event, Topic};
use crate::graphql::{ContextExt, gql_error};
use crate::ids::{NodeKind, decode, gid};

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_protocol::Capability")]
pub enum Capability {
    Stream,
    Cancel,
    NativeResume,
    Checkpoint,
    Approvals,
    Tools,
    Mcp,
    Artifacts,
    UsageExact,
    UsageEstimated,
    FilesystemScope,
    StructuredOutput,
}

pub struct Connector(pub connector::Model);

#[Object]
impl Connector {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Connector, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// Connected to the control plane right now.
    async fn online(&self) -> bool {
        self.0.online
    }
    async fn health(&self) -> Option<&str> {
        self.0.health.as_deref()
    }
    async fn version(&self) -> Option<&str> {
        self.0.version.as_deref()
    }
    async fn last_seen_at(&self) -> Option<DateTime<Utc>> {
        self.0.last_seen_at
    }
    async fn revoked_at(&self) -> Option<DateTime<Utc>> {
        self.0.revoked_at
    }
    /// When it was removed; a removed connector is found only through the runs that used it.
    async fn removed_at(&self) -> Option<DateTime<Utc>> {
        self.0.removed_at
    }
    async fn workspace_id(&self) -> ID {
        gid(NodeKind::Workspace, self.0.workspace_id)
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

pub struct Agent(pub agent::Model);

#[Object]
impl Agent {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Agent, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn adapter(&self) -> &str {
        &self.0.adapter
    }
    async fn adapter_version(&self) -> &str {
        &self.0.adapter_version
    }
    async fn runtime_version(&self) -> Option<&str> {
        self.0.runtime_version.as_deref()
    }
    /// What the adapter declared at the last handshake.
    async fn capabilities(&self) -> Vec<Capability> {
        super::capabilities(&self.0).into_iter().map(Capability::from).collect()
    }
    async fn connector(&self, ctx: &Context<'_>) -> async_graphql::Result<Connector> {
        ctx.services().gateway.connector(ctx.actor()?, self.0.connector_id).await.map(Connector).map_err(gql_error)
    }
    /// Whether its connector is connected now.
    async fn online(&self, ctx: &Context<'_>) -> bool {
        ctx.services().gateway.is_connected(self.0.connector_id)
    }
}

pub struct EnrollmentToken(pub enrollment_token::Model);

#[Object]
impl EnrollmentToken {
    pub async fn id(&self) -> ID {
        gid(NodeKind::EnrollmentToken, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn expires_at(&self) -> DateTime<Utc> {
        self.0.expires_at
    }
    async fn used_at(&self) -> Option<DateTime<Utc>> {
        self.0.used_at
    }
}

/// A new enrollment token; the secret is shown only once.
#[derive(SimpleObject)]
pub struct CreatedEnrollmentToken {
    token: String,
    enrollment_token: EnrollmentToken,
}

#[derive(Default)]
pub struct GatewayQuery;

#[Object]
impl GatewayQuery {
    /// Connectors the caller can see, optionally of one workspace.
    async fn connectors(&self, ctx: &Context<'_>, workspace_id: Option<ID>) -> async_graphql::Result<Vec<Connector>> {
        let workspace = workspace_id.map(|id| decode(&id, NodeKind::Workspace)).transpose()?;
        let rows = ctx.services().gateway.connectors(ctx.actor()?, workspace).await.map_err(gql_error)?;
        Ok(rows.into_iter().map(Connector).collect())
    }

    /// Agents that can serve a project, optionally only those with a capability.
    async fn agents(
        &self,
        ctx: &Context<'_>,
        project_id: ID,
        capability: Option<Capability>,
    ) -> async_graphql::Result<Vec<Agent>> {
        let project = decode(&project_id, NodeKind::Project)?;
        let rows = ctx
            .services()
            .gateway
            .agents(ctx.actor()?, project, capability.map(Into::into))
            .await
            .map_err(gql_error)?;
        Ok(rows.into_iter().map(Agent).collect())
    }
}

#[derive(Default)]
pub struct GatewayMutation;

#[Object]
impl GatewayMutation {
    /// A single-use token for `acc-connector enroll` (workspace admins); `expiresIn` in seconds.
    async fn create_enrollment_token(
        &self,
        ctx: &Context<'_>,
        workspace_id: ID,
        name: String,
        #[graphql(default = 900)] expires_in: i64,
    ) -> async_graphql::Result<CreatedEnrollmentToken> {
        let workspace = decode(&workspace_id, NodeKind::Workspace)?;
        let (token, row) = ctx
            .services()
            .gateway
            .create_enrollment_token(ctx.actor()?, workspace, &name, expires_in)
            .await
            .map_err(gql_error)?;
        Ok(CreatedEnrollmentToken { token, enrollment_token: EnrollmentToken(row) })
    }

    /// Disconnects a connector and refuses it from now on.
    async fn revoke_connector(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<Connector> {
        let id = decode(&id, NodeKind::Connector)?;
        ctx.services().gateway.revoke_connector(ctx.actor()?, id).await.map(Connector).map_err(gql_error)
    }

    /// Removes a revoked connector and its agents from `connectors` and `agents` (workspace
    /// admins); runs that used them keep naming them. A connector not yet revoked is `VALIDATION`.
    async fn remove_connector(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<Connector> {
        let id = decode(&id, NodeKind::Connector)?;
        ctx.services().gateway.remove_connector(ctx.actor()?, id).await.map(Connector).map_err(gql_error)
    }
}

#[derive(Default)]
pub struct GatewaySubscription;

#[Subscription]
impl GatewaySubscription {
    /// Connectors of a workspace as they enroll, come online, go offline or change health.
    async fn connector_status(
        &self,
        ctx: &Context<'_>,
        workspace_id: ID,
    ) -> async_graphql::Result<impl Stream<Item = Connector>> {
        let workspace = decode(&workspace_id, NodeKind::Workspace)?;
        let services = ctx.services();
        // Listening before the first wait: see `LISTEN_FIRST` in http/graphql_ws.rs.
        let live = services.broker.subscribe(Topic::WorkspaceConnectors(workspace));
        services.gateway.connectors(ctx.actor()?, Some(workspace)).await.map_err(gql_error)?;
        Ok(live.filter_map(|delivery| async move {
            match delivery {
                Delivery::Event(event) => match &*event {
                    Event::ConnectorStatus(row) => Some(Connector(row.clone())),
                    _ => None,
                },
                Delivery::Lagged(_) => None,
            }
        }))
    }
}
