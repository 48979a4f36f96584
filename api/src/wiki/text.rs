//! What the wiki reads in its text: page paths, normalized one way for pages and links alike, and
//! the `[[links]]` of a page's Markdown.

use crate::error::CommonError;

/// The longest path, the most parts in one, and the longest part.
const MAX_PATH_BYTES: usize = 200;
const MAX_PATH_PARTS: usize = 8;
const MAX_PART_CHARS: usize = 64;
/// The most distinct links a page's revision keeps for backlinks.
pub const MAX_LINKS: usize = 500;

/// A page path as the wiki keeps it: parts between single slashes, lowercase, spaces and
/// underscores as hyphens, each part letters, digits, `-` and `.` (not `.` or `..` alone). So
/// `Guides/Deploy Checklist` and `guides/deploy_checklist` are one page, and `[[Deploy Checklist]]`
/// names it from the same folder's root.
pub fn normalized_path(raw: &str) -> Result<String, CommonError> {
    let invalid = |why: &str| CommonError::Validation {
        message: format!("a wiki page's path {why}"),
        details: serde_json::json!({ "argument": "path" }),
    };
    let mut path = String::with_capacity(raw.len());
    let parts: Vec<&str> = raw.trim().split('/').collect();
    if parts.len() > MAX_PATH_PARTS {
        return Err(invalid("has at most 8 parts"));
    }
    for (i, part) in parts.iter().enumerate() {
        let mut normal = String::with_capacity(part.len());
        for c in part.trim().chars().flat_map(char::to_lowercase) {
            let c = if c == ' ' || c == '_' { '-' } else { c };
            if !(c.is_alphanumeric() || c == '-' || c == '.') {
                return Err(invalid("has only letters, digits, spaces, `-`, `_` and `.` between its slashes"));
            }
            // Runs of separators are one hyphen.
            if !(c == '-' && normal.ends_with('-')) {
                normal.push(c);
            }
        }
        match normal.as_str() {
            "" => return Err(invalid("has no empty part (no leading, trailing or double slash)")),
            "." | ".." => return Err(invalid("has no `.` or `..` part")),
            n if n.chars().count() > MAX_PART_CHARS => return Err(invalid("has parts of at most 64 characters")),
            _ => {}
        }
        if i > 0 {
            path.push('/');
        }
        path.push_str(&normal);
    }
    if path.len() > MAX_PATH_BYTES {
        return Err(invalid("is at most 200 bytes"));
    }
    Ok(path)
}

/// The distinct pages a Markdown source links to with `[[path]]`, `[[path|label]]` or
/// `[[path#section]]`, normalized, in order of first appearance; at most [`MAX_LINKS`]. Links inside
/// fenced code blocks and inline code are text, not links, and a target that is no valid path
/// links nowhere.
pub fn links(source: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut fence: Option<&str> = None;
    for line in source.lines() {
        let trimmed = line.trim_start();
        if let Some(marker) = fence {
            if trimmed.starts_with(marker) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            continue;
        }
        for target in line_links(line) {
            if found.len() == MAX_LINKS {
                return found;
            }
            if let Ok(path) = normalized_path(target)
                && !found.contains(&path)
            {
                found.push(path);
            }
        }
    }
    found
}

/// The raw targets of the `[[…]]` on one line, outside inline code.
fn line_links(line: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = line;
    loop {
        let (code, link) = (rest.find('`'), rest.find("[["));
        match (code, link) {
            // Inline code first: skip to its end (an unclosed one runs to the end of the line).
            (Some(c), l) if l.is_none_or(|l| c < l) => {
                let ticks = rest[c..].bytes().take_while(|&b| b == b'`').count();
                let after = &rest[c + ticks..];
                match after.find(&rest[c..c + ticks]) {
                    Some(end) => rest = &after[end + ticks..],
                    None => return targets,
                }
            }
            (_, Some(l)) => {
                let after = &rest[l + 2..];
                let Some(end) = after.find("]]") else { return targets };
                let inner = &after[..end];
                // An unclosed `[[` before another: the scan goes on from just after it.
                if inner.contains("[[") {
                    rest = after;
                    continue;
                }
                let target = inner.split(['|', '#']).next().unwrap_or_default();
                if !target.trim().is_empty() {
                    targets.push(target);
                }
                rest = &after[end + 2..];
            }
            _ => return targets,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalized_one_way() {
        assert_eq!(normalized_path("Guides/Deploy Checklist").unwrap(), "guides/deploy-checklist");
        assert_eq!(normalized_path(" guides / deploy__checklist ").unwrap(), "guides/deploy-checklist");
        assert_eq!(normalized_path("Été/Ünïcode v1.2").unwrap(), "été/ünïcode-v1.2");
        for bad in ["", "/a", "a/", "a//b", "../etc", "a/./b", "a\\b", "a<script>", "a\0b", "a?b", "a/b/c/d/e/f/g/h/i"]
        {
            assert!(normalized_path(bad).is_err(), "{bad:?}");
        }
        assert!(normalized_path(&"x".repeat(65)).is_err());
        assert!(normalized_path(&vec!["x".repeat(60); 4].join("/")).is_err(), "over 200 bytes");
    }

    #[test]
    fn links_are_found_outside_code() {
        let source = "See [[Deploy Checklist]] and [[guides/Rollback|how to roll back]].\n\
                      Twice: [[deploy-checklist#steps]]. Not `[[in code]]`, nor [[ ]], nor [[a<b]].\n\
                      ```\n[[fenced]]\n```\n\
                      Unclosed [[ link and ``code with ` tick [[hidden]]`` then [[After Code]]";
        assert_eq!(links(source), ["deploy-checklist", "guides/rollback", "after-code"]);
    }

    #[test]
    fn a_page_keeps_at_most_max_links() {
        let source: String = (0..MAX_LINKS + 20).map(|i| format!("[[page {i}]] ")).collect();
        assert_eq!(links(&source).len(), MAX_LINKS);
    }
}
