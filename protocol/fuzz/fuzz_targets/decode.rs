//! What the connector gateway and the connector read from the network: every frame is taken or
//! refused with a typed error, never a crash; a frame taken encodes and decodes again to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(envelope) = acc_protocol::decode(data) {
        let text = acc_protocol::encode(&envelope).expect("a decoded frame encodes");
        let again = acc_protocol::decode(text.as_bytes()).expect("an encoded frame decodes");
        assert_eq!(serde_json::to_value(&again).unwrap(), serde_json::to_value(&envelope).unwrap());
    }
});
