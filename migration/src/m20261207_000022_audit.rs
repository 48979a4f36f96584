//! The audit trail (SPEC §16): an append-only chain of events per organization, each carrying the
//! hash of the one before; the head of each chain; and checkpoints that sign a chain's hash at a
//! sequence with the server's audit key, so rewriting the chain up to a checkpoint is detected
//! even by someone who recomputes every hash.

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000022_audit"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                owned_by(&mut table("audit_events"), "organization_id", "organizations")
                    // 1, 2, 3… per organization, with no gap.
                    .col(big_integer("sequence"))
                    .col(string("actor_kind"))
                    .col(uuid_null("actor_id"))
                    .col(string("action"))
                    .col(string_null("target_kind"))
                    .col(uuid_null("target_id"))
                    // Where it happened, below the organization.
                    .col(uuid_null("workspace_id"))
                    .col(uuid_null("project_id"))
                    .col(string_null("correlation_id"))
                    .col(json("details"))
                    .col(string("previous_hash"))
                    .col(string("hash"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                index("ux_audit_events_sequence", "audit_events", &["organization_id", "sequence"]).unique().to_owned(),
            )
            .await?;
        manager.create_index(index("ix_audit_events_actor", "audit_events", &["organization_id", "actor_id"])).await?;
        manager
            .create_index(index("ix_audit_events_target", "audit_events", &["organization_id", "target_id"]))
            .await?;
        // One row per organization, locked by every append so the chain takes one event at a time.
        manager
            .create_table(
                Table::create()
                    .table("audit_heads")
                    .col(uuid("organization_id").primary_key())
                    .foreign_key(
                        ForeignKey::create()
                            .from_col("organization_id")
                            .to("organizations", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .col(big_integer("sequence"))
                    .col(string("hash"))
                    .col(big_integer("checkpointed_sequence"))
                    .col(timestamp_with_time_zone("checkpointed_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                owned_by(&mut table("audit_checkpoints"), "organization_id", "organizations")
                    .col(big_integer("sequence"))
                    .col(string("hash"))
                    .col(string("key_id"))
                    .col(string("signature"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                index("ux_audit_checkpoints_sequence", "audit_checkpoints", &["organization_id", "sequence"])
                    .unique()
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in ["audit_checkpoints", "audit_heads", "audit_events"] {
            manager.drop_table(Table::drop().table(name).to_owned()).await?;
        }
        Ok(())
    }
}
