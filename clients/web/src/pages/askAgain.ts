// A card of the run page whose answer can change as the run moves on, with no live update saying
// so (its context, its files): asked again, from the server, when the run's status has moved on.
import { useEffect, useRef } from "react";
import type { OperationContext } from "urql";
import type { RunStatus } from "../gql/graphql";

/**
 * Asks the card's query again (network-only) whenever `again(answer, askedAt, status)` says so,
 * `askedAt` being the run's status when it was last asked; not while an answer is on its way.
 */
export function useAskAgainAsRunMoves<A>(
  answer: A | undefined,
  fetching: boolean,
  status: RunStatus,
  again: (answer: A | undefined, askedAt: RunStatus, status: RunStatus) => boolean,
  refetch: (context?: Partial<OperationContext>) => void,
) {
  const askedAt = useRef(status);
  useEffect(() => {
    if (fetching || !again(answer, askedAt.current, status)) return;
    askedAt.current = status;
    refetch({ requestPolicy: "network-only" });
  }, [answer, fetching, status, again, refetch]);
}
