//! Usage (SPEC §14): one row per usage report of a run, with where it happened and who ran it,
//! so that sums by scope, agent, user, model and day are an indexed read; and budget policies, a
//! limit of tokens and cost per scope and period.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000023_usage"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                owned_by(&mut table("usage_records"), "organization_id", "organizations")
                    // The run event it was read from: recording it again (a resend) is a no-op.
                    .col(uuid("run_event_id"))
                    // Where and by whom, copied: usage outlives a deleted task and its runs.
                    .col(uuid("workspace_id"))
                    .col(uuid("project_id"))
                    .col(uuid("task_id"))
                    .col(uuid("run_id"))
                    .col(uuid_null("agent_id"))
                    .col(uuid("user_id"))
                    .col(string("source"))
                    .col(string_null("model"))
                    .col(big_integer_null("requests"))
                    .col(big_integer("input_tokens"))
                    .col(big_integer("output_tokens"))
                    .col(big_integer("cached_input_tokens"))
                    .col(boolean("tokens_known"))
                    .col(double_null("cost_usd"))
                    .col(timestamp_with_time_zone("occurred_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("ux_usage_records_event", "usage_records", &["run_event_id"]).unique().to_owned())
            .await?;
        for (name, scope) in [
            ("ix_usage_records_organization", "organization_id"),
            ("ix_usage_records_workspace", "workspace_id"),
            ("ix_usage_records_project", "project_id"),
        ] {
            manager.create_index(index(name, "usage_records", &[scope, "occurred_at"])).await?;
        }
        manager
            .create_table(
                owned_by(&mut mutable_table("budget_policies"), "organization_id", "organizations")
                    .col(string("scope_kind"))
                    .col(uuid("scope_id"))
                    .col(uuid_null("workspace_id"))
                    .col(uuid_null("project_id"))
                    .col(string("period"))
                    .col(big_integer_null("max_tokens"))
                    .col(double_null("max_cost_usd"))
                    .col(uuid("created_by"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                index("ux_budget_policies_scope_period", "budget_policies", &["scope_id", "period"])
                    .unique()
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in ["budget_policies", "usage_records"] {
            manager.drop_table(Table::drop().table(name).to_owned()).await?;
        }
        Ok(())
    }
}
