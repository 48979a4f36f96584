//! OpenID Connect sign-in (SPEC §5): who a provider's subject is here, and sign-ins under way.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000025_oidc"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                owned_by(
                    &mut owned_by(&mut table("user_identities"), "organization_id", "organizations"),
                    "user_id",
                    "users",
                )
                // A provider's subject is one person here, whatever their email becomes.
                .col(string("issuer"))
                .col(string("subject"))
                .col(string("email"))
                .col(timestamp_with_time_zone("last_sign_in_at"))
                .to_owned(),
            )
            .await?;
        manager
            .create_index(
                index("ux_user_identities_subject", "user_identities", &["issuer", "subject"]).unique().to_owned(),
            )
            .await?;
        manager.create_index(index("ix_user_identities_user", "user_identities", &["user_id"])).await?;
        manager
            .create_table(
                table("oidc_sign_ins")
                    // The hash of the secret the browser that began the sign-in keeps: only it can
                    // finish it. The PKCE verifier and the nonce are derived from that secret, so
                    // they are not stored either.
                    .col(string("flow_hash").unique_key())
                    .col(string("provider"))
                    .col(string("state"))
                    .col(string("redirect_uri"))
                    .col(timestamp_with_time_zone("expires_at"))
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table("oidc_sign_ins").to_owned()).await?;
        manager.drop_table(Table::drop().table("user_identities").to_owned()).await?;
        Ok(())
    }
}
