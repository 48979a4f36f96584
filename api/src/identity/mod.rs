//! Identity: the bootstrap owner, accounts, device sessions with rotating refresh tokens,
//! access tokens, API tokens, organizations and role bindings.

pub mod actor;
mod actor_cache;
pub mod graphql;
pub mod keys;
pub mod login_limiter;
pub mod oidc;
pub mod secrets;
mod verified_tokens;

use std::sync::{Arc, Mutex};

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{api_token, device_session, organization, project, refresh_token, role_binding, user, workspace};
use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{ExprTrait, IntoCondition};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::audit::{AuditActor, AuditLog, Entry};
use crate::broker::{Broker, Event, Topic};
use crate::config::TokenLifetimes;
use crate::db::Pool;
use crate::db::{Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode, is_unique_violation};
use crate::ids::new_id;
use crate::pagination::{Page, PageRequest, paginate};
use actor::{Actor, Grant, Permission, Role, ScopeKind, ScopePath};
use actor_cache::ActorCache;
use keys::SigningKeys;
use login_limiter::LoginLimiter;
use verified_tokens::{VerifiedToken, VerifiedTokens};

#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    #[error("wrong email or password")]
    InvalidCredentials,
    #[error("the bootstrap code is wrong or has already been redeemed")]
    BootstrapRefused,
    #[error("this refresh token was already used; the session has been revoked")]
    RefreshTokenReused,
    #[error("the session has ended; sign in again")]
    SessionEnded,
    #[error("an organization must keep at least one owner")]
    LastOwner,
    /// An identity provider's answer did not prove who signed in.
    #[error("sign-in refused: {0}")]
    ProviderRefused(String),
    /// The provider vouched for someone who may not sign in here.
    #[error("{0}")]
    SignInNotAllowed(String),
    #[error(transparent)]
    Common(#[from] CommonError),
}

impl From<sea_orm::DbErr> for IdentityError {
    fn from(e: sea_orm::DbErr) -> Self {
        IdentityError::Common(e.into())
    }
}

impl DomainError for IdentityError {
    fn code(&self) -> ErrorCode {
        match self {
            IdentityError::InvalidCredentials
            | IdentityError::BootstrapRefused
            | IdentityError::RefreshTokenReused
            | IdentityError::SessionEnded
            | IdentityError::ProviderRefused(_) => ErrorCode::Unauthenticated,
            IdentityError::SignInNotAllowed(_) => ErrorCode::Forbidden,
            IdentityError::LastOwner => ErrorCode::Validation,
            IdentityError::Common(e) => e.code(),
        }
    }

    fn details(&self) -> serde_json::Value {
        match self {
            IdentityError::Common(e) => e.details(),
            _ => serde_json::Value::Null,
        }
    }
}

type Result<T, E = IdentityError> = std::result::Result<T, E>;

/// What an API token may do; each scope caps the token at one role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApiScope {
    Read,
    Write,
    Operate,
    Admin,
}

impl ApiScope {
    fn ceiling(self) -> Role {
        match self {
            ApiScope::Read => Role::Viewer,
            ApiScope::Write => Role::Member,
            ApiScope::Operate => Role::Operator,
            ApiScope::Admin => Role::Admin,
        }
    }
}

/// A change that ends or narrows what a credential may do. Open sockets listen for these on
/// their organization's [`Topic::OrganizationAccess`] and close when one concerns them, so no
/// socket outlives its session or keeps permissions its user lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessChange {
    SessionEnded(Uuid),
    ApiTokenRevoked(Uuid),
    UserDisabled(Uuid),
    RolesChanged(Uuid),
}

/// What an [`AccessChange`] means for one connection of an actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessVerdict {
    /// The credential no longer works: sign in again.
    Ended,
    /// The credential still works but its grants changed: reconnect to act with the new ones.
    Changed,
}

impl AccessChange {
    /// The verdict for a connection authenticated as `actor`, if the change concerns it.
    pub fn verdict_for(self, actor: &Actor) -> Option<AccessVerdict> {
        match self {
            AccessChange::SessionEnded(id) if actor.session_id == Some(id) => Some(AccessVerdict::Ended),
            AccessChange::ApiTokenRevoked(id) if actor.api_token_id == Some(id) => Some(AccessVerdict::Ended),
            AccessChange::UserDisabled(id) if actor.user_id == id => Some(AccessVerdict::Ended),
            AccessChange::RolesChanged(id) if actor.user_id == id => Some(AccessVerdict::Changed),
            _ => None,
        }
    }
}

/// The device a sign-in comes from, as the HTTP layer saw it.
#[derive(Debug, Clone, Default)]
pub struct DeviceInfo {
    pub device_name: String,
    pub client_address: Option<String>,
}

/// The result of signing in: tokens for the client and the session they belong to.
#[derive(Clone)]
pub struct SignIn {
    pub access_token: String,
    pub access_token_expires_at: DateTime<Utc>,
    pub refresh_token: String,
    pub session: device_session::Model,
    pub user: user::Model,
}

/// Shows which session and user, never the tokens (nor the user's password hash).
impl std::fmt::Debug for SignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignIn")
            .field("access_token", &secrets::REDACTED)
            .field("access_token_expires_at", &self.access_token_expires_at)
            .field("refresh_token", &secrets::REDACTED)
            .field("session_id", &self.session.id)
            .field("user_id", &self.user.id)
            .finish()
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct AccessClaims {
    iss: String,
    sub: Uuid,
    sid: Uuid,
    org: Uuid,
    iat: i64,
    exp: i64,
}

/// The one-time code that lets the first owner in while the server has no users.
pub struct Bootstrap {
    code: Mutex<Option<String>>,
}

impl Bootstrap {
    pub fn new(code: Option<String>) -> Self {
        Self { code: Mutex::new(code) }
    }

    /// The code to print, while it can still be redeemed.
    pub fn pending_code(&self) -> Option<String> {
        self.code.lock().ok().and_then(|c| c.clone())
    }

    fn take_if(&self, offered: &str) -> bool {
        let Ok(mut code) = self.code.lock() else { return false };
        match code.as_deref() {
            Some(expected) if secrets::secrets_equal(expected, offered) => {
                *code = None;
                true
            }
            _ => false,
        }
    }

    /// Makes `value` the code to redeem (at start-up, or again after a failed redemption).
    pub fn offer(&self, value: String) {
        if let Ok(mut code) = self.code.lock() {
            *code = Some(value);
        }
    }
}

/// A user account to create.
#[derive(Clone)]
pub struct NewUser {
    pub email: String,
    pub display_name: String,
    pub password: String,
}

impl std::fmt::Debug for NewUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewUser")
            .field("email", &self.email)
            .field("display_name", &self.display_name)
            .field("password", &secrets::REDACTED)
            .finish()
    }
}

impl NewUser {
    fn normalized_email(&self) -> Result<String> {
        let email = self.email.trim().to_lowercase();
        let valid = email.len() <= 254
            && email
                .split_once('@')
                .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.') && !domain.starts_with('.'));
        if valid {
            Ok(email)
        } else {
            Err(CommonError::validation(format!("`{}` is not an email address", self.email)).into())
        }
    }
}

#[derive(Clone)]
pub struct IdentityService {
    db: Pool,
    reads: Reads,
    keys: Arc<SigningKeys>,
    lifetimes: TokenLifetimes,
    limiter: Arc<LoginLimiter>,
    bootstrap: Arc<Bootstrap>,
    broker: Broker,
    actors: Arc<ActorCache>,
    verified: Arc<VerifiedTokens>,
    audit: AuditLog,
    oidc: Arc<oidc::OidcProviders>,
}

/// How people sign in, and for how long their tokens last.
pub struct SignInRules {
    pub lifetimes: TokenLifetimes,
    pub limiter: Arc<LoginLimiter>,
    /// The OpenID Connect providers people may sign in through.
    pub oidc: Arc<oidc::OidcProviders>,
}

impl IdentityService {
    pub fn new(
        store: Store,
        keys: Arc<SigningKeys>,
        rules: SignInRules,
        bootstrap: Arc<Bootstrap>,
        broker: Broker,
        audit: AuditLog,
    ) -> Self {
        let SignInRules { lifetimes, limiter, oidc } = rules;
        Self {
            db: store.pool,
            reads: store.reads,
            keys,
            lifetimes,
            limiter,
            bootstrap,
            broker,
            actors: Arc::default(),
            verified: Arc::default(),
            audit,
            oidc,
        }
    }

    /// Tells open connections of `organization_id` that access changed (after the commit).
    fn announce(&self, organization_id: Uuid, change: AccessChange) {
        self.actors.forget(change);
        self.broker.publish(Topic::OrganizationAccess(organization_id), Event::AccessChanged(change));
    }

    pub fn bootstrap(&self) -> &Bootstrap {
        &self.bootstrap
    }

    /// Whether any account exists yet (the bootstrap code is offered only while none does).
    pub async fn has_users(&self) -> Result<bool> {
        Ok(user::Entity::find().count(&self.db).await? > 0)
    }

    /// Redeems the bootstrap code: creates the first organization and its owner, who is also
    /// a server administrator, and signs them in.
    pub async fn redeem_bootstrap(
        &self,
        code: &str,
        organization_name: &str,
        owner: NewUser,
        device: DeviceInfo,
    ) -> Result<SignIn> {
        if self.has_users().await? || !self.bootstrap.take_if(code) {
            return Err(IdentityError::BootstrapRefused);
        }
        let created = self.create_organization_with_owner(organization_name, owner, true, None).await;
        match created {
            Ok(user) => self.start_session(user, device, "bootstrap code").await,
            Err(e) => {
                // Nothing was written; the operator may try again with the same code.
                self.bootstrap.offer(code.to_owned());
                Err(e)
            }
        }
    }

    /// A new organization and its owner, created by `creator` (a server administrator), or by
    /// the owner themself with the bootstrap code.
    async fn create_organization_with_owner(
        &self,
        name: &str,
        owner: NewUser,
        server_admin: bool,
        creator: Option<&Actor>,
    ) -> Result<user::Model> {
        let name = name.trim();
        if name.is_empty() || name.len() > 200 {
            return Err(CommonError::validation("an organization name needs 1 to 200 characters").into());
        }
        let email = owner.normalized_email()?;
        let password_hash = secrets::hash_password(&owner.password).await?;
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let org = organization::ActiveModel {
            id: Set(new_id()),
            name: Set(name.to_owned()),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&txn)
        .await
        .map_err(|e| unique_as(e, "an organization with this name already exists"))?;
        let user = insert_user(&txn, org.id, &email, &owner.display_name, password_hash, server_admin).await?;
        insert_grant(&txn, org.id, user.id, Role::Owner, ScopeKind::Organization, org.id).await?;
        let founded = |chain, by| {
            Entry::new(chain, by, AuditAction::OrganizationCreated)
                .on(AuditTargetKind::Organization, org.id)
                .with("name", name)
        };
        // A server administrator belongs to another organization: the new one's trail says a
        // server administrator made it, and the administrator's own trail says who.
        let owner = AuditActor::User { user_id: user.id, api_token_id: None };
        let by = if creator.is_some() { AuditActor::System } else { owner };
        self.audit.append(&txn, founded(org.id, by).with("owner_id", user.id.to_string())).await?;
        if let Some(admin) = creator {
            self.audit.append(&txn, founded(admin.organization_id, admin.into())).await?;
        }
        txn.commit().await?;
        Ok(user)
    }

    pub async fn login(&self, email: &str, password: &str, device: DeviceInfo) -> Result<SignIn> {
        self.limiter.check(email, device.client_address.as_deref())?;
        let found =
            self.reads.one(user::Entity::find().filter(user::Column::Email.eq(email.trim().to_lowercase()))).await?;
        let Some(user) = found else {
            secrets::burn_password_check(password).await;
            return Err(IdentityError::InvalidCredentials);
        };
        // The password is checked first so a disabled account answers in the same time as any other.
        let right = secrets::verify_password(password, &user.password_hash).await;
        if !right || user.disabled {
            let refused = Entry::new(user.organization_id, AuditActor::Anonymous, AuditAction::SignInFailed)
                .on(AuditTargetKind::User, user.id)
                .with("reason", if right { "account disabled" } else { "wrong password" })
                .with("client_address", device.client_address);
            self.audit.append_detached(refused);
            return Err(IdentityError::InvalidCredentials);
        }
        self.start_session(user, device, "password").await
    }

    /// A new device session for `user`, who signed in by `method`.
    async fn start_session(&self, user: user::Model, device: DeviceInfo, method: &str) -> Result<SignIn> {
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let session = device_session::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(user.organization_id),
            user_id: Set(user.id),
            device_name: Set(truncate(&device.device_name, 200)),
            client_address: Set(device.client_address),
            revoked_at: Set(None),
            revoked_reason: Set(None),
            last_used_at: Set(now),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&txn)
        .await?;
        let refresh = self.insert_refresh_token(&txn, session.id, now).await?;
        let signed_in = Entry::new(
            user.organization_id,
            AuditActor::User { user_id: user.id, api_token_id: None },
            AuditAction::SignedIn,
        )
        .on(AuditTargetKind::Session, session.id)
        .with("method", method)
        .with("client_address", session.client_address.clone());
        self.audit.append(&txn, signed_in).await?;
        txn.commit().await?;
        self.sign_in(user, session, refresh)
    }

    async fn insert_refresh_token(
        &self,
        db: &impl ConnectionTrait,
        session_id: Uuid,
        now: DateTime<Utc>,
    ) -> Result<String> {
        let secret = secrets::new_secret("acc_rt_");
        refresh_token::ActiveModel {
            id: Set(new_id()),
            session_id: Set(session_id),
            token_hash: Set(secrets::hash_secret(&secret)),
            rotated_at: Set(None),
            expires_at: Set(now + Duration::days(self.lifetimes.refresh_token_days)),
            created_at: Set(now),
        }
        .insert(db)
        .await?;
        Ok(secret)
    }

    fn sign_in(&self, user: user::Model, session: device_session::Model, refresh_token: String) -> Result<SignIn> {
        let now = Utc::now();
        let expires = now + Duration::seconds(self.lifetimes.access_token_seconds);
        let claims = AccessClaims {
            iss: keys::ISSUER.to_owned(),
            sub: user.id,
            sid: session.id,
            org: user.organization_id,
            iat: now.timestamp(),
            exp: expires.timestamp(),
        };
        let access_token = self.keys.sign(&claims).map_err(|e| CommonError::Internal(e.to_string()))?;
        Ok(SignIn { access_token, access_token_expires_at: expires, refresh_token, session, user })
    }

    /// Rotates a refresh token. Presenting one that was already rotated means it was copied:
    /// the whole session is revoked.
    pub async fn refresh_session(&self, presented: &str) -> Result<SignIn> {
        let now = Utc::now();
        let token = self
            .reads
            .one(
                refresh_token::Entity::find()
                    .filter(refresh_token::Column::TokenHash.eq(secrets::hash_secret(presented))),
            )
            .await?
            .ok_or(IdentityError::SessionEnded)?;
        let session = self
            .reads
            .one(device_session::Entity::find_by_id(token.session_id))
            .await?
            .ok_or(IdentityError::SessionEnded)?;
        if session.revoked_at.is_some() {
            return Err(IdentityError::SessionEnded);
        }
        let txn = self.db.begin_write().await?;
        // Only one presenter can win the rotation; a second one is a replay.
        let rotated = refresh_token::Entity::update_many()
            .col_expr(refresh_token::Column::RotatedAt, sea_orm::sea_query::Expr::value(now))
            .filter(refresh_token::Column::Id.eq(token.id))
            .filter(refresh_token::Column::RotatedAt.is_null())
            .exec(&txn)
            .await?;
        if rotated.rows_affected == 0 {
            drop(txn);
            let txn = self.db.begin_write().await?;
            end_sessions(&txn, device_session::Column::Id.eq(session.id), "refresh token reused").await?;
            let reused = Entry::new(session.organization_id, AuditActor::Anonymous, AuditAction::RefreshTokenReused)
                .on(AuditTargetKind::Session, session.id);
            self.audit.append(&txn, reused).await?;
            txn.commit().await?;
            self.announce(session.organization_id, AccessChange::SessionEnded(session.id));
            tracing::warn!(session_id = %session.id, "refresh token reuse detected; session revoked");
            return Err(IdentityError::RefreshTokenReused);
        }
        if token.expires_at < now {
            return Err(IdentityError::SessionEnded);
        }
        let refresh = self.insert_refresh_token(&txn, session.id, now).await?;
        let mut active: device_session::ActiveModel = session.into();
        active.last_used_at = Set(now);
        let session = active.update(&txn).await?;
        txn.commit().await?;
        let user = self
            .reads
            .one(user::Entity::find_by_id(session.user_id))
            .await?
            .filter(|u| !u.disabled)
            .ok_or(IdentityError::SessionEnded)?;
        self.sign_in(user, session, refresh)
    }

    /// Turns a bearer token (an access token or an API token) into an actor.
    pub async fn authenticate(&self, bearer: &str) -> Result<Actor> {
        if bearer.starts_with("acc_pat_") {
            return self.authenticate_api_token(bearer).await;
        }
        let claims = match self.verified.get(bearer) {
            Some(claims) => claims,
            None => {
                let claims: AccessClaims = self.keys.verify(bearer).map_err(|_| CommonError::Unauthenticated)?;
                let claims = VerifiedToken { session_id: claims.sid, user_id: claims.sub, expires_at: claims.exp };
                self.verified.keep(bearer, claims);
                claims
            }
        };
        if let Some(actor) = self.actors.get(claims.session_id).filter(|a| a.user_id == claims.user_id) {
            return Ok(actor);
        }
        let generation = self.actors.generation();
        let session = self
            .reads
            .one(device_session::Entity::find_by_id(claims.session_id))
            .await?
            .filter(|s| s.revoked_at.is_none() && s.user_id == claims.user_id)
            .ok_or(IdentityError::SessionEnded)?;
        let actor = self.actor_for(session.user_id, Credential::Session(session.id)).await?;
        self.actors.keep(session.id, &actor, generation);
        Ok(actor)
    }

    /// Checks again that the credential an actor was authenticated with still holds, and
    /// reloads its grants: a socket lives longer than the access token it opened with, so it
    /// asks this before every operation rather than trusting what it learned at the start.
    pub async fn reauthenticate(&self, actor: &Actor) -> Result<Actor> {
        let credential = match (actor.session_id, actor.api_token_id, actor.role_ceiling) {
            // Not from the cache: a socket asks before every operation precisely so that a
            // session ended where this process cannot see it (another replica, an operator at
            // the database) stops it at once.
            (Some(session_id), _, _) => {
                self.reads
                    .one(device_session::Entity::find_by_id(session_id))
                    .await?
                    .filter(|s| s.revoked_at.is_none())
                    .ok_or(IdentityError::SessionEnded)?;
                Credential::Session(session_id)
            }
            (None, Some(token_id), Some(ceiling)) => {
                let now = Utc::now();
                self.reads
                    .one(api_token::Entity::find_by_id(token_id))
                    .await?
                    .filter(|t| t.revoked_at.is_none() && t.expires_at.is_none_or(|at| at > now))
                    .ok_or(CommonError::Unauthenticated)?;
                Credential::ApiToken { id: token_id, ceiling }
            }
            _ => return Err(CommonError::Unauthenticated.into()),
        };
        self.actor_for(actor.user_id, credential).await
    }

    async fn authenticate_api_token(&self, secret: &str) -> Result<Actor> {
        let now = Utc::now();
        let token = self
            .reads
            .one(api_token::Entity::find().filter(api_token::Column::TokenHash.eq(secrets::hash_secret(secret))))
            .await?
            .filter(|t| t.revoked_at.is_none() && t.expires_at.is_none_or(|at| at > now))
            .ok_or(CommonError::Unauthenticated)?;
        // Recorded at most once a minute, so an integrator's busy token does not write on every request.
        if token.last_used_at.is_none_or(|at| now - at > Duration::minutes(1)) {
            api_token::Entity::update_many()
                .col_expr(api_token::Column::LastUsedAt, sea_orm::sea_query::Expr::value(now))
                .filter(api_token::Column::Id.eq(token.id))
                .exec(&self.db)
                .await?;
        }
        let scopes: Vec<ApiScope> = serde_json::from_value(token.scopes.clone()).unwrap_or_default();
        let ceiling = scopes.iter().map(|s| s.ceiling()).max().unwrap_or(Role::Viewer);
        self.actor_for(token.user_id, Credential::ApiToken { id: token.id, ceiling }).await
    }

    async fn actor_for(&self, user_id: Uuid, credential: Credential) -> Result<Actor> {
        let user = self
            .reads
            .one(user::Entity::find_by_id(user_id))
            .await?
            .filter(|u| !u.disabled)
            .ok_or(CommonError::Unauthenticated)?;
        // In a stable order, so a socket can tell whether its caller's grants changed.
        let grants = self
            .reads
            .all(
                role_binding::Entity::find()
                    .filter(role_binding::Column::SubjectId.eq(user.id))
                    .order_by_asc(role_binding::Column::Id),
            )
            .await?
            .into_iter()
            .filter_map(|b| {
                Some(Grant {
                    role: b.role.parse().ok()?,
                    scope_kind: ScopeKind::parse(&b.scope_kind)?,
                    scope_id: b.scope_id,
                })
            })
            .collect();
        let (session_id, api_token_id, role_ceiling) = match credential {
            Credential::Session(id) => (Some(id), None, None),
            Credential::ApiToken { id, ceiling } => (None, Some(id), Some(ceiling)),
        };
        Ok(Actor {
            user_id: user.id,
            organization_id: user.organization_id,
            session_id,
            api_token_id,
            server_admin: user.is_server_admin,
            grants,
            role_ceiling,
        })
    }

    /// Ends the caller's own session.
    pub async fn logout(&self, actor: &Actor) -> Result<()> {
        let session_id =
            actor.session_id.ok_or_else(|| CommonError::validation("an API token has no session to end"))?;
        self.end_session(actor, session_id, AuditAction::SignedOut).await.map(|_| ())
    }

    /// A user of the caller's organization, for an administrator of any of its scopes to grant to.
    async fn member_of_tenant(&self, actor: &Actor, id: Uuid) -> Result<user::Model> {
        Ok(self
            .reads
            .one(user::Entity::find_by_id(id))
            .await?
            .filter(|u| u.organization_id == actor.organization_id)
            .ok_or(CommonError::NotFound("user"))?)
    }

    pub async fn user(&self, actor: &Actor, id: Uuid) -> Result<user::Model> {
        let user = self.reads.one(user::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("user"))?;
        if user.id != actor.user_id {
            actor.authorize(Permission::Read, &ScopePath::organization(user.organization_id), "user")?;
        }
        Ok(user)
    }

    /// Users by id for a list that fans out (task assignees); ids of other tenants are skipped.
    pub async fn users_by_ids(&self, actor: &Actor, ids: &[Uuid]) -> Result<Vec<user::Model>> {
        Ok(self
            .reads
            .all(
                user::Entity::find()
                    .filter(user::Column::Id.is_in(ids.iter().copied()))
                    .filter(user::Column::OrganizationId.eq(actor.organization_id)),
            )
            .await?)
    }

    pub async fn users(&self, actor: &Actor, page: &PageRequest, max: u64) -> Result<Page<user::Model>> {
        actor.authorize(Permission::Read, &ScopePath::organization(actor.organization_id), "organization")?;
        let select = user::Entity::find().filter(user::Column::OrganizationId.eq(actor.organization_id));
        Ok(paginate(&self.reads, select, user::Column::Id, page, max).await?)
    }

    pub async fn organization(&self, actor: &Actor, id: Uuid) -> Result<organization::Model> {
        if id != actor.organization_id {
            return Err(CommonError::NotFound("organization").into());
        }
        Ok(self.reads.one(organization::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("organization"))?)
    }

    /// The organization of a user who has just signed in.
    pub async fn signed_in_organization(&self, sign_in: &SignIn) -> Result<organization::Model> {
        Ok(self
            .reads
            .one(organization::Entity::find_by_id(sign_in.user.organization_id))
            .await?
            .ok_or(CommonError::NotFound("organization"))?)
    }

    pub async fn sessions(&self, actor: &Actor, page: &PageRequest, max: u64) -> Result<Page<device_session::Model>> {
        let select = device_session::Entity::find().filter(device_session::Column::UserId.eq(actor.user_id));
        Ok(paginate(&self.reads, select, device_session::Column::Id, page, max).await?)
    }

    /// A session of one's own; administrators may also see and revoke their members' sessions.
    pub async fn session(&self, actor: &Actor, id: Uuid) -> Result<device_session::Model> {
        let session =
            self.reads.one(device_session::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("session"))?;
        if session.user_id != actor.user_id {
            actor.authorize(Permission::Administer, &ScopePath::organization(session.organization_id), "session")?;
        }
        Ok(session)
    }

    pub async fn revoke_session(&self, actor: &Actor, id: Uuid) -> Result<device_session::Model> {
        self.end_session(actor, id, AuditAction::SessionRevoked).await
    }

    /// Ends session `id` (the caller's own or, for an administrator, a member's), recorded as `action`.
    async fn end_session(&self, actor: &Actor, id: Uuid, action: AuditAction) -> Result<device_session::Model> {
        forbid_api_tokens(actor, "revoke sessions")?;
        let session = self.session(actor, id).await?;
        let txn = self.db.begin_write().await?;
        end_sessions(&txn, device_session::Column::Id.eq(session.id), "revoked").await?;
        let ended = Entry::by(actor, action)
            .on(AuditTargetKind::Session, session.id)
            .with("user_id", session.user_id.to_string());
        self.audit.append(&txn, ended).await?;
        txn.commit().await?;
        self.announce(session.organization_id, AccessChange::SessionEnded(session.id));
        Ok(self.reads.one(device_session::Entity::find_by_id(id)).await?.unwrap_or(session))
    }

    pub async fn create_api_token(
        &self,
        actor: &Actor,
        name: &str,
        scopes: Vec<ApiScope>,
        expires_at: Option<DateTime<Utc>>,
    ) -> Result<(String, api_token::Model)> {
        forbid_api_tokens(actor, "create API tokens")?;
        if scopes.is_empty() {
            return Err(CommonError::validation("an API token needs at least one scope").into());
        }
        if name.trim().is_empty() || name.len() > 200 {
            return Err(CommonError::validation("an API token name needs 1 to 200 characters").into());
        }
        let now = Utc::now();
        if expires_at.is_some_and(|at| at <= now) {
            return Err(CommonError::validation("expiresAt must be in the future").into());
        }
        let secret = secrets::new_secret("acc_pat_");
        let txn = self.db.begin_write().await?;
        let token = api_token::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(actor.organization_id),
            user_id: Set(actor.user_id),
            name: Set(name.trim().to_owned()),
            token_hash: Set(secrets::hash_secret(&secret)),
            scopes: Set(serde_json::to_value(&scopes).map_err(|e| CommonError::Internal(e.to_string()))?),
            expires_at: Set(expires_at),
            revoked_at: Set(None),
            last_used_at: Set(None),
            revision: Set(1),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&txn)
        .await?;
        let created = Entry::by(actor, AuditAction::ApiTokenCreated)
            .on(AuditTargetKind::ApiToken, token.id)
            .with("name", token.name.clone())
            .with("scopes", token.scopes.clone());
        self.audit.append(&txn, created).await?;
        txn.commit().await?;
        Ok((secret, token))
    }

    pub async fn api_token(&self, actor: &Actor, id: Uuid) -> Result<api_token::Model> {
        let token =
            self.reads.one(api_token::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("API token"))?;
        if token.user_id != actor.user_id {
            actor.authorize(Permission::Administer, &ScopePath::organization(token.organization_id), "API token")?;
        }
        Ok(token)
    }

    pub async fn api_tokens(&self, actor: &Actor, page: &PageRequest, max: u64) -> Result<Page<api_token::Model>> {
        let select = api_token::Entity::find().filter(api_token::Column::UserId.eq(actor.user_id));
        Ok(paginate(&self.reads, select, api_token::Column::Id, page, max).await?)
    }

    pub async fn revoke_api_token(&self, actor: &Actor, id: Uuid) -> Result<api_token::Model> {
        forbid_api_tokens(actor, "revoke API tokens")?;
        let token = self.api_token(actor, id).await?;
        if token.revoked_at.is_some() {
            return Ok(token);
        }
        let now = Utc::now();
        let revision = token.revision;
        let mut active: api_token::ActiveModel = token.into();
        active.revoked_at = Set(Some(now));
        active.updated_at = Set(now);
        active.revision = Set(revision + 1);
        let txn = self.db.begin_write().await?;
        let token = active.update(&txn).await?;
        let revoked = Entry::by(actor, AuditAction::ApiTokenRevoked)
            .on(AuditTargetKind::ApiToken, token.id)
            .with("name", token.name.clone());
        self.audit.append(&txn, revoked).await?;
        txn.commit().await?;
        self.announce(token.organization_id, AccessChange::ApiTokenRevoked(token.id));
        Ok(token)
    }

    /// A new tenant with its owner; only server administrators may create one.
    pub async fn create_organization(&self, actor: &Actor, name: &str, owner: NewUser) -> Result<organization::Model> {
        forbid_api_tokens(actor, "create organizations")?;
        actor.authorize_server_admin()?;
        let owner = self.create_organization_with_owner(name, owner, false, Some(actor)).await?;
        Ok(self
            .reads
            .one(organization::Entity::find_by_id(owner.organization_id))
            .await?
            .ok_or(CommonError::NotFound("organization"))?)
    }

    /// A new account in the caller's organization, optionally with an organization-wide role.
    pub async fn create_user(&self, actor: &Actor, new: NewUser, role: Option<Role>) -> Result<user::Model> {
        forbid_api_tokens(actor, "create accounts")?;
        let org = ScopePath::organization(actor.organization_id);
        actor.authorize(Permission::Administer, &org, "organization")?;
        if role == Some(Role::Owner) {
            actor.authorize(Permission::Own, &org, "organization")?;
        }
        let email = new.normalized_email()?;
        let password_hash = secrets::hash_password(&new.password).await?;
        let txn = self.db.begin_write().await?;
        let user = insert_user(&txn, actor.organization_id, &email, &new.display_name, password_hash, false).await?;
        if let Some(role) = role {
            insert_grant(&txn, actor.organization_id, user.id, role, ScopeKind::Organization, actor.organization_id)
                .await?;
        }
        let created = Entry::by(actor, AuditAction::UserCreated)
            .on(AuditTargetKind::User, user.id)
            .with("email", user.email.clone())
            .with("role", role.map(Role::as_str));
        self.audit.append(&txn, created).await?;
        txn.commit().await?;
        Ok(user)
    }

    /// Where a scope id lives, checked against the caller's tenant.
    pub async fn scope_path(&self, actor: &Actor, kind: ScopeKind, id: Uuid) -> Result<ScopePath> {
        Ok(scope_path(&self.reads, actor, kind, id).await?)
    }

    pub async fn grant_role(
        &self,
        actor: &Actor,
        subject_id: Uuid,
        role: Role,
        scope: (ScopeKind, Uuid),
    ) -> Result<role_binding::Model> {
        forbid_api_tokens(actor, "grant roles")?;
        let path = self.scope_path(actor, scope.0, scope.1).await?;
        let permission = if role == Role::Owner { Permission::Own } else { Permission::Administer };
        actor.authorize(permission, &path, scope.0.as_str())?;
        let subject = self.member_of_tenant(actor, subject_id).await?;
        let existing = self
            .reads
            .one(
                role_binding::Entity::find()
                    .filter(role_binding::Column::SubjectId.eq(subject.id))
                    .filter(role_binding::Column::Role.eq(role.as_str()))
                    .filter(role_binding::Column::ScopeId.eq(scope.1)),
            )
            .await?;
        if let Some(binding) = existing {
            return Ok(binding);
        }
        let txn = self.db.begin_write().await?;
        let binding = insert_grant(&txn, actor.organization_id, subject.id, role, scope.0, scope.1).await?;
        let granted = Entry::by(actor, AuditAction::RoleGranted)
            .on(AuditTargetKind::RoleBinding, binding.id)
            .at(&path)
            .with("user_id", subject.id.to_string())
            .with("role", role.as_str())
            .with("scope_kind", scope.0.as_str());
        self.audit.append(&txn, granted).await?;
        txn.commit().await?;
        self.announce(actor.organization_id, AccessChange::RolesChanged(subject.id));
        Ok(binding)
    }

    pub async fn revoke_role(
        &self,
        actor: &Actor,
        subject_id: Uuid,
        role: Role,
        scope: (ScopeKind, Uuid),
    ) -> Result<bool> {
        forbid_api_tokens(actor, "revoke roles")?;
        let path = self.scope_path(actor, scope.0, scope.1).await?;
        let permission = if role == Role::Owner { Permission::Own } else { Permission::Administer };
        actor.authorize(permission, &path, scope.0.as_str())?;
        let subject = self.member_of_tenant(actor, subject_id).await?;
        let txn = self.db.begin_write().await?;
        let deleted = role_binding::Entity::delete_many()
            .filter(role_binding::Column::SubjectId.eq(subject.id))
            .filter(role_binding::Column::Role.eq(role.as_str()))
            .filter(role_binding::Column::ScopeId.eq(scope.1))
            .exec(&txn)
            .await?;
        if role == Role::Owner && scope.0 == ScopeKind::Organization {
            let owners = role_binding::Entity::find()
                .filter(role_binding::Column::Role.eq(Role::Owner.as_str()))
                .filter(role_binding::Column::ScopeId.eq(scope.1))
                .count(&txn)
                .await?;
            if owners == 0 {
                return Err(IdentityError::LastOwner);
            }
        }
        if deleted.rows_affected > 0 {
            let revoked = Entry::by(actor, AuditAction::RoleRevoked)
                .on(AuditTargetKind::User, subject.id)
                .at(&path)
                .with("role", role.as_str())
                .with("scope_kind", scope.0.as_str());
            self.audit.append(&txn, revoked).await?;
        }
        txn.commit().await?;
        if deleted.rows_affected > 0 {
            self.announce(actor.organization_id, AccessChange::RolesChanged(subject.id));
        }
        Ok(deleted.rows_affected > 0)
    }

    /// Disables or enables again an account of the caller's organization. A disabled account
    /// cannot sign in, its sessions end, and its API tokens stop working while it stays disabled.
    pub async fn set_user_disabled(&self, actor: &Actor, id: Uuid, disabled: bool) -> Result<user::Model> {
        forbid_api_tokens(actor, "disable or enable accounts")?;
        let org = ScopePath::organization(actor.organization_id);
        actor.authorize(Permission::Administer, &org, "organization")?;
        let target = self.member_of_tenant(actor, id).await?;
        if target.id == actor.user_id {
            return Err(CommonError::validation("you cannot disable or enable your own account").into());
        }
        let target_is_owner = role_binding::Entity::find()
            .filter(role_binding::Column::SubjectId.eq(target.id))
            .filter(role_binding::Column::Role.eq(Role::Owner.as_str()))
            .count(&self.db)
            .await?
            > 0;
        if target_is_owner {
            // Only an owner can make an owner, so only an owner can lock one out.
            actor.authorize(Permission::Own, &org, "organization")?;
        }
        if target.disabled == disabled {
            return Ok(target);
        }
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let revision = target.revision;
        let mut active: user::ActiveModel = target.into();
        active.disabled = Set(disabled);
        active.revision = Set(revision + 1);
        active.updated_at = Set(now);
        let user = active.update(&txn).await?;
        if disabled {
            end_sessions(&txn, device_session::Column::UserId.eq(user.id), "account disabled").await?;
        }
        let action = if disabled { AuditAction::UserDisabled } else { AuditAction::UserEnabled };
        self.audit.append(&txn, Entry::by(actor, action).on(AuditTargetKind::User, user.id)).await?;
        txn.commit().await?;
        if disabled {
            self.announce(user.organization_id, AccessChange::UserDisabled(user.id));
        }
        Ok(user)
    }

    pub async fn role_binding(&self, actor: &Actor, id: Uuid) -> Result<role_binding::Model> {
        let binding =
            self.reads.one(role_binding::Entity::find_by_id(id)).await?.ok_or(CommonError::NotFound("role binding"))?;
        if binding.subject_id != actor.user_id {
            actor.authorize(Permission::Read, &ScopePath::organization(binding.organization_id), "role binding")?;
        }
        Ok(binding)
    }

    pub async fn role_bindings_of(&self, actor: &Actor, subject_id: Uuid) -> Result<Vec<role_binding::Model>> {
        let subject = self.user(actor, subject_id).await?;
        Ok(self.reads.all(role_binding::Entity::find().filter(role_binding::Column::SubjectId.eq(subject.id))).await?)
    }
}

async fn insert_user(
    db: &impl ConnectionTrait,
    organization_id: Uuid,
    email: &str,
    display_name: &str,
    password_hash: String,
    server_admin: bool,
) -> Result<user::Model> {
    let now = Utc::now();
    let display_name = match display_name.trim() {
        "" => email.split('@').next().unwrap_or(email).to_owned(),
        name => truncate(name, 200),
    };
    user::ActiveModel {
        id: Set(new_id()),
        organization_id: Set(organization_id),
        email: Set(email.to_owned()),
        display_name: Set(display_name),
        password_hash: Set(password_hash),
        is_server_admin: Set(server_admin),
        disabled: Set(false),
        revision: Set(1),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await
    .map_err(|e| unique_as(e, "an account with this email already exists"))
}

async fn insert_grant(
    db: &impl ConnectionTrait,
    organization_id: Uuid,
    subject_id: Uuid,
    role: Role,
    scope_kind: ScopeKind,
    scope_id: Uuid,
) -> Result<role_binding::Model> {
    Ok(role_binding::ActiveModel {
        id: Set(new_id()),
        organization_id: Set(organization_id),
        subject_id: Set(subject_id),
        role: Set(role.as_str().to_owned()),
        scope_kind: Set(scope_kind.as_str().to_owned()),
        scope_id: Set(scope_id),
        created_at: Set(Utc::now()),
    }
    .insert(db)
    .await?)
}

/// What a bearer token turned out to be, once checked.
#[derive(Debug, Clone, Copy)]
enum Credential {
    Session(Uuid),
    ApiToken { id: Uuid, ceiling: Role },
}

/// Ends the live sessions `which` selects, saying why.
async fn end_sessions(db: &impl ConnectionTrait, which: impl IntoCondition, reason: &str) -> Result<()> {
    let now = Utc::now();
    device_session::Entity::update_many()
        .col_expr(device_session::Column::RevokedAt, sea_orm::sea_query::Expr::value(now))
        .col_expr(device_session::Column::RevokedReason, sea_orm::sea_query::Expr::value(reason))
        .col_expr(device_session::Column::UpdatedAt, sea_orm::sea_query::Expr::value(now))
        .col_expr(
            device_session::Column::Revision,
            sea_orm::sea_query::Expr::col(device_session::Column::Revision).add(1),
        )
        .filter(which)
        .filter(device_session::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// Credentials are managed from a signed-in session only: a leaked API token cannot lock its
/// owner out, mint more tokens, or make accounts, role grants or tenants that would outlive its
/// own revocation.
fn forbid_api_tokens(actor: &Actor, what: &str) -> Result<()> {
    match actor.role_ceiling {
        Some(_) => Err(CommonError::Forbidden(format!("an API token cannot {what}")).into()),
        None => Ok(()),
    }
}

fn unique_as(err: sea_orm::DbErr, message: &str) -> IdentityError {
    if is_unique_violation(&err) { CommonError::validation(message).into() } else { err.into() }
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Where an organization, workspace or project id lives, checked against the caller's tenant: a
/// scope of another organization, or none, is `NOT_FOUND`.
pub async fn scope_path(reads: &Reads, actor: &Actor, kind: ScopeKind, id: Uuid) -> Result<ScopePath, CommonError> {
    let path = match kind {
        ScopeKind::Organization => Some(ScopePath::organization(id)),
        ScopeKind::Workspace => {
            reads.one(workspace::Entity::find_by_id(id)).await?.map(|w| ScopePath::workspace(w.organization_id, w.id))
        }
        ScopeKind::Project => reads
            .one(project::Entity::find_by_id(id))
            .await?
            .map(|p| ScopePath::project(p.organization_id, p.workspace_id, p.id)),
    };
    match path {
        Some(path) if path.organization_id == actor.organization_id => Ok(path),
        _ => Err(CommonError::NotFound(kind.as_str())),
    }
}
