// A labelled choice among the scopes of `scopeChoices`, as Settings and Memory offer it.
import type { Scope } from "./scopes";

export function ScopeSelect({ label, scopes, value, onChange }: { label: string; scopes: Scope[]; value: string; onChange: (id: string) => void }) {
  return (
    <label>
      {label}{" "}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {scopes.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
    </label>
  );
}
