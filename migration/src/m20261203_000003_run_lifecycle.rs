//! The rest of a run's life: the connector's own sequence on each event (to acknowledge only
//! what is stored without a gap), attempts' kinds, the retry budget, the agent a run asked for and
//! the one it is being handed to, approvals and checkpoints; and the fingerprint of the client
//! certificate a connector was issued.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261203_000003_run_lifecycle"
    }
}

/// New columns, one per statement: SQLite alters one column at a time.
fn added_columns() -> Vec<(&'static str, ColumnDef)> {
    vec![
        ("run_events", big_integer_null("connector_sequence")),
        ("task_runs", integer("max_attempts").default(1).to_owned()),
        ("task_runs", uuid_null("requested_agent_id")),
        ("task_runs", uuid_null("handoff_target_id")),
        ("run_attempts", string("kind").default("start").to_owned()),
        ("connectors", string_null("certificate_sha256")),
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, mut column) in added_columns() {
            manager.alter_table(Table::alter().table(table).add_column(&mut column).to_owned()).await?;
        }
        manager
            .create_table(
                owned_by(
                    &mut owned_by(
                        &mut owned_by(&mut mutable_table("approvals"), "organization_id", "organizations"),
                        "project_id",
                        "projects",
                    ),
                    "run_id",
                    "task_runs",
                )
                .col(uuid("attempt_id"))
                .col(string("request_id"))
                .col(text("action"))
                .col(text_null("reason"))
                .col(json("details"))
                .col(string("status"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(uuid_null("decided_by"))
                .col(timestamp_with_time_zone_null("decided_at"))
                .col(text_null("decision_reason"))
                .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut table("checkpoints"), "run_id", "task_runs")
                    .col(uuid("attempt_id"))
                    .col(text("reason"))
                    .col(json("data"))
                    .col(uuid_null("target_agent_id"))
                    .to_owned(),
            )
            .await?;
        for stmt in [
            index("ux_run_events_connector_sequence", "run_events", &["run_id", "connector_id", "connector_sequence"])
                .unique()
                .to_owned(),
            index("ux_approvals_request", "approvals", &["run_id", "request_id"]).unique().to_owned(),
            index("ix_approvals_inbox", "approvals", &["organization_id", "status", "id"]),
            index("ix_checkpoints_run", "checkpoints", &["run_id", "id"]),
            // What the sweeper looks for on every tick.
            index("ix_task_runs_status", "task_runs", &["status", "updated_at"]),
            index("ix_run_attempts_lease", "run_attempts", &["ended_at", "lease_expires_at"]),
            index("ix_run_attempts_connector", "run_attempts", &["connector_id", "ended_at"]),
            index("ix_approvals_expiry", "approvals", &["status", "expires_at"]),
        ] {
            manager.create_index(stmt).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (name, table) in [
            ("ux_run_events_connector_sequence", "run_events"),
            ("ix_task_runs_status", "task_runs"),
            ("ix_run_attempts_lease", "run_attempts"),
            ("ix_run_attempts_connector", "run_attempts"),
        ] {
            manager.drop_index(Index::drop().name(name).table(table).to_owned()).await?;
        }
        for name in ["checkpoints", "approvals"] {
            manager.drop_table(Table::drop().table(name).to_owned()).await?;
        }
        for (table, column) in added_columns() {
            let name = column.get_column_name();
            manager.alter_table(Table::alter().table(table).drop_column(Alias::new(name)).to_owned()).await?;
        }
        Ok(())
    }
}
