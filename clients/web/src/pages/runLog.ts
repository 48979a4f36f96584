// A run's events as the lines of its log: what each one says in words, whether it reports a
// failure, and the log's search and download. The kinds and their data are what connectors send
// (docs/connector.md, docs/protocol.md) and the control plane's own `status` and `notice`.
import type { StreamEvent } from "../api/runStream";

/** How a line is marked: a failure the run reported, the agent's stderr, or neither. */
export type Tone = "error" | "stderr" | "plain";

export interface LogLine {
  sequence: number;
  kind: string;
  occurredAt: string;
  /** What the line is ("tool call", "stderr"…); empty for the agent's plain output. */
  label: string;
  /** What it says, on one line. */
  text: string;
  /** The whole text, when `text` is only its first line (a message, a tool's output). */
  more: string | null;
  tone: Tone;
  /** Leading spaces of `text`, so a wrapped line hangs under its own indentation. */
  indent: number;
  /** The event's data as indented JSON, for a line that says less than it; null otherwise. */
  raw: string | null;
}

type Data = Record<string, unknown>;

interface Said {
  label?: string;
  text: string;
  tone?: Tone;
  /** The text says all of the data: no raw JSON to expand. */
  whole?: boolean;
}

/** The inputs that say what a tool call does (the connector's adapters name them so too). */
const ACTION_KEYS = ["command", "file_path", "path", "url", "query"];
const TAB = 4;

export function logLine(event: StreamEvent): LogLine {
  const data = isRecord(event.data) ? event.data : null;
  const said = data ? describe(event.kind, data) : { text: typeof event.data === "string" ? event.data : compact(event.data) };
  const [first, ...rest] = said.text.split("\n");
  return {
    sequence: event.sequence,
    kind: event.kind,
    occurredAt: event.occurredAt,
    label: said.label ?? event.kind.replace(/_/g, " "),
    text: first,
    more: rest.length > 0 ? said.text : null,
    tone: said.tone ?? "plain",
    indent: indentOf(first),
    raw: said.whole ? null : JSON.stringify(event.data, null, 2),
  };
}

function describe(kind: string, data: Data): Said {
  switch (kind) {
    case "output":
      return output(data);
    case "status":
      return { text: statusChange(data), whole: true };
    case "message":
      return { text: [text(data.role), text(data.text) ?? compact(data)].filter(Boolean).join(": ") };
    case "tool_call":
      return { text: toolCall(data) };
    case "tool_result":
      return { text: toolResult(data), tone: data.is_error === true ? "error" : "plain" };
    case "file_change":
      return { text: `${text(data.kind) ?? "changed"} ${text(data.path) ?? "a file"}${text(data.tool) ? ` (${data.tool})` : ""}` };
    case "usage":
      return { text: usage(data) };
    case "error":
      return { text: [text(data.code), text(data.message) ?? compact(data)].filter(Boolean).join(": "), tone: "error" };
    case "result":
      return result(data);
    case "approval_requested":
      return { text: `${text(data.action) ?? "an action"}${text(data.reason) ? ` — ${data.reason}` : ""}` };
    case "notice":
      return { text: text(data.message) ?? compact(data) };
    case "progress":
      return { text: `${typeof data.percent === "number" ? `${data.percent}% · ` : ""}${text(data.message) ?? compact(data)}` };
    default:
      return { text: keyValues(data) };
  }
}

/** A line of stdout as it was, stderr marked, and a JSON object the agent printed as JSON. */
function output(data: Data): Said {
  const stderr = data.stream === "stderr";
  const label = stderr ? "stderr" : "";
  const tone = stderr ? "stderr" : "plain";
  const line = text(data.line);
  if (line !== null) return { label, text: line, tone, whole: true };
  return { label: label || "output", text: compact(data.json ?? data), tone };
}

function statusChange(data: Data): string {
  const from = text(data.from) ? `${data.from} → ` : "";
  return `${from}${text(data.status) ?? "?"}${text(data.reason) ? ` (${data.reason})` : ""}`;
}

function toolCall(data: Data): string {
  const input = isRecord(data.input) ? data.input : null;
  const key = input ? ACTION_KEYS.find((k) => typeof input[k] === "string") : undefined;
  const what = input && key ? (input[key] as string) : data.input === undefined ? "" : compact(data.input);
  return [[text(data.name), text(data.title)].filter(Boolean).join(": "), what].filter(Boolean).join(" ");
}

function toolResult(data: Data): string {
  const exit = typeof data.exit_code === "number" ? `exit ${data.exit_code}` : null;
  const output = typeof data.output === "string" || data.output == null ? text(data.output) : compact(data.output);
  return [exit, output ?? "(no output)"].filter(Boolean).join(" · ");
}

const count = (n: unknown, what: string) => (typeof n === "number" ? `${n.toLocaleString("en")} ${what}` : null);

function usage(data: Data): string {
  const cost = typeof data.cost_usd === "number" ? `$${data.cost_usd.toFixed(4)}` : null;
  const parts = [
    count(data.input_tokens, "tokens in"),
    count(data.output_tokens, "out"),
    count(data.cached_input_tokens ?? data.cache_read_input_tokens, "cached"),
    cost,
    text(data.model),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : keyValues(data);
}

function result(data: Data): Said {
  const outcome = text(data.outcome) ?? "ended";
  const parts = [
    outcome,
    typeof data.exit_code === "number" ? `exit code ${data.exit_code}` : null,
    typeof data.signal === "number" ? `signal ${data.signal}` : null,
    text(data.error),
  ];
  return { text: parts.filter(Boolean).join(" · "), tone: outcome === "failed" || outcome === "lost" ? "error" : "plain" };
}

/** Any other object: `key=value`, strings bare and the rest as JSON. */
function keyValues(data: Data): string {
  const pairs = Object.entries(data).map(([k, v]) => `${k}=${typeof v === "string" ? v : compact(v)}`);
  return pairs.length > 0 ? pairs.join(" ") : "{}";
}

const isRecord = (value: unknown): value is Data => value !== null && typeof value === "object" && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const compact = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** Leading whitespace in columns, a tab being `TAB` wide (as `tab-size` in styles.css). */
export function indentOf(line: string): number {
  let columns = 0;
  for (const c of line) {
    if (c === " ") columns += 1;
    else if (c === "\t") columns += TAB;
    else break;
  }
  return columns;
}

/** The lines whose words contain `query`, ignoring case; all of them for an empty query. */
export function searchLog(lines: readonly LogLine[], query: string): readonly LogLine[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return lines;
  return lines.filter((line) => `${line.label} ${line.more ?? line.text}`.toLowerCase().includes(needle));
}

export interface Segment {
  text: string;
  match: boolean;
}

/** `text` cut into the parts that match `query` (ignoring case) and the parts between. */
export function highlight(text: string, query: string): Segment[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [{ text, match: false }];
  const segments: Segment[] = [];
  const haystack = text.toLowerCase();
  let at = 0;
  for (let found = haystack.indexOf(needle); found !== -1; found = haystack.indexOf(needle, at)) {
    if (found > at) segments.push({ text: text.slice(at, found), match: false });
    segments.push({ text: text.slice(found, found + needle.length), match: true });
    at = found + needle.length;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}

/** Where the first failure the run reported is among `lines`; -1 if none. */
export function firstError(lines: readonly LogLine[]): number {
  return lines.findIndex((line) => line.tone === "error");
}

/**
 * The log as text, one event a line: its exact time, what it is, and what it says; the further
 * lines of a message or a tool's output indented under it.
 */
export function logText(lines: readonly LogLine[]): string {
  return lines
    .map((line) => {
      const head = `${line.occurredAt} ${line.label ? `${line.label}: ` : ""}`;
      return head + (line.more ?? line.text).split("\n").join(`\n${" ".repeat(head.length)}`);
    })
    .map((line) => `${line}\n`)
    .join("");
}

/** The log as JSON lines: each event as the server sent it. */
export function logJsonLines(events: readonly StreamEvent[]): string {
  return events.map(({ sequence, kind, occurredAt, data }) => `${JSON.stringify({ sequence, kind, occurredAt, data })}\n`).join("");
}
