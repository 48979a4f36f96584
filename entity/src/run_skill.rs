//! A skill version a run was started with: frozen when the run starts, whatever is activated later.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "run_skills")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    pub run_id: Uuid,
    pub skill_id: Uuid,
    pub skill_version_id: Uuid,
    pub name: String,
    pub number: i32,
    /// The package's digest over its files, which the connector checks before the agent uses it.
    pub digest: String,
    pub archive_sha256: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
