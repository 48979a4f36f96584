//! The real agent runtimes the tests run, pinned in `runtimes/npm/package-lock.json` and installed
//! from the npm registry with `npm ci` into a cache outside the clone (`ACC_RUNTIMES_DIR`, default
//! `~/.cache/acc-runtimes/npm`) the first time a test needs them, and again when the pins change.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn repo_pins() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("runtimes").join("npm")
}

fn cache_dir() -> PathBuf {
    match std::env::var_os("ACC_RUNTIMES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/acc-runtimes/npm"),
    }
}

/// Installs the pinned runtimes unless the cache already holds exactly these pins.
fn install(cache: &Path) {
    std::fs::create_dir_all(cache).unwrap();
    // One installer at a time across test processes.
    let lock = std::fs::File::create(cache.join(".install.lock")).unwrap();
    lock.lock().unwrap();
    let pins = std::fs::read(repo_pins().join("package-lock.json")).unwrap();
    let installed = std::fs::read(cache.join("package-lock.json")).ok();
    if installed.as_deref() == Some(pins.as_slice()) && cache.join("node_modules").is_dir() {
        return;
    }
    for file in ["package.json", "package-lock.json"] {
        std::fs::copy(repo_pins().join(file), cache.join(file)).unwrap();
    }
    let output = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(cache)
        .output()
        .expect("npm is installed");
    if !output.status.success() {
        // A failed install must not look current next time.
        let _ = std::fs::remove_file(cache.join("package-lock.json"));
        panic!("npm ci in {} failed: {}", cache.display(), String::from_utf8_lossy(&output.stderr));
    }
}

/// The path of a pinned runtime's executable (`claude`, `codex`, `gemini`), installing first if needed.
pub fn npm_bin(name: &str) -> PathBuf {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    let cache = INSTALLED.get_or_init(|| {
        let cache = cache_dir();
        install(&cache);
        cache
    });
    let bin = cache.join("node_modules").join(".bin").join(name);
    assert!(bin.exists(), "{} is not installed in {}", name, cache.display());
    bin
}
