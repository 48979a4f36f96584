#!/usr/bin/env bash
# The app with the real web client against a real `acc serve` (e2e.mjs): signs in through the
# app's page, then starts the app again and finds it still signed in — the refresh token lives
# only in the OS keystore. Driven by tauri-driver over WebKitWebDriver, under a virtual display,
# in a private D-Bus session with a throwaway keyring. Installs what it needs: the Debian packages
# webkit2gtk-driver, xvfb and xauth, and tauri-driver (cargo install, into ~/.cache/acc-tools).
#
#   CARGO_TARGET_DIR  as for build.sh; `acc` is built (debug) from the root workspace into the
#                     same directory the web client's browser tests read it from
set -euo pipefail
cd "$(dirname "$0")"

bash build.sh

missing=()
for package in webkit2gtk-driver xvfb xauth; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
tools="$HOME/.cache/acc-tools"
[ -x "$tools/bin/tauri-driver" ] || cargo install tauri-driver --version 2.1.0 --locked --root "$tools"

echo "== acc (debug)"
(cd ../.. && CARGO_INCREMENTAL=0 cargo build -q -p acc-api)

app="${CARGO_TARGET_DIR:-$HOME/.cache/acc-desktop-target}/release/acc-desktop"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "== the app with the web client, against acc serve"
XDG_DATA_HOME="$scratch" xvfb-run -a dbus-run-session -- bash -c '
  printf throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  "$0" --port 4445 --native-port 4446 >"$2/tauri-driver.log" 2>&1 &
  driver=$!
  trap "kill $driver" EXIT
  for _ in $(seq 1 50); do (exec 3<>/dev/tcp/127.0.0.1/4445) 2>/dev/null && break; sleep 0.1; done
  node e2e.mjs "$1" http://127.0.0.1:4445
' "$tools/bin/tauri-driver" "$app" "$scratch"
echo "OK: the app signed in against acc serve and kept its session in the keystore"
