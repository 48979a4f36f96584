//! Keyset pagination over UUIDv7 primary keys: the one way every list is paged.
//!
//! Rows are ordered by id, which is time-ordered, so a page is stable under inserts and a
//! cursor is just the id of the last row seen. No offsets.

use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Select, TryIntoModel};
use uuid::Uuid;

use crate::db::Reads;
use crate::error::CommonError;

pub const DEFAULT_PAGE_SIZE: u64 = 20;

/// What a client asked for, already decoded from its cursors.
#[derive(Debug, Clone, Default)]
pub struct PageRequest {
    pub after: Option<Uuid>,
    pub before: Option<Uuid>,
    pub first: Option<i32>,
    pub last: Option<i32>,
}

#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub has_next_page: bool,
    pub has_previous_page: bool,
}

impl<T> Page<T> {
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            has_next_page: self.has_next_page,
            has_previous_page: self.has_previous_page,
        }
    }
}

impl PageRequest {
    /// The number of rows to return and whether the page is read backwards (`last`).
    fn size(&self, max: u64) -> Result<(u64, bool), CommonError> {
        let check = |name: &str, n: i32| {
            if n < 0 || n as u64 > max {
                Err(CommonError::Validation {
                    message: format!("`{name}` must be between 0 and {max}"),
                    details: serde_json::json!({ "argument": name, "max": max }),
                })
            } else {
                Ok(n as u64)
            }
        };
        match (self.first, self.last) {
            (Some(_), Some(_)) => Err(CommonError::validation("give `first` or `last`, not both")),
            (Some(n), None) => Ok((check("first", n)?, false)),
            (None, Some(n)) => Ok((check("last", n)?, true)),
            (None, None) => Ok((DEFAULT_PAGE_SIZE.min(max), false)),
        }
    }
}

/// Reads one page of `select`, keyed on `id_column`.
pub async fn paginate<E>(
    reads: &Reads,
    select: Select<E>,
    id_column: E::Column,
    request: &PageRequest,
    max_page_size: u64,
) -> Result<Page<E::Model>, CommonError>
where
    E: EntityTrait,
    E::ActiveModel: TryIntoModel<E::Model>,
{
    let (size, backwards) = request.size(max_page_size)?;
    let mut select = select;
    if let Some(after) = request.after {
        select = select.filter(id_column.gt(after));
    }
    if let Some(before) = request.before {
        select = select.filter(id_column.lt(before));
    }
    select = if backwards { select.order_by_desc(id_column) } else { select.order_by_asc(id_column) };
    let mut items = reads.all(select.limit(size + 1)).await.map_err(|e: DbErr| CommonError::Database(e))?;
    let more = items.len() as u64 > size;
    items.truncate(size as usize);
    if backwards {
        items.reverse();
        Ok(Page { items, has_next_page: request.before.is_some(), has_previous_page: more })
    } else {
        Ok(Page { items, has_next_page: more, has_previous_page: request.after.is_some() })
    }
}
