// What a run's agent was given at its first dispatch (docs/context.md): how much of the token
// budget it took, each item the broker offered in priority order (kept or left out for the
// budget, with what was redacted), and, folded, the bundle exactly as the agent received it.
import { useQuery } from "urql";
import { graphql } from "../gql";
import type { RunStatus } from "../gql/graphql";
import { Badge, ErrorBox, Loading, When } from "../ui/components";
import { shortDigest } from "./artifactsView";
import { useAskAgainAsRunMoves } from "./askAgain";
import {
  askAgain,
  inclusionNote,
  itemTitle,
  itemsSummary,
  kindLabel,
  noContextNote,
  prettyBundle,
  redactionNote,
  tokenCount,
  tokensOfBudget,
} from "./runContextView";

const RunContextQuery = graphql(`
  query RunContext($runId: ID!) {
    runContext(runId: $runId) {
      runId
      tokenBudget
      tokensUsed
      bundleHash
      bundle
      createdAt
      items {
        kind
        source
        title
        contentHash
        tokens
        included
        redactions
      }
    }
  }
`);

export function RunContextCard({ runId, status, ended, attempts }: { runId: string; status: RunStatus; ended: boolean; attempts: number }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: RunContextQuery, variables: { runId } });
  // None before the first dispatch: asked again as the run's status moves on (runContextView.ts).
  useAskAgainAsRunMoves(data, fetching, status, askAgain, refetch);
  const context = data?.runContext;

  return (
    <article className="card stack run-context" aria-labelledby="run-context-title" data-testid="run-context">
      <h2 id="run-context-title">Context</h2>
      <ErrorBox error={error} />
      {fetching && !data ? (
        <Loading what="the context" />
      ) : !context ? (
        data && (
          <p className="muted" data-testid="run-context-empty">
            {noContextNote({ ended, attempts })}
          </p>
        )
      ) : (
        <>
          <p className="facts">
            <span data-testid="run-context-tokens">{tokensOfBudget(context.tokensUsed, context.tokenBudget)}</span>
            <span>
              bundle{" "}
              <code title={context.bundleHash} data-testid="run-context-hash">
                {shortDigest(context.bundleHash)}
              </code>
            </span>
            <span className="muted">
              built <When at={context.createdAt} />
            </span>
          </p>
          <h3 id="run-context-items">Items</h3>
          <p className="muted small" data-testid="run-context-summary">
            {itemsSummary(context.items)}
          </p>
          <ol className="plain context-items" aria-labelledby="run-context-items">
            {context.items.map((item, i) => {
              const title = itemTitle(item);
              const redacted = redactionNote(item.redactions);
              return (
                <li
                  key={`${i}:${item.source}`}
                  className={item.included ? "stack tight" : "stack tight muted left-out"}
                  data-kind={item.kind}
                  data-included={item.included}
                >
                  <span>
                    <strong>{kindLabel(item.kind)}</strong>
                    {title && <> · {title}</>} {!item.included && <Badge>Left out</Badge>}
                  </span>
                  <span className="facts small muted">
                    <span data-testid="context-item-tokens">{tokenCount(item.tokens)}</span>
                    <span>{inclusionNote(item)}</span>
                    {redacted && <span>{redacted}</span>}
                  </span>
                </li>
              );
            })}
          </ol>
          <details>
            <summary>Show what the agent received</summary>
            <pre className="command context-bundle" tabIndex={0} role="region" aria-label="The bundle the agent received, as JSON" data-testid="run-context-bundle">
              {prettyBundle(context.bundle)}
            </pre>
          </details>
        </>
      )}
    </article>
  );
}
