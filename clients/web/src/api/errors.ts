// What the user sees of a failure: the server's message, its `extensions.code` and the
// correlation id to quote when reporting it (from the error, or the response header).
import type { CombinedError } from "urql";

export interface ErrorInfo {
  message: string;
  code: string | null;
  correlationId: string | null;
}

export const OFFLINE_CODE = "OFFLINE";

export function describeError(error: CombinedError): ErrorInfo[] {
  const header = headerCorrelationId(error.response);
  if (error.graphQLErrors.length > 0) {
    const all = error.graphQLErrors.map((e) => ({
      message: e.message,
      code: stringOrNull(e.extensions?.code),
      correlationId: stringOrNull(e.extensions?.correlationId) ?? header,
    }));
    // Fields of one request that fail for one reason (a page asking for a task and its runs by a
    // malformed id) say it once.
    return all.filter((e, i) => all.findIndex((f) => f.message === e.message && f.code === e.code) === i);
  }
  const network = error.networkError;
  const offline = network?.message === OFFLINE_MESSAGE;
  return [
    {
      message: offline ? OFFLINE_MESSAGE : `Cannot reach the server: ${network?.message ?? error.message}`,
      code: offline ? OFFLINE_CODE : "NETWORK",
      correlationId: header,
    },
  ];
}

export const OFFLINE_MESSAGE = "You are offline. Nothing was changed; try again when you are back online.";

function headerCorrelationId(response: unknown): string | null {
  if (response && typeof response === "object" && "headers" in response) {
    const headers = (response as Response).headers;
    return typeof headers?.get === "function" ? headers.get("x-correlation-id") : null;
  }
  return null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
