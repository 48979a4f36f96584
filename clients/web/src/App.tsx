// The shell: one urql client per signed-in session, the navigation, the offline banner and the
// routes.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { Provider, useMutation, useQuery } from "urql";
import { graphql } from "./gql";
import { forget, hasSession, onSessionChange } from "./api/auth";
import { cacheStorage, makeClient } from "./api/client";
import {
  forgetServer,
  insideAndroidApp,
  keystoreError,
  needsServer,
  onKeystoreError,
  serverOrigin,
} from "./api/platform";
import { clearEvents } from "./api/eventArchive";
import { Notifications, Toasts, onOpenRequest } from "./notifications";
import { NotFound, useOnline } from "./ui/components";
import { Link, match, navigate, usePath } from "./ui/router";
import { PAGES } from "./ui/shortcuts";
import { Keyboard, type KeyboardDialog } from "./ui/Keyboard";
import { useFocusKeeper } from "./ui/focus";
import { SignIn } from "./pages/SignIn";
import { ChooseServer } from "./pages/ChooseServer";
import { Home } from "./pages/Home";
import { Workspaces } from "./pages/Workspaces";
import { Board } from "./pages/Board";
import { TaskDetail } from "./pages/TaskDetail";
import { RunView } from "./pages/RunView";
import { Approvals, usePendingApprovals } from "./pages/Approvals";
import { Agents } from "./pages/Agents";
import { Settings } from "./pages/Settings";
import { Sessions } from "./pages/Sessions";
import { People } from "./pages/People";
import { Memory } from "./pages/Memory";
import { MemoryEntryDetail } from "./pages/MemoryEntryDetail";
import { Wiki, WikiPageView } from "./pages/Wiki";
import { Skills } from "./pages/Skills";
import { Candidates } from "./pages/Candidates";
import { Audit } from "./pages/Audit";
import { Usage } from "./pages/Usage";
import { NotificationsPage } from "./pages/Notifications";
import { NotificationBell } from "./NotificationBell";
import { ViewerQuery } from "./api/viewer";

const LogoutMutation = graphql(`
  mutation Logout {
    logout
  }
`);

// Whatever ends a session (signing out, or a refresh the server refuses because the session was
// revoked or expired) takes this device's offline copy with it.
onSessionChange(() => {
  if (!hasSession()) {
    void cacheStorage().clear();
    clearEvents();
  }
});

let epoch = 0;
const subscribeSession = (listener: () => void) =>
  onSessionChange(() => {
    epoch += 1;
    listener();
  });

export function App() {
  // A new session gets a new client: nothing cached or subscribed under one user leaks to the next.
  const session = useSyncExternalStore(subscribeSession, () => epoch);
  // The Android app's server is named before sign-in (null until then), and may change: the
  // client goes where it now points.
  const [server, setServer] = useState<string | null>(() => (needsServer() ? null : serverOrigin()));
  const { client, ws } = useMemo(() => makeClient(), [session, server]);
  useEffect(() => () => void ws.dispose(), [ws]);
  const keystore = useSyncExternalStore(onKeystoreError, keystoreError);
  useEffect(() => onOpenRequest(navigate), []);
  if (server === null) return <ChooseServer onChosen={() => setServer(serverOrigin())} />;
  return (
    <Provider value={client}>
      {keystore && (
        <p className="error" role="alert" data-testid="keystore-error">
          {keystore}. This device stays signed in only until the app is closed.
        </p>
      )}
      {hasSession() ? (
        <Notifications>
          <Shell />
        </Notifications>
      ) : (
        <>
          <SignIn />
          {insideAndroidApp() && (
            <p className="muted signin">
              Server: {server}{" "}
              <button
                type="button"
                onClick={() => {
                  forgetServer();
                  setServer(null);
                }}
              >
                Change
              </button>
            </p>
          )}
        </>
      )}
    </Provider>
  );
}

function Shell() {
  const path = usePath();
  const online = useOnline();
  const [{ data }] = useQuery({ query: ViewerQuery });
  const [, logout] = useMutation(LogoutMutation);
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialog, setDialog] = useState<KeyboardDialog | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  useFocusKeeper(main);
  // Escape folds the open menu and gives the focus back to its button.
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  const { pending } = usePendingApprovals();
  const firstPath = useRef(path);
  useEffect(() => {
    setMenuOpen(false);
    // A new page takes the focus, as a page load would, so keyboard and screen reader users
    // start at its content rather than on the link they left; unless the page gave it to a part
    // of itself already (a request opened from its notification) or a link names a part that
    // will (`#enroll`).
    const page = main.current;
    if (path !== firstPath.current && !window.location.hash && !page?.contains(document.activeElement)) page?.focus();
  }, [path]);
  const signOut = async () => {
    await logout({});
    forget();
    navigate("/");
  };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/" className="brand">
          ACC
        </Link>
        <button
          type="button"
          className="menu"
          ref={menuButton}
          aria-expanded={menuOpen}
          aria-controls="menu-panel"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu <PendingCount count={pending.length} />
        </button>
        {/* On a phone the navigation and the account fold into the menu, so the header is one line. */}
        <div id="menu-panel" className={menuOpen ? "panel open" : "panel"} onKeyDown={closeOnEscape}>
          <nav id="nav" aria-label="Main">
            {PAGES.map(({ href, label }) => (
              <Link key={href} href={href} aria-current={isCurrent(path, href) ? "page" : undefined}>
                {label}
                {href === "/approvals" && <PendingCount count={pending.length} />}
              </Link>
            ))}
          </nav>
          <div className="who">
            <button type="button" onClick={() => setDialog("palette")} aria-keyshortcuts="Control+K Meta+K">
              Jump to… <kbd className="hint">Ctrl K</kbd>
            </button>
            <NotificationBell />
            <NotificationPermission />
            <span className="muted">{data?.viewer.displayName || data?.viewer.email}</span>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
        <Toasts />
      </header>
      {!online && (
        <p className="offline" role="status" data-testid="offline-banner">
          Offline: showing what this device last saw. Changes are disabled until the connection returns.
        </p>
      )}
      <main id="main" tabIndex={-1} ref={main}>
        <Route path={path} />
      </main>
      <Keyboard open={dialog} setOpen={setDialog} />
    </>
  );
}

/** How many approvals wait for a decision, where the menu leads to them; nothing when none. */
function PendingCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="count" data-testid="pending-count">
      {count}
      <span className="sr-only"> pending</span>
    </span>
  );
}

function isCurrent(path: string, href: string): boolean {
  if (href === "/") return path === "/";
  if (href === "/workspaces") return path === href || /^\/(projects|tasks|runs)\//.test(path);
  return path.startsWith(href);
}

function Route({ path }: { path: string }) {
  let params: Record<string, string> | null;
  if ((params = match("/projects/:id", path))) return <Board key={params.id} projectId={params.id} />;
  if ((params = match("/tasks/:id", path))) return <TaskDetail key={params.id} taskId={params.id} />;
  if ((params = match("/runs/:id", path))) return <RunView key={params.id} runId={params.id} />;
  if ((params = match("/memory/:id", path))) return <MemoryEntryDetail key={params.id} entryId={params.id} />;
  if (match("/approvals", path)) return <Approvals />;
  if (match("/agents", path)) return <Agents />;
  if (match("/memory", path)) return <Memory />;
  if ((params = match("/wiki/pages/:id", path))) return <WikiPageView key={params.id} pageId={params.id} />;
  if (match("/wiki", path)) return <Wiki />;
  if (match("/skills", path)) return <Skills />;
  if (match("/candidates", path)) return <Candidates />;
  if (match("/settings", path)) return <Settings />;
  if (match("/people", path)) return <People />;
  if (match("/sessions", path)) return <Sessions />;
  if (match("/audit", path)) return <Audit />;
  if (match("/usage", path)) return <Usage />;
  if (match("/notifications", path)) return <NotificationsPage />;
  if (match("/workspaces", path)) return <Workspaces />;
  if (match("/", path)) return <Home />;
  return <NotFound path={path} />;
}

function NotificationPermission() {
  const [permission, setPermission] = useState(() => ("Notification" in window ? Notification.permission : "denied"));
  if (permission !== "default") return null;
  return (
    <button type="button" onClick={() => Notification.requestPermission().then(setPermission)}>
      Enable notifications
    </button>
  );
}
