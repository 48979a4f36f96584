//! Removing a revoked connector: it and its agents leave the listings, while the runs and
//! attempts that name them keep their history (a soft delete, so no foreign key or run row changes).

use sea_orm_migration::{prelude::*, schema::*};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261203_000005_connector_removal"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table("connectors").add_column(timestamp_with_time_zone_null("removed_at")).to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table("connectors").drop_column(Alias::new("removed_at")).to_owned()).await
    }
}
