// The keyboard shortcuts (shortcuts.ts) and the two dialogs they open: the list of shortcuts (`?`)
// and the command palette (Ctrl/⌘ K), which jumps to a page, a project, a task or a recent run.
// Keys typed into a field stay the field's, and nothing fires while a dialog is open.
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { useQuery } from "urql";
import { graphql } from "../gql";
import { ErrorBox, humanize } from "./components";
import { navigate } from "./router";
import { PAGES, SHORTCUTS, findDestinations, interpret, type Destination } from "./shortcuts";
import { relativeTime } from "./time";

// Sized to stay under the server's query cost limit (`limits.max_complexity`), which nested
// lists multiply against: ten workspaces of twenty projects, five tasks found in each.
const PaletteQuery = graphql(`
  query Palette($typed: String!, $searching: Boolean!) {
    workspaces(first: 10) {
      nodes {
        id
        name
        projects(first: 20) {
          nodes {
            id
            name
            tasks(first: 5, filter: { titleContains: $typed }) @include(if: $searching) {
              nodes {
                id
                title
              }
            }
          }
        }
      }
    }
    runs(last: 10) {
      edges {
        node {
          id
          status
          updatedAt
          createdAt
          task {
            id
            title
          }
        }
      }
    }
  }
`);

/** Whether keys typed now belong to something else: a field, or an open dialog. */
function keysTaken(event: KeyboardEvent): boolean {
  const typingIn = (event.target as Element | null)?.closest?.("input, textarea, select, [contenteditable]");
  return Boolean(typingIn) || document.querySelector("dialog[open]") !== null;
}

export type KeyboardDialog = "help" | "palette";

/** Listens for the shortcuts; shows `open`, which they (or the header's button) set. */
export function Keyboard({ open, setOpen }: { open: KeyboardDialog | null; setOpen: (dialog: KeyboardDialog | null) => void }) {
  const pending = useRef("");
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
        // The palette opens from anywhere, a field included, as in other apps.
        if (document.querySelector("dialog[open]")) return;
        event.preventDefault();
        setOpen("palette");
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || keysTaken(event)) return;
      const next = interpret(pending.current, event.key);
      pending.current = next.pending;
      const command = next.command;
      if (!command) return;
      event.preventDefault();
      if ("go" in command) navigate(command.go);
      else if ("help" in command) setOpen("help");
      else document.querySelector<HTMLElement>(`[data-shortcut="${command.focus}"]`)?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [setOpen]);
  const close = () => setOpen(null);
  if (open === "help") return <ShortcutList onClose={close} />;
  if (open === "palette") return <Palette onClose={close} />;
  return null;
}

/**
 * A modal dialog, open while mounted; closing it (Escape too) gives the focus back to where it
 * was before it opened.
 */
function useModal(onClose: () => void) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);
  return { ref: dialog, onClose };
}

function ShortcutList({ onClose }: { onClose: () => void }) {
  const title = useId();
  const modal = useModal(onClose);
  return (
    <dialog {...modal} className="card shortcuts" aria-labelledby={title} data-testid="shortcut-list">
      <div className="stack">
        <h2 id={title}>Keyboard shortcuts</h2>
        <dl>
          {SHORTCUTS.map((s) => (
            <div key={s.what} className="shortcut">
              <dt>
                {s.keys.map((k, i) => (
                  <span key={i}>
                    {i > 0 && (s.keys[0] === "g" ? " then " : " ")}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{s.what}</dd>
            </div>
          ))}
        </dl>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}

function Palette({ onClose }: { onClose: () => void }) {
  const title = useId();
  const listId = useId();
  const modal = useModal(onClose);
  const [typed, setTyped] = useState("");
  const [active, setActive] = useState(0);
  // Tasks are found by the server, as their titles are typed.
  const asked = useDeferredValue(typed.trim());
  const [{ data, error }] = useQuery({ query: PaletteQuery, variables: { typed: asked, searching: asked !== "" } });
  const destinations: Destination[] = [
    ...PAGES.map((p) => ({ kind: "Page", label: p.label, href: p.href })),
    ...(data?.workspaces.nodes ?? []).flatMap((w) =>
      w.projects.nodes.map((p) => ({ kind: "Project", label: p.name, context: w.name, href: `/projects/${p.id}` })),
    ),
    ...(data?.workspaces.nodes ?? []).flatMap((w) =>
      w.projects.nodes.flatMap((p) => (p.tasks?.nodes ?? []).map((t) => ({ kind: "Task", label: t.title, context: p.name, href: `/tasks/${t.id}` }))),
    ),
    ...(data?.runs.edges ?? [])
      .map((e) => e.node)
      .reverse()
      .map((r) => ({
        kind: "Run",
        label: r.task.title,
        context: `${humanize(r.status)} · started ${relativeTime(new Date(r.createdAt), new Date())}`,
        href: `/runs/${r.id}`,
      })),
  ];
  const found = findDestinations(destinations, typed);
  const current = Math.min(active, found.length - 1);
  const go = (destination: Destination | undefined) => {
    if (!destination) return;
    onClose();
    navigate(destination.href);
  };
  const onKeyDown = (event: ReactKeyboardEvent) => {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step) {
      event.preventDefault();
      setActive((current + step + found.length) % Math.max(found.length, 1));
    } else if (event.key === "Enter") {
      event.preventDefault();
      go(found[current]);
    }
  };
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <dialog {...modal} className="card palette" aria-labelledby={title} data-testid="palette">
      <div className="stack">
        <h2 id={title} className="sr-only">
          Jump to
        </h2>
        <input
          type="text"
          role="combobox"
          aria-label="Jump to a page, project, task or run"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={found.length > 0 ? optionId(current) : undefined}
          aria-autocomplete="list"
          placeholder="Jump to a page, project, task or run…"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          autoFocus
        />
        <ul role="listbox" id={listId} aria-label="Destinations" className="plain destinations">
          {found.map((d, i) => (
            <li
              key={d.href}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              onClick={() => go(d)}
              onMouseMove={() => setActive(i)}
            >
              <span className="badge">{d.kind}</span> {d.label}
              {d.context && <span className="muted small"> · {d.context}</span>}
            </li>
          ))}
        </ul>
        {found.length === 0 && <p className="muted">Nothing found for “{typed}”.</p>}
        <ErrorBox error={error} />
      </div>
    </dialog>
  );
}
