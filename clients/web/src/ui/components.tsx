// Building blocks every page uses: errors with their code and correlation id, busy buttons and
// their confirmation, the online flag, times and durations, status badges, breadcrumbs, tables
// that become lists on a phone, and the tab's title.
import { useEffect, useId, useRef, useState, type ComponentProps, type ReactNode } from "react";
import type { CombinedError } from "urql";
import { describeError, type ErrorInfo } from "../api/errors";
import { Link } from "./router";
import { exactTime, formatDuration, relativeTime, useNow } from "./time";

export function ErrorBox({ error }: { error: CombinedError | null | undefined }) {
  if (!error) return null;
  return <Problems problems={describeError(error)} />;
}

/** Failures as the person reads them (ErrorBox), also of requests outside GraphQL: an upload's. */
export function Problems({ problems }: { problems: readonly ErrorInfo[] | null | undefined }) {
  if (!problems || problems.length === 0) return null;
  return (
    <div className="error" role="alert">
      {problems.map((e, i) => (
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
}: ComponentProps<"button"> & { busy?: boolean; write?: boolean }) {
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
        <Link href="/workspaces">Back to Workspaces</Link>
      </p>
    </section>
  );
}

/** Any path the app has no page for. */
export function NotFound({ path }: { path: string }) {
  usePageTitle("Page not found");
  return (
    <section className="stack" data-testid="not-found">
      <h1>Page not found</h1>
      <p className="muted">
        Nothing is at <code>{path}</code>: the link may be mistyped or out of date.
      </p>
      <p>
        <Link href="/workspaces">Back to Workspaces</Link>
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

/** A time as people say it ("3 min ago"), the exact time on hover. */
export function When({ at }: { at: string | null | undefined }) {
  const now = useNow();
  if (!at) return <span className="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={exactTime(date)}>
      {relativeTime(date, new Date(now))}
    </time>
  );
}

/** How long from `from` to `to`, counting every second while there is no `to` yet. */
export function Elapsed({ from, to }: { from: string; to: string | null }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (to) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [to]);
  const ms = (to ? Date.parse(to) : now) - Date.parse(from);
  return (
    <time className="elapsed" dateTime={`PT${Math.max(0, Math.floor(ms / 1000))}S`} data-ticking={!to}>
      {formatDuration(ms)}
    </time>
  );
}

/** A label without an outcome: a priority, a capability, a scope. */
export function Badge({ children, accent }: { children: ReactNode; accent?: boolean }) {
  return <span className={`badge${accent ? " accent" : ""}`}>{children}</span>;
}

export type Outcome = "success" | "failure" | "running" | "waiting" | "cancelled" | "neutral";

const OUTCOMES: Record<string, Outcome> = {
  // Runs and their attempts
  QUEUED: "waiting",
  DISPATCHING: "running",
  DISPATCHED: "running",
  RUNNING: "running",
  WAITING_APPROVAL: "waiting",
  CHECKPOINTING: "running",
  HANDOFF_READY: "running",
  HANDING_OFF: "running",
  HANDED_OFF: "neutral",
  BLOCKED: "waiting",
  CANCELLING: "cancelled",
  SUCCEEDED: "success",
  FAILED: "failure",
  CANCELLED: "cancelled",
  INTERRUPTED: "failure",
  STOPPED: "cancelled",
  REFUSED: "failure",
  UNDELIVERED: "failure",
  LAPSED: "failure",
  LOST: "failure",
  // Approvals
  PENDING: "waiting",
  APPROVED: "success",
  DENIED: "failure",
  EXPIRED: "cancelled",
  // Tasks
  IN_PROGRESS: "running",
  IN_REVIEW: "waiting",
  DONE: "success",
  // Memory: a version's verification, a conflict
  VERIFIED: "success",
  DISPUTED: "failure",
  RETRACTED: "cancelled",
  OPEN: "waiting",
  // Connectors, agents, sessions and people
  ONLINE: "success",
  OFFLINE: "waiting",
  REVOKED: "cancelled",
  ACTIVE: "success",
  DISABLED: "cancelled",
};

/** What a status means for the person looking at it, whatever kind of thing has it. */
export function outcome(status: string): Outcome {
  return OUTCOMES[status] ?? "neutral";
}

/** A status, coloured by its outcome; `children` when the words say more than the status. */
export function Status({ of, children }: { of: string; children?: ReactNode }) {
  const tone = outcome(of);
  return (
    <span className={`badge status ${tone}`} data-outcome={tone}>
      {children ?? humanize(of)}
    </span>
  );
}

export function humanize(value: string): string {
  return value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, " ");
}

export interface Crumb {
  label: string;
  /** Absent for what has no page of its own (a workspace), and for the page itself. */
  href?: string;
}

/** Where a page sits: Workspaces › workspace › project › task › run, the last one being here. */
export function Breadcrumbs({ trail }: { trail: Crumb[] }) {
  return (
    <nav className="crumbs" aria-label="Breadcrumb">
      <ol>
        {trail.map((crumb, i) => (
          <li key={i}>
            {i === trail.length - 1 ? (
              <span aria-current="page">{crumb.label}</span>
            ) : crumb.href ? (
              <Link href={crumb.href}>{crumb.label}</Link>
            ) : (
              crumb.label
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export const PRODUCT = "Agent Control Center";

/** The browser tab's title: the page, then what it belongs to ("Board · Website · …"). */
export function usePageTitle(...parts: (string | null | undefined)[]) {
  const title = [...parts.filter(Boolean), PRODUCT].join(" · ");
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/**
 * A button for what cannot be taken back: it asks first, in a modal dialog that names the
 * consequence, and does nothing unless the person confirms.
 */
export function Confirm({
  label,
  question,
  consequence,
  confirm,
  keep,
  busy,
  onConfirm,
}: {
  label: string;
  question: string;
  consequence: ReactNode;
  /** The confirming button's words, unlike `label` so a test or screen reader tells them apart. */
  confirm: string;
  keep: string;
  busy?: boolean;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useId();
  // Its words are in the page only while it is open, where they cannot be mistaken for the page's.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);
  const close = () => dialog.current?.close();
  return (
    <>
      <Action busy={busy} className="danger" onClick={() => setOpen(true)}>
        {label}
      </Action>
      {/* A layout class on the <dialog> itself would show it while closed. */}
      <dialog ref={dialog} className="confirm card" aria-labelledby={title} onClose={() => setOpen(false)}>
        {open && (
          <div className="stack">
            <h2 id={title}>{question}</h2>
            <p>{consequence}</p>
            {/* The safe choice comes first, so it has the focus when the dialog opens. */}
            <div className="inline">
              <button type="button" onClick={close}>
                {keep}
              </button>
              <button
                type="button"
                className="danger solid"
                onClick={() => {
                  close();
                  onConfirm();
                }}
              >
                {confirm}
              </button>
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}

export interface Column<T> {
  /** The column's heading, and on a phone each cell's label; empty for a column of actions. */
  head: string;
  cell: (row: T) => ReactNode;
}

/**
 * Rows of the same things: a table, and on a phone (styles.css) a list of cards, each cell
 * labelled with its column's heading, since a phone has no room for columns.
 */
export function Table<T>({
  columns,
  rows,
  rowKey,
  rowData,
}: {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** `data-` attributes for a row, by which tests and styles find it. */
  rowData?: (row: T) => Record<`data-${string}`, string>;
}) {
  return (
    <div className="table-wrap">
      <table className="listing">
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i}>{c.head || <span className="sr-only">Actions</span>}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowData?.(row)}>
              {columns.map((c, i) => (
                <td key={i} data-label={c.head || undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
