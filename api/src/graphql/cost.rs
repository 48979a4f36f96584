//! Query cost: how much work an operation asks for, counted from the document before it runs.
//!
//! A field costs 1 plus what it selects. A list multiplies what it selects: a connection (a
//! field with `first`/`last`) by its page size, any other list of objects by
//! `limits.list_fanout`. So nested lists multiply, as the rows they fetch do. The rule is read
//! off the schema, so a new list field is counted without anyone remembering to declare it.

use std::collections::{HashMap, HashSet};

use async_graphql::parser::types::{
    BaseType, DocumentOperations, ExecutableDocument, FieldDefinition, OperationDefinition, OperationType, Selection,
    SelectionSet, Type, TypeKind, TypeSystemDefinition,
};
use async_graphql::{Name, Positioned, Value, Variables};

use crate::config::Limits;
use crate::pagination::DEFAULT_PAGE_SIZE;

/// Connections that return a full page (`max_page_size`) when neither `first` nor `last` is
/// given, rather than `DEFAULT_PAGE_SIZE`.
const FULL_PAGE_BY_DEFAULT: &[&str] = &["runEvents"];

/// How deep the walk follows selections and fragment spreads. The engine refuses a document
/// nested deeper than 32 (`limit_recursive_depth`), spreads included, after this check; stopping
/// here keeps a long chain of fragments from exhausting the stack first.
const MAX_NESTING: usize = 64;

/// How a field's selection is multiplied.
#[derive(Debug, Clone, Copy)]
enum Multiplier {
    One,
    /// A connection: its page size.
    Page {
        full_page_by_default: bool,
    },
    /// A list that is not paged: `list_fanout`.
    Fanout,
}

#[derive(Debug)]
struct FieldCost {
    /// The named type under any list and non-null wrappers.
    type_name: String,
    multiplier: Multiplier,
}

/// The cost rule applied to one schema, with the limits' numbers.
#[derive(Debug)]
pub struct QueryCost {
    fields: HashMap<String, HashMap<String, FieldCost>>,
    /// The root type of each operation type.
    roots: Vec<(OperationType, String)>,
    list_fanout: u64,
    max_page_size: u64,
}

fn named(ty: &Type) -> &str {
    match &ty.base {
        BaseType::Named(name) => name.as_str(),
        BaseType::List(inner) => named(inner),
    }
}

impl QueryCost {
    /// Reads the shape of every field from the schema's SDL (what `acc schema` prints).
    pub fn new(sdl: &str, limits: &Limits) -> Result<Self, String> {
        let document = async_graphql::parser::parse_schema(sdl).map_err(|e| e.to_string())?;
        let mut composite = HashSet::new();
        let mut objects: Vec<(String, &[async_graphql::Positioned<FieldDefinition>])> = Vec::new();
        let mut roots = Vec::new();
        for definition in &document.definitions {
            match definition {
                TypeSystemDefinition::Type(ty) => {
                    let name = ty.node.name.node.to_string();
                    match &ty.node.kind {
                        TypeKind::Object(object) => objects.push((name.clone(), &object.fields)),
                        TypeKind::Interface(interface) => objects.push((name.clone(), &interface.fields)),
                        TypeKind::Union(_) => {}
                        _ => continue,
                    }
                    composite.insert(name);
                }
                TypeSystemDefinition::Schema(schema) => {
                    let schema = &schema.node;
                    for (ty, root) in [
                        (OperationType::Query, &schema.query),
                        (OperationType::Mutation, &schema.mutation),
                        (OperationType::Subscription, &schema.subscription),
                    ] {
                        if let Some(root) = root {
                            roots.push((ty, root.node.to_string()));
                        }
                    }
                }
                TypeSystemDefinition::Directive(_) => {}
            }
        }
        let fields = objects
            .into_iter()
            .map(|(type_name, fields)| {
                // A connection's `edges` and `nodes` are the page its field already counted.
                let connection = fields.iter().any(|f| f.node.name.node == "pageInfo");
                let costs = fields
                    .iter()
                    .map(|field| {
                        let field = &field.node;
                        let paged =
                            field.arguments.iter().any(|a| ["first", "last"].contains(&a.node.name.node.as_str()));
                        let list = matches!(field.ty.node.base, BaseType::List(_));
                        let multiplier = if paged {
                            Multiplier::Page {
                                full_page_by_default: FULL_PAGE_BY_DEFAULT.contains(&field.name.node.as_str()),
                            }
                        } else if list && !connection && composite.contains(named(&field.ty.node)) {
                            Multiplier::Fanout
                        } else {
                            Multiplier::One
                        };
                        let cost = FieldCost { type_name: named(&field.ty.node).to_owned(), multiplier };
                        (field.name.node.to_string(), cost)
                    })
                    .collect();
                (type_name, costs)
            })
            .collect();
        Ok(Self { fields, roots, list_fanout: limits.list_fanout as u64, max_page_size: limits.max_page_size })
    }

    /// The cost of the operation that would run: the one named, or else the costliest
    /// (a document without a name has one). Unknown fields cost 1; validation refuses them later.
    pub fn of(&self, document: &ExecutableDocument, operation_name: Option<&str>, variables: &Variables) -> u64 {
        let cost = |op: &OperationDefinition| Walk::new(self, document, op, variables).operation();
        match (&document.operations, operation_name) {
            (DocumentOperations::Multiple(operations), Some(name)) => {
                operations.get(name).map_or(0, |op| cost(&op.node))
            }
            (operations, _) => operations.iter().map(|(_, op)| cost(&op.node)).max().unwrap_or(0),
        }
    }

    /// What the operation that would run is called in `/metrics`: its type and its first root
    /// field (`query tasks`), or `other` when it has none the schema knows (a name the schema
    /// does not have is the client's own, and labels must stay few).
    pub fn operation_label(&self, document: &ExecutableDocument, operation_name: Option<&str>) -> String {
        let Some(op) = chosen_operation(document, operation_name) else { return "other".to_owned() };
        let field = self.roots.iter().find(|(ty, _)| *ty == op.node.ty).and_then(|(_, root)| {
            let fields = self.fields.get(root)?;
            op.node.selection_set.node.items.iter().find_map(|selection| match &selection.node {
                Selection::Field(field) => fields.get_key_value(field.node.name.node.as_str()).map(|(name, _)| name),
                _ => None,
            })
        });
        match field {
            Some(field) => format!("{} {field}", op.node.ty),
            None => "other".to_owned(),
        }
    }
}

/// The operation of `document` that runs: the one named, or the only one.
pub fn chosen_operation<'a>(
    document: &'a ExecutableDocument,
    operation_name: Option<&str>,
) -> Option<&'a Positioned<OperationDefinition>> {
    match (&document.operations, operation_name) {
        (DocumentOperations::Single(operation), _) => Some(operation),
        (DocumentOperations::Multiple(operations), Some(name)) => operations.get(name),
        // A named operation alone in its document may be run without naming it.
        (DocumentOperations::Multiple(operations), None) if operations.len() == 1 => operations.values().next(),
        (DocumentOperations::Multiple(_), None) => None,
    }
}

/// One operation's walk: fragments are costed once each (a fragment spread many times, or
/// spreading others many times, cannot make the count itself expensive).
struct Walk<'a> {
    cost: &'a QueryCost,
    document: &'a ExecutableDocument,
    operation: &'a OperationDefinition,
    variables: &'a Variables,
    fragments: HashMap<&'a str, u64>,
    visiting: HashSet<&'a str>,
    nesting: usize,
}

impl<'a> Walk<'a> {
    fn new(
        cost: &'a QueryCost,
        document: &'a ExecutableDocument,
        operation: &'a OperationDefinition,
        variables: &'a Variables,
    ) -> Self {
        Self { cost, document, operation, variables, fragments: HashMap::new(), visiting: HashSet::new(), nesting: 0 }
    }

    fn operation(mut self) -> u64 {
        let op = self.operation;
        let root = self.cost.roots.iter().find(|(ty, _)| *ty == op.ty).map(|(_, name)| name.as_str());
        self.selection(root, &op.selection_set.node)
    }

    fn selection(&mut self, on: Option<&'a str>, set: &'a SelectionSet) -> u64 {
        if self.nesting >= MAX_NESTING {
            return 0;
        }
        self.nesting += 1;
        let mut total: u64 = 0;
        for item in &set.items {
            let cost = match &item.node {
                Selection::Field(field) => {
                    let field = &field.node;
                    let shape = on.and_then(|t| self.cost.fields.get(t)).and_then(|f| f.get(field.name.node.as_str()));
                    let children = self.selection(shape.map(|s| s.type_name.as_str()), &field.selection_set.node);
                    match shape.map_or(Multiplier::One, |s| s.multiplier) {
                        Multiplier::One => children.saturating_add(1),
                        Multiplier::Page { full_page_by_default } => {
                            self.page_size(field, full_page_by_default).saturating_mul(children)
                        }
                        Multiplier::Fanout => self.cost.list_fanout.saturating_mul(children),
                    }
                }
                Selection::InlineFragment(fragment) => {
                    let on = fragment.node.type_condition.as_ref().map(|c| c.node.on.node.as_str()).or(on);
                    self.selection(on, &fragment.node.selection_set.node)
                }
                Selection::FragmentSpread(spread) => self.fragment(spread.node.fragment_name.node.as_str()),
            };
            total = total.saturating_add(cost);
        }
        self.nesting -= 1;
        total
    }

    fn fragment(&mut self, name: &'a str) -> u64 {
        if let Some(cost) = self.fragments.get(name) {
            return *cost;
        }
        let Some(fragment) = self.document.fragments.get(name) else { return 0 };
        // A cycle is refused by validation; here it only must not loop.
        if !self.visiting.insert(name) {
            return 0;
        }
        let fragment = &fragment.node;
        let cost = self.selection(Some(fragment.type_condition.node.on.node.as_str()), &fragment.selection_set.node);
        self.visiting.remove(name);
        self.fragments.insert(name, cost);
        cost
    }

    /// `first`, else `last`, within 1..=max_page_size (the resolver refuses anything outside);
    /// without either, the page the field returns by default.
    fn page_size(&self, field: &async_graphql::parser::types::Field, full_page_by_default: bool) -> u64 {
        let size = ["first", "last"].iter().filter_map(|name| self.argument(field, name)).max();
        match size {
            Some(n) => (n.max(1) as u64).min(self.cost.max_page_size.max(1)),
            None if full_page_by_default => self.cost.max_page_size,
            None => DEFAULT_PAGE_SIZE.min(self.cost.max_page_size),
        }
    }

    /// An integer argument, given inline or by a variable (or that variable's default).
    fn argument(&self, field: &async_graphql::parser::types::Field, name: &str) -> Option<i64> {
        let (_, value) = field.arguments.iter().find(|(n, _)| n.node == name)?;
        match value.node.clone().into_const_with(|variable| self.variable(&variable).ok_or(())) {
            Ok(Value::Number(n)) => n.as_i64(),
            _ => None,
        }
    }

    fn variable(&self, name: &Name) -> Option<Value> {
        self.variables.get(name).cloned().or_else(|| {
            let definition = self.operation.variable_definitions.iter().find(|d| d.node.name.node == *name)?;
            definition.node.default_value.as_ref().map(|v| v.node.clone())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost_of(query: &str, variables: serde_json::Value) -> u64 {
        let limits = Limits { list_fanout: 10, max_page_size: 100, ..Limits::default() };
        let cost = QueryCost::new(&crate::graphql::sdl(), &limits).unwrap();
        let document = async_graphql::parser::parse_query(query).unwrap();
        cost.of(&document, None, &Variables::from_json(variables))
    }

    #[test]
    fn a_field_costs_one_plus_what_it_selects() {
        assert_eq!(cost_of("{ viewer { id email organization { id name } } }", serde_json::json!({})), 1 + 2 + 1 + 2);
    }

    #[test]
    fn a_connection_multiplies_by_its_page_and_a_plain_list_by_the_fanout() {
        let q = "query($p: ID!) { tasks(projectId: $p, first: 50) { nodes { id dependents { id title } } } }";
        // tasks: 50 × (nodes: 1 + id 1 + dependents 10 × 2)
        assert_eq!(cost_of(q, serde_json::json!({})), 50 * (1 + 1 + 10 * 2));
    }

    #[test]
    fn page_sizes_come_from_variables_defaults_or_the_default_page() {
        let q = "query($p: ID!, $n: Int = 7) { tasks(projectId: $p, first: $n) { nodes { id } } }";
        assert_eq!(cost_of(q, serde_json::json!({"n": 3})), 3 * 2);
        assert_eq!(cost_of(q, serde_json::json!({})), 7 * 2);
        let absent = "query($p: ID!) { tasks(projectId: $p) { nodes { id } } }";
        assert_eq!(cost_of(absent, serde_json::json!({})), DEFAULT_PAGE_SIZE * 2);
        let events = "query($r: ID!) { runEvents(runId: $r) { nodes { sequence } } }";
        assert_eq!(cost_of(events, serde_json::json!({})), 100 * 2, "runEvents returns a full page by default");
        let huge = "query($p: ID!) { tasks(projectId: $p, last: 100000) { nodes { id } } }";
        assert_eq!(cost_of(huge, serde_json::json!({})), 100 * 2, "a page is never counted above max_page_size");
    }

    #[test]
    fn fragments_count_where_they_are_spread_and_against_their_type() {
        let q = "query($id: ID!) { node(id: $id) { ...T ... on Task { dependencies { id } } } }
                 fragment T on Task { id acceptanceCriteria { id met } }";
        // node: 1 + (T: 1 + 10 × 2) + dependencies 10 × 1
        assert_eq!(cost_of(q, serde_json::json!({})), 1 + (1 + 10 * 2) + 10);
    }

    #[test]
    fn a_fragment_bomb_is_counted_without_being_expanded() {
        let mut q = String::from("{ viewer { ...F0 } }\n");
        for i in 0..60 {
            q.push_str(&format!("fragment F{i} on User {{ ...F{} ...F{} }}\n", i + 1, i + 1));
        }
        q.push_str("fragment F60 on User { id }\n");
        assert!(cost_of(&q, serde_json::json!({})) > 1 << 59);
    }

    #[test]
    fn a_long_chain_of_fragments_is_walked_without_exhausting_the_stack() {
        let mut q = String::from("{ viewer { ...F0 } }\n");
        for i in 0..20_000 {
            q.push_str(&format!("fragment F{i} on User {{ ...F{} }}\n", i + 1));
        }
        q.push_str("fragment F20000 on User { id }\n");
        // Far deeper than the engine allows (it refuses the document next); the walk stops.
        let walk = std::thread::Builder::new().stack_size(256 * 1024).spawn(move || cost_of(&q, serde_json::json!({})));
        assert_eq!(walk.unwrap().join().unwrap(), 1);
    }

    #[test]
    fn nested_lists_saturate_instead_of_overflowing() {
        let mut q = String::from("query($p: ID!) { tasks(projectId: $p, first: 100) { nodes { ");
        q.push_str(&"dependents { ".repeat(40));
        q.push_str("id");
        q.push_str(&" }".repeat(40));
        q.push_str(" } } }");
        assert_eq!(cost_of(&q, serde_json::json!({})), u64::MAX);
    }
}
