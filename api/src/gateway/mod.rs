//! The connector gateway: enrollment, connector identity, the handshake that records agents and
//! their capabilities, heartbeats, and the live connections commands are sent over.

pub mod ca;
pub mod graphql;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{agent, capability_snapshot, connector, enrollment_token, project, workspace};
use acc_protocol::{AgentDescriptor, AgentId, Capability, Envelope, HealthStatus};
use chrono::Utc;
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::audit::{AuditActor, AuditLog, Entry};
use crate::broker::{Broker, Event, Topic};
use crate::db::Pool;
use crate::error::{CommonError, DomainError, ErrorCode};
use crate::identity::actor::{Actor, Permission, ScopePath};
use crate::identity::secrets;
use crate::ids::new_id;

#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    #[error("the enrollment token is wrong, expired or already used")]
    EnrollmentRefused,
    #[error("the connector credential is wrong or the connector was revoked")]
    ConnectorRefused,
    #[error("a connector must present the client certificate issued to it at enrollment; re-enroll it if it has none")]
    CertificateRequired,
    #[error(transparent)]
    Certificate(#[from] ca::CaError),
    #[error("only a revoked connector can be removed: revoke it first (revokeConnector)")]
    NotRevoked,
    #[error(transparent)]
    Common(#[from] CommonError),
}

impl From<sea_orm::DbErr> for GatewayError {
    fn from(e: sea_orm::DbErr) -> Self {
        GatewayError::Common(e.into())
    }
}

impl DomainError for GatewayError {
    fn code(&self) -> ErrorCode {
        match self {
            GatewayError::EnrollmentRefused | GatewayError::ConnectorRefused | GatewayError::CertificateRequired => {
                ErrorCode::Unauthenticated
            }
            GatewayError::Certificate(ca::CaError::InvalidRequest(_)) | GatewayError::NotRevoked => {
                ErrorCode::Validation
            }
            GatewayError::Certificate(_) => ErrorCode::Internal,
            GatewayError::Common(e) => e.code(),
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            GatewayError::Common(e) => e.details(),
            _ => serde_json::Value::Null,
        }
    }
}

type Result<T, E = GatewayError> = std::result::Result<T, E>;

/// The most an enrollment token may live.
pub const MAX_ENROLLMENT_SECONDS: i64 = 24 * 3600;

/// Frames waiting to go out on one connector's socket; bounded so a stuck socket cannot grow memory.
pub const OUTBOX_CAPACITY: usize = 256;

/// Live connector sockets of this replica, by connector id: which connection, and its outbox.
#[derive(Default)]
struct Registry {
    connections: Mutex<HashMap<Uuid, (Uuid, mpsc::Sender<Envelope>)>>,
}

/// What the connector endpoint checks besides the bearer credential, as the operator's
/// `connector_client_certificate` setting decides.
#[derive(Debug, Clone, Copy)]
pub enum CertificateCheck<'a> {
    /// Nothing: the operator chose credential-only authentication (plain HTTP on loopback, or
    /// `connector_client_certificate = "none"`).
    CredentialOnly,
    /// The client certificate (DER) the TLS connection or a trusted proxy saw, if any: it must be
    /// the one issued to the connector.
    Required(Option<&'a [u8]>),
}

/// What enrollment gives a connector.
pub struct Enrolled {
    pub connector: connector::Model,
    /// The bearer credential.
    pub credential: String,
    /// The client certificate issued for the key of its CSR (PEM), if it sent one.
    pub certificate: Option<String>,
}

/// Shows which connector, never its bearer credential.
impl std::fmt::Debug for Enrolled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Enrolled")
            .field("connector_id", &self.connector.id)
            .field("credential", &secrets::REDACTED)
            .field("certificate", &self.certificate.is_some())
            .finish()
    }
}

#[derive(Clone)]
pub struct GatewayService {
    db: Pool,
    broker: Broker,
    registry: Arc<Registry>,
    ca: Arc<ca::ConnectorCa>,
    pub heartbeat_interval: Duration,
    audit: AuditLog,
}

impl GatewayService {
    pub fn new(
        db: Pool,
        broker: Broker,
        ca: Arc<ca::ConnectorCa>,
        heartbeat_interval: Duration,
        audit: AuditLog,
    ) -> Self {
        Self { db, broker, registry: Arc::default(), ca, heartbeat_interval, audit }
    }

    /// The CA that issues connectors' client certificates.
    pub fn connector_ca(&self) -> &ca::ConnectorCa {
        &self.ca
    }

    async fn workspace_path(&self, actor: &Actor, workspace_id: Uuid) -> Result<ScopePath> {
        let ws = workspace::Entity::find_by_id(workspace_id)
            .one(&self.db)
            .await?
            .filter(|w| w.organization_id == actor.organization_id)
            .ok_or(CommonError::NotFound("workspace"))?;
        Ok(ScopePath::workspace(ws.organization_id, ws.id))
    }

    /// A single-use token a new connector exchanges for its identity (workspace admins only).
    pub async fn create_enrollment_token(
        &self,
        actor: &Actor,
        workspace_id: Uuid,
        name: &str,
        expires_in_seconds: i64,
    ) -> Result<(String, enrollment_token::Model)> {
        let path = self.workspace_path(actor, workspace_id).await?;
        actor.authorize(Permission::Administer, &path, "workspace")?;
        if !(1..=MAX_ENROLLMENT_SECONDS).contains(&expires_in_seconds) {
            return Err(
                CommonError::validation(format!("expiresIn must be 1 to {MAX_ENROLLMENT_SECONDS} seconds")).into()
            );
        }
        let name = name.trim();
        if name.is_empty() || name.len() > 200 {
            return Err(CommonError::validation("a connector name needs 1 to 200 characters").into());
        }
        let secret = secrets::new_secret("acc_enroll_");
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let token = enrollment_token::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(path.organization_id),
            workspace_id: Set(workspace_id),
            name: Set(name.to_owned()),
            token_hash: Set(secrets::hash_secret(&secret)),
            expires_at: Set(now + chrono::Duration::seconds(expires_in_seconds)),
            used_at: Set(None),
            created_by: Set(actor.user_id),
            created_at: Set(now),
        }
        .insert(&txn)
        .await?;
        let created = Entry::by(actor, AuditAction::EnrollmentTokenCreated)
            .on(AuditTargetKind::EnrollmentToken, token.id)
            .at(&path)
            .with("name", token.name.clone())
            .with("expires_at", token.expires_at.to_rfc3339());
        self.audit.append(&txn, created).await?;
        txn.commit().await?;
        Ok((secret, token))
    }

    /// Exchanges an enrollment token for a connector identity: a bearer credential and, for the key
    /// of a certificate signing request (PEM), a client certificate from the connector CA. The
    /// token is checked and claimed before anything is signed, so a wrong one costs no signing; a
    /// bad request rolls the claim back, so it uses the token up only once a certificate is issued.
    pub async fn enroll(&self, token: &str, name: Option<&str>, csr: Option<&str>) -> Result<Enrolled> {
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let found = enrollment_token::Entity::find()
            .filter(enrollment_token::Column::TokenHash.eq(secrets::hash_secret(token)))
            .one(&txn)
            .await?
            .filter(|t| t.used_at.is_none() && t.expires_at > now)
            .ok_or(GatewayError::EnrollmentRefused)?;
        // Only one presenter can use the token.
        let used = enrollment_token::Entity::update_many()
            .col_expr(enrollment_token::Column::UsedAt, Expr::value(now))
            .filter(enrollment_token::Column::Id.eq(found.id))
            .filter(enrollment_token::Column::UsedAt.is_null())
            .exec(&txn)
            .await?;
        if used.rows_affected == 0 {
            return Err(GatewayError::EnrollmentRefused);
        }
        let id = new_id();
        let certificate = csr.map(|csr| self.ca.issue(csr, id)).transpose()?;
        let credential = secrets::new_secret("acc_conn_");
        let name = name.map(str::trim).filter(|n| !n.is_empty()).unwrap_or(&found.name);
        let connector = connector::ActiveModel {
            id: Set(id),
            organization_id: Set(found.organization_id),
            workspace_id: Set(found.workspace_id),
            name: Set(name.chars().take(200).collect()),
            credential_hash: Set(secrets::hash_secret(&credential)),
            version: Set(None),
            online: Set(false),
            health: Set(None),
            last_seen_at: Set(None),
            revoked_at: Set(None),
            certificate_sha256: Set(certificate.as_ref().map(|(_, fingerprint)| fingerprint.clone())),
            removed_at: Set(None),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&txn)
        .await?;
        let enrolled =
            Entry::new(connector.organization_id, AuditActor::Connector(connector.id), AuditAction::ConnectorEnrolled)
                .on(AuditTargetKind::Connector, connector.id)
                .at(&ScopePath::workspace(connector.organization_id, connector.workspace_id))
                .with("name", connector.name.clone())
                .with("enrollment_token_id", found.id.to_string())
                .with("certificate", certificate.is_some());
        self.audit.append(&txn, enrolled).await?;
        txn.commit().await?;
        tracing::info!(connector_id = %connector.id, certificate = certificate.is_some(), "connector enrolled");
        // Whoever watches the workspace's connectors (the Agents page) sees it at once, offline
        // until it dials in, rather than at their next reload.
        self.broker
            .publish(Topic::WorkspaceConnectors(connector.workspace_id), Event::ConnectorStatus(connector.clone()));
        Ok(Enrolled { connector, credential, certificate: certificate.map(|(pem, _)| pem) })
    }

    /// The connector a credential belongs to, unless it was revoked; unless the operator chose
    /// credential-only authentication, with the client certificate issued to it.
    pub async fn authenticate(&self, credential: &str, check: CertificateCheck<'_>) -> Result<connector::Model> {
        let connector = connector::Entity::find()
            .filter(connector::Column::CredentialHash.eq(secrets::hash_secret(credential)))
            .one(&self.db)
            .await?
            .filter(|c| c.revoked_at.is_none())
            .ok_or(GatewayError::ConnectorRefused)?;
        match check {
            CertificateCheck::CredentialOnly => Ok(connector),
            CertificateCheck::Required(presented) => {
                match (&connector.certificate_sha256, presented.map(ca::fingerprint)) {
                    (Some(issued), Some(presented)) if *issued == presented => Ok(connector),
                    _ => Err(GatewayError::CertificateRequired),
                }
            }
        }
    }

    /// Records what the connector offers and registers its socket. Returns the agents' ids.
    pub async fn handshake(
        &self,
        connector: &connector::Model,
        version: &str,
        agents: &[AgentDescriptor],
        connection: Uuid,
        outbox: mpsc::Sender<Envelope>,
    ) -> Result<Vec<AgentId>> {
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let mut ids = Vec::with_capacity(agents.len());
        for descriptor in agents {
            let capabilities = serde_json::json!(descriptor.capabilities);
            let existing = agent::Entity::find()
                .filter(agent::Column::ConnectorId.eq(connector.id))
                .filter(agent::Column::Name.eq(&descriptor.name))
                .one(&txn)
                .await?;
            let row = match existing {
                Some(row) => {
                    let revision = row.revision;
                    let mut active: agent::ActiveModel = row.into();
                    active.adapter = Set(descriptor.adapter.clone());
                    active.adapter_version = Set(descriptor.adapter_version.clone());
                    active.runtime_version = Set(descriptor.runtime_version.clone());
                    active.capabilities = Set(capabilities.clone());
                    active.revision = Set(revision + 1);
                    active.updated_at = Set(now);
                    active.update(&txn).await?
                }
                None => {
                    agent::ActiveModel {
                        id: Set(new_id()),
                        organization_id: Set(connector.organization_id),
                        workspace_id: Set(connector.workspace_id),
                        connector_id: Set(connector.id),
                        name: Set(descriptor.name.clone()),
                        adapter: Set(descriptor.adapter.clone()),
                        adapter_version: Set(descriptor.adapter_version.clone()),
                        runtime_version: Set(descriptor.runtime_version.clone()),
                        capabilities: Set(capabilities.clone()),
                        revision: Set(1),
                        created_at: Set(now),
                        updated_at: Set(now),
                    }
                    .insert(&txn)
                    .await?
                }
            };
            capability_snapshot::ActiveModel {
                id: Set(new_id()),
                agent_id: Set(row.id),
                adapter_version: Set(descriptor.adapter_version.clone()),
                runtime_version: Set(descriptor.runtime_version.clone()),
                capabilities: Set(capabilities),
                created_at: Set(now),
            }
            .insert(&txn)
            .await?;
            ids.push(AgentId { name: row.name, agent_id: row.id });
        }
        connector::Entity::update_many()
            .col_expr(connector::Column::Online, Expr::value(true))
            .col_expr(connector::Column::Version, Expr::value(version))
            .col_expr(connector::Column::Health, Expr::value("healthy"))
            .col_expr(connector::Column::LastSeenAt, Expr::value(now))
            .col_expr(connector::Column::UpdatedAt, Expr::value(now))
            .filter(connector::Column::Id.eq(connector.id))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        if let Ok(mut connections) = self.registry.connections.lock() {
            connections.insert(connector.id, (connection, outbox));
        }
        self.announce(connector.id).await?;
        Ok(ids)
    }

    pub async fn heartbeat(&self, connector_id: Uuid, status: HealthStatus) -> Result<()> {
        let health = match status {
            HealthStatus::Healthy => "healthy",
            HealthStatus::Degraded => "degraded",
            HealthStatus::Unhealthy => "unhealthy",
        };
        let before = connector::Entity::find_by_id(connector_id).one(&self.db).await?;
        connector::Entity::update_many()
            .col_expr(connector::Column::LastSeenAt, Expr::value(Utc::now()))
            .col_expr(connector::Column::Health, Expr::value(health))
            .filter(connector::Column::Id.eq(connector_id))
            .exec(&self.db)
            .await?;
        if before.and_then(|c| c.health).as_deref() != Some(health) {
            self.announce(connector_id).await?;
        }
        Ok(())
    }

    /// The socket closed: the connector is offline until it dials in again.
    pub async fn disconnected(&self, connector_id: Uuid, connection: Uuid) -> Result<()> {
        if let Ok(mut connections) = self.registry.connections.lock() {
            // A newer connection of the same connector may already have replaced this one.
            if connections.get(&connector_id).is_some_and(|(current, _)| *current == connection) {
                connections.remove(&connector_id);
            } else {
                return Ok(());
            }
        }
        connector::Entity::update_many()
            .col_expr(connector::Column::Online, Expr::value(false))
            .col_expr(connector::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(connector::Column::Id.eq(connector_id))
            .exec(&self.db)
            .await?;
        self.announce(connector_id).await
    }

    /// At start-up nobody is connected to this replica yet.
    pub async fn mark_all_offline(&self) -> Result<()> {
        connector::Entity::update_many()
            .col_expr(connector::Column::Online, Expr::value(false))
            .filter(connector::Column::Online.eq(true))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    async fn announce(&self, connector_id: Uuid) -> Result<()> {
        if let Some(row) = connector::Entity::find_by_id(connector_id).one(&self.db).await? {
            self.broker.publish(Topic::WorkspaceConnectors(row.workspace_id), Event::ConnectorStatus(row));
        }
        Ok(())
    }

    /// Queues a frame for a connected connector; false if it is not connected here.
    pub fn send(&self, connector_id: Uuid, envelope: Envelope) -> bool {
        let sender = self.registry.connections.lock().ok().and_then(|c| c.get(&connector_id).map(|(_, s)| s.clone()));
        sender.is_some_and(|s| s.try_send(envelope).is_ok())
    }

    /// Connectors connected to this process now.
    pub fn connected(&self) -> usize {
        self.registry.connections.lock().map(|c| c.len()).unwrap_or(0)
    }

    pub fn is_connected(&self, connector_id: Uuid) -> bool {
        self.registry.connections.lock().map(|c| c.contains_key(&connector_id)).unwrap_or(false)
    }

    pub async fn connector(&self, actor: &Actor, id: Uuid) -> Result<connector::Model> {
        let row = connector::Entity::find_by_id(id).one(&self.db).await?.ok_or(CommonError::NotFound("connector"))?;
        actor.authorize(Permission::Read, &ScopePath::workspace(row.organization_id, row.workspace_id), "connector")?;
        Ok(row)
    }

    /// A connector the caller administers (its workspace's admins): seen but not administered is
    /// `FORBIDDEN`, not seen is `NOT_FOUND`.
    async fn connector_to_administer(&self, actor: &Actor, id: Uuid) -> Result<connector::Model> {
        let row = self.connector(actor, id).await?;
        let workspace = ScopePath::workspace(row.organization_id, row.workspace_id);
        actor.authorize(Permission::Administer, &workspace, "connector")?;
        Ok(row)
    }

    /// Revokes a connector: its socket is closed now and its credential refused from now on.
    pub async fn revoke_connector(&self, actor: &Actor, id: Uuid) -> Result<connector::Model> {
        let row = self.connector_to_administer(actor, id).await?;
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let revoked = connector::Entity::update_many()
            .col_expr(connector::Column::RevokedAt, Expr::value(now))
            .col_expr(connector::Column::Online, Expr::value(false))
            .col_expr(connector::Column::UpdatedAt, Expr::value(now))
            .col_expr(connector::Column::Revision, Expr::value(row.revision + 1))
            .filter(connector::Column::Id.eq(id))
            .filter(connector::Column::RevokedAt.is_null())
            .exec(&txn)
            .await?;
        if revoked.rows_affected > 0 {
            self.audit.append(&txn, connector_entry(actor, AuditAction::ConnectorRevoked, &row)).await?;
        }
        txn.commit().await?;
        // Dropping the outbox ends the socket's writer, which closes the connection.
        if let Ok(mut connections) = self.registry.connections.lock() {
            connections.remove(&id);
        }
        self.announce(id).await?;
        tracing::info!(connector_id = %id, "connector revoked");
        self.connector(actor, id).await
    }

    /// Removes a revoked connector: it and its agents leave `connectors` and `agents`, and no run
    /// can be started on or handed to its agents. The rows stay, so runs and attempts that used
    /// them keep naming them. Removing one again changes nothing.
    pub async fn remove_connector(&self, actor: &Actor, id: Uuid) -> Result<connector::Model> {
        let row = self.connector_to_administer(actor, id).await?;
        if row.revoked_at.is_none() {
            return Err(GatewayError::NotRevoked);
        }
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let removed = connector::Entity::update_many()
            .col_expr(connector::Column::RemovedAt, Expr::value(now))
            .col_expr(connector::Column::UpdatedAt, Expr::value(now))
            .col_expr(connector::Column::Revision, Expr::col(connector::Column::Revision).add(1))
            .filter(connector::Column::Id.eq(id))
            .filter(connector::Column::RemovedAt.is_null())
            .exec(&txn)
            .await?;
        if removed.rows_affected > 0 {
            self.audit.append(&txn, connector_entry(actor, AuditAction::ConnectorRemoved, &row)).await?;
        }
        txn.commit().await?;
        if removed.rows_affected > 0 {
            self.announce(id).await?;
            tracing::info!(connector_id = %id, "connector removed");
        }
        self.connector(actor, id).await
    }

    /// Connectors of the workspaces the caller can read.
    pub async fn connectors(&self, actor: &Actor, workspace_id: Option<Uuid>) -> Result<Vec<connector::Model>> {
        let mut select = connector::Entity::find()
            .filter(connector::Column::OrganizationId.eq(actor.organization_id))
            .filter(connector::Column::RemovedAt.is_null());
        if let Some(ws) = workspace_id {
            let path = self.workspace_path(actor, ws).await?;
            actor.authorize(Permission::Read, &path, "workspace")?;
            select = select.filter(connector::Column::WorkspaceId.eq(ws));
        }
        let rows = select.order_by_asc(connector::Column::Id).all(&self.db).await?;
        Ok(rows
            .into_iter()
            .filter(|c| actor.role_on(&ScopePath::workspace(c.organization_id, c.workspace_id)).is_some())
            .collect())
    }

    pub async fn agent(&self, actor: &Actor, id: Uuid) -> Result<agent::Model> {
        let row = agent::Entity::find_by_id(id).one(&self.db).await?.ok_or(CommonError::NotFound("agent"))?;
        actor.authorize(Permission::Read, &ScopePath::workspace(row.organization_id, row.workspace_id), "agent")?;
        Ok(row)
    }

    /// An agent a run may be started on or handed to: readable, and not of a removed connector.
    pub async fn assignable_agent(&self, actor: &Actor, id: Uuid) -> Result<agent::Model> {
        let row = self.agent(actor, id).await?;
        match self.connector_of(&row).await? {
            Some(connector) if connector.removed_at.is_none() => Ok(row),
            _ => Err(CommonError::NotFound("agent").into()),
        }
    }

    /// Of `ids`, the agents the caller may read.
    pub async fn agents_by_ids(&self, actor: &Actor, ids: &[Uuid]) -> Result<Vec<agent::Model>> {
        let rows = agent::Entity::find()
            .filter(agent::Column::Id.is_in(ids.iter().copied()))
            .filter(agent::Column::OrganizationId.eq(actor.organization_id))
            .all(&self.db)
            .await?;
        Ok(rows
            .into_iter()
            .filter(|a| actor.role_on(&ScopePath::workspace(a.organization_id, a.workspace_id)).is_some())
            .collect())
    }

    /// Agents that can serve a project (those of its workspace), optionally with a capability.
    pub async fn agents(
        &self,
        actor: &Actor,
        project_id: Uuid,
        capability: Option<Capability>,
    ) -> Result<Vec<agent::Model>> {
        let project =
            project::Entity::find_by_id(project_id).one(&self.db).await?.ok_or(CommonError::NotFound("project"))?;
        actor.authorize(
            Permission::Read,
            &ScopePath::project(project.organization_id, project.workspace_id, project.id),
            "project",
        )?;
        let removed = Query::select()
            .column(connector::Column::Id)
            .from(connector::Entity)
            .and_where(connector::Column::RemovedAt.is_not_null())
            .to_owned();
        let rows = agent::Entity::find()
            .filter(agent::Column::WorkspaceId.eq(project.workspace_id))
            .filter(agent::Column::ConnectorId.not_in_subquery(removed))
            .order_by_asc(agent::Column::Id)
            .all(&self.db)
            .await?;
        Ok(rows.into_iter().filter(|a| capability.is_none_or(|c| capabilities(a).contains(&c))).collect())
    }

    pub async fn connector_of(&self, agent: &agent::Model) -> Result<Option<connector::Model>> {
        Ok(connector::Entity::find_by_id(agent.connector_id).one(&self.db).await?)
    }
}

/// The capabilities an agent declared at its last handshake.
pub fn capabilities(agent: &agent::Model) -> Vec<Capability> {
    serde_json::from_value(agent.capabilities.clone()).unwrap_or_default()
}

/// What `actor` did to connector `row`, in its workspace.
fn connector_entry(actor: &Actor, action: AuditAction, row: &connector::Model) -> Entry {
    Entry::by(actor, action)
        .on(AuditTargetKind::Connector, row.id)
        .at(&ScopePath::workspace(row.organization_id, row.workspace_id))
        .with("name", row.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_enrollment_never_shows_its_credential() {
        let now = Utc::now();
        let id = new_id();
        let credential = secrets::new_secret("acc_conn_");
        let enrolled = Enrolled {
            connector: connector::Model {
                id,
                organization_id: id,
                workspace_id: id,
                name: "host".into(),
                credential_hash: secrets::hash_secret(&credential),
                version: None,
                online: false,
                health: None,
                last_seen_at: None,
                revoked_at: None,
                removed_at: None,
                certificate_sha256: None,
                revision: 1,
                created_at: now,
                updated_at: now,
            },
            credential: credential.clone(),
            certificate: None,
        };
        let shown = format!("{enrolled:?}");
        assert!(!shown.contains(&credential) && !shown.contains(&secrets::hash_secret(&credential)), "{shown}");
        assert!(shown.contains(&id.to_string()), "{shown}");
    }
}
