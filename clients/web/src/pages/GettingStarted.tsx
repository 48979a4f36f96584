// The steps from an empty server to a first run (onboarding.ts), on Home until the server has a
// run: each links to where it is done and ticks as it is done. Live: connectors and runs through the
// subscriptions Home keeps, tasks through the first project's task events, and everything asked
// again when the person comes back to this tab from another where they did a step.
import { useEffect } from "react";
import { useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import { Link } from "../ui/router";
import { TaskEventsSubscription } from "./Board";
import { onboardingSteps, type Progress } from "./onboarding";

const FirstTaskQuery = graphql(`
  query FirstTask($projectId: ID!) {
    tasks(projectId: $projectId, first: 1) {
      nodes {
        id
      }
    }
  }
`);

const AnyRunQuery = graphql(`
  query AnyRun {
    runs(last: 1) {
      edges {
        node {
          id
        }
      }
    }
  }
`);

export function GettingStarted({
  workspaces,
  connectors,
  onReturn,
}: {
  /** Null until loaded. */
  workspaces: readonly { id: string; projects: { nodes: readonly { id: string }[] } }[] | null;
  connectors: Progress["connectors"] | null;
  /** Asks the caller's own lists again. */
  onReturn: () => void;
}) {
  const workspaceId = workspaces?.[0]?.id ?? null;
  const projectId = workspaces?.flatMap((w) => w.projects.nodes)[0]?.id ?? null;
  const [runs, refetchRuns] = useQuery({ query: AnyRunQuery });
  // A server with a run is set up: the steps are gone for good, and ask nothing more.
  const setUp = runs.data === undefined || runs.data.runs.edges.length > 0;
  const [tasks, refetchTasks] = useQuery({ query: FirstTaskQuery, variables: { projectId: projectId ?? "" }, pause: !projectId || setUp });
  useSubscription({ query: TaskEventsSubscription, variables: { projectId: projectId ?? "" }, pause: !projectId || setUp });
  useEffect(() => {
    const back = () => {
      if (document.visibilityState !== "visible") return;
      onReturn();
      refetchRuns({ requestPolicy: "network-only" });
      if (projectId && !setUp) refetchTasks({ requestPolicy: "network-only" });
    };
    document.addEventListener("visibilitychange", back);
    return () => document.removeEventListener("visibilitychange", back);
  }, [onReturn, refetchRuns, refetchTasks, projectId, setUp]);

  const loaded = workspaces !== null && connectors !== null && (!projectId || tasks.data !== undefined);
  if (setUp || !loaded) return null;
  const steps = onboardingSteps({
    workspaceId,
    projectId,
    connectors,
    taskId: (projectId && tasks.data?.tasks.nodes[0]?.id) || null,
    anyRun: (runs.data?.runs.edges.length ?? 0) > 0,
  });
  const next = steps.find((s) => !s.done);
  if (!next) return null;
  const count = steps.filter((s) => s.done).length;
  return (
    <article className="card stack getting-started" aria-labelledby="getting-started-title" data-testid="getting-started">
      <h2 id="getting-started-title">
        Get started <span className="muted small">{count} of {steps.length} done</span>
      </h2>
      <p className="muted">From here to an agent's first run, approved by you.</p>
      <ol className="steps">
        {steps.map((step) => (
          <li key={step.key} data-step={step.key} data-done={step.done} aria-current={step === next ? "step" : undefined}>
            <span className="tick" aria-hidden="true">
              {step.done ? "✓" : ""}
            </span>
            <span className="stack">
              <Link href={step.href} className={step === next ? "button primary" : undefined}>
                {step.title}
              </Link>
              <span className="sr-only">{step.done ? "done" : "to do"}</span>
              {!step.done && <span className="muted small">{step.hint}</span>}
            </span>
          </li>
        ))}
      </ol>
    </article>
  );
}
