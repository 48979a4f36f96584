#!/usr/bin/env bash
# Starts the app for real, under a virtual display, with a probe page embedded in place of the web
# client (smoke/page), pointed at a stand-in server (smoke/server.py) that judges what the page
# reports: the page's origin, the credential commands through a real Secret Service (gnome-keyring
# in a private D-Bus session), that core commands are refused, and that requests to a server
# without CORS headers fail. Leaves the binary embedding the probe page: build.sh puts the web
# client back.
set -euo pipefail
cd "$(dirname "$0")"

ACC_WEB_DIST="$PWD/smoke/page" bash build.sh

missing=()
for package in xvfb xauth; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

bin="${CARGO_TARGET_DIR:-$HOME/.cache/acc-desktop-target}/release/acc-desktop"
scratch=$(mktemp -d)
trap 'touch "$scratch/stop"; wait; rm -rf "$scratch"' EXIT

echo "== smoke test: the app with the probe page"
python3 smoke/server.py "$scratch/port" 90 &
server=$!
for _ in $(seq 1 50); do [ -s "$scratch/port" ] && break; sleep 0.1; done
# The app runs until the server has its verdict; a throwaway keyring in a temporary XDG_DATA_HOME.
XDG_DATA_HOME="$scratch" xvfb-run -a dbus-run-session -- bash -c '
  printf throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  "$0" --server "$1" 2>"$2/app.log" &
  app=$!
  while [ ! -e "$2/stop" ] && kill -0 "$app" 2>/dev/null; do sleep 0.5; done
  kill "$app" 2>/dev/null || true
  wait "$app" || true
' "$bin" "http://127.0.0.1:$(cat "$scratch/port")" "$scratch" 2>"$scratch/session.log" &
if wait "$server"; then
  echo "OK: the app passed its smoke test"
else
  echo "the smoke test failed; the app's log, then the session's:" >&2
  cat "$scratch/app.log" "$scratch/session.log" >&2
  exit 1
fi
