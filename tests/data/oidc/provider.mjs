// A real OpenID Connect provider for the sign-in tests: panva's oidc-provider (runtimes/npm-oidc),
// with a login form of its own instead of the development pages, so a test (or a browser) signs
// in with a password and no consent page.
//
// Configured by one JSON argument:
//   { "issuer": "http://127.0.0.1:PORT" (optional: by default this server's own address),
//     "clients": [{ "client_id", "client_secret", "redirect_uris": [...] }],
//     "accounts": { "<sub>": { "password", "email", "email_verified", "name" } } }
// It listens on an ephemeral loopback port and prints one line, {"port": N, "issuer": "..."}.
import { createServer } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';

const config = JSON.parse(process.argv[2] ?? '{}');
const accounts = config.accounts ?? {};

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
const issuer = config.issuer ?? `http://127.0.0.1:${port}`;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };

const provider = new Provider(issuer, {
  clients: (config.clients ?? []).map((client) => ({
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    ...client,
  })),
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false } },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  // Every client is trusted with what it asks for: no consent page.
  loadExistingGrant: async (ctx) => {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
  findAccount: async (_ctx, sub) => {
    const account = accounts[sub];
    if (!account) return undefined;
    return {
      accountId: sub,
      claims: async () => ({ sub, email: account.email, email_verified: account.email_verified, name: account.name }),
    };
  },
});
provider.proxy = false;

const form = (uid, message) => `<!doctype html>
<html><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>
${message ? `<p role="alert">${message}</p>` : ''}
<form method="post" action="/interaction/${uid}">
  <label>Account <input name="login" autocomplete="username"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  <button type="submit">Sign in</button>
</form></body></html>`;

async function readForm(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

async function interaction(req, res, uid) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(form(uid));
    return;
  }
  const fields = await readForm(req);
  const login = fields.get('login') ?? '';
  const account = accounts[login];
  if (!account || account.password !== fields.get('password')) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(form(uid, 'Wrong account or password'));
    return;
  }
  await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
}

const handle = provider.callback();
server.on('request', (req, res) => {
  const match = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec(req.url.split('?')[0]);
  if (!match) return handle(req, res);
  interaction(req, res, match[1]).catch((error) => {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
  });
});

console.log(JSON.stringify({ port, issuer }));
