//! Web Push (SPEC §16): the browsers each person turned push notifications on in.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000027_push_subscriptions"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                owned_by(
                    &mut owned_by(&mut table("push_subscriptions"), "organization_id", "organizations"),
                    "user_id",
                    "users",
                )
                // One browser profile has one subscription, whoever signs in there last.
                .col(string("endpoint").unique_key())
                .col(string("p256dh"))
                .col(string("auth"))
                .to_owned(),
            )
            .await?;
        manager.create_index(index("ix_push_subscriptions_user", "push_subscriptions", &["user_id"])).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("push_subscriptions").to_owned()).await?;
        Ok(())
    }
}
