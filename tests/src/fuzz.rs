//! Fuzz inputs for the parsers that face the network (the connector protocol's decoder, the
//! GraphQL WebSocket's messages): valid messages from a corpus kept in the repository, mutated
//! the ways a fuzzer would (bits flipped, bytes cut, inserted and repeated), and the ways that
//! reach further into a typed decoder (a value replaced by another of any JSON type, a key
//! removed, the document nested past any sane depth), plus bytes of no shape at all.
//!
//! Generated from a fixed seed, so a run is repeatable and its figures are the same each time;
//! `ACC_FUZZ_CASES` sets how many (the documented longer runs in docs/security.md). cargo fuzz
//! needs a nightly compiler, which this project's machines do not have; these run on stable,
//! without coverage guidance.

use std::path::Path;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

/// How many inputs a fuzz test tries: `ACC_FUZZ_CASES`, or `default`.
pub fn cases(default: usize) -> usize {
    std::env::var("ACC_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

/// Every file of a corpus directory, in name order.
pub fn corpus(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

#[derive(Debug, Clone)]
enum JsonMutation {
    /// The `n`th node (in document order, wrapping) becomes `value`.
    Replace(usize, Value),
    /// The `n`th object loses a key.
    RemoveKey(usize),
    /// The document, wrapped in this many arrays.
    Nest(usize),
}

#[derive(Debug, Clone)]
enum ByteMutation {
    FlipBit(usize, u8),
    Truncate(usize),
    Insert(usize, u8),
    Repeat(usize, usize),
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        ".{0,24}".prop_map(Value::String),
        (1usize..200_000).prop_map(|n| Value::String("x".repeat(n))),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            btree_map("[a-z_]{0,12}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn json_mutation() -> impl Strategy<Value = JsonMutation> {
    prop_oneof![
        4 => (any::<usize>(), json_value()).prop_map(|(n, v)| JsonMutation::Replace(n, v)),
        2 => any::<usize>().prop_map(JsonMutation::RemoveKey),
        1 => (100usize..5_000).prop_map(JsonMutation::Nest),
    ]
}

fn byte_mutation() -> impl Strategy<Value = ByteMutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| ByteMutation::FlipBit(at, bit)),
        any::<usize>().prop_map(ByteMutation::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| ByteMutation::Insert(at, byte)),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| ByteMutation::Repeat(at, len)),
    ]
}

/// The `n`th node of `value` in document order, counting around as many times as needed.
fn nth_node(value: &mut Value, n: usize) -> &mut Value {
    fn count(value: &Value) -> usize {
        1 + match value {
            Value::Array(items) => items.iter().map(count).sum(),
            Value::Object(map) => map.values().map(count).sum(),
            _ => 0,
        }
    }
    fn walk(value: &mut Value, n: usize) -> Result<&mut Value, usize> {
        if n == 0 {
            return Ok(value);
        }
        let mut left = n - 1;
        let children: Vec<&mut Value> = match value {
            Value::Array(items) => items.iter_mut().collect(),
            Value::Object(map) => map.values_mut().collect(),
            _ => Vec::new(),
        };
        for child in children {
            match walk(child, left) {
                Ok(found) => return Ok(found),
                Err(rest) => left = rest,
            }
        }
        Err(left)
    }
    let total = count(value);
    walk(value, n % total).unwrap_or_else(|_| unreachable!("n is below the node count"))
}

fn mutate_json(seed: &[u8], mutations: &[JsonMutation]) -> Vec<u8> {
    let Ok(mut document) = serde_json::from_slice::<Value>(seed) else { return seed.to_vec() };
    for mutation in mutations {
        match mutation {
            JsonMutation::Replace(n, value) => *nth_node(&mut document, *n) = value.clone(),
            JsonMutation::RemoveKey(n) => {
                if let Value::Object(map) = nth_node(&mut document, *n)
                    && let Some(key) = map.keys().nth(n % map.len().max(1)).cloned()
                {
                    map.remove(&key);
                }
            }
            JsonMutation::Nest(depth) => {
                let text = document.to_string();
                return format!("{}{text}{}", "[".repeat(*depth), "]".repeat(*depth)).into_bytes();
            }
        }
    }
    document.to_string().into_bytes()
}

fn mutate_bytes(mut bytes: Vec<u8>, mutations: &[ByteMutation]) -> Vec<u8> {
    for mutation in mutations {
        let len = bytes.len().max(1);
        match *mutation {
            ByteMutation::FlipBit(at, bit) => {
                if let Some(byte) = bytes.get_mut(at % len) {
                    *byte ^= 1 << bit;
                }
            }
            ByteMutation::Truncate(at) => bytes.truncate(at % len),
            ByteMutation::Insert(at, byte) => bytes.insert((at % len).min(bytes.len()), byte),
            ByteMutation::Repeat(at, n) => {
                let start = (at % len).min(bytes.len());
                let end = (start + n).min(bytes.len());
                let copy = bytes[start..end].to_vec();
                bytes.splice(end..end, copy);
            }
        }
    }
    bytes
}

/// `count` inputs from `corpus`, the same ones every run, made one at a time as they are taken:
/// most of them a corpus entry with a few JSON and byte mutations, some with JSON mutations alone
/// (valid JSON of the wrong shape), and some arbitrary bytes.
pub fn inputs(corpus: &[Vec<u8>], count: usize) -> impl Iterator<Item = Vec<u8>> {
    let corpus = corpus.to_vec();
    let seeds = corpus.len();
    let mutated = (0..seeds, vec(json_mutation(), 0..4), vec(byte_mutation(), 0..4))
        .prop_map(move |(seed, json, bytes)| mutate_bytes(mutate_json(&corpus[seed], &json), &bytes));
    let strategy = prop_oneof![8 => mutated, 1 => vec(any::<u8>(), 0..2048)];
    let config = Config { failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    (0..count).map(move |_| strategy.new_tree(&mut runner).expect("an input").current())
}
