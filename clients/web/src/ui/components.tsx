// Building blocks every page uses: errors with their code and correlation id, busy buttons,
// the online flag, and dates.
import { useEffect, useState, type ButtonHTMLAttributes, type ReactNode } from "react";
import type { CombinedError } from "urql";
import { describeError } from "../api/errors";
import { Link } from "./router";

export function ErrorBox({ error }: { error: CombinedError | null | undefined }) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      {describeError(error).map((e, i) => (
        <p key={i}>
          {e.message}
          <span className="error-meta">
            {e.code && (
              <>
                {" "}
                code <code data-testid="error-code">{e.code}</code>
              </>
            )}
            {e.correlationId && (
              <>
                {" "}
                · correlation id <code data-testid="correlation-id">{e.correlationId}</code>
              </>
            )}
          </span>
        </p>
      ))}
    </div>
  );
}

/** A button that shows progress while its operation runs and is disabled offline for writes. */
export function Action({
  busy,
  write = true,
  children,
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; write?: boolean }) {
  const online = useOnline();
  const offlineWrite = write && !online;
  return (
    <button
      {...rest}
      disabled={disabled || busy || offlineWrite}
      aria-busy={busy || undefined}
      title={offlineWrite ? "Unavailable offline" : rest.title}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

export function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/** Codes that mean the address names nothing this user can see: a wrong or stale link. */
const NOT_THERE = new Set(["NOT_FOUND", "VALIDATION", "FORBIDDEN"]);

/**
 * Where a page's data should be: nothing there (a mistyped or old link, with the server's reason
 * once), the offline cache's gap, or another error; always with a way back.
 */
export function Unavailable({ error, what }: { error: CombinedError | null | undefined; what: string }) {
  const online = useOnline();
  const notThere = !error || describeError(error).every((e) => e.code !== null && NOT_THERE.has(e.code));
  return (
    <section className="stack" data-testid="unavailable">
      <h1>{online && notThere ? `No such ${what}` : `This ${what} cannot be shown`}</h1>
      {!online ? (
        <p className="muted">This {what} is not in this device's offline copy yet.</p>
      ) : notThere ? (
        <p className="muted">It does not exist, or you may not see it: the link may be mistyped or out of date.</p>
      ) : null}
      {online && <ErrorBox error={error} />}
      <p>
        <Link href="/">Back to Workspaces</Link>
      </p>
    </section>
  );
}

/** Any path the app has no page for. */
export function NotFound({ path }: { path: string }) {
  return (
    <section className="stack" data-testid="not-found">
      <h1>Page not found</h1>
      <p className="muted">
        Nothing is at <code>{path}</code>: the link may be mistyped or out of date.
      </p>
      <p>
        <Link href="/">Back to Workspaces</Link>
      </p>
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      <span className="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  const date = new Date(at);
  return <time dateTime={at} title={date.toISOString()}>{date.toLocaleString()}</time>;
}

export function Badge({ children, tone }: { children: ReactNode; tone?: string }) {
  return <span className={`badge ${tone ?? ""}`}>{children}</span>;
}

export function statusTone(status: string): string {
  switch (status) {
    case "SUCCEEDED":
    case "DONE":
    case "APPROVED":
      return "ok";
    case "FAILED":
    case "DENIED":
    case "CANCELLED":
    case "INTERRUPTED":
    case "EXPIRED":
      return "bad";
    case "WAITING_APPROVAL":
    case "PENDING":
    case "BLOCKED":
      return "warn";
    default:
      return "info";
  }
}

export function humanize(value: string): string {
  return value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, " ");
}
