//! The event broker every domain publishes through and every subscription reads from.
//!
//! One bounded broadcast channel per topic, which lives while someone listens: the last
//! subscriber to go drops it, and so does [`Broker::close`] (a run that ended). A subscriber that
//! falls more than the channel's capacity behind is not allowed to grow memory: it is told how
//! many events it missed ([`Delivery::Lagged`]) and carries on from the newest ones. Durable
//! replay (run events) comes from the database, not from here.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use acc_entity::{
    approval, connector, memory_entry, memory_version, run_event, task, task_run, wiki_namespace, wiki_page,
};
use futures_util::stream::BoxStream;
use futures_util::{Stream, StreamExt};
use tokio::sync::broadcast;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use uuid::Uuid;

use crate::identity::AccessChange;

pub const TOPIC_CAPACITY: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topic {
    /// Changes to the tasks of one project.
    ProjectTasks(Uuid),
    /// Status changes of the runs of one project.
    ProjectRuns(Uuid),
    /// The events of one run, as they are stored.
    RunEvents(Uuid),
    /// Connectors of one workspace coming online, going offline, changing health.
    WorkspaceConnectors(Uuid),
    /// Approvals of one organization being requested, decided or expiring.
    OrganizationApprovals(Uuid),
    /// Sessions ending, API tokens revoked, accounts disabled and roles changing in one
    /// organization: what open sockets must act on.
    OrganizationAccess(Uuid),
    /// Memory entries of one organization written, verified, retracted or resolved.
    OrganizationMemory(Uuid),
    /// Pages of one wiki namespace saved or renamed.
    WikiNamespace(Uuid),
    /// Notifications made for one person.
    UserNotifications(Uuid),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskChange {
    Created,
    Updated,
    Deleted,
}

#[derive(Debug, Clone)]
pub enum Event {
    Task {
        change: TaskChange,
        task: task::Model,
    },
    RunUpdated(task_run::Model),
    RunEvent(run_event::Model),
    ConnectorStatus(connector::Model),
    Approval(approval::Model),
    AccessChanged(AccessChange),
    /// A memory entry as it stands after a change, with its current version.
    Memory {
        entry: memory_entry::Model,
        version: memory_version::Model,
    },
    /// A wiki page as it stands after a save or a rename.
    WikiPage(wiki_page::Model),
    /// A wiki namespace after a change of who may read it.
    WikiNamespace(wiki_namespace::Model),
    Notification(acc_entity::notification::Model),
}

#[derive(Debug, Clone)]
pub enum Delivery {
    Event(Arc<Event>),
    /// The subscriber was too slow and this many events were dropped for it.
    Lagged(u64),
}

type Topics = Arc<Mutex<HashMap<Topic, broadcast::Sender<Arc<Event>>>>>;

#[derive(Clone, Default)]
pub struct Broker {
    topics: Topics,
}

impl Broker {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn publish(&self, topic: Topic, event: Event) {
        let Ok(mut topics) = self.topics.lock() else { return };
        // Nobody listens any more: forget the topic so idle topics cost nothing.
        if let Some(sender) = topics.get(&topic)
            && sender.send(Arc::new(event)).is_err()
        {
            topics.remove(&topic);
        }
    }

    /// Ends a topic nothing more will be published on: its subscribers receive what was already
    /// published, then their streams end.
    pub fn close(&self, topic: Topic) {
        if let Ok(mut topics) = self.topics.lock() {
            topics.remove(&topic);
        }
    }

    pub fn subscribe(&self, topic: Topic) -> impl Stream<Item = Delivery> + Send + 'static {
        let receiver = match self.topics.lock() {
            Ok(mut topics) => topics.entry(topic).or_insert_with(|| broadcast::channel(TOPIC_CAPACITY).0).subscribe(),
            Err(_) => broadcast::channel(1).1,
        };
        let deliveries = BroadcastStream::new(receiver).map(|item| match item {
            Ok(event) => Delivery::Event(event),
            Err(BroadcastStreamRecvError::Lagged(n)) => Delivery::Lagged(n),
        });
        Subscription { deliveries: Some(deliveries.boxed()), topic, topics: self.topics.clone() }
    }

    #[cfg(test)]
    fn topic_count(&self) -> usize {
        self.topics.lock().map(|t| t.len()).unwrap_or(0)
    }
}

/// A subscriber's stream; the last one of a topic to be dropped drops the topic.
struct Subscription {
    /// `None` once dropped, so the receiver is gone before the topic's receivers are counted.
    deliveries: Option<BoxStream<'static, Delivery>>,
    topic: Topic,
    topics: Topics,
}

impl Stream for Subscription {
    type Item = Delivery;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Delivery>> {
        match self.deliveries.as_mut() {
            Some(deliveries) => deliveries.poll_next_unpin(cx),
            None => Poll::Ready(None),
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        drop(self.deliveries.take());
        // Under the lock, as `subscribe` adds receivers: no new subscriber can be lost in between.
        if let Ok(mut topics) = self.topics.lock()
            && topics.get(&self.topic).is_some_and(|sender| sender.receiver_count() == 0)
        {
            topics.remove(&self.topic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task_event(n: i64) -> Event {
        let now = chrono::Utc::now();
        Event::Task {
            change: TaskChange::Updated,
            task: task::Model {
                id: Uuid::now_v7(),
                organization_id: Uuid::nil(),
                project_id: Uuid::nil(),
                title: format!("t{n}"),
                description: String::new(),
                status: "todo".into(),
                priority: "none".into(),
                labels: serde_json::json!([]),
                assignee_user_id: None,
                assignee_agent_id: None,
                revision: n,
                created_at: now,
                updated_at: now,
            },
        }
    }

    #[tokio::test]
    async fn topics_are_isolated_and_slow_subscribers_are_told_they_lagged() {
        let broker = Broker::new();
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        let mut slow = Box::pin(broker.subscribe(Topic::ProjectTasks(a)));
        let mut other = Box::pin(broker.subscribe(Topic::ProjectTasks(b)));
        for n in 0..(TOPIC_CAPACITY as i64 + 10) {
            broker.publish(Topic::ProjectTasks(a), task_event(n));
        }
        match slow.next().await {
            Some(Delivery::Lagged(missed)) => assert_eq!(missed, 10),
            other => panic!("expected a lag notice, got {other:?}"),
        }
        match slow.next().await {
            Some(Delivery::Event(e)) => match &*e {
                Event::Task { task, .. } => assert_eq!(task.revision, 10),
                other => panic!("unexpected {other:?}"),
            },
            other => panic!("expected the oldest retained event, got {other:?}"),
        }
        broker.publish(Topic::ProjectTasks(b), task_event(-1));
        assert!(matches!(other.next().await, Some(Delivery::Event(_))));
    }

    #[tokio::test]
    async fn a_topic_lives_as_long_as_its_subscribers() {
        let broker = Broker::new();
        let topic = Topic::RunEvents(Uuid::now_v7());
        let first = broker.subscribe(topic);
        let second = broker.subscribe(topic);
        let other = broker.subscribe(Topic::ProjectTasks(Uuid::now_v7()));
        assert_eq!(broker.topic_count(), 2);
        drop(first);
        assert_eq!(broker.topic_count(), 2, "one subscriber of the run is still there");
        drop(second);
        assert_eq!(broker.topic_count(), 1, "the run's topic went with its last subscriber");
        drop(other);
        assert_eq!(broker.topic_count(), 0);
    }

    #[tokio::test]
    async fn a_closed_topic_is_dropped_and_its_subscribers_get_what_was_published_then_the_end() {
        let broker = Broker::new();
        let topic = Topic::RunEvents(Uuid::now_v7());
        let mut subscriber = Box::pin(broker.subscribe(topic));
        broker.publish(topic, task_event(1));
        broker.close(topic);
        assert_eq!(broker.topic_count(), 0);
        assert!(matches!(subscriber.next().await, Some(Delivery::Event(_))));
        assert!(subscriber.next().await.is_none(), "the stream ends after the last event");
        drop(subscriber);
        assert_eq!(broker.topic_count(), 0);
    }
}
