//! The retrieval evaluation's corpus (tests/data/memory_eval.json): entries across scopes and
//! kinds and questions with their relevant entries, and its writing into a server through GraphQL.
//! The evaluation (tests/tests/memory_eval.rs) and the search latency benchmark share it.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::Client;

#[derive(Deserialize)]
pub struct Corpus {
    pub entries: Vec<Entry>,
    pub questions: Vec<Question>,
}

#[derive(Deserialize)]
pub struct Entry {
    pub key: String,
    /// organization, workspace, project, task, or other_project (which a task never reads).
    pub scope: String,
    pub kind: String,
    pub subject: String,
    pub content: String,
    /// The earlier entry of the same subject whose version this one supersedes.
    pub replaces: Option<String>,
    #[serde(default)]
    pub retracted: bool,
}

#[derive(Deserialize)]
pub struct Question {
    pub text: String,
    pub relevant: Vec<String>,
    /// paraphrase, keyword or mixed.
    pub style: String,
}

pub fn corpus() -> Corpus {
    serde_json::from_str(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/memory_eval.json"))).unwrap()
}

/// Writes the corpus in order (a replacement supersedes its predecessor's version, a retracted
/// entry is retracted) into `scopes` (the corpus's scope names → ids). Returns each key's entry
/// and version ids.
pub async fn write(
    owner: &Client,
    corpus: &Corpus,
    scopes: &HashMap<&str, String>,
) -> HashMap<String, (String, String)> {
    let mut written_as: HashMap<String, (String, String)> = HashMap::new();
    for e in &corpus.entries {
        let mut input =
            json!({"scopeId": scopes[e.scope.as_str()], "kind": e.kind, "subject": e.subject, "content": e.content});
        if let Some(old) = &e.replaces {
            input["supersedes"] = json!(written_as[old].1);
        }
        let written = owner.gql(crate::op!("write_memory"), json!({"input": input})).await;
        let written = written.data("writeMemory");
        assert_eq!(written["conflict"], Value::Null, "{}", e.key);
        let ids = (
            written["entry"]["id"].as_str().unwrap().to_owned(),
            written["version"]["id"].as_str().unwrap().to_owned(),
        );
        if e.retracted {
            let retract = "mutation($e: ID!, $r: Int!) { retractMemory(entryId: $e, expectedRevision: $r) { id } }";
            let revision = written["entry"]["revision"].clone();
            owner.gql(retract, json!({"e": ids.0, "r": revision})).await.data("retractMemory");
        }
        written_as.insert(e.key.clone(), ids);
    }
    written_as
}

/// The corpus's scope names → ids: the organization, the workspace and project given, the task
/// given (where questions are asked), and another project in the workspace, whose entries the
/// task never reads.
pub async fn scopes(owner: &Client, workspace: &str, project: &str, task: &str) -> HashMap<&'static str, String> {
    let org = owner.gql(crate::op!("organization"), json!({})).await;
    let org = org.data("organization")["id"].as_str().unwrap().to_owned();
    let other = owner.gql(crate::op!("create_project"), json!({"workspaceId": workspace, "name": "Courier"})).await;
    let other = other.data("createProject")["id"].as_str().unwrap().to_owned();
    HashMap::from([
        ("organization", org),
        ("workspace", workspace.to_owned()),
        ("project", project.to_owned()),
        ("other_project", other),
        ("task", task.to_owned()),
    ])
}
