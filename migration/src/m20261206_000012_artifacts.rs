//! Artifacts (SPEC §2, issue 14): a named file of a project or one of its tasks, and its versions.
//! The bytes live in the artifact store under their sha256; a version row says which, how many
//! and where they came from.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261206_000012_artifacts"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let org = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "organization_id", "organizations");
        let of_artifact = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "artifact_id", "artifacts");
        let of_project = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "project_id", "projects");
        manager
            .create_table(
                of_project(org(mutable_table("artifacts")))
                    .col(uuid("workspace_id"))
                    .col(uuid_null("task_id"))
                    // The task's id, or the project's for an artifact of the project itself.
                    .col(uuid("scope_id"))
                    .col(string("name"))
                    .col(uuid_null("latest_version_id"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                of_artifact(org(table("artifact_versions")))
                    .col(integer("number"))
                    .col(string("sha256"))
                    .col(big_integer("size_bytes"))
                    .col(string("media_type"))
                    .col(json("provenance"))
                    .col(uuid_null("created_by_user_id"))
                    .col(uuid_null("run_id"))
                    .to_owned(),
            )
            .await?;
        for stmt in [
            index("ux_artifacts_name", "artifacts", &["scope_id", "name"]).unique().to_owned(),
            index("ix_artifacts_project", "artifacts", &["project_id", "id"]),
            index("ux_artifact_versions_number", "artifact_versions", &["artifact_id", "number"]).unique().to_owned(),
            index("ix_artifact_versions_run", "artifact_versions", &["run_id"]),
        ] {
            manager.create_index(stmt).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["artifact_versions", "artifacts"] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
