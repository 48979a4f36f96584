//! Building blocks the migrations share: id and timestamp columns, owned foreign keys, indexes.
//!
//! Part of the frozen history like the migrations themselves: change them only by adding new ones.

use sea_orm_migration::{prelude::*, schema::*};

/// A table with a UUIDv7 primary key and a server-set creation time.
pub fn table(name: &'static str) -> TableCreateStatement {
    Table::create().table(name).col(uuid("id").primary_key()).col(timestamp_with_time_zone("created_at")).to_owned()
}

/// A mutable row: it also carries its revision and last write time.
pub fn mutable_table(name: &'static str) -> TableCreateStatement {
    table(name).col(big_integer("revision")).col(timestamp_with_time_zone("updated_at")).to_owned()
}

pub fn owned_by(stmt: &mut TableCreateStatement, column: &'static str, parent: &'static str) -> TableCreateStatement {
    stmt.col(uuid(column))
        .foreign_key(ForeignKey::create().from_col(column).to(parent, "id").on_delete(ForeignKeyAction::Cascade))
        .to_owned()
}

pub fn index(name: &'static str, table: &'static str, cols: &[&'static str]) -> IndexCreateStatement {
    let mut stmt = Index::create().name(name).table(table).to_owned();
    for col in cols {
        stmt.col(*col);
    }
    stmt
}
