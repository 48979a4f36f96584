//! GraphQL types and thin resolvers for approvals: the inbox, deciding, and the live feed. A
//! decision goes to the domain its subject belongs to.

use acc_entity::approval::{self, ApprovalSubject as DomainSubject};
use async_graphql::connection::Connection;
use async_graphql::{Context, Enum, ID, Json, Object, Subscription};
use chrono::{DateTime, Utc};
use futures_util::{Stream, StreamExt};

use crate::broker::{Delivery, Event, Topic};
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{BatchLoader, ContextExt, Ordered, gql_error};
use crate::identity::graphql::{User, load_user};
use crate::ids::{NodeKind, decode, gid};
use crate::runs::graphql::TaskRun;
use crate::skills::graphql::SkillActivation;
use crate::wiki::graphql::{RevisionById, WikiLoader, WikiPage, WikiRevision};

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "approval::ApprovalStatus")]
pub enum ApprovalStatus {
    Pending,
    Approved,
    Denied,
    /// Nobody decided in time; an agent was told no.
    Expired,
    /// Its run ended or was cancelled, or a revision at least as new was published, before anyone
    /// decided.
    Cancelled,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::approvals::Decision")]
pub enum ApprovalDecision {
    Approve,
    Deny,
}

/// What an approval decides.
#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "approval::ApprovalSubject")]
pub enum ApprovalSubject {
    /// An action an agent asked to take in its run (`run`).
    RunAction,
    /// Publishing a wiki revision (`wikiRevision`) into an authoritative namespace.
    WikiPublication,
    /// Activating a skill version whose package has scripts (`skillActivation`).
    SkillActivation,
}

/// A decision someone asked a person for: an agent before an action, or a person before a wiki
/// revision is published or a skill with scripts is activated.
pub struct Approval(pub approval::Model);

#[Object]
impl Approval {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Approval, self.0.id)
    }
    async fn subject(&self) -> ApprovalSubject {
        self.0.subject.into()
    }
    /// The run whose agent asked, for a run's action.
    async fn run(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<TaskRun>> {
        let Some(run_id) = self.0.run_id else { return Ok(None) };
        ctx.services().run_reader.run(ctx.actor()?, run_id).await.map(|r| Some(TaskRun(r))).map_err(gql_error)
    }
    /// The revision to publish, for a wiki publication.
    async fn wiki_revision(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<WikiRevision>> {
        Ok(self.wiki(ctx).await?.map(|at| WikiRevision(at.revision)))
    }
    /// The page of that revision, as it is now.
    async fn wiki_page(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<WikiPage>> {
        Ok(self.wiki(ctx).await?.map(|at| WikiPage(at.page)))
    }
    /// The activation waiting for it, for a skill activation.
    async fn skill_activation(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<SkillActivation>> {
        let Some(id) = self.0.skill_activation_id else { return Ok(None) };
        let skills = &ctx.services().skills;
        skills.activation(ctx.actor()?, id).await.map(|a| Some(SkillActivation(a))).map_err(gql_error)
    }
    /// The person who asked; none when an agent did.
    async fn requested_by(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        match self.0.requested_by_user_id {
            Some(id) => load_user(ctx, id).await,
            None => Ok(None),
        }
    }
    /// What is to be done, as the requester described it; an agent's approval token is bound to
    /// exactly this.
    async fn action(&self) -> &str {
        &self.0.action
    }
    /// Why the requester says it is needed.
    async fn reason(&self) -> Option<&str> {
        self.0.reason.as_deref()
    }
    async fn details(&self) -> Json<serde_json::Value> {
        Json(self.0.details.clone())
    }
    async fn status(&self) -> ApprovalStatus {
        self.0.status.into()
    }
    /// When a pending approval expires (and counts as denied).
    async fn expires_at(&self) -> DateTime<Utc> {
        self.0.expires_at
    }
    async fn decided_by(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        match self.0.decided_by {
            Some(id) => load_user(ctx, id).await,
            None => Ok(None),
        }
    }
    async fn decided_at(&self) -> Option<DateTime<Utc>> {
        self.0.decided_at
    }
    async fn decision_reason(&self) -> Option<&str> {
        self.0.decision_reason.as_deref()
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

impl Approval {
    async fn wiki(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<crate::wiki::PageAt>> {
        let Some(id) = self.0.wiki_revision_id else { return Ok(None) };
        ctx.data_unchecked::<BatchLoader<WikiLoader>>().load_one(RevisionById(id)).await
    }
}

#[derive(Default)]
pub struct ApprovalQuery;

#[Object]
impl ApprovalQuery {
    /// Approvals of one project, or of every project and workspace the caller can read; by
    /// default the pending ones (an approvals inbox), oldest first.
    #[allow(clippy::too_many_arguments)]
    async fn approvals(
        &self,
        ctx: &Context<'_>,
        project_id: Option<ID>,
        #[graphql(default_with = "Some(ApprovalStatus::Pending)")] status: Option<ApprovalStatus>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Approval>> {
        let project = project_id.map(|id| decode(&id, NodeKind::Project)).transpose()?;
        let page = page_request(after, before, first, last)?;
        let status = status.map(Into::into);
        let rows = ctx.services().approvals.approvals(ctx.actor()?, project, status, &page).await.map_err(gql_error)?;
        Ok(connection(rows, |a| a.id, Approval))
    }
}

#[derive(Default)]
pub struct ApprovalMutation;

#[Object]
impl ApprovalMutation {
    /// Approves or denies. For an agent's action, approving sends its connector a short-lived,
    /// single-use token bound to the run and the action, and the run goes on either way. For a
    /// wiki publication, approving publishes the revision; its author may not approve it. For a
    /// skill activation, approving makes it active; whoever activated it may not approve it.
    async fn decide_approval(
        &self,
        ctx: &Context<'_>,
        approval_id: ID,
        decision: ApprovalDecision,
        reason: Option<String>,
    ) -> async_graphql::Result<Approval> {
        let id = decode(&approval_id, NodeKind::Approval)?;
        let (services, actor) = (ctx.services(), ctx.actor()?);
        let approval = services.approvals.approval(actor, id).await.map_err(gql_error)?;
        let decision = decision.into();
        let decided = match approval.subject {
            DomainSubject::RunAction => {
                services.runs.decide_approval(actor, &approval, decision, reason).await.map_err(gql_error)?
            }
            DomainSubject::WikiPublication => {
                services.wiki.decide_publication(actor, &approval, decision, reason).await.map_err(gql_error)?
            }
            DomainSubject::SkillActivation => {
                services.skills.decide_activation(actor, &approval, decision, reason).await.map_err(gql_error)?
            }
        };
        Ok(Approval(decided))
    }
}

#[derive(Default)]
pub struct ApprovalSubscription;

#[Subscription]
impl ApprovalSubscription {
    /// Approvals as they are requested, decided, expire or are cancelled: of one project, or of
    /// every project and workspace the caller can read when the subscription starts.
    async fn approval_updated(
        &self,
        ctx: &Context<'_>,
        project_id: Option<ID>,
    ) -> async_graphql::Result<impl Stream<Item = Approval>> {
        let project = project_id.map(|id| decode(&id, NodeKind::Project)).transpose()?;
        let actor = ctx.actor()?;
        let services = ctx.services();
        // Listening before the first wait: see `LISTEN_FIRST` in http/graphql_ws.rs.
        let live = services.broker.subscribe(Topic::OrganizationApprovals(actor.organization_id));
        let audience = services.approvals.audience(actor, project).await.map_err(gql_error)?;
        Ok(live.filter_map(move |delivery| {
            let shown = match delivery {
                Delivery::Event(event) => match &*event {
                    Event::Approval(approval) if audience.admits(approval) => Some(Approval(approval.clone())),
                    _ => None,
                },
                Delivery::Lagged(_) => None,
            };
            async move { shown }
        }))
    }
}
