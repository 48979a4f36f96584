//! Redaction before anything leaves the host: every string of every event passes through one
//! regular expression made of the built-in key formats, the configured patterns and the literal
//! secrets of the agents' environments; matches become `[REDACTED]`.

use std::borrow::Cow;

use regex::Regex;
use serde_json::Value;

pub const REDACTED: &str = "[REDACTED]";

/// The built-in patterns: common credential formats, by name.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("anthropic_api_key", r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
    ("openai_api_key", r"\bsk-[A-Za-z0-9_-]{20,}"),
    ("aws_access_key_id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("aws_secret_access_key", r"(?i:aws_secret_access_key)\s*[=:]\s*[A-Za-z0-9/+=]{40}"),
    ("github_token", r"\bgh[pousr]_[A-Za-z0-9]{36,}"),
    ("github_fine_grained_pat", r"\bgithub_pat_[A-Za-z0-9_]{22,}"),
    ("slack_token", r"\bxox[abpr]-[A-Za-z0-9-]{10,}"),
    ("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}"),
    ("stripe_key", r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("acc_secret", r"\bacc_(?:conn|enroll|pat|rt|boot)_[A-Za-z0-9_-]{8,}"),
    ("private_key_block", r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)"),
    ("bearer_token", r"\b(?i:bearer)\s+[A-Za-z0-9._~+/=-]{8,}"),
];

/// Environment variable names whose values are treated as secrets to redact literally.
const SECRET_ENV_NAME: &str = r"(?i)(key|token|secret|passw|credential|auth)";
/// Literal secrets shorter than this are not redacted (too many false positives).
const MIN_LITERAL_LEN: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum RedactError {
    #[error("redact pattern `{pattern}` is not a valid regular expression: {source}")]
    BadPattern { pattern: String, source: Box<regex::Error> },
}

#[derive(Debug, Clone)]
pub struct Redactor {
    combined: Regex,
    begin_block: Regex,
    end_block: Regex,
}

impl Redactor {
    /// The built-in patterns plus `extra` (each checked on its own so an error names it) plus
    /// the literal values in `literals`.
    pub fn new<'a>(extra: &[String], literals: impl IntoIterator<Item = &'a str>) -> Result<Self, RedactError> {
        let mut parts: Vec<String> = BUILT_IN.iter().map(|(_, p)| format!("(?:{p})")).collect();
        for pattern in extra {
            Regex::new(pattern)
                .map_err(|source| RedactError::BadPattern { pattern: pattern.clone(), source: Box::new(source) })?;
            parts.push(format!("(?:{pattern})"));
        }
        let mut literals: Vec<&str> = literals.into_iter().filter(|l| l.len() >= MIN_LITERAL_LEN).collect();
        // Longest first, so a secret that contains another is removed whole.
        literals.sort_by_key(|l| std::cmp::Reverse(l.len()));
        literals.dedup();
        parts.extend(literals.into_iter().map(regex::escape));
        let combined = parts.join("|");
        let build = |p: &str| {
            Regex::new(p).map_err(|source| RedactError::BadPattern { pattern: p.to_owned(), source: Box::new(source) })
        };
        Ok(Self {
            combined: build(&combined)?,
            begin_block: build(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----")?,
            end_block: build(r"-----END [A-Z0-9 ]*PRIVATE KEY-----")?,
        })
    }

    /// The built-in patterns only.
    pub fn built_in() -> Result<Self, RedactError> {
        Self::new(&[], [])
    }

    /// Values of environment entries whose names look like secrets (`*_API_KEY`, `*TOKEN*`, …).
    pub fn secret_env_values<'a>(env: impl IntoIterator<Item = (&'a String, &'a String)>) -> Vec<&'a str> {
        match Regex::new(SECRET_ENV_NAME) {
            Ok(names) => env.into_iter().filter(|(k, _)| names.is_match(k)).map(|(_, v)| v.as_str()).collect(),
            Err(_) => Vec::new(),
        }
    }

    pub fn redact_str<'s>(&self, text: &'s str) -> Cow<'s, str> {
        self.combined.replace_all(text, REDACTED)
    }

    /// Every string of a JSON value, object keys included.
    pub fn redact_value(&self, value: Value) -> Value {
        match value {
            Value::String(s) => match self.redact_str(&s) {
                Cow::Borrowed(_) => Value::String(s),
                Cow::Owned(r) => Value::String(r),
            },
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.redact_value(v)).collect()),
            Value::Object(map) => Value::Object(
                map.into_iter().map(|(k, v)| (self.redact_str(&k).into_owned(), self.redact_value(v))).collect(),
            ),
            other => other,
        }
    }
}

/// Redaction of one output stream line by line: a private key printed over several lines is
/// redacted from its BEGIN line through its END line, which no per-line pattern could see.
#[derive(Debug, Default, Clone)]
pub struct LineRedactor {
    in_private_key: bool,
}

impl LineRedactor {
    pub fn redact_line(&mut self, redactor: &Redactor, line: &str) -> String {
        if self.in_private_key {
            return match redactor.end_block.find(line) {
                Some(end) => {
                    self.in_private_key = false;
                    format!("{REDACTED}{}", redactor.redact_str(&line[end.end()..]))
                }
                None => REDACTED.to_owned(),
            };
        }
        if let Some(begin) = redactor.begin_block.find(line)
            && !redactor.end_block.is_match(&line[begin.end()..])
        {
            self.in_private_key = true;
        }
        redactor.redact_str(line).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// One sample per built-in pattern, in the order of [`BUILT_IN`].
    const SAMPLES: &[&str] = &[
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz01",
        "AKIAIOSFODNN7EXAMPLE",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "ghp_0123456789abcdefghijABCDEFGHIJklmnop",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
        "xoxb-123456789012-1234567890123-AbCdEfGhIjKl",
        "AIzaSyA-0123456789abcdefghijklmnopqrstu",
        "sk_live_0123456789abcdefABCD",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "acc_conn_0123456789abcdefghij",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----",
        "Bearer abcdef0123456789.xyz",
    ];

    #[test]
    fn every_built_in_format_is_caught() {
        assert_eq!(SAMPLES.len(), BUILT_IN.len());
        let r = Redactor::built_in().unwrap();
        for ((name, pattern), sample) in BUILT_IN.iter().zip(SAMPLES) {
            assert!(Regex::new(pattern).unwrap().is_match(sample), "{name} does not match its sample");
            let text = format!("before {sample} after");
            let out = r.redact_str(&text);
            assert_eq!(out, format!("before {REDACTED} after"), "{name}");
        }
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        let r = Redactor::built_in().unwrap();
        for text in ["task-0123456789abcdefghijklmnop", "the bearer of news", "AKIA too short", "ask-me"] {
            assert_eq!(r.redact_str(text), text);
        }
    }

    #[test]
    fn configured_patterns_and_env_literals_are_caught() {
        let env: std::collections::BTreeMap<String, String> = [
            ("MY_SERVICE_TOKEN".to_owned(), "hunter2-very-secret".to_owned()),
            ("LOG_LEVEL".to_owned(), "debug-verbose".to_owned()),
        ]
        .into();
        let literals = Redactor::secret_env_values(&env);
        let r = Redactor::new(&["internal-[0-9]{4}".to_owned()], literals).unwrap();
        assert_eq!(r.redact_str("id internal-1234 here"), format!("id {REDACTED} here"));
        assert_eq!(r.redact_str("pw=hunter2-very-secret;"), format!("pw={REDACTED};"));
        assert_eq!(r.redact_str("level debug-verbose"), "level debug-verbose");
        assert!(Redactor::new(&["(unclosed".to_owned()], []).is_err());
    }

    #[test]
    fn json_values_are_redacted_everywhere() {
        let r = Redactor::built_in().unwrap();
        let v = json!({"a": ["x AKIAIOSFODNN7EXAMPLE"], "AKIAIOSFODNN7EXAMPLE": 1, "n": 5, "nested": {"k": "Bearer abcdefghijkl"}});
        let out = r.redact_value(v);
        assert_eq!(out, json!({"a": [format!("x {REDACTED}")], "[REDACTED]": 1, "n": 5, "nested": {"k": REDACTED}}));
    }

    #[test]
    fn a_private_key_over_several_lines_is_redacted_whole() {
        let r = Redactor::built_in().unwrap();
        let mut lines = LineRedactor::default();
        let out: Vec<String> = [
            "key follows",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
            "QyNTUxOQAAACBD",
            "-----END OPENSSH PRIVATE KEY----- done",
            "after",
        ]
        .iter()
        .map(|l| lines.redact_line(&r, l))
        .collect();
        assert_eq!(out, ["key follows", REDACTED, REDACTED, REDACTED, &format!("{REDACTED} done"), "after"]);
    }
}
