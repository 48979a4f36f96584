// The keyboard's way around: the main pages (the menu's, each with a `g` shortcut), what a key
// sequence means, and what the command palette finds for what is typed in it. Keyboard.tsx
// listens and acts; this decides.

export interface Page {
  href: string;
  label: string;
  /** The key after `g` that goes there. */
  key: string;
}

/** The main menu's pages, in its order. */
export const PAGES: Page[] = [
  { href: "/", label: "Home", key: "h" },
  { href: "/workspaces", label: "Workspaces", key: "w" },
  { href: "/approvals", label: "Approvals", key: "a" },
  { href: "/agents", label: "Agents", key: "c" },
  { href: "/memory", label: "Memory", key: "m" },
  { href: "/wiki", label: "Wiki", key: "k" },
  { href: "/skills", label: "Skills", key: "l" },
  { href: "/candidates", label: "Candidates", key: "t" },
  { href: "/usage", label: "Usage", key: "b" },
  { href: "/settings", label: "Settings", key: "s" },
  { href: "/people", label: "People", key: "p" },
  { href: "/sessions", label: "Sessions", key: "i" },
  { href: "/audit", label: "Audit", key: "u" },
];

export type Command =
  | { go: string }
  /** Focus the page's element marked `data-shortcut` with this name (its search, its new item). */
  | { focus: "search" | "new" }
  | { help: true };

/** Every shortcut, as the `?` list shows them. */
export const SHORTCUTS: { keys: string[]; what: string }[] = [
  ...PAGES.map((p) => ({ keys: ["g", p.key], what: `Go to ${p.label}` })),
  { keys: ["/"], what: "Search this page (the board's tasks, a run's log, memory)" },
  { keys: ["n"], what: "New: a task on a board, a workspace on Workspaces, an entry in Memory" },
  { keys: ["Ctrl", "K"], what: "Jump to a page, project, task or run (⌘ K on a Mac)" },
  { keys: ["?"], what: "This list" },
];

/**
 * What `key` means after `pending` (the keys typed so far of an unfinished sequence, or ""):
 * a command, or the sequence still going on, or nothing.
 */
export function interpret(pending: string, key: string): { command: Command | null; pending: string } {
  if (pending === "g") {
    const page = PAGES.find((p) => p.key === key);
    return { command: page ? { go: page.href } : null, pending: "" };
  }
  switch (key) {
    case "g":
      return { command: null, pending: "g" };
    case "/":
      return { command: { focus: "search" }, pending: "" };
    case "n":
      return { command: { focus: "new" }, pending: "" };
    case "?":
      return { command: { help: true }, pending: "" };
    default:
      return { command: null, pending: "" };
  }
}

export interface Destination {
  /** What it is: "Page", "Project", "Task" or "Run". */
  kind: string;
  label: string;
  /** Where it sits, to tell same-named ones apart. */
  context?: string;
  href: string;
}

/**
 * The destinations whose words contain every word typed, in any case, in the order given (pages
 * first); all of them, up to `limit`, when nothing is typed.
 */
export function findDestinations(all: Destination[], typed: string, limit = 12): Destination[] {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  const text = (d: Destination) => `${d.kind} ${d.label} ${d.context ?? ""}`.toLowerCase();
  return all.filter((d) => words.every((w) => text(d).includes(w))).slice(0, limit);
}
