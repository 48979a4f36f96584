//! The GraphQL schema: each domain's Query / Mutation / Subscription merged into one root,
//! with the limits of SPEC §4 and one mapping from domain errors to error extensions.

mod batch;
mod budget;
pub mod connection;
mod cost;
mod errors;
pub mod fanout;
mod limits;
mod node;
mod ordered;

use std::sync::Arc;

use std::time::Instant;

use async_graphql::{Context, Data, MergedObject, MergedSubscription, Request, Response, Schema};
use futures_util::stream::{BoxStream, StreamExt};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};

use crate::app::Services;
use crate::config::Limits;
use crate::identity::DeviceInfo;
use crate::identity::actor::Actor;
pub use batch::BatchLoader;
pub use budget::response_json;
pub use cost::QueryCost;
pub use errors::{finish_errors, gql_error, request_error};
use limits::Admission;
pub use limits::LimitError;
pub use ordered::Ordered;

/// What the HTTP or WebSocket layer learned about one request.
#[derive(Debug, Clone)]
pub struct RequestContext {
    pub actor: Option<Actor>,
    pub correlation_id: String,
    pub idempotency_key: Option<String>,
    pub device: DeviceInfo,
}

pub trait ContextExt {
    fn services(&self) -> &Services;
    fn request(&self) -> &RequestContext;
    /// The signed-in caller, or `UNAUTHENTICATED`.
    fn actor(&self) -> async_graphql::Result<&Actor>;
    /// The `idempotencyKey` argument, or else the `Idempotency-Key` header.
    fn idempotency_key<'a>(&'a self, argument: Option<&'a str>) -> Option<&'a str>;
}

impl ContextExt for Context<'_> {
    fn services(&self) -> &Services {
        self.data_unchecked::<Services>()
    }

    fn request(&self) -> &RequestContext {
        self.data_unchecked::<RequestContext>()
    }

    fn actor(&self) -> async_graphql::Result<&Actor> {
        self.request().actor.as_ref().ok_or_else(|| gql_error(crate::error::CommonError::Unauthenticated))
    }

    fn idempotency_key<'a>(&'a self, argument: Option<&'a str>) -> Option<&'a str> {
        argument.or(self.request().idempotency_key.as_deref())
    }
}

#[derive(MergedObject, Default)]
pub struct QueryRoot(
    crate::identity::graphql::IdentityQuery,
    crate::projects::graphql::ProjectQuery,
    crate::settings::graphql::SettingsQuery,
    crate::gateway::graphql::GatewayQuery,
    crate::runs::graphql::RunQuery,
    crate::approvals::graphql::ApprovalQuery,
    crate::memory::graphql::MemoryQuery,
    crate::artifacts::graphql::ArtifactQuery,
    crate::context::graphql::ContextQuery,
    crate::wiki::graphql::WikiQuery,
    crate::skills::graphql::SkillQuery,
    crate::candidates::graphql::CandidateQuery,
    crate::audit::graphql::AuditQuery,
    crate::usage::graphql::UsageQuery,
    crate::notifications::graphql::NotificationQuery,
    node::NodeQuery,
);

#[derive(MergedObject, Default)]
pub struct MutationRoot(
    crate::identity::graphql::IdentityMutation,
    crate::projects::graphql::ProjectMutation,
    crate::settings::graphql::SettingsMutation,
    crate::gateway::graphql::GatewayMutation,
    crate::runs::graphql::RunMutation,
    crate::approvals::graphql::ApprovalMutation,
    crate::memory::graphql::MemoryMutation,
    crate::wiki::graphql::WikiMutation,
    crate::skills::graphql::SkillMutation,
    crate::candidates::graphql::CandidateMutation,
    crate::usage::graphql::UsageMutation,
    crate::notifications::graphql::NotificationMutation,
);

#[derive(MergedSubscription, Default)]
pub struct SubscriptionRoot(
    crate::projects::graphql::ProjectSubscription,
    crate::gateway::graphql::GatewaySubscription,
    crate::runs::graphql::RunSubscription,
    crate::approvals::graphql::ApprovalSubscription,
    crate::memory::graphql::MemorySubscription,
    crate::wiki::graphql::WikiSubscription,
    crate::notifications::graphql::NotificationSubscription,
);

/// A GraphQL operation as `/metrics` counts it: its type and first root field (`query tasks`),
/// and whether it answered without errors (`ok`, `error`, or `refused` by the limits).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OperationLabels {
    operation: String,
    outcome: &'static str,
}

/// Time to answer each query and mutation, by [`OperationLabels`] (registered by `/metrics`).
pub type OperationTimes = Family<OperationLabels, Histogram, fn() -> Histogram>;

/// Buckets for request latencies: 1 ms to about 16 s.
pub fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 15))
}

/// The schema, with the limits of SPEC §4 that every operation is admitted and run under.
#[derive(Clone)]
pub struct AppSchema {
    schema: Schema<QueryRoot, MutationRoot, SubscriptionRoot>,
    admission: Arc<Admission>,
    times: OperationTimes,
}

impl AppSchema {
    /// Runs a query or mutation, if admitted, within its time budget.
    pub async fn execute(&self, request: impl Into<Request>) -> Response {
        let started = Instant::now();
        let mut request = request.into();
        let (labels, response) = match self.admission.admit(&mut request) {
            Ok(operation) => {
                let response =
                    budget::within_time_budget(self.admission.time_budget, self.schema.execute(request)).await;
                let outcome = if response.errors.is_empty() { "ok" } else { "error" };
                (OperationLabels { operation, outcome }, response)
            }
            Err(refusal) => {
                let labels = OperationLabels { operation: "other".to_owned(), outcome: "refused" };
                (labels, Response::from_errors(vec![refusal]))
            }
        };
        self.times.get_or_create(&labels).observe(started.elapsed().as_secs_f64());
        response
    }

    /// The times [`Self::execute`] records.
    pub fn operation_times(&self) -> OperationTimes {
        self.times.clone()
    }

    /// Runs a subscription, if admitted; a refused one yields its error and ends.
    pub fn execute_stream(&self, request: Request) -> BoxStream<'static, Response> {
        let mut request = request;
        match self.admission.admit(&mut request) {
            Ok(_) => self.schema.execute_stream(request).boxed(),
            Err(refusal) => futures_util::stream::once(async { Response::from_errors(vec![refusal]) }).boxed(),
        }
    }
}

/// The schema with its limits; services may be absent when only the SDL is wanted.
pub fn build_schema(services: Option<Services>, limits: &Limits) -> AppSchema {
    // The cost rule reads the schema's shape; the SDL is the schema's own public description.
    let cost = QueryCost::new(&sdl(), limits).expect("the schema's own SDL parses");
    let mut builder = Schema::build(QueryRoot::default(), MutationRoot::default(), SubscriptionRoot::default())
        .limit_depth(limits.max_depth)
        .limit_directives(limits.max_directives);
    // Suggestions ("Did you mean …?") tell a prober the schema field by field: they go with it.
    if !limits.introspection {
        builder = builder.disable_introspection().disable_suggestions();
    }
    if let Some(services) = services {
        builder = builder.data(services);
    }
    let times = OperationTimes::new_with_constructor(latency_histogram);
    AppSchema { schema: builder.finish(), admission: Arc::new(Admission::new(cost, limits)), times }
}

/// The SDL as `acc schema` prints it and `schema.graphql` holds it; limits do not change it.
pub fn sdl() -> String {
    Schema::build(QueryRoot::default(), MutationRoot::default(), SubscriptionRoot::default()).finish().sdl()
}

/// Request data for one operation: its context and the per-request DataLoaders.
pub fn request_data(services: &Services, request: RequestContext) -> Data {
    let mut data = Data::default();
    if let Some(actor) = &request.actor {
        crate::identity::graphql::add_loaders(&mut data, services, actor);
        crate::projects::graphql::add_loaders(&mut data, services, actor);
        crate::runs::graphql::add_loaders(&mut data, services, actor);
        crate::memory::graphql::add_loaders(&mut data, services, actor);
        crate::artifacts::graphql::add_loaders(&mut data, services, actor);
        crate::wiki::graphql::add_loaders(&mut data, services, actor);
        crate::skills::graphql::add_loaders(&mut data, services, actor);
    }
    data.insert(request);
    data
}
