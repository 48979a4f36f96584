//! Notifications beyond the app (SPEC §16): what each person wants by email, and each email owed,
//! kept until it is sent or given up on, so that a restart or an unreachable relay loses none.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000026_notification_delivery"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                owned_by(
                    &mut owned_by(&mut table("notification_preferences"), "organization_id", "organizations"),
                    "user_id",
                    "users",
                )
                // A person's choice for one kind on one channel; no row means the default.
                .col(string("kind"))
                .col(string("channel"))
                .col(boolean("enabled"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
            )
            .await?;
        manager
            .create_index(
                index("ux_notification_preferences", "notification_preferences", &["user_id", "kind", "channel"])
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(
                    &mut owned_by(&mut table("notification_deliveries"), "notification_id", "notifications"),
                    "user_id",
                    "users",
                )
                .col(string("channel"))
                .col(string("status"))
                .col(integer("attempts"))
                .col(timestamp_with_time_zone("next_attempt_at"))
                // A sender working on it until then; after, another may take it (it crashed).
                .col(timestamp_with_time_zone_null("claimed_until"))
                .col(string_null("last_error"))
                .col(timestamp_with_time_zone_null("sent_at"))
                .to_owned(),
            )
            .await?;
        manager
            .create_index(index(
                "ix_notification_deliveries_due",
                "notification_deliveries",
                &["status", "next_attempt_at"],
            ))
            .await?;
        manager
            .create_index(
                index("ux_notification_deliveries", "notification_deliveries", &["notification_id", "channel"])
                    .unique()
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("notification_deliveries").to_owned()).await?;
        manager.drop_table(Table::drop().table("notification_preferences").to_owned()).await?;
        Ok(())
    }
}
