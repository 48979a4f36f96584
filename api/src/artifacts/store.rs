//! Where artifacts' bytes live: a directory under the data dir, or an S3-compatible bucket, through
//! `object_store`. Content-addressed: an organization's bytes are kept once per sha256 under
//! `organizations/<id>/sha256/<digest>`, whatever artifacts and versions name them. Organizations
//! never share an object, so nobody learns from a store that another tenant holds the same bytes.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{Stream, StreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt, PutPayload, WriteMultipart};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// Where the store is (the `artifacts` settings).
#[derive(Debug, Clone)]
pub enum StoreLocation {
    Directory(PathBuf),
    S3 {
        bucket: String,
        /// The service's URL; `None` for AWS itself.
        endpoint: Option<String>,
        region: String,
        access_key_id: Option<String>,
        secret_access_key: Option<String>,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the artifact store failed: {0}")]
    Store(#[from] object_store::Error),
    #[error("the artifact store's directory {0} cannot be used: {1}")]
    Directory(PathBuf, std::io::Error),
    #[error("the upload is larger than {0} bytes")]
    TooLarge(u64),
    #[error("the upload broke off: {0}")]
    Body(String),
}

/// Bytes stored: their digest and length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub sha256: String,
    pub size: u64,
}

/// An upload up to this size is kept in memory and stored in one request; a larger one goes in
/// parts of this size (S3's smallest part is 5 MiB).
const PART_BYTES: usize = 8 * 1024 * 1024;
/// Parts of one upload in flight at once.
const PARTS_IN_FLIGHT: usize = 2;

#[derive(Clone)]
pub struct ArtifactStore {
    objects: Arc<dyn ObjectStore>,
}

impl ArtifactStore {
    pub fn open(location: &StoreLocation) -> Result<Self, StoreError> {
        let objects: Arc<dyn ObjectStore> = match location {
            StoreLocation::Directory(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| StoreError::Directory(dir.clone(), e))?;
                Arc::new(LocalFileSystem::new_with_prefix(dir)?.with_automatic_cleanup(true))
            }
            StoreLocation::S3 { bucket, endpoint, region, access_key_id, secret_access_key } => {
                let mut builder = AmazonS3Builder::new().with_bucket_name(bucket).with_region(region);
                if let Some(endpoint) = endpoint {
                    builder = builder.with_endpoint(endpoint).with_allow_http(endpoint.starts_with("http://"));
                }
                if let (Some(id), Some(secret)) = (access_key_id, secret_access_key) {
                    builder = builder.with_access_key_id(id).with_secret_access_key(secret);
                }
                Arc::new(builder.build()?)
            }
        };
        Ok(Self { objects })
    }

    fn blob(organization_id: Uuid, sha256: &str) -> Path {
        Path::from(format!("organizations/{organization_id}/sha256/{sha256}"))
    }

    /// Stores what `body` yields for the organization, refusing it past `max_bytes`, and returns
    /// its digest. The bytes are written under a name of their own while they are hashed, then
    /// moved to their digest's, so a broken or refused upload never leaves a blob behind.
    pub async fn put<E: std::fmt::Display>(
        &self,
        organization_id: Uuid,
        body: impl Stream<Item = Result<Bytes, E>>,
        max_bytes: u64,
    ) -> Result<Stored, StoreError> {
        let staging = Path::from(format!("organizations/{organization_id}/uploads/{}", Uuid::now_v7()));
        let mut hasher = Sha256::new();
        let mut size: u64 = 0;
        let mut head: Vec<Bytes> = Vec::new();
        let mut head_bytes = 0;
        let mut parts: Option<WriteMultipart> = None;
        let mut body = std::pin::pin!(body);
        let outcome: Result<(), StoreError> = async {
            while let Some(chunk) = body.next().await {
                let chunk = chunk.map_err(|e| StoreError::Body(e.to_string()))?;
                size += chunk.len() as u64;
                if size > max_bytes {
                    return Err(StoreError::TooLarge(max_bytes));
                }
                hasher.update(&chunk);
                match &mut parts {
                    Some(writer) => {
                        writer.wait_for_capacity(PARTS_IN_FLIGHT).await?;
                        writer.put(chunk);
                    }
                    None if head_bytes + chunk.len() <= PART_BYTES => {
                        head_bytes += chunk.len();
                        head.push(chunk);
                    }
                    None => {
                        let mut writer = WriteMultipart::new_with_chunk_size(
                            self.objects.put_multipart(&staging).await?,
                            PART_BYTES,
                        );
                        for earlier in head.drain(..) {
                            writer.put(earlier);
                        }
                        writer.put(chunk);
                        parts = Some(writer);
                    }
                }
            }
            Ok(())
        }
        .await;
        match (outcome, parts) {
            (Err(e), Some(writer)) => {
                let _ = writer.abort().await;
                return Err(e);
            }
            (Err(e), None) => return Err(e),
            (Ok(()), Some(writer)) => {
                writer.finish().await?;
            }
            (Ok(()), None) => {
                self.objects.put(&staging, PutPayload::from_iter(head)).await?;
            }
        }
        let sha256 = hex::encode(hasher.finalize());
        let blob = Self::blob(organization_id, &sha256);
        match self.objects.head(&blob).await {
            // Kept once: the same bytes uploaded again are already there.
            Ok(_) => self.objects.delete(&staging).await?,
            Err(object_store::Error::NotFound { .. }) => self.objects.rename(&staging, &blob).await?,
            Err(e) => {
                let _ = self.objects.delete(&staging).await;
                return Err(e.into());
            }
        }
        Ok(Stored { sha256, size })
    }

    /// The organization's bytes with this digest, or those of `range` in them, as a stream.
    pub async fn get(
        &self,
        organization_id: Uuid,
        sha256: &str,
        range: Option<Range<u64>>,
    ) -> Result<BoxStream<'static, Result<Bytes, object_store::Error>>, StoreError> {
        let options = GetOptions { range: range.map(GetRange::Bounded), ..GetOptions::default() };
        Ok(self.objects.get_opts(&Self::blob(organization_id, sha256), options).await?.into_stream())
    }
}
