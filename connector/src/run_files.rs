//! Files of a run's working directory sent to the control plane as artifacts of the run's task:
//! those the agent attaches (its `attach_artifact` run tool) and, for adapters with the
//! `artifacts` capability, those it changed, at the run's end. Either way only a file inside the
//! agent's working directory goes (the path resolved, symbolic links followed, then checked), over
//! the connection's TLS with the connector's own credential. The same way come the files of the
//! skills a run was started with (`skills` checks them).

use std::path::Path;
use std::sync::{Arc, Mutex};

use acc_protocol::{RunSkill, SkillFiles};
use serde_json::Value;
use uuid::Uuid;

use crate::lock;
use crate::skills::{Skill, SkillError, verify};

/// How long one skill's files may take to arrive.
const SKILL_FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// The control plane's file endpoints for connectors, as this connector: where a run's files go
/// and where its skills come from.
#[derive(Clone)]
pub struct ServerFiles {
    /// `http(s)://HOST[:PORT]`, the server the connector dials.
    base_url: String,
    credential: String,
    client: reqwest::Client,
}

impl std::fmt::Debug for ServerFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerFiles").field("base_url", &self.base_url).finish_non_exhaustive()
    }
}

impl ServerFiles {
    /// Uploads to the server of `gateway_url` (`ws(s)://…/v1/connectors/ws`) with `credential`,
    /// over the connection's TLS (its trusted roots and client certificate).
    pub fn new(gateway_url: &str, credential: &str, tls: rustls::ClientConfig) -> Result<Self, reqwest::Error> {
        let base_url = gateway_url.replacen("ws", "http", 1).trim_end_matches("/v1/connectors/ws").to_owned();
        let client = reqwest::Client::builder().use_preconfigured_tls(tls).build()?;
        Ok(Self { base_url, credential: credential.to_owned(), client })
    }

    /// Streams `file` as the next version of the run's artifact `name`: the control plane's
    /// answer, or why it refused.
    async fn put(&self, run_id: Uuid, name: &str, file: tokio::fs::File) -> Result<Value, String> {
        let url = format!("{}/v1/connectors/runs/{run_id}/artifacts", self.base_url);
        let response = self
            .client
            .put(url)
            .query(&[("name", name)])
            .bearer_auth(&self.credential)
            .body(reqwest::Body::from(file))
            .send()
            .await
            .map_err(|e| format!("UNAVAILABLE: the upload failed: {e}"))?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if status.is_success() {
            return Ok(body);
        }
        Err(refusal(&body))
    }

    /// The files of the skill version `skill_version_id` that run `run_id` was started with, as
    /// the control plane serves them (unchecked).
    async fn skill_files(&self, run_id: Uuid, skill_version_id: Uuid) -> Result<SkillFiles, String> {
        let url = format!("{}/v1/connectors/runs/{run_id}/skills/{skill_version_id}", self.base_url);
        let response = self
            .client
            .get(url)
            .bearer_auth(&self.credential)
            .timeout(SKILL_FETCH_TIMEOUT)
            .send()
            .await
            .map_err(|e| format!("UNAVAILABLE: the download failed: {e}"))?;
        if response.status().is_success() {
            return response.json().await.map_err(|e| format!("the answer is no skill's files: {e}"));
        }
        Err(refusal(&response.json().await.unwrap_or(Value::Null)))
    }
}

/// A refusal's body (`{"error": {"code", "message"}}`) as `CODE: message`.
fn refusal(body: &Value) -> String {
    let error = &body["error"];
    format!("{}: {}", error["code"].as_str().unwrap_or("INTERNAL"), error["message"].as_str().unwrap_or(""))
}

/// The upload of this connector's run files, shared by the run tools and the runtime; set by the
/// connection once it knows the server and the credential.
#[derive(Debug, Clone, Default)]
pub struct RunFiles {
    upload: Arc<Mutex<Option<ServerFiles>>>,
}

/// Why a file was not sent; each message starts with its SPEC §4 code, as the agent is told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotSent {
    /// There is no such file (any more): a changed file since deleted is not worth a warning.
    #[error("NOT_FOUND: {0}")]
    Missing(String),
    #[error("{0}")]
    Refused(String),
}

impl RunFiles {
    /// Where files go from now on.
    pub fn set_upload(&self, upload: ServerFiles) {
        *lock(&self.upload) = Some(upload);
    }

    /// Sends the file at `path` (relative to `workdir`, or absolute) as the next version of the
    /// run's artifact `name` (by default its path in `workdir`): the control plane's answer.
    pub async fn attach(
        &self,
        run_id: Uuid,
        workdir: &Path,
        path: &str,
        name: Option<String>,
    ) -> Result<Value, NotSent> {
        let (file, relative) = open_inside(workdir, path).await?;
        let upload = lock(&self.upload).clone();
        let upload = upload.ok_or_else(|| {
            NotSent::Refused("UNAVAILABLE: not connected to Agent Control Center yet; try again later".into())
        })?;
        upload.put(run_id, &name.unwrap_or(relative), file).await.map_err(NotSent::Refused)
    }

    /// Fetches the files of each of `skills` that run `run_id` was started with, each checked
    /// against its digest.
    pub async fn fetch_skills(&self, run_id: Uuid, skills: &[RunSkill]) -> Result<Vec<Skill>, SkillError> {
        let server = lock(&self.upload).clone();
        let mut fetched = Vec::with_capacity(skills.len());
        for skill in skills {
            let failed = |message: String| SkillError::Fetch { name: skill.name.clone(), message };
            let server = server.as_ref().ok_or_else(|| failed("not connected to Agent Control Center".into()))?;
            let files = server.skill_files(run_id, skill.skill_version_id).await.map_err(failed)?;
            fetched.push(verify(skill, files)?);
        }
        Ok(fetched)
    }
}

/// `path` inside `workdir`, opened: the file and its path relative to the directory, or why not.
/// Symbolic links are followed first, so none leads out.
async fn open_inside(workdir: &Path, path: &str) -> Result<(tokio::fs::File, String), NotSent> {
    let outside = || NotSent::Refused("VALIDATION: the file must be inside your working directory".to_owned());
    let missing = |e: std::io::Error| NotSent::Missing(format!("{path}: {e}"));
    let root = tokio::fs::canonicalize(workdir)
        .await
        .map_err(|e| NotSent::Refused(format!("INTERNAL: the working directory: {e}")))?;
    let file = tokio::fs::canonicalize(root.join(path)).await.map_err(missing)?;
    let relative = file.strip_prefix(&root).map_err(|_| outside())?;
    let name: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if name.is_empty() {
        return Err(outside());
    }
    let metadata = tokio::fs::metadata(&file).await.map_err(missing)?;
    if !metadata.is_file() {
        return Err(NotSent::Refused(format!("VALIDATION: {path} is not a file")));
    }
    let opened = tokio::fs::File::open(&file).await.map_err(|e| NotSent::Refused(format!("FORBIDDEN: {path}: {e}")))?;
    Ok((opened, name.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn only_a_file_inside_the_working_directory_is_opened() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let work = tmp.path().join("work");
        std::fs::create_dir_all(work.join("notes")).expect("notes");
        std::fs::create_dir_all(work.join("dir")).expect("dir");
        std::fs::write(work.join("notes/a.md"), "inside").expect("a file inside");
        std::fs::write(tmp.path().join("outside.md"), "outside").expect("a file outside");
        std::os::unix::fs::symlink(tmp.path().join("outside.md"), work.join("link.md")).expect("a link out");

        let (_, name) = open_inside(&work, "notes/a.md").await.expect("a file inside");
        assert_eq!(name, "notes/a.md");
        let (_, name) = open_inside(&work, "notes/../notes/./a.md").await.expect("the same file, spelled otherwise");
        assert_eq!(name, "notes/a.md");
        let absolute = work.join("notes/a.md");
        let (_, name) = open_inside(&work, &absolute.to_string_lossy()).await.expect("an absolute path inside");
        assert_eq!(name, "notes/a.md");
        for path in ["../outside.md", "link.md", "/etc/passwd", ".", "dir"] {
            let refused = open_inside(&work, path).await.expect_err(path);
            assert!(refused.to_string().starts_with("VALIDATION"), "{path}: {refused}");
        }
        let missing = open_inside(&work, "missing.md").await.expect_err("missing");
        assert!(matches!(missing, NotSent::Missing(_)), "{missing}");
        assert!(missing.to_string().starts_with("NOT_FOUND: missing.md"), "{missing}");
    }
}
