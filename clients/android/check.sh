#!/usr/bin/env bash
# What can be checked of the Android app without an Android SDK: the pinned Capacitor tools
# install, the configuration resolves as intended, and `cap add android` + `cap sync android`
# generate the native project with the web bundle copied in. Nothing here compiles an APK: that
# needs the Android SDK and Gradle's downloads (README.md).
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD

npm ci --no-audit --no-fund

echo "== Capacitor CLI version"
pinned=$(node -p 'require("./package.json").devDependencies["@capacitor/cli"]')
actual=$(npx cap --version)
[ "$actual" = "$pinned" ] || { echo "cap --version is $actual, package.json pins $pinned" >&2; exit 1; }
echo "$actual"

echo "== resolved configuration"
npx cap config --json | node -e '
  const app = JSON.parse(require("fs").readFileSync(0, "utf8")).app;
  const want = { appId: "dev.acc.android", webDir: "../web/dist" };
  for (const [key, value] of Object.entries(want))
    if (app[key] !== value) { console.error(`${key} is ${app[key]}, expected ${value}`); process.exit(1); }
  if (app.extConfig.server?.androidScheme !== "https") { console.error("server.androidScheme must be https"); process.exit(1); }
  console.log(`appId ${app.appId}, webDir ${app.webDir}`);
'

# In a scratch copy, so a developer's own android/ project is never touched and the check runs
# whether or not the web client has been built.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/web" "$tmp/android"
if [ -f ../web/dist/index.html ]; then
  ln -s "$here/../web/dist" "$tmp/web/dist"
else
  echo "note: clients/web/dist is not built; generating against a placeholder page"
  mkdir -p "$tmp/web/dist"
  echo '<!doctype html><title>placeholder</title>' >"$tmp/web/dist/index.html"
fi
cp package.json package-lock.json capacitor.config.json "$tmp/android/"
ln -s "$here/node_modules" "$tmp/android/node_modules"

echo "== cap add android, cap sync android (no SDK needed)"
(cd "$tmp/android" && npx cap add android && npx cap sync android)
project="$tmp/android/android"
cmp "$tmp/web/dist/index.html" "$project/app/src/main/assets/public/index.html"
grep -q 'applicationId "dev.acc.android"' "$project/app/build.gradle"
node -e '
  const c = require(process.argv[1]);
  if (c.appId !== "dev.acc.android") { console.error("generated config has appId " + c.appId); process.exit(1); }
' "$project/app/src/main/assets/capacitor.config.json"
echo "OK: configuration and native project generation check out (no APK was built: no Android SDK here)"
