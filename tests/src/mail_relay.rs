//! A real SMTP relay for the email notification tests: aiosmtpd (PyPI, pinned in
//! `runtimes/pip-smtp` and installed like the Python runtimes, `crate::runtimes::pip_bin`) run
//! by `tests/data/smtp/relay.py` as a production relay is set up: STARTTLS required, with a
//! certificate `acc` must trust, then AUTH with one account. Stopped on drop.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};

use crate::tls::TestCertificates;

pub const USERNAME: &str = "acc-mailer";
pub const PASSWORD: &str = "relay password";

pub struct MailRelay {
    _child: Child,
    pub port: u16,
    lines: Lines<BufReader<ChildStdout>>,
}

/// A message the relay was given.
#[derive(Debug, Clone)]
pub struct Mail {
    /// Whether it took it (it refuses the first `defer_first` with a temporary failure).
    pub accepted: bool,
    pub from: String,
    pub to: Vec<String>,
    /// The whole message, headers and body.
    pub data: String,
}

impl Mail {
    /// The body as a mail client shows it (decoded when it was sent quoted-printable).
    pub fn text(&self) -> String {
        let body = self.data.split_once("\r\n\r\n").map(|(_, body)| body).unwrap_or_default();
        if self.header("Content-Transfer-Encoding").as_deref() != Some("quoted-printable") {
            return body.to_owned();
        }
        let decoded = quoted_printable::decode(body, quoted_printable::ParseMode::Robust).unwrap();
        String::from_utf8(decoded).unwrap()
    }

    /// A header's value, as sent (folded lines joined).
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next()?.replace("\r\n ", " ");
        let prefix = format!("{}: ", name.to_lowercase());
        head.lines().find(|l| l.to_lowercase().starts_with(&prefix)).map(|l| l[prefix.len()..].to_owned())
    }
}

impl MailRelay {
    /// Starts a relay serving `certificates`' server certificate, refusing the first
    /// `defer_first` messages with "451 try again later".
    pub async fn start(certificates: &TestCertificates, defer_first: u32) -> Self {
        let python = tokio::task::spawn_blocking(|| crate::runtimes::pip_bin("pip-smtp", "python")).await.unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/smtp/relay.py");
        let config = json!({
            "certificate": certificates.certificate,
            "key": certificates.key,
            "username": USERNAME,
            "password": PASSWORD,
            "defer_first": defer_first,
        });
        let mut child = Command::new(python)
            .arg(script)
            .arg(config.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("the mail relay starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let started = tokio::time::timeout(Duration::from_secs(60), lines.next_line()).await;
        let started: Value =
            serde_json::from_str(&started.expect("the relay says its port").unwrap().unwrap()).unwrap();
        Self { _child: child, port: started["port"].as_u64().unwrap() as u16, lines }
    }

    /// The next message `acc` gave the relay, within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Mail> {
        let line = tokio::time::timeout(wait, self.lines.next_line()).await.ok()?.unwrap()?;
        let mail: Value = serde_json::from_str(&line).unwrap();
        let to = mail["rcpt_tos"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()).collect();
        Some(Mail {
            accepted: mail["accepted"].as_bool().unwrap(),
            from: mail["mail_from"].as_str().unwrap().to_owned(),
            to,
            data: mail["data"].as_str().unwrap().to_owned(),
        })
    }

    /// The settings of an `acc` that sends email through this relay with `password` (written
    /// to a file in `dir`), trusting `ca`, and links to `public_url`.
    pub fn env(&self, dir: &Path, ca: &Path, password: &str, public_url: &str) -> Vec<(String, String)> {
        let password_file = dir.join("smtp-password");
        std::fs::write(&password_file, format!("{password}\n")).unwrap();
        vec![
            ("ACC_PUBLIC_URL".into(), public_url.into()),
            ("ACC_SMTP__HOST".into(), "127.0.0.1".into()),
            ("ACC_SMTP__PORT".into(), self.port.to_string()),
            ("ACC_SMTP__FROM".into(), "Agent Control Center <acc@acme.test>".into()),
            ("ACC_SMTP__USERNAME".into(), USERNAME.into()),
            ("ACC_SMTP__PASSWORD_FILE".into(), password_file.display().to_string()),
            ("ACC_SMTP__CA_FILE".into(), ca.display().to_string()),
        ]
    }
}
