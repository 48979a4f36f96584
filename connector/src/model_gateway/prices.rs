//! What a model request costs, estimated from a price table: list prices per million tokens,
//! which a provider's bill may differ from (discounts, batch rates, long-context tiers). A model
//! the table does not know has an unknown cost, never a guessed one.

use serde::Deserialize;

use super::metering::Tokens;

/// The price of a model family (per million tokens, US dollars).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// A model name or the start of one (`claude-sonnet-4` prices `claude-sonnet-4-5-20250929`).
    pub model: String,
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
    /// Cached input tokens; the input price when absent.
    #[serde(default)]
    pub cached_input_per_mtok: Option<f64>,
}

/// Public list prices as of late 2026, for the models the adapters are most often run with.
const BUILT_IN: &[(&str, f64, f64, f64)] = &[
    ("claude-opus-4", 15.0, 75.0, 1.5),
    ("claude-sonnet-4", 3.0, 15.0, 0.3),
    ("claude-haiku-4", 1.0, 5.0, 0.1),
    ("gpt-5-mini", 0.25, 2.0, 0.025),
    ("gpt-5-nano", 0.05, 0.4, 0.005),
    ("gpt-5", 1.25, 10.0, 0.125),
    ("gemini-2.5-pro", 1.25, 10.0, 0.31),
    ("gemini-2.5-flash-lite", 0.1, 0.4, 0.025),
    ("gemini-2.5-flash", 0.3, 2.5, 0.075),
];

#[derive(Debug, Clone)]
pub struct PriceTable {
    prices: Vec<Price>,
}

impl PriceTable {
    /// The built-in table with `configured` prices added; a configured entry wins over a built-in
    /// one for the same model.
    pub fn new(configured: &[Price]) -> Self {
        let built_in = BUILT_IN.iter().map(|(model, input, output, cached)| Price {
            model: (*model).to_owned(),
            input_per_mtok: *input,
            output_per_mtok: *output,
            cached_input_per_mtok: Some(*cached),
        });
        Self { prices: configured.iter().cloned().chain(built_in).collect() }
    }

    /// The estimated cost of a response, if its model and tokens are known. The longest matching
    /// name wins; among equals, the configured entry.
    pub fn cost_usd(&self, model: Option<&str>, tokens: &Tokens) -> Option<f64> {
        let model = model?;
        if !tokens.is_known() {
            return None;
        }
        let price = self
            .prices
            .iter()
            .filter(|p| model.starts_with(&p.model))
            .reduce(|best, p| if p.model.len() > best.model.len() { p } else { best })?;
        let cached = tokens.cached_input.unwrap_or(0).min(tokens.input.unwrap_or(0));
        let fresh = tokens.input.unwrap_or(0) - cached;
        let per_token = |per_mtok: f64| per_mtok / 1_000_000.0;
        Some(
            fresh as f64 * per_token(price.input_per_mtok)
                + cached as f64 * per_token(price.cached_input_per_mtok.unwrap_or(price.input_per_mtok))
                + tokens.output.unwrap_or(0) as f64 * per_token(price.output_per_mtok),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_prices_cached_input_apart_and_unknown_models_stay_unknown() {
        let table = PriceTable::new(&[Price {
            model: "gemini-2.5-flash".into(),
            input_per_mtok: 1.0,
            output_per_mtok: 2.0,
            cached_input_per_mtok: None,
        }]);
        let tokens = Tokens { input: Some(1_000_000), output: Some(1_000_000), cached_input: Some(500_000) };
        let sonnet = table.cost_usd(Some("claude-sonnet-4-5-20250929"), &tokens).unwrap();
        assert!((sonnet - (0.5 * 3.0 + 0.5 * 0.3 + 15.0)).abs() < 1e-9, "{sonnet}");
        let lite = table.cost_usd(Some("gemini-2.5-flash-lite"), &tokens).unwrap();
        assert!((lite - (0.5 * 0.1 + 0.5 * 0.025 + 0.4)).abs() < 1e-9, "the longer built-in name wins: {lite}");
        let configured = table.cost_usd(Some("gemini-2.5-flash"), &tokens).unwrap();
        assert!((configured - 3.0).abs() < 1e-9, "configured over built-in: {configured}");
        assert_eq!(table.cost_usd(Some("my-local-llama"), &tokens), None);
        assert_eq!(table.cost_usd(None, &tokens), None);
        assert_eq!(table.cost_usd(Some("gpt-5"), &Tokens::default()), None);
    }
}
