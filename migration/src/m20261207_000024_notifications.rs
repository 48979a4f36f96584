//! Notifications (SPEC §16): what a person is told, once per dedupe key, read or not.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000024_notifications"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                owned_by(
                    &mut owned_by(&mut table("notifications"), "organization_id", "organizations"),
                    "user_id",
                    "users",
                )
                .col(string("kind"))
                // What makes two notifications the same one: the second is not made.
                .col(string("dedupe_key"))
                .col(string("title"))
                .col(string("body"))
                // What it is about, to open: a run, an approval, a budget policy.
                .col(uuid_null("subject_id"))
                .col(uuid_null("project_id"))
                .col(timestamp_with_time_zone_null("read_at"))
                .to_owned(),
            )
            .await?;
        manager
            .create_index(
                index("ux_notifications_dedupe", "notifications", &["user_id", "dedupe_key"]).unique().to_owned(),
            )
            .await?;
        manager.create_index(index("ix_notifications_user", "notifications", &["user_id", "id"])).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("notifications").to_owned()).await?;
        Ok(())
    }
}
