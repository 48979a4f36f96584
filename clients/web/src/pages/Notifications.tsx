// The person's notifications page: everything they were told (the bell shows the latest 20),
// and where each kind reaches them besides the app — by email when the server has a relay, and
// by push to the browsers they turned it on in (this one, from here).
import { useEffect, useState } from "react";
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
      webPushPublicKey
      pushDevices
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

const RegisterPushMutation = graphql(`
  mutation RegisterPushSubscription($endpoint: String!, $p256dh: String!, $auth: String!) {
    registerPushSubscription(endpoint: $endpoint, p256dh: $p256dh, auth: $auth)
  }
`);

const RemovePushMutation = graphql(`
  mutation RemovePushSubscription($endpoint: String!) {
    removePushSubscription(endpoint: $endpoint)
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
          <h2 id="delivery">By email and push</h2>
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
              ...CHANNELS.map(([channel, head]) => ({
                head,
                cell: (r: (typeof rows)[number]) => (
                  <input
                    type="checkbox"
                    aria-label={`${head}: ${r.label}`}
                    checked={chosen[`${r.kind}:${channel}`] ?? r.channels[channel] ?? false}
                    onChange={(e) => void choose(r.kind, channel, e.currentTarget.checked)}
                  />
                ),
              })),
            ]}
          />
          <PushHere publicKey={settings.webPushPublicKey} devices={settings.pushDevices} changed={() => refetch({ requestPolicy: "network-only" })} />
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

const CHANNELS: [NotificationChannel, string][] = [
  ["EMAIL", "Email"],
  ["PUSH", "Push"],
];

/** Whether this browser takes push messages, and the switch for it. */
function PushHere({ publicKey, devices, changed }: { publicKey: string; devices: number; changed: () => void }) {
  const [, register] = useMutation(RegisterPushMutation);
  const [, remove] = useMutation(RemovePushMutation);
  const [here, setHere] = useState<PushSubscription | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const supported = "serviceWorker" in navigator && "PushManager" in window;
  useEffect(() => {
    if (!supported) return;
    void navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription()).then(setHere);
  }, [supported]);
  const turnOn = async () => {
    setProblem(null);
    try {
      if ((await Notification.requestPermission()) !== "granted") throw new Error("notifications are not allowed for this site");
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
      const { endpoint, keys } = subscription.toJSON();
      const result = await register({ endpoint: endpoint ?? "", p256dh: keys?.p256dh ?? "", auth: keys?.auth ?? "" });
      if (result.error) {
        await subscription.unsubscribe();
        throw new Error(result.error.graphQLErrors[0]?.message ?? result.error.message);
      }
      setHere(subscription);
      changed();
    } catch (e) {
      setProblem(`Push could not be turned on here: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const turnOff = async () => {
    if (!here) return;
    await remove({ endpoint: here.endpoint });
    await here.unsubscribe();
    setHere(null);
    changed();
  };
  return (
    <div className="stack" data-testid="push-here">
      <p className="muted">
        Push reaches {devices === 1 ? "1 of your browsers" : `${devices} of your browsers`}.
        {!supported && " This browser cannot take push messages."}
      </p>
      {supported &&
        (here ? (
          <button type="button" onClick={() => void turnOff()}>
            Turn off push in this browser
          </button>
        ) : (
          <button type="button" onClick={() => void turnOn()}>
            Turn on push in this browser
          </button>
        ))}
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </div>
  );
}
