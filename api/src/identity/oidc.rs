//! Sign-in through an OpenID Connect provider (SPEC §5): authorization code with PKCE (S256),
//! nonce and state, by the `openidconnect` crate, against any standard provider the operator
//! configured (`[[oidc]]`).
//!
//! A sign-in has two steps. `begin` keeps a row keyed by the hash of a fresh flow secret and
//! returns the provider's authorization URL with the secret; the client keeps the secret and,
//! back from the provider with `code` and `state`, presents all three to `complete`. Only the
//! client that began a sign-in can finish it (a link with someone else's code signs nobody in),
//! and each sign-in is finished once. The PKCE verifier and the nonce are derived from the
//! secret, so the database never holds them.
//!
//! People are linked by the provider's issuer and subject (`user_identities`). Someone not linked
//! yet is linked to the account with the email the provider verified, in the provider's
//! organization, or given a new account when the provider provisions users. The provider must
//! vouch for the email (`email_verified`): an address it has not verified proves nothing here.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::{oidc_sign_in, organization, user, user_identity};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::Utc;
use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreGenderClaim, CoreProviderMetadata};
use openidconnect::{
    AccessTokenHash, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EmptyAdditionalClaims, IssuerUrl, Nonce,
    OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, SubjectIdentifier, TokenResponse,
    UserInfoClaims,
};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;

use super::actor::ScopeKind;
use super::{DeviceInfo, IdentityError, IdentityService, Result, SignIn, insert_grant, insert_user, secrets};
use crate::audit::{AuditActor, Entry};
use crate::config::{OidcProviderSettings, read_secret};
use crate::error::CommonError;
use crate::ids::new_id;

/// How long a begun sign-in may take at the provider.
const SIGN_IN_LIFETIME: chrono::Duration = chrono::Duration::minutes(10);
/// How long a provider's discovery document (and with it its keys) is used before it is read again.
const DISCOVERY_LIFETIME: Duration = Duration::from_secs(300);
/// A provider that answers slower than this is down, as far as a person waiting is concerned.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);
const UNKNOWN_SIGN_IN: &str = "this sign-in is unknown or already finished; start again";
/// The password hash of an account made for a provider's user: no password matches it.
const NO_PASSWORD: &str = "!oidc";

/// A client of a provider built from its discovery document: its authorization endpoint is known,
/// its token and user-info endpoints are if the document names them.
type DiscoveredClient = CoreClient<
    openidconnect::EndpointSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointMaybeSet,
    openidconnect::EndpointMaybeSet,
>;

/// A configured provider, with its client secret read.
struct Provider {
    settings: OidcProviderSettings,
    client_secret: Option<String>,
}

/// The providers people may sign in with, and what each one's discovery said.
pub struct OidcProviders {
    providers: Vec<Provider>,
    http: reqwest::Client,
    discovered: Mutex<HashMap<String, (Instant, CoreProviderMetadata)>>,
}

/// A provider as the sign-in page lists it.
#[derive(Debug, Clone)]
pub struct SignInProvider {
    pub id: String,
    pub name: String,
}

/// Where to send the person, and the secret that finishes their sign-in.
#[derive(Clone)]
pub struct OidcStart {
    pub authorization_url: String,
    pub flow: String,
}

impl std::fmt::Debug for OidcStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcStart").field("authorization_url", &self.authorization_url).finish_non_exhaustive()
    }
}

/// What the provider sent the person back with, and the flow secret their client kept.
pub struct OidcCallback {
    pub flow: String,
    pub code: String,
    pub state: String,
    /// The `iss` parameter of the response (RFC 9207), when the provider sends it.
    pub issuer: Option<String>,
}

/// Who the provider says signed in.
struct Asserted {
    subject: String,
    email: Option<String>,
    email_verified: bool,
    name: Option<String>,
}

impl OidcProviders {
    pub fn new(settings: &[OidcProviderSettings]) -> std::result::Result<Self, crate::config::ConfigError> {
        let providers = settings
            .iter()
            .map(|settings| {
                let client_secret = settings.client_secret_file.as_deref().map(read_secret).transpose()?;
                Ok(Provider { settings: settings.clone(), client_secret })
            })
            .collect::<std::result::Result<_, crate::config::ConfigError>>()?;
        // Following a redirect from a provider's endpoint would let it point the server anywhere.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(PROVIDER_TIMEOUT)
            .build()
            .map_err(|e| crate::config::ConfigError::Invalid(format!("oidc: {e}")))?;
        Ok(Self { providers, http, discovered: Mutex::default() })
    }

    pub fn list(&self) -> Vec<SignInProvider> {
        let listed = |p: &Provider| SignInProvider { id: p.settings.id.clone(), name: p.settings.name.clone() };
        self.providers.iter().map(listed).collect()
    }

    fn provider(&self, id: &str) -> Result<&Provider> {
        self.providers.iter().find(|p| p.settings.id == id).ok_or(CommonError::NotFound("sign-in provider").into())
    }

    /// The provider's metadata and keys, from its discovery document.
    async fn metadata(&self, provider: &Provider) -> Result<CoreProviderMetadata> {
        let mut discovered = self.discovered.lock().await;
        if let Some((at, metadata)) = discovered.get(&provider.settings.id)
            && at.elapsed() < DISCOVERY_LIFETIME
        {
            return Ok(metadata.clone());
        }
        let issuer = IssuerUrl::new(provider.settings.issuer.clone()).map_err(|e| unreachable_provider(provider, e))?;
        let metadata = CoreProviderMetadata::discover_async(issuer, &self.http)
            .await
            .map_err(|e| unreachable_provider(provider, e))?;
        discovered.insert(provider.settings.id.clone(), (Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    async fn client(&self, provider: &Provider, redirect_uri: &str) -> Result<DiscoveredClient> {
        let metadata = self.metadata(provider).await?;
        let redirect = RedirectUrl::new(redirect_uri.to_owned())
            .map_err(|_| CommonError::validation(format!("`{redirect_uri}` is not a URL")))?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(provider.settings.client_id.clone()),
            provider.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(redirect))
    }
}

fn unreachable_provider(provider: &Provider, error: impl std::fmt::Display) -> IdentityError {
    tracing::warn!(provider = %provider.settings.id, %error, "oidc discovery failed");
    CommonError::Internal(format!("the identity provider `{}` could not be reached", provider.settings.id)).into()
}

fn refused(why: impl Into<String>) -> IdentityError {
    IdentityError::ProviderRefused(why.into())
}

fn invalid_id_token(error: impl std::fmt::Display) -> IdentityError {
    refused(format!("the ID token is not valid: {error}"))
}

/// A value only the holder of `flow` can compute: the PKCE verifier or the nonce.
fn derived(flow: &str, purpose: &str) -> String {
    let digest = Sha256::new().chain_update(purpose).chain_update([0]).chain_update(flow).finalize();
    URL_SAFE_NO_PAD.encode(digest)
}

impl IdentityService {
    /// The providers people may sign in with.
    pub fn sign_in_providers(&self) -> Vec<SignInProvider> {
        self.oidc.list()
    }

    /// Begins a sign-in through `provider_id`, to come back to `redirect_uri` (one of those the
    /// operator registered).
    pub async fn begin_oidc_sign_in(
        &self,
        provider_id: &str,
        redirect_uri: &str,
        client_address: Option<&str>,
    ) -> Result<OidcStart> {
        self.limiter.check_address(client_address)?;
        let provider = self.oidc.provider(provider_id)?;
        if !provider.settings.redirect_urls.iter().any(|url| url == redirect_uri) {
            return Err(CommonError::validation(format!(
                "`{redirect_uri}` is not a redirect URL of the sign-in provider `{provider_id}`"
            ))
            .into());
        }
        let client = self.oidc.client(provider, redirect_uri).await?;
        let flow = secrets::new_secret("acc_oidc_");
        let state = secrets::new_secret("");
        let verifier = PkceCodeVerifier::new(derived(&flow, "pkce"));
        let nonce = derived(&flow, "nonce");
        let csrf = state.clone();
        let (url, _, _) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                move || CsrfToken::new(csrf),
                move || Nonce::new(nonce),
            )
            .add_scope(Scope::new("email".to_owned()))
            .add_scope(Scope::new("profile".to_owned()))
            .set_pkce_challenge(PkceCodeChallenge::from_code_verifier_sha256(&verifier))
            .url();
        let now = Utc::now();
        oidc_sign_in::Entity::delete_many().filter(oidc_sign_in::Column::ExpiresAt.lt(now)).exec(&self.db).await?;
        oidc_sign_in::ActiveModel {
            id: Set(new_id()),
            flow_hash: Set(secrets::hash_secret(&flow)),
            provider: Set(provider_id.to_owned()),
            state: Set(state),
            redirect_uri: Set(redirect_uri.to_owned()),
            expires_at: Set(now + SIGN_IN_LIFETIME),
            created_at: Set(now),
        }
        .insert(&self.db)
        .await?;
        Ok(OidcStart { authorization_url: url.to_string(), flow })
    }

    /// Finishes a sign-in with what the provider sent back: checks the response, redeems the
    /// code, verifies the ID token, and signs the person in.
    pub async fn complete_oidc_sign_in(&self, callback: OidcCallback, device: DeviceInfo) -> Result<SignIn> {
        self.limiter.check_address(device.client_address.as_deref())?;
        let pending = self
            .reads
            .one(
                oidc_sign_in::Entity::find()
                    .filter(oidc_sign_in::Column::FlowHash.eq(secrets::hash_secret(&callback.flow))),
            )
            .await?
            .ok_or_else(|| refused(UNKNOWN_SIGN_IN))?;
        // Whatever happens next, this sign-in is used up: a second try with the same code fails.
        let taken = oidc_sign_in::Entity::delete_by_id(pending.id).exec(&self.db).await?;
        if taken.rows_affected != 1 {
            return Err(refused(UNKNOWN_SIGN_IN));
        }
        let provider = self.oidc.provider(&pending.provider)?;
        let organization = self.provider_organization(provider).await?;
        match self.verify_callback(provider, &pending, &callback).await {
            Ok(asserted) => self.sign_in_asserted(provider, &organization, asserted, device).await,
            Err(error) => {
                self.record_refusal(provider, &organization, None, &error, &device);
                Err(error)
            }
        }
    }

    /// A refused sign-in through `provider`, in the organization's trail (in the background, so
    /// the answer does not wait for it); `user` is the account tried, when there is one.
    fn record_refusal(
        &self,
        provider: &Provider,
        organization: &organization::Model,
        user: Option<&user::Model>,
        error: &IdentityError,
        device: &DeviceInfo,
    ) {
        let mut failed = Entry::new(organization.id, AuditActor::Anonymous, AuditAction::SignInFailed)
            .with("method", format!("oidc:{}", provider.settings.id))
            .with("reason", error.to_string())
            .with("client_address", device.client_address.clone());
        if let Some(user) = user {
            failed = failed.on(AuditTargetKind::User, user.id);
        }
        self.audit.append_detached(failed);
    }

    async fn provider_organization(&self, provider: &Provider) -> Result<organization::Model> {
        let name = provider.settings.organization.trim();
        let found = self.reads.one(organization::Entity::find().filter(organization::Column::Name.eq(name))).await?;
        found.ok_or_else(|| {
            tracing::error!(provider = %provider.settings.id, organization = name, "oidc provider's organization does not exist");
            CommonError::Internal(format!("the sign-in provider `{}` names no organization here", provider.settings.id))
                .into()
        })
    }

    /// Who the provider says signed in, once the response, the code and the ID token check out.
    async fn verify_callback(
        &self,
        provider: &Provider,
        pending: &oidc_sign_in::Model,
        callback: &OidcCallback,
    ) -> Result<Asserted> {
        if pending.expires_at < Utc::now() {
            return Err(refused("this sign-in took too long; start again"));
        }
        if !secrets::secrets_equal(&pending.state, &callback.state) {
            return Err(refused("the provider's response does not belong to this sign-in (state)"));
        }
        // RFC 9207: a response from another provider the client also uses is a mix-up attack.
        if callback.issuer.as_ref().is_some_and(|issuer| *issuer != provider.settings.issuer) {
            return Err(refused("the response names another issuer"));
        }
        let client = self.oidc.client(provider, &pending.redirect_uri).await?;
        let tokens = client
            .exchange_code(AuthorizationCode::new(callback.code.clone()))
            .map_err(|e| CommonError::Internal(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(derived(&callback.flow, "pkce")))
            .request_async(&self.oidc.http)
            .await
            .map_err(|e| {
                tracing::info!(provider = %provider.settings.id, error = %e, "oidc code refused");
                refused("the provider refused the code")
            })?;
        let id_token = tokens.id_token().ok_or_else(|| refused("the provider sent no ID token"))?;
        let verifier = client.id_token_verifier();
        let nonce = Nonce::new(derived(&callback.flow, "nonce"));
        let claims = id_token.claims(&verifier, &nonce).map_err(invalid_id_token)?;
        if let Some(expected) = claims.access_token_hash() {
            let algorithm = id_token.signing_alg().map_err(invalid_id_token)?;
            let key = id_token.signing_key(&verifier).map_err(invalid_id_token)?;
            let actual =
                AccessTokenHash::from_token(tokens.access_token(), algorithm, key).map_err(invalid_id_token)?;
            if actual != *expected {
                return Err(refused("the ID token was not issued with this access token (at_hash)"));
            }
        }
        let mut asserted = Asserted {
            subject: claims.subject().to_string(),
            email: claims.email().map(|e| e.to_string()),
            email_verified: claims.email_verified().unwrap_or(false),
            name: claims.name().and_then(|n| n.get(None)).map(|n| n.to_string()),
        };
        // Many providers keep the profile out of the ID token: ask for it, for this subject only.
        if asserted.email.is_none() && client.user_info_url().is_some() {
            let subject = SubjectIdentifier::new(asserted.subject.clone());
            let info: UserInfoClaims<EmptyAdditionalClaims, CoreGenderClaim> = client
                .user_info(tokens.access_token().clone(), Some(subject))
                .map_err(|e| CommonError::Internal(e.to_string()))?
                .request_async(&self.oidc.http)
                .await
                .map_err(|e| refused(format!("the provider's user info was refused: {e}")))?;
            asserted.email = info.email().map(|e| e.to_string());
            asserted.email_verified = info.email_verified().unwrap_or(false);
            asserted.name = asserted.name.or_else(|| info.name().and_then(|n| n.get(None)).map(|n| n.to_string()));
        }
        Ok(asserted)
    }

    /// The account of the person the provider vouched for: linked already, linked now by their
    /// verified email, or made now.
    async fn sign_in_asserted(
        &self,
        provider: &Provider,
        organization: &organization::Model,
        asserted: Asserted,
        device: DeviceInfo,
    ) -> Result<SignIn> {
        let settings = &provider.settings;
        let refuse = |user: Option<&user::Model>, why: String| {
            let error = IdentityError::SignInNotAllowed(why);
            self.record_refusal(provider, organization, user, &error, &device);
            error
        };
        let email = match (&asserted.email, asserted.email_verified) {
            (Some(email), true) => email.trim().to_lowercase(),
            (Some(_), false) => return Err(refuse(None, "the provider has not verified this person's email".into())),
            (None, _) => return Err(refuse(None, "the provider gave no email address".into())),
        };
        let domain = email.rsplit_once('@').map(|(_, domain)| domain).unwrap_or_default();
        if !settings.allowed_domains.is_empty()
            && !settings.allowed_domains.iter().any(|d| d.eq_ignore_ascii_case(domain))
        {
            return Err(refuse(None, format!("`{domain}` may not sign in through {}", settings.name)));
        }
        let now = Utc::now();
        let linked = self
            .reads
            .one(
                user_identity::Entity::find()
                    .filter(user_identity::Column::Issuer.eq(&settings.issuer))
                    .filter(user_identity::Column::Subject.eq(&asserted.subject)),
            )
            .await?;
        let user = match linked {
            Some(identity) => {
                let user = self.reads.one(user::Entity::find_by_id(identity.user_id)).await?;
                let user = user.ok_or(CommonError::NotFound("user"))?;
                if user.disabled {
                    return Err(refuse(Some(&user), "this account is disabled".into()));
                }
                let mut seen: user_identity::ActiveModel = identity.into();
                seen.email = Set(email);
                seen.last_sign_in_at = Set(now);
                seen.update(&self.db).await?;
                user
            }
            None => {
                let existing = self.reads.one(user::Entity::find().filter(user::Column::Email.eq(&email))).await?;
                match existing {
                    Some(user) if user.organization_id != organization.id => {
                        return Err(refuse(None, format!("{email} has an account in another organization")));
                    }
                    Some(user) if user.disabled => return Err(refuse(Some(&user), "this account is disabled".into())),
                    Some(user) => self.link(organization, Some(user), settings, &asserted, &email).await?,
                    None if settings.provision_users => {
                        self.link(organization, None, settings, &asserted, &email).await?
                    }
                    None => {
                        return Err(refuse(
                            None,
                            format!("{email} has no account here; ask an administrator to add it"),
                        ));
                    }
                }
            }
        };
        self.start_session(user, device, &format!("oidc:{}", settings.id)).await
    }

    /// Links the provider's subject to `existing`, or to an account made for it now with the
    /// provider's new-user role, in one transaction.
    async fn link(
        &self,
        organization: &organization::Model,
        existing: Option<user::Model>,
        settings: &OidcProviderSettings,
        asserted: &Asserted,
        email: &str,
    ) -> Result<user::Model> {
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let user = match existing {
            Some(user) => user,
            None => {
                let name = asserted.name.as_deref().unwrap_or_default();
                let user = insert_user(&txn, organization.id, email, name, NO_PASSWORD.to_owned(), false).await?;
                let role = settings.new_user_role;
                insert_grant(&txn, organization.id, user.id, role, ScopeKind::Organization, organization.id).await?;
                let created = Entry::new(organization.id, AuditActor::System, AuditAction::UserCreated)
                    .on(AuditTargetKind::User, user.id)
                    .with("email", email)
                    .with("role", role.as_str())
                    .with("provider", settings.id.clone());
                self.audit.append(&txn, created).await?;
                user
            }
        };
        let identity = user_identity::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(organization.id),
            user_id: Set(user.id),
            issuer: Set(settings.issuer.clone()),
            subject: Set(asserted.subject.clone()),
            email: Set(email.to_owned()),
            last_sign_in_at: Set(now),
            created_at: Set(now),
        }
        .insert(&txn)
        .await
        .map_err(|e| super::unique_as(e, "this person is being signed in already; try again"))?;
        let by = AuditActor::User { user_id: user.id, api_token_id: None };
        let linked = Entry::new(organization.id, by, AuditAction::IdentityLinked)
            .on(AuditTargetKind::User, user.id)
            .with("provider", settings.id.clone())
            .with("identity_id", identity.id.to_string());
        self.audit.append(&txn, linked).await?;
        txn.commit().await?;
        Ok(user)
    }
}
