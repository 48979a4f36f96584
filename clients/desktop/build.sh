#!/usr/bin/env bash
# Builds the desktop app on Debian or Ubuntu and checks it: installs the WebKitGTK packages when
# missing, builds the web bundle when it is missing, then `cargo build --release`, formatting,
# lints, the unit tests (one of them against a real Secret Service: gnome-keyring in a private
# D-Bus session), and a run of the binary's --help. Exits non-zero unless all of that succeeds.
#
#   ACC_WEB_DIST=/path/to/dist  embed that bundle instead of clients/web/dist (e.g. a placeholder)
#   CARGO_TARGET_DIR            defaults to ~/.cache/acc-desktop-target, outside the clone
set -euo pipefail
cd "$(dirname "$0")"

# libwebkit2gtk-4.1-dev brings GTK 3, libsoup 3, JavaScriptCore and libdbus headers with it.
# No tray icon, TLS library or SVG icons are used, so no appindicator, OpenSSL or librsvg.
# gnome-keyring and dbus-daemon only serve the keystore test.
packages=(pkg-config libwebkit2gtk-4.1-dev gnome-keyring dbus-daemon)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "== installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ -n "${ACC_WEB_DIST:-}" ]; then
  dist=$(realpath "$ACC_WEB_DIST")
  [ -f "$dist/index.html" ] || { echo "ACC_WEB_DIST=$ACC_WEB_DIST has no index.html" >&2; exit 1; }
  # Tauri merges this over tauri.conf.json at build time.
  export TAURI_CONFIG="{\"build\":{\"frontendDist\":\"$dist\"}}"
  echo "== embedding $dist"
elif [ ! -f ../web/dist/index.html ]; then
  if [ ! -f ../web/package.json ]; then
    echo "there is no web client in clients/web to embed; build it there first, or set ACC_WEB_DIST" >&2
    exit 1
  fi
  echo "== building the web bundle (clients/web)"
  (cd ../web && npm ci --no-audit --no-fund && npm run build)
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/acc-desktop-target}"
export CARGO_INCREMENTAL=0
echo "== cargo build --release"
cargo build --release --locked
echo "== cargo fmt --check"
cargo fmt --check
echo "== cargo clippy"
cargo clippy --release --locked --all-targets -- -D warnings
echo "== cargo test --release"
cargo test --release --locked
echo "== cargo test --release -- --ignored (the real keystore)"
# A throwaway keyring, unlocked with a throwaway password, so the user's own keyring is never touched.
keyrings=$(mktemp -d)
trap 'rm -rf "$keyrings"' EXIT
XDG_DATA_HOME="$keyrings" dbus-run-session -- bash -c \
  'printf throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null && cargo test --release --locked -- --ignored'
echo "== acc-desktop --help"
"$CARGO_TARGET_DIR/release/acc-desktop" --help
echo "OK: $CARGO_TARGET_DIR/release/acc-desktop"
