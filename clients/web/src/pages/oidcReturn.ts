// The return from an identity provider: what it sent back, and the flow secret this tab kept when
// it sent the person there. The secret lives in the tab's session storage, so only the tab that
// began a sign-in can finish it, and a link with someone else's code signs nobody in.

export const OIDC_RETURN_PATH = "/sign-in/oidc";
const FLOW_KEY = "acc.oidcFlow";

export function keepOidcFlow(flow: string) {
  sessionStorage.setItem(FLOW_KEY, flow);
}

/** The kept secret, removed: a sign-in is finished once. */
export function takeOidcFlow(): string | null {
  const flow = sessionStorage.getItem(FLOW_KEY);
  sessionStorage.removeItem(FLOW_KEY);
  return flow;
}

export function forgetOidcFlow() {
  sessionStorage.removeItem(FLOW_KEY);
}

export type OidcReturn =
  | { kind: "callback"; callback: { flow: string; code: string; state: string; issuer: string | null } }
  | { kind: "refused"; reason: string };

/** Reads the provider's answer (`?code=…&state=…&iss=…`, or `?error=…`) for the kept `flow`. */
export function oidcReturn(search: string, flow: string | null): OidcReturn {
  const params = new URLSearchParams(search);
  const error = params.get("error");
  if (error) {
    const description = params.get("error_description");
    return { kind: "refused", reason: `The identity provider said: ${description ?? error}` };
  }
  const code = params.get("code");
  const state = params.get("state");
  if (!code || !state) return { kind: "refused", reason: "The identity provider sent no answer to finish with." };
  if (!flow) {
    return { kind: "refused", reason: "This sign-in was not begun in this tab, or it has finished already. Start again." };
  }
  return { kind: "callback", callback: { flow, code, state, issuer: params.get("iss") } };
}
