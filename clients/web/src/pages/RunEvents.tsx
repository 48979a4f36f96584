// A run's log: its event stream live, virtualised, following the tail, and resumed from its
// cursor after a reconnect or a sleep; each event a line (runLog.ts) that can be searched,
// expanded to its JSON, downloaded, and jumped to when it is the first error.
import { useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { followRunEvents, type StreamEvent, type StreamState } from "../api/runStream";
import { subscribeRunEvents } from "../api/runStreamSocket";
import { MAX_EVENTS, loadEvents, saveEvents } from "../api/eventArchive";
import { When, useOnline } from "../ui/components";
import { streamShown, type StreamedStatus } from "./runState";
import { firstError, highlight, logJsonLines, logLine, logText, searchLog, type LogLine } from "./runLog";
import { attachedFile } from "./artifactsView";

const STATE_LABEL: Record<StreamState | "loading", string> = {
  loading: "run ended; loading its events…",
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  ended: "complete",
  failed: "stopped",
};

export function RunEvents({
  runId,
  ended,
  onStatus,
  onAttached,
}: {
  runId: string;
  ended: boolean;
  onStatus: (status: StreamedStatus) => void;
  /** Told the sequence of the latest event saying the run's agent attached a file. */
  onAttached: (sequence: number) => void;
}) {
  const { events, state } = useRunEvents(runId);
  const [follow, setFollow] = useState(true);
  const [query, setQuery] = useState("");
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  // The line to focus once the list has drawn it (jump to first error).
  const [focusing, setFocusing] = useState<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const lines = useMemo(() => events.map(logLine), [events]);
  const shown = useMemo(() => searchLog(lines, query), [lines, query]);
  const errorAt = firstError(shown);

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 28,
    overscan: 12,
  });

  // scrollToEnd keeps aiming at the end while the rows it brings into view are measured.
  useEffect(() => {
    if (follow && shown.length > 0) virtualizer.scrollToEnd();
  }, [shown.length, follow, virtualizer]);

  // Runs after every render, since the line to focus is drawn only once the list scrolled to it.
  useEffect(() => {
    if (focusing === null) return;
    const line = scroller.current?.querySelector<HTMLElement>(`[data-sequence="${focusing}"]`);
    if (!line) return;
    line.focus({ preventScroll: true });
    setFocusing(null);
  });

  // Only the person leaves the tail. The list scrolls itself too, as rows turn out taller or
  // shorter than estimated, and such a scroll seen away from the end must not stop following.
  // A wheel, a touch or a key counts until the log is back at its end; a press on the scroll bar
  // (the scroller itself, not a line) while it is held.
  const nudged = useRef(false);
  const holdsBar = useRef(false);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 40) {
      nudged.current = false;
      setFollow(true);
    } else if (nudged.current || holdsBar.current) setFollow(false);
  };
  const nudge = () => {
    nudged.current = true;
  };
  const jumpToFirstError = () => {
    setFollow(false);
    virtualizer.scrollToIndex(errorAt, { align: "center" });
    setFocusing(shown[errorAt].sequence);
  };
  const toggle = (sequence: number) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(sequence)) next.add(sequence);
      return next;
    });

  const last = events.at(-1)?.sequence ?? null;
  const first = events[0]?.sequence ?? null;
  const latestStatus = useMemo(() => events.findLast((e) => e.kind === "status"), [events]);
  useEffect(() => {
    const data = latestStatus?.data as { status?: unknown } | undefined;
    if (latestStatus && typeof data?.status === "string") onStatus({ status: data.status, at: latestStatus.occurredAt });
  }, [latestStatus, onStatus]);
  const latestAttached = useMemo(() => events.findLast(attachedFile), [events]);
  useEffect(() => {
    if (latestAttached) onAttached(latestAttached.sequence);
  }, [latestAttached, onAttached]);
  const online = useOnline();
  const shownState = streamShown(state.state, ended);

  return (
    <article className="card stack events">
      <div className="inline spread">
        <h2>Events</h2>
        <span className="muted" role="status" data-testid="stream-state" data-state={shownState}>
          <span className={`dot ${shownState}`} aria-hidden="true" /> {STATE_LABEL[shownState]}
          {state.detail && shownState !== "live" ? ` (${state.detail})` : ""}
        </span>
      </div>
      <p className="muted small" data-testid="event-summary" data-count={events.length} data-first={first ?? ""} data-last={last ?? ""}>
        {events.length} events, {first === null ? "no events yet" : `sequence ${first}–${last}`}
      </p>
      {!online && (
        <p className="muted small">
          Offline: these are the events this device kept (the last {MAX_EVENTS} at most); the stream goes on when the
          connection returns.
        </p>
      )}
      <div className="inline">
        <input
          type="search"
          className="grow"
          aria-label="Search the log"
          data-shortcut="search"
          placeholder="Search the log"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {query.trim() && (
          <span className="muted small" role="status" data-testid="search-count" data-count={shown.length}>
            {shown.length} of {lines.length} lines match
          </span>
        )}
      </div>
      <div className="inline">
        <button type="button" onClick={jumpToFirstError} disabled={errorAt === -1} title={errorAt === -1 ? "No errors" : undefined}>
          Jump to first error
        </button>
        <button type="button" onClick={() => download(`run-${runId}.log`, logText(lines), "text/plain")}>
          Download log
        </button>
        <button type="button" onClick={() => download(`run-${runId}.jsonl`, logJsonLines(events), "application/x-ndjson")}>
          Download JSON lines
        </button>
      </div>
      <div
        className="event-scroller"
        ref={scroller}
        onScroll={onScroll}
        onWheel={nudge}
        onTouchStart={nudge}
        onKeyDown={nudge}
        onPointerDown={(e) => (holdsBar.current = e.target === e.currentTarget)}
        onPointerUp={() => (holdsBar.current = false)}
        tabIndex={0}
        role="region"
        aria-label="Run events"
        data-virtual
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const line = shown[item.index];
            return (
              <div
                key={line.sequence}
                data-index={item.index}
                data-sequence={line.sequence}
                ref={virtualizer.measureElement}
                tabIndex={-1}
                className={`event kind-${line.kind} tone-${line.tone}`}
                style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
              >
                <Line line={line} query={query} open={expanded.has(line.sequence)} onToggle={() => toggle(line.sequence)} />
              </div>
            );
          })}
        </div>
      </div>
      {!follow && (
        <button type="button" onClick={() => setFollow(true)}>
          Follow the latest events
        </button>
      )}
    </article>
  );
}

/** One line of the log; a line that says less than its event opens to the rest and its JSON. */
function Line({ line, query, open, onToggle }: { line: LogLine; query: string; open: boolean; onToggle: () => void }) {
  const words = (
    <>
      {line.label && <span className="kind">{line.label}</span>}
      {line.label && " "}
      <Marked text={open && line.more ? line.more : line.text} query={query} />
      {!open && line.more && <span className="more"> …</span>}
    </>
  );
  // A wrapped line hangs under its own indentation.
  const indent = { "--indent": `${line.indent}ch` } as CSSProperties;
  return (
    <>
      <span className="seq">{line.sequence}</span>
      <span className="at">
        <When at={line.occurredAt} />
      </span>
      <div className="line">
        {line.raw === null ? (
          <span className="words" style={indent}>
            {words}
          </span>
        ) : (
          <button type="button" className="words toggle" style={indent} aria-expanded={open} onClick={onToggle}>
            {words}
          </button>
        )}
        {open && line.raw !== null && <pre className="raw">{line.raw}</pre>}
      </div>
    </>
  );
}

function Marked({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlight(text, query).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text))}
    </>
  );
}

/** Saves `content` as a file named `name`, as a link to it would. */
function download(name: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // Once the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The run's events: first what this device kept, then the stream from there, in batches. */
function useRunEvents(runId: string) {
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [state, setState] = useState<{ state: StreamState; detail?: string }>({ state: "connecting" });

  useEffect(() => {
    // What this device kept of the run shows at once (also offline); the stream goes on from there.
    const kept = loadEvents(runId);
    setEvents(kept);
    // A replay delivers events in bursts: render them in batches, not one render per event.
    let pending: StreamEvent[] = [];
    let flush: ReturnType<typeof setTimeout> | null = null;
    const flushNow = () => {
      if (flush !== null) clearTimeout(flush);
      flush = null;
      const batch = pending;
      pending = [];
      if (batch.length > 0) setEvents((current) => current.concat(batch));
    };
    const stream = followRunEvents(subscribeRunEvents(runId), {
      onEvents: (more) => {
        pending.push(...more);
        flush ??= setTimeout(flushNow, 50);
      },
      // Events shown before the state that follows them ("complete" after the last one).
      onState: (next, detail) => {
        flushNow();
        setState({ state: next, detail });
      },
    }, { after: kept.at(-1)?.sequence ?? null });
    // A device that slept or lost its network may hold a dead socket: resume from the cursor.
    let hiddenAt = 0;
    const onVisibility = () => {
      if (document.hidden) hiddenAt = Date.now();
      else if (Date.now() - hiddenAt > 10_000) stream.resume();
    };
    const onOnline = () => stream.resume();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("online", onOnline);
    return () => {
      stream.stop();
      if (flush !== null) clearTimeout(flush);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("online", onOnline);
    };
  }, [runId]);

  useEffect(() => {
    if (events.length > 0) saveEvents(runId, events);
  }, [runId, events]);

  return { events, state };
}
