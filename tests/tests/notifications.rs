//! Notifications through the real server: people are told what waits for them or went wrong —
//! a decision they may take, a run they started that failed, a budget they administer nearly or
//! wholly spent — once each, live on their socket and in their list until they read it, and by
//! email through a real SMTP relay unless they turned that kind off; nobody else is told, and
//! telling changes nothing.

mod common;

use std::time::Duration;

use acc_api::ids::{GlobalId, NodeKind};
use acc_protocol::{Capability, EventKind};
use acc_tests::connector_client::RawConnector;
use acc_tests::mail_relay::{self, MailRelay};
use acc_tests::push_service::{Browser, Posted, PushService};
use acc_tests::tls::TestCertificates;
use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases};
use common::Fixture;
use serde_json::{Value, json};

const ADDED: &str = "subscription { notificationAdded { id kind title body subjectId projectId } }";

fn kinds(notifications: &[Value]) -> Vec<&str> {
    notifications.iter().map(|n| n["kind"].as_str().unwrap()).collect()
}

/// An agent on a new connector asks for a decision, `action`, in a run `by` started.
async fn an_agent_asks(server: &Server, f: &Fixture, by: &Client, action: &str) -> RawConnector {
    let (mut connector, _) = common::raw_connector(server, f).await;
    connector.hello("careful", vec![Capability::Stream, Capability::Approvals]).await;
    let task = common::create_task(&f.owner, &f.project_id, "Deploy").await;
    by.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await.data("startRun");
    let (run, _) = connector.accept_start().await;
    let ask = json!({"request_id": "r1", "action": action});
    assert_eq!(connector.emit(connector.event(run, 1, EventKind::ApprovalRequested, ask)).await, Ok(1));
    connector
}

/// A run `by` starts fails, saying `reason`; its id.
async fn a_run_fails(server: &Server, f: &Fixture, by: &Client, reason: &str) -> Value {
    let (mut connector, _) = common::raw_connector(server, f).await;
    connector.hello("flaky", vec![Capability::Stream]).await;
    let task = common::create_task(&f.owner, &f.project_id, "Flaky").await;
    let started = by.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = started.data("startRun")["id"].clone();
    let (run, _) = connector.accept_start().await;
    let failed = connector.event(run, 1, EventKind::Result, json!({"outcome": "failed", "error": reason}));
    assert_eq!(connector.emit(failed).await, Ok(1));
    run_id
}

on_both_databases!(who_may_decide_is_told_once_live_and_reads_it, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (operator, _) = common::user_with_role(owner, "operator@acme.test", "OPERATOR").await;
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let mut live = operator.subscribe(ADDED, json!({})).await.unwrap();
    live.listening().await.unwrap();

    let _connector = an_agent_asks(&server, &f, owner, "run the migration on production").await;

    let told = live.next().await.unwrap();
    let told = &told["data"]["notificationAdded"];
    assert_eq!(
        (told["kind"].as_str(), told["body"].as_str()),
        (Some("APPROVAL_WAITING"), Some("run the migration on production"))
    );
    assert_eq!(told["projectId"], f.project_id.as_str());
    let approvals = owner.gql("{ approvals { edges { node { id } } } }", json!({})).await;
    assert_eq!(told["subjectId"], approvals.data("approvals")["edges"][0]["node"]["id"]);
    // The owner may decide too; a viewer may not, and is not told.
    assert_eq!(kinds(&common::notifications(owner, 1).await), ["APPROVAL_WAITING"]);
    assert_eq!(viewer.gql("{ unreadNotificationCount }", json!({})).await.data("unreadNotificationCount"), 0);

    // Read: the count goes down; the same ids again change nothing; another's ids are not theirs.
    let mine = common::notifications(&operator, 1).await;
    assert_eq!(mine.len(), 1, "told once");
    let mark = "mutation($ids: [ID!]) { markNotificationsRead(ids: $ids) }";
    assert_eq!(viewer.gql(mark, json!({"ids": [mine[0]["id"]]})).await.data("markNotificationsRead"), 0);
    assert_eq!(operator.gql(mark, json!({"ids": [mine[0]["id"]]})).await.data("markNotificationsRead"), 1);
    assert_eq!(operator.gql(mark, json!({"ids": [mine[0]["id"]]})).await.data("markNotificationsRead"), 0);
    assert_eq!(operator.gql("{ unreadNotificationCount }", json!({})).await.data("unreadNotificationCount"), 0);
    let unread = operator.gql("{ notifications(unreadOnly: true) { edges { node { id } } } }", json!({})).await;
    assert_eq!(unread.data("notifications")["edges"], json!([]));
    assert!(common::notifications(&operator, 1).await[0]["readAt"].is_string());
    operator.gql(mark, json!({"ids": ["not an id"]})).await.expect_code("VALIDATION");
    let node = viewer.gql("query($id: ID!) { node(id: $id) { id } }", json!({"id": mine[0]["id"]})).await;
    node.expect_code("NOT_FOUND");

    // Telling changed nothing: the decision still waits.
    let pending = owner.gql("{ approvals(status: PENDING) { edges { node { id } } } }", json!({})).await;
    assert_eq!(pending.data("approvals")["edges"].as_array().unwrap().len(), 1);
});

on_both_databases!(a_failed_run_and_a_budget_nearly_and_wholly_spent_are_told_once_each, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (operator, _) = common::user_with_role(owner, "operator@acme.test", "OPERATOR").await;

    // The operator's run fails: they are told, with why.
    let run_id = a_run_fails(&server, &f, &operator, "tests broke").await;
    let told = common::notifications(&operator, 1).await;
    assert_eq!(kinds(&told), ["RUN_FAILED"]);
    assert_eq!((&told[0]["subjectId"], told[0]["body"].as_str()), (&run_id, Some("tests broke")));
    let (mut connector, _) = common::raw_connector(&server, &f).await;
    connector.hello("metered", vec![Capability::Stream, Capability::UsageExact]).await;

    // A daily budget of 1,000 tokens: told at 850 (80 %), not again at 950, and at 1,050 (spent).
    let budget = owner
        .gql(
            "mutation($s: ID!) { setBudgetPolicy(scopeId: $s, period: DAILY, maxTokens: 1000) { id } }",
            json!({"s": f.project_id}),
        )
        .await;
    let policy = budget.data("setBudgetPolicy")["id"].clone();
    let task = common::create_task(owner, &f.project_id, "Spend").await;
    owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await.data("startRun");
    let (run, _) = connector.accept_start().await;
    for (sequence, tokens) in [(1, 850), (2, 100), (3, 100)] {
        let usage = json!({"source": "gateway", "requests": 1, "input_tokens": tokens, "output_tokens": 0});
        assert_eq!(connector.emit(connector.event(run, sequence, EventKind::Usage, usage)).await, Ok(sequence));
    }
    let told = common::notifications(owner, 2).await;
    assert_eq!(kinds(&told), ["BUDGET_WARNING", "BUDGET_SPENT"]);
    assert!(told.iter().all(|n| n["subjectId"] == policy));
    assert!(told[1]["body"].as_str().unwrap().contains("no new run starts"), "{}", told[1]);
    // The operator administers nothing: not told of budgets.
    assert_eq!(kinds(&common::notifications(&operator, 1).await), ["RUN_FAILED"]);
    let run_node = GlobalId::new(NodeKind::TaskRun, run).encode();
    assert!(told.iter().all(|n| n["subjectId"] != run_node.as_str()));
});

const SETTINGS: &str = "{ notificationSettings { emailAvailable emailAddress webPushPublicKey pushDevices \
    preferences { kind channel enabled } } }";
const SET_PREFERENCE: &str = "mutation($k: NotificationKind!, $c: NotificationChannel!, $e: Boolean!) \
    { setNotificationPreference(kind: $k, channel: $c, enabled: $e) { kind channel enabled } }";
const WAIT: Duration = Duration::from_secs(60);

/// The line of the server's log that says `what`, once it does.
async fn logged(server: &Server, what: &str) -> String {
    for _ in 0..300 {
        if let Some(line) = server.log().lines().find(|l| l.contains(what)) {
            return line.to_owned();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the log never said {what:?}: {}", server.log())
}

/// The kinds `client` gets on `channel`, as its settings say.
async fn kinds_on(client: &Client, channel: &str) -> Vec<String> {
    let settings = client.gql(SETTINGS, json!({})).await;
    let preferences = settings.data("notificationSettings")["preferences"].as_array().unwrap().clone();
    assert_eq!(preferences.len(), 8, "every kind on both channels: {preferences:?}");
    preferences
        .iter()
        .filter(|p| p["channel"] == channel && p["enabled"] == true)
        .map(|p| p["kind"].as_str().unwrap().to_owned())
        .collect()
}

async fn emailed_kinds(client: &Client) -> Vec<String> {
    kinds_on(client, "EMAIL").await
}

on_both_databases!(people_are_emailed_through_a_real_relay_what_they_did_not_turn_off, |db: TestDb| async move {
    let certificates = TestCertificates::create(&db.dir);
    // The relay refuses the first message with "try again later": it must still arrive, across a crash.
    let mut relay = MailRelay::start(&certificates, 1).await;
    let env = relay.env(&db.dir, &certificates.ca, mail_relay::PASSWORD, "https://acc.acme.test");
    let mut server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (operator, _) = common::user_with_role(owner, "operator@acme.test", "OPERATOR").await;

    // By default every kind comes by email too; the operator turns decisions off.
    let settings = operator.gql(SETTINGS, json!({})).await;
    let settings = settings.data("notificationSettings");
    assert_eq!((&settings["emailAvailable"], &settings["emailAddress"]), (&json!(true), &json!("operator@acme.test")));
    assert_eq!(emailed_kinds(&operator).await, ["APPROVAL_WAITING", "RUN_FAILED", "BUDGET_WARNING", "BUDGET_SPENT"]);
    let off = json!({"k": "APPROVAL_WAITING", "c": "EMAIL", "e": false});
    let set = operator.gql(SET_PREFERENCE, off.clone()).await;
    assert_eq!(
        set.data("setNotificationPreference"),
        &json!({"kind": "APPROVAL_WAITING", "channel": "EMAIL", "enabled": false})
    );
    assert_eq!(
        operator.gql(SET_PREFERENCE, off).await.data("setNotificationPreference")["enabled"],
        false,
        "again: the same"
    );
    assert_eq!(emailed_kinds(&operator).await, ["RUN_FAILED", "BUDGET_WARNING", "BUDGET_SPENT"]);
    assert_eq!(emailed_kinds(owner).await.len(), 4, "one person's choice is theirs alone");
    let chosen = common::audit_events(owner, &["NOTIFICATION_PREFERENCE_SET"]).await;
    assert_eq!(chosen.len(), 2, "{chosen:?}");

    // An agent asks for a decision: the owner is emailed; the relay defers it; the server crashes.
    let _connector = an_agent_asks(&server, &f, owner, "run the migration on production").await;
    let deferred = relay.next(WAIT).await.expect("the email is tried");
    assert!(!deferred.accepted);
    assert_eq!(deferred.to, ["owner@acme.test"]);
    logged(&server, "a notification could not be sent yet").await;
    server.crash_and_restart().await;
    let mail = relay.next(WAIT).await.expect("the email is tried again after the restart");
    assert!(mail.accepted, "{mail:?}");
    assert_eq!((mail.from.as_str(), mail.to.as_slice()), ("acc@acme.test", ["owner@acme.test".to_owned()].as_slice()));
    assert_eq!(mail.header("Subject").as_deref(), Some("A decision waits for you"));
    let text = mail.text();
    assert!(text.contains("run the migration on production"), "{text}");
    assert!(text.contains("https://acc.acme.test/approvals"), "{text}");
    // The operator, who turned it off, was told in the app all the same.
    assert_eq!(kinds(&common::notifications(&operator, 1).await), ["APPROVAL_WAITING"]);

    // A run the operator started fails: that kind they still get by email, with the way to it.
    let run_id = a_run_fails(&server, &f, &operator, "tests broke").await;
    let mail = relay.next(WAIT).await.expect("the failed run is emailed");
    assert!(mail.accepted);
    assert_eq!(mail.to, ["operator@acme.test"]);
    assert_eq!(mail.header("Subject").as_deref(), Some("A run you started failed"));
    let text = mail.text();
    assert!(text.contains("tests broke"), "{text}");
    assert!(text.contains(&format!("https://acc.acme.test/runs/{}", run_id.as_str().unwrap())), "{text}");
    // And nothing else: not the decision the operator turned off.
    assert!(relay.next(Duration::from_secs(3)).await.is_none(), "one email per notification, to those who want it");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_that_refuses_the_password_gets_nothing_and_the_log_says_why() {
    let db = TestDb::sqlite();
    let certificates = TestCertificates::create(&db.dir);
    let mut relay = MailRelay::start(&certificates, 0).await;
    let env = relay.env(&db.dir, &certificates.ca, "not the relay password", "https://acc.acme.test");
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let (operator, _) = common::user_with_role(&f.owner, "operator@acme.test", "OPERATOR").await;
    a_run_fails(&server, &f, &operator, "tests broke").await;
    assert_eq!(kinds(&common::notifications(&operator, 1).await), ["RUN_FAILED"], "told in the app all the same");
    // Refused for good (535): given up at once, not retried, and nothing reached the relay.
    let line = logged(&server, "a notification was given up on").await;
    assert!(line.contains("535"), "{line}");
    let log = server.log();
    assert!(!log.contains(mail_relay::PASSWORD) && !log.contains("not the relay password"), "no password in the log");
    assert!(relay.next(Duration::from_secs(2)).await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_relay_nobody_is_emailed_and_preferences_are_checked() {
    let server = Server::start(TestDb::sqlite()).await;
    let owner = server.owner().await;
    let settings = owner.gql(SETTINGS, json!({})).await;
    assert_eq!(settings.data("notificationSettings")["emailAvailable"], false);
    // A kind or channel that is none is refused before anything is written.
    let bad = owner.gql(SET_PREFERENCE, json!({"k": "EVERYTHING", "c": "EMAIL", "e": false})).await;
    bad.expect_code("VALIDATION");
    let bad = owner.gql(SET_PREFERENCE, json!({"k": "RUN_FAILED", "c": "CARRIER_PIGEON", "e": false})).await;
    bad.expect_code("VALIDATION");
    assert_eq!(emailed_kinds(&owner).await.len(), 4);
    owner
        .anonymous()
        .gql(SET_PREFERENCE, json!({"k": "RUN_FAILED", "c": "EMAIL", "e": false}))
        .await
        .expect_code("UNAUTHENTICATED");
    assert_eq!(emailed_kinds(&owner).await.len(), 4);
}

const REGISTER: &str = "mutation($e: String!, $k: String!, $a: String!) \
    { registerPushSubscription(endpoint: $e, p256dh: $k, auth: $a) }";

async fn push_devices(client: &Client) -> u64 {
    client.gql(SETTINGS, json!({})).await.data("notificationSettings")["pushDevices"].as_u64().unwrap()
}

/// The VAPID token of `posted` verifies with the server's published key, for the service's origin.
fn assert_signed_by(posted: &Posted, public_key: &str, service: &PushService) {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let vapid = posted.header("authorization");
    let (token, key) =
        vapid.strip_prefix("vapid t=").and_then(|v| v.split_once(", k=")).unwrap_or_else(|| panic!("{vapid}"));
    assert_eq!(key, public_key, "the key the browser subscribed with");
    let point = URL_SAFE_NO_PAD.decode(public_key).unwrap();
    let (x, y) = (URL_SAFE_NO_PAD.encode(&point[1..33]), URL_SAFE_NO_PAD.encode(&point[33..]));
    let key = jsonwebtoken::DecodingKey::from_ec_components(&x, &y).unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&[service.url.trim_end_matches('/')]);
    validation.set_required_spec_claims(&["exp", "aud", "sub"]);
    jsonwebtoken::decode::<Value>(token, &key, &validation).unwrap_or_else(|e| panic!("{e}: {token}"));
}

on_both_databases!(browsers_get_push_messages_of_the_kinds_not_turned_off, |db: TestDb| async move {
    let mut service = PushService::start().await;
    let env = vec![("ACC_PUSH__ALLOWED_ENDPOINTS".to_owned(), format!("[\"{}\"]", service.url))];
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let (operator, _) = common::user_with_role(&f.owner, "operator@acme.test", "OPERATOR").await;
    let settings = operator.gql(SETTINGS, json!({})).await;
    let public_key = settings.data("notificationSettings")["webPushPublicKey"].as_str().unwrap().to_owned();
    assert_eq!(push_devices(&operator).await, 0);

    // Endpoints the server would post to that are not at an allowed push service, and keys that
    // are none, are refused; nothing is kept.
    let phone = Browser::new(service.endpoint("phone"));
    let (key, auth) = (phone.p256dh(), phone.auth());
    for (endpoint, key, auth) in [
        ("https://fcm.googleapis.com/fcm/send/x".to_owned(), &key, &auth),
        ("http://127.0.0.1:1/push/phone".to_owned(), &key, &auth),
        ("http://169.254.169.254/latest/meta-data".to_owned(), &key, &auth),
        (phone.endpoint.replace("http://", "http://user:pw@"), &key, &auth),
        (phone.endpoint.clone(), &"not a key".to_owned(), &auth),
        (phone.endpoint.clone(), &key, &"c2hvcnQ".to_owned()),
    ] {
        let refused = operator.gql(REGISTER, json!({"e": endpoint, "k": key, "a": auth})).await;
        refused.expect_code("VALIDATION");
    }
    assert_eq!(push_devices(&operator).await, 0);

    // Two browsers: a failed run of the operator's reaches both, encrypted for each, signed.
    let laptop = Browser::new(service.endpoint("laptop"));
    for browser in [&phone, &laptop] {
        let registered =
            operator.gql(REGISTER, json!({"e": browser.endpoint, "k": browser.p256dh(), "a": browser.auth()})).await;
        assert_eq!(registered.data("registerPushSubscription"), true);
    }
    assert_eq!(push_devices(&operator).await, 2);
    let run_id = a_run_fails(&server, &f, &operator, "tests broke").await;
    let mut posted = [service.next(WAIT).await.expect("one"), service.next(WAIT).await.expect("the other")];
    posted.sort_by(|a, b| a.device.cmp(&b.device));
    assert_eq!(posted.iter().map(|p| p.device.as_str()).collect::<Vec<_>>(), ["laptop", "phone"]);
    for (posted, browser) in posted.iter().zip([&laptop, &phone]) {
        assert_eq!((posted.header("content-encoding"), posted.header("urgency")), ("aes128gcm", "normal"));
        assert!(posted.header("ttl").parse::<u64>().unwrap() > 0);
        assert_signed_by(posted, &public_key, &service);
        let message = browser.read(posted).expect("encrypted for this browser");
        assert_eq!(message["title"], "A run you started failed");
        assert_eq!(message["body"], "tests broke");
        assert_eq!(message["href"], format!("/runs/{}", run_id.as_str().unwrap()));
        // Only the browser it was made for can read it.
        let other = if std::ptr::eq(browser, &phone) { &laptop } else { &phone };
        assert!(other.read(posted).is_none());
    }

    // Failed runs turned off for push; the laptop unsubscribed at its push service.
    let off = json!({"k": "RUN_FAILED", "c": "PUSH", "e": false});
    assert_eq!(operator.gql(SET_PREFERENCE, off).await.data("setNotificationPreference")["enabled"], false);
    assert_eq!(kinds_on(&operator, "PUSH").await, ["APPROVAL_WAITING", "BUDGET_WARNING", "BUDGET_SPENT"]);
    service.drop_subscription("laptop");
    a_run_fails(&server, &f, &operator, "again").await;
    let _connector = an_agent_asks(&server, &f, &f.owner, "run the migration on production").await;
    // Only the decision comes, urgent, to the phone; the laptop's 410 makes the server forget it.
    let decision = service.next(WAIT).await.expect("the decision is pushed");
    assert_eq!((decision.device.as_str(), decision.header("urgency")), ("phone", "high"));
    let message = phone.read(&decision).unwrap();
    assert_eq!((&message["title"], &message["href"]), (&json!("A decision waits for you"), &json!("/approvals")));
    logged(&server, "push subscription is gone").await;
    assert_eq!(push_devices(&operator).await, 1);
    assert!(service.next(Duration::from_secs(3)).await.is_none(), "nothing of the failed run turned off");

    // Push off on this phone: removed once; another person cannot remove it.
    let remove = "mutation($e: String!) { removePushSubscription(endpoint: $e) }";
    assert_eq!(f.owner.gql(remove, json!({"e": phone.endpoint})).await.data("removePushSubscription"), false);
    assert_eq!(operator.gql(remove, json!({"e": phone.endpoint})).await.data("removePushSubscription"), true);
    assert_eq!(operator.gql(remove, json!({"e": phone.endpoint})).await.data("removePushSubscription"), false);
    assert_eq!(push_devices(&operator).await, 0);

    // The trail has each browser turned on and the one removal, with the push service's host
    // but never the endpoint (whoever holds it may post to it); what was refused left nothing.
    let registered = common::audit_events(&f.owner, &["PUSH_SUBSCRIPTION_REGISTERED"]).await;
    assert_eq!(registered.len(), 2, "{registered:?}");
    for event in &registered {
        assert_eq!(event["details"]["push_service"], "127.0.0.1");
        assert!(!event.to_string().contains("/push/"), "{event}");
    }
    let removed = common::audit_events(&f.owner, &["PUSH_SUBSCRIPTION_REMOVED"]).await;
    assert_eq!(removed.len(), 1, "{removed:?}");
    assert_eq!(removed[0]["actorId"], registered[0]["actorId"]);
});
