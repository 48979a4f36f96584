#!/usr/bin/env bash
# Instructions `acc` executes per full `tasks(first: 50)` page, counted by callgrind: the same
# count for the same binary and data whatever else the machine does, so a change to the page's
# CPU cost shows without timing noise. docs/benchmarks.md has the figures.
#
# Usage: first hold a seeded server with
#   ACC_BENCH_HOLD=1 ACC_BENCH_PEER=0 cargo bench -p acc-tests --bench tasks_page
# then, while it holds, in another shell:
#   bash tests/benches/page_instructions.sh /tmp/acc-bench-XXXX [requests]
# It copies that run's data dir, serves it from the release `acc` under valgrind on its own port,
# sends 20 page requests to warm up, then counts the instructions of the next `requests` (100).
set -euo pipefail

bench_dir="${1:?the directory of the held benchmark, /tmp/acc-bench-...}"
requests="${2:-100}"
acc="${CARGO_TARGET_DIR:-$HOME/.cache/acc-target}/release/acc"
port=47111
work="$(mktemp -d /tmp/acc-instructions-XXXX)"
cp -r "$bench_dir/data" "$work/data"

page="$bench_dir/page.lua"
body="$(sed -n 's/^wrk.body = \[==\[\(.*\)\]==\]$/\1/p' "$page")"
authorization="$(grep -o 'Bearer [^"]*' "$page")"

ACC_TOKENS__ACCESS_TOKEN_SECONDS=86400 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.%p" \
  "$acc" serve --data-dir "$work/data" --listen "127.0.0.1:$port" >"$work/acc.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/graphql" -H 'content-type: application/json' \
    -d '{"query":"{ __typename }"}' && break
  sleep 1
done

pages() {
  for _ in $(seq 1 "$1"); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/graphql" -H 'content-type: application/json' \
      -H "Authorization: $authorization" --data-binary "$body"
  done
}
pages 20
callgrind_control -z "$server" >/dev/null
pages "$requests"
callgrind_control -d "$server" >/dev/null
profile="$(ls "$work"/callgrind.*.1)"
total="$(callgrind_annotate "$profile" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1 }')"
per_page=$((total / requests))
echo "instructions for $requests pages: $total, $per_page per page; profile in $profile"
