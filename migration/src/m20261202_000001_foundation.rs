//! The foundation: tenants, identity, workspaces, projects, tasks, settings layers and idempotency records.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261202_000001_foundation"
    }
}

/// Tables in creation order; dropped in reverse.
const TABLES: &[&str] = &[
    "organizations",
    "users",
    "device_sessions",
    "refresh_tokens",
    "api_tokens",
    "role_bindings",
    "workspaces",
    "projects",
    "tasks",
    "task_dependencies",
    "acceptance_criteria",
    "config_layers",
    "idempotency_records",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let org = |name| owned_by(&mut mutable_table(name), "organization_id", "organizations");

        manager.create_table(mutable_table("organizations").col(string("name").unique_key()).to_owned()).await?;
        manager
            .create_table(
                org("users")
                    .col(string("email").unique_key())
                    .col(string("display_name"))
                    .col(string("password_hash"))
                    .col(boolean("is_server_admin"))
                    .col(boolean("disabled"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut org("device_sessions"), "user_id", "users")
                    .col(string("device_name"))
                    .col(string_null("client_address"))
                    .col(timestamp_with_time_zone_null("revoked_at"))
                    .col(string_null("revoked_reason"))
                    .col(timestamp_with_time_zone("last_used_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut table("refresh_tokens"), "session_id", "device_sessions")
                    .col(string("token_hash").unique_key())
                    .col(timestamp_with_time_zone_null("rotated_at"))
                    .col(timestamp_with_time_zone("expires_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut org("api_tokens"), "user_id", "users")
                    .col(string("name"))
                    .col(string("token_hash").unique_key())
                    .col(json("scopes"))
                    .col(timestamp_with_time_zone_null("expires_at"))
                    .col(timestamp_with_time_zone_null("revoked_at"))
                    .col(timestamp_with_time_zone_null("last_used_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(
                    &mut owned_by(&mut table("role_bindings"), "organization_id", "organizations"),
                    "subject_id",
                    "users",
                )
                .col(string("role"))
                .col(string("scope_kind"))
                .col(uuid("scope_id"))
                .to_owned(),
            )
            .await?;
        manager.create_table(org("workspaces").col(string("name")).col(text("description")).to_owned()).await?;
        manager
            .create_table(
                owned_by(&mut org("projects"), "workspace_id", "workspaces")
                    .col(string("name"))
                    .col(text("description"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut org("tasks"), "project_id", "projects")
                    .col(string("title"))
                    .col(text("description"))
                    .col(string("status"))
                    .col(string("priority"))
                    .col(json("labels"))
                    .col(uuid_null("assignee_user_id"))
                    .col(uuid_null("assignee_agent_id"))
                    .foreign_key(
                        ForeignKey::create()
                            .from_col("assignee_user_id")
                            .to("users", "id")
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(
                    &mut owned_by(
                        &mut owned_by(&mut table("task_dependencies"), "organization_id", "organizations"),
                        "task_id",
                        "tasks",
                    ),
                    "depends_on_task_id",
                    "tasks",
                )
                .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut org("acceptance_criteria"), "task_id", "tasks")
                    .col(text("description"))
                    .col(boolean("met"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                org("config_layers")
                    .col(string("scope_kind"))
                    .col(uuid("scope_id").unique_key())
                    .col(json("settings"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(
                    &mut owned_by(&mut table("idempotency_records"), "organization_id", "organizations"),
                    "user_id",
                    "users",
                )
                .col(string("idempotency_key"))
                .col(string("operation"))
                .col(string("request_hash"))
                .col(uuid("resource_id"))
                .to_owned(),
            )
            .await?;

        for stmt in [
            index("ux_workspaces_name", "workspaces", &["organization_id", "name"]).unique().to_owned(),
            index("ux_projects_name", "projects", &["workspace_id", "name"]).unique().to_owned(),
            index("ix_tasks_project", "tasks", &["project_id", "id"]),
            index("ix_tasks_assignee", "tasks", &["assignee_user_id"]),
            index("ux_task_dependencies_edge", "task_dependencies", &["task_id", "depends_on_task_id"])
                .unique()
                .to_owned(),
            index("ix_task_dependencies_dependent", "task_dependencies", &["depends_on_task_id"]),
            index("ix_acceptance_criteria_task", "acceptance_criteria", &["task_id", "id"]),
            index("ux_role_bindings_grant", "role_bindings", &["subject_id", "role", "scope_id"]).unique().to_owned(),
            index("ix_device_sessions_user", "device_sessions", &["user_id"]),
            index("ix_refresh_tokens_session", "refresh_tokens", &["session_id"]),
            index("ix_api_tokens_user", "api_tokens", &["user_id"]),
            index("ux_idempotency_key", "idempotency_records", &["user_id", "idempotency_key"]).unique().to_owned(),
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
