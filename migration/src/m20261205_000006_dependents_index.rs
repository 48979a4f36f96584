//! A task's dependents read in order from the index: the edges of a task it blocks, by the
//! dependent task, so a page of dependents needs no sort (as a page of dependencies reads in
//! order from `ux_task_dependencies_edge`).

use sea_orm_migration::prelude::*;

use crate::tables::index;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261205_000006_dependents_index"
    }
}

const TABLE: &str = "task_dependencies";
const OLD: &str = "ix_task_dependencies_dependent";
const NEW: &str = "ix_task_dependencies_dependent_task";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.create_index(index(NEW, TABLE, &["depends_on_task_id", "task_id"])).await?;
        manager.drop_index(Index::drop().name(OLD).table(TABLE).to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.create_index(index(OLD, TABLE, &["depends_on_task_id"])).await?;
        manager.drop_index(Index::drop().name(NEW).table(TABLE).to_owned()).await
    }
}
