//! Signing in through an OpenID Connect provider (SPEC §5), against a real one (npm
//! `oidc-provider`) the test starts: people linked by issuer and subject, verified emails linked to
//! existing accounts, accounts made just in time, and every forged, replayed or mixed-up answer
//! refused without signing anyone in.

mod common;

use acc_tests::identity_provider::{self, Callback, IdentityProvider};
use acc_tests::{Client, GqlResponse, Server, ServerOptions, TestDb, on_both_databases};
use serde_json::{Value, json};

const REDIRECT: &str = "http://127.0.0.1:9/sign-in/oidc";
const OTHER_REDIRECT: &str = "http://127.0.0.1:9/other";

const BEGIN: &str =
    "mutation($p: String!, $r: String!) { beginOidcSignIn(provider: $p, redirectUri: $r) { authorizationUrl flow } }";
const COMPLETE: &str = "mutation($f: String!, $c: String!, $s: String!, $i: String) {
    completeOidcSignIn(flow: $f, code: $c, state: $s, issuer: $i, deviceName: \"laptop\") {
        accessToken user { id email displayName } session { id } } }";

async fn provider() -> IdentityProvider {
    let account = |email: &str, verified: bool, name: &str| json!({"password": "idp password", "email": email, "email_verified": verified, "name": name});
    IdentityProvider::start(
        json!([
            {"client_id": "acc", "client_secret": "acc client secret", "redirect_uris": [REDIRECT]},
            {"client_id": "other-app", "client_secret": "other secret", "redirect_uris": [OTHER_REDIRECT]},
        ]),
        json!({
            "alice-sub": account("alice@acme.test", true, "Alice Liddell"),
            "bob-sub": account("Bob@Acme.test", true, "Bob"),
            "carol-sub": account("carol@acme.test", false, "Carol"),
            "eve-sub": account("eve@evil.test", true, "Eve"),
            "dave-sub": account("dave@acme.test", true, "Dave"),
        }),
    )
    .await
}

/// `acc` with two providers at `idp`'s issuer: `acme`, which makes accounts for Acme's people as
/// viewers, and `acme-strict`, which signs in only those who have one.
async fn server(db: TestDb, idp: &IdentityProvider) -> Server {
    let secret = db.dir.join("oidc-secret");
    std::fs::write(&secret, "acc client secret\n").unwrap();
    let provider = |id: &str, name: &str, provision: bool| {
        format!(
            "[[oidc]]\nid = \"{id}\"\nname = \"{name}\"\nissuer = \"{}\"\nclient_id = \"acc\"\n\
             client_secret_file = \"{}\"\nredirect_urls = [\"{REDIRECT}\"]\norganization = \"Acme\"\n\
             allowed_domains = [\"acme.test\"]\nprovision_users = {provision}\nnew_user_role = \"viewer\"\n",
            idp.issuer,
            secret.display()
        )
    };
    let config = db.dir.join("acc.toml");
    std::fs::write(
        &config,
        provider("acme", "Acme SSO", true) + &provider("acme-strict", "Acme (existing accounts)", false),
    )
    .unwrap();
    let options = ServerOptions { args: vec!["--config".into(), config.display().to_string()], ..Default::default() };
    Server::start_with(db, options).await
}

struct Begun {
    url: String,
    flow: String,
}

async fn begin(client: &Client, provider: &str) -> Begun {
    let started = client.gql(BEGIN, json!({"p": provider, "r": REDIRECT})).await;
    let started = started.data("beginOidcSignIn");
    Begun { url: started["authorizationUrl"].as_str().unwrap().into(), flow: started["flow"].as_str().unwrap().into() }
}

async fn complete(client: &Client, flow: &str, callback: &Callback) -> GqlResponse {
    let variables = json!({"f": flow, "c": callback.code, "s": callback.state, "i": callback.iss});
    client.gql(COMPLETE, variables).await
}

/// The whole sign-in of `login` through `provider`, as the web client does it.
async fn sign_in(client: &Client, idp: &IdentityProvider, provider: &str, login: &str) -> GqlResponse {
    let begun = begin(client, provider).await;
    let callback = idp.sign_in(&begun.url, login, "idp password").await;
    complete(client, &begun.flow, &callback).await
}

/// The trail's actions and details, once `failed` refusals are in it: a refused sign-in is
/// recorded in the background, so that its answer does not wait.
async fn audit_actions(owner: &Client, failed: usize) -> Vec<(String, Value)> {
    for _ in 0..100 {
        let page = owner.gql("{ auditEvents(last: 100) { edges { node { action details } } } }", json!({})).await;
        let edges = page.data("auditEvents")["edges"].as_array().unwrap().clone();
        let trail: Vec<(String, Value)> = edges
            .iter()
            .map(|e| (e["node"]["action"].as_str().unwrap().to_owned(), e["node"]["details"].clone()))
            .collect();
        if trail.iter().filter(|(action, _)| action == "SIGN_IN_FAILED").count() >= failed {
            return trail;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("fewer than {failed} refused sign-ins were recorded");
}

async fn user_count(owner: &Client) -> usize {
    let users = owner.gql("{ users(first: 100) { edges { node { id } } } }", json!({})).await;
    users.data("users")["edges"].as_array().unwrap().len()
}

on_both_databases!(people_sign_in_through_the_provider_and_stay_linked_by_its_subject, |db: TestDb| async move {
    let idp = provider().await;
    let server = server(db, &idp).await;
    let owner = server.owner().await;
    let anonymous = server.client();

    let providers = anonymous.gql("{ signInProviders { id name } }", json!({})).await;
    assert_eq!(
        providers.data("signInProviders"),
        &json!([{"id": "acme", "name": "Acme SSO"}, {"id": "acme-strict", "name": "Acme (existing accounts)"}])
    );
    let begun = begin(&anonymous, "acme").await;
    for (param, expected) in [("code_challenge_method", "S256"), ("response_type", "code"), ("client_id", "acc")] {
        assert!(begun.url.contains(&format!("{param}={expected}")), "{param} in {}", begun.url);
    }

    // Alice has no account: the provider vouches for her, so she gets one, as a viewer.
    let alice = sign_in(&anonymous, &idp, "acme", "alice-sub").await;
    let alice = alice.data("completeOidcSignIn").clone();
    assert_eq!(alice["user"]["email"], "alice@acme.test");
    assert_eq!(alice["user"]["displayName"], "Alice Liddell");
    let as_alice = anonymous.with_token(alice["accessToken"].as_str().unwrap());
    let viewer = as_alice.gql("{ viewer { id roleBindings { role } } }", json!({})).await;
    assert_eq!(viewer.data("viewer")["roleBindings"], json!([{"role": "VIEWER"}]));
    // A viewer reads and may not write.
    let refused = as_alice.gql(acc_tests::op!("create_workspace"), json!({"name": "Mine"})).await;
    refused.expect_code("FORBIDDEN");

    // Signing in again is the same person, through either provider of this issuer.
    let again = sign_in(&anonymous, &idp, "acme-strict", "alice-sub").await;
    assert_eq!(again.data("completeOidcSignIn")["user"]["id"], alice["user"]["id"]);
    // Her account has no password to guess.
    let password = json!({"email": "alice@acme.test", "password": "idp password"});
    anonymous.gql(acc_tests::op!("login"), password).await.expect_code("UNAUTHENTICATED");

    // Bob already has an account; the provider verified his email, so it is linked, and his
    // password still works.
    let created = owner
        .gql(
            "mutation($p: String!) { createUser(email: \"bob@acme.test\", password: $p) { id } }",
            json!({"p": acc_tests::PASSWORD}),
        )
        .await;
    let bob_id = created.data("createUser")["id"].clone();
    let bob = sign_in(&anonymous, &idp, "acme-strict", "bob-sub").await;
    assert_eq!(bob.data("completeOidcSignIn")["user"]["id"], bob_id);
    let password = json!({"email": "bob@acme.test", "password": acc_tests::PASSWORD});
    anonymous.gql(acc_tests::op!("login"), password).await.data("login");

    let people = user_count(&owner).await;
    // Dave has no account and this provider makes none.
    let dave = sign_in(&anonymous, &idp, "acme-strict", "dave-sub").await;
    assert!(dave.expect_code("FORBIDDEN")["message"].as_str().unwrap().contains("no account"));
    // Eve's domain may not sign in; Carol's email is one the provider has not verified.
    sign_in(&anonymous, &idp, "acme", "eve-sub").await.expect_code("FORBIDDEN");
    sign_in(&anonymous, &idp, "acme", "carol-sub").await.expect_code("FORBIDDEN");
    assert_eq!(user_count(&owner).await, people, "nobody was made for them");

    // A disabled account stays out, whoever vouches for it.
    let disable = "mutation($id: ID!) { setUserDisabled(id: $id, disabled: true) { id } }";
    owner.gql(disable, json!({"id": alice["user"]["id"]})).await.data("setUserDisabled");
    sign_in(&anonymous, &idp, "acme", "alice-sub").await.expect_code("FORBIDDEN");

    // The wrong password, dave, eve, carol and disabled alice.
    let trail = audit_actions(&owner, 5).await;
    let count = |action: &str, method: Option<&str>| {
        trail
            .iter()
            .filter(|(a, d)| a == action && method.is_none_or(|m| d["method"] == m || d["provider"] == m))
            .count()
    };
    assert_eq!(count("USER_CREATED", Some("acme")), 1, "{trail:?}");
    assert_eq!(count("IDENTITY_LINKED", None), 2, "alice when made, bob when linked");
    assert_eq!(count("SIGNED_IN", Some("oidc:acme")), 1);
    assert_eq!(count("SIGNED_IN", Some("oidc:acme-strict")), 2);
    assert_eq!(count("SIGN_IN_FAILED", Some("oidc:acme")), 3, "eve, carol and disabled alice: {trail:?}");
    assert_eq!(count("SIGN_IN_FAILED", Some("oidc:acme-strict")), 1, "dave");
});

/// What a provider's answer must prove before anyone is signed in, each way it can fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_replayed_and_mixed_up_answers_sign_nobody_in() {
    let idp = provider().await;
    let server = server(TestDb::sqlite(), &idp).await;
    let owner = server.owner().await;
    let anonymous = server.client();
    let refused = |response: GqlResponse, why: &str| {
        let error = response.expect_code("UNAUTHENTICATED").clone();
        let message = error["message"].as_str().unwrap().to_owned();
        assert!(message.contains(why), "expected `{why}` in `{message}`");
    };

    // Unknown provider, a redirect the operator did not register.
    anonymous.gql(BEGIN, json!({"p": "nobody", "r": REDIRECT})).await.expect_code("NOT_FOUND");
    anonymous.gql(BEGIN, json!({"p": "acme", "r": "https://evil.test/cb"})).await.expect_code("VALIDATION");

    // Someone else's code and state, without the flow secret their browser holds.
    let begun = begin(&anonymous, "acme").await;
    let callback = idp.sign_in(&begun.url, "alice-sub", "idp password").await;
    refused(complete(&anonymous, "acc_oidc_guessed", &callback).await, "unknown or already finished");
    // A state that is not this sign-in's; the sign-in is then used up.
    let forged = Callback { state: "forged".into(), ..callback.clone() };
    refused(complete(&anonymous, &begun.flow, &forged).await, "state");
    refused(complete(&anonymous, &begun.flow, &callback).await, "unknown or already finished");

    // A response that names another issuer (RFC 9207 mix-up).
    let begun = begin(&anonymous, "acme").await;
    let callback = idp.sign_in(&begun.url, "alice-sub", "idp password").await;
    let mixed = Callback { iss: Some("https://other-issuer.test".into()), ..callback };
    refused(complete(&anonymous, &begun.flow, &mixed).await, "another issuer");

    // A code redeemed once is not redeemed again, by the same sign-in or another.
    let begun = begin(&anonymous, "acme").await;
    let callback = idp.sign_in(&begun.url, "alice-sub", "idp password").await;
    complete(&anonymous, &begun.flow, &callback).await.data("completeOidcSignIn");
    refused(complete(&anonymous, &begun.flow, &callback).await, "unknown or already finished");
    let other = begin(&anonymous, "acme").await;
    let replayed = Callback { state: reqwest_state(&other.url), ..callback };
    refused(complete(&anonymous, &other.flow, &replayed).await, "refused the code");

    // An ID token the provider really issued, for another sign-in (its nonce is not this one's).
    let earlier = idp.last_id_token().expect("the provider issued an ID token");
    let begun = begin(&anonymous, "acme").await;
    let callback = idp.sign_in(&begun.url, "alice-sub", "idp password").await;
    idp.substitute_next_id_token(move |_| earlier);
    refused(complete(&anonymous, &begun.flow, &callback).await, "nonce");

    // One the provider issued, with this sign-in's nonce, to another application.
    let begun = begin(&anonymous, "acme").await;
    let for_other_app = idp
        .id_token_for(
            ("other-app", "other secret", OTHER_REDIRECT),
            &identity_provider::nonce_of(&begun.url),
            "alice-sub",
            "idp password",
        )
        .await;
    let callback = idp.sign_in(&begun.url, "alice-sub", "idp password").await;
    idp.substitute_next_id_token(move |_| for_other_app);
    refused(complete(&anonymous, &begun.flow, &callback).await, "audience");

    // This sign-in's own token, its subject changed to Bob's; and unsigned (`alg: none`).
    for forge in [
        (|token: &str| identity_provider::tampered(token, |claims| claims["sub"] = json!("bob-sub")))
            as fn(&str) -> String,
        |token: &str| identity_provider::unsigned(token),
    ] {
        let begun = begin(&anonymous, "acme").await;
        let callback = idp.sign_in(&begun.url, "alice-sub", "idp password").await;
        idp.substitute_next_id_token(forge);
        refused(complete(&anonymous, &begun.flow, &callback).await, "not valid");
    }

    // One from another provider, which `acc` does not know, with this sign-in's nonce.
    let stranger = provider().await;
    let begun = begin(&anonymous, "acme").await;
    let nonce = identity_provider::nonce_of(&begun.url);
    let foreign =
        stranger.id_token_for(("acc", "acc client secret", REDIRECT), &nonce, "alice-sub", "idp password").await;
    let callback = idp.sign_in(&begun.url, "alice-sub", "idp password").await;
    idp.substitute_next_id_token(move |_| foreign);
    refused(complete(&anonymous, &begun.flow, &callback).await, "not valid");

    // Of all of that, one sign-in went through: the one with everything right.
    // Each answer that reached a sign-in under way is recorded as refused: the state, the issuer,
    // the replayed code, the nonce, the audience, the two forgeries and the stranger's token.
    let trail = audit_actions(&owner, 8).await;
    let signed_in = trail.iter().filter(|(a, d)| a == "SIGNED_IN" && d["method"] == "oidc:acme").count();
    assert_eq!(signed_in, 1, "{trail:?}");
    let sessions = owner.gql("{ users(first: 10) { edges { node { email } } } }", json!({})).await;
    assert_eq!(sessions.data("users")["edges"].as_array().unwrap().len(), 2, "the owner and alice");
}

/// The `state` an authorization URL carries.
fn reqwest_state(url: &str) -> String {
    let url = reqwest::Url::parse(url).unwrap();
    url.query_pairs().find(|(k, _)| k == "state").map(|(_, v)| v.into_owned()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_through_a_provider_are_rate_limited_by_address() {
    let idp = provider().await;
    let db = TestDb::sqlite();
    let server = server(db, &idp).await;
    let anonymous = server.client();
    let mut limited = None;
    // The default: 30 attempts a minute from one address.
    for attempt in 0..40 {
        let response = anonymous.gql(BEGIN, json!({"p": "acme", "r": REDIRECT})).await;
        if response.code() == Some("RATE_LIMITED") {
            limited = Some(attempt);
            break;
        }
        response.data("beginOidcSignIn");
    }
    assert_eq!(limited, Some(30));
    let guess = json!({"f": "acc_oidc_guess", "c": "code", "s": "state", "i": null});
    anonymous.gql(COMPLETE, guess).await.expect_code("RATE_LIMITED");
}
