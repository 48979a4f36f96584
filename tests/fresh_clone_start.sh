#!/usr/bin/env bash
# A newcomer's first minute, as CI runs it: clone the repository afresh, run the start command
# exactly as README.md's "Start it" gives it, and find the web client at / and GraphiQL at
# /graphql (as a browser asks for them), both under the browser defences, and the connector
# endpoint in the banner. Then stop the server.
#
# The clone lives at a fixed place under CARGO_TARGET_DIR and builds into that target dir, so a
# later run rebuilds only the clone's own crates and the web client, not every dependency.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/acc-target}"
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

fail() {
  echo "fresh clone: $*" >&2
  exit 1
}

# The README's command: the first line of the first sh block under "## Start it".
command=$(awk '/^## Start it/ { section = 1 } section && /^```sh/ { getline; print; exit }' "$repo/README.md")
[[ "$command" == "cargo run "* ]] || fail "README.md's \"Start it\" has no cargo run command (found: $command)"

work="$CARGO_TARGET_DIR/fresh-clone"
mkdir -p "$CARGO_TARGET_DIR"
exec 9>"$work.lock"
flock 9
rm -rf "$work"
mkdir -p "$work"
git clone --quiet "$repo" "$work/acc"
cd "$work/acc"
echo "== fresh clone of $(git rev-parse --short HEAD): $command"

# Port 0 (8080 may be taken on this machine) through the environment, so the command itself is
# exactly the README's. A session of its own, so that stopping it stops cargo and acc together.
ACC_LISTEN=127.0.0.1:0 setsid bash -c "exec $command" >"$work/banner" 2>"$work/log" </dev/null &
server=$!
stop() {
  kill -TERM -- "-$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  # The clone's own crates were built under the same names as the checkout's, with the clone's
  # files as their sources: left there, a release build in the checkout would take them as
  # current however its files changed. Dependencies stay shared.
  (cd "$work/acc" && cargo clean -q --release -p acc-entity -p acc-migration -p acc-protocol -p acc-api -p acc-connector) || true
}
trap stop EXIT

started=$SECONDS
# A cold release build takes many minutes; the banner's last fixed line is the web client's.
until grep -q '^Web client:' "$work/banner"; do
  kill -0 "$server" 2>/dev/null || { tail -n 40 "$work/log" >&2; fail "the command ended before printing its banner"; }
  ((SECONDS - started < 3600)) || fail "no banner after an hour"
  sleep 2
done
echo "== banner after $((SECONDS - started)) s:"
cat "$work/banner"

base=$(sed -n 's/^Agent Control Center .* on \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$work/banner")
[ -n "$base" ] || fail "the banner names no http://127.0.0.1 address"
grep -qx "Connectors: ws://${base#http://}/v1/connectors/ws" "$work/banner" || fail "the banner does not name the connector endpoint"
grep -qx "Web client: $base/ (built in)" "$work/banner" || fail "the web client is not built in (is Node.js 20.19+ with npm installed?)"

# What a browser gets for a page: 200, the page, and the defences in its headers.
page() {
  local path=$1 expected=$2
  curl -sS --fail-with-body -H 'Accept: text/html' -D "$work/headers" -o "$work/body" "$base$path" || fail "GET $path failed"
  grep -q "$expected" "$work/body" || fail "GET $path is not the page (no $expected): $(head -c 300 "$work/body")"
  local header
  for header in \
    "content-security-policy: default-src 'self'; script-src 'self'; style-src 'self';" \
    "frame-ancestors 'none'" \
    "x-frame-options: DENY" \
    "x-content-type-options: nosniff" \
    "referrer-policy: no-referrer"; do
    grep -qiF "$header" "$work/headers" || fail "GET $path lacks \"$header\": $(cat "$work/headers")"
  done
  echo "ok: $path"
}
page / '<div id="root">'
script=$(sed -n 's/.*<script type="module" crossorigin src="\([^"]*\)".*/\1/p' "$work/body" | head -n 1)
[ -n "$script" ] || fail "the page names no script"
curl -sS --fail -o /dev/null -w '%{content_type}\n' "$base$script" | grep -q '^text/javascript' || fail "$script is not served as a script"
page /approvals '<div id="root">'
page /graphql '<div id="graphiql">'
grep -q "https://" "$work/body" && fail "GraphiQL's page names another site: $(cat "$work/body")"
echo "OK: a fresh clone's \"$command\" serves the web client and GraphiQL ($((SECONDS - started)) s)"
