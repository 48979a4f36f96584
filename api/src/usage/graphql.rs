//! Usage in GraphQL: `usageSummary` for dashboards, `budgetPolicies` of a scope, and
//! `setBudgetPolicy` / `removeBudgetPolicy` for its administrators.

use acc_entity::budget_policy;
use async_graphql::{Context, Enum, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{BudgetStatus, GroupKey, NewBudget, UsageSummary as Summary, UsageTotals as Totals};
use crate::graphql::{ContextExt, gql_error};
use crate::identity::actor::ScopeKind;
use crate::identity::graphql::decode_scope;
use crate::ids::{NodeKind, decode, gid};

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::usage::Quality")]
pub enum UsageQuality {
    /// Counted by the connector's model gateway on the way to the provider.
    Measured,
    /// Reported by the runtime, priced from a list, or incomplete.
    Estimated,
    Unknown,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "crate::usage::UsageGrouping")]
pub enum UsageGrouping {
    Agent,
    Project,
    Workspace,
    /// Who started the runs.
    User,
    Model,
    /// The UTC day, oldest first.
    Day,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
#[graphql(remote = "acc_entity::budget_policy::BudgetPeriod")]
pub enum BudgetPeriod {
    /// The UTC day.
    Daily,
    /// From Monday 00:00 UTC.
    Weekly,
    /// The UTC calendar month.
    Monthly,
}

/// What runs used, summed; each run counts once, by what the gateway measured of it where it
/// did, else by what its runtime reported.
#[derive(SimpleObject)]
pub struct UsageTotals {
    /// Runs that used anything counted here.
    runs: i64,
    /// Model requests the gateway counted.
    requests: i64,
    input_tokens: i64,
    output_tokens: i64,
    cached_input_tokens: i64,
    /// How far the token counts can be trusted.
    tokens: UsageQuality,
    /// In US dollars; only when every report was priced.
    cost_usd: Option<f64>,
    cost: UsageQuality,
}

impl From<&Totals> for UsageTotals {
    fn from(t: &Totals) -> Self {
        Self {
            runs: t.runs,
            requests: t.requests,
            input_tokens: t.input_tokens,
            output_tokens: t.output_tokens,
            cached_input_tokens: t.cached_input_tokens,
            tokens: t.tokens.into(),
            cost_usd: t.cost_usd,
            cost: t.cost.into(),
        }
    }
}

/// One group of a summary.
#[derive(SimpleObject)]
pub struct UsageGroup {
    /// The agent's, project's, workspace's or user's id, the model's name, or the day
    /// (`YYYY-MM-DD`); empty for usage that names no agent or model.
    key: String,
    /// What a person calls it.
    label: String,
    totals: UsageTotals,
}

/// Usage over a scope and a window (SPEC §14).
#[derive(SimpleObject)]
pub struct UsageSummary {
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    total: UsageTotals,
    /// Largest first (days in order).
    groups: Vec<UsageGroup>,
}

/// A limit on what runs of a scope use per period: once it is reached, new runs there are
/// refused (`BUDGET_EXCEEDED`) until the period ends, and a starting attempt may use at most
/// what is left.
pub struct BudgetPolicy(pub BudgetStatus);

#[Object]
impl BudgetPolicy {
    pub async fn id(&self) -> ID {
        gid(NodeKind::BudgetPolicy, self.0.policy.id)
    }
    /// The organization, workspace or project it limits.
    async fn scope_id(&self) -> ID {
        let kind = match self.0.policy.scope_kind {
            budget_policy::BudgetScope::Organization => NodeKind::Organization,
            budget_policy::BudgetScope::Workspace => NodeKind::Workspace,
            budget_policy::BudgetScope::Project => NodeKind::Project,
        };
        gid(kind, self.0.policy.scope_id)
    }
    async fn period(&self) -> BudgetPeriod {
        self.0.policy.period.into()
    }
    /// Input plus output tokens.
    async fn max_tokens(&self) -> Option<i64> {
        self.0.policy.max_tokens
    }
    async fn max_cost_usd(&self) -> Option<f64> {
        self.0.policy.max_cost_usd
    }
    async fn period_start(&self) -> DateTime<Utc> {
        self.0.period_start
    }
    /// When the period ends and the budget is whole again.
    async fn period_end(&self) -> DateTime<Utc> {
        self.0.period_end
    }
    async fn used_tokens(&self) -> i64 {
        self.0.used_tokens
    }
    /// Of the reports that were priced.
    async fn used_cost_usd(&self) -> f64 {
        self.0.used_cost_usd
    }
    async fn remaining_tokens(&self) -> Option<i64> {
        self.0.remaining_tokens()
    }
    async fn remaining_cost_usd(&self) -> Option<f64> {
        self.0.remaining_cost_usd()
    }
    /// A limit is reached: no new run starts in the scope until the period ends.
    async fn exceeded(&self) -> bool {
        self.0.exceeded()
    }
    async fn revision(&self) -> i64 {
        self.0.policy.revision
    }
}

#[derive(Default)]
pub struct UsageQuery;

#[Object]
impl UsageQuery {
    /// What runs in a scope used in `[from, to)` (at most 366 days), in total and grouped; for
    /// those who read the scope.
    async fn usage_summary(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        group_by: UsageGrouping,
    ) -> async_graphql::Result<UsageSummary> {
        let scope = decode_scope(&scope_id)?;
        let services = ctx.services();
        let summary: Summary =
            services.usage.summary(ctx.actor()?, scope, (from, to), group_by.into()).await.map_err(gql_error)?;
        let names = services.usage.group_names(&summary.groups).await.map_err(gql_error)?;
        let named =
            |id: uuid::Uuid, kind: NodeKind| (gid(kind, id).to_string(), names.get(&id).cloned().unwrap_or_default());
        let groups = summary
            .groups
            .iter()
            .map(|group| {
                let (key, label) = match &group.key {
                    GroupKey::Agent(Some(id)) => named(*id, NodeKind::Agent),
                    GroupKey::Agent(None) => (String::new(), "no agent".to_owned()),
                    GroupKey::Project(id) => named(*id, NodeKind::Project),
                    GroupKey::Workspace(id) => named(*id, NodeKind::Workspace),
                    GroupKey::User(id) => named(*id, NodeKind::User),
                    GroupKey::Model(Some(model)) => (model.clone(), model.clone()),
                    GroupKey::Model(None) => (String::new(), "no model named".to_owned()),
                    GroupKey::Day(day) => (day.to_string(), day.to_string()),
                };
                UsageGroup { key, label, totals: (&group.totals).into() }
            })
            .collect();
        Ok(UsageSummary { from: summary.from, to: summary.to, total: (&summary.total).into(), groups })
    }

    /// The budgets that hold in a scope: its own and those of the scopes above it, each with what
    /// its current period has used.
    async fn budget_policies(&self, ctx: &Context<'_>, scope_id: ID) -> async_graphql::Result<Vec<BudgetPolicy>> {
        let scope = decode_scope(&scope_id)?;
        let held = ctx.services().usage.budgets(ctx.actor()?, scope).await.map_err(gql_error)?;
        Ok(held.into_iter().map(BudgetPolicy).collect())
    }
}

#[derive(Default)]
pub struct UsageMutation;

#[Object]
impl UsageMutation {
    /// Sets a scope's budget for a period (replacing the one it had for that period), with at
    /// least one positive limit; administrators of the scope.
    async fn set_budget_policy(
        &self,
        ctx: &Context<'_>,
        scope_id: ID,
        period: BudgetPeriod,
        max_tokens: Option<i64>,
        max_cost_usd: Option<f64>,
    ) -> async_graphql::Result<BudgetPolicy> {
        let scope: (ScopeKind, uuid::Uuid) = decode_scope(&scope_id)?;
        let new = NewBudget { scope, period: period.into(), max_tokens, max_cost_usd };
        ctx.services().usage.set_budget(ctx.actor()?, new).await.map(BudgetPolicy).map_err(gql_error)
    }

    /// Removes a budget policy; administrators of its scope. Returns its id.
    async fn remove_budget_policy(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<ID> {
        let policy = decode(&id, NodeKind::BudgetPolicy)?;
        ctx.services().usage.remove_budget(ctx.actor()?, policy).await.map_err(gql_error)?;
        Ok(id)
    }
}
