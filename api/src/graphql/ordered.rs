//! Objects resolved in the order their fields were asked for, with one join over the fields.
//!
//! async-graphql 7.2 resolves an object's fields as a `FuturesUnordered` of boxed futures and
//! writes each into the response when it *finishes*: a field that waits on a loader lands after
//! one that did not, whatever the query said, where GraphQL asks for the query's order (spec
//! §7.1.2, "Serialized Map Ordering"). It also costs a box and a task node per field, which on a
//! page of tasks with their dependencies is most of the engine's allocations. [`Ordered`] wraps an
//! object type and resolves it with a single join over its fields (one future type for them all,
//! so nothing is boxed), writing them in the query's order. The schema does not change: the wrapper
//! registers as the type it wraps.
//!
//! What it leaves to the engine is what the engine does before resolving (`@skip` / `@include`
//! are applied to the document first) and what this schema does not use (extensions, custom
//! directives): with either, fields would need the engine's own path.

use std::borrow::Cow;
use std::pin::Pin;

use async_graphql::indexmap::IndexMap;
use async_graphql::indexmap::map::Entry;
use async_graphql::parser::types::{Field, Selection, SelectionSet};
use async_graphql::registry::Registry;
use async_graphql::resolver_utils::ContainerType;
use async_graphql::{ContextSelectionSet, Name, OutputType, Positioned, ServerError, ServerResult, Value};

/// `T`, resolved field by field in the order the query asks for them.
pub struct Ordered<T>(pub T);

impl<T: ContainerType> OutputType for Ordered<T> {
    fn type_name() -> Cow<'static, str> {
        T::type_name()
    }

    fn qualified_type_name() -> String {
        T::qualified_type_name()
    }

    fn introspection_type_name(&self) -> Cow<'static, str> {
        self.0.introspection_type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        T::create_type_info(registry)
    }

    async fn resolve(&self, ctx: &ContextSelectionSet<'_>, _field: &Positioned<Field>) -> ServerResult<Value> {
        // Boxed, once per object: an object's fields may hold objects of its own type (a task's
        // dependencies), and a future cannot contain itself.
        let fields: Pin<Box<dyn Future<Output = ServerResult<Value>> + Send + '_>> =
            Box::pin(resolve_in_order(ctx, &self.0));
        fields.await
    }
}

async fn resolve_in_order<T: ContainerType>(ctx: &ContextSelectionSet<'_>, root: &T) -> ServerResult<Value> {
    let mut fields = Vec::new();
    collect_fields(ctx, root, &ctx.item.node, &mut fields)?;
    let resolved = futures_util::future::join_all(fields.into_iter().map(|field| async move {
        let key = field.node.response_key().node.clone();
        if field.node.name.node == "__typename" {
            return Ok((key, Value::String(root.introspection_type_name().into_owned())));
        }
        let value = root.resolve_field(&ctx.with_field(field)).await?;
        Ok::<_, ServerError>((key, value.unwrap_or_default()))
    }))
    .await;
    let mut object = IndexMap::with_capacity(resolved.len());
    for field in resolved {
        match field {
            Ok((key, value)) => merge(&mut object, key, value),
            // As the engine does: the error is reported, and the field left out.
            Err(error) => ctx.add_error(error),
        }
    }
    Ok(if object.is_empty() { Value::Null } else { Value::Object(object) })
}

/// The fields of `set` that apply to `root`, fragments spread in place, in the query's order.
fn collect_fields<'a, T: ContainerType>(
    ctx: &ContextSelectionSet<'a>,
    root: &T,
    set: &'a SelectionSet,
    fields: &mut Vec<&'a Positioned<Field>>,
) -> ServerResult<()> {
    for selection in &set.items {
        let (condition, inner) = match &selection.node {
            Selection::Field(field) => {
                fields.push(field);
                continue;
            }
            Selection::InlineFragment(fragment) => {
                (fragment.node.type_condition.as_ref().map(|c| &c.node.on.node), &fragment.node.selection_set)
            }
            Selection::FragmentSpread(spread) => {
                let name = &spread.node.fragment_name.node;
                let fragment = ctx
                    .query_env
                    .fragments
                    .get(name)
                    .ok_or_else(|| ServerError::new(format!(r#"Unknown fragment "{name}"."#), Some(spread.pos)))?;
                (Some(&fragment.node.type_condition.node.on.node), &fragment.node.selection_set)
            }
        };
        if condition.is_none_or(|condition| applies(ctx, root, condition)) {
            collect_fields(ctx, root, &inner.node, fields)?;
        }
    }
    Ok(())
}

/// Whether a fragment on `condition` applies to `root`: its own type, or an interface it has.
fn applies<T: ContainerType>(ctx: &ContextSelectionSet<'_>, root: &T, condition: &str) -> bool {
    let own = root.introspection_type_name();
    own == condition
        || ctx.schema_env.registry.implements.get(own.as_ref()).is_some_and(|interfaces| interfaces.contains(condition))
}

/// Adds a field's value under its response key; a key asked for twice merges its objects, as the
/// engine merges them.
fn merge(object: &mut IndexMap<Name, Value>, key: Name, value: Value) {
    // One hash of the key: almost every key is new, and is inserted where it was looked up.
    let existing = match object.entry(key) {
        Entry::Vacant(slot) => {
            slot.insert(value);
            return;
        }
        Entry::Occupied(slot) => slot.into_mut(),
    };
    match (existing, value) {
        (Value::Object(existing), Value::Object(more)) => {
            for (key, value) in more {
                merge(existing, key, value);
            }
        }
        (Value::List(existing), Value::List(more)) => {
            for (existing, more) in existing.iter_mut().zip(more) {
                if let (Value::Object(existing), Value::Object(more)) = (existing, more) {
                    for (key, value) in more {
                        merge(existing, key, value);
                    }
                }
            }
        }
        _ => {}
    }
}
