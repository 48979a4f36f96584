// The signed-in user's device sessions; any of them can be revoked, this one included.
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { forget } from "../api/auth";
import { Action, Badge, ErrorBox, Loading, When } from "../ui/components";

const SessionsQuery = graphql(`
  query Sessions {
    sessions(first: 100) {
      nodes {
        id
        deviceName
        clientAddress
        createdAt
        lastUsedAt
        revokedAt
        revokedReason
        current
      }
    }
  }
`);

const RevokeSessionMutation = graphql(`
  mutation RevokeSession($id: ID!) {
    revokeSession(id: $id) {
      id
      revokedAt
      revokedReason
    }
  }
`);

export function Sessions() {
  const [{ data, fetching, error }] = useQuery({ query: SessionsQuery });
  const [revoking, revoke] = useMutation(RevokeSessionMutation);
  const revokeOne = async (id: string, current: boolean) => {
    const result = await revoke({ id });
    if (result.data && current) forget();
  };
  return (
    <section className="stack">
      <h1>Sessions</h1>
      <ErrorBox error={error ?? revoking.error} />
      {fetching && !data && <Loading what="sessions" />}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Device</th>
              <th>Address</th>
              <th>Signed in</th>
              <th>Last used</th>
              <th>State</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.sessions.nodes.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.deviceName} {s.current && <Badge tone="info">this device</Badge>}
                </td>
                <td>{s.clientAddress ?? "—"}</td>
                <td>
                  <When at={s.createdAt} />
                </td>
                <td>
                  <When at={s.lastUsedAt} />
                </td>
                <td>{s.revokedAt ? <Badge tone="bad">revoked{s.revokedReason && s.revokedReason !== "revoked" ? `: ${s.revokedReason}` : ""}</Badge> : <Badge tone="ok">active</Badge>}</td>
                <td>
                  {!s.revokedAt && (
                    <Action busy={revoking.fetching && revoking.operation?.variables.id === s.id} onClick={() => revokeOne(s.id, s.current)}>
                      Revoke
                    </Action>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
