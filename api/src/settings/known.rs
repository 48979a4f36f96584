//! The settings keys the control plane reads itself: what each means, its type and its default,
//! so that a client can show them as a form, and a layer that would give one a value of the
//! wrong type is refused rather than stored and misread later. Other keys stay free-form.

use serde_json::Value;

use crate::error::CommonError;

/// A task's status follows its runs: in progress when one starts, in review when one succeeds
/// with every acceptance criterion met.
pub const TASK_STATUS_FOLLOWS_RUNS: &str = "tasks.statusFollowsRuns";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingType {
    Boolean,
}

impl SettingType {
    fn name(self) -> &'static str {
        match self {
            SettingType::Boolean => "boolean",
        }
    }

    fn fits(self, value: &Value) -> bool {
        match self {
            SettingType::Boolean => value.is_boolean(),
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
}

impl KnownValue {
    pub fn to_json(self) -> Value {
        match self {
            KnownValue::Boolean(b) => Value::Bool(b),
        }
    }
}

pub const KNOWN: &[KnownSetting] = &[KnownSetting {
    key: TASK_STATUS_FOLLOWS_RUNS,
    setting_type: SettingType::Boolean,
    default: KnownValue::Boolean(true),
    description: "A task's status follows its runs: in progress when a run starts, in review when one succeeds with \
                  every acceptance criterion met. Done and cancelled stay as a person set them.",
}];

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
    }

    #[test]
    fn a_boolean_in_force_is_the_entrys_or_the_default() {
        assert!(boolean(TASK_STATUS_FOLLOWS_RUNS, None));
        assert!(!boolean(TASK_STATUS_FOLLOWS_RUNS, Some(&json!(false))));
    }
}
