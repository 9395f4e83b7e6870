//! The captions' words, from `data/captions.json`: each part's forms from
//! the longest to the shortest, per audience, and the checks of the file.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

use crate::catalogue::PerAudience;

/// The captions file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CaptionData {
    #[allow(dead_code, reason = "a note for the file's readers")]
    comment: String,
    /// Forms of each part, longest first, per audience.
    pub(super) parts: BTreeMap<String, PerAudience<Vec<String>>>,
    /// A short name for each board feature.
    pub(super) features_short: BTreeMap<String, PerAudience<String>>,
    /// How a side is named when its name is too long to shorten.
    pub(super) side_label: PerAudience<String>,
}

pub(super) static CAPTIONS: LazyLock<CaptionData> = LazyLock::new(|| {
    // Compiled in and checked by the test suite: a failure is a build defect.
    serde_json::from_str(include_str!("../data/captions.json"))
        .unwrap_or_else(|e| panic!("embedded caption data is invalid: captions.json: {e}"))
});

/// Check the embedded caption data: every part the captions use is there,
/// with at least one form per audience.
///
/// # Errors
/// The first part missing or empty.
pub fn check_captions() -> Result<(), String> {
    let data: CaptionData = serde_json::from_str(include_str!("../data/captions.json"))
        .map_err(|e| format!("captions.json: {e}"))?;
    for key in PART_KEYS {
        let part = data
            .parts
            .get(*key)
            .ok_or_else(|| format!("captions.json: part {key} is missing"))?;
        if part.all().any(Vec::is_empty) {
            return Err(format!(
                "captions.json: part {key} has an audience without forms"
            ));
        }
    }
    Ok(())
}

/// Every part key the captions use.
pub(super) const PART_KEYS: &[&str] = &[
    "throw",
    "throw_sahe",
    "spin",
    "moved",
    "moved_ordinary",
    "forced_pass",
    "now_on",
    "passed_north_creek",
    "completed_circuit",
    "circuit_completed_home",
    "fell_into_creek_north",
    "fell_into_creek_south",
    "crossed_dry_branch",
    "whipped",
    "counter_paid",
    "counter_unpaid",
    "lost_throw_extra",
    "lost_throw_next",
    "turn_skipped",
    "throws_again",
    "spins_again",
    "turn_passed",
    "won_all_counters",
    "won_circuits",
];
