// The scopes a person chooses among where settings and memory are read and written: their
// organization, then each workspace they can see followed by its projects.

export interface Scope {
  id: string;
  label: string;
}

interface Workspace {
  id: string;
  name: string;
  projects: { nodes: readonly { id: string; name: string }[] };
}

export function scopeChoices(organization: { id: string; name: string } | undefined, workspaces: readonly Workspace[]): Scope[] {
  const scopes: Scope[] = [];
  if (organization) scopes.push({ id: organization.id, label: `Organization: ${organization.name}` });
  for (const w of workspaces) {
    scopes.push({ id: w.id, label: `Workspace: ${w.name}` });
    for (const p of w.projects.nodes) scopes.push({ id: p.id, label: `Project: ${w.name} / ${p.name}` });
  }
  return scopes;
}
