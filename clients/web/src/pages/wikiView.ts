// What the wiki pages show of a page's Markdown: rendered to HTML by marked, with any raw HTML in
// the source shown as text rather than parsed, then sanitized by DOMPurify in the browser, so a
// page's source (written by a person or proposed by an agent) never runs a script, loads a frame,
// restyles the app or leads to a `javascript:` address. And the scopes a wiki lives in:
// workspaces and projects, not the organization or agents.
import DOMPurify from "dompurify";
import { Marked } from "marked";
import type { Scope } from "./scopes";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` with the characters that HTML gives meaning escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// Raw HTML is text: the browser never parses an author's tags or attributes, not even in
// DOMPurify's inert document (where Chrome still reports each inline handler and style to the
// page's Content-Security-Policy).
const markdown = new Marked({ gfm: true, async: false, renderer: { html: ({ text }) => escapeHtml(text) } });

/** Markdown as HTML, raw HTML escaped; not yet sanitized (`renderMarkdown` is). */
export function markdownToHtml(source: string): string {
  return markdown.parse(source) as string;
}

let hooked = false;

/** Markdown as HTML that is safe to put in the page: in a browser only (DOMPurify needs its DOM). */
export function renderMarkdown(source: string): string {
  if (!hooked) {
    // An image its author gave no text for is shown as decoration, not announced as "image".
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "IMG" && !node.hasAttribute("alt")) node.setAttribute("alt", "");
    });
    hooked = true;
  }
  return DOMPurify.sanitize(markdownToHtml(source), { USE_PROFILES: { html: true }, FORBID_TAGS: ["style", "form", "input", "button"], FORBID_ATTR: ["style"] });
}

/** Workspaces and projects: an organization's path has one id, a workspace's two, a project's three. */
export function wikiScopes(scopes: readonly Scope[]): Scope[] {
  return scopes.filter((s) => s.path.length >= 2 && s.path[s.path.length - 1] === s.id);
}

/** Whether a revision's provenance (`{"source": "run", …}` or `{"source": "person", …}`) names a run. */
export function writtenByAgent(provenance: unknown): boolean {
  return typeof provenance === "object" && provenance !== null && (provenance as { source?: unknown }).source === "run";
}

/** The line's kind in a unified diff, for its colour. */
export function diffLineKind(line: string): "added" | "removed" | "context" {
  if (line.startsWith("+") && !line.startsWith("+++")) return "added";
  if (line.startsWith("-") && !line.startsWith("---")) return "removed";
  return "context";
}

/** Where a file is attached to a page as (the next version of) `name` (docs/wiki.md). */
export function attachmentPath(pageId: string, name: string): string {
  return `/v1/wiki/pages/${encodeURIComponent(pageId)}/attachments?${new URLSearchParams({ name }).toString()}`;
}
