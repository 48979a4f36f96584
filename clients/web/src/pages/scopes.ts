// The scopes a person chooses among where settings and memory are read and written: their
// organization, then each workspace they can see followed by its projects and, for memory, its
// agents (an agent's own memory, docs/memory.md); and what their roles let them do there.
import type { Role } from "../gql/graphql";

export interface Scope {
  id: string;
  label: string;
  /** The organization, workspace and project ids it lies in (its own among them): where the bindings that apply to it are. */
  path: string[];
}

interface Named {
  id: string;
  name: string;
}

interface Workspace extends Named {
  projects: { nodes: readonly Named[] };
}

export function scopeChoices(
  organization: Named | undefined,
  workspaces: readonly Workspace[],
  agents: ReadonlyMap<string, readonly Named[]> = new Map(),
): Scope[] {
  const top = organization ? [organization.id] : [];
  const scopes: Scope[] = [];
  if (organization) scopes.push({ id: organization.id, label: `Organization: ${organization.name}`, path: top });
  for (const w of workspaces) {
    const path = [...top, w.id];
    scopes.push({ id: w.id, label: `Workspace: ${w.name}`, path });
    for (const p of w.projects.nodes) scopes.push({ id: p.id, label: `Project: ${w.name} / ${p.name}`, path: [...path, p.id] });
    // An agent's memory belongs to its workspace: its people review it, its members write it.
    for (const a of agents.get(w.id) ?? []) scopes.push({ id: a.id, label: `Agent · ${a.name}`, path });
  }
  return scopes;
}

const ROLES: readonly Role[] = ["VIEWER", "MEMBER", "OPERATOR", "ADMIN", "OWNER"];

const rank = (role: Role | null) => (role ? ROLES.indexOf(role) : -1);

type Binding = { role: Role; scopeId: string };

/** A person's role on `scope`: the highest of their bindings on it or a scope above it; null for none. */
export function roleOn(scope: Scope, bindings: readonly Binding[]): Role | null {
  return bindings.filter((b) => scope.path.includes(b.scopeId)).reduce<Role | null>((best, b) => (rank(b.role) > rank(best) ? b.role : best), null);
}

/**
 * Where a person reads memory (any role on the scope: to anyone else the server says it does not
 * exist) and where they write it (members and above).
 */
export function memoryScopes(scopes: readonly Scope[], bindings: readonly Binding[]): { readable: Scope[]; writable: Scope[] } {
  return {
    readable: scopes.filter((s) => roleOn(s, bindings) !== null),
    writable: scopes.filter((s) => rank(roleOn(s, bindings)) >= rank("MEMBER")),
  };
}
