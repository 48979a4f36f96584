//! Global Object Identification: the `Node` interface and `node(id:)` for every object type.

use async_graphql::{Context, ID, Interface, Object};

use super::{ContextExt, gql_error};
use crate::approvals::graphql::Approval;
use crate::artifacts::graphql::{Artifact, ArtifactVersion};
use crate::audit::graphql::AuditEvent;
use crate::candidates::graphql::Candidate;
use crate::gateway::graphql::{Agent, Connector, EnrollmentToken};
use crate::identity::graphql::{ApiToken, Organization, RoleBinding, Session, User};
use crate::ids::{GlobalId, NodeKind};
use crate::memory::graphql::{MemoryConflict, MemoryEntry, MemoryVersion};
use crate::notifications::graphql::Notification;
use crate::projects::graphql::{AcceptanceCriterion, Project, Task, Workspace};
use crate::runs::graphql::TaskRun;
use crate::settings::graphql::SettingsLayer;
use crate::skills::graphql::{Skill, SkillActivation, SkillPublisherKey, SkillVersion};
use crate::usage::graphql::BudgetPolicy;
use crate::wiki::graphql::{WikiAttachment, WikiNamespace, WikiPage, WikiRevision};

#[derive(Interface)]
#[graphql(field(name = "id", ty = "ID"))]
pub enum Node {
    Organization(Organization),
    User(User),
    Session(Session),
    ApiToken(ApiToken),
    RoleBinding(RoleBinding),
    Workspace(Workspace),
    Project(Project),
    Task(Task),
    AcceptanceCriterion(AcceptanceCriterion),
    SettingsLayer(SettingsLayer),
    EnrollmentToken(EnrollmentToken),
    Connector(Connector),
    Agent(Agent),
    TaskRun(TaskRun),
    Approval(Approval),
    MemoryEntry(MemoryEntry),
    MemoryVersion(MemoryVersion),
    MemoryConflict(MemoryConflict),
    Artifact(Artifact),
    ArtifactVersion(ArtifactVersion),
    WikiNamespace(WikiNamespace),
    WikiPage(WikiPage),
    WikiRevision(WikiRevision),
    WikiAttachment(WikiAttachment),
    Skill(Skill),
    SkillVersion(SkillVersion),
    SkillActivation(SkillActivation),
    SkillPublisherKey(SkillPublisherKey),
    Candidate(Candidate),
    AuditEvent(AuditEvent),
    BudgetPolicy(BudgetPolicy),
    Notification(Notification),
}

#[derive(Default)]
pub struct NodeQuery;

#[Object]
impl NodeQuery {
    /// Any object by its global id, if the caller may see it.
    async fn node(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<Node> {
        let gid = GlobalId::decode(&id).map_err(gql_error)?;
        let actor = ctx.actor()?;
        let services = ctx.services();
        let (identity, projects) = (&services.identity, &services.projects);
        let id = gid.id;
        Ok(match gid.kind {
            NodeKind::Organization => {
                Node::Organization(Organization(identity.organization(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::User => Node::User(User(identity.user(actor, id).await.map_err(gql_error)?)),
            NodeKind::Session => Node::Session(Session(identity.session(actor, id).await.map_err(gql_error)?)),
            NodeKind::ApiToken => Node::ApiToken(ApiToken(identity.api_token(actor, id).await.map_err(gql_error)?)),
            NodeKind::RoleBinding => {
                Node::RoleBinding(RoleBinding(identity.role_binding(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::Workspace => Node::Workspace(Workspace(projects.workspace(actor, id).await.map_err(gql_error)?)),
            NodeKind::Project => Node::Project(Project(projects.project(actor, id).await.map_err(gql_error)?)),
            NodeKind::Task => Node::Task(Task(projects.task(actor, id).await.map_err(gql_error)?)),
            NodeKind::AcceptanceCriterion => Node::AcceptanceCriterion(AcceptanceCriterion(
                projects.acceptance_criterion(actor, id).await.map_err(gql_error)?,
            )),
            NodeKind::SettingsLayer => {
                Node::SettingsLayer(SettingsLayer(services.settings.layer(actor, id).await.map_err(gql_error)?))
            }
            // Enrollment tokens are secrets handed out once; they are not looked up again.
            NodeKind::EnrollmentToken => {
                return Err(gql_error(crate::error::CommonError::NotFound("enrollment token")));
            }
            NodeKind::Connector => {
                Node::Connector(Connector(services.gateway.connector(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::Agent => Node::Agent(Agent(services.gateway.agent(actor, id).await.map_err(gql_error)?)),
            NodeKind::TaskRun => Node::TaskRun(TaskRun(services.run_reader.run(actor, id).await.map_err(gql_error)?)),
            NodeKind::Approval => {
                Node::Approval(Approval(services.approvals.approval(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::MemoryEntry => {
                Node::MemoryEntry(MemoryEntry(services.memory.entry(actor, id, None).await.map_err(gql_error)?))
            }
            NodeKind::MemoryVersion => {
                Node::MemoryVersion(MemoryVersion(services.memory.version(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::MemoryConflict => {
                Node::MemoryConflict(MemoryConflict(services.memory.conflict(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::Artifact => {
                Node::Artifact(Artifact(services.artifacts.artifact(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::ArtifactVersion => {
                Node::ArtifactVersion(ArtifactVersion(services.artifacts.version(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::WikiNamespace => {
                Node::WikiNamespace(WikiNamespace(services.wiki.namespace(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::WikiPage => Node::WikiPage(WikiPage(services.wiki.page(actor, id).await.map_err(gql_error)?)),
            NodeKind::WikiRevision => {
                Node::WikiRevision(WikiRevision(services.wiki.revision_by_id(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::WikiAttachment => {
                Node::WikiAttachment(WikiAttachment(services.wiki.attachment(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::Skill => Node::Skill(Skill(services.skills.skill(actor, id).await.map_err(gql_error)?)),
            NodeKind::SkillVersion => {
                Node::SkillVersion(SkillVersion(services.skills.version(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::SkillActivation => {
                Node::SkillActivation(SkillActivation(services.skills.activation(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::Candidate => {
                Node::Candidate(Candidate(services.candidates.candidate(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::AuditEvent => {
                let reader = services.audit.reader(actor).map_err(gql_error)?;
                Node::AuditEvent(AuditEvent(services.audit.event(&reader, id).await.map_err(gql_error)?))
            }
            NodeKind::BudgetPolicy => {
                Node::BudgetPolicy(BudgetPolicy(services.usage.budget(actor, id).await.map_err(gql_error)?))
            }
            NodeKind::Notification => Node::Notification(Notification(
                services.notifications.notification(actor, id).await.map_err(gql_error)?,
            )),
            NodeKind::SkillPublisherKey => {
                Node::SkillPublisherKey(SkillPublisherKey(services.skills.key(actor, id).await.map_err(gql_error)?))
            }
        })
    }
}
