//! The dependency rules of SPEC §1, as checks over `cargo metadata` and the sources, so a
//! test can run them on the real workspace and on examples that must be rejected.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Workspace crates each crate may depend on (normal and build dependencies).
const ALLOWED_WORKSPACE_EDGES: &[(&str, &[&str])] = &[
    ("acc-protocol", &[]),
    ("acc-entity", &[]),
    ("acc-migration", &[]),
    ("acc-api", &["acc-entity", "acc-migration", "acc-protocol"]),
    ("acc-connector", &["acc-protocol"]),
    ("acc-tests", &["acc-api", "acc-connector", "acc-entity", "acc-migration", "acc-protocol"]),
];

/// Crates whose whole dependency list is fixed: data-only crates stay data-only.
const ONLY_DEPENDENCIES: &[(&str, &[&str])] = &[
    ("acc-entity", &["sea-orm"]),
    ("acc-migration", &["sea-orm-migration"]),
    ("acc-protocol", &["serde", "serde_json", "thiserror", "uuid", "chrono"]),
];

/// Domain modules of `api`: their service code never touches the GraphQL or HTTP frameworks.
pub const DOMAINS: &[&str] = &[
    "identity",
    "projects",
    "settings",
    "runs",
    "gateway",
    "context",
    "memory",
    "skills",
    "wiki",
    "usage",
    "audit",
    "notifications",
    "artifacts",
];

/// Violations of the crate-edge rules in `cargo metadata --no-deps` output.
pub fn crate_edge_violations(metadata: &Value) -> Vec<String> {
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let workspace: Vec<String> = packages.iter().filter_map(|p| p["name"].as_str().map(str::to_owned)).collect();
    let mut violations = Vec::new();
    for package in &packages {
        let name = package["name"].as_str().unwrap_or_default();
        let deps: Vec<&str> = package["dependencies"]
            .as_array()
            .map(|d| {
                d.iter()
                    .filter(|dep| dep["kind"].as_str() != Some("dev"))
                    .filter_map(|dep| dep["name"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        let allowed = ALLOWED_WORKSPACE_EDGES.iter().find(|(n, _)| *n == name).map(|(_, a)| *a);
        for dep in deps.iter().filter(|d| workspace.iter().any(|w| w == *d)) {
            match allowed {
                Some(allowed) if allowed.contains(dep) => {}
                Some(_) => violations.push(format!("{name} must not depend on {dep}")),
                None => violations.push(format!("{name} is not a known crate of SPEC §1 (depends on {dep})")),
            }
        }
        if let Some((_, only)) = ONLY_DEPENDENCIES.iter().find(|(n, _)| *n == name) {
            for dep in deps.iter().filter(|d| !only.contains(d)) {
                violations.push(format!("{name} may depend only on {only:?}, not {dep}"));
            }
        }
    }
    violations
}

/// Violations in source files: a domain service file importing `async_graphql` or `axum`
/// (only a domain's `graphql.rs` may), and I/O in the protocol crate.
pub fn source_violations(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut violations = Vec::new();
    for (path, text) in files {
        let p = path.to_string_lossy().replace('\\', "/");
        let in_domain = DOMAINS.iter().any(|d| p.contains(&format!("api/src/{d}/")));
        let is_graphql = p.ends_with("/graphql.rs") || p.contains("/graphql/");
        if in_domain && !is_graphql {
            for framework in ["async_graphql", "axum"] {
                if text.lines().any(|l| !l.trim_start().starts_with("//") && l.contains(framework)) {
                    violations.push(format!("{p}: a domain service must not use {framework}"));
                }
            }
        }
        if p.contains("protocol/src/") {
            for io in ["std::fs", "std::net", "tokio", "std::process"] {
                if text.contains(io) {
                    violations.push(format!("{p}: the protocol crate does no I/O ({io})"));
                }
            }
        }
    }
    violations
}

/// Files whose first line is not a `//!` comment saying what the module is for.
pub fn undocumented_modules(files: &[(PathBuf, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(_, text)| !text.trim_start().starts_with("//!"))
        .map(|(path, _)| format!("{} does not start with a //! line", path.display()))
        .collect()
}

/// Every `.rs` file of the workspace crates, with its text.
pub fn workspace_sources(root: &Path) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if name != "target" && name != "node_modules" && !name.to_string_lossy().starts_with('.') {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                out.push((path, text));
            }
        }
    }
    let mut files = Vec::new();
    for krate in ["entity", "migration", "protocol", "api", "connector", "tests"] {
        walk(&root.join(krate), &mut files);
    }
    files
}
