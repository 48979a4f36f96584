// In-app notifications: a pending approval anywhere, or a run of the project in view reaching
// its end, shows a toast (and a system notification while the page is hidden, if allowed).
import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useSubscription } from "urql";
import { graphql } from "./gql";
import { humanize } from "./ui/components";
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

export function Notifications({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const notify = useCallback((text: string, href: string) => {
    const id = next.current++;
    setToasts((all) => [...all.slice(-3), { id, text, href }]);
    setTimeout(() => setToasts((all) => all.filter((t) => t.id !== id)), 8_000);
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      void navigator.serviceWorker?.ready.then((registration) =>
        registration.showNotification("Agent Control Center", { body: text, data: { href }, tag: href }),
      );
    }
  }, []);
  const project = useWatchedProject();
  return (
    <>
      <ApprovalNotices notify={notify} />
      {project && <RunNotices key={project} projectId={project} notify={notify} />}
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <Link key={t.id} href={t.href} className="toast">
            {t.text}
          </Link>
        ))}
      </div>
    </>
  );
}

type Notify = (text: string, href: string) => void;

function ApprovalNotices({ notify }: { notify: Notify }) {
  const seen = useRef(new Set<string>());
  const [{ data }] = useSubscription({ query: ApprovalNoticeSubscription });
  const approval = data?.approvalUpdated;
  useEffect(() => {
    if (approval?.status === "PENDING" && !seen.current.has(approval.id)) {
      seen.current.add(approval.id);
      notify(`Approval requested: ${approval.action} (${approval.run.task.title})`, "/approvals");
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
      notify(`Run of “${run.task.title}” ${humanize(run.status).toLowerCase()}`, `/runs/${run.id}`);
    }
  }, [run, notify]);
  return null;
}
