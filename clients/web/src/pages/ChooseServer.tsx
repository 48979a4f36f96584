// Inside the Android app the page does not come from the server, so the person names it once.
import { useState, type FormEvent } from "react";
import { chooseServer } from "../api/platform";
import { Action, usePageTitle } from "../ui/components";

export function ChooseServer({ onChosen }: { onChosen: () => void }) {
  usePageTitle("Your server");
  const [address, setAddress] = useState("https://");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      chooseServer(address);
      onChosen();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <main className="signin">
      <h1>Agent Control Center</h1>
      <form onSubmit={submit} className="card stack" aria-label="Choose the server">
        <h2>Your server</h2>
        <label>
          Server address
          <input type="url" inputMode="url" required value={address} onChange={(e) => setAddress(e.target.value)} />
        </label>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
        <Action type="submit" write={false}>
          Connect
        </Action>
      </form>
    </main>
  );
}
