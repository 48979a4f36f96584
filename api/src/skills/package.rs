//! An Agent Skills package (agentskills.io): reading a `.zip` or `.tar.gz` upload safely, validating its
//! `SKILL.md` front matter, a digest of its files that survives repacking, and its minisign signature.

use std::collections::{BTreeMap, HashSet};
use std::io::{self, Cursor, Read};

use base64::Engine as _;
use sha2::{Digest as _, Sha256};

/// At most this many files in a package (directories are not counted).
pub const MAX_FILES: usize = 1_000;
/// At most this many bytes in one file, uncompressed.
pub const MAX_FILE_BYTES: u64 = 5 * 1024 * 1024;
/// At most this many bytes in all files together, uncompressed.
pub const MAX_TOTAL_BYTES: u64 = 20 * 1024 * 1024;
/// A tar stream holds headers and padding besides the files' bytes (about 1 KiB a file, more for long
/// names); past this much, decompressing stops whatever the entries are (a gzip bomb of headers, or of
/// data behind a directory entry that is skipped rather than read).
const MAX_TAR_STREAM_BYTES: u64 = MAX_TOTAL_BYTES + 4 * 1024 * 1024;

const MAX_NAME_CHARS: usize = 64;
const MAX_DESCRIPTION_CHARS: usize = 1024;
const MAX_COMPATIBILITY_CHARS: usize = 500;
const SKILL_MD: &str = "SKILL.md";
/// The front-matter fields the specification defines, in its order.
const FIELDS: [&str; 6] = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

/// What is wrong with an entry's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathProblem {
    Absolute,
    ParentDir,
    CurrentDir,
    Backslash,
    Nul,
    EmptyPart,
    /// A zip entry with a second, Unicode name besides its stored one: tools may disagree on which it is.
    Ambiguous,
}

impl std::fmt::Display for PathProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Absolute => "it is absolute",
            Self::ParentDir => "it contains `..`",
            Self::CurrentDir => "it contains `.`",
            Self::Backslash => "it contains a backslash",
            Self::Nul => "it contains a NUL byte",
            Self::EmptyPart => "it has an empty part",
            Self::Ambiguous => "it has a second, Unicode name that other tools may not read",
        })
    }
}

/// Why a package, its front matter or a public key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackageError {
    #[error("a skill package must be a .zip or a .tar.gz archive")]
    Format,
    #[error("the archive cannot be read: {0}")]
    Archive(String),
    #[error("the path {path:?} is refused: {problem}")]
    UnsafePath { path: String, problem: PathProblem },
    #[error("an entry's path is not UTF-8")]
    NonUtf8Path,
    #[error("{path:?} is a symbolic link; only files and directories are allowed")]
    Symlink { path: String },
    #[error("{path:?} is a hard link; only files and directories are allowed")]
    HardLink { path: String },
    #[error("{path:?} is a device file; only files and directories are allowed")]
    Device { path: String },
    #[error("{path:?} is a FIFO; only files and directories are allowed")]
    Fifo { path: String },
    #[error("{path:?} is a {kind}; only files and directories are allowed")]
    UnsupportedEntry { path: String, kind: String },
    #[error("{path:?} appears more than once")]
    DuplicatePath { path: String },
    #[error("{path:?} is a file, yet other files are under it")]
    PathConflict { path: String },
    #[error("more than {MAX_FILES} files")]
    TooManyFiles,
    #[error("{path:?} is larger than {MAX_FILE_BYTES} bytes")]
    FileTooLarge { path: String },
    #[error("the files add up to more than {MAX_TOTAL_BYTES} bytes")]
    TotalTooLarge,
    #[error("the archive unpacks to more than {MAX_TAR_STREAM_BYTES} bytes")]
    ArchiveTooLarge,
    #[error("there is no SKILL.md at the root of the package")]
    MissingSkillMd,
    #[error("SKILL.md is not UTF-8")]
    SkillMdNotUtf8,
    #[error("SKILL.md does not start with front matter between `---` lines")]
    NoFrontMatter,
    #[error("SKILL.md's front matter is not valid YAML: {0}")]
    FrontMatterYaml(String),
    #[error("SKILL.md's front matter has an unknown field {field:?}")]
    UnknownField { field: String },
    #[error("{field}: {message}")]
    Field { field: &'static str, message: String },
    #[error("the top-level directory {directory:?} is not named after the skill {name:?}")]
    DirectoryName { directory: String, name: String },
    #[error("not a minisign public key: {0}")]
    PublicKey(String),
}

/// A package's validated `SKILL.md` front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub name: String,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub allowed_tools: Vec<String>,
}

/// One file of a package, by its path inside the skill's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFile {
    pub path: String,
    pub size: u64,
    /// Lowercase hex.
    pub sha256: String,
}

/// A package that was read and validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillPackage {
    pub manifest: Manifest,
    /// SKILL.md after its closing `---` line, as written.
    pub instructions: String,
    /// Every file, sorted by path (byte order).
    pub files: Vec<PackageFile>,
    /// `sha256:` and the hex of the sha256 of, for each file in order, its path, a NUL, its sha256 hex and
    /// a newline: the same for the same files however they are packed.
    pub digest: String,
    /// Whether any file is under `scripts/`, i.e. the skill ships code an agent may run.
    pub has_scripts: bool,
}

/// Reads and validates a skill package: a zip or a gzip-compressed tar, told apart by their magic bytes.
pub fn read_package(bytes: &[u8]) -> Result<SkillPackage, PackageError> {
    unpack(bytes).map(|(package, _)| package)
}

/// [`read_package`], with each file's bytes, in the order of its `files`.
pub fn unpack(bytes: &[u8]) -> Result<(SkillPackage, Vec<Vec<u8>>), PackageError> {
    let raw = if bytes.starts_with(b"PK\x03\x04") {
        read_zip(bytes)?
    } else if bytes.starts_with(b"\x1f\x8b") {
        read_tar_gz(bytes)?
    } else {
        return Err(PackageError::Format);
    };
    assemble(raw)
}

/// A file as read from the archive, before the top-level directory is stripped.
struct RawFile {
    path: String,
    size: u64,
    sha256: String,
    /// At most the package's 20 MiB in all.
    contents: Vec<u8>,
}

/// What the archive readers share: the limits, counted as the files are decompressed, and the paths seen.
#[derive(Default)]
struct Collector {
    files: Vec<RawFile>,
    seen: HashSet<String>,
    total: u64,
}

impl Collector {
    fn add(&mut self, path: String, reader: &mut dyn Read) -> Result<(), PackageError> {
        if self.files.len() >= MAX_FILES {
            return Err(PackageError::TooManyFiles);
        }
        if !self.seen.insert(path.clone()) {
            return Err(PackageError::DuplicatePath { path });
        }
        let left = MAX_TOTAL_BYTES - self.total;
        // One byte past the limit is enough to know it is exceeded; declared sizes are never trusted.
        let mut bytes = Vec::new();
        reader
            .take(MAX_FILE_BYTES.min(left) + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| PackageError::Archive(format!("{path}: {e}")))?;
        let size = bytes.len() as u64;
        if size > MAX_FILE_BYTES {
            return Err(PackageError::FileTooLarge { path });
        }
        if size > left {
            return Err(PackageError::TotalTooLarge);
        }
        self.total += size;
        self.files.push(RawFile { sha256: hex::encode(Sha256::digest(&bytes)), size, contents: bytes, path });
        Ok(())
    }
}

/// Checks an entry's path and returns it without a leading `./` or a directory's trailing `/`; `None` for
/// the archive's root itself (`./`), which `tar -C skill .` writes.
fn check_path(raw: &[u8], is_dir: bool) -> Result<Option<String>, PackageError> {
    let path = std::str::from_utf8(raw).map_err(|_| PackageError::NonUtf8Path)?;
    let refuse = |problem| PackageError::UnsafePath { path: path.to_owned(), problem };
    if path.contains('\0') {
        return Err(refuse(PathProblem::Nul));
    }
    if path.contains('\\') {
        return Err(refuse(PathProblem::Backslash));
    }
    if path.starts_with('/') {
        return Err(refuse(PathProblem::Absolute));
    }
    let mut trimmed = path.strip_prefix("./").unwrap_or(path);
    if is_dir {
        trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
        if trimmed.is_empty() || trimmed == "." {
            return Ok(None);
        }
    }
    for part in trimmed.split('/') {
        match part {
            "" => return Err(refuse(PathProblem::EmptyPart)),
            ".." => return Err(refuse(PathProblem::ParentDir)),
            "." => return Err(refuse(PathProblem::CurrentDir)),
            _ => {}
        }
    }
    Ok(Some(trimmed.to_owned()))
}

fn archive_error(e: impl std::fmt::Display) -> PackageError {
    PackageError::Archive(e.to_string())
}

/// File-type bits of a Unix mode, as zip archivers store it in an entry's external attributes.
const S_IFMT: u32 = 0o170_000;

fn read_zip(bytes: &[u8]) -> Result<Vec<RawFile>, PackageError> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(archive_error)?;
    let mut collector = Collector::default();
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(archive_error)?;
        let raw = entry.name_raw().to_vec();
        let is_dir = entry.is_dir();
        let Some(path) = check_path(&raw, is_dir)? else { continue };
        // The zip crate takes a Unicode Path extra field's name over the stored one, and other tools may
        // not: refused, lest what was checked here is not what they unpack.
        if entry.extra_data_fields().any(|f| matches!(f, zip::extra_fields::ExtraField::UnicodePath(_))) {
            return Err(PackageError::UnsafePath { path, problem: PathProblem::Ambiguous });
        }
        match entry.unix_mode().map_or(0, |mode| mode & S_IFMT) {
            0o120_000 => return Err(PackageError::Symlink { path }),
            0o020_000 | 0o060_000 => return Err(PackageError::Device { path }),
            0o010_000 => return Err(PackageError::Fifo { path }),
            0o140_000 => return Err(PackageError::UnsupportedEntry { path, kind: "socket".into() }),
            0o040_000 => continue,
            _ if is_dir => continue,
            _ => collector.add(path, &mut entry)?,
        }
    }
    Ok(collector.files)
}

/// A reader that fails once more than `left` bytes have come through, and remembers that it did.
struct Capped<R> {
    inner: R,
    left: u64,
    exceeded: bool,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Asking for one byte more than is left tells a stream that ends exactly at the cap from one past it.
        let want = buf.len().min(usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            self.exceeded = true;
            return Err(io::Error::other("the archive is too large"));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

fn read_tar_gz(bytes: &[u8]) -> Result<Vec<RawFile>, PackageError> {
    let mut stream =
        Capped { inner: flate2::read::MultiGzDecoder::new(bytes), left: MAX_TAR_STREAM_BYTES, exceeded: false };
    let result = read_tar(&mut stream);
    // Whatever error the tar reader made of it, a stream cut at the cap was too large.
    if stream.exceeded {
        return Err(PackageError::ArchiveTooLarge);
    }
    result
}

fn read_tar(stream: &mut dyn Read) -> Result<Vec<RawFile>, PackageError> {
    let mut archive = tar::Archive::new(stream);
    let mut collector = Collector::default();
    for entry in archive.entries().map_err(archive_error)? {
        let mut entry = entry.map_err(archive_error)?;
        let kind = entry.header().entry_type();
        // `git archive` writes a pax global header (the commit id); it is no file.
        if kind == tar::EntryType::XGlobalHeader {
            continue;
        }
        let Some(path) = check_path(&entry.path_bytes(), kind == tar::EntryType::Directory)? else { continue };
        match kind {
            tar::EntryType::Regular => collector.add(path, &mut entry)?,
            tar::EntryType::Directory => {}
            tar::EntryType::Symlink => return Err(PackageError::Symlink { path }),
            tar::EntryType::Link => return Err(PackageError::HardLink { path }),
            tar::EntryType::Char | tar::EntryType::Block => return Err(PackageError::Device { path }),
            tar::EntryType::Fifo => return Err(PackageError::Fifo { path }),
            other => return Err(PackageError::UnsupportedEntry { path, kind: format!("{other:?} entry") }),
        }
    }
    Ok(collector.files)
}

/// Strips the top-level directory, if every file is under one, and validates SKILL.md.
fn assemble(mut raw: Vec<RawFile>) -> Result<(SkillPackage, Vec<Vec<u8>>), PackageError> {
    let top = common_top_directory(&raw);
    if let Some(top) = &top {
        for file in &mut raw {
            file.path.drain(..=top.len());
        }
    }
    raw.sort_by(|a, b| a.path.cmp(&b.path));
    let paths: HashSet<&str> = raw.iter().map(|f| f.path.as_str()).collect();
    for file in &raw {
        // A file `a` and a file `a/b` cannot both be unpacked.
        let mut ancestors = file.path.match_indices('/').map(|(i, _)| &file.path[..i]);
        if let Some(ancestor) = ancestors.find(|a| paths.contains(a)) {
            return Err(PackageError::PathConflict { path: ancestor.to_owned() });
        }
    }
    let skill_md = raw.iter().find(|f| f.path == SKILL_MD).ok_or(PackageError::MissingSkillMd)?;
    let skill_md = std::str::from_utf8(&skill_md.contents).map_err(|_| PackageError::SkillMdNotUtf8)?;
    let (front_matter, instructions) = split_front_matter(skill_md)?;
    let manifest = parse_manifest(front_matter)?;
    if let Some(directory) = top
        && directory != manifest.name
    {
        return Err(PackageError::DirectoryName { directory, name: manifest.name });
    }
    let instructions = instructions.to_owned();
    let (files, contents): (Vec<PackageFile>, Vec<Vec<u8>>) =
        raw.into_iter().map(|f| (PackageFile { path: f.path, size: f.size, sha256: f.sha256 }, f.contents)).unzip();
    let package = SkillPackage {
        manifest,
        instructions,
        digest: digest(&files),
        has_scripts: files.iter().any(|f| f.path.starts_with("scripts/")),
        files,
    };
    Ok((package, contents))
}

/// The directory every file is under, if there is one; files at the archive's root mean there is none.
fn common_top_directory(files: &[RawFile]) -> Option<String> {
    let mut top: Option<&str> = None;
    for file in files {
        let (first, _) = file.path.split_once('/')?;
        match top {
            None => top = Some(first),
            Some(seen) if seen != first => return None,
            Some(_) => {}
        }
    }
    top.map(str::to_owned)
}

/// The package digest over its files (the protocol's canonical file list).
fn digest(files: &[PackageFile]) -> String {
    let list = acc_protocol::skill_file_list(files.iter().map(|f| (f.path.as_str(), f.sha256.as_str())));
    format!("sha256:{}", hex::encode(Sha256::digest(list.as_bytes())))
}

/// Splits SKILL.md into its front matter (between the first two `---` lines) and the instructions after.
fn split_front_matter(text: &str) -> Result<(&str, &str), PackageError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().ok_or(PackageError::NoFrontMatter)?;
    if first.trim_end() != "---" {
        return Err(PackageError::NoFrontMatter);
    }
    let mut offset = first.len();
    for line in lines {
        if line.trim_end() == "---" {
            return Ok((&text[first.len()..offset], &text[offset + line.len()..]));
        }
        offset += line.len();
    }
    Err(PackageError::NoFrontMatter)
}

/// The front matter as written; unknown fields are refused so that a misspelt one is not silently lost.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawManifest {
    name: Option<String>,
    description: Option<String>,
    license: Option<String>,
    compatibility: Option<String>,
    metadata: Option<BTreeMap<String, String>>,
    allowed_tools: Option<String>,
}

fn field_error(field: &'static str, message: impl Into<String>) -> PackageError {
    PackageError::Field { field, message: message.into() }
}

/// Validates the front matter field by field.
fn parse_manifest(front_matter: &str) -> Result<Manifest, PackageError> {
    // First as any YAML, to tell invalid YAML, a document that is no mapping and unknown fields apart.
    let value: serde_norway::Value =
        serde_norway::from_str(front_matter).map_err(|e| PackageError::FrontMatterYaml(e.to_string()))?;
    match &value {
        serde_norway::Value::Null => {}
        serde_norway::Value::Mapping(mapping) => {
            for key in mapping.keys() {
                match key.as_str() {
                    Some(key) if FIELDS.contains(&key) => {}
                    Some(key) => return Err(PackageError::UnknownField { field: key.to_owned() }),
                    None => return Err(PackageError::UnknownField { field: format!("{key:?}") }),
                }
            }
        }
        _ => return Err(PackageError::FrontMatterYaml("it is not a mapping of fields".into())),
    }
    let raw: RawManifest = serde_norway::from_str::<Option<RawManifest>>(front_matter)
        .map_err(|e| {
            // serde_norway's message starts with the field's path (`metadata.version: invalid type…`).
            let message = e.to_string();
            let field = FIELDS
                .into_iter()
                .find(|f| message.strip_prefix(f).is_some_and(|rest| rest.starts_with([':', '.'])))
                .unwrap_or("front matter");
            field_error(field, message)
        })?
        .unwrap_or(RawManifest {
            name: None,
            description: None,
            license: None,
            compatibility: None,
            metadata: None,
            allowed_tools: None,
        });

    let name = raw.name.ok_or_else(|| field_error("name", "is required"))?;
    check_name(&name)?;
    let description = raw.description.ok_or_else(|| field_error("description", "is required"))?;
    if description.trim().is_empty() {
        return Err(field_error("description", "must not be empty"));
    }
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(field_error("description", format!("is longer than {MAX_DESCRIPTION_CHARS} characters")));
    }
    if let Some(compatibility) = &raw.compatibility {
        // The specification: "Must be 1-500 characters if provided".
        if compatibility.trim().is_empty() {
            return Err(field_error("compatibility", "must not be empty if given"));
        }
        if compatibility.chars().count() > MAX_COMPATIBILITY_CHARS {
            return Err(field_error("compatibility", format!("is longer than {MAX_COMPATIBILITY_CHARS} characters")));
        }
    }
    Ok(Manifest {
        name,
        description,
        license: raw.license,
        compatibility: raw.compatibility,
        metadata: raw.metadata.unwrap_or_default(),
        allowed_tools: raw.allowed_tools.map(|t| t.split_whitespace().map(str::to_owned).collect()).unwrap_or_default(),
    })
}

fn check_name(name: &str) -> Result<(), PackageError> {
    let refuse = |message: &str| Err(field_error("name", format!("{name:?} {message}")));
    if name.is_empty() {
        return refuse("is empty");
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return refuse(&format!("is longer than {MAX_NAME_CHARS} characters"));
    }
    if !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return refuse("may only have lowercase letters, digits and hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') {
        return refuse("must not start or end with a hyphen");
    }
    if name.contains("--") {
        return refuse("must not have two hyphens in a row");
    }
    Ok(())
}

/// A public key an administrator trusts to sign skill packages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedKey {
    /// The minisign key id: 16 uppercase hex characters, as `minisign` prints it.
    pub key_id: String,
    /// The minisign public key: its base64 line, or the whole two-line `.pub` file.
    pub public_key: String,
    pub revoked: bool,
}

/// What a package's signature says of who packed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureCheck {
    /// Signed by a trusted key that is not revoked, over exactly these bytes.
    Verified {
        key_id: String,
    },
    Unsigned,
    /// Signed by a key that is not trusted; unchecked, as there is no key to check it with.
    UnknownSigner {
        key_id: String,
    },
    /// A valid signature by a key that was trusted and has been revoked.
    RevokedKey {
        key_id: String,
    },
    /// Malformed, made over other bytes, or not made by the key it names.
    Invalid {
        reason: String,
    },
}

/// The key id as `minisign` prints it: the 8 bytes after the algorithm, read as a little-endian number.
fn key_id_hex(bytes: &[u8]) -> Option<String> {
    let id: [u8; 8] = bytes.get(2..10)?.try_into().ok()?;
    Some(format!("{:016X}", u64::from_le_bytes(id)))
}

/// A public key's base64 line and key id, from either its base64 line or its whole `.pub` file.
fn parse_public_key(text: &str) -> Result<(minisign_verify::PublicKey, String), PackageError> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let line = match lines.as_slice() {
        [line] => line,
        [comment, line] if comment.starts_with("untrusted comment:") => line,
        _ => return Err(PackageError::PublicKey("expected a base64 line, with its untrusted comment or not".into())),
    };
    let key = minisign_verify::PublicKey::from_base64(line).map_err(|e| PackageError::PublicKey(e.to_string()))?;
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(line).map_err(|e| PackageError::PublicKey(e.to_string()))?;
    let key_id = key_id_hex(&bytes).ok_or_else(|| PackageError::PublicKey("too short".into()))?;
    Ok((key, key_id))
}

/// The key id of a minisign public key (its base64 line, or its whole `.pub` file).
pub fn key_id_of(public_key: &str) -> Result<String, PackageError> {
    parse_public_key(public_key).map(|(_, key_id)| key_id)
}

/// Checks a minisign signature (the text of a `.minisig` file) over the archive's bytes as uploaded.
pub fn check_signature(archive: &[u8], signature: Option<&str>, trusted: &[TrustedKey]) -> SignatureCheck {
    let invalid = |reason: String| SignatureCheck::Invalid { reason };
    let Some(text) = signature.filter(|s| !s.trim().is_empty()) else {
        return SignatureCheck::Unsigned;
    };
    let signature = match minisign_verify::Signature::decode(text) {
        Ok(signature) => signature,
        Err(e) => return invalid(format!("not a minisign signature: {e}")),
    };
    // minisign_verify keeps the key id to itself; it is in the line it just decoded.
    let key_id = text
        .lines()
        .nth(1)
        .and_then(|line| base64::engine::general_purpose::STANDARD.decode(line.trim()).ok())
        .and_then(|bytes| key_id_hex(&bytes));
    let Some(key_id) = key_id else {
        return invalid("not a minisign signature: no key id".into());
    };
    let matching: Vec<&TrustedKey> = trusted.iter().filter(|k| k.key_id.eq_ignore_ascii_case(&key_id)).collect();
    if matching.is_empty() {
        return SignatureCheck::UnknownSigner { key_id };
    }
    // Checked even for a revoked key: anyone can write a key id into a signature, and only a valid one is
    // worth telling apart as made by a revoked key.
    for trusted_key in &matching {
        let public_key = match parse_public_key(&trusted_key.public_key) {
            Ok((public_key, _)) => public_key,
            Err(e) => return invalid(format!("the trusted key {key_id}: {e}")),
        };
        // Legacy (not prehashed) signatures come only from minisign versions before 0.9, hence refused.
        if let Err(e) = public_key.verify(archive, &signature, false) {
            return invalid(e.to_string());
        }
    }
    if matching.iter().any(|k| k.revoked) {
        SignatureCheck::RevokedKey { key_id }
    } else {
        SignatureCheck::Verified { key_id }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    const SKILL: &str = "---\nname: pdf-tools\ndescription: Fills PDF forms. Use when a PDF form is to be filled.\n---\n# PDF tools\n\nRun scripts/fill.py.\n";

    fn files() -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("SKILL.md", SKILL.as_bytes().to_vec()),
            ("scripts/fill.py", b"print('fill')\n".to_vec()),
            ("references/forms.md", b"# Forms\n".to_vec()),
        ]
    }

    fn zip_with(entries: &[(&str, Vec<u8>)], options: zip::write::SimpleFileOptions) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (path, bytes) in entries {
            writer.start_file(*path, options).expect("start file");
            writer.write_all(bytes).expect("write file");
        }
        writer.finish().expect("finish zip").into_inner()
    }

    fn zip_of(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
        zip_with(entries, zip::write::SimpleFileOptions::default())
    }

    /// A header whose name is written as given, past the tar crate's own path checks.
    fn raw_header(path: &[u8], kind: tar::EntryType, size: u64) -> tar::Header {
        let mut header = tar::Header::new_gnu();
        header.as_old_mut().name[..path.len()].copy_from_slice(path);
        header.set_entry_type(kind);
        header.set_size(size);
        header.set_mode(0o644);
        header.set_cksum();
        header
    }

    fn tar_gz_of_headers(entries: Vec<(tar::Header, Vec<u8>)>) -> Vec<u8> {
        let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut builder = tar::Builder::new(encoder);
        for (header, bytes) in entries {
            builder.append(&header, bytes.as_slice()).expect("append");
        }
        builder.into_inner().expect("finish tar").finish().expect("finish gzip")
    }

    fn tar_gz_of(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
        tar_gz_of_headers(
            entries
                .iter()
                .map(|(path, bytes)| {
                    (raw_header(path.as_bytes(), tar::EntryType::Regular, bytes.len() as u64), bytes.clone())
                })
                .collect(),
        )
    }

    fn under(dir: &str, entries: &[(&'static str, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
        entries.iter().map(|(p, b)| (format!("{dir}/{p}"), b.clone())).collect()
    }

    fn as_refs(entries: &[(String, Vec<u8>)]) -> Vec<(&str, Vec<u8>)> {
        entries.iter().map(|(p, b)| (p.as_str(), b.clone())).collect()
    }

    fn skill_md(front_matter: &str) -> Vec<u8> {
        format!("---\n{front_matter}---\nBody\n").into_bytes()
    }

    fn read_front_matter(front_matter: &str) -> Result<SkillPackage, PackageError> {
        read_package(&zip_of(&[("SKILL.md", skill_md(front_matter))]))
    }

    fn field_of(result: Result<SkillPackage, PackageError>) -> &'static str {
        match result {
            Err(PackageError::Field { field, .. }) => field,
            other => panic!("expected a field error, got {other:?}"),
        }
    }

    #[test]
    fn a_zip_and_a_tar_gz_of_the_same_files_read_the_same() {
        let zip = read_package(&zip_of(&files())).expect("zip");
        let tar_gz = read_package(&tar_gz_of(&files())).expect("tar.gz");
        assert_eq!(zip, tar_gz);
        assert_eq!(zip.manifest.name, "pdf-tools");
        assert_eq!(zip.instructions, "# PDF tools\n\nRun scripts/fill.py.\n");
        assert!(zip.has_scripts);
        let paths: Vec<&str> = zip.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["SKILL.md", "references/forms.md", "scripts/fill.py"]);
        assert_eq!(zip.files[2].size, 14);
        assert_eq!(zip.files[2].sha256, hex::encode(Sha256::digest(b"print('fill')\n")));
        assert!(zip.digest.starts_with("sha256:") && zip.digest.len() == 7 + 64);
    }

    #[test]
    fn the_digest_is_over_the_canonical_file_list() {
        let package = read_package(&zip_of(&files())).expect("package");
        let mut expected = String::new();
        for file in &package.files {
            expected.push_str(&format!("{}\0{}\n", file.path, file.sha256));
        }
        assert_eq!(package.digest, format!("sha256:{}", hex::encode(Sha256::digest(expected.as_bytes()))));
    }

    #[test]
    fn repacking_keeps_the_digest() {
        let digest = read_package(&zip_of(&files())).expect("zip").digest;
        let mut reversed = files();
        reversed.reverse();
        assert_eq!(read_package(&zip_of(&reversed)).expect("other order").digest, digest);
        assert_eq!(read_package(&tar_gz_of(&reversed)).expect("tar.gz, other order").digest, digest);
        // Another top-level directory (named after the skill, as it must be) and other timestamps.
        let nested = under("pdf-tools", &files());
        let dated = zip::write::SimpleFileOptions::default()
            .last_modified_time(zip::DateTime::from_date_and_time(2001, 2, 3, 4, 5, 6).expect("date"))
            .compression_method(zip::CompressionMethod::Stored);
        assert_eq!(read_package(&zip_with(&as_refs(&nested), dated)).expect("nested zip").digest, digest);
        assert_eq!(read_package(&tar_gz_of(&as_refs(&nested))).expect("nested tar.gz").digest, digest);
    }

    #[test]
    fn changing_a_byte_or_a_name_changes_the_digest() {
        let digest = read_package(&zip_of(&files())).expect("zip").digest;
        let mut changed = files();
        changed[2].1[0] ^= 1;
        assert_ne!(read_package(&zip_of(&changed)).expect("changed byte").digest, digest);
        let mut renamed = files();
        renamed[2].0 = "references/form.md";
        assert_ne!(read_package(&zip_of(&renamed)).expect("renamed").digest, digest);
    }

    #[test]
    fn the_top_level_directory_must_be_the_skills_name() {
        let nested = under("pdf-tool", &files());
        assert_eq!(
            read_package(&zip_of(&as_refs(&nested))),
            Err(PackageError::DirectoryName { directory: "pdf-tool".into(), name: "pdf-tools".into() })
        );
    }

    #[test]
    fn a_leading_dot_slash_and_directory_entries_are_fine() {
        let mut entries = vec![
            (raw_header(b"./", tar::EntryType::Directory, 0), Vec::new()),
            (raw_header(b"./scripts/", tar::EntryType::Directory, 0), Vec::new()),
            (raw_header(b"pax_global_header", tar::EntryType::XGlobalHeader, 0), Vec::new()),
        ];
        for (path, bytes) in files() {
            entries
                .push((raw_header(format!("./{path}").as_bytes(), tar::EntryType::Regular, bytes.len() as u64), bytes));
        }
        let package = read_package(&tar_gz_of_headers(entries)).expect("package");
        assert_eq!(package.digest, read_package(&zip_of(&files())).expect("zip").digest);
    }

    #[test]
    fn anything_but_zip_or_gzip_is_refused() {
        assert_eq!(read_package(b"---\nname: x\n---\n"), Err(PackageError::Format));
        assert_eq!(read_package(b""), Err(PackageError::Format));
        assert!(matches!(read_package(b"PK\x03\x04 not really"), Err(PackageError::Archive(_))));
        assert!(matches!(read_package(b"\x1f\x8b not really"), Err(PackageError::Archive(_))));
    }

    fn unsafe_path(path: &[u8]) -> PathProblem {
        let mut entries = vec![(raw_header(b"SKILL.md", tar::EntryType::Regular, SKILL.len() as u64), SKILL.into())];
        entries.push((raw_header(path, tar::EntryType::Regular, 1), b"x".to_vec()));
        match read_package(&tar_gz_of_headers(entries)) {
            Err(PackageError::UnsafePath { problem, .. }) => problem,
            other => panic!("{path:?}: expected an unsafe path, got {other:?}"),
        }
    }

    #[test]
    fn unsafe_paths_are_refused() {
        assert_eq!(unsafe_path(b"/etc/passwd"), PathProblem::Absolute);
        assert_eq!(unsafe_path(b"../escape"), PathProblem::ParentDir);
        assert_eq!(unsafe_path(b"scripts/../../escape"), PathProblem::ParentDir);
        assert_eq!(unsafe_path(b"scripts/./x"), PathProblem::CurrentDir);
        assert_eq!(unsafe_path(b"scripts\\x"), PathProblem::Backslash);
        assert_eq!(unsafe_path(b"scripts//x"), PathProblem::EmptyPart);
        assert_eq!(unsafe_path(b"scripts/x/"), PathProblem::EmptyPart);
        // A tar name ends at its first NUL, so a NUL is tested on the path check itself and through a zip.
        assert_eq!(
            check_path(b"a\0b", false),
            Err(PackageError::UnsafePath { path: "a\0b".into(), problem: PathProblem::Nul })
        );
        assert!(matches!(
            read_package(&zip_of(&[("SKILL.md", SKILL.into()), ("a\0b", b"x".to_vec())])),
            Err(PackageError::UnsafePath { problem: PathProblem::Nul, .. })
        ));
        assert!(matches!(
            read_package(&zip_of(&[("SKILL.md", SKILL.into()), ("../escape", b"x".to_vec())])),
            Err(PackageError::UnsafePath { problem: PathProblem::ParentDir, .. })
        ));
    }

    #[test]
    fn a_path_that_is_not_utf8_is_refused() {
        let entries = vec![
            (raw_header(b"SKILL.md", tar::EntryType::Regular, SKILL.len() as u64), SKILL.into()),
            (raw_header(b"caf\xe9.md", tar::EntryType::Regular, 1), b"x".to_vec()),
        ];
        assert_eq!(read_package(&tar_gz_of_headers(entries)), Err(PackageError::NonUtf8Path));
    }

    #[test]
    fn a_zip_entry_with_a_second_unicode_name_is_refused() {
        // Info-ZIP's Unicode path extra field: version 1, the CRC-32 of the stored name, the other name.
        let mut field = vec![1];
        field.extend_from_slice(&crc32(b"notes.md").to_le_bytes());
        field.extend_from_slice(b"notes-2.md");
        let mut options = zip::write::FullFileOptions::default();
        options.add_extra_field(0x7075, field.into_boxed_slice(), false).expect("extra field");
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        writer.start_file("SKILL.md", zip::write::SimpleFileOptions::default()).expect("start");
        writer.write_all(SKILL.as_bytes()).expect("write");
        writer.start_file("notes.md", options).expect("start");
        writer.write_all(b"x").expect("write");
        let bytes = writer.finish().expect("finish").into_inner();
        assert!(matches!(read_package(&bytes), Err(PackageError::UnsafePath { problem: PathProblem::Ambiguous, .. })));
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    fn with_special(kind: tar::EntryType) -> Result<SkillPackage, PackageError> {
        let mut link = raw_header(b"scripts/evil", kind, 0);
        link.set_link_name_literal(b"/etc/passwd").expect("link name");
        link.set_cksum();
        let entries = vec![
            (raw_header(b"SKILL.md", tar::EntryType::Regular, SKILL.len() as u64), SKILL.into()),
            (link, Vec::new()),
        ];
        read_package(&tar_gz_of_headers(entries))
    }

    #[test]
    fn links_devices_and_fifos_are_refused() {
        let path = || "scripts/evil".to_owned();
        assert_eq!(with_special(tar::EntryType::Symlink), Err(PackageError::Symlink { path: path() }));
        assert_eq!(with_special(tar::EntryType::Link), Err(PackageError::HardLink { path: path() }));
        assert_eq!(with_special(tar::EntryType::Char), Err(PackageError::Device { path: path() }));
        assert_eq!(with_special(tar::EntryType::Block), Err(PackageError::Device { path: path() }));
        assert_eq!(with_special(tar::EntryType::Fifo), Err(PackageError::Fifo { path: path() }));
        assert!(matches!(with_special(tar::EntryType::new(b'Z')), Err(PackageError::UnsupportedEntry { .. })));

        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        writer.start_file("SKILL.md", zip::write::SimpleFileOptions::default()).expect("start");
        writer.write_all(SKILL.as_bytes()).expect("write");
        writer.add_symlink("scripts/evil", "/etc/passwd", zip::write::SimpleFileOptions::default()).expect("symlink");
        let bytes = writer.finish().expect("finish").into_inner();
        assert_eq!(read_package(&bytes), Err(PackageError::Symlink { path: path() }));

        // Zip archivers keep a file's Unix mode, file type included, in the high half of its attributes.
        let zip_of_mode = |mode: u32| {
            let special = zip::write::SimpleFileOptions::default().external_attributes(mode << 16);
            let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
            writer.start_file("SKILL.md", zip::write::SimpleFileOptions::default()).expect("start");
            writer.write_all(SKILL.as_bytes()).expect("write");
            writer.start_file("scripts/evil", special).expect("start");
            read_package(&writer.finish().expect("finish").into_inner())
        };
        assert_eq!(zip_of_mode(0o020_644), Err(PackageError::Device { path: path() }));
        assert_eq!(zip_of_mode(0o060_644), Err(PackageError::Device { path: path() }));
        assert_eq!(zip_of_mode(0o010_644), Err(PackageError::Fifo { path: path() }));
        assert_eq!(zip_of_mode(0o120_777), Err(PackageError::Symlink { path: path() }));
        assert!(zip_of_mode(0o100_644).is_ok());
    }

    #[test]
    fn duplicate_and_conflicting_paths_are_refused() {
        let mut twice = files();
        twice.push(("scripts/fill.py", b"other".to_vec()));
        assert_eq!(
            read_package(&tar_gz_of(&twice)),
            Err(PackageError::DuplicatePath { path: "scripts/fill.py".into() })
        );
        // A leading `./` does not make it another path.
        let mut dotted = files();
        dotted.push(("./scripts/fill.py", b"other".to_vec()));
        assert_eq!(
            read_package(&tar_gz_of(&dotted)),
            Err(PackageError::DuplicatePath { path: "scripts/fill.py".into() })
        );
        let mut conflict = files();
        conflict.push(("scripts", b"a file".to_vec()));
        assert_eq!(read_package(&zip_of(&conflict)), Err(PackageError::PathConflict { path: "scripts".into() }));
    }

    #[test]
    fn more_than_a_thousand_files_are_refused() {
        let names: Vec<String> = (0..MAX_FILES).map(|i| format!("assets/{i}.txt")).collect();
        let mut entries: Vec<(&str, Vec<u8>)> = names.iter().map(|n| (n.as_str(), b"x".to_vec())).collect();
        entries.push(("SKILL.md", SKILL.into()));
        assert_eq!(read_package(&zip_of(&entries)), Err(PackageError::TooManyFiles));
        assert_eq!(read_package(&tar_gz_of(&entries)), Err(PackageError::TooManyFiles));
        entries.pop();
        entries.pop();
        entries.push(("SKILL.md", SKILL.into()));
        assert_eq!(read_package(&zip_of(&entries)).expect("exactly the limit").files.len(), MAX_FILES);
    }

    #[test]
    fn a_zip_bomb_and_a_gzip_bomb_stop_at_the_file_limit() {
        let zeros = vec![0u8; (MAX_FILE_BYTES + 1) as usize];
        let bomb = [("SKILL.md", SKILL.as_bytes().to_vec()), ("assets/zeros", zeros)];
        let too_large = Err(PackageError::FileTooLarge { path: "assets/zeros".into() });
        let zip = zip_with(&bomb, zip::write::SimpleFileOptions::default().compression_level(Some(1)));
        assert!(zip.len() < 64 * 1024, "the bomb is small packed ({} bytes)", zip.len());
        assert_eq!(read_package(&zip), too_large);
        assert_eq!(read_package(&tar_gz_of(&bomb)), too_large);
        let mut exact = bomb.clone();
        exact[1].1.pop();
        assert_eq!(read_package(&tar_gz_of(&exact)).expect("exactly the limit").files[1].size, MAX_FILE_BYTES);
    }

    #[test]
    fn files_adding_up_past_the_total_limit_are_refused() {
        let chunk = vec![7u8; (MAX_FILE_BYTES - 1024) as usize];
        let names: Vec<String> = (0..5).map(|i| format!("assets/{i}.bin")).collect();
        let mut entries: Vec<(&str, Vec<u8>)> = vec![("SKILL.md", SKILL.into())];
        entries.extend(names.iter().map(|n| (n.as_str(), chunk.clone())));
        assert_eq!(read_package(&zip_of(&entries)), Err(PackageError::TotalTooLarge));
        assert_eq!(read_package(&tar_gz_of(&entries)), Err(PackageError::TotalTooLarge));
        entries.pop();
        assert_eq!(read_package(&tar_gz_of(&entries)).expect("under the limit").files.len(), 5);
    }

    #[test]
    fn a_tar_stream_past_its_cap_is_refused_even_behind_skipped_entries() {
        // A directory entry with data behind it: the tar reader skips the data, still decompressing it.
        let size = MAX_TAR_STREAM_BYTES + 1;
        let entries = vec![
            (raw_header(b"SKILL.md", tar::EntryType::Regular, SKILL.len() as u64), SKILL.into()),
            (raw_header(b"assets/", tar::EntryType::Directory, size), vec![0u8; size as usize]),
        ];
        assert_eq!(read_package(&tar_gz_of_headers(entries)), Err(PackageError::ArchiveTooLarge));
    }

    #[test]
    fn skill_md_must_be_there_in_utf8_with_front_matter_in_yaml() {
        assert_eq!(read_package(&zip_of(&files()[1..])), Err(PackageError::MissingSkillMd));
        assert_eq!(
            read_package(&zip_of(&[("references/SKILL.md", SKILL.into()), ("other/x", b"x".to_vec())])),
            Err(PackageError::MissingSkillMd)
        );
        assert_eq!(
            read_package(&zip_of(&[("SKILL.md", b"---\xff\n---\n".to_vec())])),
            Err(PackageError::SkillMdNotUtf8)
        );
        assert_eq!(
            read_package(&zip_of(&[("SKILL.md", b"# No front matter\n".to_vec())])),
            Err(PackageError::NoFrontMatter)
        );
        assert_eq!(
            read_package(&zip_of(&[("SKILL.md", b"---\nname: x\ndescription: never closed\n".to_vec())])),
            Err(PackageError::NoFrontMatter)
        );
        assert!(matches!(read_front_matter("name: \"unclosed\n"), Err(PackageError::FrontMatterYaml(_))));
        assert!(matches!(read_front_matter("- a list\n"), Err(PackageError::FrontMatterYaml(_))));
    }

    #[test]
    fn front_matter_with_crlf_and_a_bom_reads() {
        let text = "\u{feff}---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\nBody\r\n";
        let package = read_package(&zip_of(&[("SKILL.md", text.into())])).expect("package");
        assert_eq!(package.manifest.name, "crlf");
        assert_eq!(package.instructions, "Body\r\n");
    }

    #[test]
    fn all_fields_are_read() {
        let package = read_front_matter(
            "name: a1-b2\ndescription: Does things.\nlicense: Apache-2.0\ncompatibility: Needs git\n\
             metadata:\n  author: someone\n  version: 1.0\nallowed-tools: Bash(git:*)  Read\n",
        )
        .expect("package");
        assert_eq!(
            package.manifest,
            Manifest {
                name: "a1-b2".into(),
                description: "Does things.".into(),
                license: Some("Apache-2.0".into()),
                compatibility: Some("Needs git".into()),
                metadata: [("author".to_owned(), "someone".to_owned()), ("version".to_owned(), "1.0".to_owned())]
                    .into_iter()
                    .collect(),
                allowed_tools: vec!["Bash(git:*)".into(), "Read".into()],
            }
        );
        assert!(!package.has_scripts);
    }

    #[test]
    fn the_name_follows_the_specification() {
        let with_name = |name: &str| read_front_matter(&format!("name: \"{name}\"\ndescription: d\n"));
        assert!(with_name("a").is_ok());
        assert!(with_name(&"a".repeat(64)).is_ok());
        for bad in ["", "PDF", "pdf_tools", "pdf tools", "-pdf", "pdf-", "pdf--tools", "pdé", &"a".repeat(65)] {
            assert_eq!(field_of(with_name(bad)), "name", "{bad:?}");
        }
        assert_eq!(field_of(read_front_matter("description: d\n")), "name");
    }

    #[test]
    fn the_description_follows_the_specification() {
        let with = |d: &str| read_front_matter(&format!("name: x\ndescription: \"{d}\"\n"));
        assert!(with(&"é".repeat(1024)).is_ok());
        assert_eq!(field_of(with(&"d".repeat(1025))), "description");
        assert_eq!(field_of(with("   ")), "description");
        assert_eq!(field_of(read_front_matter("name: x\n")), "description");
    }

    #[test]
    fn compatibility_is_1_to_500_characters() {
        let with = |c: &str| read_front_matter(&format!("name: x\ndescription: d\ncompatibility: \"{c}\"\n"));
        assert!(with(&"c".repeat(500)).is_ok());
        assert_eq!(field_of(with(&"c".repeat(501))), "compatibility");
        assert_eq!(field_of(with("")), "compatibility");
    }

    #[test]
    fn fields_of_the_wrong_type_are_named() {
        assert_eq!(field_of(read_front_matter("name: [a]\ndescription: d\n")), "name");
        assert_eq!(field_of(read_front_matter("name: x\ndescription: {a: b}\n")), "description");
        assert_eq!(field_of(read_front_matter("name: x\ndescription: d\nmetadata: [a]\n")), "metadata");
        assert_eq!(field_of(read_front_matter("name: x\ndescription: d\nmetadata:\n  a: [b]\n")), "metadata");
        assert_eq!(
            field_of(read_front_matter("name: x\ndescription: d\nallowed-tools: [Bash, Read]\n")),
            "allowed-tools"
        );
        assert_eq!(field_of(read_front_matter("name: x\ndescription: d\nlicense: {a: b}\n")), "license");
    }

    #[test]
    fn unknown_fields_are_refused() {
        assert_eq!(
            read_front_matter("name: x\ndescription: d\nlicence: MIT\n"),
            Err(PackageError::UnknownField { field: "licence".into() })
        );
        assert_eq!(
            read_front_matter("name: x\ndescription: d\nallowed_tools: Read\n"),
            Err(PackageError::UnknownField { field: "allowed_tools".into() })
        );
    }

    fn keypair() -> minisign::KeyPair {
        minisign::KeyPair::generate_unencrypted_keypair().expect("keypair")
    }

    fn sign(keypair: &minisign::KeyPair, bytes: &[u8]) -> String {
        minisign::sign(Some(&keypair.pk), &keypair.sk, Cursor::new(bytes), None, None).expect("sign").into_string()
    }

    fn id_of(keypair: &minisign::KeyPair) -> String {
        let keynum: [u8; 8] = keypair.pk.keynum().try_into().expect("8 bytes");
        format!("{:016X}", u64::from_le_bytes(keynum))
    }

    fn trusted(keypair: &minisign::KeyPair, revoked: bool) -> TrustedKey {
        TrustedKey { key_id: id_of(keypair), public_key: keypair.pk.to_base64(), revoked }
    }

    #[test]
    fn key_ids_are_read_from_either_form_of_public_key() {
        let keypair = keypair();
        let file = keypair.pk.to_box().expect("box").into_string();
        assert!(file.contains(&id_of(&keypair)), "minisign names the key id in the .pub file: {file}");
        assert_eq!(key_id_of(&file), Ok(id_of(&keypair)));
        assert_eq!(key_id_of(&keypair.pk.to_base64()), Ok(id_of(&keypair)));
        assert_eq!(key_id_of(&format!("  {}\n", keypair.pk.to_base64())), Ok(id_of(&keypair)));
        for garbage in ["", "not a key", "untrusted comment: x\nnot base64!", "RWQ=", "a\nb\nc"] {
            assert!(matches!(key_id_of(garbage), Err(PackageError::PublicKey(_))), "{garbage:?}");
        }
    }

    #[test]
    fn a_signature_by_a_trusted_key_is_verified() {
        let keypair = keypair();
        let archive = zip_of(&files());
        let signature = sign(&keypair, &archive);
        assert_eq!(
            check_signature(&archive, Some(&signature), &[trusted(&keypair, false)]),
            SignatureCheck::Verified { key_id: id_of(&keypair) }
        );
        // The whole .pub file does as well as its base64 line.
        let as_file =
            TrustedKey { public_key: keypair.pk.to_box().expect("box").into_string(), ..trusted(&keypair, false) };
        assert_eq!(
            check_signature(&archive, Some(&signature), &[trusted(&other_key(), false), as_file]),
            SignatureCheck::Verified { key_id: id_of(&keypair) }
        );
    }

    fn other_key() -> minisign::KeyPair {
        keypair()
    }

    #[test]
    fn no_signature_is_unsigned() {
        let archive = zip_of(&files());
        assert_eq!(check_signature(&archive, None, &[trusted(&keypair(), false)]), SignatureCheck::Unsigned);
        assert_eq!(check_signature(&archive, Some(" \n"), &[]), SignatureCheck::Unsigned);
    }

    #[test]
    fn a_signature_by_a_key_not_trusted_names_its_signer() {
        let signer = keypair();
        let archive = zip_of(&files());
        assert_eq!(
            check_signature(&archive, Some(&sign(&signer, &archive)), &[trusted(&other_key(), false)]),
            SignatureCheck::UnknownSigner { key_id: id_of(&signer) }
        );
    }

    #[test]
    fn a_valid_signature_by_a_revoked_key_is_revoked() {
        let keypair = keypair();
        let archive = zip_of(&files());
        assert_eq!(
            check_signature(&archive, Some(&sign(&keypair, &archive)), &[trusted(&keypair, true)]),
            SignatureCheck::RevokedKey { key_id: id_of(&keypair) }
        );
    }

    #[test]
    fn tampered_bytes_or_a_malformed_signature_are_invalid() {
        let keypair = keypair();
        let archive = zip_of(&files());
        let signature = sign(&keypair, &archive);
        let keys = [trusted(&keypair, false)];
        let mut tampered = archive.clone();
        let last = tampered.len() - 1;
        tampered[last] ^= 1;
        assert!(matches!(check_signature(&tampered, Some(&signature), &keys), SignatureCheck::Invalid { .. }));
        // A revoked key does not hide that the signature is not its.
        let revoked = [trusted(&keypair, true)];
        assert!(matches!(check_signature(&tampered, Some(&signature), &revoked), SignatureCheck::Invalid { .. }));
        for garbage in ["garbage", "untrusted comment: x\nAAAA\ntrusted comment: y\nAAAA\n"] {
            assert!(matches!(check_signature(&archive, Some(garbage), &keys), SignatureCheck::Invalid { .. }));
        }
        // The trusted comment is signed too.
        let edited = signature.replacen("trusted comment: timestamp:", "trusted comment: timestamp:1", 1);
        assert_ne!(edited, signature);
        assert!(matches!(check_signature(&archive, Some(&edited), &keys), SignatureCheck::Invalid { .. }));
        // A trusted key entry whose public key is another key's: the signature is not that key's.
        let mislabelled = [TrustedKey { public_key: other_key().pk.to_base64(), ..trusted(&keypair, false) }];
        assert!(matches!(check_signature(&archive, Some(&signature), &mislabelled), SignatureCheck::Invalid { .. }));
    }
}
