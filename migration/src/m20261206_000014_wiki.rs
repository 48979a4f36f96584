//! The wiki (SPEC §12, issue 15): namespaces of a workspace or project, pages in them, each page's
//! immutable revisions, the `[[links]]` of each page's latest revision (for backlinks), and the
//! paths a renamed page was known by (so links to them still arrive).

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by, table};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261206_000014_wiki"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let org = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "organization_id", "organizations");
        let of_workspace = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "workspace_id", "workspaces");
        let of_namespace = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "namespace_id", "wiki_namespaces");
        let of_page = |mut stmt: TableCreateStatement| owned_by(&mut stmt, "page_id", "wiki_pages");
        manager
            .create_table(
                of_workspace(org(table("wiki_namespaces")))
                    .col(uuid_null("project_id"))
                    .foreign_key(
                        ForeignKey::create()
                            .from_col("project_id")
                            .to("projects", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    // The project's id, or the workspace's for a namespace of the workspace itself.
                    .col(uuid("scope_id"))
                    .col(string("name"))
                    .col(boolean("authoritative"))
                    .col(uuid_null("created_by_user_id"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                of_namespace(org(mutable_table("wiki_pages")))
                    .col(uuid("workspace_id"))
                    .col(uuid_null("project_id"))
                    .col(string("path"))
                    .col(string("title"))
                    .col(uuid_null("latest_revision_id"))
                    .col(big_integer_null("published_revision"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                of_page(org(table("wiki_revisions")))
                    .col(integer("number"))
                    .col(string("path"))
                    .col(string("title"))
                    .col(text("source"))
                    .col(string("sha256"))
                    .col(json("provenance"))
                    .col(uuid_null("created_by_user_id"))
                    .col(uuid_null("run_id"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                of_page(table("wiki_links"))
                    .col(uuid("namespace_id"))
                    // The normalized path the link names; the page there, if any, is looked up when read.
                    .col(string("target_path"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(of_page(table("wiki_aliases")).col(uuid("namespace_id")).col(string("path")).to_owned())
            .await?;
        for stmt in [
            index("ux_wiki_namespaces_name", "wiki_namespaces", &["scope_id", "name"]).unique().to_owned(),
            index("ix_wiki_namespaces_workspace", "wiki_namespaces", &["workspace_id"]),
            index("ux_wiki_pages_path", "wiki_pages", &["namespace_id", "path"]).unique().to_owned(),
            index("ux_wiki_revisions_number", "wiki_revisions", &["page_id", "number"]).unique().to_owned(),
            index("ix_wiki_links_target", "wiki_links", &["namespace_id", "target_path"]),
            index("ix_wiki_links_page", "wiki_links", &["page_id"]),
            index("ux_wiki_aliases_path", "wiki_aliases", &["namespace_id", "path"]).unique().to_owned(),
            index("ix_wiki_aliases_page", "wiki_aliases", &["page_id"]),
        ] {
            manager.create_index(stmt).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["wiki_aliases", "wiki_links", "wiki_revisions", "wiki_pages", "wiki_namespaces"] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
