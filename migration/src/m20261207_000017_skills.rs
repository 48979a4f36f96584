//! Skills (SPEC §12, issue 15): the publisher keys an organization trusts, skills by name, their
//! immutable versions (validated manifest, file list, digest, signature check, review state; the
//! archive's bytes are in the artifact store by sha256), activations per scope, and the versions
//! each run was started with. An approval may be about a skill activation (a package with scripts
//! needs one).

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000017_skills"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let org = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "organization_id", "organizations");
        manager
            .create_table(
                org(table("skill_publisher_keys"))
                    .col(string("name"))
                    .col(string("key_id"))
                    .col(text("public_key"))
                    .col(timestamp_with_time_zone_null("revoked_at"))
                    .col(uuid_null("created_by_user_id"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(org(mutable_table("skills")).col(string("name")).col(integer("latest_version")).to_owned())
            .await?;
        manager
            .create_table(
                owned_by(&mut org(mutable_table("skill_versions")), "skill_id", "skills")
                    .col(integer("number"))
                    .col(string("digest"))
                    .col(string("archive_sha256"))
                    .col(big_integer("archive_size"))
                    .col(text("description"))
                    .col(string_null("license"))
                    .col(text_null("compatibility"))
                    .col(json("metadata"))
                    .col(json("allowed_tools"))
                    .col(text("instructions"))
                    .col(json("files"))
                    .col(boolean("has_scripts"))
                    .col(text_null("signature"))
                    .col(string("signature_status"))
                    .col(string_null("signer_key_id"))
                    .col(string("review_state"))
                    .col(text_null("review_reason"))
                    .col(uuid_null("reviewed_by"))
                    .col(uuid_null("imported_by"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut org(mutable_table("skill_activations")), "skill_version_id", "skill_versions")
                    .col(uuid("skill_id"))
                    .col(uuid_null("workspace_id"))
                    .col(uuid_null("project_id"))
                    // The organization's, workspace's or project's id: where it applies.
                    .col(uuid("scope_id"))
                    .col(string("status"))
                    .col(uuid_null("activated_by"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut org(table("run_skills")), "run_id", "task_runs")
                    .col(uuid("skill_id"))
                    .col(uuid("skill_version_id"))
                    .col(string("name"))
                    .col(integer("number"))
                    .col(string("digest"))
                    .col(string("archive_sha256"))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(Table::alter().table("approvals").add_column(uuid_null("skill_activation_id")).to_owned())
            .await?;
        for stmt in [
            index("ux_skill_publisher_keys", "skill_publisher_keys", &["organization_id", "key_id"])
                .unique()
                .to_owned(),
            index("ux_skills_name", "skills", &["organization_id", "name"]).unique().to_owned(),
            index("ux_skill_versions_number", "skill_versions", &["skill_id", "number"]).unique().to_owned(),
            index("ux_skill_versions_digest", "skill_versions", &["skill_id", "digest"]).unique().to_owned(),
            index("ix_skill_activations_scope", "skill_activations", &["scope_id", "status"]),
            index("ix_skill_activations_skill", "skill_activations", &["skill_id", "scope_id"]),
            index("ix_run_skills_run", "run_skills", &["run_id", "id"]),
        ] {
            manager.create_index(stmt).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table("approvals").drop_column("skill_activation_id").to_owned()).await?;
        for name in ["run_skills", "skill_activations", "skill_versions", "skills", "skill_publisher_keys"] {
            manager.drop_table(Table::drop().table(name).to_owned()).await?;
        }
        Ok(())
    }
}
