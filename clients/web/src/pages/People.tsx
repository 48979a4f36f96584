// The accounts of the organization; an administrator disables one (its sessions end at once,
// open connections included) or enables it again.
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { Action, Badge, ErrorBox, Loading, humanize } from "../ui/components";

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
  const [changing, change] = useMutation(SetUserDisabledMutation);
  const setDisabled = (id: string, email: string, disabled: boolean) => {
    if (disabled && !window.confirm(`Disable ${email}? Their sessions end now, on every device.`)) return;
    void change({ id, disabled });
  };
  return (
    <section className="stack">
      <h1>People</h1>
      <ErrorBox error={error ?? changing.error} />
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
                  <td>{u.disabled ? <Badge tone="bad">disabled</Badge> : <Badge tone="ok">active</Badge>}</td>
                  <td>
                    {u.id !== data.viewer.id && (
                      <Action busy={busy} onClick={() => setDisabled(u.id, u.email, !u.disabled)}>
                        {u.disabled ? "Enable" : "Disable"}
                      </Action>
                    )}
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
