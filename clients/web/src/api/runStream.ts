// A run's event stream that survives reconnects and sleeps: it remembers the last sequence it
// showed and, whenever the socket drops (or the page wakes after a while), subscribes again
// from exactly there. The server replays from the cursor with no gap; anything at or below the
// cursor is dropped, so a replay never shows an event twice.

export interface StreamEvent {
  sequence: number;
  kind: string;
  data: unknown;
  occurredAt: string;
}

export type StreamState = "connecting" | "live" | "reconnecting" | "ended" | "failed";

export interface Sink {
  next(event: StreamEvent): void;
  error(error: unknown): void;
  complete(): void;
}

/** Opens one subscription from `after` (exclusive); returns how to close it. */
export type Subscribe = (after: number | null, sink: Sink) => () => void;

export interface Handlers {
  onEvents(events: StreamEvent[]): void;
  onState(state: StreamState, detail?: string): void;
}

export interface Options {
  /** Start after this sequence (the last event already shown); by default from the start. */
  after?: number | null;
  /** The first delay between reconnects; it doubles up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** An error the server meant (GraphQL errors), as opposed to a lost connection or an error that
   * says to try again (`retryable`: the server could not read the events, or this client fell behind). */
  isFatal?: (error: unknown) => boolean;
}

export interface RunStream {
  /** Reconnects now from the cursor (after a wake-up or when the network returns). */
  resume(): void;
  stop(): void;
  cursor(): number | null;
}

export function followRunEvents(subscribe: Subscribe, handlers: Handlers, options: Options = {}): RunStream {
  const baseDelay = options.baseDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 10_000;
  const isFatal = options.isFatal ?? meantByServer;
  let cursor: number | null = options.after ?? null;
  let close: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let done = false;
  let state: StreamState | null = null;
  const report = (next: StreamState, detail?: string) => {
    if (next !== state || detail !== undefined) handlers.onState(next, detail);
    state = next;
  };

  function connect() {
    timer = null;
    report(failures === 0 ? "connecting" : "reconnecting");
    let closed = false;
    const end = () => {
      closed = true;
      close = null;
    };
    const unsubscribe = subscribe(cursor, {
      next(event) {
        if (closed) return;
        failures = 0;
        report("live");
        if (cursor !== null && event.sequence <= cursor) return;
        cursor = event.sequence;
        handlers.onEvents([event]);
      },
      complete() {
        if (closed) return;
        end();
        done = true;
        report("ended");
      },
      error(error) {
        if (closed) return;
        end();
        if (isFatal(error)) {
          done = true;
          report("failed", describe(error));
          return;
        }
        failures += 1;
        report("reconnecting", describe(error));
        timer = setTimeout(connect, Math.min(maxDelay, baseDelay * 2 ** (failures - 1)));
      },
    });
    // Closing on purpose must not look like a lost connection to the sink above.
    if (closed) unsubscribe();
    else
      close = () => {
        closed = true;
        unsubscribe();
      };
  }

  function disconnect() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const current = close;
    close = null;
    current?.();
  }

  connect();
  return {
    resume() {
      if (done) return;
      disconnect();
      connect();
    },
    stop() {
      done = true;
      disconnect();
    },
    cursor: () => cursor,
  };
}

/** GraphQL errors, unless every one of them says the same request may succeed later. */
function meantByServer(error: unknown): boolean {
  if (!Array.isArray(error)) return false;
  const retryable = (e: unknown) => (e as { extensions?: { retryable?: unknown } })?.extensions?.retryable === true;
  return !error.every(retryable);
}

function describe(error: unknown): string {
  if (Array.isArray(error)) return error.map((e) => (e as { message?: string }).message ?? String(e)).join("; ");
  if (error && typeof error === "object" && "code" in error && "reason" in error) {
    const close = error as { code: number; reason: string };
    return `connection closed (${close.code}${close.reason ? `: ${close.reason}` : ""})`;
  }
  return error instanceof Error ? error.message : "connection lost";
}
