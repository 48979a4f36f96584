//! Runs: enrollment tokens, connectors, agents and their capability snapshots, task runs,
//! their attempts and their events.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261202_000002_runs"
    }
}

const TABLES: &[&str] =
    &["enrollment_tokens", "connectors", "agents", "capability_snapshots", "task_runs", "run_attempts", "run_events"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let in_workspace = |stmt: &mut TableCreateStatement| {
            owned_by(&mut owned_by(stmt, "organization_id", "organizations"), "workspace_id", "workspaces")
        };
        manager
            .create_table(
                in_workspace(&mut table("enrollment_tokens"))
                    .col(string("name"))
                    .col(string("token_hash").unique_key())
                    .col(timestamp_with_time_zone("expires_at"))
                    .col(timestamp_with_time_zone_null("used_at"))
                    .col(uuid("created_by"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                in_workspace(&mut mutable_table("connectors"))
                    .col(string("name"))
                    .col(string("credential_hash").unique_key())
                    .col(string_null("version"))
                    .col(boolean("online"))
                    .col(string_null("health"))
                    .col(timestamp_with_time_zone_null("last_seen_at"))
                    .col(timestamp_with_time_zone_null("revoked_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut in_workspace(&mut mutable_table("agents")), "connector_id", "connectors")
                    .col(string("name"))
                    .col(string("adapter"))
                    .col(string("adapter_version"))
                    .col(string_null("runtime_version"))
                    .col(json("capabilities"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut table("capability_snapshots"), "agent_id", "agents")
                    .col(string("adapter_version"))
                    .col(string_null("runtime_version"))
                    .col(json("capabilities"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(
                    &mut owned_by(
                        &mut owned_by(&mut mutable_table("task_runs"), "organization_id", "organizations"),
                        "project_id",
                        "projects",
                    ),
                    "task_id",
                    "tasks",
                )
                .col(uuid_null("agent_id"))
                .col(string("status"))
                .col(text_null("status_reason"))
                .col(json("required_capabilities"))
                .col(json("input"))
                .col(uuid("created_by"))
                .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut mutable_table("run_attempts"), "run_id", "task_runs")
                    .col(integer("number"))
                    .col(uuid("agent_id"))
                    .col(uuid("connector_id"))
                    .col(string("status"))
                    .col(timestamp_with_time_zone_null("lease_expires_at"))
                    .col(timestamp_with_time_zone_null("ended_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut table("run_events"), "run_id", "task_runs")
                    .col(big_integer("sequence"))
                    .col(uuid_null("attempt_id"))
                    .col(uuid_null("connector_id"))
                    .col(uuid_null("event_id"))
                    .col(string("kind"))
                    .col(json("data"))
                    .col(timestamp_with_time_zone("occurred_at"))
                    .to_owned(),
            )
            .await?;
        for stmt in [
            index("ux_agents_name", "agents", &["connector_id", "name"]).unique().to_owned(),
            index("ix_agents_workspace", "agents", &["workspace_id"]),
            index("ix_connectors_workspace", "connectors", &["workspace_id"]),
            index("ix_capability_snapshots_agent", "capability_snapshots", &["agent_id", "id"]),
            index("ix_task_runs_task", "task_runs", &["task_id", "id"]),
            index("ix_task_runs_project", "task_runs", &["project_id", "id"]),
            index("ux_run_attempts_number", "run_attempts", &["run_id", "number"]).unique().to_owned(),
            index("ux_run_events_sequence", "run_events", &["run_id", "sequence"]).unique().to_owned(),
            index("ux_run_events_connector_event", "run_events", &["connector_id", "event_id"]).unique().to_owned(),
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
