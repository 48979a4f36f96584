// The signed-in user's device sessions; any of them can be revoked, this one included, after
// a confirmation (a revoked session cannot be restored: its device signs in again).
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { forget } from "../api/auth";
import { Badge, Confirm, ErrorBox, Loading, Status, Table, When, usePageTitle } from "../ui/components";

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
  usePageTitle("Sessions");
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
      <Table
        rows={data?.sessions.nodes ?? []}
        rowKey={(s) => s.id}
        columns={[
          {
            head: "Device",
            cell: (s) => (
              <>
                {s.deviceName} {s.current && <Badge accent>this device</Badge>}
              </>
            ),
          },
          { head: "Address", cell: (s) => s.clientAddress ?? "—" },
          { head: "Signed in", cell: (s) => <When at={s.createdAt} /> },
          { head: "Last used", cell: (s) => <When at={s.lastUsedAt} /> },
          {
            head: "State",
            cell: (s) =>
              s.revokedAt ? (
                <Status of="REVOKED">Revoked{s.revokedReason && s.revokedReason !== "revoked" ? `: ${s.revokedReason}` : ""}</Status>
              ) : (
                <Status of="ACTIVE" />
              ),
          },
          {
            head: "",
            cell: (s) =>
              !s.revokedAt && (
                <Confirm
                  label="Revoke"
                  question={s.current ? "Sign this device out?" : `Revoke the session of ${s.deviceName}?`}
                  consequence={
                    s.current
                      ? "This session ends now and this device has to sign in again."
                      : "That device is signed out at once and has to sign in again. This cannot be undone."
                  }
                  confirm="Revoke the session"
                  keep="Keep it"
                  busy={revoking.fetching && revoking.operation?.variables.id === s.id}
                  onConfirm={() => revokeOne(s.id, s.current)}
                />
              ),
          },
        ]}
      />
    </section>
  );
}
