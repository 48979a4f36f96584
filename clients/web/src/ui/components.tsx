// Building blocks every page uses: errors with their code and correlation id, busy buttons,
// the online flag, and dates.
import { useEffect, useState, type ButtonHTMLAttributes, type ReactNode } from "react";
import type { CombinedError } from "urql";
import { describeError } from "../api/errors";

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

/** Where a page's data should be: the error, the offline cache's gap, or nothing there. */
export function Unavailable({ error, what }: { error: CombinedError | null | undefined; what: string }) {
  const online = useOnline();
  if (error && online) return <ErrorBox error={error} />;
  return (
    <p className="muted" role="status">
      {online ? `This ${what} does not exist, or you may not see it.` : `This ${what} is not in this device's offline copy yet.`}
    </p>
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
