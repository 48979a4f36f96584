// Candidates (docs/candidates.md): try a change to a scope's context budget and skills on a task,
// beside the scope as it is, before applying it. Propose, start both runs, compare them side by
// side, approve or reject, apply.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import type { CandidateItemFragment, CandidateScopeQuery as ScopeData } from "../gql/graphql";
import { Action, Badge, ErrorBox, Loading, Status, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";
import { WorkspacesQuery } from "./Workspaces";
import { ViewerQuery } from "../api/viewer";
import { scopeChoices, type Scope } from "./scopes";
import { skillScopes } from "./skillsView";
import { ScopeSelect } from "./ScopeSelect";
import { changesText, comparisonRows, fileChange, patchOf, type ComparisonData, type Receipt } from "./candidatesView";
import { formatSize } from "./artifactsView";
import { RunUpdatedSubscription } from "./TaskDetail";

graphql(`
  fragment CandidateItem on Candidate {
    id
    status
    expectedRevision
    settingsPatch
    comparison
    receipt
    decisionReason
    createdAt
    baseline {
      settings
      skills {
        id
      }
    }
    candidate {
      settings
      skills {
        id
      }
    }
    baselineRun {
      id
      status
      task {
        id
        project {
          id
        }
      }
    }
    candidateRun {
      id
      status
    }
  }
`);

const CandidateScopeQuery = graphql(`
  query CandidateScope($scopeId: ID!) {
    candidates(scopeId: $scopeId) {
      ...CandidateItem
    }
    effectiveSettings(scopeId: $scopeId) {
      layers {
        scopeId
        revision
      }
    }
    skillActivations(scopeId: $scopeId) {
      id
      status
      scopeId
      version {
        id
        skillId
      }
    }
    skills(first: 50) {
      nodes {
        id
        name
        versions {
          id
          number
          reviewState
          hasScripts
        }
      }
    }
  }
`);

const ProjectWorkQuery = graphql(`
  query CandidateProjectWork($projectId: ID!) {
    tasks(projectId: $projectId, first: 50) {
      nodes {
        id
        title
      }
    }
    agents(projectId: $projectId) {
      id
      name
      online
    }
  }
`);

const ProposeMutation = graphql(`
  mutation ProposeCandidate($scopeId: ID!, $expectedRevision: Int!, $patch: CandidatePatchInput!) {
    proposeCandidate(scopeId: $scopeId, expectedRevision: $expectedRevision, patch: $patch) {
      ...CandidateItem
    }
  }
`);

const PrepareMutation = graphql(`
  mutation PrepareCandidate($candidateId: ID!, $taskId: ID!, $agentId: ID!) {
    prepareCandidate(candidateId: $candidateId, taskId: $taskId, agentId: $agentId) {
      ...CandidateItem
    }
  }
`);

const CompareMutation = graphql(`
  mutation CompareCandidate($candidateId: ID!) {
    compareCandidate(candidateId: $candidateId) {
      ...CandidateItem
    }
  }
`);

const DecideMutation = graphql(`
  mutation DecideCandidate($candidateId: ID!, $decision: ApprovalDecision!, $reason: String) {
    decideCandidate(candidateId: $candidateId, decision: $decision, reason: $reason) {
      ...CandidateItem
    }
  }
`);

const ApplyMutation = graphql(`
  mutation ApplyCandidate($candidateId: ID!) {
    applyCandidate(candidateId: $candidateId) {
      ...CandidateItem
    }
  }
`);

export function Candidates() {
  usePageTitle("Candidates");
  const [{ data: viewer }] = useQuery({ query: ViewerQuery });
  const [{ data, error }] = useQuery({ query: WorkspacesQuery });
  const scopes = skillScopes(scopeChoices(viewer?.viewer.organization, data?.workspaces.nodes ?? []));
  const [chosen, setChosen] = useState("");
  const scope = scopes.find((s) => s.id === chosen) ?? scopes.find((s) => s.path.length === 3) ?? scopes[0];
  return (
    <section className="stack">
      <h1>Candidates</h1>
      <p className="muted">
        Try a change to a scope's context budget and skills on a task, beside the scope as it is, before you apply it. Both runs are
        ordinary runs on one agent; nothing changes in the scope until an approved candidate is applied.
      </p>
      <ErrorBox error={error} />
      <ScopeSelect label="Scope" scopes={scopes} value={scope?.id ?? ""} onChange={setChosen} />
      {scope && <ScopeCandidates key={scope.id} scopeId={scope.id} projects={projectsIn(scope, scopes)} />}
    </section>
  );
}

/** The projects a scope holds, where a candidate's runs can be started: itself, for a project. */
function projectsIn(scope: Scope, scopes: readonly Scope[]): Scope[] {
  return scopes.filter((s) => s.path.length === 3 && s.path.includes(scope.id));
}

function ScopeCandidates({ scopeId, projects }: { scopeId: string; projects: Scope[] }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: CandidateScopeQuery, variables: { scopeId } });
  if (fetching && !data) return <Loading what="candidates" />;
  const names = new Map<string, string>();
  for (const skill of data?.skills.nodes ?? []) for (const v of skill.versions) names.set(v.id, `${skill.name} v${v.number}`);
  const nameOf = (versionId: string) => names.get(versionId) ?? "a skill version";
  const reload = () => refetch({ requestPolicy: "network-only" });
  return (
    <>
      <ErrorBox error={error} />
      {data && <Propose scopeId={scopeId} data={data} nameOf={nameOf} onProposed={reload} />}
      <h2>Proposed here</h2>
      {data?.candidates.length === 0 && <p className="muted">No candidate yet.</p>}
      <ul className="stack plain" aria-label="Candidates" data-testid="candidates">
        {data?.candidates.map((c) => (
          <CandidateCard key={c.id} candidate={c} projects={projects} nameOf={nameOf} onChanged={reload} />
        ))}
      </ul>
    </>
  );
}

function Propose({ scopeId, data, nameOf, onProposed }: { scopeId: string; data: ScopeData; nameOf: (id: string) => string; onProposed: () => void }) {
  const [proposing, propose] = useMutation(ProposeMutation);
  const [budget, setBudget] = useState("");
  const [activate, setActivate] = useState<string[]>([]);
  const [deactivate, setDeactivate] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const own = data.skillActivations.filter((a) => a.scopeId === scopeId && a.status === "ACTIVE");
  const revision = data.effectiveSettings.layers.find((l) => l.scopeId === scopeId)?.revision ?? 0;
  const selectable = data.skills.nodes.flatMap((s) =>
    s.versions.filter((v) => v.reviewState === "APPROVED" && !v.hasScripts && !own.some((a) => a.version.id === v.id)),
  );
  const toggle = (list: string[], set: (l: string[]) => void, id: string) => set(list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const patch = patchOf({ budget, activate, deactivate });
    if ("error" in patch) {
      setProblem(patch.error);
      return;
    }
    setProblem(null);
    const result = await propose({ scopeId, expectedRevision: revision, patch });
    if (result.data) {
      setBudget("");
      setActivate([]);
      setDeactivate([]);
      onProposed();
    }
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label="Propose a candidate">
      <h2>Propose a change</h2>
      <label>
        Context budget to try (tokens){" "}
        <input inputMode="numeric" value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="unchanged" />
      </label>
      {selectable.length > 0 && (
        <fieldset>
          <legend>Switch on</legend>
          {selectable.map((v) => (
            <label key={v.id}>
              <input type="checkbox" checked={activate.includes(v.id)} onChange={() => toggle(activate, setActivate, v.id)} /> {nameOf(v.id)}
            </label>
          ))}
        </fieldset>
      )}
      {own.length > 0 && (
        <fieldset>
          <legend>Switch off</legend>
          {own.map((a) => (
            <label key={a.id}>
              <input type="checkbox" checked={deactivate.includes(a.version.skillId)} onChange={() => toggle(deactivate, setDeactivate, a.version.skillId)} />{" "}
              {nameOf(a.version.id)}
            </label>
          ))}
        </fieldset>
      )}
      <p className="muted small">Against settings revision {revision} of this scope. Skills with scripts are switched on from Skills, with their own approval.</p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <ErrorBox error={proposing.error} />
      <div>
        <Action type="submit" busy={proposing.fetching}>
          Propose
        </Action>
      </div>
    </form>
  );
}

function CandidateCard({
  candidate,
  projects,
  nameOf,
  onChanged,
}: {
  candidate: CandidateItemFragment;
  projects: Scope[];
  nameOf: (id: string) => string;
  onChanged: () => void;
}) {
  const changes = changesText(
    candidate.settingsPatch,
    candidate.baseline.skills.map((s) => s.id),
    candidate.candidate.skills.map((s) => s.id),
    nameOf,
  );
  return (
    <li className="card stack" data-testid="candidate" data-status={candidate.status}>
      <p>
        <Status of={candidate.status} /> <strong>{changes.join(", ")}</strong>
      </p>
      {candidate.status === "PROPOSED" &&
        (projects.length > 0 ? <Prepare candidateId={candidate.id} projects={projects} onPrepared={onChanged} /> : <p className="muted">No project here to start its runs in.</p>)}
      {candidate.status === "PREPARED" && candidate.baselineRun?.task.project && <LiveRuns projectId={candidate.baselineRun.task.project.id} />}
      {candidate.baselineRun && candidate.candidateRun && (
        <p data-testid="candidate-runs">
          Runs: <Link href={`/runs/${candidate.baselineRun.id}`}>baseline</Link> ({candidate.baselineRun.status.toLowerCase().replace(/_/g, " ")}),{" "}
          <Link href={`/runs/${candidate.candidateRun.id}`}>candidate</Link> ({candidate.candidateRun.status.toLowerCase().replace(/_/g, " ")})
        </p>
      )}
      {candidate.comparison ? <Comparison comparison={candidate.comparison as ComparisonData} /> : null}
      <Next candidate={candidate} onChanged={onChanged} />
      {candidate.decisionReason && <p className="muted">Reason: {candidate.decisionReason}</p>}
      {candidate.receipt ? <Applied receipt={candidate.receipt as Receipt} /> : null}
    </li>
  );
}

/** Follows the runs of the project a candidate is tried in, so its runs' status shows as it changes. */
function LiveRuns({ projectId }: { projectId: string }) {
  useSubscription({ query: RunUpdatedSubscription, variables: { projectId } });
  return null;
}

function Applied({ receipt }: { receipt: Receipt }) {
  return (
    <p data-testid="receipt">
      <Badge accent>applied</Badge> {new Date(receipt.appliedAt).toLocaleString()}, settings revision {receipt.settingsRevision}
    </p>
  );
}

function Prepare({ candidateId, projects, onPrepared }: { candidateId: string; projects: Scope[]; onPrepared: () => void }) {
  const [project, setProject] = useState(projects[0].id);
  const [{ data }] = useQuery({ query: ProjectWorkQuery, variables: { projectId: project } });
  const [preparing, prepare] = useMutation(PrepareMutation);
  const [task, setTask] = useState("");
  const [agent, setAgent] = useState("");
  const tasks = data?.tasks.nodes ?? [];
  const agents = (data?.agents ?? []).filter((a) => a.online);
  const taskId = task || tasks[0]?.id || "";
  const agentId = agent || agents[0]?.id || "";
  const start = async () => {
    const result = await prepare({ candidateId, taskId, agentId });
    if (result.data) onPrepared();
  };
  return (
    <div className="stack">
      {projects.length > 1 && (
        <ScopeSelect
          label="Project"
          scopes={projects}
          value={project}
          onChange={(id) => {
            setProject(id);
            setTask("");
            setAgent("");
          }}
        />
      )}
      <label>
        Task{" "}
        <select value={taskId} onChange={(e) => setTask(e.target.value)}>
          {tasks.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Agent{" "}
        <select value={agentId} onChange={(e) => setAgent(e.target.value)}>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <ErrorBox error={preparing.error} />
      <div>
        <Action busy={preparing.fetching} disabled={!taskId || !agentId} onClick={start}>
          Start both runs
        </Action>
      </div>
    </div>
  );
}

function Comparison({ comparison }: { comparison: ComparisonData }) {
  const rows = comparisonRows(comparison);
  return (
    <table data-testid="comparison">
      <thead>
        <tr>
          <th scope="col">Observed</th>
          <th scope="col">Baseline</th>
          <th scope="col">Candidate</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label} data-differs={r.differs}>
            <th scope="row">{r.label}</th>
            <td>{r.baseline}</td>
            <td>{r.differs ? <strong>{r.candidate}</strong> : r.candidate}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">Acceptance criteria met</th>
          <td colSpan={2}>
            {comparison.criteriaMet ?? 0} of {comparison.criteriaTotal ?? 0}
          </td>
        </tr>
        {(comparison.files ?? []).map((f) => (
          <tr key={f.name} data-file={f.name} data-differs={f.change !== "same"}>
            <th scope="row">
              <code>{f.name}</code>
            </th>
            <td colSpan={2}>
              {f.change === "same" ? fileChange(f) : <strong>{fileChange(f)}</strong>}
              {f.baseline && f.candidate && f.change === "differs" && (
                <span className="small muted">
                  {" "}
                  ({formatSize(f.baseline.sizeBytes)} → {formatSize(f.candidate.sizeBytes)})
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the candidate's status offers next: compare, decide or apply. */
function Next({ candidate, onChanged }: { candidate: CandidateItemFragment; onChanged: () => void }) {
  const [comparing, compare] = useMutation(CompareMutation);
  const [deciding, decide] = useMutation(DecideMutation);
  const [applying, apply] = useMutation(ApplyMutation);
  const [reason, setReason] = useState("");
  const candidateId = candidate.id;
  const after = (result: { data?: unknown }) => {
    if (result.data) onChanged();
  };
  const ended = (status?: string) => !!status && ["SUCCEEDED", "FAILED", "CANCELLED", "INTERRUPTED"].includes(status);
  if (candidate.status === "PREPARED") {
    const ready = ended(candidate.baselineRun?.status) && ended(candidate.candidateRun?.status);
    return (
      <div className="stack">
        {!ready && <p className="muted">Compare once both runs have ended.</p>}
        <ErrorBox error={comparing.error} />
        <div>
          <Action busy={comparing.fetching} onClick={async () => after(await compare({ candidateId }))}>
            Compare
          </Action>
        </div>
      </div>
    );
  }
  if (candidate.status === "COMPARED") {
    return (
      <div className="stack">
        <label>
          Reason <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
        </label>
        <ErrorBox error={deciding.error} />
        <div className="row">
          <Action busy={deciding.fetching} onClick={async () => after(await decide({ candidateId, decision: "APPROVE", reason: reason || null }))}>
            Approve
          </Action>
          <Action busy={deciding.fetching} onClick={async () => after(await decide({ candidateId, decision: "DENY", reason: reason || null }))}>
            Reject
          </Action>
        </div>
      </div>
    );
  }
  if (candidate.status === "APPROVED") {
    return (
      <div className="stack">
        <ErrorBox error={applying.error} />
        <div>
          <Action busy={applying.fetching} onClick={async () => after(await apply({ candidateId }))}>
            Apply
          </Action>
        </div>
      </div>
    );
  }
  return null;
}
