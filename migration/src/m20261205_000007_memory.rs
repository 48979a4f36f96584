//! Memory (SPEC §11): an entry per subject in a scope, its versions (content never changes once
//! written), and the conflicts a contradicting write opens for a person to resolve.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261205_000007_memory"
    }
}

const TABLES: &[&str] = &["memory_entries", "memory_versions", "memory_conflicts"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let org = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "organization_id", "organizations");
        let of_entry = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "entry_id", "memory_entries");
        manager
            .create_table(
                org(mutable_table("memory_entries"))
                    // Where the entry sits for authorization, fixed at its creation.
                    .col(uuid_null("workspace_id"))
                    .col(uuid_null("project_id"))
                    .col(string("scope_kind"))
                    .col(uuid("scope_id"))
                    .col(string("kind"))
                    .col(string("subject"))
                    .col(uuid_null("current_version_id"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                of_entry(org(table("memory_versions")))
                    .col(integer("number"))
                    .col(text("content"))
                    .col(text_null("summary"))
                    .col(string("content_hash"))
                    .col(json("provenance"))
                    .col(double_null("confidence"))
                    .col(string("verification"))
                    .col(string("sensitivity"))
                    .col(timestamp_with_time_zone("valid_from"))
                    .col(timestamp_with_time_zone_null("valid_until"))
                    .col(uuid_null("supersedes_version_id"))
                    .col(json("acl"))
                    .col(uuid_null("created_by_user_id"))
                    .col(uuid_null("created_by_run_id"))
                    .col(timestamp_with_time_zone_null("became_current_at"))
                    .col(uuid_null("verified_by"))
                    .col(timestamp_with_time_zone_null("verified_at"))
                    .col(timestamp_with_time_zone_null("retracted_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                of_entry(org(mutable_table("memory_conflicts")))
                    .col(uuid("current_version_id"))
                    .col(uuid("proposed_version_id"))
                    .col(string("status"))
                    .col(string_null("resolution"))
                    .col(uuid_null("resolved_by"))
                    .col(timestamp_with_time_zone_null("resolved_at"))
                    .to_owned(),
            )
            .await?;
        for stmt in [
            index("ux_memory_entries_subject", "memory_entries", &["scope_id", "subject"]).unique().to_owned(),
            index("ix_memory_entries_organization", "memory_entries", &["organization_id", "id"]),
            index("ux_memory_versions_number", "memory_versions", &["entry_id", "number"]).unique().to_owned(),
            index("ix_memory_conflicts_entry", "memory_conflicts", &["entry_id", "id"]),
        ] {
            manager.create_index(stmt).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in TABLES.iter().rev() {
            manager.drop_table(Table::drop().table(*name).to_owned()).await?;
        }
        Ok(())
    }
}
