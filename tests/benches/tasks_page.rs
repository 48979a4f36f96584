//! Benchmark: a page of 50 tasks over HTTP against the raw sea-orm query loop.
fn main() {}
