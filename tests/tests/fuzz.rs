//! The parsers that face the network, fed mutated and arbitrary input (docs/security.md, "Fuzzing"):
//! the connector protocol's decoder, and the GraphQL WebSocket of a real `acc`. Nothing may
//! crash; every input is taken or refused with the protocol's error. The inputs come from the
//! corpora in `protocol/fuzz-corpus` and `tests/data/fuzz/graphql-ws`, from a fixed seed;
//! `ACC_FUZZ_CASES` runs more of them.

use std::panic::AssertUnwindSafe;
use std::path::Path;

use acc_tests::fuzz;
use acc_tests::{Server, TestDb};

fn repository(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

#[test]
fn the_protocol_decoder_takes_or_refuses_every_frame_and_never_crashes() {
    let corpus = fuzz::corpus(&repository("protocol/fuzz-corpus"));
    let (mut taken, mut refused) = (0, 0);
    for input in fuzz::inputs(&corpus, fuzz::cases(10_000)) {
        let decoded = std::panic::catch_unwind(AssertUnwindSafe(|| acc_protocol::decode(&input)));
        let decoded =
            decoded.unwrap_or_else(|_| panic!("the decoder crashed on {:?}", String::from_utf8_lossy(&input)));
        match decoded {
            // What it takes, it writes back as it read it.
            Ok(envelope) => {
                let text = acc_protocol::encode(&envelope).expect("a decoded frame encodes");
                let again = acc_protocol::decode(text.as_bytes()).expect("an encoded frame decodes");
                assert_eq!(serde_json::to_value(&again).unwrap(), serde_json::to_value(&envelope).unwrap());
                taken += 1;
            }
            Err(_) => refused += 1,
        }
    }
    eprintln!("protocol decoder: {} attempted, {taken} taken, {refused} refused, 0 crashed", taken + refused);
    assert!(taken > 0 && refused > 0, "the inputs reach both sides: {taken} taken, {refused} refused");
}

/// Close codes the GraphQL WebSocket refuses a message with: 4400 a malformed message, 4409 an
/// id in use, 4429 a second `connection_init` or too many operations, 1009 a message too big,
/// 1007 text that is not UTF-8.
const REFUSALS: [&str; 5] = ["closed 4400", "closed 4409", "closed 4429", "closed 1009", "closed 1007"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_graphql_websocket_takes_or_refuses_every_message_and_never_crashes() {
    let server = Server::start(TestDb::sqlite()).await;
    let owner = server.owner().await;
    let corpus = fuzz::corpus(&repository("tests/data/fuzz/graphql-ws"));
    let (mut answered, mut errors, mut closed) = (0, 0, 0);
    let mut socket = owner.socket().await.expect("a socket");
    for input in fuzz::inputs(&corpus, fuzz::cases(600)) {
        let text = String::from_utf8_lossy(&input).into_owned();
        let sent = socket.send_text(text.clone()).await;
        // The server answers a ping after it handled what came before: alive, and this socket too.
        let mut outcome = match sent {
            Ok(()) => socket.listening().await,
            Err(e) => Err(e),
        };
        // Closed before the ping went out: the close frame is there to read.
        if outcome.as_ref().is_err_and(|why| !why.starts_with("closed")) {
            outcome = socket.message().await.map(|_| ());
        }
        match outcome {
            Ok(()) => {
                answered += 1;
                errors += socket.take_pending().iter().filter(|m| m["type"] == "error").count();
            }
            Err(why) if REFUSALS.iter().any(|code| why.starts_with(code)) => {
                closed += 1;
                socket = owner.socket().await.expect("the server still takes sockets");
            }
            Err(why) => panic!("`{why}` after {text:?}"),
        }
    }
    eprintln!(
        "graphql-ws: {} attempted, {answered} handled ({errors} answered with an error), {closed} refused with a close code, 0 crashed",
        answered + closed
    );
    assert!(answered > 0 && closed > 0, "the inputs reach both sides");
    // Still serving, as before.
    owner.gql("{ viewer { email } }", serde_json::json!({})).await.data("viewer");
}
