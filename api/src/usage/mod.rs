//! Usage (SPEC §14): every usage report of a run kept with where it happened and who ran it;
//! sums of them over a scope and a time window, by agent, project, workspace, user, model or day;
//! and budget policies — tokens and cost per scope and period — that refuse new runs once a
//! period is spent (`BUDGET_EXCEEDED`) and cap what a starting attempt may use to what is left.
//!
//! A run's usage counts once: what the connector's model gateway measured where it measured the
//! run, else what the runtime reported of itself. Each sum says how far it can be trusted.

pub mod graphql;

use std::collections::{BTreeMap, HashMap, HashSet};

use acc_entity::audit_event::{AuditAction, AuditTargetKind};
use acc_entity::budget_policy::{self, BudgetPeriod, BudgetScope};
use acc_entity::usage_record::{self, UsageSource};
use acc_entity::{project, run_event, task_run};
use acc_protocol::RunBudget;
use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, Set};
use serde_json::Value;
use uuid::Uuid;

use crate::audit::{AuditLog, Entry};
use crate::db::{Pool, Reads, Store};
use crate::error::{CommonError, DomainError, ErrorCode};
use crate::identity::actor::{Actor, Permission, ScopeKind, ScopePath};
use crate::ids::new_id;
use crate::notifications::NotificationService;

#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    #[error("the {period} budget of this {scope} is spent: new runs start again when its period ends at {resets_at}")]
    BudgetExceeded { policy_id: Uuid, scope: BudgetScope, period: BudgetPeriod, resets_at: DateTime<Utc> },
    #[error(transparent)]
    Common(#[from] CommonError),
}

impl From<sea_orm::DbErr> for UsageError {
    fn from(e: sea_orm::DbErr) -> Self {
        UsageError::Common(e.into())
    }
}

impl DomainError for UsageError {
    fn code(&self) -> ErrorCode {
        match self {
            UsageError::BudgetExceeded { .. } => ErrorCode::BudgetExceeded,
            UsageError::Common(e) => e.code(),
        }
    }

    fn details(&self) -> Value {
        match self {
            UsageError::BudgetExceeded { policy_id, scope, period, resets_at } => serde_json::json!({
                "budgetPolicyId": crate::ids::GlobalId::new(crate::ids::NodeKind::BudgetPolicy, *policy_id).encode(),
                "scope": scope.to_string(),
                "period": period.to_string(),
                "resetsAt": resets_at,
            }),
            UsageError::Common(e) => e.details(),
        }
    }
}

type Result<T, E = UsageError> = std::result::Result<T, E>;

/// How much a figure can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quality {
    /// Counted by us on the way to the provider.
    Measured,
    /// Reported by someone else (the runtime), or priced from a list, or incomplete.
    Estimated,
    Unknown,
}

/// What a sum is grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageGrouping {
    Agent,
    Project,
    Workspace,
    User,
    Model,
    /// The UTC day it was used.
    Day,
}

/// One group of a summary.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKey {
    /// `None`: usage reported with no attempt's agent.
    Agent(Option<Uuid>),
    Project(Uuid),
    Workspace(Uuid),
    User(Uuid),
    /// `None`: the report named no model.
    Model(Option<String>),
    Day(NaiveDate),
}

/// What runs used, summed.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageTotals {
    /// Runs that used anything counted here.
    pub runs: i64,
    /// Model requests, counted where the gateway measured them.
    pub requests: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub cached_input_tokens: i64,
    pub tokens: Quality,
    /// Only when every report was priced.
    pub cost_usd: Option<f64>,
    pub cost: Quality,
}

#[derive(Debug, Clone, PartialEq)]
pub struct UsageGroup {
    pub key: GroupKey,
    pub totals: UsageTotals,
}

/// Usage over a scope and a window, in total and by group (largest first; days in order).
#[derive(Debug, Clone, PartialEq)]
pub struct UsageSummary {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub total: UsageTotals,
    pub groups: Vec<UsageGroup>,
}

/// A budget policy with what its current period has used.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetStatus {
    pub policy: budget_policy::Model,
    pub period_start: DateTime<Utc>,
    pub period_end: DateTime<Utc>,
    pub used_tokens: i64,
    pub used_cost_usd: f64,
}

impl BudgetStatus {
    pub fn remaining_tokens(&self) -> Option<i64> {
        self.policy.max_tokens.map(|max| (max - self.used_tokens).max(0))
    }

    pub fn remaining_cost_usd(&self) -> Option<f64> {
        self.policy.max_cost_usd.map(|max| (max - self.used_cost_usd).max(0.0))
    }

    /// How much of its tighter limit is used, in percent (past 100 when overspent).
    pub fn used_share(&self) -> f64 {
        let tokens = self.policy.max_tokens.map(|max| self.used_tokens as f64 / max as f64);
        let cost = self.policy.max_cost_usd.map(|max| self.used_cost_usd / max);
        tokens.into_iter().chain(cost).fold(0.0, f64::max) * 100.0
    }

    /// Whether a limit is reached: no new run starts in its scope until the period ends.
    pub fn exceeded(&self) -> bool {
        self.remaining_tokens() == Some(0) || self.remaining_cost_usd() == Some(0.0)
    }
}

/// A new or changed budget policy.
#[derive(Debug, Clone)]
pub struct NewBudget {
    pub scope: (ScopeKind, Uuid),
    pub period: BudgetPeriod,
    pub max_tokens: Option<i64>,
    pub max_cost_usd: Option<f64>,
}

/// The longest window a summary covers.
const MAX_WINDOW_DAYS: i64 = 366;

#[derive(Clone)]
pub struct UsageService {
    db: Pool,
    reads: Reads,
    audit: AuditLog,
    /// The administrators of a budget's scope are told at 80 % and when it is spent.
    notifications: NotificationService,
}

impl UsageService {
    pub fn new(store: &Store, audit: AuditLog, notifications: NotificationService) -> Self {
        Self { db: store.pool.clone(), reads: store.reads.clone(), audit, notifications }
    }

    /// Keeps a run's `usage` event, with where the run is (`workspace_id`) and the agent of the
    /// attempt that reported it. Recording one again (a resent event) changes nothing.
    pub async fn record(
        &self,
        run: &task_run::Model,
        workspace_id: Uuid,
        agent_id: Option<Uuid>,
        event: &run_event::Model,
    ) -> Result<()> {
        let data = &event.data;
        let number = |key: &str| data.get(key).and_then(Value::as_i64);
        let source = match data.get("source").and_then(Value::as_str) {
            Some("gateway") => UsageSource::Gateway,
            _ => UsageSource::Runtime,
        };
        let (input, output) = (number("input_tokens"), number("output_tokens"));
        let row = usage_record::ActiveModel {
            id: Set(new_id()),
            organization_id: Set(run.organization_id),
            run_event_id: Set(event.id),
            workspace_id: Set(workspace_id),
            project_id: Set(run.project_id),
            task_id: Set(run.task_id),
            run_id: Set(run.id),
            agent_id: Set(agent_id),
            user_id: Set(run.created_by),
            source: Set(source),
            model: Set(data.get("model").and_then(Value::as_str).map(str::to_owned)),
            requests: Set((source == UsageSource::Gateway).then(|| number("requests").unwrap_or(0).max(0))),
            input_tokens: Set(input.unwrap_or(0).max(0)),
            output_tokens: Set(output.unwrap_or(0).max(0)),
            cached_input_tokens: Set(number("cached_input_tokens").unwrap_or(0).max(0)),
            tokens_known: Set(input.is_some() || output.is_some()),
            cost_usd: Set(data.get("cost_usd").and_then(Value::as_f64).filter(|c| c.is_finite() && *c >= 0.0)),
            occurred_at: Set(event.created_at),
            created_at: Set(Utc::now()),
        };
        usage_record::Entity::insert(row)
            .on_conflict(OnConflict::column(usage_record::Column::RunEventId).do_nothing().to_owned())
            .exec_without_returning(&self.db)
            .await?;
        let path = ScopePath::project(run.organization_id, workspace_id, run.project_id);
        for status in self.holding(&path).await? {
            let used = status.used_share();
            self.notifications.budget_used(&status.policy, used, status.period_start).await;
        }
        Ok(())
    }

    /// What the scope `scope` used in `[from, to)`, in total and grouped; for those who read it.
    pub async fn summary(
        &self,
        actor: &Actor,
        scope: (ScopeKind, Uuid),
        (from, to): (DateTime<Utc>, DateTime<Utc>),
        grouping: UsageGrouping,
    ) -> Result<UsageSummary> {
        if to <= from {
            return Err(CommonError::validation("`to` must come after `from`").into());
        }
        if to - from > Duration::days(MAX_WINDOW_DAYS) {
            return Err(CommonError::validation(format!("a summary covers at most {MAX_WINDOW_DAYS} days")).into());
        }
        let path = crate::identity::scope_path(&self.reads, actor, scope.0, scope.1).await?;
        actor.authorize(Permission::Read, &path, "scope")?;
        let counted = self.counted(scope, from, to).await?;
        let mut groups: BTreeMap<GroupKey, Sum> = BTreeMap::new();
        let mut total = Sum::default();
        for record in &counted {
            total.add(record);
            groups.entry(group_key(record, grouping)).or_default().add(record);
        }
        let mut groups: Vec<UsageGroup> =
            groups.into_iter().map(|(key, sum)| UsageGroup { key, totals: sum.totals() }).collect();
        if grouping != UsageGrouping::Day {
            groups.sort_by_key(|g| std::cmp::Reverse(g.totals.input_tokens + g.totals.output_tokens));
        }
        Ok(UsageSummary { from, to, total: total.totals(), groups })
    }

    /// The reports of a scope in `[from, to)` that count: each run's gateway measurements where
    /// the gateway measured it in the window, else its runtime's reports.
    async fn counted(
        &self,
        scope: (ScopeKind, Uuid),
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<usage_record::Model>> {
        let column = match scope.0 {
            ScopeKind::Organization => usage_record::Column::OrganizationId,
            ScopeKind::Workspace => usage_record::Column::WorkspaceId,
            ScopeKind::Project => usage_record::Column::ProjectId,
        };
        let records = self
            .reads
            .all(
                usage_record::Entity::find()
                    .filter(column.eq(scope.1))
                    .filter(usage_record::Column::OccurredAt.gte(from))
                    .filter(usage_record::Column::OccurredAt.lt(to)),
            )
            .await?;
        let measured: HashSet<Uuid> =
            records.iter().filter(|r| r.source == UsageSource::Gateway).map(|r| r.run_id).collect();
        Ok(records.into_iter().filter(|r| (r.source == UsageSource::Gateway) == measured.contains(&r.run_id)).collect())
    }

    /// Sets the scope's budget for `period` (replacing the one it had); administrators of it.
    pub async fn set_budget(&self, actor: &Actor, new: NewBudget) -> Result<BudgetStatus> {
        if new.max_tokens.is_none() && new.max_cost_usd.is_none() {
            return Err(CommonError::validation("a budget needs maxTokens or maxCostUsd").into());
        }
        if new.max_tokens.is_some_and(|t| t <= 0) || new.max_cost_usd.is_some_and(|c| !c.is_finite() || c <= 0.0) {
            return Err(CommonError::validation("budget limits must be positive").into());
        }
        let path = crate::identity::scope_path(&self.reads, actor, new.scope.0, new.scope.1).await?;
        actor.authorize(Permission::Administer, &path, new.scope.0.as_str())?;
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        let existing = budget_policy::Entity::find()
            .filter(budget_policy::Column::ScopeId.eq(new.scope.1))
            .filter(budget_policy::Column::Period.eq(new.period))
            .one(&*txn)
            .await?;
        let policy = match existing {
            Some(policy) => {
                let revision = policy.revision + 1;
                let mut active = policy.into_active_model();
                active.max_tokens = Set(new.max_tokens);
                active.max_cost_usd = Set(new.max_cost_usd);
                active.revision = Set(revision);
                active.updated_at = Set(now);
                active.update(&*txn).await?
            }
            None => {
                budget_policy::ActiveModel {
                    id: Set(new_id()),
                    organization_id: Set(path.organization_id),
                    scope_kind: Set(budget_scope(new.scope.0)),
                    scope_id: Set(new.scope.1),
                    workspace_id: Set(path.workspace_id),
                    project_id: Set(path.project_id),
                    period: Set(new.period),
                    max_tokens: Set(new.max_tokens),
                    max_cost_usd: Set(new.max_cost_usd),
                    created_by: Set(actor.user_id),
                    revision: Set(1),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&*txn)
                .await?
            }
        };
        let set = Entry::by(actor, AuditAction::BudgetPolicySet)
            .on(AuditTargetKind::BudgetPolicy, policy.id)
            .at(&path)
            .with("period", policy.period.to_string())
            .with("max_tokens", policy.max_tokens)
            .with("max_cost_usd", policy.max_cost_usd);
        self.audit.append(&*txn, set).await?;
        txn.commit().await?;
        self.status(policy, now).await
    }

    /// Removes a budget policy; administrators of its scope.
    pub async fn remove_budget(&self, actor: &Actor, id: Uuid) -> Result<budget_policy::Model> {
        let policy = self.policy(actor, id).await?;
        actor.authorize(Permission::Administer, &policy_path(&policy), "budget policy")?;
        let txn = self.db.begin_write().await?;
        budget_policy::Entity::delete_by_id(policy.id).exec(&*txn).await?;
        let removed = Entry::by(actor, AuditAction::BudgetPolicyRemoved)
            .on(AuditTargetKind::BudgetPolicy, policy.id)
            .at(&policy_path(&policy))
            .with("period", policy.period.to_string());
        self.audit.append(&*txn, removed).await?;
        txn.commit().await?;
        Ok(policy)
    }

    /// A policy the caller may read (those who read its scope).
    async fn policy(&self, actor: &Actor, id: Uuid) -> Result<budget_policy::Model> {
        let not_found = || CommonError::NotFound("budget policy");
        let policy = self.reads.one(budget_policy::Entity::find_by_id(id)).await?.ok_or_else(not_found)?;
        if policy.organization_id != actor.organization_id || actor.role_on(&policy_path(&policy)).is_none() {
            return Err(not_found().into());
        }
        Ok(policy)
    }

    /// A policy the caller may read, with its current period's use.
    pub async fn budget(&self, actor: &Actor, id: Uuid) -> Result<BudgetStatus> {
        let policy = self.policy(actor, id).await?;
        self.status(policy, Utc::now()).await
    }

    /// The policies that hold in a scope: its own and those of the scopes above it.
    pub async fn budgets(&self, actor: &Actor, scope: (ScopeKind, Uuid)) -> Result<Vec<BudgetStatus>> {
        let path = crate::identity::scope_path(&self.reads, actor, scope.0, scope.1).await?;
        actor.authorize(Permission::Read, &path, "scope")?;
        self.holding(&path).await
    }

    async fn holding(&self, path: &ScopePath) -> Result<Vec<BudgetStatus>> {
        let scopes = [Some(path.organization_id), path.workspace_id, path.project_id];
        let policies = self
            .reads
            .all(
                budget_policy::Entity::find()
                    .filter(budget_policy::Column::ScopeId.is_in(scopes.into_iter().flatten())),
            )
            .await?;
        let now = Utc::now();
        let mut statuses = Vec::with_capacity(policies.len());
        for policy in policies {
            statuses.push(self.status(policy, now).await?);
        }
        statuses.sort_by_key(|s| (s.policy.scope_kind as u8, s.policy.period as u8));
        Ok(statuses)
    }

    async fn status(&self, policy: budget_policy::Model, now: DateTime<Utc>) -> Result<BudgetStatus> {
        let (period_start, period_end) = period_bounds(policy.period, now);
        let scope = (scope_kind(policy.scope_kind), policy.scope_id);
        let mut used = Sum::default();
        for record in self.counted(scope, period_start, period_end).await? {
            used.add(&record);
        }
        Ok(BudgetStatus {
            used_tokens: used.input + used.output,
            used_cost_usd: used.cost,
            policy,
            period_start,
            period_end,
        })
    }

    /// What a run of `project` may still use under its scopes' budgets: `None` where none holds.
    /// A spent budget is `BUDGET_EXCEEDED` when `refuse_spent`; otherwise its zero is returned,
    /// so the attempt's gateway stops it at its first request.
    pub async fn run_allowance(&self, project: &project::Model, refuse_spent: bool) -> Result<Option<RunBudget>> {
        let path = ScopePath::project(project.organization_id, project.workspace_id, project.id);
        let statuses = self.holding(&path).await?;
        if refuse_spent && let Some(spent) = statuses.iter().find(|s| s.exceeded()) {
            return Err(UsageError::BudgetExceeded {
                policy_id: spent.policy.id,
                scope: spent.policy.scope_kind,
                period: spent.policy.period,
                resets_at: spent.period_end,
            });
        }
        Ok(statuses.iter().fold(None, |allowance: Option<RunBudget>, status| {
            let this = RunBudget {
                max_tokens: status.remaining_tokens().map(|t| t as u64),
                max_cost_usd: status.remaining_cost_usd(),
            };
            Some(match allowance {
                None => this,
                Some(so_far) => tighter(&so_far, &this),
            })
        }))
    }

    /// The names a summary's groups are shown with, read in one query per kind.
    pub async fn group_names(&self, groups: &[UsageGroup]) -> Result<HashMap<Uuid, String>> {
        let reads = &self.reads;
        use acc_entity::{agent, user, workspace};
        let ids =
            |pick: fn(&GroupKey) -> Option<Uuid>| -> Vec<Uuid> { groups.iter().filter_map(|g| pick(&g.key)).collect() };
        let mut names = HashMap::new();
        let agents = ids(|k| if let GroupKey::Agent(id) = k { *id } else { None });
        if !agents.is_empty() {
            names.extend(
                reads
                    .all(agent::Entity::find().filter(agent::Column::Id.is_in(agents)))
                    .await?
                    .into_iter()
                    .map(|a| (a.id, a.name)),
            );
        }
        let projects = ids(|k| if let GroupKey::Project(id) = k { Some(*id) } else { None });
        if !projects.is_empty() {
            names.extend(
                reads
                    .all(project::Entity::find().filter(project::Column::Id.is_in(projects)))
                    .await?
                    .into_iter()
                    .map(|p| (p.id, p.name)),
            );
        }
        let workspaces = ids(|k| if let GroupKey::Workspace(id) = k { Some(*id) } else { None });
        if !workspaces.is_empty() {
            names.extend(
                reads
                    .all(workspace::Entity::find().filter(workspace::Column::Id.is_in(workspaces)))
                    .await?
                    .into_iter()
                    .map(|w| (w.id, w.name)),
            );
        }
        let users = ids(|k| if let GroupKey::User(id) = k { Some(*id) } else { None });
        if !users.is_empty() {
            names.extend(
                reads
                    .all(user::Entity::find().filter(user::Column::Id.is_in(users)))
                    .await?
                    .into_iter()
                    .map(|u| (u.id, if u.display_name.is_empty() { u.email } else { u.display_name })),
            );
        }
        Ok(names)
    }
}

/// Each limit at the smaller of the two.
pub fn tighter(a: &RunBudget, b: &RunBudget) -> RunBudget {
    fn least<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Option<T> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if b < a { b } else { a }),
            (a, b) => a.or(b),
        }
    }
    RunBudget { max_tokens: least(a.max_tokens, b.max_tokens), max_cost_usd: least(a.max_cost_usd, b.max_cost_usd) }
}

/// Sums counted reports.
#[derive(Debug, Default)]
struct Sum {
    runs: HashSet<Uuid>,
    reports: usize,
    requests: i64,
    input: i64,
    output: i64,
    cached: i64,
    tokens_known: usize,
    measured: usize,
    cost: f64,
    priced: usize,
}

impl Sum {
    fn add(&mut self, record: &usage_record::Model) {
        self.runs.insert(record.run_id);
        self.reports += 1;
        self.requests += record.requests.unwrap_or(0);
        self.input += record.input_tokens;
        self.output += record.output_tokens;
        self.cached += record.cached_input_tokens;
        if record.tokens_known {
            self.tokens_known += 1;
            if record.source == UsageSource::Gateway {
                self.measured += 1;
            }
        }
        if let Some(cost) = record.cost_usd {
            self.cost += cost;
            self.priced += 1;
        }
    }

    fn totals(&self) -> UsageTotals {
        let all = |n: usize| n == self.reports;
        let tokens = match self.tokens_known {
            0 => Quality::Unknown,
            _ if all(self.measured) => Quality::Measured,
            _ => Quality::Estimated,
        };
        let priced = self.reports > 0 && all(self.priced);
        UsageTotals {
            runs: self.runs.len() as i64,
            requests: self.requests,
            input_tokens: self.input,
            output_tokens: self.output,
            cached_input_tokens: self.cached,
            tokens,
            cost_usd: priced.then_some(self.cost),
            cost: if priced { Quality::Estimated } else { Quality::Unknown },
        }
    }
}

fn group_key(record: &usage_record::Model, grouping: UsageGrouping) -> GroupKey {
    match grouping {
        UsageGrouping::Agent => GroupKey::Agent(record.agent_id),
        UsageGrouping::Project => GroupKey::Project(record.project_id),
        UsageGrouping::Workspace => GroupKey::Workspace(record.workspace_id),
        UsageGrouping::User => GroupKey::User(record.user_id),
        UsageGrouping::Model => GroupKey::Model(record.model.clone()),
        UsageGrouping::Day => GroupKey::Day(record.occurred_at.date_naive()),
    }
}

/// The UTC calendar period holding `now`: `[start, end)`.
pub fn period_bounds(period: BudgetPeriod, now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let day = now.date_naive();
    let midnight = |date: NaiveDate| Utc.from_utc_datetime(&date.and_hms_opt(0, 0, 0).unwrap_or_default());
    match period {
        BudgetPeriod::Daily => (midnight(day), midnight(day) + Duration::days(1)),
        BudgetPeriod::Weekly => {
            let monday = day - Duration::days(i64::from(day.weekday().num_days_from_monday()));
            (midnight(monday), midnight(monday) + Duration::days(7))
        }
        BudgetPeriod::Monthly => {
            let first = day.with_day(1).unwrap_or(day);
            let next = first.checked_add_months(chrono::Months::new(1)).unwrap_or(first);
            (midnight(first), midnight(next))
        }
    }
}

fn budget_scope(kind: ScopeKind) -> BudgetScope {
    match kind {
        ScopeKind::Organization => BudgetScope::Organization,
        ScopeKind::Workspace => BudgetScope::Workspace,
        ScopeKind::Project => BudgetScope::Project,
    }
}

fn scope_kind(scope: BudgetScope) -> ScopeKind {
    match scope {
        BudgetScope::Organization => ScopeKind::Organization,
        BudgetScope::Workspace => ScopeKind::Workspace,
        BudgetScope::Project => ScopeKind::Project,
    }
}

fn policy_path(policy: &budget_policy::Model) -> ScopePath {
    ScopePath {
        organization_id: policy.organization_id,
        workspace_id: policy.workspace_id,
        project_id: policy.project_id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn periods_are_utc_calendar_days_weeks_from_monday_and_months() {
        let now = at("2026-12-09T15:30:00Z"); // a Wednesday
        assert_eq!(period_bounds(BudgetPeriod::Daily, now), (at("2026-12-09T00:00:00Z"), at("2026-12-10T00:00:00Z")));
        assert_eq!(period_bounds(BudgetPeriod::Weekly, now), (at("2026-12-07T00:00:00Z"), at("2026-12-14T00:00:00Z")));
        assert_eq!(period_bounds(BudgetPeriod::Monthly, now), (at("2026-12-01T00:00:00Z"), at("2027-01-01T00:00:00Z")));
    }

    #[test]
    fn the_tighter_budget_takes_each_limit_at_its_smaller() {
        let a = RunBudget { max_tokens: Some(500), max_cost_usd: None };
        let b = RunBudget { max_tokens: Some(800), max_cost_usd: Some(2.0) };
        assert_eq!(tighter(&a, &b), RunBudget { max_tokens: Some(500), max_cost_usd: Some(2.0) });
    }
}
