//! SPEC §1 holds on the real workspace, and the checks reject examples that break it.

use std::path::PathBuf;
use std::process::Command;

use acc_tests::architecture::{crate_edge_violations, source_violations, undocumented_modules, workspace_sources};
use serde_json::json;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

#[test]
fn workspace_follows_the_dependency_rules() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(metadata["packages"].as_array().unwrap().len() >= 5);
    assert_eq!(crate_edge_violations(&metadata), Vec::<String>::new());
}

#[test]
fn sources_follow_the_layering_rules_and_document_every_module() {
    let files = workspace_sources(&root());
    assert!(files.iter().any(|(p, _)| p.ends_with("api/src/projects/mod.rs")), "walked the sources");
    assert_eq!(source_violations(&files), Vec::<String>::new());
    assert_eq!(undocumented_modules(&files), Vec::<String>::new());
}

fn package(name: &str, deps: &[(&str, &str)]) -> serde_json::Value {
    json!({
        "name": name,
        "dependencies": deps.iter().map(|(d, kind)| json!({"name": d, "kind": if kind.is_empty() { serde_json::Value::Null } else { json!(kind) }})).collect::<Vec<_>>()
    })
}

#[test]
fn crate_edge_check_rejects_violations_and_accepts_the_rules() {
    let good = json!({"packages": [
        package("acc-protocol", &[("serde", "")]),
        package("acc-entity", &[("sea-orm", "")]),
        package("acc-api", &[("acc-entity", ""), ("acc-protocol", ""), ("axum", "")]),
        package("acc-tests", &[("acc-api", "")]),
    ]});
    assert!(crate_edge_violations(&good).is_empty());

    let bad = json!({"packages": [
        package("acc-protocol", &[("acc-entity", ""), ("tokio", "")]),
        package("acc-entity", &[("sea-orm", ""), ("async-graphql", "")]),
        package("acc-api", &[("acc-entity", "")]),
        package("acc-connector", &[("acc-api", "")]),
        package("acc-migration", &[("acc-entity", "")]),
    ]});
    let violations = crate_edge_violations(&bad);
    for expected in [
        "acc-protocol must not depend on acc-entity",
        "acc-protocol may depend only on",
        "acc-entity may depend only on",
        "acc-connector must not depend on acc-api",
        "acc-migration must not depend on acc-entity",
    ] {
        assert!(violations.iter().any(|v| v.contains(expected)), "missing `{expected}` in {violations:?}");
    }
    // A dev-dependency edge is not a layering edge.
    let dev = json!({"packages": [package("acc-entity", &[("sea-orm", ""), ("tokio", "dev")])]});
    assert!(crate_edge_violations(&dev).is_empty());
}

#[test]
fn source_check_rejects_frameworks_in_domain_services() {
    let files = vec![
        (PathBuf::from("api/src/projects/mod.rs"), "//! x\nuse async_graphql::Object;\n".to_owned()),
        (PathBuf::from("api/src/runs/orchestrator.rs"), "//! x\nuse axum::Router;\n".to_owned()),
        (PathBuf::from("api/src/projects/graphql.rs"), "//! x\nuse async_graphql::Object;\n".to_owned()),
        (PathBuf::from("api/src/http/mod.rs"), "//! x\nuse axum::Router;\n".to_owned()),
        (PathBuf::from("protocol/src/lib.rs"), "//! x\nuse std::fs::File;\n".to_owned()),
        (
            PathBuf::from("api/src/settings/mod.rs"),
            "//! x\n// async_graphql is mentioned only in a comment\n".to_owned(),
        ),
    ];
    let violations = source_violations(&files);
    assert_eq!(violations.len(), 3, "{violations:?}");
    assert!(violations[0].contains("projects/mod.rs") && violations[0].contains("async_graphql"));
    assert!(violations[1].contains("runs/orchestrator.rs") && violations[1].contains("axum"));
    assert!(violations[2].contains("protocol"));
}

#[test]
fn module_doc_check_rejects_a_module_without_its_line() {
    let files = vec![
        (PathBuf::from("a.rs"), "//! What a is for.\nfn a() {}\n".to_owned()),
        (PathBuf::from("b.rs"), "use std::fmt;\n".to_owned()),
    ];
    assert_eq!(undocumented_modules(&files), vec!["b.rs does not start with a //! line".to_owned()]);
}
