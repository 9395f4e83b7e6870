//! A stretch of plain moves told as one paragraph, for a game read aloud.
//!
//! Most moves of a long game only throw and move: no rule acts for the
//! first time, no awl falls or is whipped, no throw earns another. Read
//! aloud one by one they are a long list a class cannot follow (a
//! teacher's trial: runs of 16 to 21 such lines). A stretch tells them
//! together: each side's throws, then where the two awls stand and, when
//! they face each other within one throw, how far apart they are, so a
//! whip that follows is heard coming. Pure: the moves are given.

use std::collections::BTreeMap;

use super::catalogue::catalogue;
use super::rule_id::RuleId;
use super::statement::event_segment;
use super::template::{BoardVars, choose, spaces};
use super::vocabulary::{Audience, Cast, Narration, Segment, SegmentKind};
use crate::rules::{Event, Options, OwnSpace, Side};

/// The fewest plain moves in a row told as a stretch: fewer stay moves.
pub const STRETCH_MIN: usize = 4;

/// The most moves one stretch tells: a longer run is told in several, so
/// that each side's list of throws stays short enough to hear.
pub const STRETCH_MAX: usize = 10;

/// Whether a move may be told inside a stretch: it only moved an awl
/// (onto an ordinary space or a harmless dry branch) and passed the turn,
/// did not earn another throw, and its narration (`segments`) tells
/// nothing but those events: no rule, fact, odds or framing.
#[must_use]
pub fn is_plain_move(events: &[Event], segments: &[Segment], earned_another: bool) -> bool {
    !earned_another
        && events.iter().all(|e| {
            matches!(
                e,
                Event::Moved { .. } | Event::LandedOnDryBranch { .. } | Event::TurnPassed { .. }
            )
        })
        && events.iter().any(|e| matches!(e, Event::Moved { .. }))
        && segments.iter().all(|s| s.kind == SegmentKind::Event)
}

/// One plain move of a stretch: who threw and the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StretchThrow {
    /// The side that threw.
    pub side: Side,
    /// The value thrown.
    pub value: u8,
}

/// How many spaces apart the two awls stand when they face each other
/// within one throw: the count either would go to land on the other (the
/// awls run the same track in opposite directions, so it is the same
/// count for both). `None` when one stands on its own start, when the
/// space between them takes in the start line (each would come home
/// first, which some rulesets do not let it pass), or when no throw of
/// the ruleset reaches so far.
#[must_use]
pub fn awls_apart(options: &Options, awls: [OwnSpace; 2]) -> Option<u8> {
    if awls.contains(&1) {
        return None;
    }
    let board = options.board;
    let a = board.physical(Side::A, awls[0]);
    let b = board.physical(Side::B, awls[1]);
    let reach = options
        .throw_table
        .results()
        .iter()
        .map(|s| s.value)
        .max()
        .unwrap_or(0);
    b.checked_sub(a).filter(|d| (1..=reach).contains(d))
}

/// The sentence saying how far apart the awls at `awls` face each other
/// ([`awls_apart`]), for `audience`, phrased for move `n`; `None` when
/// they do not.
#[must_use]
pub fn awls_apart_segment(
    options: &Options,
    audience: Audience,
    n: u32,
    awls: [OwnSpace; 2],
) -> Option<Segment> {
    let apart = awls_apart(options, awls)?;
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let key = "awls_apart";
    let template = cat
        .templates
        .events
        .get(key)
        .map_or("", |p| choose(p.for_audience(audience), n, key, 0));
    let text = words.fill(template, &[("apart", &spaces(apart))]);
    Some(event_segment(cat, RuleId::Move, options.board, text))
}

/// "2", "2 and 1", "2, 1 and 3".
fn list(values: &[u8]) -> String {
    let words: Vec<String> = values.iter().map(u8::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Tell `throws` (plain moves in a row, in order, which left the awls at
/// `awls`, A first) in a paragraph for `audience`; `n` is the first move's
/// number (it turns the phrasings as a move's number does).
#[must_use]
pub fn narrate_stretch(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    throws: &[StretchThrow],
    awls: [OwnSpace; 2],
) -> Narration {
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let template = |key: &str, occurrence: usize| {
        cat.templates
            .events
            .get(key)
            .map_or("", |p| choose(p.for_audience(audience), n, key, occurrence))
    };
    let segment = |text: String, rule: RuleId| event_segment(cat, rule, options.board, text);
    // Each side's throws, the side that threw first named first.
    let mut sides: Vec<(Side, Vec<u8>)> = Vec::new();
    for t in throws {
        match sides.iter_mut().find(|(s, _)| *s == t.side) {
            Some((_, values)) => values.push(t.value),
            None => sides.push((t.side, vec![t.value])),
        }
    }
    let mut text = words.fill(
        template("stretch", 0),
        &[("count", &throws.len().to_string())],
    );
    // Both sides in the same words, so that they are heard as a pair.
    for (side, values) in &sides {
        text.push(' ');
        text.push_str(&words.fill(
            template("stretch_side", 0),
            &[("side", cast.side(*side)), ("values", &list(values))],
        ));
    }
    let mut segments = vec![segment(text, RuleId::throw_table(options.throw_table))];
    let text = words.fill(
        template("stretch_awls", 0),
        &[
            ("side_a", cast.side(Side::A)),
            ("space_a", &awls[0].to_string()),
            ("side_b", cast.side(Side::B)),
            ("space_b", &awls[1].to_string()),
        ],
    );
    segments.push(segment(text, RuleId::Move));
    segments.extend(awls_apart_segment(options, audience, n, awls));
    Narration {
        audience,
        segments,
        rules_stated: BTreeMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn awls_apart_counts_the_spaces_between_awls_that_face_each_other() {
        let options = Preset::Composite.options();
        // A's own 35 is B's own 6: one space short, B at 5 is 1 apart.
        assert_eq!(awls_apart(&options, [35, 5]), Some(1));
        assert_eq!(awls_apart(&options, [30, 5]), Some(6));
        // Passed each other.
        assert_eq!(awls_apart(&options, [33, 13]), None);
        assert_eq!(awls_apart(&options, [20, 11]), Some(10));
        // Further than a throw goes.
        assert_eq!(awls_apart(&options, [20, 10]), None);
        // An awl on its start is never said to face the other.
        assert_eq!(awls_apart(&options, [1, 38]), None);
        // 7 spaces, but across the start line: each would come home first.
        assert_eq!(awls_apart(&options, [36, 38]), None);
        let square = Preset::A4.options();
        // 28 spaces: A's 10 faces B's 15 across 4 spaces (10 + 4 = 29 - 15).
        assert_eq!(awls_apart(&square, [10, 15]), Some(4));
        // The spinner goes 10 at most, too.
        assert_eq!(awls_apart(&square, [10, 8]), None);
        assert_eq!(awls_apart(&square, [10, 9]), Some(10));
    }

    #[test]
    fn a_list_of_throws_reads_as_english() {
        assert_eq!(list(&[2]), "2");
        assert_eq!(list(&[2, 1]), "2 and 1");
        assert_eq!(list(&[2, 1, 3]), "2, 1 and 3");
    }
}
