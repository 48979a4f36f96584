// A small history router: the server answers every unknown path with index.html, so paths are
// plain URLs that can be bookmarked and shared.
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

const NAVIGATE = "acc:navigate";

/** Goes to `path` (with its query, if any); `replace` leaves no entry to go back to. */
export function navigate(path: string, { replace = false } = {}) {
  const { pathname, search, hash } = window.location;
  if (path === pathname + search + hash) return;
  if (replace) window.history.replaceState(null, "", path);
  else window.history.pushState(null, "", path);
  window.dispatchEvent(new Event(NAVIGATE));
}

function onLocationChange(listener: () => void) {
  window.addEventListener("popstate", listener);
  window.addEventListener(NAVIGATE, listener);
  return () => {
    window.removeEventListener("popstate", listener);
    window.removeEventListener(NAVIGATE, listener);
  };
}

export function usePath(): string {
  return useSyncExternalStore(onLocationChange, () => window.location.pathname);
}

/** The address's query (`?approval=…`), for pages that it tells what to show first. */
export function useSearch(): string {
  return useSyncExternalStore(onLocationChange, () => window.location.search);
}

/** Matches `/runs/:id`-style patterns; returns the parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const parts = (p: string) => p.replace(/\/+$/, "").split("/");
  const want = parts(pattern);
  const have = parts(path);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={follow} {...rest} />;
}
