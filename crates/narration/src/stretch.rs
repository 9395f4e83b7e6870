//! Moves told together, for a game read aloud: a stretch of plain turns,
//! a turn of several throws, and where the two awls stand.
//!
//! Most moves of a long game only throw and move: no rule acts for the
//! first time, no awl falls or is whipped. Read aloud one by one they are a
//! long list a class cannot follow (a teacher's trial: runs of 16 to 21
//! such lines, and "Side A again!" 73 times in one game). A stretch tells
//! plain turns together (how many, how far each side went, where the awls
//! stand); a chain tells one turn's throws again and again in one sentence.
//! Beside them, the awls' meeting: how far apart they face each other once
//! they come within a throw, and that two awls on the same number stand on
//! different spaces. Pure: the moves are given.

use std::collections::BTreeMap;

use super::catalogue::catalogue;
use super::rule_id::RuleId;
use super::statement::event_segment;
use super::template::{BoardVars, choose, spaces};
use super::vocabulary::{Audience, Cast, Narration, Segment, SegmentKind};
use crate::rules::{Event, Options, OwnSpace, Seat, Side, ThrowTable};

/// The fewest plain turns in a row told as a stretch: fewer stay moves.
pub const STRETCH_MIN: usize = 4;

/// The most moves one stretch tells: a longer run is told in several, so
/// that the awls' places are said every so often.
pub const STRETCH_MAX: usize = 10;

/// Whether a move only moved an awl (onto an ordinary space or a
/// harmless dry branch, over the north creek or not) and passed the turn
/// or earned another throw, and its narration (`segments`) tells nothing
/// but those events: no rule, fact, odds or framing.
#[must_use]
pub fn is_quiet_move(events: &[Event], segments: &[Segment]) -> bool {
    events.iter().all(|e| {
        matches!(
            e,
            Event::Moved { .. }
                | Event::LandedOnDryBranch { .. }
                | Event::PassedNorthCreek { .. }
                | Event::TurnPassed { .. }
                | Event::ThrowsAgain { .. }
        )
    }) && events.iter().any(|e| matches!(e, Event::Moved { .. }))
        && segments.iter().all(|s| s.kind == SegmentKind::Event)
}

/// Whether a move may be told inside a stretch: quiet
/// ([`is_quiet_move`]) and a whole turn (it did not earn another throw).
#[must_use]
pub fn is_plain_move(events: &[Event], segments: &[Segment], earned_another: bool) -> bool {
    !earned_another && is_quiet_move(events, segments)
}

/// One quiet throw of a stretch: who threw, the value, and whether it
/// earned another throw (the turn goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StretchThrow {
    /// The side that threw.
    pub side: Side,
    /// The value thrown.
    pub value: u8,
    /// It earned another throw: the same turn's next throw follows.
    pub earned_another: bool,
}

/// How near, facing each other, two awls are close: the commonest throws
/// whip (the read-aloud form says so once as they come that near; a move
/// with nothing notable tells no fact then).
pub const CLOSE: u8 = 3;

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

/// The phrasing of `key` for `audience` at move `n` (`occurrence` apart).
fn template(key: &str, audience: Audience, n: u32, occurrence: usize) -> &'static str {
    catalogue()
        .templates
        .events
        .get(key)
        .map_or("", |p| choose(p.for_audience(audience), n, key, occurrence))
}

/// The sentence on the awls' meeting after a move `n` that left them at
/// `awls`, when it is news (a teacher's trial: by ear, a whip came as a
/// surprise, and "Only 1 space apart now!" was followed by nothing as the
/// awls passed). `before` is the distance last said of this meeting
/// (`None`: nothing said yet, they were not face to face within a throw).
/// Face to face for the first time, how far apart they are
/// ([`awls_apart`]); come within [`CLOSE`] from further, how near now,
/// once (a teacher's trial: "Only 2 spaces apart now!" and its like came
/// 26 times in one long game, at every step of every meeting); face to
/// face before and not now, neither on its start (so neither sent home),
/// that they have passed.
#[must_use]
pub fn awls_meeting_segment(
    options: &Options,
    audience: Audience,
    n: u32,
    awls: [OwnSpace; 2],
    before: Option<u8>,
) -> Option<Segment> {
    let board = options.board;
    let (key, apart) = match (awls_apart(options, awls), before) {
        (Some(apart), Some(said)) if apart <= CLOSE && said > CLOSE => ("awls_closer", apart),
        (Some(_), Some(_)) => return None,
        (Some(apart), None) => ("awls_apart", apart),
        // Face to face, then not, with neither sent home: the mover went
        // past the other (nearer, they would still face each other; on
        // it, a whip). Not by where they stand, which a pass over the
        // start line turns round (a teacher's trial: "2 spaces apart",
        // then a 10 over the start, and the pass went unsaid).
        (None, Some(_)) if !awls.contains(&1) => ("awls_passed", 0),
        (None, _) => return None,
    };
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let text = words.fill(template(key, audience, n, 0), &[("apart", &spaces(apart))]);
    Some(event_segment(cat, RuleId::Move, board, text))
}

/// The sentence saying that two awls on the same number stand on
/// different spaces (each side counts from its own start, so they never
/// share a number on one space), phrased for move `n`; `None` unless
/// they show the same number off their starts.
#[must_use]
pub fn same_number_segment(
    options: &Options,
    audience: Audience,
    n: u32,
    awls: [OwnSpace; 2],
) -> Option<Segment> {
    if awls[0] != awls[1] || awls[0] == 1 {
        return None;
    }
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let text = words.fill(
        template("same_number", audience, n, 0),
        &[("space", &awls[0].to_string())],
    );
    Some(event_segment(cat, RuleId::Move, options.board, text))
}

/// Which awl is further round its trip, and by how many spaces (a
/// teacher's trial: by ear, two numbers counted from different starts
/// were hard to picture, and "3 spaces in front" was what a class could
/// follow); `None` when both show one number.
fn lead(awls: [OwnSpace; 2]) -> Option<(Side, u8)> {
    match awls[0].cmp(&awls[1]) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some((Side::A, awls[0] - awls[1])),
        std::cmp::Ordering::Less => Some((Side::B, awls[1] - awls[0])),
    }
}

/// The sentence saying which awl is further round its trip, and by how
/// much ([`lead`]), phrased for move `n`; `None` when both show one
/// number.
#[must_use]
pub fn lead_segment(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    awls: [OwnSpace; 2],
) -> Option<Segment> {
    let (side, lead) = lead(awls)?;
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let text = words.fill(
        template("stretch_lead", audience, n, 0),
        &[("side", cast.side(side)), ("lead", &spaces(lead))],
    );
    Some(event_segment(cat, RuleId::Move, options.board, text))
}

/// "2", "2 and 1", "2, 1 and 3".
fn list(values: &[u8]) -> String {
    let words: Vec<String> = values.iter().map(u8::to_string).collect();
    list_words(&words, " and ")
}

/// "a", "a and b", "a, b and c" with `last_joiner` " and "; with ", then ",
/// one turn's throws heard apart, "a, b, then c" (a teacher's trial: "3
/// with the sahe and 1" sounded like one throw).
fn list_words(words: &[String], last_joiner: &str) -> String {
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{}{last_joiner}{last}", rest.join(", ")),
    }
}

/// Tell `throws` (quiet whole turns in a row, one throw or several each,
/// in order, which left the awls at `awls`, A first) in a paragraph for
/// `audience`: how many turns, each side's throws (not for the young), and
/// where the awls stand. `n` is the first move's number (it turns the phrasings as
/// a move's number does); `part` is its place in a long run told in
/// parts (0: the first), a later part saying so in other words (a
/// teacher's trial: "Now 6 quick turns ... Now 5 quick turns" in a row).
/// `continues`: the side whose turn, begun with a throw told before (one
/// that earned another), the stretch goes on with: said first, and the
/// turns counted after it (a teacher's trial: "Again, Side B!" then "Then
/// 4 quick turns", and the class never heard Side B's throw).
#[must_use]
#[expect(
    clippy::too_many_arguments,
    reason = "a stretch is told from the game's setup, its place and its throws"
)]
pub fn narrate_stretch(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    throws: &[StretchThrow],
    part: usize,
    awls: [OwnSpace; 2],
    continues: Option<Side>,
) -> Narration {
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let segment = |text: String, rule: RuleId| event_segment(cat, rule, options.board, text);
    // Each side's throws, the side that threw first named first.
    let mut sides: Vec<(Side, Vec<u8>)> = Vec::new();
    for t in throws {
        match sides.iter_mut().find(|(s, _)| *s == t.side) {
            Some((_, values)) => values.push(t.value),
            None => sides.push((t.side, vec![t.value])),
        }
    }
    let turns = stretch_turns(throws) - usize::from(continues.is_some());
    let mut text = words.fill(
        // The parts after the first take turns among their phrasings.
        if part == 0 {
            template("stretch", audience, n, 0)
        } else {
            template("stretch_more", audience, 0, part)
        },
        &[("count", &turns.to_string())],
    );
    if let Some(side) = continues {
        text = format!(
            "{} {text}",
            words.fill(
                template("stretch_continues", audience, n, 0),
                &[("side", cast.side(side))],
            )
        );
    }
    // Both sides in the same words, so that they are heard as a pair; not
    // for the young, who hear where the awls are (a teacher's trial: "For
    // Side B: 6 spaces in all. For Side A: 26 spaces in all." was five
    // numbers in a breath with the places).
    for (side, values) in sides.iter().filter(|_| audience != Audience::Young) {
        let total: u16 = values.iter().map(|v| u16::from(*v)).sum();
        text.push(' ');
        text.push_str(&words.fill(
            template("stretch_side", audience, n, 0),
            &[
                ("side", cast.side(*side)),
                ("values", &list(values)),
                ("total", &total.to_string()),
            ],
        ));
    }
    let mut segments = vec![segment(text, RuleId::throw_table(options.throw_table))];
    let text = words.fill(
        template("stretch_awls", audience, n, 0),
        &[
            ("side_a", cast.side(Side::A)),
            ("space_a", &awls[0].to_string()),
            ("side_b", cast.side(Side::B)),
            ("space_b", &awls[1].to_string()),
        ],
    );
    segments.push(segment(text, RuleId::Move));
    Narration {
        audience,
        segments,
        rules_stated: BTreeMap::new(),
    }
}

/// How many turns `throws` take: each ends with a throw that earned no
/// other.
#[must_use]
pub fn stretch_turns(throws: &[StretchThrow]) -> usize {
    throws.iter().filter(|t| !t.earned_another).count()
}

/// One throw of a chain: its value, and whether it earned the next by the
/// sahe (or the spinner's blue), which a 1 or a 3 needs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainThrow {
    /// The value thrown.
    pub value: u8,
    /// A 1 or a 3 that earned another throw by its mark.
    pub marked: bool,
}

/// A chain's throw in words: "3", "3 with the sahe", "blue 3".
fn chain_value(options: &Options, audience: Audience, n: u32, t: ChainThrow) -> String {
    if !t.marked {
        return t.value.to_string();
    }
    let cat = catalogue();
    if options.throw_table == ThrowTable::Spinner {
        let sectors = cat.templates.words.sectors.get(audience);
        return if t.value == 1 {
            sectors.blue_one.clone()
        } else {
            sectors.blue_three.clone()
        };
    }
    BoardVars::new(cat, options, audience).fill(
        template("chain_sahe", audience, n, 0),
        &[("value", &t.value.to_string())],
    )
}

/// Tell one turn of several quiet throws by `seat` (`throws`, in order,
/// each but the last earning the next) in a sentence for `audience`: how
/// many, the values (a 1 or a 3 with the mark that earned the next) and
/// where the awl ended (`to`); `again` when the last throw earned one more
/// too. `n` is the first move's number.
#[must_use]
#[allow(clippy::too_many_arguments, reason = "one turn's facts, each needed")]
pub fn narrate_chain(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    seat: Seat,
    throws: &[ChainThrow],
    to: OwnSpace,
    again: bool,
) -> Narration {
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let player = cast.player(seat);
    let values: Vec<String> = throws
        .iter()
        .map(|t| chain_value(options, audience, n, *t))
        .collect();
    let mut text = words.fill(
        template("chain", audience, n, 0),
        &[
            ("count", &throws.len().to_string()),
            ("player", player),
            ("values", &list_words(&values, ", then ")),
            ("space", &to.to_string()),
        ],
    );
    if again {
        text.push(' ');
        text.push_str(&words.fill(
            template("chain_again", audience, n, 0),
            &[("player", player)],
        ));
    }
    Narration {
        audience,
        segments: vec![event_segment(
            cat,
            RuleId::throw_table(options.throw_table),
            options.board,
            text,
        )],
        rules_stated: BTreeMap::new(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
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
    fn the_awls_meeting_is_said_once_then_as_it_closes_and_when_they_pass() {
        let options = Preset::Composite.options();
        let first = awls_meeting_segment(&options, Audience::Young, 5, [30, 5], None).unwrap();
        assert!(first.text.contains("6 spaces apart"), "{}", first.text);
        assert!(awls_meeting_segment(&options, Audience::Young, 6, [30, 5], Some(6)).is_none());
        // Nearer, but not yet close: nothing new to hear.
        assert!(awls_meeting_segment(&options, Audience::Young, 6, [31, 5], Some(6)).is_none());
        let closer = awls_meeting_segment(&options, Audience::Young, 6, [33, 5], Some(6)).unwrap();
        assert!(
            closer.text.contains("only 3 spaces apart"),
            "{}",
            closer.text
        );
        // Close already said: nearer still is not said again.
        assert!(awls_meeting_segment(&options, Audience::Young, 7, [35, 5], Some(3)).is_none());
        let one = awls_meeting_segment(&options, Audience::Young, 7, [35, 5], Some(4)).unwrap();
        assert!(one.text.contains("1 space apart"), "{}", one.text);
        // Past each other, B's 7 beyond A's 35: said once.
        let passed = awls_meeting_segment(&options, Audience::Young, 8, [35, 7], Some(1)).unwrap();
        assert!(passed.text.contains("each other"), "{}", passed.text);
        assert!(awls_meeting_segment(&options, Audience::Young, 9, [36, 7], None).is_none());
        // A teacher's trial: 2 apart (A's 33, B's 6), then A's 10 over its
        // start to its 3: past B, though A's number is now the lower.
        let over = awls_meeting_segment(&options, Audience::Young, 9, [3, 6], Some(2)).unwrap();
        assert!(over.text.contains("each other"), "{}", over.text);
        // Sent home by a whip: not a passing.
        assert!(awls_meeting_segment(&options, Audience::Young, 8, [1, 6], Some(1)).is_none());
    }

    #[test]
    fn awls_on_the_same_number_are_said_to_be_on_different_spaces() {
        let options = Preset::Composite.options();
        assert!(same_number_segment(&options, Audience::Young, 3, [26, 26]).is_some());
        assert!(same_number_segment(&options, Audience::Young, 3, [26, 25]).is_none());
        assert!(same_number_segment(&options, Audience::Young, 3, [1, 1]).is_none());
        // The same number is never the same space: one space has own
        // numbers summing to 41 (29 on the square), an odd number.
        for board in [Preset::Composite, Preset::A4].map(|p| p.options().board) {
            for own in 1..=board.len() {
                assert_ne!(
                    board.physical(Side::A, own),
                    board.physical(Side::B, own),
                    "{board:?} {own}"
                );
            }
        }
    }

    #[test]
    fn a_list_of_throws_reads_as_english() {
        assert_eq!(list(&[2]), "2");
        assert_eq!(list(&[2, 1]), "2 and 1");
        assert_eq!(list(&[2, 1, 3]), "2, 1 and 3");
    }
}
