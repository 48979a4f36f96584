// The WebSocket side of a run's event stream: one graphql-ws connection per subscription, with
// no retries of its own, so that `followRunEvents` decides where a reconnect resumes.
import { print } from "graphql";
import { createClient } from "graphql-ws";
import { graphql } from "../gql";
import { connectionParams, socketEvents } from "./client";
import { socketUrl } from "./platform";
import type { Subscribe } from "./runStream";

const RunEventsSubscription = graphql(`
  subscription RunEvents($runId: ID!, $after: String) {
    runEvents(runId: $runId, after: $after) {
      sequence
      kind
      data
      occurredAt
    }
  }
`);

export function subscribeRunEvents(runId: string): Subscribe {
  const query = print(RunEventsSubscription);
  return (after, sink) => {
    const socket = createClient({
      url: socketUrl("/graphql/ws"),
      connectionParams,
      retryAttempts: 0,
      lazy: true,
      on: socketEvents,
    });
    const unsubscribe = socket.subscribe<{ runEvents: Parameters<typeof sink.next>[0] }>(
      { query, variables: { runId, after: after === null ? null : String(after) } },
      {
        next(result) {
          if (result.errors?.length) sink.error(result.errors);
          else if (result.data) sink.next(result.data.runEvents);
        },
        error: sink.error,
        complete: sink.complete,
      },
    );
    // A lazy client closes its socket when its only subscription goes.
    return unsubscribe;
  };
}
