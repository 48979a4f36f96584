// The built bundle is public: anyone who can load the page can read it. It must hold no
// credential of any kind — none of the server's own secrets, no provider key, no private key,
// no signed token — and no source map that would publish more than the bundle.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { webDir } from "./harness.mjs";

const dist = join(webDir, "dist");

export const CREDENTIALS = [
  // The server's secrets (identity::secrets::new_secret prefixes) followed by a value.
  ["ACC secret", /\bacc_(?:boot|conn|enroll|pat|rt)_[A-Za-z0-9_-]{8,}/],
  ["signed token (JWT)", /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\./],
  ["private key", /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/],
  ["Anthropic key", /\bsk-ant-[A-Za-z0-9_-]{16,}/],
  ["OpenAI key", /\bsk-(?:proj-)?[A-Za-z0-9]{32,}/],
  ["Google API key", /\bAIza[0-9A-Za-z_-]{35}\b/],
  ["AWS access key", /\bAKIA[0-9A-Z]{16}\b/],
  ["GitHub token", /\bgh[pousr]_[A-Za-z0-9]{36,}\b/],
  ["Slack token", /\bxox[abpr]-[A-Za-z0-9-]{10,}/],
  ["basic auth in a URL", /\b[a-z]+:\/\/[^/\s:@"']+:[^/\s:@"']+@/],
];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

test("the built bundle holds no credentials and no source maps", () => {
  const all = files(dist);
  assert.ok(all.some((f) => f.endsWith(".js")), `no built bundle in ${dist}: run npm run build first`);
  const findings = [];
  for (const file of all) {
    const name = relative(dist, file);
    if (name.endsWith(".map")) findings.push(`${name}: a source map`);
    if (/\.(png|ico|woff2?)$/.test(name)) continue;
    const text = readFileSync(file, "utf8");
    for (const [what, pattern] of CREDENTIALS) {
      const found = text.match(pattern);
      if (found) findings.push(`${name}: ${what} (${found[0].slice(0, 12)}…)`);
    }
  }
  assert.deepEqual(findings, []);
});

test("the scan finds what it looks for", () => {
  const samples = {
    "ACC secret": "acc_rt_AbCdEfGh12345678",
    "signed token (JWT)": "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiIxMjM0NSJ9.c2ln",
    "private key": "-----BEGIN PRIVATE KEY-----",
    "Anthropic key": "sk-ant-api03-abcdefghijklmnop",
    "AWS access key": "AKIAABCDEFGHIJKLMNOP",
    "basic auth in a URL": "postgres://acc:hunter2@db.internal/acc",
  };
  for (const [what, sample] of Object.entries(samples)) {
    const pattern = CREDENTIALS.find(([name]) => name === what)[1];
    assert.match(sample, pattern, what);
  }
});
