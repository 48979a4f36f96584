// The accounts of the organization; an administrator disables one (its sessions end at once,
// open connections included) after a confirmation, and can undo it or enable it again later.
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { Action, Confirm, ErrorBox, Loading, Status, humanize, usePageTitle } from "../ui/components";

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
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Roles</th>
              <th>State</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.users.nodes.map((u) => {
              const busy = changing.fetching && changing.operation?.variables.id === u.id;
              const roles = [...new Set(u.roleBindings.map((b) => humanize(b.role)))].join(", ");
              return (
                <tr key={u.id}>
                  <td>{u.displayName}</td>
                  <td>{u.email}</td>
                  <td>{roles || "—"}</td>
                  <td>
                    <Status of={u.disabled ? "DISABLED" : "ACTIVE"} />
                  </td>
                  <td>
                    {u.id !== data.viewer.id &&
                      (u.disabled ? (
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
                      ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {data?.users.pageInfo.hasNextPage && <p className="muted">Showing the first 100 people.</p>}
    </section>
  );
}
