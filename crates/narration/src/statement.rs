//! Rule statements in words: a rule stated in full or briefly for an
//! audience, with the board's words filled in, and the sources it cites.

use super::catalogue::{Catalogue, RuleText, catalogue};
use super::rule_id::RuleId;
use super::template::{BoardVars, choose};
use super::vocabulary::{Audience, Citation, Segment, SegmentKind};
use crate::rules::{Board, Options};

/// The full statement of rule `rule` for `audience`, with the board's
/// words filled in for `options`, and its citations; `None` if
/// `templates.json` has no statement of it.
#[must_use]
pub fn rule_statement(
    options: &Options,
    audience: Audience,
    rule: RuleId,
) -> Option<(String, Vec<Citation>)> {
    let cat = catalogue();
    let r = rule_text(cat, rule.key())?;
    let board = BoardVars::new(cat, options, audience);
    Some((
        board.fill(r.full_on(audience, options.board), &[]),
        r.full_citations_on(audience, options.board),
    ))
}

/// The short restatements of rule `rule` for `audience` (what a move
/// says of a rule stated in full not long before), with the board's words
/// filled in for `options`; empty if `templates.json` has no statement of
/// it.
#[must_use]
pub fn rule_short_forms(options: &Options, audience: Audience, rule: RuleId) -> Vec<String> {
    let cat = catalogue();
    let board = BoardVars::new(cat, options, audience);
    rule_text(cat, rule.key())
        .map(|r| {
            r.short
                .for_audience(audience)
                .iter()
                .map(|t| board.fill(t, &[]))
                .collect()
        })
        .unwrap_or_default()
}

/// The one or two sources that carry rule `rule` on the board of
/// `options`, which its event sentences and short restatements cite (the
/// full statements cite every source they draw on: [`rule_statement`]).
#[must_use]
pub fn rule_key_citations(options: &Options, rule: RuleId) -> Vec<Citation> {
    rule_cite(catalogue(), rule, options.board)
}

fn rule_text<'c>(cat: &'c Catalogue, rule: &str) -> Option<&'c RuleText> {
    cat.templates.rules.get(rule)
}

/// The one or two sources that carry a rule on `board`.
pub(super) fn rule_cite(cat: &Catalogue, rule: RuleId, board: Board) -> Vec<Citation> {
    rule_text(cat, rule.key())
        .map(|r| r.cite_on(board))
        .unwrap_or_default()
}

/// An `event` segment telling `text`, cited to what carries `rule` on
/// `board`.
pub(super) fn event_segment(cat: &Catalogue, rule: RuleId, board: Board, text: String) -> Segment {
    Segment {
        kind: SegmentKind::Event,
        text,
        citations: rule_cite(cat, rule, board),
        rule: Some(rule.key().to_owned()),
        fact: None,
        brief: false,
    }
}

/// The `rule` segment of rule `rule` (an id as segments keep it): its full
/// statement, or with `brief` a short restatement chosen for
/// `move_number`. An id without a statement gives an empty segment.
pub(super) fn rule_segment(
    cat: &Catalogue,
    words: &BoardVars,
    rule: &str,
    brief: bool,
    audience: Audience,
    move_number: u32,
) -> Segment {
    let (text, citations) = rule_text(cat, rule).map_or_else(
        || (String::new(), Vec::new()),
        |r| {
            // A scholar's rule segment names the sources where they disagree
            // and cites them all; the others cite the sources that carry the
            // rule.
            let citations = if audience == Audience::Scholar {
                r.full_citations_on(audience, words.board())
            } else {
                r.cite_on(words.board())
            };
            if brief {
                let list = r.short.for_audience(audience);
                (
                    words.fill(choose(list, move_number, rule, 0), &[]),
                    citations,
                )
            } else {
                (
                    words.fill(r.full_on(audience, words.board()), &[]),
                    citations,
                )
            }
        },
    );
    Segment {
        kind: SegmentKind::Rule,
        text,
        citations,
        rule: Some(rule.to_owned()),
        fact: None,
        brief,
    }
}
