//! Candidates (issue 15, the plugin seed's §5): a proposed change to one scope's settings and skill
//! selection, tried side by side on a task before anyone applies it. Each candidate keeps the two
//! compositions frozen at its proposal, the baseline and candidate runs, what was observed of them,
//! the person's decision and the receipt of its application. A run started with a composition
//! other than its scope's current one carries it (`task_runs.composition`).

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000018_candidates"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                owned_by(&mut mutable_table("candidates"), "organization_id", "organizations")
                    .col(string("scope_kind"))
                    // The organization's, workspace's or project's id: whose composition changes.
                    .col(uuid("scope_id"))
                    .col(string("status"))
                    // The scope's settings revision the proposal was made against.
                    .col(big_integer("expected_revision"))
                    .col(json("patch"))
                    .col(json("baseline"))
                    .col(json("candidate"))
                    .col(uuid_null("task_id"))
                    .col(uuid_null("baseline_run_id"))
                    .col(uuid_null("candidate_run_id"))
                    .col(json_null("comparison"))
                    .col(text_null("decision_reason"))
                    .col(uuid_null("decided_by"))
                    .col(json_null("receipt"))
                    .col(uuid("proposed_by"))
                    .to_owned(),
            )
            .await?;
        manager.alter_table(Table::alter().table("task_runs").add_column(json_null("composition")).to_owned()).await?;
        manager.create_index(index("ix_candidates_scope", "candidates", &["scope_id", "created_at"])).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table("task_runs").drop_column("composition").to_owned()).await?;
        manager.drop_table(Table::drop().table("candidates").to_owned()).await?;
        Ok(())
    }
}
