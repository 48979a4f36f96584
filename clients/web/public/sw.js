// Service worker: keeps the app shell (index.html and the hashed assets it loads) so the app
// opens without a network. API traffic is never cached here: the GraphQL cache in IndexedDB
// holds the data, and writes must reach the server or fail visibly.
const SHELL = "acc-shell-v1";

// The shell and the hashed assets index.html names, so the first offline start works too.
async function cacheShell() {
  const cache = await caches.open(SHELL);
  const index = await fetch("/", { cache: "no-cache" });
  const html = await index.clone().text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  await cache.put("/", index);
  await cache.addAll(["/manifest.webmanifest", "/icon.svg", "/icon-192.png", "/icon-512.png", ...assets]);
}

self.addEventListener("install", (event) => {
  event.waitUntil(cacheShell());
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const isApi = (url) => url.pathname.startsWith("/graphql") || url.pathname.startsWith("/v1/") || /^\/(healthz|readyz)$/.test(url.pathname);

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || isApi(url)) return;
  if (event.request.mode === "navigate") {
    // Pages: the network first, so a new release shows at once; the cached shell offline.
    event.respondWith(
      fetch(event.request)
        .then((response) => {
          const copy = response.clone();
          void caches.open(SHELL).then((cache) => cache.put("/", copy));
          return response;
        })
        .catch(() => caches.match("/")),
    );
    return;
  }
  // Hashed assets never change under one name: the cache first, filled on first use.
  event.respondWith(
    caches.match(event.request).then(
      (cached) =>
        cached ??
        fetch(event.request).then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(SHELL).then((cache) => cache.put(event.request, copy));
          }
          return response;
        }),
    ),
  );
});

/**
 * A tap on a notification, or on one of its actions ("approve", "deny"): the app shows the
 * page its data names for that action (notices.ts), else its own page. An approval is never
 * decided here: the page named shows the request with the decision chosen, for one confirming
 * tap (docs/clients.md). An open window of the app goes there itself, without loading the app
 * again (its access token lives only in its memory); without one, a new window opens there.
 */
async function openFromNotification(notification, action) {
  notification.close();
  const data = notification.data ?? {};
  const href = data.actions?.[action] ?? data.href ?? "/";
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(href);
  open.postMessage({ type: "acc:open", href });
  return open.focus();
}

self.addEventListener("notificationclick", (event) => event.waitUntil(openFromNotification(event.notification, event.action)));

/**
 * A push message from the server (docs/notifications.md): a system notification that opens what
 * it is about when tapped, as the page's own do. What it says is the server's, read as text; it
 * never decides anything.
 */
self.addEventListener("push", (event) => {
  let message;
  try {
    message = event.data?.json();
  } catch {
    return;
  }
  if (!message || typeof message.title !== "string") return;
  const href = typeof message.href === "string" && /^\/(?!\/)/.test(message.href) ? message.href : "/";
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: typeof message.body === "string" ? message.body : "",
      tag: `push:${message.id ?? href}`,
      data: { href },
      actions: [{ action: "open", title: "Open" }],
    }),
  );
});
