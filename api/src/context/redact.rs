//! What never reaches an agent's context: secrets by their shape. Each match becomes
//! `[redacted: <what>]`, and the broker records how many it removed per item.

use std::sync::LazyLock;

use regex::Regex;

/// The shapes of secrets, most specific first.
static PATTERNS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    [
        ("private key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"),
        ("AWS access key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
        ("GitLab token", r"\bglpat-[A-Za-z0-9_-]{20,}\b"),
        ("Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
        ("API key", r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b"),
        ("Agent Control Center secret", r"\bacc_[a-z]+_[A-Za-z0-9_-]{16,}\b"),
        ("JSON web token", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b"),
        ("bearer token", r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*"),
        ("password", r#"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|token)\b\s*[:=]\s*["']?[^\s"',;]{4,}"#),
        ("connection string credentials", r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@"),
    ]
    .into_iter()
    .map(|(what, pattern)| (what, Regex::new(pattern).expect("the redaction patterns compile")))
    .collect()
});

/// `text` with every secret-shaped part replaced, and how many were.
pub fn redact(text: &str) -> (String, u32) {
    let mut text = text.to_owned();
    let mut count = 0;
    for (what, pattern) in PATTERNS.iter() {
        let found = pattern.find_iter(&text).count() as u32;
        if found > 0 {
            count += found;
            text = pattern.replace_all(&text, format!("[redacted: {what}]")).into_owned();
        }
    }
    (text, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_replaced_and_counted() {
        let (text, count) = redact(
            "deploy with AKIAIOSFODNN7EXAMPLE and password: hunter22; db at postgres://app:s3cret@db:5432/x, \
             token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
        );
        assert_eq!(count, 4, "{text}");
        for secret in ["AKIAIOSFODNN7EXAMPLE", "hunter22", "s3cret", "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(text.contains("[redacted: AWS access key]"), "{text}");
        let key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
        assert_eq!(redact(key), ("[redacted: private key]".to_owned(), 1));
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        let text =
            "The password policy needs 12 characters; tokens expire after 15 minutes. See https://example.com/docs.";
        assert_eq!(redact(text), (text.to_owned(), 0));
    }
}
