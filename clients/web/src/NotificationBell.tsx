// The bell: what the server told this person (docs/notifications.md) — a decision waits, a run
// they started failed, a budget they administer is nearly or wholly spent — with how many are
// unread, each leading to what it is about, and marked read when opened or all at once.
import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "./gql";
import type { NotificationItemFragment } from "./gql/graphql";
import { When } from "./ui/components";
import { Link } from "./ui/router";
import { notificationHref } from "./notices";

export const NotificationItemFragmentDoc = graphql(`
  fragment NotificationItem on Notification {
    id
    kind
    title
    body
    subjectId
    createdAt
    readAt
  }
`);

const BellQuery = graphql(`
  query Bell {
    unreadNotificationCount
    notifications(last: 20) {
      nodes {
        ...NotificationItem
      }
    }
  }
`);

const NotificationAddedSubscription = graphql(`
  subscription NotificationAdded {
    notificationAdded {
      id
    }
  }
`);

const MarkReadMutation = graphql(`
  mutation MarkNotificationsRead($ids: [ID!]) {
    markNotificationsRead(ids: $ids)
  }
`);

export function NotificationBell() {
  const [{ data }, refetch] = useQuery({ query: BellQuery, requestPolicy: "cache-and-network" });
  const [added] = useSubscription({ query: NotificationAddedSubscription });
  const [, markRead] = useMutation(MarkReadMutation);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const newest = added.data?.notificationAdded.id;
  // Each new notification: the count and the list again.
  useEffect(() => {
    if (newest) refetch({ requestPolicy: "network-only" });
  }, [newest, refetch]);
  const unread = data?.unreadNotificationCount ?? 0;
  const items = [...(data?.notifications.nodes ?? [])].reverse();
  const read = async (ids: string[] | null) => {
    const result = await markRead({ ids });
    if (!result.error) refetch({ requestPolicy: "network-only" });
  };
  return (
    <div className="bell">
      <button
        type="button"
        ref={button}
        aria-expanded={open}
        aria-controls="bell-panel"
        data-testid="bell"
        onClick={() => setOpen(!open)}
      >
        Notifications{unread > 0 && <span className="count"> {unread}</span>}
        <span className="sr-only"> ({unread} unread)</span>
      </button>
      {open && (
        <div
          id="bell-panel"
          className="bell-panel card"
          role="region"
          aria-label="Notifications"
          onKeyDown={(e) => {
            if (e.key !== "Escape") return;
            setOpen(false);
            button.current?.focus();
          }}
        >
          {items.length === 0 ? (
            <p className="muted">Nothing to tell yet.</p>
          ) : (
            <ul className="plain stack">
              {items.map((n) => (
                <NotificationLine
                  key={n.id}
                  n={n}
                  onOpen={() => {
                    setOpen(false);
                    if (!n.readAt) void read([n.id]);
                  }}
                />
              ))}
            </ul>
          )}
          {unread > 0 && (
            <button type="button" onClick={() => void read(null)}>
              Mark all read
            </button>
          )}
          <Link href="/notifications" onClick={() => setOpen(false)}>
            All notifications and email settings
          </Link>
        </div>
      )}
    </div>
  );
}

/** One notification: its title (bold while unread) leading to what it is about, its body, when. */
export function NotificationLine({ n, onOpen, what }: { n: NotificationItemFragment; onOpen?: () => void; what?: string }) {
  return (
    <li data-kind={n.kind} data-read={n.readAt ? "true" : "false"}>
      <Link href={notificationHref(n.kind, n.subjectId)} onClick={onOpen}>
        {n.readAt ? n.title : <strong>{n.title}</strong>}
      </Link>
      <div className="small">{n.body}</div>
      <div className="small muted">
        {what && `${what} · `}
        <When at={n.createdAt} />
      </div>
    </li>
  );
}
