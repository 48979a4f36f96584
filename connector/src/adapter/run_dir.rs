//! A run's own scratch directory, for adapters whose runtime needs files of its own for one run
//! (Hermes's configuration overlay, JiuwenSwarm's data directory, Claude Code's run tools and
//! skills): private to the connector's user, and removed with everything in it when the run is over.

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use super::{AdapterError, RunSpec};

#[derive(Debug)]
pub struct RunDir(PathBuf);

impl RunDir {
    /// `acc-RUNTIME-ATTEMPT` in the temporary directory, readable by the connector's user only.
    pub fn create(runtime: &str, spec: &RunSpec) -> Result<Self, AdapterError> {
        Self::create_in(&std::env::temp_dir(), runtime, spec)
    }

    /// `acc-RUNTIME-ATTEMPT` in `parent` (made if missing), for a runtime that must not find its
    /// files under the temporary directory.
    pub fn create_in(parent: &Path, runtime: &str, spec: &RunSpec) -> Result<Self, AdapterError> {
        let path = parent.join(format!("acc-{runtime}-{}", spec.attempt_id));
        let made = std::fs::DirBuilder::new()
            .mode(0o700)
            .recursive(true)
            .create(parent)
            .and_then(|()| std::fs::DirBuilder::new().mode(0o700).create(&path));
        made.map_err(|e| AdapterError::Start(format!("{}: {e}", path.display())))?;
        Ok(Self(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `contents` to `name` inside the directory (its parent directories too); returns its path.
    pub fn write(&self, name: &str, contents: &str) -> Result<PathBuf, AdapterError> {
        let file = self.0.join(name);
        let write = || -> std::io::Result<()> {
            if let Some(parent) = file.parent() {
                std::fs::DirBuilder::new().recursive(true).mode(0o700).create(parent)?;
            }
            std::fs::write(&file, contents)
        };
        write().map_err(|e| AdapterError::Start(format!("{}: {e}", file.display())))?;
        Ok(file)
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
