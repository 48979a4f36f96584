//! The settings keys the control plane reads itself: what each means, its type and its default,
//! so that a client can show them as a form, and a layer that would give one a value of the
//! wrong type is refused rather than stored and misread later. Other keys stay free-form.

use serde_json::Value;

use crate::error::CommonError;

/// A task's status follows its runs: in progress when one starts, in review when one succeeds
/// with every acceptance criterion met.
pub const TASK_STATUS_FOLLOWS_RUNS: &str = "tasks.statusFollowsRuns";

/// The most tokens the context broker puts in a run's context.
pub const CONTEXT_TOKEN_BUDGET: &str = "context.tokenBudget";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingType {
    Boolean,
    /// A whole number from `min` to `max`.
    Integer {
        min: i64,
        max: i64,
    },
}

impl SettingType {
    fn name(self) -> String {
        match self {
            SettingType::Boolean => "boolean".into(),
            SettingType::Integer { min, max } => format!("whole number from {min} to {max}"),
        }
    }

    fn fits(self, value: &Value) -> bool {
        match self {
            SettingType::Boolean => value.is_boolean(),
            SettingType::Integer { min, max } => value.as_i64().is_some_and(|n| (min..=max).contains(&n)),
        }
    }
}

#[derive(Debug)]
pub struct KnownSetting {
    /// Dotted path, as `effectiveSettings` lists it.
    pub key: &'static str,
    pub setting_type: SettingType,
    /// In force where no layer sets the key.
    pub default: KnownValue,
    pub description: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnownValue {
    Boolean(bool),
    Integer(i64),
}

impl KnownValue {
    pub fn to_json(self) -> Value {
        match self {
            KnownValue::Boolean(b) => Value::Bool(b),
            KnownValue::Integer(n) => Value::from(n),
        }
    }
}

pub const KNOWN: &[KnownSetting] = &[
    KnownSetting {
        key: TASK_STATUS_FOLLOWS_RUNS,
        setting_type: SettingType::Boolean,
        default: KnownValue::Boolean(true),
        description: "A task's status follows its runs: in progress when a run starts, in review when one succeeds \
                      with every acceptance criterion met. Done and cancelled stay as a person set them.",
    },
    KnownSetting {
        key: CONTEXT_TOKEN_BUDGET,
        setting_type: SettingType::Integer { min: 256, max: 200_000 },
        default: KnownValue::Integer(8000),
        description: "The most tokens of context a run starts with (objective, criteria, description, verified \
                      memory, earlier runs), counted with the o200k tokenizer; what does not fit is left out, \
                      least important first.",
    },
];

/// The value at a dotted `key` of a layer's settings, if it is there.
fn at<'a>(settings: &'a Value, key: &str) -> Option<&'a Value> {
    key.split('.').try_fold(settings, |value, part| value.get(part))
}

/// Refuses a layer in which a known key has a value of another type.
pub fn check(settings: &Value) -> Result<(), CommonError> {
    for known in KNOWN {
        let Some(value) = at(settings, known.key) else { continue };
        if !known.setting_type.fits(value) {
            return Err(CommonError::Validation {
                message: format!("`{}` is a {}, not {value}", known.key, known.setting_type.name()),
                details: serde_json::json!({ "key": known.key }),
            });
        }
    }
    Ok(())
}

/// An integer known key's value in force: the entry's, or its default.
pub fn integer(known_key: &str, entry: Option<&Value>) -> i64 {
    let default = KNOWN.iter().find(|k| k.key == known_key).map(|k| k.default);
    match (entry.and_then(Value::as_i64), default) {
        (Some(n), _) => n,
        (_, Some(KnownValue::Integer(n))) => n,
        _ => 0,
    }
}

/// A boolean known key's value in force: the entry's, or its default.
pub fn boolean(known_key: &str, entry: Option<&Value>) -> bool {
    let default = KNOWN.iter().find(|k| k.key == known_key).map(|k| k.default);
    match (entry, default) {
        (Some(Value::Bool(b)), _) => *b,
        (_, Some(KnownValue::Boolean(b))) => b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_known_key_of_the_wrong_type_is_refused_and_other_keys_are_free() {
        assert!(check(&json!({"tasks": {"statusFollowsRuns": false}})).is_ok());
        assert!(check(&json!({"tasks": {"other": "anything"}, "model": 3})).is_ok());
        let refused = check(&json!({"tasks": {"statusFollowsRuns": "no"}})).unwrap_err();
        assert!(refused.to_string().contains("`tasks.statusFollowsRuns` is a boolean"), "{refused}");
        for bad in [json!(100), json!(1_000_000), json!(8000.5), json!("8000")] {
            assert!(check(&json!({"context": {"tokenBudget": bad}})).is_err(), "{bad}");
        }
        assert!(check(&json!({"context": {"tokenBudget": 4096}})).is_ok());
    }

    #[test]
    fn a_boolean_in_force_is_the_entrys_or_the_default() {
        assert!(boolean(TASK_STATUS_FOLLOWS_RUNS, None));
        assert!(!boolean(TASK_STATUS_FOLLOWS_RUNS, Some(&json!(false))));
    }
}
