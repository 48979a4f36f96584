//! Reading what a model response used, as it streams past: the usage objects of Anthropic
//! Messages, OpenAI Responses and Chat Completions, and Gemini, in server-sent events or one JSON
//! body. Normalized so that `input_tokens` counts every prompt token (cached ones included) and
//! `cached_input_tokens` says how many of them came from the provider's cache.

use serde_json::Value;

use crate::config::ModelApi;

/// A JSON body larger than this is forwarded but not read for usage.
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Token counts of one model response; `None` where the provider did not say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tokens {
    pub input: Option<u64>,
    pub output: Option<u64>,
    pub cached_input: Option<u64>,
}

impl Tokens {
    /// Input plus output, what a token budget counts.
    pub fn total(&self) -> u64 {
        self.input.unwrap_or(0) + self.output.unwrap_or(0)
    }

    pub fn is_known(&self) -> bool {
        self.input.is_some() || self.output.is_some()
    }
}

/// What one response said about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Measured {
    pub tokens: Tokens,
    pub model: Option<String>,
}

/// Reads a response body chunk by chunk.
#[derive(Debug)]
pub struct Meter {
    api: ModelApi,
    /// Server-sent events (else one JSON body).
    events: bool,
    /// The incomplete line (events) or the body so far (JSON).
    pending: Vec<u8>,
    overflow: bool,
    measured: Measured,
}

fn count(value: &Value) -> Option<u64> {
    value.as_u64()
}

fn sum(parts: &[&Value]) -> Option<u64> {
    let known: Vec<u64> = parts.iter().filter_map(|v| count(v)).collect();
    (!known.is_empty()).then(|| known.iter().sum())
}

impl Meter {
    pub fn new(api: ModelApi, content_type: Option<&str>) -> Self {
        let events = content_type.is_some_and(|t| t.starts_with("text/event-stream"));
        Self { api, events, pending: Vec::new(), overflow: false, measured: Measured::default() }
    }

    pub fn feed(&mut self, chunk: &[u8]) {
        if self.overflow {
            return;
        }
        self.pending.extend_from_slice(chunk);
        if !self.events {
            self.overflow = self.pending.len() > MAX_BODY_BYTES;
            return;
        }
        while let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.line(&line);
        }
        // An event line never grows this long; a stream that does is not read further.
        self.overflow = self.pending.len() > MAX_BODY_BYTES;
    }

    /// What the whole response said it used.
    pub fn finish(mut self) -> Measured {
        if !self.overflow {
            let rest = std::mem::take(&mut self.pending);
            if self.events {
                self.line(&rest);
            } else if let Ok(body) = serde_json::from_slice::<Value>(&rest) {
                self.observe(&body);
            }
        }
        self.measured
    }

    fn line(&mut self, line: &[u8]) {
        let Ok(text) = std::str::from_utf8(line) else { return };
        if let Some(data) = text.trim_end().strip_prefix("data:")
            && let Ok(value) = serde_json::from_str::<Value>(data.trim_start())
        {
            self.observe(&value);
        }
    }

    /// One JSON object of the response: its usage, where the API puts it, replaces what earlier
    /// objects said (each API reports running totals).
    fn observe(&mut self, value: &Value) {
        let (usage, model) = match self.api {
            ModelApi::Anthropic => {
                let inner = if value["message"].is_object() { &value["message"] } else { value };
                (&inner["usage"], &inner["model"])
            }
            ModelApi::Openai => {
                let inner = if value["response"].is_object() { &value["response"] } else { value };
                (&inner["usage"], &inner["model"])
            }
            ModelApi::Gemini => (&value["usageMetadata"], &value["modelVersion"]),
        };
        if let Some(model) = model.as_str() {
            self.measured.model = Some(model.to_owned());
        }
        if !usage.is_object() {
            return;
        }
        let tokens = match self.api {
            // Anthropic counts cache reads and writes apart from `input_tokens`.
            ModelApi::Anthropic => Tokens {
                input: sum(&[
                    &usage["input_tokens"],
                    &usage["cache_read_input_tokens"],
                    &usage["cache_creation_input_tokens"],
                ]),
                output: count(&usage["output_tokens"]),
                cached_input: count(&usage["cache_read_input_tokens"]),
            },
            ModelApi::Openai => Tokens {
                input: count(&usage["input_tokens"]).or_else(|| count(&usage["prompt_tokens"])),
                output: count(&usage["output_tokens"]).or_else(|| count(&usage["completion_tokens"])),
                cached_input: count(&usage["input_tokens_details"]["cached_tokens"])
                    .or_else(|| count(&usage["prompt_tokens_details"]["cached_tokens"])),
            },
            // Thinking tokens are billed as output.
            ModelApi::Gemini => Tokens {
                input: count(&usage["promptTokenCount"]),
                output: sum(&[&usage["candidatesTokenCount"], &usage["thoughtsTokenCount"]]),
                cached_input: count(&usage["cachedContentTokenCount"]),
            },
        };
        let was = self.measured.tokens;
        self.measured.tokens = Tokens {
            input: tokens.input.or(was.input),
            output: tokens.output.or(was.output),
            cached_input: tokens.cached_input.or(was.cached_input),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metered(api: ModelApi, content_type: &str, body: &str, chunk: usize) -> Measured {
        let mut meter = Meter::new(api, Some(content_type));
        for piece in body.as_bytes().chunks(chunk) {
            meter.feed(piece);
        }
        meter.finish()
    }

    #[test]
    fn anthropic_stream_counts_cache_as_input_and_takes_the_last_output() {
        let body = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-x\",\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":90,\"cache_creation_input_tokens\":5,\"output_tokens\":1}}}\n\n\
                    event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":42}}\n\n";
        for chunk in [1, 7, body.len()] {
            let m = metered(ModelApi::Anthropic, "text/event-stream; charset=utf-8", body, chunk);
            assert_eq!(m.tokens, Tokens { input: Some(105), output: Some(42), cached_input: Some(90) });
            assert_eq!(m.model.as_deref(), Some("claude-x"));
        }
    }

    #[test]
    fn openai_responses_and_chat_completions() {
        let responses = "data: {\"type\":\"response.created\",\"response\":{\"model\":\"gpt-x\",\"usage\":null}}\n\
                         data: {\"type\":\"response.completed\",\"response\":{\"model\":\"gpt-x\",\"usage\":{\"input_tokens\":100,\"input_tokens_details\":{\"cached_tokens\":60},\"output_tokens\":20}}}\n";
        let m = metered(ModelApi::Openai, "text/event-stream", responses, 5);
        assert_eq!(m.tokens, Tokens { input: Some(100), output: Some(20), cached_input: Some(60) });
        let chat = "data: {\"model\":\"gpt-y\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\
                    data: {\"model\":\"gpt-y\",\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3}}\n\
                    data: [DONE]\n";
        let m = metered(ModelApi::Openai, "text/event-stream", chat, 3);
        assert_eq!(m.tokens, Tokens { input: Some(7), output: Some(3), cached_input: None });
        assert_eq!(m.model.as_deref(), Some("gpt-y"));
        let json = "{\"model\":\"gpt-z\",\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2}}";
        assert_eq!(metered(ModelApi::Openai, "application/json", json, 2).tokens.total(), 6);
    }

    #[test]
    fn gemini_counts_thoughts_as_output_and_unknown_stays_unknown() {
        let body = "data: {\"modelVersion\":\"gemini-x\",\"usageMetadata\":{\"promptTokenCount\":50,\"candidatesTokenCount\":5}}\r\n\r\n\
                    data: {\"modelVersion\":\"gemini-x\",\"usageMetadata\":{\"promptTokenCount\":50,\"candidatesTokenCount\":9,\"thoughtsTokenCount\":4,\"cachedContentTokenCount\":20}}\r\n\r\n";
        let m = metered(ModelApi::Gemini, "text/event-stream", body, 11);
        assert_eq!(m.tokens, Tokens { input: Some(50), output: Some(13), cached_input: Some(20) });
        let silent = metered(ModelApi::Gemini, "text/event-stream", "data: {\"candidates\":[]}\n", 4);
        assert!(!silent.tokens.is_known());
    }
}
