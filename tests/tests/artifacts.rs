//! Artifacts through the real server: uploads over HTTP with the bearer token, versions by
//! content, downloads as sandboxed attachments, the metadata in GraphQL; names, sizes, roles and
//! tenants that are refused and change nothing; and the same against a real S3-compatible store.

mod common;

use acc_tests::object_store::S3Server;
use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const LIST: &str = "query($p: ID!, $t: ID) { artifacts(projectId: $p, taskId: $t) { edges { node { id name taskId \
                    revision latest { number sha256 sizeBytes } versions { id number sha256 sizeBytes mediaType \
                    provenance createdById downloadPath } } } } }";

fn upload_path(project: &str, task: Option<&str>, name: &str) -> String {
    let mut path = format!("/v1/artifacts?projectId={project}&name={}", urlencode(name));
    if let Some(task) = task {
        path.push_str(&format!("&taskId={task}"));
    }
    path
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn upload(client: &Client, project: &str, task: Option<&str>, name: &str, body: &[u8]) -> (u16, Value) {
    client.post_bytes(&upload_path(project, task, name), body.to_vec(), &[("content-type", "text/markdown")]).await
}

async fn listed(client: &Client, project: &str, task: Option<&str>) -> Vec<Value> {
    let answer = client.gql(LIST, json!({"p": project, "t": task})).await;
    answer.data("artifacts")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect()
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

on_both_databases!(uploads_become_versions_and_download_as_attachments, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let task = common::create_task(owner, &f.project_id, "Write the report").await;
    let task_id = task["id"].as_str().unwrap();

    let first = b"# Summary\n\nThe rollout is done.\n".to_vec();
    let (status, made) = upload(owner, &f.project_id, Some(task_id), "reports/summary.md", &first).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["artifact"]["name"], "reports/summary.md");
    assert_eq!(made["version"]["number"], 1);
    assert_eq!(made["version"]["sha256"], sha256(&first).as_str());
    assert_eq!(made["version"]["sizeBytes"], first.len());
    assert_eq!(made["version"]["mediaType"], "text/markdown");
    let second = b"# Summary\n\nThe rollout is done; one host was retried.\n".to_vec();
    let (status, next) = upload(owner, &f.project_id, Some(task_id), "reports/summary.md", &second).await;
    assert_eq!(status, 201);
    assert_eq!(next["artifact"]["id"], made["artifact"]["id"], "the same name is the same artifact");
    assert_eq!(next["version"]["number"], 2);
    // The project's own artifact, with the same bytes as the task's first version.
    let (status, own) = upload(owner, &f.project_id, None, "notes.md", &first).await;
    assert_eq!(status, 201);
    assert_eq!(own["version"]["sha256"], made["version"]["sha256"]);

    let of_task = listed(owner, &f.project_id, Some(task_id)).await;
    assert_eq!(of_task.len(), 1);
    let artifact = &of_task[0];
    assert_eq!(artifact["taskId"], task_id);
    assert_eq!(artifact["revision"], 2);
    assert_eq!(artifact["latest"]["number"], 2);
    let versions = artifact["versions"].as_array().unwrap();
    assert_eq!(versions.iter().map(|v| v["number"].as_i64().unwrap()).collect::<Vec<_>>(), vec![2, 1]);
    assert_eq!(versions[1]["provenance"]["source"], "person");
    assert!(versions[1]["createdById"].is_string());
    let all = listed(owner, &f.project_id, None).await;
    assert_eq!(
        all.iter().map(|a| a["name"].as_str().unwrap()).collect::<Vec<_>>(),
        vec!["reports/summary.md", "notes.md"]
    );

    // Each version downloads as it was uploaded, as an attachment a browser never runs.
    for (version, bytes) in [(&versions[1], &first), (&versions[0], &second)] {
        let response = owner.get(version["downloadPath"].as_str().unwrap()).await;
        assert_eq!(response.status(), 200);
        let headers = response.headers().clone();
        assert_eq!(headers["content-disposition"], "attachment; filename*=UTF-8''summary%2Emd");
        assert_eq!(headers["content-type"], "text/markdown");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert!(headers["content-security-policy"].to_str().unwrap().starts_with("sandbox"));
        let etag = format!("\"{}\"", sha256(bytes));
        assert_eq!(headers["etag"], etag.as_str());
        assert_eq!(headers["accept-ranges"], "bytes");
        assert_eq!(response.bytes().await.unwrap().as_ref(), bytes.as_slice());
        let again = owner.get_with(version["downloadPath"].as_str().unwrap(), &[("if-none-match", &etag)]).await;
        assert_eq!(again.status(), 304, "held bytes are not sent again");
        resumes(owner, version["downloadPath"].as_str().unwrap(), bytes, bytes.len() / 2).await;
    }
    // The same through node(id).
    let node = owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on ArtifactVersion { number sha256 } } }",
            json!({"id": versions[0]["id"]}),
        )
        .await;
    assert_eq!(node.data("node")["number"], 2);
    let node = owner.gql("query($id: ID!) { artifact(id: $id) { name } }", json!({"id": artifact["id"]})).await;
    assert_eq!(node.data("artifact")["name"], "reports/summary.md");
});

/// A download that broke off after `cut` bytes resumes there: the rest comes as a 206 with its
/// `Content-Range`, and with the first part makes the whole. A range outside the bytes, or not a
/// range of bytes, is 416 and names the size.
async fn resumes(client: &Client, path: &str, bytes: &[u8], cut: usize) {
    let (etag, n) = (format!("\"{}\"", sha256(bytes)), bytes.len());
    let rest = client.get_with(path, &[("range", &format!("bytes={cut}-")), ("if-range", &etag)]).await;
    assert_eq!(rest.status(), 206);
    assert_eq!(rest.headers()["content-range"], format!("bytes {cut}-{}/{n}", n - 1).as_str());
    assert_eq!(rest.headers()["content-length"], (n - cut).to_string().as_str());
    let mut whole = bytes[..cut].to_vec();
    whole.extend_from_slice(&rest.bytes().await.unwrap());
    assert!(whole == bytes, "the two parts make the whole");
    let tail = client.get_with(path, &[("range", "bytes=-3")]).await;
    assert_eq!((tail.status().as_u16(), tail.bytes().await.unwrap().as_ref()), (206, &bytes[n - 3..]));
    let middle = client.get_with(path, &[("range", "bytes=1-2")]).await;
    assert_eq!((middle.status().as_u16(), middle.bytes().await.unwrap().as_ref()), (206, &bytes[1..3]));
    // Resuming a copy of other bytes gets all of these.
    let other = client.get_with(path, &[("range", "bytes=1-"), ("if-range", "\"0000\"")]).await;
    assert_eq!((other.status().as_u16(), other.bytes().await.unwrap().len()), (200, n));
    for asked in [format!("bytes={n}-"), "bytes=5-2".into(), "pages=1-2".into()] {
        let refused = client.get_with(path, &[("range", &asked)]).await;
        assert_eq!(refused.status(), 416, "{asked}");
        assert_eq!(refused.headers()["content-range"], format!("bytes */{n}").as_str());
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "VALIDATION", "{body}");
    }
}

on_both_databases!(bad_uploads_and_strangers_are_refused_and_change_nothing, |db: TestDb| async move {
    let dir = db.dir.clone();
    let options =
        ServerOptions { env: vec![("ACC_ARTIFACTS__MAX_UPLOAD_BYTES".into(), "4096".into())], ..Default::default() };
    let server = Server::start_with(db, options).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (status, made) = upload(owner, &f.project_id, None, "kept.txt", b"kept").await;
    assert_eq!(status, 201);
    let version_path = made["version"]["downloadPath"].as_str().unwrap().to_owned();
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let other = common::other_project(owner, &f.workspace_id, "Elsewhere").await;
    let foreign_task = common::create_task(owner, &other, "Not this project's").await;

    let refused = |status: u16, answer: &Value, code: &str, why: &str| {
        assert_eq!(answer["error"]["code"], code, "{why}: {answer}");
        assert!(answer["error"]["correlationId"].is_string(), "{why}");
        status
    };
    // Names that would leave their directory, or are no path at all.
    for name in ["../escape.txt", "/etc/passwd", "a//b.txt", "dir/", "a\\..\\b", "nul\u{0}byte", "./x", ""] {
        let (status, answer) = upload(owner, &f.project_id, None, name, b"x").await;
        assert_eq!(refused(status, &answer, "VALIDATION", name), 400, "{name:?}");
    }
    let (status, answer) =
        owner.post_bytes(&format!("/v1/artifacts?projectId={}", f.project_id), b"x".to_vec(), &[]).await;
    assert_eq!(refused(status, &answer, "VALIDATION", "no name"), 400);
    let (status, answer) = owner
        .post_bytes(&upload_path(&f.project_id, None, "x.txt"), b"x".to_vec(), &[("content-type", "text/<script>")])
        .await;
    assert_eq!(refused(status, &answer, "VALIDATION", "no media type"), 400);
    let (status, answer) = upload(owner, "not-an-id", None, "x.txt", b"x").await;
    assert_eq!(refused(status, &answer, "VALIDATION", "bad id"), 400);
    // Too large: refused once past the limit, with nothing of it kept.
    let (status, answer) = upload(owner, &f.project_id, None, "big.bin", &vec![7u8; 8192]).await;
    assert_eq!(refused(status, &answer, "VALIDATION", "too large"), 413);
    assert_eq!(answer["error"]["details"]["maxBytes"], 4096);
    // A task of another project, a viewer, no token, a bad token.
    let (status, answer) = upload(owner, &f.project_id, foreign_task["id"].as_str(), "x.txt", b"x").await;
    assert_eq!(refused(status, &answer, "NOT_FOUND", "foreign task"), 404);
    let (status, answer) = upload(&viewer, &f.project_id, None, "x.txt", b"x").await;
    assert_eq!(refused(status, &answer, "FORBIDDEN", "viewer"), 403);
    let (status, answer) = upload(&owner.anonymous(), &f.project_id, None, "x.txt", b"x").await;
    assert_eq!(refused(status, &answer, "UNAUTHENTICATED", "anonymous"), 401);
    let (status, answer) = upload(&owner.with_token("forged"), &f.project_id, None, "x.txt", b"x").await;
    assert_eq!(refused(status, &answer, "UNAUTHENTICATED", "forged"), 401);
    assert_eq!(owner.anonymous().get(&version_path).await.status(), 401);
    assert_eq!(owner.get("/v1/artifacts/versions/not-an-id").await.status(), 400);

    // Another organization: nothing of the first exists for it.
    let b = common::second_organization_owner(owner).await;
    let (status, answer) = upload(&b, &f.project_id, None, "x.txt", b"x").await;
    assert_eq!(refused(status, &answer, "NOT_FOUND", "other tenant's project"), 404);
    let stolen = b.get(&version_path).await;
    assert_eq!(stolen.status(), 404);
    b.gql(LIST, json!({"p": f.project_id})).await.expect_code("NOT_FOUND");
    b.gql("query($id: ID!) { artifact(id: $id) { name } }", json!({"id": made["artifact"]["id"]}))
        .await
        .expect_code("NOT_FOUND");

    // The viewer reads and downloads; and all the refusals changed nothing.
    assert_eq!(viewer.get(&version_path).await.bytes().await.unwrap().as_ref(), b"kept");
    let all = listed(owner, &f.project_id, None).await;
    assert_eq!(all.iter().map(|a| a["name"].as_str().unwrap()).collect::<Vec<_>>(), vec!["kept.txt"]);
    assert_eq!(all[0]["revision"], 1);
    // One blob, and no staging file of a refused upload left behind.
    let stored: Vec<_> = walk(&dir.join("artifacts"));
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert!(stored[0].ends_with(&sha256(b"kept")), "{stored:?}");
});

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path.display().to_string());
        }
    }
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_s3_compatible_store_keeps_the_bytes() {
    let s3 = S3Server::start("acc-artifacts").await;
    let db = TestDb::sqlite();
    let env = s3.env(&db.dir);
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    // Larger than a part (8 MiB): it goes up in parts; a small one in one request.
    let large: Vec<u8> = (0..9 * 1024 * 1024 + 17).map(|i| (i * 31 % 251) as u8).collect();
    let (status, big) = upload(owner, &f.project_id, None, "build/output.tar", &large).await;
    assert_eq!(status, 201, "{big}");
    assert_eq!(big["version"]["sizeBytes"], large.len());
    let (status, small) = upload(owner, &f.project_id, None, "notes.md", b"small").await;
    assert_eq!(status, 201, "{small}");
    for (made, bytes) in [(&big, &large), (&small, &b"small".to_vec())] {
        let response = owner.get(made["version"]["downloadPath"].as_str().unwrap()).await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.bytes().await.unwrap().as_ref(), bytes.as_slice());
    }
    // A download of the large one resumes past its first part.
    resumes(owner, big["version"]["downloadPath"].as_str().unwrap(), &large, 8 * 1024 * 1024 + 5).await;
    // In the bucket: each blob once, under its organization and digest, and nothing staged.
    let mut keys = s3.keys("organizations/").await;
    keys.sort();
    let mut digests: Vec<String> = keys.iter().map(|k| k.rsplit('/').next().unwrap().to_owned()).collect();
    digests.sort();
    let mut expected = vec![sha256(&large), sha256(b"small")];
    expected.sort();
    assert_eq!(digests, expected, "{keys:?}");
    assert!(keys.iter().all(|k| k.contains("/sha256/")), "{keys:?}");
}
