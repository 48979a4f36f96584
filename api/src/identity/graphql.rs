//! GraphQL types and thin resolvers for identity: sign-in, sessions, API tokens, organizations, users and roles.

use std::collections::HashMap;

use acc_entity::{api_token, device_session, organization, role_binding, user};
use async_graphql::connection::Connection;
use async_graphql::dataloader::Loader;

use async_graphql::{ComplexObject, Context, Data, Enum, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::actor::{Actor, Role as DomainRole, ScopeKind};
use super::oidc::OidcCallback;
use super::{ApiScope as DomainApiScope, DeviceInfo, NewUser, SignIn};
use crate::app::Services;
use crate::error::CommonError;
use crate::graphql::connection::{connection, page_request};
use crate::graphql::{BatchLoader, ContextExt, Ordered, gql_error};
use crate::ids::{GlobalId, NodeKind, decode, gid};

/// A scope for role bindings (and memory): an organization, workspace or project id.
pub(crate) fn decode_scope(raw: &ID) -> async_graphql::Result<(ScopeKind, Uuid)> {
    let id = GlobalId::decode(raw).map_err(gql_error)?;
    let kind = match id.kind {
        NodeKind::Organization => ScopeKind::Organization,
        NodeKind::Workspace => ScopeKind::Workspace,
        NodeKind::Project => ScopeKind::Project,
        _ => {
            return Err(gql_error(CommonError::validation("a scope is an organization, workspace or project id")));
        }
    };
    Ok((kind, id.id))
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::identity::actor::Role")]
pub enum Role {
    Viewer,
    Member,
    Operator,
    Admin,
    Owner,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::identity::ApiScope")]
pub enum ApiScope {
    Read,
    Write,
    Operate,
    Admin,
}

pub struct Organization(pub organization::Model);

#[Object]
impl Organization {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Organization, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

pub struct User(pub user::Model);

#[Object]
impl User {
    pub async fn id(&self) -> ID {
        gid(NodeKind::User, self.0.id)
    }
    async fn email(&self) -> &str {
        &self.0.email
    }
    async fn display_name(&self) -> &str {
        &self.0.display_name
    }
    /// Whether this account may create organizations on this server.
    async fn is_server_admin(&self) -> bool {
        self.0.is_server_admin
    }
    /// A disabled account cannot sign in, and its sessions and API tokens do not work.
    async fn disabled(&self) -> bool {
        self.0.disabled
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn organization(&self, ctx: &Context<'_>) -> async_graphql::Result<Organization> {
        let actor = ctx.actor()?;
        ctx.services().identity.organization(actor, self.0.organization_id).await.map(Organization).map_err(gql_error)
    }
    async fn role_bindings(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<RoleBinding>> {
        let actor = ctx.actor()?;
        let bindings = ctx.services().identity.role_bindings_of(actor, self.0.id).await.map_err(gql_error)?;
        Ok(bindings.into_iter().map(RoleBinding).collect())
    }
}

pub struct Session(pub device_session::Model);

#[Object]
impl Session {
    pub async fn id(&self) -> ID {
        gid(NodeKind::Session, self.0.id)
    }
    async fn device_name(&self) -> &str {
        &self.0.device_name
    }
    async fn client_address(&self) -> Option<&str> {
        self.0.client_address.as_deref()
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    async fn last_used_at(&self) -> DateTime<Utc> {
        self.0.last_used_at
    }
    async fn revoked_at(&self) -> Option<DateTime<Utc>> {
        self.0.revoked_at
    }
    async fn revoked_reason(&self) -> Option<&str> {
        self.0.revoked_reason.as_deref()
    }
    /// Whether this is the session the request was made with.
    async fn current(&self, ctx: &Context<'_>) -> bool {
        ctx.request().actor.as_ref().and_then(|a| a.session_id) == Some(self.0.id)
    }
}

pub struct ApiToken(pub api_token::Model);

#[Object]
impl ApiToken {
    pub async fn id(&self) -> ID {
        gid(NodeKind::ApiToken, self.0.id)
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn scopes(&self) -> Vec<ApiScope> {
        serde_json::from_value::<Vec<DomainApiScope>>(self.0.scopes.clone())
            .unwrap_or_default()
            .into_iter()
            .map(ApiScope::from)
            .collect()
    }
    async fn expires_at(&self) -> Option<DateTime<Utc>> {
        self.0.expires_at
    }
    async fn revoked_at(&self) -> Option<DateTime<Utc>> {
        self.0.revoked_at
    }
    async fn revision(&self) -> i64 {
        self.0.revision
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

pub struct RoleBinding(pub role_binding::Model);

#[Object]
impl RoleBinding {
    pub async fn id(&self) -> ID {
        gid(NodeKind::RoleBinding, self.0.id)
    }
    async fn role(&self) -> async_graphql::Result<Role> {
        self.0.role.parse::<DomainRole>().map(Role::from).map_err(gql_error)
    }
    /// The organization, workspace or project the role applies to.
    async fn scope_id(&self) -> ID {
        let kind = match ScopeKind::parse(&self.0.scope_kind) {
            Some(ScopeKind::Workspace) => NodeKind::Workspace,
            Some(ScopeKind::Project) => NodeKind::Project,
            _ => NodeKind::Organization,
        };
        gid(kind, self.0.scope_id)
    }
    async fn subject(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Ordered<User>>> {
        load_user(ctx, self.0.subject_id).await
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
}

/// Tokens for a signed-in device. Keep the refresh token secret; it is shown only here.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct AuthPayload {
    access_token: String,
    access_token_expires_at: DateTime<Utc>,
    refresh_token: String,
    #[graphql(skip)]
    sign_in: SignIn,
}

#[ComplexObject]
impl AuthPayload {
    async fn session(&self) -> Session {
        Session(self.sign_in.session.clone())
    }
    async fn user(&self) -> User {
        User(self.sign_in.user.clone())
    }
    /// The signed-in user's organization (the request itself carries no caller yet).
    async fn organization(&self, ctx: &Context<'_>) -> async_graphql::Result<Organization> {
        ctx.services().identity.signed_in_organization(&self.sign_in).await.map(Organization).map_err(gql_error)
    }
}

impl From<SignIn> for AuthPayload {
    fn from(sign_in: SignIn) -> Self {
        Self {
            access_token: sign_in.access_token.clone(),
            access_token_expires_at: sign_in.access_token_expires_at,
            refresh_token: sign_in.refresh_token.clone(),
            sign_in,
        }
    }
}

/// An OpenID Connect provider people may sign in with.
#[derive(SimpleObject)]
pub struct SignInProvider {
    /// What `beginOidcSignIn` takes.
    id: String,
    /// What the button says after "Sign in with".
    name: String,
}

/// Where to send the person to sign in, and the secret that finishes it: keep it (in the tab's
/// session storage, say) and give it to `completeOidcSignIn` when the provider sends them back.
#[derive(SimpleObject)]
pub struct OidcSignInStart {
    authorization_url: String,
    flow: String,
}

/// A new API token; the secret is shown only once.
#[derive(SimpleObject)]
pub struct CreatedApiToken {
    secret: String,
    api_token: ApiToken,
}

pub struct UserLoader {
    services: Services,
    actor: Actor,
}

impl Loader<Uuid> for UserLoader {
    type Value = user::Model;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[Uuid]) -> Result<HashMap<Uuid, Self::Value>, Self::Error> {
        let users = self.services.identity.users_by_ids(&self.actor, keys).await.map_err(gql_error)?;
        Ok(users.into_iter().map(|u| (u.id, u)).collect())
    }
}

pub fn add_loaders(data: &mut Data, services: &Services, actor: &Actor) {
    data.insert(BatchLoader::new(UserLoader { services: services.clone(), actor: actor.clone() }));
}

/// A user by id through the request's loader, so a list of tasks asks for its assignees once.
pub async fn load_user(ctx: &Context<'_>, id: Uuid) -> async_graphql::Result<Option<Ordered<User>>> {
    let loader = ctx.data_unchecked::<BatchLoader<UserLoader>>();
    Ok(loader.load_one(id).await?.map(|u| Ordered(User(u))))
}

fn device(ctx: &Context<'_>, name: Option<String>) -> DeviceInfo {
    let mut device = ctx.request().device.clone();
    if let Some(name) = name {
        device.device_name = name;
    }
    device
}

#[derive(Default)]
pub struct IdentityQuery;

#[Object]
impl IdentityQuery {
    /// Whether the server still waits for its first owner (the bootstrap code is unredeemed).
    async fn bootstrap_required(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        Ok(!ctx.services().identity.has_users().await.map_err(gql_error)?)
    }

    /// The identity providers people may sign in with (anyone may ask, signed in or not).
    async fn sign_in_providers(&self, ctx: &Context<'_>) -> Vec<SignInProvider> {
        let providers = ctx.services().identity.sign_in_providers();
        providers.into_iter().map(|p| SignInProvider { id: p.id, name: p.name }).collect()
    }

    /// The signed-in user.
    async fn viewer(&self, ctx: &Context<'_>) -> async_graphql::Result<User> {
        let actor = ctx.actor()?;
        ctx.services().identity.user(actor, actor.user_id).await.map(User).map_err(gql_error)
    }

    /// The caller's organization.
    async fn organization(&self, ctx: &Context<'_>) -> async_graphql::Result<Organization> {
        let actor = ctx.actor()?;
        ctx.services().identity.organization(actor, actor.organization_id).await.map(Organization).map_err(gql_error)
    }

    /// Accounts of the caller's organization.
    async fn users(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, User>> {
        let actor = ctx.actor()?;
        let request = page_request(after, before, first, last)?;
        let page = ctx
            .services()
            .identity
            .users(actor, &request, ctx.services().limits.max_page_size)
            .await
            .map_err(gql_error)?;
        Ok(connection(page, |u| u.id, User))
    }

    /// The caller's device sessions, current and revoked.
    async fn sessions(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, Session>> {
        let actor = ctx.actor()?;
        let request = page_request(after, before, first, last)?;
        let page = ctx
            .services()
            .identity
            .sessions(actor, &request, ctx.services().limits.max_page_size)
            .await
            .map_err(gql_error)?;
        Ok(connection(page, |s| s.id, Session))
    }

    /// The caller's API tokens.
    async fn api_tokens(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> async_graphql::Result<Connection<String, ApiToken>> {
        let actor = ctx.actor()?;
        let request = page_request(after, before, first, last)?;
        let page = ctx
            .services()
            .identity
            .api_tokens(actor, &request, ctx.services().limits.max_page_size)
            .await
            .map_err(gql_error)?;
        Ok(connection(page, |t| t.id, ApiToken))
    }
}

#[derive(Default)]
pub struct IdentityMutation;

#[Object]
impl IdentityMutation {
    /// Creates the first organization and its owner with the code `acc serve` printed.
    async fn redeem_bootstrap(
        &self,
        ctx: &Context<'_>,
        code: String,
        organization_name: String,
        email: String,
        password: String,
        display_name: Option<String>,
    ) -> async_graphql::Result<AuthPayload> {
        let owner = NewUser { email, display_name: display_name.unwrap_or_default(), password };
        let device = device(ctx, None);
        let sign_in = ctx.services().identity.redeem_bootstrap(&code, &organization_name, owner, device).await;
        sign_in.map(AuthPayload::from).map_err(gql_error)
    }

    async fn login(
        &self,
        ctx: &Context<'_>,
        email: String,
        password: String,
        device_name: Option<String>,
    ) -> async_graphql::Result<AuthPayload> {
        let device = device(ctx, device_name);
        ctx.services().identity.login(&email, &password, device).await.map(AuthPayload::from).map_err(gql_error)
    }

    /// Begins a sign-in through an identity provider: send the person to `authorizationUrl`.
    /// `redirectUri` is where the provider sends them back, one of those the operator configured.
    async fn begin_oidc_sign_in(
        &self,
        ctx: &Context<'_>,
        provider: String,
        redirect_uri: String,
    ) -> async_graphql::Result<OidcSignInStart> {
        let address = ctx.request().device.client_address.clone();
        let identity = &ctx.services().identity;
        let start =
            identity.begin_oidc_sign_in(&provider, &redirect_uri, address.as_deref()).await.map_err(gql_error)?;
        Ok(OidcSignInStart { authorization_url: start.authorization_url, flow: start.flow })
    }

    /// Finishes a sign-in through an identity provider with the `flow` secret `beginOidcSignIn`
    /// gave and the `code`, `state` and `iss` the provider sent the person back with.
    async fn complete_oidc_sign_in(
        &self,
        ctx: &Context<'_>,
        flow: String,
        code: String,
        state: String,
        issuer: Option<String>,
        device_name: Option<String>,
    ) -> async_graphql::Result<AuthPayload> {
        let callback = OidcCallback { flow, code, state, issuer };
        let device = device(ctx, device_name);
        let sign_in = ctx.services().identity.complete_oidc_sign_in(callback, device).await;
        sign_in.map(AuthPayload::from).map_err(gql_error)
    }

    /// Exchanges a refresh token for new tokens; the old refresh token stops working.
    async fn refresh_session(&self, ctx: &Context<'_>, refresh_token: String) -> async_graphql::Result<AuthPayload> {
        ctx.services().identity.refresh_session(&refresh_token).await.map(AuthPayload::from).map_err(gql_error)
    }

    /// Ends the current session.
    async fn logout(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        ctx.services().identity.logout(ctx.actor()?).await.map(|_| true).map_err(gql_error)
    }

    async fn revoke_session(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<Session> {
        let id = decode(&id, NodeKind::Session)?;
        ctx.services().identity.revoke_session(ctx.actor()?, id).await.map(Session).map_err(gql_error)
    }

    async fn create_api_token(
        &self,
        ctx: &Context<'_>,
        name: String,
        scopes: Vec<ApiScope>,
        expires_at: Option<DateTime<Utc>>,
    ) -> async_graphql::Result<CreatedApiToken> {
        let scopes = scopes.into_iter().map(DomainApiScope::from).collect();
        let (secret, token) = ctx
            .services()
            .identity
            .create_api_token(ctx.actor()?, &name, scopes, expires_at)
            .await
            .map_err(gql_error)?;
        Ok(CreatedApiToken { secret, api_token: ApiToken(token) })
    }

    async fn revoke_api_token(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<ApiToken> {
        let id = decode(&id, NodeKind::ApiToken)?;
        ctx.services().identity.revoke_api_token(ctx.actor()?, id).await.map(ApiToken).map_err(gql_error)
    }

    /// A new tenant on this server with its first owner (server administrators only).
    async fn create_organization(
        &self,
        ctx: &Context<'_>,
        name: String,
        owner_email: String,
        owner_password: String,
        owner_display_name: Option<String>,
    ) -> async_graphql::Result<Organization> {
        let owner = NewUser {
            email: owner_email,
            display_name: owner_display_name.unwrap_or_default(),
            password: owner_password,
        };
        ctx.services()
            .identity
            .create_organization(ctx.actor()?, &name, owner)
            .await
            .map(Organization)
            .map_err(gql_error)
    }

    /// A new account in the caller's organization, with an optional organization-wide role.
    async fn create_user(
        &self,
        ctx: &Context<'_>,
        email: String,
        password: String,
        display_name: Option<String>,
        role: Option<Role>,
    ) -> async_graphql::Result<User> {
        let new = NewUser { email, display_name: display_name.unwrap_or_default(), password };
        let role = role.map(DomainRole::from);
        ctx.services().identity.create_user(ctx.actor()?, new, role).await.map(User).map_err(gql_error)
    }

    async fn grant_role(
        &self,
        ctx: &Context<'_>,
        subject_id: ID,
        role: Role,
        scope_id: ID,
    ) -> async_graphql::Result<RoleBinding> {
        let subject = decode(&subject_id, NodeKind::User)?;
        let scope = decode_scope(&scope_id)?;
        ctx.services()
            .identity
            .grant_role(ctx.actor()?, subject, role.into(), scope)
            .await
            .map(RoleBinding)
            .map_err(gql_error)
    }

    /// Disables an account of your organization (administrators; owners for an owner) or enables
    /// it again. Disabling ends its sessions at once, open WebSockets included.
    async fn set_user_disabled(&self, ctx: &Context<'_>, id: ID, disabled: bool) -> async_graphql::Result<User> {
        let id = decode(&id, NodeKind::User)?;
        ctx.services().identity.set_user_disabled(ctx.actor()?, id, disabled).await.map(User).map_err(gql_error)
    }

    /// Removes a role binding; true if there was one.
    async fn revoke_role(
        &self,
        ctx: &Context<'_>,
        subject_id: ID,
        role: Role,
        scope_id: ID,
    ) -> async_graphql::Result<bool> {
        let subject = decode(&subject_id, NodeKind::User)?;
        let scope = decode_scope(&scope_id)?;
        ctx.services().identity.revoke_role(ctx.actor()?, subject, role.into(), scope).await.map_err(gql_error)
    }
}
