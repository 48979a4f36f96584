//! A run's events as a subscriber sees them: first what is stored after its cursor, then live,
//! with no gap and no duplicate whatever the broker loses. It ends after the run's terminal
//! status, and with an error when the database cannot be read: a client must never take a
//! failed read for the end of the run, but resubscribe from its cursor.

use std::collections::VecDeque;

use acc_entity::run_event::RunEventKind;
use acc_entity::{run_event, task_run};
use futures_util::stream::BoxStream;
use futures_util::{Stream, StreamExt};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};
use uuid::Uuid;

use super::state::RunStatus;
use super::{Result, RunError};
use crate::broker::{Delivery, Event};
use crate::error::CommonError;

/// Events read from the database at a time while replaying.
const REPLAY_BATCH: u64 = 500;

/// A run's events after `after` (a sequence), oldest first, at most `limit`.
pub(super) async fn events_after(
    db: &impl ConnectionTrait,
    run_id: Uuid,
    after: i64,
    limit: u64,
) -> Result<Vec<run_event::Model>, DbErr> {
    run_event::Entity::find()
        .filter(run_event::Column::RunId.eq(run_id))
        .filter(run_event::Column::Sequence.gt(after))
        .order_by_asc(run_event::Column::Sequence)
        .limit(limit)
        .all(db)
        .await
}

/// Whether the run is in a terminal status; a run that is gone (its task deleted) has ended too.
async fn has_ended(db: &impl ConnectionTrait, run_id: Uuid) -> Result<bool, DbErr> {
    let run = task_run::Entity::find_by_id(run_id).one(db).await?;
    Ok(run.is_none_or(|r| RunStatus::from_stored(&r.status).is_terminal()))
}

fn is_terminal_status(event: &run_event::Model) -> bool {
    event.kind == RunEventKind::Status
        && event.data.get("status").and_then(|s| s.as_str()).is_some_and(|s| RunStatus::from_stored(s).is_terminal())
}

/// Where a feed stands: live deliveries, what is left to hand out, the cursor.
pub(super) struct EventFeed {
    db: DatabaseConnection,
    run_id: Uuid,
    /// `None` once the broker closed the run's topic: what is left is in the database.
    live: Option<BoxStream<'static, Delivery>>,
    backlog: VecDeque<run_event::Model>,
    cursor: i64,
    /// Read the database from the cursor before going live (again).
    replay: bool,
    /// The terminal status was handed out, or an error was: nothing more follows.
    done: bool,
}

impl EventFeed {
    /// A feed from `cursor`; `live` must be subscribed before the first read, so an event
    /// stored in between is not missed.
    pub(super) fn start(
        db: DatabaseConnection,
        run_id: Uuid,
        live: BoxStream<'static, Delivery>,
        cursor: i64,
    ) -> impl Stream<Item = Result<run_event::Model>> + Send + 'static {
        let feed = Self { db, run_id, live: Some(live), backlog: VecDeque::new(), cursor, replay: true, done: false };
        futures_util::stream::unfold(feed, Self::next)
    }

    async fn next(mut self) -> Option<(Result<run_event::Model>, Self)> {
        if self.done {
            return None;
        }
        match self.advance().await {
            Ok(Some(event)) => Some((Ok(event), self)),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(run_id = %self.run_id, error = %e, "the run's events could not be read; ending the feed with an error");
                self.done = true;
                Some((Err(RunError::Common(CommonError::Database(e))), self))
            }
        }
    }

    /// The next event after the cursor: from the backlog, else the database (when replaying,
    /// after a gap or a lag, or once the topic closed), else live. `None` once the run ended.
    async fn advance(&mut self) -> Result<Option<run_event::Model>, DbErr> {
        loop {
            if let Some(event) = self.backlog.pop_front() {
                if event.sequence <= self.cursor {
                    continue;
                }
                self.cursor = event.sequence;
                self.done = is_terminal_status(&event);
                return Ok(Some(event));
            }
            if self.replay || self.live.is_none() {
                let rows = events_after(&self.db, self.run_id, self.cursor, REPLAY_BATCH).await?;
                self.replay = rows.len() as u64 == REPLAY_BATCH;
                if rows.is_empty() && (self.live.is_none() || has_ended(&self.db, self.run_id).await?) {
                    // Nothing after the cursor, and nothing more will come.
                    return Ok(None);
                }
                self.backlog.extend(rows);
                continue;
            }
            let Some(live) = self.live.as_mut() else { continue };
            match live.next().await {
                Some(Delivery::Event(event)) => {
                    if let Event::RunEvent(row) = &*event {
                        if row.sequence == self.cursor + 1 {
                            self.backlog.push_back(row.clone());
                        } else if row.sequence > self.cursor + 1 {
                            self.replay = true;
                        }
                    }
                }
                // Too slow: what was dropped is in the database; read it from the cursor.
                Some(Delivery::Lagged(_)) => self.replay = true,
                // The run ended and its topic closed: the rest is in the database.
                None => self.live = None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broker::{Broker, Topic};
    use crate::error::{DomainError, ErrorCode};

    #[tokio::test]
    async fn a_database_that_cannot_be_read_ends_the_feed_with_an_internal_error_not_as_a_finished_run() {
        // A database without the runs' tables: every read fails.
        let db = sea_orm::Database::connect("sqlite::memory:").await.unwrap();
        let run_id = Uuid::now_v7();
        let live = Broker::new().subscribe(Topic::RunEvents(run_id)).boxed();
        let mut feed = Box::pin(EventFeed::start(db, run_id, live, 0));
        match feed.next().await {
            Some(Err(e)) => assert_eq!(e.code(), ErrorCode::Internal, "{e}"),
            other => panic!("expected an error, got {other:?}"),
        }
        assert!(feed.next().await.is_none(), "nothing follows the error");
    }
}
