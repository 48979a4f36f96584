//! Skills through the real server: packages imported over HTTP, validated, signed or not; what no
//! trusted key signed is quarantined until an administrator approves it; a key revoked quarantines
//! what it signed; only approved versions are activated, per scope, and a package with scripts
//! waits for an approval another person decides. Bad archives are refused and change nothing.

mod common;

use common::{notes_package, skill_md, zip};

use acc_protocol::{Capability, Command, CommandOutcome, EventKind, SkillFiles, skill_file_list};
use acc_tests::model_api::{ModelApi, Step};
use acc_tests::{Client, Server, TestDb, on_both_databases};
use base64::Engine;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const VERSION_FIELDS: &str = "id number digest reviewState signatureStatus signerKeyId hasScripts reviewReason \
                              description allowedTools files { path } instructions";

/// A tar.gz of `files` at the archive's root.
fn tar_gz(files: &[(&str, &str)]) -> Vec<u8> {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut builder = tar::Builder::new(encoder);
    for (path, content) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(content.len() as u64);
        header.set_mode(0o644);
        // Written as given, `..` and all: the tar crate's own setters refuse what a hostile one sends.
        header.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
        header.set_cksum();
        builder.append(&header, content.as_bytes()).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

struct Publisher {
    public_key: String,
    pair: minisign::KeyPair,
}

impl Publisher {
    fn new() -> Self {
        let pair = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        let public_key = pair.pk.to_box().unwrap().to_string();
        Self { public_key, pair }
    }

    /// The `.minisig` text of `bytes`, base64-encoded for the `Skill-Signature` header.
    fn sign(&self, bytes: &[u8]) -> String {
        let signature =
            minisign::sign(Some(&self.pair.pk), &self.pair.sk, std::io::Cursor::new(bytes), None, None).unwrap();
        base64::engine::general_purpose::STANDARD.encode(signature.to_string())
    }
}

async fn import(client: &Client, archive: Vec<u8>, signature: Option<&str>) -> (u16, Value) {
    let headers: Vec<(&str, &str)> = signature.map(|s| ("Skill-Signature", s)).into_iter().collect();
    client.post_bytes("/v1/skills", archive, &headers).await
}

async fn version(client: &Client, id: &str) -> Value {
    let document = format!("query($v: ID!) {{ node(id: $v) {{ ... on SkillVersion {{ {VERSION_FIELDS} }} }} }}");
    client.gql(&document, json!({"v": id})).await.data("node").clone()
}

async fn review(client: &Client, id: &str, decision: &str, reason: Option<&str>) -> acc_tests::GqlResponse {
    let document = format!(
        "mutation($v: ID!, $d: ApprovalDecision!, $r: String) {{ reviewSkillVersion(versionId: $v, decision: $d, reason: $r) {{ {VERSION_FIELDS} }} }}"
    );
    client.gql(&document, json!({"v": id, "d": decision, "r": reason})).await
}

async fn activate(client: &Client, version: &str, scope: &str) -> acc_tests::GqlResponse {
    client
        .gql(
            "mutation($v: ID!, $s: ID!) { activateSkill(versionId: $v, scopeId: $s) { activation { id status scopeId version { number } } approval { id subject status details } } }",
            json!({"v": version, "s": scope}),
        )
        .await
}

async fn active_names(client: &Client, scope: &str) -> Vec<(String, String)> {
    let answer = client
        .gql(
            "query($s: ID!) { skillActivations(scopeId: $s) { status version { number } scopeId } }",
            json!({"s": scope}),
        )
        .await;
    answer
        .data("skillActivations")
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["status"].as_str().unwrap().to_owned(), a["scopeId"].as_str().unwrap().to_owned()))
        .collect()
}

fn version_id(imported: &Value) -> String {
    imported["version"]["id"].as_str().unwrap().to_owned()
}

on_both_databases!(an_unsigned_package_is_quarantined_until_an_administrator_approves_it, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (member, _) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
    let md = skill_md("release-notes", "Writes release notes.");
    let files = [("SKILL.md", md.as_str()), ("references/style.md", "Short lines.")];

    let (status, imported) = import(&member, zip("release-notes", &files), None).await;
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["skill"]["name"], "release-notes");
    assert_eq!(imported["version"]["number"], 1);
    assert_eq!(imported["version"]["reviewState"], "quarantined");
    assert_eq!(imported["version"]["signatureStatus"], "unsigned");
    let first = version_id(&imported);
    let shown = version(owner, &first).await;
    assert_eq!(shown["allowedTools"], json!(["Read", "Grep"]));
    assert_eq!(shown["files"], json!([{"path": "SKILL.md"}, {"path": "references/style.md"}]));
    assert!(shown["instructions"].as_str().unwrap().contains("Write release notes"));
    assert!(shown["digest"].as_str().unwrap().starts_with("sha256:"));

    // The same files packed another way are the same version.
    let (status, again) = import(&member, tar_gz(&files), None).await;
    assert_eq!((status, again["existing"].clone(), version_id(&again)), (200, json!(true), first.clone()));

    // Quarantined: it cannot be activated; a member cannot review; approving needs a reason.
    activate(owner, &first, &f.project_id).await.expect_code("INVALID_TRANSITION");
    review(&member, &first, "APPROVE", Some("looks fine")).await.expect_code("FORBIDDEN");
    review(owner, &first, "APPROVE", None).await.expect_code("VALIDATION");
    assert_eq!(version(owner, &first).await["reviewState"], "QUARANTINED");
    let sent = member
        .gql(
            "mutation($v: ID!) { requestSkillReview(versionId: $v, reason: \"for the release train\") { reviewState } }",
            json!({"v": first}),
        )
        .await;
    assert_eq!(sent.data("requestSkillReview")["reviewState"], "IN_REVIEW");
    let approved = review(owner, &first, "APPROVE", Some("read every file")).await;
    let approved = approved.data("reviewSkillVersion");
    assert_eq!(
        (approved["reviewState"].as_str(), approved["reviewReason"].as_str()),
        (Some("APPROVED"), Some("read every file"))
    );
    review(owner, &first, "DENY", None).await.expect_code("INVALID_TRANSITION");

    // Activated for the project: it applies there, not in the workspace.
    let activated = activate(owner, &first, &f.project_id).await;
    let activated = activated.data("activateSkill");
    assert_eq!(activated["activation"]["status"], "ACTIVE");
    assert_eq!(activated["approval"], Value::Null, "no scripts, no approval");
    assert_eq!(active_names(owner, &f.project_id).await, vec![("ACTIVE".to_owned(), f.project_id.clone())]);
    assert!(active_names(owner, &f.workspace_id).await.is_empty());

    // A changed file is the next version, quarantined again; activating it in the workspace
    // leaves the project's own (narrower) activation the one that applies there.
    let changed = [files[0], ("references/style.md", "Short lines. No emoji.")];
    let (status, second) = import(&member, zip("release-notes", &changed), None).await;
    assert_eq!((status, second["version"]["number"].clone()), (201, json!(2)));
    let second = version_id(&second);
    review(owner, &second, "APPROVE", Some("diffed against version 1")).await.data("reviewSkillVersion");
    activate(owner, &second, &f.workspace_id).await.data("activateSkill");
    let applying = owner
        .gql("query($s: ID!) { skillActivations(scopeId: $s) { version { number } } }", json!({"s": f.project_id}))
        .await;
    assert_eq!(applying.data("skillActivations"), &json!([{"version": {"number": 1}}]));

    // Revoked: its activations end.
    let revoked = owner
        .gql(
            "mutation($v: ID!) { revokeSkillVersion(versionId: $v, reason: \"leaks tokens\") { reviewState } }",
            json!({"v": first}),
        )
        .await;
    assert_eq!(revoked.data("revokeSkillVersion")["reviewState"], "REVOKED");
    let applying = owner
        .gql("query($s: ID!) { skillActivations(scopeId: $s) { version { number } } }", json!({"s": f.project_id}))
        .await;
    assert_eq!(applying.data("skillActivations"), &json!([{"version": {"number": 2}}]), "the workspace's applies now");

    // Each step is in the audit trail: who imported, sent for review, approved, switched on and
    // withdrew which version, with the reasons given.
    let kinds = ["SKILL_IMPORTED", "SKILL_REVIEW_REQUESTED", "SKILL_REVIEWED", "SKILL_ACTIVATED", "SKILL_REVOKED"];
    let recorded = common::audit_events(owner, &kinds).await;
    let steps: Vec<(&str, &Value)> =
        recorded.iter().map(|e| (e["action"].as_str().unwrap(), &e["details"]["version"])).collect();
    assert_eq!(
        steps,
        [
            ("SKILL_IMPORTED", &json!(1)),
            ("SKILL_REVIEW_REQUESTED", &json!(1)),
            ("SKILL_REVIEWED", &json!(1)),
            ("SKILL_ACTIVATED", &json!(1)),
            ("SKILL_IMPORTED", &json!(2)),
            ("SKILL_REVIEWED", &json!(2)),
            ("SKILL_ACTIVATED", &json!(2)),
            ("SKILL_REVOKED", &json!(1)),
        ]
    );
    assert_eq!(recorded[0]["details"]["signature"], "unsigned");
    assert_eq!(recorded[2]["details"]["reason"], "read every file");
    assert_eq!(recorded[3]["projectId"], f.project_id.as_str());
    assert_eq!(recorded[7]["details"]["reason"], "leaks tokens");
});

on_both_databases!(
    signatures_decide_what_is_trusted_and_a_revoked_key_quarantines_what_it_signed,
    |db: TestDb| async move {
        let server = Server::start(db).await;
        let f = common::fixture(&server).await;
        let owner = &f.owner;
        let trusted = Publisher::new();
        let stranger = Publisher::new();
        let (member, _) = common::user_with_role(owner, "member@acme.test", "MEMBER").await;
        let trust = "mutation($n: String!, $k: String!) { trustSkillPublisherKey(name: $n, publicKey: $k) { id keyId revokedAt } }";
        member.gql(trust, json!({"n": "Acme tools", "k": trusted.public_key})).await.expect_code("FORBIDDEN");
        owner.gql(trust, json!({"n": "Junk", "k": "not a key"})).await.expect_code("VALIDATION");
        let key = owner.gql(trust, json!({"n": "Acme tools", "k": trusted.public_key})).await;
        let key = key.data("trustSkillPublisherKey").clone();
        assert_eq!(key["keyId"].as_str().unwrap().len(), 16);
        owner.gql(trust, json!({"n": "Again", "k": trusted.public_key})).await.expect_code("VALIDATION");

        let package =
            |description: &str| zip("deploy-check", &[("SKILL.md", skill_md("deploy-check", description).as_str())]);
        let signed = package("Checks a deploy.");
        let (status, verified) = import(owner, signed.clone(), Some(&trusted.sign(&signed))).await;
        assert_eq!(status, 201, "{verified}");
        assert_eq!(
            (verified["version"]["signatureStatus"].as_str(), verified["version"]["reviewState"].as_str()),
            (Some("verified"), Some("approved"))
        );
        let verified = version_id(&verified);
        assert_eq!(version(owner, &verified).await["signerKeyId"], key["keyId"]);

        // Signed bytes swapped for others, a stranger's key, or a signature that is not one.
        let tampered = package("Checks a deploy, and mails the tokens away.");
        let (_, swapped) = import(owner, tampered, Some(&trusted.sign(&signed))).await;
        assert_eq!(
            (swapped["version"]["signatureStatus"].as_str(), swapped["version"]["reviewState"].as_str()),
            (Some("invalid"), Some("quarantined"))
        );
        let strangers = package("Checks a deploy, says a stranger.");
        let (_, unknown) = import(owner, strangers.clone(), Some(&stranger.sign(&strangers))).await;
        assert_eq!(
            (unknown["version"]["signatureStatus"].as_str(), unknown["version"]["reviewState"].as_str()),
            (Some("unknown_signer"), Some("quarantined"))
        );
        let (status, garbled) = import(owner, package("x"), Some("!!!")).await;
        assert_eq!((status, garbled["error"]["code"].as_str()), (400, Some("VALIDATION")));

        // Revoking the key quarantines what it approved and what it signs from now on.
        let revoke = "mutation($k: ID!) { revokeSkillPublisherKey(keyId: $k) { revokedAt } }";
        assert!(
            owner.gql(revoke, json!({"k": key["id"]})).await.data("revokeSkillPublisherKey")["revokedAt"].is_string()
        );
        assert_eq!(version(owner, &verified).await["reviewState"], "QUARANTINED");
        let later = package("Checks a deploy, after the revocation.");
        let (_, revoked) = import(owner, later.clone(), Some(&trusted.sign(&later))).await;
        assert_eq!(
            (revoked["version"]["signatureStatus"].as_str(), revoked["version"]["reviewState"].as_str()),
            (Some("revoked_key"), Some("quarantined"))
        );
    }
);

on_both_databases!(activating_a_package_with_scripts_waits_for_another_person_s_approval, |db: TestDb| async move {
    let url = db.url.clone();
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (admin, _) = common::user_with_role(owner, "admin@acme.test", "ADMIN").await;
    let md = skill_md("db-migrate", "Runs migrations.");
    let files = [("SKILL.md", md.as_str()), ("scripts/migrate.sh", "#!/bin/sh\nacc migrate\n")];
    let (_, imported) = import(owner, zip("db-migrate", &files), None).await;
    assert_eq!(imported["version"]["hasScripts"], true);
    let id = version_id(&imported);
    review(owner, &id, "APPROVE", Some("reviewed the script")).await.data("reviewSkillVersion");

    let activated = activate(owner, &id, &f.workspace_id).await;
    let activated = activated.data("activateSkill").clone();
    assert_eq!(activated["activation"]["status"], "PENDING_APPROVAL");
    let approval = activated["approval"].clone();
    assert_eq!(approval["subject"], "SKILL_ACTIVATION");
    assert_eq!(approval["details"]["scripts"], json!(["scripts/migrate.sh"]));
    let inbox =
        admin.gql("{ approvals { edges { node { id subject skillActivation { status } } } } }", json!({})).await;
    assert_eq!(
        inbox.data("approvals")["edges"],
        json!([{"node": {"id": approval["id"], "subject": "SKILL_ACTIVATION", "skillActivation": {"status": "PENDING_APPROVAL"}}}])
    );

    let decide = "mutation($a: ID!) { decideApproval(approvalId: $a, decision: APPROVE) { status } }";
    let own = owner.gql(decide, json!({"a": approval["id"]})).await;
    assert_eq!(own.expect_code("FORBIDDEN")["extensions"]["details"]["needs"], "another approver");
    assert_eq!(active_names(owner, &f.project_id).await[0].0, "PENDING_APPROVAL", "a project sees its workspace's");
    assert_eq!(admin.gql(decide, json!({"a": approval["id"]})).await.data("decideApproval")["status"], "APPROVED");
    assert_eq!(active_names(owner, &f.project_id).await, vec![("ACTIVE".to_owned(), f.workspace_id.clone())]);

    let off = owner
        .gql(
            "mutation($a: ID!) { deactivateSkill(activationId: $a) { status } }",
            json!({"a": activated["activation"]["id"]}),
        )
        .await;
    assert_eq!(off.data("deactivateSkill")["status"], "INACTIVE");
    assert!(active_names(owner, &f.project_id).await.is_empty());

    // Nobody decides in time: the approval expires, and the activation waiting for it ends.
    let waiting = activate(owner, &id, &f.project_id).await;
    let waiting = waiting.data("activateSkill").clone();
    let direct = sea_orm::Database::connect(&url).await.unwrap();
    let overdue =
        "UPDATE approvals SET expires_at = created_at WHERE subject = 'skill_activation' AND status = 'pending'";
    sea_orm::ConnectionTrait::execute_unprepared(&direct, overdue).await.unwrap();
    let status = "query($a: ID!) { node(id: $a) { ... on Approval { status skillActivation { status } } } }";
    let mut seen = Value::Null;
    for _ in 0..100 {
        seen = owner.gql(status, json!({"a": waiting["approval"]["id"]})).await.data("node").clone();
        if seen["status"] == "EXPIRED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(seen, json!({"status": "EXPIRED", "skillActivation": {"status": "INACTIVE"}}));
});

on_both_databases!(bad_archives_are_refused_and_change_nothing, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let good = skill_md("fine", "Fine.");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("not an archive", b"hello".to_vec(), ""),
        ("no SKILL.md", zip("fine", &[("README.md", "hi")]), ""),
        ("a name with capitals", zip("Fine", &[("SKILL.md", &skill_md("Fine", "x"))]), "name"),
        ("a name unlike its directory", zip("other", &[("SKILL.md", &good)]), "name"),
        ("no description", zip("fine", &[("SKILL.md", "---\nname: fine\n---\nbody")]), "description"),
        ("an unknown field", zip("fine", &[("SKILL.md", "---\nname: fine\ndescription: x\nowner: me\n---\n")]), ""),
        ("a path out of the package", tar_gz(&[("SKILL.md", &good), ("../escape.sh", "rm -rf /")]), ""),
    ];
    for (what, archive, field) in cases {
        let (status, answer) = import(owner, archive, None).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("VALIDATION")), "{what}: {answer}");
        if !field.is_empty() {
            assert_eq!(answer["error"]["details"]["field"], field, "{what}: {answer}");
        }
    }
    let (status, _) = owner.anonymous().post_bytes("/v1/skills", zip("fine", &[("SKILL.md", &good)]), &[]).await;
    assert_eq!(status, 401);
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let (status, answer) = import(&viewer, zip("fine", &[("SKILL.md", &good)]), None).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (403, Some("FORBIDDEN")));
    // Ids of another kind, or of nothing, are refused.
    let review = "mutation($v: ID!) { reviewSkillVersion(versionId: $v, decision: APPROVE, reason: \"x\") { id } }";
    owner.gql(review, json!({"v": f.project_id})).await.expect_code("VALIDATION");
    let activate = "mutation($v: ID!, $s: ID!) { activateSkill(versionId: $v, scopeId: $s) { activation { id } } }";
    owner.gql(activate, json!({"v": f.project_id, "s": f.project_id})).await.expect_code("VALIDATION");
    let listed = owner.gql("{ skills { edges { node { id } } } }", json!({})).await;
    assert_eq!(listed.data("skills")["edges"], json!([]), "nothing was imported");
});

on_both_databases!(a_run_is_started_with_the_skills_active_in_its_project_and_keeps_them, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let notes = skill_md("release-notes", "Writes release notes.");
    let (_, imported) = import(owner, zip("release-notes", &[("SKILL.md", notes.as_str())]), None).await;
    let notes_version = version_id(&imported);
    let digest = imported["version"]["digest"].clone();
    review(owner, &notes_version, "APPROVE", Some("read it")).await.data("reviewSkillVersion");
    let activation = activate(owner, &notes_version, &f.project_id).await;
    let activation = activation.data("activateSkill")["activation"]["id"].clone();
    // A package with scripts still waiting for its approval is not given to runs.
    let migrate = skill_md("db-migrate", "Runs migrations.");
    let scripted = zip("db-migrate", &[("SKILL.md", migrate.as_str()), ("scripts/run.sh", "#!/bin/sh\n")]);
    let (_, scripted) = import(owner, scripted, None).await;
    let scripted = version_id(&scripted);
    review(owner, &scripted, "APPROVE", Some("read it")).await.data("reviewSkillVersion");
    let pending = activate(owner, &scripted, &f.workspace_id).await;
    assert_eq!(pending.data("activateSkill")["activation"]["status"], "PENDING_APPROVAL");

    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let start = "mutation($t: ID!) { startRun(taskId: $t) { id skills { name number digest versionId } } }";
    let first = owner.gql(start, json!({"t": task["id"]})).await;
    let first = first.data("startRun").clone();
    assert_eq!(
        first["skills"],
        json!([{"name": "release-notes", "number": 1, "digest": digest, "versionId": notes_version}])
    );

    // Switched off: the next run starts without it; the first keeps what it was started with.
    owner
        .gql("mutation($a: ID!) { deactivateSkill(activationId: $a) { status } }", json!({"a": activation}))
        .await
        .data("deactivateSkill");
    let second = owner.gql(start, json!({"t": task["id"]})).await;
    assert_eq!(second.data("startRun")["skills"], json!([]));
    let again = owner
        .gql("query($r: ID!) { node(id: $r) { ... on TaskRun { skills { name } } } }", json!({"r": first["id"]}))
        .await;
    assert_eq!(again.data("node")["skills"], json!([{"name": "release-notes"}]));
});

on_both_databases!(the_connector_holding_a_run_fetches_its_skills_files_and_no_other_does, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (_, imported) = import(owner, notes_package("Writes release notes."), None).await;
    let notes = version_id(&imported);
    review(owner, &notes, "APPROVE", Some("read it")).await.data("reviewSkillVersion");
    activate(owner, &notes, &f.project_id).await.data("activateSkill");
    // Another version, never activated: no run was started with it.
    let (_, other) = import(owner, notes_package("Writes other notes."), None).await;
    let other = version_id(&other);
    review(owner, &other, "APPROVE", Some("read it")).await.data("reviewSkillVersion");
    let other_uuid = acc_api::ids::GlobalId::decode(&other).unwrap().id;

    let (mut connector, credential) = common::raw_connector(&server, &f).await;
    connector.hello("worker", vec![Capability::Stream]).await;
    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run = run.data("startRun")["id"].clone();
    let (command_id, command) = connector.command().await;
    let Command::StartRun { run_id, skills, .. } = command else { panic!("expected a start, got {command:?}") };
    assert_eq!(skills.len(), 1, "{skills:?}");
    assert_eq!(
        (skills[0].name.as_str(), json!(skills[0].digest)),
        ("release-notes", imported["version"]["digest"].clone())
    );
    connector.answer(command_id, CommandOutcome::Accepted).await;

    let http = reqwest::Client::new();
    let fetch = |version: String, credential: Option<String>| {
        let request = http.get(format!("{}/v1/connectors/runs/{run_id}/skills/{version}", server.base_url()));
        let request = match credential {
            Some(credential) => request.bearer_auth(credential),
            None => request,
        };
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let version = skills[0].skill_version_id.to_string();
    let (status, served) = fetch(version.clone(), Some(credential.clone())).await;
    assert_eq!(status, 200, "{served}");
    let served: SkillFiles = serde_json::from_value(served).unwrap();
    let base64 = base64::engine::general_purpose::STANDARD;
    let files: Vec<(String, String)> = served
        .files
        .iter()
        .map(|f| (f.path.clone(), String::from_utf8(base64.decode(&f.content_base64).unwrap()).unwrap()))
        .collect();
    assert_eq!(files[1], ("references/style.md".to_owned(), "Short lines, past tense.\n".to_owned()));
    assert_eq!(files[0].0, "SKILL.md");
    assert!(files[0].1.contains("description: Writes release notes."));
    // What is served is what the run's digest names, by the protocol's one definition.
    let hashes: Vec<String> = files.iter().map(|(_, c)| hex::encode(Sha256::digest(c.as_bytes()))).collect();
    let list = skill_file_list(files.iter().zip(&hashes).map(|((p, _), h)| (p.as_str(), h.as_str())));
    assert_eq!(format!("sha256:{}", hex::encode(Sha256::digest(list.as_bytes()))), skills[0].digest);

    // Another connector of the organization, no credential, a version the run was not started
    // with, a bad id: nothing is served, and nothing says whether the run exists.
    let (_other_connector, other_credential) = common::raw_connector(&server, &f).await;
    let refused = fetch(version.clone(), Some(other_credential)).await;
    assert_eq!((refused.0, refused.1["error"]["code"].as_str()), (404, Some("NOT_FOUND")), "{}", refused.1);
    assert_eq!(fetch(version.clone(), None).await.0, 401);
    let refused = fetch(other_uuid.to_string(), Some(credential.clone())).await;
    assert_eq!((refused.0, refused.1["error"]["code"].as_str()), (404, Some("NOT_FOUND")), "{}", refused.1);
    let refused = fetch("not-a-uuid".into(), Some(credential.clone())).await;
    assert_eq!((refused.0, refused.1["error"]["code"].as_str()), (400, Some("VALIDATION")), "{}", refused.1);

    // Once the run is over, its skills are no longer served, even to its connector.
    let result = connector.event(run_id, 1, EventKind::Result, json!({"outcome": "succeeded", "exit_code": 0}));
    assert_eq!(connector.emit(result).await, Ok(1));
    common::wait_status(owner, run.as_str().unwrap(), "SUCCEEDED").await;
    assert_eq!(fetch(version, Some(credential)).await.0, 404);
});

/// The release-notes package, signed by a publisher the organization trusts (which approves it at
/// import) and active in `project`.
async fn signed_and_active(owner: &Client, project: &str, description: &str) {
    let publisher = Publisher::new();
    let trust = "mutation($n: String!, $k: String!) { trustSkillPublisherKey(name: $n, publicKey: $k) { id } }";
    owner.gql(trust, json!({"n": "Release team", "k": publisher.public_key})).await.data("trustSkillPublisherKey");
    let archive = notes_package(description);
    let (status, imported) = import(owner, archive.clone(), Some(&publisher.sign(&archive))).await;
    assert_eq!((status, imported["version"]["reviewState"].as_str()), (201, Some("approved")), "{imported}");
    activate(owner, &version_id(&imported), project).await.data("activateSkill");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_is_started_with_the_runs_skills_and_lists_them_to_the_model() {
    // The first model call is held, so the installed skill can be looked at while the run is on.
    let model = ModelApi::holding(vec![Step::Say("Noted.".into())], 0).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let description = "Writes release notes from merged pull requests, in the house style.";
    signed_and_active(owner, &f.project_id, description).await;

    let claude = acc_tests::runtimes::npm_bin("claude");
    let dir = server.db.dir.clone();
    let (home, work) = (dir.join("claude-home"), dir.join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let credential = common::enroll(&server, owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"claude\"\nadapter = \"claude-code\"\ncommand = {claude:?}\nworkdir = {work:?}\n\
         model_provider = \"anthropic\"\nenv = {{ HOME = {home:?} }}\n",
        provider = model.provider("anthropic", "anthropic"),
    );
    let _connector = common::run_connector(&dir, &credential, &agents);
    common::online_agents(owner, &f.project_id, 1).await;
    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = run.data("startRun")["id"].as_str().unwrap().to_owned();

    model.wait_held().await;
    let first = model.model_calls()[0].body.to_string();
    // Claude Code read the skill where the connector installed it, and offers it to the model.
    assert!(first.contains(&format!("release-notes: {description}")), "the skill is not listed: {first}");
    // In a directory of the run's own, given to Claude Code beside its working directory.
    let added = first.split("Additional working directories:").nth(1).expect("an added directory");
    let added = added.split("\\n").nth(1).unwrap().trim_start_matches([' ', '-']).to_owned();
    let installed = std::path::Path::new(&added).join(".claude/skills/release-notes");
    assert_eq!(std::fs::read_to_string(installed.join("references/style.md")).unwrap(), "Short lines, past tense.\n");
    assert!(!work.join(".claude").exists(), "the working directory is left as it was");

    model.release();
    common::wait_status(owner, &run_id, "SUCCEEDED").await;
    assert!(!std::path::Path::new(&added).exists(), "the run's skills go with the run");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemini_cli_is_started_with_the_runs_skills_beside_the_users_own() {
    let model = ModelApi::holding(vec![Step::Say("Noted.".into())], 0).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let description = "Writes release notes from merged pull requests, in the house style.";
    signed_and_active(owner, &f.project_id, description).await;

    let gemini = acc_tests::runtimes::npm_bin("gemini");
    let dir = server.db.dir.clone();
    let (home, work) = (dir.join("gemini-home"), dir.join("work"));
    common::gemini_settings(&home);
    // The user's own skill, which the run's are put beside.
    let mine = home.join(".gemini/skills/standup");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("SKILL.md"), skill_md("standup", "Summarizes yesterday's work for the standup.")).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let credential = common::enroll(&server, owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"gemini\"\nadapter = \"gemini\"\ncommand = {gemini:?}\nworkdir = {work:?}\n\
         model_provider = \"google\"\nargs = [\"-m\", \"gemini-2.5-flash\"]\nenv = {{ HOME = {home:?} }}\n",
        provider = model.provider("google", "gemini"),
    );
    let _connector = common::run_connector(&dir, &credential, &agents);
    common::online_agents(owner, &f.project_id, 1).await;
    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = run.data("startRun")["id"].as_str().unwrap().to_owned();

    model.wait_held().await;
    let first = model.model_calls()[0].body.to_string();
    // Gemini CLI offers the model the run's skill and the user's own.
    assert!(first.contains("<name>release-notes</name>") && first.contains(description), "not listed: {first}");
    assert!(first.contains("<name>standup</name>"), "the user's own skill is not listed: {first}");
    // Nothing of the run's is in the user's own skills.
    let own: Vec<_> =
        std::fs::read_dir(home.join(".gemini/skills")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(own, ["standup"]);

    model.release();
    common::wait_status(owner, &run_id, "SUCCEEDED").await;
    // The session it wrote is the user's, for a later resume.
    let sessions = std::fs::read_dir(home.join(".gemini/tmp")).unwrap().count();
    assert!(sessions > 0, "no session in the user's own .gemini/tmp");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codex_is_started_with_the_runs_skills_beside_the_users_own() {
    let model = ModelApi::holding(vec![Step::Say("Noted.".into())], 0).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let description = "Writes release notes from merged pull requests, in the house style.";
    signed_and_active(owner, &f.project_id, description).await;
    let (dir, credential, agents, _) = common::codex_agent(&server, &f, &model, ("codex", "[]")).await;
    let codex_home = dir.join("codex-home");
    let mine = codex_home.join("skills/standup");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("SKILL.md"), skill_md("standup", "Summarizes yesterday's work for the standup.")).unwrap();
    let _connector = common::run_connector(&dir, &credential, &agents);
    common::online_agents(owner, &f.project_id, 1).await;
    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = run.data("startRun")["id"].as_str().unwrap().to_owned();

    model.wait_held().await;
    let first = model.model_calls()[0].body.to_string();
    // Codex offers the model the run's skill and the user's own.
    assert!(first.contains("release-notes") && first.contains(description), "not listed: {first}");
    assert!(first.contains("Summarizes yesterday's work for the standup."), "the user's own skill is not listed");
    let own: Vec<_> = std::fs::read_dir(codex_home.join("skills")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(own, ["standup"], "nothing of the run's is in the user's own skills");

    model.release();
    common::wait_status(owner, &run_id, "SUCCEEDED").await;
    // Its session is the user's, for a later resume; the run's home went with the run.
    assert!(std::fs::read_dir(codex_home.join("sessions")).unwrap().count() > 0, "no session in the user's home");
    assert_eq!(std::fs::read_dir(codex_home.join("acc-runs")).unwrap().count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hermes_is_started_with_the_runs_skills_beside_the_users_own() {
    let model = ModelApi::holding(vec![Step::Say("Noted.".into())], 0).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let description = "Writes release notes from merged pull requests, in the house style.";
    signed_and_active(owner, &f.project_id, description).await;
    let (dir, credential, agents, _) = common::hermes_agent(&server, &f, &model, "", "").await;
    let hermes_home = dir.join("hermes-home");
    let mine = hermes_home.join("skills/standup");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("SKILL.md"), skill_md("standup", "Summarizes yesterday's work for the standup.")).unwrap();
    assert!(!hermes_home.join("state.db").exists());
    let _connector = common::run_connector(&dir, &credential, &agents);
    common::online_agents(owner, &f.project_id, 1).await;
    let task = common::create_task(owner, &f.project_id, "Write the release notes").await;
    let run = owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = run.data("startRun")["id"].as_str().unwrap().to_owned();

    model.wait_held().await;
    let first = model.model_calls()[0].body.to_string();
    // Hermes offers the model the run's skill and the user's own (descriptions cut at 60 characters).
    assert!(first.contains(&format!("release-notes: {}", &description[..50])), "not listed: {first}");
    assert!(first.contains("standup: Summarizes yesterday's work for the standup."), "the user's own is not listed");
    let own: Vec<_> = std::fs::read_dir(hermes_home.join("skills")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(own, ["standup"], "nothing of the run's is in the user's own skills");

    model.release();
    common::wait_status(owner, &run_id, "SUCCEEDED").await;
    // The session database it made is the user's, where a later `hermes` finds the session.
    let state = std::fs::symlink_metadata(hermes_home.join("state.db")).expect("no state.db in the user's home");
    assert!(state.is_file() && state.len() > 0);
}
