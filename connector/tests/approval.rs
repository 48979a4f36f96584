//! Approval tokens at the connector: only a token the control plane signed for exactly this
//! connector, run, request and action, unexpired and unused, lets an agent take the action; and
//! it is used up only once the agent took the decision.

mod common;

use acc_connector::approval::{ApprovalVerifier, Expected, RedeemError, TokenError};
use acc_protocol::ApprovalClaims;
use common::{approval_claims, signer};
use jsonwebtoken::{EncodingKey, Header};
use uuid::Uuid;

const CONNECTOR: Uuid = Uuid::from_u128(0xc0);
const RUN: Uuid = Uuid::from_u128(0xa1);

fn claims() -> ApprovalClaims {
    approval_claims(CONNECTOR, RUN, "r1", "delete build/")
}

fn expected() -> Expected<'static> {
    Expected { run_id: RUN, request_id: "r1", action: Some("delete build/") }
}

/// Redeems a token with a hand-over that succeeds.
fn redeem(
    verifier: &ApprovalVerifier,
    token: Option<&str>,
    expected: Expected<'_>,
) -> Result<ApprovalClaims, TokenError> {
    verifier.redeem(token, expected, |_| Ok::<(), ()>(())).map_err(|e| match e {
        RedeemError::Token(e) => e,
        RedeemError::HandOver(()) => unreachable!("the hand-over succeeds"),
    })
}

#[test]
fn a_valid_token_is_accepted_once_even_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approval-tokens.jsonl");
    let control_plane = signer("k1");
    let verifier = ApprovalVerifier::open(&path, CONNECTOR).unwrap();
    verifier.set_keys(std::slice::from_ref(&control_plane.public));
    let token = control_plane.sign(&claims());
    assert_eq!(redeem(&verifier, Some(&token), expected()).unwrap().action, "delete build/");
    assert_eq!(redeem(&verifier, Some(&token), expected()), Err(TokenError::Spent));
    let restarted = ApprovalVerifier::open(&path, CONNECTOR).unwrap();
    restarted.set_keys(&[control_plane.public]);
    assert_eq!(redeem(&restarted, Some(&token), expected()), Err(TokenError::Spent), "spent survives a restart");
}

#[test]
fn a_token_is_spent_only_once_the_agent_took_the_decision() {
    let dir = tempfile::tempdir().unwrap();
    let control_plane = signer("k1");
    let verifier = ApprovalVerifier::open(&dir.path().join("tokens.jsonl"), CONNECTOR).unwrap();
    verifier.set_keys(std::slice::from_ref(&control_plane.public));
    let token = control_plane.sign(&claims());
    // The agent could not take it this time (its input was full, say): the token stays usable.
    let failed = verifier.redeem(Some(&token), expected(), |_| Err("the agent is busy"));
    assert_eq!(failed, Err(RedeemError::HandOver("the agent is busy")));
    let mut handed = 0;
    let taken = verifier.redeem(Some(&token), expected(), |claims| {
        assert_eq!(claims.action, "delete build/");
        handed += 1;
        Ok::<(), ()>(())
    });
    assert_eq!((taken.map(|c| c.request_id), handed), (Ok("r1".to_owned()), 1));
    // Then it is spent: nothing is handed over again.
    let again = verifier.redeem(Some(&token), expected(), |_| -> Result<(), ()> { panic!("handed over twice") });
    assert_eq!(again, Err(RedeemError::Token(TokenError::Spent)));
}

#[test]
fn forged_stale_and_misdirected_tokens_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let control_plane = signer("k1");
    let verifier = ApprovalVerifier::open(&dir.path().join("tokens.jsonl"), CONNECTOR).unwrap();
    verifier.set_keys(std::slice::from_ref(&control_plane.public));
    let refused = |token: &str, expected: Expected<'_>| redeem(&verifier, Some(token), expected).unwrap_err();

    assert_eq!(redeem(&verifier, None, expected()), Err(TokenError::Missing));
    assert_eq!(redeem(&verifier, Some(""), expected()), Err(TokenError::Missing));
    // Signed by someone else: under an unknown key id, or under ours.
    let intruder = signer("k2");
    assert_eq!(refused(&intruder.sign(&claims()), expected()), TokenError::UnknownKey);
    let impostor = signer("k1");
    assert!(matches!(refused(&impostor.sign(&claims()), expected()), TokenError::Invalid(_)));
    // Expired, or not an approval token at all.
    let expired = ApprovalClaims { iat: 0, exp: chrono::Utc::now().timestamp() - 60, ..claims() };
    assert!(matches!(refused(&control_plane.sign(&expired), expected()), TokenError::Invalid(_)));
    let access_token = ApprovalClaims { aud: "acc".into(), ..claims() };
    assert!(matches!(refused(&control_plane.sign(&access_token), expected()), TokenError::Invalid(_)));
    let symmetric = jsonwebtoken::encode(&Header::default(), &claims(), &EncodingKey::from_secret(b"guess")).unwrap();
    assert!(matches!(refused(&symmetric, expected()), TokenError::Invalid(_)));
    // Valid, but for something else than what the agent asked here.
    let other_connector = ApprovalClaims { connector_id: Uuid::now_v7(), ..claims() };
    assert_eq!(refused(&control_plane.sign(&other_connector), expected()), TokenError::Mismatch("connector"));
    let other_run = ApprovalClaims { run_id: Uuid::now_v7(), ..claims() };
    assert_eq!(refused(&control_plane.sign(&other_run), expected()), TokenError::Mismatch("run"));
    let other_request = ApprovalClaims { request_id: "r2".into(), ..claims() };
    assert_eq!(refused(&control_plane.sign(&other_request), expected()), TokenError::Mismatch("request"));
    let other_action = ApprovalClaims { action: "delete everything".into(), ..claims() };
    assert_eq!(refused(&control_plane.sign(&other_action), expected()), TokenError::Mismatch("action"));
    let unasked = Expected { action: None, ..expected() };
    assert_eq!(refused(&control_plane.sign(&claims()), unasked), TokenError::NoRequest);
    // None of the refusals spent anything: the genuine token still works.
    assert!(redeem(&verifier, Some(&control_plane.sign(&claims())), expected()).is_ok());
}
