// In-app notifications: a pending approval anywhere, or a run of the project in view reaching
// its end, shows a toast (and a system notification while the page is hidden, if allowed; an
// approval's has actions, notices.ts). A decided approval's notification is withdrawn.
import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useSubscription } from "urql";
import { graphql } from "./gql";
import { PRODUCT, humanize } from "./ui/components";
import { approvalNotice, approvalTag, type Notice } from "./notices";
import { Link } from "./ui/router";
import { TERMINAL } from "./pages/runState";

const ApprovalNoticeSubscription = graphql(`
  subscription ApprovalNotices {
    approvalUpdated {
      ...ApprovalItem
    }
  }
`);

const RunNoticeSubscription = graphql(`
  subscription RunNotices($projectId: ID!) {
    runUpdated(projectId: $projectId) {
      ...RunSummary
      task {
        id
        title
      }
    }
  }
`);

interface Toast {
  id: number;
  text: string;
  href: string;
}

/** The system's notifications, once the service worker runs (never in the desktop and Android apps). */
function systemNotifications(): Promise<ServiceWorkerRegistration> | null {
  if (!("Notification" in window) || Notification.permission !== "granted" || !navigator.serviceWorker) return null;
  return navigator.serviceWorker.ready;
}

// The project the user looks at, so run notices follow what they are working on.
let currentProject: string | null = null;
const projectListeners = new Set<() => void>();

export function useCurrentProject(projectId: string | null) {
  useEffect(() => {
    if (!projectId) return;
    currentProject = projectId;
    projectListeners.forEach((l) => l());
  }, [projectId]);
}

function useWatchedProject(): string | null {
  return useSyncExternalStore(
    (listener) => {
      projectListeners.add(listener);
      return () => projectListeners.delete(listener);
    },
    () => currentProject,
  );
}

/**
 * Calls `open` with each page the service worker asks this window to show: a notification was
 * tapped (sw.js). The page goes there itself, keeping its session, which lives in its memory.
 * Returns the way to stop listening.
 */
export function onOpenRequest(open: (href: string) => void): () => void {
  const container = navigator.serviceWorker;
  if (!container) return () => {};
  const listener = (event: MessageEvent) => {
    const href = (event.data as { type?: unknown; href?: unknown } | null)?.href;
    if (event.data?.type === "acc:open" && typeof href === "string" && /^\/(?!\/)/.test(href)) open(href);
  };
  container.addEventListener("message", listener);
  return () => container.removeEventListener("message", listener);
}

const ToastsContext = createContext<Toast[]>([]);

export function Notifications({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const notify = useCallback(({ text, href, system }: Notice) => {
    const id = next.current++;
    setToasts((all) => [...all.slice(-3), { id, text, href }]);
    setTimeout(() => setToasts((all) => all.filter((t) => t.id !== id)), 8_000);
    if (!document.hidden) return;
    const { title, options } = system ?? { title: PRODUCT, options: { body: text, data: { href }, tag: href } };
    void systemNotifications()?.then((registration) => registration.showNotification(title, options));
  }, []);
  const project = useWatchedProject();
  return (
    <>
      <ApprovalNotices notify={notify} />
      {project && <RunNotices key={project} projectId={project} notify={notify} />}
      <ToastsContext.Provider value={toasts}>{children}</ToastsContext.Provider>
    </>
  );
}

/**
 * The notices, where the shell puts them: in its sticky header, below the menu, so that they push
 * the page down rather than cover it (a run's log above all) and stay in view as it scrolls.
 */
export function Toasts() {
  const toasts = useContext(ToastsContext);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <Link key={t.id} href={t.href} className="toast">
          {t.text}
        </Link>
      ))}
    </div>
  );
}

type Notify = (notice: Notice) => void;

function ApprovalNotices({ notify }: { notify: Notify }) {
  const seen = useRef(new Set<string>());
  const [{ data }] = useSubscription({ query: ApprovalNoticeSubscription });
  const approval = data?.approvalUpdated;
  useEffect(() => {
    if (!approval) return;
    if (approval.status === "PENDING" && !seen.current.has(approval.id)) {
      seen.current.add(approval.id);
      notify(approvalNotice(approval));
    } else if (approval.status !== "PENDING") {
      // Decided, here or elsewhere, or gone: its notification has nothing left to ask.
      void systemNotifications()
        ?.then((registration) => registration.getNotifications({ tag: approvalTag(approval.id) }))
        .then((shown) => shown.forEach((n) => n.close()));
    }
  }, [approval, notify]);
  return null;
}

function RunNotices({ projectId, notify }: { projectId: string; notify: Notify }) {
  const seen = useRef(new Set<string>());
  const [{ data }] = useSubscription({ query: RunNoticeSubscription, variables: { projectId } });
  const run = data?.runUpdated;
  useEffect(() => {
    if (run && TERMINAL.has(run.status) && !seen.current.has(run.id)) {
      seen.current.add(run.id);
      notify({ text: `Run of “${run.task.title}” ${humanize(run.status).toLowerCase()}`, href: `/runs/${run.id}` });
    }
  }, [run, notify]);
  return null;
}
