//! A real S3-compatible object store for tests: moto's server (PyPI `moto[server]`, pinned in
//! `runtimes/pip-moto` and installed like the Python runtimes, `crate::runtimes::pip_bin`),
//! started on a free loopback port with one bucket, and stopped on drop.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct S3Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, as `artifacts.s3_endpoint` takes it.
    pub endpoint: String,
    pub bucket: String,
}

impl S3Server {
    pub async fn start(bucket: &str) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let server = tokio::task::spawn_blocking(|| crate::runtimes::pip_bin("pip-moto", "moto_server")).await.unwrap();
        let child = Command::new(server)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server runs");
        let endpoint = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        // The bucket is made by a plain PUT, once the server answers.
        loop {
            match http.put(format!("{endpoint}/{bucket}")).send().await {
                Ok(response) if response.status().is_success() => break,
                _ if Instant::now() > deadline => panic!("moto_server did not start on {endpoint}"),
                _ => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        Self { child, endpoint, bucket: bucket.to_owned() }
    }

    /// The keys of the bucket's objects under `prefix`.
    pub async fn keys(&self, prefix: &str) -> Vec<String> {
        let listing = reqwest::get(format!("{}/{}?list-type=2&prefix={prefix}", self.endpoint, self.bucket))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        listing.split("<Key>").skip(1).filter_map(|part| part.split("</Key>").next()).map(str::to_owned).collect()
    }

    /// The settings of an `acc` that keeps artifacts here, with key files written in `dir`.
    pub fn env(&self, dir: &std::path::Path) -> Vec<(String, String)> {
        let (id, secret) = (dir.join("s3-key-id"), dir.join("s3-secret"));
        std::fs::write(&id, "testing").unwrap();
        std::fs::write(&secret, "testing").unwrap();
        vec![
            ("ACC_ARTIFACTS__S3_BUCKET".into(), self.bucket.clone()),
            ("ACC_ARTIFACTS__S3_ENDPOINT".into(), self.endpoint.clone()),
            ("ACC_ARTIFACTS__S3_ACCESS_KEY_ID_FILE".into(), id.display().to_string()),
            ("ACC_ARTIFACTS__S3_SECRET_ACCESS_KEY_FILE".into(), secret.display().to_string()),
        ]
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
