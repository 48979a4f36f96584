//! Context records (issue 14): what the context broker gave a run — every item's source, content
//! hash and token count, and the bundle itself — so `runContext` shows exactly what the agent got.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261206_000013_context_records"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let org = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "organization_id", "organizations");
        let of_run = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "run_id", "task_runs");
        manager
            .create_table(
                of_run(org(table("context_records")))
                    .col(integer("token_budget"))
                    .col(integer("tokens_used"))
                    .col(json("items"))
                    .col(json("bundle"))
                    .col(string("bundle_hash"))
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("ux_context_records_run", "context_records", &["run_id"]).unique().to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("context_records").to_owned()).await
    }
}
