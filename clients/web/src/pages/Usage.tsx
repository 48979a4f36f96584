// Usage (docs/usage.md): what runs in a scope used over a period — tokens and cost by day and by
// agent, project, workspace, person or model, each figure saying how far it can be trusted —
// how the runs there ended, and the scope's budgets, which its administrators set and remove.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import type { BudgetPeriod, UsageGrouping, UsageSummaryQuery } from "../gql/graphql";
import { Action, Badge, ErrorBox, Loading, Status, humanize, usePageTitle } from "../ui/components";
import { WorkspacesQuery } from "./Workspaces";
import { ViewerQuery } from "../api/viewer";
import { roleOn, scopeChoices, type Scope } from "./scopes";
import { skillScopes } from "./skillsView";
import { ScopeSelect } from "./ScopeSelect";
import {
  WINDOWS,
  barWidths,
  budgetOf,
  budgetText,
  costText,
  formatTokens,
  tokensText,
  usedShare,
  windowOf,
  type BudgetForm,
  type WindowChoice,
} from "./usageView";

const UsageSummaryQuery = graphql(`
  query UsageSummary($scopeId: ID!, $from: DateTime!, $to: DateTime!, $groupBy: UsageGrouping!) {
    usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: $groupBy) {
      total {
        runs
        requests
        inputTokens
        outputTokens
        tokens
        costUsd
        cost
      }
      groups {
        key
        label
        totals {
          runs
          inputTokens
          outputTokens
          tokens
          costUsd
          cost
        }
      }
    }
    days: usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: DAY) {
      groups {
        key
        totals {
          inputTokens
          outputTokens
        }
      }
    }
  }
`);

const RunStatisticsQuery = graphql(`
  query UsageRunStatistics($filter: RunFilter!) {
    runStatistics(filter: $filter) {
      total {
        runs
        finished
        medianDurationMs
        p95DurationMs
        byStatus {
          status
          count
        }
      }
    }
  }
`);

const BudgetPoliciesQuery = graphql(`
  query BudgetPolicies($scopeId: ID!) {
    budgetPolicies(scopeId: $scopeId) {
      id
      scopeId
      period
      maxTokens
      maxCostUsd
      usedTokens
      usedCostUsd
      exceeded
      periodEnd
    }
  }
`);

const SetBudgetPolicyMutation = graphql(`
  mutation SetBudgetPolicy($scopeId: ID!, $period: BudgetPeriod!, $maxTokens: Int, $maxCostUsd: Float) {
    setBudgetPolicy(scopeId: $scopeId, period: $period, maxTokens: $maxTokens, maxCostUsd: $maxCostUsd) {
      id
    }
  }
`);

const RemoveBudgetPolicyMutation = graphql(`
  mutation RemoveBudgetPolicy($id: ID!) {
    removeBudgetPolicy(id: $id)
  }
`);

const UsageRolesQuery = graphql(`
  query UsageRoles {
    viewer {
      id
      roleBindings {
        id
        role
        scopeId
      }
    }
  }
`);

const GROUPINGS: UsageGrouping[] = ["AGENT", "PROJECT", "WORKSPACE", "USER", "MODEL"];

export function Usage() {
  usePageTitle("Usage");
  const [{ data: viewer }] = useQuery({ query: ViewerQuery });
  const [{ data: roles }] = useQuery({ query: UsageRolesQuery });
  const [{ data, error }] = useQuery({ query: WorkspacesQuery });
  const scopes = skillScopes(scopeChoices(viewer?.viewer.organization, data?.workspaces.nodes ?? []));
  const [chosen, setChosen] = useState("");
  const scope = scopes.find((s) => s.id === chosen) ?? scopes[0];
  const [period, setPeriod] = useState<WindowChoice>("7d");
  const [groupBy, setGroupBy] = useState<UsageGrouping>("AGENT");
  const administers = scope ? ["ADMIN", "OWNER"].includes(roleOn(scope, roles?.viewer.roleBindings ?? []) ?? "") : false;
  return (
    <section className="stack">
      <h1>Usage</h1>
      <p className="muted">
        What runs used of their model providers, and the budgets that stop new runs once a period is spent. Each run counts once: what
        the connector's model gateway measured of it, else what its runtime reported.
      </p>
      <ErrorBox error={error} />
      <div className="inline">
        <ScopeSelect label="Scope" scopes={scopes} value={scope?.id ?? ""} onChange={setChosen} />
        <label>
          Period{" "}
          <select value={period} onChange={(e) => setPeriod(e.target.value as WindowChoice)}>
            {WINDOWS.map((w) => (
              <option key={w.value} value={w.value}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          By{" "}
          <select value={groupBy} onChange={(e) => setGroupBy(e.target.value as UsageGrouping)}>
            {GROUPINGS.map((g) => (
              <option key={g} value={g}>
                {humanize(g)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {scope && <ScopeUsage key={`${scope.id}-${period}`} scope={scope} period={period} groupBy={groupBy} />}
      {scope && <Budgets key={scope.id} scope={scope} administers={administers} />}
    </section>
  );
}

function ScopeUsage({ scope, period, groupBy }: { scope: Scope; period: WindowChoice; groupBy: UsageGrouping }) {
  // Fixed when the scope or period is chosen: a moving `now` would ask again on every render.
  const [window] = useState(() => windowOf(period, new Date()));
  const [{ data, fetching, error }] = useQuery({
    query: UsageSummaryQuery,
    variables: { scopeId: scope.id, ...window, groupBy },
    requestPolicy: "cache-and-network",
  });
  const filter = { ...scopeFilter(scope), from: window.from, to: window.to };
  const [statistics] = useQuery({ query: RunStatisticsQuery, variables: { filter }, requestPolicy: "cache-and-network" });
  if (error) return <ErrorBox error={error} />;
  if (!data) return fetching ? <Loading what="usage" /> : null;
  const { total, groups } = data.usageSummary;
  const runs = statistics.data?.runStatistics.total;
  return (
    <>
      <dl className="stats" data-testid="usage-total">
        <div>
          <dt>Runs that used anything</dt>
          <dd>{total.runs}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{tokensText(total)}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{costText(total)}</dd>
        </div>
        <div>
          <dt>Model requests measured</dt>
          <dd>{total.requests}</dd>
        </div>
      </dl>
      <DayChart days={data.days.groups} />
      <h2>By {humanize(groupBy).toLowerCase()}</h2>
      {groups.length === 0 ? <p className="muted">Nothing used in this period.</p> : <GroupBars groups={groups} />}
      <h2>Runs</h2>
      <ErrorBox error={statistics.error} />
      {runs && (
        <div data-testid="run-statistics">
          <p>
            {runs.runs} {runs.runs === 1 ? "run" : "runs"} started in this period, {runs.finished} finished
            {runs.medianDurationMs !== null && runs.medianDurationMs !== undefined
              ? `; a finished run took ${seconds(runs.medianDurationMs)} (median), ${seconds(runs.p95DurationMs ?? 0)} at the 95th percentile`
              : ""}
            .
          </p>
          <div className="inline">
            {runs.byStatus.map((s) => (
              <Status key={s.status} of={s.status}>
                {humanize(s.status)}: {s.count}
              </Status>
            ))}
          </div>
        </div>
      )}
    </>
  );
}

const seconds = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`);

/** Run statistics of the runs in a scope: a workspace's or project's; the organization's are all. */
function scopeFilter(scope: Scope): { workspaceId?: string; projectId?: string } {
  if (scope.path.length === 3) return { projectId: scope.id };
  if (scope.path.length === 2) return { workspaceId: scope.id };
  return {};
}

type Group = UsageSummaryQuery["usageSummary"]["groups"][number];

function GroupBars({ groups }: { groups: readonly Group[] }) {
  const widths = barWidths(groups.map((g) => g.totals.inputTokens + g.totals.outputTokens));
  return (
    <table className="listing bars" data-testid="usage-groups">
      <thead>
        <tr>
          <th>Who or what</th>
          <th>Tokens</th>
          <th>Cost</th>
          <th>Runs</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((g, i) => (
          <tr key={g.key || `none-${i}`} data-key={g.key}>
            <td>{g.label || g.key || "—"}</td>
            <td>
              <span className="bar" aria-hidden="true" style={{ width: `${widths[i]}%` }} />
              {tokensText(g.totals)}
            </td>
            <td>{costText(g.totals)}</td>
            <td>{g.totals.runs}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Tokens per day as columns, newest on the right. */
function DayChart({ days }: { days: readonly { key: string; totals: { inputTokens: number; outputTokens: number } }[] }) {
  if (days.length === 0) return null;
  const totals = days.map((d) => d.totals.inputTokens + d.totals.outputTokens);
  const heights = barWidths(totals);
  const width = Math.max(days.length * 24, 120);
  const summary = days.map((d, i) => `${d.key}: ${formatTokens(totals[i] ?? 0)} tokens`).join("; ");
  return (
    <figure className="day-chart">
      <svg viewBox={`0 0 ${width} 104`} role="img" aria-label={`Tokens by day. ${summary}`} data-testid="usage-days">
        {days.map((d, i) => {
          const height = heights[i] ?? 0;
          return (
            <rect key={d.key} x={i * 24 + 4} y={102 - height} width={16} height={Math.max(height, 1)} rx={2}>
              <title>{`${d.key}: ${formatTokens(totals[i] ?? 0)} tokens`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="muted small">
        Tokens by day, {days[0]?.key} to {days[days.length - 1]?.key}
      </figcaption>
    </figure>
  );
}

function Budgets({ scope, administers }: { scope: Scope; administers: boolean }) {
  const [{ data, error }, refetch] = useQuery({ query: BudgetPoliciesQuery, variables: { scopeId: scope.id }, requestPolicy: "cache-and-network" });
  const [removed, remove] = useMutation(RemoveBudgetPolicyMutation);
  const policies = data?.budgetPolicies ?? [];
  return (
    <section className="stack" aria-labelledby="budgets-heading">
      <h2 id="budgets-heading">Budgets</h2>
      <p className="muted">
        Budgets of this scope and of the scopes above it. Once one is spent, no new run starts here until its period ends; a run that
        starts may use at most what is left, and only agents whose usage the connector measures take runs under a budget.
      </p>
      <ErrorBox error={error ?? removed.error} />
      {policies.length === 0 && <p className="muted">No budget holds here.</p>}
      <ul className="plain stack" data-testid="budgets">
        {policies.map((p) => (
          <li key={p.id} className="card" data-period={p.period} data-exceeded={p.exceeded}>
            <div className="inline">
              <strong>{humanize(p.period)}</strong>
              {p.scopeId !== scope.id && <Badge>from a scope above</Badge>}
              {p.exceeded && <Badge accent>spent</Badge>}
            </div>
            <meter min={0} max={100} low={80} high={99} optimum={0} value={usedShare(p)} aria-label={`${humanize(p.period)} budget used`} />
            <p className="small">
              {budgetText(p)} used; whole again {new Date(p.periodEnd).toLocaleString()}
            </p>
            {administers && p.scopeId === scope.id && (
              <Action
                write
                busy={removed.fetching}
                onClick={async () => {
                  const result = await remove({ id: p.id });
                  if (!result.error) refetch({ requestPolicy: "network-only" });
                }}
              >
                Remove
              </Action>
            )}
          </li>
        ))}
      </ul>
      {administers && <BudgetEditor scopeId={scope.id} onSet={() => refetch({ requestPolicy: "network-only" })} />}
    </section>
  );
}

function BudgetEditor({ scopeId, onSet }: { scopeId: string; onSet: () => void }) {
  const [form, setForm] = useState<BudgetForm>({ period: "MONTHLY", maxTokens: "", maxCostUsd: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const [set, setBudget] = useMutation(SetBudgetPolicyMutation);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const budget = budgetOf(form);
    if ("error" in budget) {
      setProblem(budget.error);
      return;
    }
    setProblem(null);
    const result = await setBudget({ scopeId, ...budget });
    if (!result.error) {
      setForm({ ...form, maxTokens: "", maxCostUsd: "" });
      onSet();
    }
  };
  return (
    <form className="stack" onSubmit={(e) => void submit(e)} aria-label="Set a budget">
      <h3>Set a budget</h3>
      <div className="inline">
        <label>
          Period{" "}
          <select value={form.period} onChange={(e) => setForm({ ...form, period: e.target.value as BudgetPeriod })}>
            <option value="DAILY">Daily</option>
            <option value="WEEKLY">Weekly</option>
            <option value="MONTHLY">Monthly</option>
          </select>
        </label>
        <label>
          Most tokens <input inputMode="numeric" value={form.maxTokens} onChange={(e) => setForm({ ...form, maxTokens: e.target.value })} />
        </label>
        <label>
          Most cost (US$) <input inputMode="decimal" value={form.maxCostUsd} onChange={(e) => setForm({ ...form, maxCostUsd: e.target.value })} />
        </label>
        <button type="submit" disabled={set.fetching}>
          Set budget
        </button>
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <ErrorBox error={set.error} />
    </form>
  );
}
