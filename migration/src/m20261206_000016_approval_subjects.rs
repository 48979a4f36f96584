//! Approvals of more than a run's actions (SPEC §5.5): publishing a wiki revision into an
//! authoritative namespace is decided the same way, in the same inbox. An approval now names its
//! subject, its workspace (its scope is its project, else its workspace, else the organization)
//! and the person who asked for it;
//! the run, attempt and request an agent's action is bound to are there only for that subject.
//! SQLite cannot drop a NOT NULL, so the table is rebuilt (on both databases, one path).

use sea_orm_migration::{prelude::*, schema::*};

use crate::tables::{index, mutable_table, owned_by};

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m20261206_000016_approval_subjects"
    }
}

/// What both shapes share, after the owners.
fn decision_columns(stmt: &mut TableCreateStatement) -> TableCreateStatement {
    stmt.col(text("action"))
        .col(text_null("reason"))
        .col(json("details"))
        .col(string("status"))
        .col(timestamp_with_time_zone("expires_at"))
        .col(uuid_null("decided_by"))
        .col(timestamp_with_time_zone_null("decided_at"))
        .col(text_null("decision_reason"))
        .to_owned()
}

fn optional_owner(stmt: &mut TableCreateStatement, column: &'static str, parent: &'static str) -> TableCreateStatement {
    stmt.col(uuid_null(column))
        .foreign_key(ForeignKey::create().from_col(column).to(parent, "id").on_delete(ForeignKeyAction::Cascade))
        .to_owned()
}

fn with_subjects(name: &'static str) -> TableCreateStatement {
    let mut stmt = owned_by(&mut mutable_table(name), "organization_id", "organizations");
    let mut stmt = optional_owner(&mut stmt, "workspace_id", "workspaces");
    let mut stmt = optional_owner(&mut stmt, "project_id", "projects");
    let mut stmt = stmt.col(string("subject").default("run_action")).to_owned();
    let mut stmt = optional_owner(&mut stmt, "run_id", "task_runs");
    let mut stmt = stmt.col(uuid_null("attempt_id")).col(string_null("request_id")).to_owned();
    let mut stmt = optional_owner(&mut stmt, "wiki_revision_id", "wiki_revisions");
    decision_columns(stmt.col(uuid_null("requested_by_user_id")))
}

/// The shape before: every approval an agent's, bound to its run.
fn run_bound(name: &'static str) -> TableCreateStatement {
    let mut stmt = owned_by(
        &mut owned_by(
            &mut owned_by(&mut mutable_table(name), "organization_id", "organizations"),
            "project_id",
            "projects",
        ),
        "run_id",
        "task_runs",
    );
    decision_columns(stmt.col(uuid("attempt_id")).col(string("request_id")))
}

const DECISION: &str = "action, reason, details, status, expires_at, decided_by, decided_at, decision_reason";
const ROW: &str = "id, created_at, revision, updated_at, organization_id";

/// Replaces `approvals` by `next`, filled by `copy`, as one script on one connection: another
/// connection of a pool could still hold the schema from before the drop, and SQLite checks a
/// rename's new name against the schema it holds.
async fn replace(
    manager: &SchemaManager<'_>,
    next: TableCreateStatement,
    copy: String,
    extra: &[IndexCreateStatement],
) -> Result<(), DbErr> {
    let backend = manager.get_database_backend();
    let mut script = vec![backend.build(&next).to_string(), copy];
    script.push("DROP TABLE approvals".to_owned());
    script.push("ALTER TABLE approvals_next RENAME TO approvals".to_owned());
    let indexes = [
        index("ux_approvals_request", "approvals", &["run_id", "request_id"]).unique().to_owned(),
        index("ix_approvals_inbox", "approvals", &["organization_id", "status", "id"]),
        index("ix_approvals_expiry", "approvals", &["status", "expires_at"]),
    ];
    script.extend(indexes.iter().chain(extra).map(|stmt| backend.build(stmt).to_string()));
    manager.get_connection().execute_unprepared(&script.join(";\n")).await.map(drop)
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let copy = format!(
            "INSERT INTO approvals_next ({ROW}, workspace_id, project_id, subject, run_id, attempt_id, request_id, \
             {DECISION}) SELECT a.id, a.created_at, a.revision, a.updated_at, a.organization_id, p.workspace_id, \
             a.project_id, 'run_action', a.run_id, a.attempt_id, a.request_id, a.action, a.reason, a.details, \
             a.status, a.expires_at, a.decided_by, a.decided_at, a.decision_reason \
             FROM approvals a JOIN projects p ON p.id = a.project_id"
        );
        // A revision's reviews, when it is published or saved over.
        let reviews = index("ix_approvals_wiki_revision", "approvals", &["wiki_revision_id", "status"]);
        replace(manager, with_subjects("approvals_next"), copy, &[reviews]).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Approvals of anything but a run's action had no place before; they go.
        let copy = format!(
            "INSERT INTO approvals_next ({ROW}, project_id, run_id, attempt_id, request_id, {DECISION}) \
             SELECT {ROW}, project_id, run_id, attempt_id, request_id, {DECISION} \
             FROM approvals WHERE subject = 'run_action'"
        );
        replace(manager, run_bound("approvals_next"), copy, &[]).await
    }
}
