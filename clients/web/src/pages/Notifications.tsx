// The person's notifications page: everything they were told (the bell shows the latest 20),
// and where each kind reaches them besides the app — by email when the server has a relay.
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import type { NotificationChannel, NotificationKind } from "../gql/graphql";
import { ErrorBox, Loading, Table, usePageTitle } from "../ui/components";
import { NotificationLine } from "../NotificationBell";
import { KIND_LABELS, preferenceRows } from "./notificationsView";

const NotificationsPageQuery = graphql(`
  query NotificationsPage {
    notificationSettings {
      emailAvailable
      emailAddress
      preferences {
        kind
        channel
        enabled
      }
    }
    notifications(last: 100) {
      nodes {
        ...NotificationItem
      }
    }
  }
`);

const SetNotificationPreferenceMutation = graphql(`
  mutation SetNotificationPreference($kind: NotificationKind!, $channel: NotificationChannel!, $enabled: Boolean!) {
    setNotificationPreference(kind: $kind, channel: $channel, enabled: $enabled) {
      kind
      channel
      enabled
    }
  }
`);

export function NotificationsPage() {
  usePageTitle("Notifications");
  const [{ data, fetching, error }, refetch] = useQuery({ query: NotificationsPageQuery });
  const [setting, setPreference] = useMutation(SetNotificationPreferenceMutation);
  const settings = data?.notificationSettings;
  const rows = preferenceRows(settings?.preferences ?? []);
  // A box shows what was just chosen at once, and what the server holds again if it refused.
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const choose = async (kind: NotificationKind, channel: NotificationChannel, enabled: boolean) => {
    const key = `${kind}:${channel}`;
    setChosen((all) => ({ ...all, [key]: enabled }));
    const result = await setPreference({ kind, channel, enabled });
    if (!result.error) return refetch({ requestPolicy: "network-only" });
    setChosen((all) => {
      const rest = { ...all };
      delete rest[key];
      return rest;
    });
  };
  const told = [...(data?.notifications.nodes ?? [])].reverse();
  return (
    <section className="stack">
      <h1>Notifications</h1>
      <ErrorBox error={error ?? setting.error} />
      {fetching && !data && <Loading what="notifications" />}
      {settings && (
        <section className="card stack" aria-labelledby="delivery">
          <h2 id="delivery">By email</h2>
          <p className="muted">
            {settings.emailAvailable
              ? `What you are told is kept here and, for the kinds ticked, emailed to ${settings.emailAddress}.`
              : "This server sends no email yet (its operator has not configured an SMTP relay); what you tick here applies once it does."}
          </p>
          <Table
            rows={rows}
            rowKey={(r) => r.kind}
            rowData={(r) => ({ "data-kind": r.kind })}
            columns={[
              { head: "What", cell: (r) => r.label },
              {
                head: "Email",
                cell: (r) => (
                  <input
                    type="checkbox"
                    aria-label={`Email: ${r.label}`}
                    checked={chosen[`${r.kind}:EMAIL`] ?? r.channels.EMAIL ?? false}
                    onChange={(e) => void choose(r.kind, "EMAIL", e.currentTarget.checked)}
                  />
                ),
              },
            ]}
          />
        </section>
      )}
      <h2>What you were told</h2>
      {data && told.length === 0 && <p className="muted">Nothing to tell yet.</p>}
      <ul className="plain stack">
        {told.map((n) => (
          <NotificationLine key={n.id} n={n} what={KIND_LABELS[n.kind]} />
        ))}
      </ul>
    </section>
  );
}
