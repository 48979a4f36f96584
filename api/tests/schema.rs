//! `schema.graphql` at the root is exactly what `acc schema` prints from the code.

use std::process::Command;

#[test]
fn checked_in_schema_matches_the_code() {
    let output = Command::new(env!("CARGO_BIN_EXE_acc")).arg("schema").output().unwrap();
    assert!(output.status.success());
    let generated = String::from_utf8(output.stdout).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../schema.graphql");
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        generated == checked_in,
        "schema.graphql is out of date with the code; regenerate it with:\n\n    cargo run -q -p acc-api -- schema > schema.graphql\n"
    );
    for operation in ["createTask", "taskEvents", "effectiveSettings", "node(id: ID!): Node!"] {
        assert!(generated.contains(operation), "the schema lacks {operation}");
    }
}
