//! A wiki namespace may be kept to named people: `acl` lists the users (of the organization) who,
//! besides the scope's administrators, may read and write it; none (null or empty) leaves it to
//! the scope's roles, as before.

use sea_orm_migration::{prelude::*, schema::*};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261207_000021_wiki_namespace_acl"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table("wiki_namespaces").add_column(json_null("acl")).to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table("wiki_namespaces").drop_column("acl").to_owned()).await
    }
}
