// Settings per scope: the keys the control plane reads itself as a form (each with the value in
// force and where it comes from), every value in force with its origin, and, as the advanced
// view, the layer written at this scope edited as a JSON merge patch against its revision.
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { Action, Badge, ErrorBox, Loading, Table, usePageTitle } from "../ui/components";
import { WorkspacesQuery } from "./Workspaces";
import { ViewerQuery } from "../api/viewer";
import { knownRows, patchFor, type Entry } from "./settingsForm";
import { scopeChoices } from "./scopes";
import { ScopeSelect } from "./ScopeSelect";

const EffectiveSettingsQuery = graphql(`
  query EffectiveSettings($scopeId: ID!) {
    effectiveSettings(scopeId: $scopeId) {
      scopeId
      entries {
        key
        value
        sourceScopeId
        sourceScopeKind
      }
      layers {
        scopeId
        scopeKind
        revision
        settings
      }
    }
  }
`);

const KnownSettingsQuery = graphql(`
  query KnownSettings {
    knownSettings {
      key
      type
      default
      minimum
      maximum
      description
    }
  }
`);

const SetSettingsMutation = graphql(`
  mutation SetSettings($scopeId: ID!, $patch: JSON!, $expectedRevision: Int!) {
    setSettings(scopeId: $scopeId, patch: $patch, expectedRevision: $expectedRevision) {
      id
      scopeId
      revision
      settings
    }
  }
`);

export function Settings() {
  usePageTitle("Settings");
  const [{ data: viewer }] = useQuery({ query: ViewerQuery });
  const [{ data, error }] = useQuery({ query: WorkspacesQuery });
  const scopes = scopeChoices(viewer?.viewer.organization, data?.workspaces.nodes ?? []);
  const [chosen, setChosen] = useState("");
  const scope = scopes.find((s) => s.id === chosen) ?? scopes[0];
  return (
    <section className="stack">
      <h1>Settings</h1>
      <ErrorBox error={error} />
      <ScopeSelect label="Scope" scopes={scopes} value={scope?.id ?? ""} onChange={setChosen} />
      {scope && <ScopeSettings key={scope.id} scopeId={scope.id} />}
    </section>
  );
}

function ScopeSettings({ scopeId }: { scopeId: string }) {
  const [{ data, fetching, error }] = useQuery({ query: EffectiveSettingsQuery, variables: { scopeId } });
  const [saving, save] = useMutation(SetSettingsMutation);
  const [patch, setPatch] = useState("{}");
  const [parseError, setParseError] = useState<string | null>(null);
  if (fetching && !data) return <Loading what="settings" />;
  const settings = data?.effectiveSettings;
  const own = settings?.layers.find((l) => l.scopeId === scopeId);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(patch);
    } catch (e) {
      setParseError(`The patch is not JSON: ${(e as Error).message}`);
      return;
    }
    setParseError(null);
    const result = await save({ scopeId, patch: parsed, expectedRevision: own?.revision ?? 0 });
    if (result.data) setPatch("{}");
  };
  const write = (key: string, value: unknown) => save({ scopeId, patch: patchFor(key, value), expectedRevision: own?.revision ?? 0 });
  return (
    <>
      <ErrorBox error={error} />
      <KnownSettings scopeId={scopeId} entries={settings?.entries ?? []} busy={saving.fetching} onWrite={write} />
      <ErrorBox error={saving.error} />
      <article className="card stack">
        <h2>In force here</h2>
        {settings?.entries.length === 0 && <p className="muted">Nothing is set at this scope or above it.</p>}
        <Table
          rows={settings?.entries ?? []}
          rowKey={(e) => e.key}
          columns={[
            { head: "Key", cell: (e) => <code>{e.key}</code> },
            { head: "Value", cell: (e) => <code>{JSON.stringify(e.value)}</code> },
            {
              head: "From",
              cell: (e) =>
                e.sourceScopeId === scopeId ? <Badge accent>this {e.sourceScopeKind}</Badge> : <Badge>inherited from {e.sourceScopeKind}</Badge>,
            },
          ]}
        />
        <p className="muted small">Inheritance: {settings?.layers.map((l) => `${l.scopeKind} (revision ${l.revision})`).join(" → ")}</p>
      </article>
      <details className="card">
        <summary>Advanced: change this scope with a merge patch</summary>
      <form className="stack" onSubmit={submit} aria-label="Change settings">
        <p className="muted small">
          A JSON merge patch on what is written here (revision {own?.revision ?? 0}): <code>null</code> removes a key.
          Written now: <code>{JSON.stringify(own?.settings ?? {})}</code>
        </p>
        <textarea rows={5} value={patch} onChange={(e) => setPatch(e.target.value)} aria-label="Merge patch" spellCheck={false} />
        {parseError && (
          <p className="error" role="alert">
            {parseError}
          </p>
        )}
        <Action type="submit" busy={saving.fetching}>
          Apply patch
        </Action>
      </form>
      </details>
    </>
  );
}

function KnownSettings({
  scopeId,
  entries,
  busy,
  onWrite,
}: {
  scopeId: string;
  entries: readonly Entry[];
  busy: boolean;
  onWrite: (key: string, value: unknown) => Promise<{ error?: unknown }>;
}) {
  const [{ data, error }] = useQuery({ query: KnownSettingsQuery });
  const rows = knownRows(data?.knownSettings ?? [], entries, scopeId);
  // The value just chosen shows at once, until the settings read again replace it (or the write
  // is refused).
  const [chosen, setChosen] = useState<{ key: string; value: unknown } | null>(null);
  useEffect(() => setChosen(null), [entries]);
  const shown = (key: string, value: unknown) => (chosen?.key === key ? chosen.value : value);
  const choose = async (key: string, value: unknown) => {
    setChosen({ key, value });
    if ((await onWrite(key, value)).error) setChosen(null);
  };
  return (
    <article className="card stack" aria-labelledby="known-settings">
      <h2 id="known-settings">What the control plane does here</h2>
      <ErrorBox error={error} />
      <ul className="plain stack">
        {rows.map((row) => (
          <li key={row.key} className="stack" data-setting={row.key}>
            {row.type === "BOOLEAN" && (
              <label>
                <input type="checkbox" checked={shown(row.key, row.value) === true} disabled={busy} onChange={(e) => void choose(row.key, e.target.checked)} />{" "}
                <code>{row.key}</code>
              </label>
            )}
            {row.type === "INTEGER" && (
              <WholeNumber
                label={row.key}
                value={shown(row.key, row.value)}
                minimum={row.minimum ?? undefined}
                maximum={row.maximum ?? undefined}
                busy={busy}
                onChoose={(n) => void choose(row.key, n)}
              />
            )}
            <span className="muted small">{row.description}</span>
            <span className="inline">
              {row.origin.kind === "here" ? (
                <>
                  <Badge accent>set at this scope</Badge>
                  <Action className="link" busy={busy} onClick={() => onWrite(row.key, null)}>
                    Inherit instead
                  </Action>
                </>
              ) : row.origin.kind === "inherited" ? (
                <Badge>inherited from {row.origin.scopeKind}</Badge>
              ) : (
                <Badge>default</Badge>
              )}
            </span>
          </li>
        ))}
      </ul>
    </article>
  );
}

/** A whole-number setting: typed, then written when the person leaves the field or presses Enter. */
function WholeNumber({
  label,
  value,
  minimum,
  maximum,
  busy,
  onChoose,
}: {
  label: string;
  value: unknown;
  minimum?: number;
  maximum?: number;
  busy: boolean;
  onChoose: (n: number) => void;
}) {
  const [draft, setDraft] = useState(String(value ?? ""));
  useEffect(() => setDraft(String(value ?? "")), [value]);
  const commit = () => {
    const n = Number(draft);
    if (draft.trim() !== "" && Number.isInteger(n) && n !== value) onChoose(n);
  };
  return (
    <label>
      <code>{label}</code>{" "}
      <input
        type="number"
        inputMode="numeric"
        step={1}
        min={minimum}
        max={maximum}
        value={draft}
        disabled={busy}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
      />
    </label>
  );
}
