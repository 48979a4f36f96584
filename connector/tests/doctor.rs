//! `acc-connector doctor` against a configuration with a bit of everything wrong: the real binary,
//! real programs on disk, and a secret in an agent's environment that must never be printed.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use serde_json::Value;

const SECRET: &str = "sk-ant-api03-doctor-must-never-print-this";

fn fake_runtime(dir: &std::path::Path, name: &str, version: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn doctor_reports_every_agent_and_provider_without_printing_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let claude = fake_runtime(dir.path(), "claude", "2.1.999 (Claude Code)");
    let gemini = fake_runtime(dir.path(), "gemini", "0.99.0");
    let config = dir.path().join("connector.toml");
    std::fs::write(
        &config,
        format!(
            "credential = {credential:?}\n\
             [[model_providers]]\nname = \"openai\"\napi = \"openai\"\nupstream = \"https://api.openai.com\"\napi_key_env = \"ACC_DOCTOR_TEST_UNSET\"\n\
             [[agents]]\nname = \"shell\"\nadapter = \"command\"\ncommand = \"sh\"\nworkdir = {work:?}\n\
             [[agents]]\nname = \"ghost\"\nadapter = \"command\"\ncommand = \"/nonexistent/ghost\"\n\
             [[agents]]\nname = \"claude\"\nadapter = \"claude-code\"\ncommand = {claude:?}\nenv = {{ ANTHROPIC_API_KEY = {SECRET:?} }}\n\
             [[agents]]\nname = \"gemini\"\nadapter = \"gemini\"\ncommand = {gemini:?}\nworkdir = \"/nonexistent/work\"\n",
            credential = dir.path().join("credential.json"),
            work = dir.path(),
        ),
    )
    .unwrap();
    let doctor = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_acc-connector"))
            .args(["doctor", "--config"])
            .arg(&config)
            .args(extra)
            .env_remove("GEMINI_API_KEY")
            .env_remove("GOOGLE_API_KEY")
            .output()
            .unwrap()
    };

    let text = doctor(&[]);
    assert!(!text.status.success(), "failed checks make it exit non-zero");
    let stdout = String::from_utf8(text.stdout).unwrap();
    let stderr = String::from_utf8(text.stderr).unwrap();
    assert!(stderr.contains("check(s) failed"), "{stderr}");
    assert!(!stdout.contains(SECRET) && !stderr.contains(SECRET), "a secret value was printed:\n{stdout}");

    let output = doctor(&["--json"]);
    let checks: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    let verdict = |subject: &str, check: &str| {
        let found = checks
            .iter()
            .find(|c| c["subject"] == subject && c["check"] == check)
            .unwrap_or_else(|| panic!("no {check} check of {subject}: {checks:#?}"));
        (found["verdict"].as_str().unwrap().to_owned(), found["detail"].as_str().unwrap().to_owned())
    };
    assert_eq!(verdict("credential", "enrolled").0, "fail");
    assert_eq!(verdict("provider openai", "key"), ("fail".into(), "ACC_DOCTOR_TEST_UNSET is not set".into()));
    assert_eq!(verdict("agent shell", "program").0, "ok");
    assert_eq!(verdict("agent shell", "workdir").0, "ok");
    assert_eq!(verdict("agent ghost", "program"), ("fail".into(), "`/nonexistent/ghost` not found".into()));
    assert!(!checks.iter().any(|c| c["subject"] == "agent ghost" && c["check"] == "version"), "nothing more to check");
    assert_eq!(verdict("agent claude", "version"), ("ok".into(), "claude-code 2.1.999".into()));
    assert_eq!(verdict("agent claude", "model access").0, "ok");
    assert!(verdict("agent claude", "model access").1.starts_with("ANTHROPIC_API_KEY is set"));
    let (gemini_version, detail) = verdict("agent gemini", "version");
    assert_eq!(gemini_version, "warn", "an untested version is reported: {detail}");
    assert!(detail.contains("0.99.0") && detail.contains("0.61"), "{detail}");
    assert_eq!(verdict("agent gemini", "workdir").0, "fail");
    assert_eq!(verdict("agent gemini", "model access").0, "warn");
}
