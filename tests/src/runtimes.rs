//! The real agent runtimes the tests run, pinned in the repository and installed from their
//! registries into a cache outside the clone (`ACC_RUNTIMES_DIR`, default `~/.cache/acc-runtimes`)
//! the first time a test needs them, and again when the pins change: the npm ones
//! (`runtimes/npm/package-lock.json`) with `npm ci` into `npm/`, the Python ones
//! (`runtimes/pip*/requirements.txt`, with hashes) with pip into a virtual environment in
//! `pip*/`, one per requirements file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

fn repo_pins(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("runtimes").join(kind)
}

fn cache_dir(kind: &str) -> PathBuf {
    let root = match std::env::var_os("ACC_RUNTIMES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/acc-runtimes"),
    };
    root.join(kind)
}

/// Installs `kind`'s pinned runtimes into its cache by `steps` (run there, after the pinned
/// `files` are copied in; the first of them is the lock) unless the cache already holds exactly
/// these pins and `installed` exists.
fn install(kind: &str, files: &[&str], installed: &str, steps: &[&[&str]]) -> PathBuf {
    let cache = cache_dir(kind);
    std::fs::create_dir_all(&cache).unwrap();
    // One installer at a time across test processes.
    let lock = std::fs::File::create(cache.join(".install.lock")).unwrap();
    lock.lock().unwrap();
    let pins = std::fs::read(repo_pins(kind).join(files[0])).unwrap();
    let current = std::fs::read(cache.join(files[0])).ok();
    if current.as_deref() == Some(pins.as_slice()) && cache.join(installed).exists() {
        return cache;
    }
    for file in files {
        std::fs::copy(repo_pins(kind).join(file), cache.join(file)).unwrap();
    }
    for step in steps {
        let output = Command::new(step[0]).args(&step[1..]).current_dir(&cache).output();
        let failure = match output {
            Ok(output) if output.status.success() => continue,
            Ok(output) => String::from_utf8_lossy(&output.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        // A failed install must not look current next time.
        let _ = std::fs::remove_file(cache.join(files[0]));
        panic!("`{}` in {} failed: {failure}", step.join(" "), cache.display());
    }
    cache
}

/// The path of a pinned npm runtime's executable (`claude`, `codex`, `gemini`, `openclaw`, and
/// `node`, the pinned Node.js 24 OpenClaw needs), installing first if needed.
pub fn npm_bin(name: &str) -> PathBuf {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    let cache = INSTALLED.get_or_init(|| {
        // The install scripts run after every package is in place (`npm rebuild`), when the
        // pinned `node` is linked in `node_modules/.bin`, which npm puts first on their PATH:
        // OpenClaw's refuse to run under the system's older Node.js.
        let scripts: &[&str] = &["npm", "rebuild", "--loglevel=error"];
        install("npm", &["package-lock.json", "package.json"], "node_modules", &[NPM_CI, scripts])
    });
    let bin = cache.join("node_modules").join(".bin").join(name);
    assert!(bin.exists(), "{} is not installed in {}", name, cache.display());
    bin
}

/// `npm ci` of a pinned set, its install scripts left for later.
const NPM_CI: &[&str] = &["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];

/// The directory holding a pinned set of npm packages (`runtimes/KIND/package-lock.json`) in its
/// `node_modules`, installing first if needed: for scripts that import them (run from there).
pub fn npm_packages(kind: &str) -> PathBuf {
    static INSTALLED: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut installed = INSTALLED.lock().unwrap();
    let dir = installed
        .entry(kind.to_owned())
        .or_insert_with(|| install(kind, &["package-lock.json", "package.json"], "node_modules", &[NPM_CI]));
    dir.clone()
}

/// The path of a pinned Python runtime's executable, installing first if needed: `set` names
/// the pins (`runtimes/SET/requirements.txt`: `pip` for Hermes, `pip-jiuwen` for JiuwenSwarm,
/// which keeps its large dependency tree to itself) and its cache; `name` the executable
/// (`hermes`, `jiuwenswarm`). A fresh virtual environment (`python3 -m venv`), then
/// `pip install --require-hashes --no-deps` (the file pins every package, so pip has nothing to
/// resolve: resolving, pip 23 refused a pinned package that another asks for with other extras,
/// `google-auth[pyopenssl]`), then `pip check` that nothing any of them needs is missing.
pub fn pip_bin(set: &str, name: &str) -> PathBuf {
    static INSTALLED: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut installed = INSTALLED.lock().unwrap();
    let cache = installed.entry(set.to_owned()).or_insert_with(|| {
        let venv: &[&str] = &["python3", "-m", "venv", "--clear", "venv"];
        let pip: &[&str] = &[
            "venv/bin/pip",
            "install",
            "--quiet",
            "--no-input",
            "--require-hashes",
            "--no-deps",
            "-r",
            "requirements.txt",
        ];
        let check: &[&str] = &["venv/bin/pip", "check"];
        install(set, &["requirements.txt"], "venv/bin", &[venv, pip, check])
    });
    let bin = cache.join("venv").join("bin").join(name);
    assert!(bin.exists(), "{} is not installed in {}", name, cache.display());
    bin
}
