#!/usr/bin/env bash
# The web client's checks, as CI runs them: install, generated code up to date, types, unit
# tests, build, credential scan of the bundle, then the browser tests against a real `acc` and
# `acc-connector` (built here with cargo if needed) in Debian's headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { echo "== web: $*"; }

if ! command -v chromium >/dev/null; then
  step "installing Chromium (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

step "npm ci"
npm ci --no-audit --no-fund --loglevel=error
step "generated GraphQL types match schema.graphql (npm run codegen regenerates them)"
npm run -s check:codegen >/dev/null
step "typecheck"
npm run -s typecheck
step "unit tests"
npm run -s test
step "build"
npm run -s build >/dev/null
step "no credentials in the bundle"
npm run -s scan:bundle

# The same binaries `cargo test --workspace` builds; a no-op when they are current.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(cd ../.. && pwd)/target}"
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
step "acc and acc-connector"
(cd ../.. && cargo build -q -p acc-api -p acc-connector)
step "browser tests (screenshots in clients/web/e2e/artifacts)"
npm run -s e2e
