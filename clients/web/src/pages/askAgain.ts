// A card of the run page whose answer can change as the run moves on, with no update of its own
// saying so (its context, its files): asked again, from the server, when the run has moved on
// (its status; for files, also its log saying one was attached).
import { useEffect, useRef } from "react";
import type { OperationContext } from "urql";

/**
 * Asks the card's query again (network-only) whenever `again(answer, askedAt, now)` says so,
 * `askedAt` being how far the run had got when it was last asked; not while an answer is on its
 * way. `now` keeps its identity while the run stays where it is.
 */
export function useAskAgainAsRunMoves<A, M>(
  answer: A | undefined,
  fetching: boolean,
  now: M,
  again: (answer: A | undefined, askedAt: M, now: M) => boolean,
  refetch: (context?: Partial<OperationContext>) => void,
) {
  const askedAt = useRef(now);
  useEffect(() => {
    if (fetching || !again(answer, askedAt.current, now)) return;
    askedAt.current = now;
    refetch({ requestPolicy: "network-only" });
  }, [answer, fetching, now, again, refetch]);
}
