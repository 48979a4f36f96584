//! docs/protocol.md stays true: every JSON example in it decodes with the real decoder,
//! and every frame type has an example.

use std::collections::BTreeSet;

#[test]
fn every_example_in_the_protocol_doc_decodes() {
    let doc = include_str!("../../docs/protocol.md");
    let mut types = BTreeSet::new();
    let mut examples = 0;
    for block in doc.split("```json").skip(1) {
        let json = block.split("```").next().unwrap();
        let envelope = acc_protocol::decode(json.trim().as_bytes()).unwrap_or_else(|e| panic!("{e}:\n{json}"));
        let value = serde_json::to_value(&envelope.payload).unwrap();
        types.insert(value["type"].as_str().unwrap().to_owned());
        examples += 1;
    }
    assert!(examples >= 11, "{examples} examples");
    let expected: BTreeSet<String> = [
        "hello",
        "hello_ack",
        "heartbeat",
        "command",
        "command_ack",
        "event",
        "event_ack",
        "tool_call",
        "tool_result",
        "error",
    ]
    .map(String::from)
    .into();
    assert_eq!(types, expected);
}
