//! Which ACC server this app talks to. It is given on every start (`--server` or
//! `ACC_SERVER_URL`) rather than saved, so the refresh credential stays the only thing stored.

use tauri::Url;

pub const USAGE: &str = "usage: acc-desktop --server https://acc.example.com
       (or set ACC_SERVER_URL; the flag wins)";

/// A server's origin, e.g. `https://acc.example.com:8443`: the web client calls `/graphql` on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerUrl(String);

impl ServerUrl {
    pub fn parse(input: &str) -> Result<Self, String> {
        let url = Url::parse(input.trim()).map_err(|e| format!("{input:?} is not a URL: {e}"))?;
        if !matches!(url.scheme(), "https" | "http") {
            return Err(format!("{input:?}: the server URL must be https:// (or http://)"));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(format!("{input:?}: the server URL must not carry a user or password"));
        }
        if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
            return Err(format!("{input:?}: give the server's origin only, without a path"));
        }
        // The origin form drops a default port and lowercases the host, so one server always
        // maps to one keystore entry however it was typed.
        Ok(Self(url.origin().ascii_serialization()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Run(ServerUrl),
    Help,
}

/// Reads the command line (without the program name) and `ACC_SERVER_URL`.
pub fn parse_args(args: impl IntoIterator<Item = String>, env: Option<String>) -> Result<Command, String> {
    let mut flag = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--server" => flag = Some(args.next().ok_or("--server needs a URL")?),
            other => match other.strip_prefix("--server=") {
                Some(value) => flag = Some(value.to_owned()),
                None => return Err(format!("unknown argument {other:?}")),
            },
        }
    }
    let input = flag.or(env.filter(|v| !v.trim().is_empty())).ok_or("no server given")?;
    ServerUrl::parse(&input).map(Command::Run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn run(url: &str) -> Command {
        Command::Run(ServerUrl(url.to_owned()))
    }

    #[test]
    fn normalises_to_the_origin() {
        assert_eq!(ServerUrl::parse("https://ACC.Example.com:443/").unwrap().as_str(), "https://acc.example.com");
        assert_eq!(ServerUrl::parse(" http://10.0.0.5:8080 ").unwrap().as_str(), "http://10.0.0.5:8080");
    }

    #[test]
    fn refuses_what_is_not_an_origin() {
        for bad in [
            "acc.example.com",
            "ftp://acc.example.com",
            "https://u:p@acc.example.com",
            "https://acc.example.com/acc",
            "https://acc.example.com/?x=1",
            "https://acc.example.com/#a",
        ] {
            assert!(ServerUrl::parse(bad).is_err(), "{bad} was accepted");
        }
    }

    #[test]
    fn the_flag_wins_over_the_environment() {
        let env = Some("https://env.example.com".to_owned());
        assert_eq!(
            parse_args(args(&["--server", "https://flag.example.com"]), env.clone()),
            Ok(run("https://flag.example.com"))
        );
        assert_eq!(
            parse_args(args(&["--server=https://flag.example.com"]), env.clone()),
            Ok(run("https://flag.example.com"))
        );
        assert_eq!(parse_args(args(&[]), env), Ok(run("https://env.example.com")));
    }

    #[test]
    fn without_a_server_or_with_stray_arguments_it_does_not_start() {
        assert!(parse_args(args(&[]), None).is_err());
        assert!(parse_args(args(&[]), Some("  ".to_owned())).is_err());
        assert!(parse_args(args(&["--server"]), None).is_err());
        assert!(parse_args(args(&["https://acc.example.com"]), None).is_err());
        assert_eq!(parse_args(args(&["--help"]), None), Ok(Command::Help));
    }
}
