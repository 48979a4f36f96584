// The accounts of the organization; an administrator disables one (its sessions end at once,
// open connections included) after a confirmation, and can undo it or enable it again later.
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { Action, Confirm, ErrorBox, Loading, Status, Table, humanize, usePageTitle } from "../ui/components";

const PeopleQuery = graphql(`
  query People {
    viewer {
      id
    }
    users(first: 100) {
      nodes {
        id
        email
        displayName
        disabled
        roleBindings {
          role
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`);

const SetUserDisabledMutation = graphql(`
  mutation SetUserDisabled($id: ID!, $disabled: Boolean!) {
    setUserDisabled(id: $id, disabled: $disabled) {
      id
      disabled
    }
  }
`);

export function People() {
  const [{ data, fetching, error }] = useQuery({ query: PeopleQuery });
  usePageTitle("People");
  const [changing, change] = useMutation(SetUserDisabledMutation);
  // The person just disabled, whom "Undo" enables again (their ended sessions stay ended).
  const [disabled, setDisabled] = useState<{ id: string; email: string } | null>(null);
  const disable = async (id: string, email: string) => {
    const result = await change({ id, disabled: true });
    if (result.data) setDisabled({ id, email });
  };
  const enable = (id: string) => {
    setDisabled(null);
    void change({ id, disabled: false });
  };
  return (
    <section className="stack">
      <h1>People</h1>
      <ErrorBox error={error ?? changing.error} />
      {disabled && (
        <p className="notice inline" role="status" data-testid="undo">
          {disabled.email} is disabled and signed out everywhere.
          <button type="button" onClick={() => enable(disabled.id)}>
            Undo
          </button>
        </p>
      )}
      {fetching && !data && <Loading what="people" />}
      <Table
        rows={data?.users.nodes ?? []}
        rowKey={(u) => u.id}
        columns={[
          { head: "Name", cell: (u) => u.displayName },
          { head: "Email", cell: (u) => u.email },
          { head: "Roles", cell: (u) => [...new Set(u.roleBindings.map((b) => humanize(b.role)))].join(", ") || "—" },
          { head: "State", cell: (u) => <Status of={u.disabled ? "DISABLED" : "ACTIVE"} /> },
          {
            head: "",
            cell: (u) => {
              const busy = changing.fetching && changing.operation?.variables.id === u.id;
              if (u.id === data?.viewer.id) return null;
              return u.disabled ? (
                <Action busy={busy} onClick={() => enable(u.id)}>
                  Enable
                </Action>
              ) : (
                <Confirm
                  label="Disable"
                  question={`Disable ${u.email}?`}
                  consequence="Their sessions end now, on every device, and they cannot sign in until enabled again."
                  confirm="Disable the account"
                  keep="Keep the account"
                  busy={busy}
                  onConfirm={() => disable(u.id, u.email)}
                />
              );
            },
          },
        ]}
      />
      {data?.users.pageInfo.hasNextPage && <p className="muted">Showing the first 100 people.</p>}
    </section>
  );
}
