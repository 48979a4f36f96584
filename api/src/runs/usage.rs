//! What runs used (SPEC §14): the `usage` events of a run summed into two signals kept apart —
//! what the connector's model gateway measured of every model request, and what the runtime
//! reported of itself — each marked measured, estimated or unknown, never more precise than its
//! source; and the wall time of its attempts.

use std::collections::HashMap;

use acc_entity::run_event::RunEventKind;
use acc_entity::{run_attempt, run_event};
use acc_protocol::RunBudget;
use chrono::Utc;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::Value;
use uuid::Uuid;

use super::{Result, RunReader, RunService};
use crate::error::CommonError;
use crate::identity::actor::Actor;

use crate::usage::Quality;

/// Where a usage signal comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageSource {
    /// The connector's model gateway.
    Gateway,
    /// The runtime's own report.
    Runtime,
}

/// One source's sum over a run.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageSignal {
    pub source: UsageSource,
    /// Model requests, when the source counts them.
    pub requests: Option<i64>,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub cached_input_tokens: i64,
    pub tokens: Quality,
    /// Only when every report was priced.
    pub cost_usd: Option<f64>,
    pub cost: Quality,
    pub models: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunUsage {
    pub measured: Option<UsageSignal>,
    pub reported: Option<UsageSignal>,
    /// The time its attempts ran, summed (an attempt still running counts until now).
    pub wall_time_ms: i64,
    pub budget: Option<RunBudget>,
}

/// Sums one source's usage events.
#[derive(Debug, Default)]
struct Tally {
    reports: usize,
    requests: i64,
    input: i64,
    output: i64,
    cached: i64,
    tokens_known: usize,
    cost: f64,
    priced: usize,
    models: Vec<String>,
}

fn number(data: &Value, key: &str) -> Option<i64> {
    data.get(key).and_then(Value::as_i64)
}

impl Tally {
    fn add(&mut self, data: &Value) {
        self.reports += 1;
        self.requests += number(data, "requests").unwrap_or(0);
        let (input, output) = (number(data, "input_tokens"), number(data, "output_tokens"));
        if input.is_some() || output.is_some() {
            self.tokens_known += 1;
        }
        self.input += input.unwrap_or(0);
        self.output += output.unwrap_or(0);
        self.cached += number(data, "cached_input_tokens").unwrap_or(0);
        if let Some(cost) = data.get("cost_usd").and_then(Value::as_f64) {
            self.cost += cost;
            self.priced += 1;
        }
        if let Some(model) = data.get("model").and_then(Value::as_str)
            && !self.models.iter().any(|m| m == model)
        {
            self.models.push(model.to_owned());
        }
    }

    fn signal(self, source: UsageSource) -> Option<UsageSignal> {
        if self.reports == 0 {
            return None;
        }
        let all = |n: usize| n == self.reports;
        let tokens = match (source, self.tokens_known) {
            (_, 0) => Quality::Unknown,
            (UsageSource::Gateway, n) if all(n) => Quality::Measured,
            _ => Quality::Estimated,
        };
        Some(UsageSignal {
            source,
            requests: (source == UsageSource::Gateway).then_some(self.requests),
            input_tokens: self.input,
            output_tokens: self.output,
            cached_input_tokens: self.cached,
            tokens,
            cost_usd: all(self.priced).then_some(self.cost),
            cost: if all(self.priced) { Quality::Estimated } else { Quality::Unknown },
            models: self.models,
        })
    }
}

impl RunService {
    /// What is left of a run's budget for its next attempt: each attempt's gateway meters from
    /// zero, so it gets the budget less what earlier attempts were measured to use, and no more
    /// than what its scopes' budgets have left now.
    pub(super) async fn remaining_budget(&self, run: &acc_entity::task_run::Model) -> Result<Option<RunBudget>> {
        let project = self.reader.project_of(run).await?;
        let allowance = self.usage.run_allowance(&project, false).await?;
        let own = self.own_remaining(run).await?;
        Ok(match (own, allowance) {
            (Some(own), Some(allowance)) => Some(crate::usage::tighter(&own, &allowance)),
            (own, allowance) => own.or(allowance),
        })
    }

    /// What is left of the run's own budget.
    async fn own_remaining(&self, run: &acc_entity::task_run::Model) -> Result<Option<RunBudget>> {
        let Some(budget) = run.budget.clone().and_then(|b| serde_json::from_value::<RunBudget>(b).ok()) else {
            return Ok(None);
        };
        let events = self
            .reads
            .all(
                run_event::Entity::find()
                    .filter(run_event::Column::RunId.eq(run.id))
                    .filter(run_event::Column::Kind.eq(RunEventKind::Usage)),
            )
            .await?;
        let mut used = Tally::default();
        for event in events.iter().filter(|e| e.data.get("source").and_then(Value::as_str) == Some("gateway")) {
            used.add(&event.data);
        }
        Ok(Some(RunBudget {
            max_tokens: budget.max_tokens.map(|max| max.saturating_sub((used.input + used.output).max(0) as u64)),
            max_cost_usd: budget.max_cost_usd.map(|max| (max - used.cost).max(0.0)),
        }))
    }
}

impl RunReader {
    /// The usage of one run.
    pub async fn run_usage(&self, actor: &Actor, run_id: Uuid) -> Result<RunUsage> {
        let mut usage = self.usage_of(actor, &[run_id]).await?;
        Ok(usage.remove(&run_id).ok_or(CommonError::NotFound("run"))?)
    }

    /// The usage of the runs the caller may read, by run.
    pub async fn usage_of(&self, actor: &Actor, run_ids: &[Uuid]) -> Result<HashMap<Uuid, RunUsage>> {
        let runs = self.readable_runs(actor, run_ids).await?;
        let ids: Vec<Uuid> = runs.iter().map(|r| r.id).collect();
        let events = self
            .reads
            .all(
                run_event::Entity::find()
                    .filter(run_event::Column::RunId.is_in(ids.iter().copied()))
                    .filter(run_event::Column::Kind.eq(RunEventKind::Usage))
                    .order_by_asc(run_event::Column::Sequence),
            )
            .await?;
        let attempts = self
            .reads
            .all(run_attempt::Entity::find().filter(run_attempt::Column::RunId.is_in(ids.iter().copied())))
            .await?;
        let now = Utc::now();
        Ok(runs
            .into_iter()
            .map(|run| {
                let run_id = run.id;
                let (mut measured, mut reported) = (Tally::default(), Tally::default());
                for event in events.iter().filter(|e| e.run_id == run_id) {
                    match event.data.get("source").and_then(Value::as_str) {
                        Some("gateway") => measured.add(&event.data),
                        _ => reported.add(&event.data),
                    }
                }
                let wall_time_ms = attempts
                    .iter()
                    .filter(|a| a.run_id == run_id)
                    .map(|a| (a.ended_at.unwrap_or(now) - a.created_at).num_milliseconds().max(0))
                    .sum();
                let budget = run.budget.and_then(|b| serde_json::from_value::<RunBudget>(b).ok());
                let usage = RunUsage {
                    measured: measured.signal(UsageSource::Gateway),
                    reported: reported.signal(UsageSource::Runtime),
                    wall_time_ms,
                    budget,
                };
                (run_id, usage)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn measured_only_when_every_request_was_counted_and_cost_only_when_every_one_was_priced() {
        let mut gateway = Tally::default();
        gateway.add(&json!({ "requests": 1, "input_tokens": 100, "output_tokens": 20, "cost_usd": 0.5, "model": "m" }));
        gateway.add(&json!({ "requests": 1, "input_tokens": 50, "output_tokens": 5, "cached_input_tokens": 40, "cost_usd": 0.25, "model": "m" }));
        let signal = gateway.signal(UsageSource::Gateway).unwrap();
        assert_eq!(
            (signal.requests, signal.input_tokens, signal.output_tokens, signal.cached_input_tokens),
            (Some(2), 150, 25, 40)
        );
        assert_eq!((signal.tokens, signal.cost, signal.cost_usd), (Quality::Measured, Quality::Estimated, Some(0.75)));
        assert_eq!(signal.models, vec!["m".to_owned()]);

        let mut partial = Tally::default();
        partial.add(&json!({ "requests": 1, "input_tokens": 100, "output_tokens": 20, "cost_usd": 0.5 }));
        partial.add(&json!({ "requests": 1, "input_tokens": null, "output_tokens": null, "cost_usd": null }));
        let signal = partial.signal(UsageSource::Gateway).unwrap();
        assert_eq!((signal.tokens, signal.cost, signal.cost_usd), (Quality::Estimated, Quality::Unknown, None));

        let mut runtime = Tally::default();
        runtime.add(&json!({ "input_tokens": 10, "output_tokens": 2, "cost_usd": 0.01 }));
        let signal = runtime.signal(UsageSource::Runtime).unwrap();
        assert_eq!((signal.requests, signal.tokens, signal.cost), (None, Quality::Estimated, Quality::Estimated));
        assert_eq!(Tally::default().signal(UsageSource::Runtime), None);
    }
}
