//! What a run may use and what it used: the budget a run started with (sent to the connector's
//! model gateway with every attempt), and an index to read a run's usage events without
//! scanning all its events.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::index;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261203_000004_run_usage"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table("task_runs").add_column(json_null("budget")).to_owned()).await?;
        manager.create_index(index("ix_run_events_kind", "run_events", &["run_id", "kind", "sequence"])).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name("ix_run_events_kind").table("run_events").to_owned()).await?;
        manager.alter_table(Table::alter().table("task_runs").drop_column(Alias::new("budget")).to_owned()).await
    }
}
