// One query asked for many variables at once, each answer kept current from the cache as
// useQuery's is: for a page that needs a list the API offers only per item (Home asks for the
// runs of every task, since there is no list of runs across tasks).
import { useEffect, useRef, useState } from "react";
import { useClient, type AnyVariables, type CombinedError, type DocumentInput } from "urql";
import { pipe, subscribe, type Subscription } from "wonka";

export interface Answers<Data> {
  /** The answer for each of the variables, in their order; undefined until it arrives. */
  data: (Data | undefined)[];
  error: CombinedError | undefined;
  /** Every one answered. */
  complete: boolean;
}

export function useQueries<Data, Variables extends AnyVariables>(
  query: DocumentInput<Data, Variables>,
  variables: Variables[],
): Answers<Data> {
  const client = useClient();
  const keys = variables.map((v) => JSON.stringify(v));
  const [answers, setAnswers] = useState<Record<string, { data?: Data; error?: CombinedError }>>({});
  const live = useRef(new Map<string, Subscription>());
  const wanted = keys.join("\n");

  // Only the queries whose variables came or went start or stop: the others keep their answers
  // rather than asking the server again.
  useEffect(() => {
    const next = new Map(variables.map((v, i) => [keys[i], v]));
    for (const [key, subscription] of live.current) {
      if (!next.has(key)) {
        subscription.unsubscribe();
        live.current.delete(key);
      }
    }
    for (const [key, v] of next) {
      if (live.current.has(key)) continue;
      const subscription = pipe(
        client.query(query, v),
        subscribe((result) => setAnswers((all) => ({ ...all, [key]: { data: result.data, error: result.error } }))),
      );
      live.current.set(key, subscription);
    }
    // `wanted` stands for the variables, which are a new array on every render.
  }, [client, query, wanted]);
  useEffect(
    () => () => {
      live.current.forEach((s) => s.unsubscribe());
      live.current.clear();
    },
    [client, query],
  );

  const shown = keys.map((key) => answers[key]);
  return {
    data: shown.map((a) => a?.data),
    error: shown.find((a) => a?.error)?.error,
    complete: shown.every((a) => a !== undefined),
  };
}
