//! A move's caption: one line of at most [`CAPTION_MAX_CHARS`] characters
//! for a big screen or a chat: who threw what, where the awl went, and what
//! happened, in the audience's words and the ruleset's vocabulary.
//!
//! The caption is built from parts (the throw, the awl's route, one part per
//! notable event, and what happens next), each with forms from the longest
//! to the shortest (`data/captions.json`). It takes the longest forms that
//! fit; while the line is too long, the step that loses the least takes
//! place: first descriptions (a feature's description, words that only
//! explain), then the optional events' details and the events themselves
//! (a harmless pass, a counter, a circuit, the win's count), then long
//! names, then the whipped side's name, and last the route's details (the
//! feature's name, where the awl came from). Names are never cut inside a
//! word: a long name is shortened to its first words, or to its side's
//! letter. The
//! thrower, the value, the awl's final space and what happens next (the
//! side throws again, who throws next, or who won) are in every caption.
//!
//! No side's name is the subject of a verb (`won by the Foxes`, `a counter
//! from the Foxes to the Hawks`), since a team's name may be plural; the
//! thrower, a player, is.

mod data;
mod part;

pub use data::check_captions;
use data::{CAPTIONS, CaptionData};
use part::{Part, Weight, loss};

use super::catalogue::catalogue;
use super::template::BoardVars;
use super::vocabulary::{Audience, MoveContext};
use crate::rules::{Creek, Event, Side, Throw, ThrowTable, WinReason};

/// The longest caption, in characters (Unicode scalar values).
pub const CAPTION_MAX_CHARS: usize = 100;

/// A shortened name is at most this many characters (whole words).
const SHORT_NAME_CHARS: usize = 16;

/// A name cut to whole words of at most [`SHORT_NAME_CHARS`] characters
/// (the name itself when it fits), or `label` when its first word is longer.
fn short_name(name: &str, label: &str) -> String {
    if name.chars().count() <= SHORT_NAME_CHARS {
        return name.to_owned();
    }
    let mut out = String::new();
    for word in name.split_whitespace() {
        let len = out.chars().count() + usize::from(!out.is_empty()) + word.chars().count();
        if len > SHORT_NAME_CHARS {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_empty() {
        label.to_owned()
    } else {
        out
    }
}

struct Builder<'a> {
    ctx: &'a MoveContext<'a>,
    words: BoardVars,
    data: &'static CaptionData,
    parts: Vec<Part>,
}

impl Builder<'_> {
    fn audience(&self) -> Audience {
        self.ctx.audience
    }

    fn label(&self, side: Side) -> String {
        let letter = match side {
            Side::A => "A",
            Side::B => "B",
        };
        self.words.fill(
            self.data.side_label.get(self.audience()),
            &[("letter", letter)],
        )
    }

    fn side(&self, side: Side) -> (String, String) {
        let name = self.ctx.cast.side(side).to_owned();
        let short = short_name(&name, &self.label(side));
        (name, short)
    }

    fn push(&mut self, key: &str, weight: Weight, optional: bool, vars: &[(&str, &str)]) {
        let Some(forms) = self.data.parts.get(key) else {
            return;
        };
        let mut filled: Vec<String> = Vec::new();
        let mut steps = Vec::new();
        let mut last: Option<&str> = None;
        for template in forms.get(self.audience()) {
            let text = self.words.fill(template, vars);
            // A form whose words are all there, each different from the
            // last.
            if !text.is_empty() && filled.last() != Some(&text) {
                if let Some(previous) = last {
                    steps.push(loss(previous, template, weight, vars));
                }
                filled.push(text);
                last = Some(template.as_str());
            }
        }
        if filled.is_empty() {
            return;
        }
        self.parts.push(Part {
            forms: filled,
            steps,
            weight,
            optional,
            at: 0,
        });
    }

    fn head(&mut self) {
        let ctx = self.ctx;
        let player = ctx.cast.player(ctx.seat).to_owned();
        let label = self.label(ctx.seat.side);
        let player_short = short_name(&player, &label);
        let value = ctx.score.value.to_string();
        match *ctx.throw {
            Throw::Sticks(sticks) => self.push(
                // A 1 or a 3 earns another throw only by the sahe, so
                // the caption names it (sticks_sahe's table alone).
                if ctx.options.throw_table == ThrowTable::SticksSahe
                    && matches!(sticks.flat_count(), 1 | 3)
                    && sticks.sahe_flat()
                {
                    "throw_sahe"
                } else {
                    "throw"
                },
                Weight::Kept,
                false,
                &[
                    ("player", &player),
                    ("player_short", &player_short),
                    ("player_label", &label),
                    ("value", &value),
                ],
            ),
            Throw::Spinner(sector) => {
                let sector = catalogue()
                    .templates
                    .words
                    .sectors
                    .get(self.audience())
                    .of(sector)
                    .to_owned();
                self.push(
                    "spin",
                    Weight::Kept,
                    false,
                    &[
                        ("player", &player),
                        ("player_short", &player_short),
                        ("player_label", &label),
                        ("sector", &sector),
                        ("value", &value),
                    ],
                );
            }
        }
    }

    fn feature(&self, side: Side, space: u8) -> (String, String) {
        let key = self.ctx.options.board.feature(side, space).key();
        let audience = self.audience();
        let long = catalogue()
            .features
            .get(key)
            .map(|m| self.words.fill(m.get(audience), &[]))
            .unwrap_or_default();
        let short = self
            .data
            .features_short
            .get(key)
            .map(|m| self.words.fill(m.get(audience), &[]))
            .unwrap_or_default();
        (long, short)
    }

    /// Every part of the move, in reading order.
    #[allow(clippy::too_many_lines)]
    fn build(&mut self, from: u8, to: u8) {
        let ctx = self.ctx;
        self.head();
        // Where the awl stands after the parts pushed so far.
        let mut at = from;
        let last_move = ctx.events.iter().rposition(|e| {
            matches!(
                e,
                Event::Moved { .. }
                    | Event::FellIntoCreek { .. }
                    | Event::CrossedDryBranch { .. }
                    | Event::CompletedCircuit { exact: true, .. }
            )
        });
        for (i, event) in ctx.events.iter().enumerate() {
            // The last event that moves the awl names its final space.
            let here = |own: u8| if Some(i) == last_move { to } else { own };
            match *event {
                Event::Moved {
                    side,
                    from: start,
                    to: end,
                    ..
                } => {
                    let end = here(end);
                    let (feature, feature_short) = self.feature(side, end);
                    let key = if ctx.options.board.feature(side, end).key() == "ordinary" {
                        "moved_ordinary"
                    } else {
                        "moved"
                    };
                    self.push(
                        key,
                        Weight::Route,
                        false,
                        &[
                            ("from", &start.to_string()),
                            ("to", &end.to_string()),
                            ("feature", &feature),
                            ("feature_short", &feature_short),
                        ],
                    );
                    at = end;
                }
                Event::ForcedPass { value, .. } => self.push(
                    "forced_pass",
                    Weight::Route,
                    false,
                    &[("from", &from.to_string()), ("value", &value.to_string())],
                ),
                Event::PassedNorthCreek { .. } => {
                    self.push("passed_north_creek", Weight::Aside, true, &[]);
                }
                Event::CompletedCircuit {
                    circuits, exact, ..
                } => {
                    let circuits = circuits.to_string();
                    if exact {
                        let end = here(1);
                        self.push(
                            "circuit_completed_home",
                            Weight::Route,
                            false,
                            &[("circuits", &circuits), ("to", &end.to_string())],
                        );
                        at = end;
                    } else {
                        // On the winning move, the circuit that paid a
                        // counter outweighs the win's count (a curator's
                        // trial: "won by Side B with all 8 counters" kept
                        // the count and lost the lap that brought it).
                        let wins = ctx.events.iter().any(|e| matches!(e, Event::Won { .. }));
                        self.push(
                            "completed_circuit",
                            if wins {
                                Weight::Result
                            } else {
                                Weight::Notable
                            },
                            true,
                            &[("circuits", &circuits)],
                        );
                    }
                }
                Event::FellIntoCreek { creek, .. } => {
                    let end = here(1);
                    let key = match creek {
                        Creek::North => "fell_into_creek_north",
                        Creek::South => "fell_into_creek_south",
                    };
                    self.push(key, Weight::Route, false, &[("to", &end.to_string())]);
                    at = end;
                }
                Event::CrossedDryBranch { to: end, .. } => {
                    let end = here(end);
                    self.push(
                        "crossed_dry_branch",
                        Weight::Route,
                        false,
                        &[("to", &end.to_string())],
                    );
                    at = end;
                }
                Event::Whipped { victim, .. } => {
                    let (opponent, opponent_short) = self.side(victim);
                    self.push(
                        "whipped",
                        Weight::Whip,
                        false,
                        &[("opponent", &opponent), ("opponent_short", &opponent_short)],
                    );
                }
                Event::CounterPaid {
                    payer,
                    payee,
                    counters,
                    ..
                } => {
                    let (payer_name, payer_short) = self.side(payer);
                    let (payee_name, payee_short) = self.side(payee);
                    self.push(
                        "counter_paid",
                        Weight::Counter,
                        true,
                        &[
                            ("payer", &payer_name),
                            ("payer_short", &payer_short),
                            ("payee", &payee_name),
                            ("payee_short", &payee_short),
                            ("payee_counters", &counters[payee.index()].to_string()),
                        ],
                    );
                }
                Event::CounterUnpaid { payer, .. } => {
                    let (payer_name, payer_short) = self.side(payer);
                    self.push(
                        "counter_unpaid",
                        Weight::Aside,
                        true,
                        &[("payer", &payer_name), ("payer_short", &payer_short)],
                    );
                }
                Event::LostThrow {
                    extra_throw_lost, ..
                } => self.push(
                    if extra_throw_lost {
                        "lost_throw_extra"
                    } else {
                        "lost_throw_next"
                    },
                    Weight::Notable,
                    true,
                    &[],
                ),
                Event::TurnSkipped { seat } => {
                    let player = ctx.cast.player(seat).to_owned();
                    let short = short_name(&player, &self.label(seat.side));
                    self.push("turn_skipped", Weight::Aside, true, &[("player", &short)]);
                }
                Event::ThrowsAgain { .. } => self.push(
                    if ctx.options.throw_table == ThrowTable::Spinner {
                        "spins_again"
                    } else {
                        "throws_again"
                    },
                    Weight::Kept,
                    false,
                    &[],
                ),
                Event::TurnPassed { seat } => {
                    let player = ctx.cast.player(seat).to_owned();
                    let short = short_name(&player, &self.label(seat.side));
                    self.push(
                        "turn_passed",
                        Weight::Kept,
                        false,
                        &[("next_player", &player), ("next_short", &short)],
                    );
                }
                Event::Won { side, reason } => {
                    let (name, short) = self.side(side);
                    let circuits = ctx
                        .events
                        .iter()
                        .find_map(|e| match e {
                            Event::CompletedCircuit { circuits, .. } => Some(*circuits),
                            _ => None,
                        })
                        .unwrap_or_default()
                        .to_string();
                    let counters = ctx.options.total_counters().to_string();
                    let key = match reason {
                        WinReason::Circuits => "won_circuits",
                        WinReason::AllCounters | WinReason::Stopped => "won_all_counters",
                    };
                    self.push(
                        key,
                        Weight::Result,
                        false,
                        &[
                            ("side", &name),
                            ("side_short", &short),
                            ("counters", &counters),
                            ("circuits", &circuits),
                        ],
                    );
                }
                Event::LandedOnDryBranch { .. } | Event::Drawn => {}
            }
        }
        if at != to {
            self.push("now_on", Weight::Route, false, &[("to", &to.to_string())]);
        }
    }

    /// The line: the throw, then `: ` and the other parts joined by `; `.
    fn line(&self) -> String {
        let mut texts = self.parts.iter().filter_map(Part::text);
        let mut out = texts.next().unwrap_or_default().to_owned();
        for (i, t) in texts.enumerate() {
            // The head already has its colon ("Ama: 5"): the landing
            // follows it after a comma, the rest after semicolons.
            out.push_str(if i == 0 { ", " } else { "; " });
            out.push_str(t);
        }
        if !out.is_empty() {
            out.push('.');
        }
        out
    }
}

/// The caption of a move: one line of at most [`CAPTION_MAX_CHARS`]
/// characters naming the thrower, the value and the mover's awl's final
/// space (`to`, own numbering; `from` where it stood), in `ctx.audience`'s
/// words. Deterministic.
#[must_use]
pub fn caption(ctx: &MoveContext<'_>, from: u8, to: u8) -> String {
    let mut b = Builder {
        ctx,
        words: BoardVars::new(catalogue(), ctx.options, ctx.audience),
        data: &CAPTIONS,
        parts: Vec::new(),
    };
    b.build(from, to);
    loop {
        let line = b.line();
        if line.chars().count() <= CAPTION_MAX_CHARS {
            return line;
        }
        // Among equal losses the later part's step is taken, except for
        // names: the thrower's is shortened before the winner's or the next
        // player's (a teacher's trial: "won by The Long-Named." when the
        // whole name fitted once the thrower's was short).
        let count = b.parts.len();
        let Some((_, _, at, part)) = b
            .parts
            .iter_mut()
            .enumerate()
            .filter_map(|(i, p)| {
                p.next_step().map(|(w, at)| {
                    let order = if w == Weight::Name { i } else { count - i };
                    (w, order, at, p)
                })
            })
            .min_by_key(|(w, order, _, _)| (*w, *order))
        else {
            return cut(&line);
        };
        part.at = at;
    }
}

/// The last resort (never reached by names within the API's bounds): whole
/// words up to the limit, then an ellipsis.
fn cut(line: &str) -> String {
    let mut out = String::new();
    for word in line.split(' ') {
        if out.chars().count() + word.chars().count() + 2 > CAPTION_MAX_CHARS {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::{SHORT_NAME_CHARS, check_captions, short_name};

    #[test]
    fn caption_data_has_every_part() {
        assert_eq!(check_captions(), Ok(()));
    }

    #[test]
    fn short_names_keep_whole_words() {
        assert_eq!(short_name("Ama", "side A"), "Ama");
        assert_eq!(
            short_name("The Very Long Team Name Of The North", "side A"),
            "The Very Long"
        );
        let one_word = "x".repeat(SHORT_NAME_CHARS + 1);
        assert_eq!(short_name(&one_word, "side B"), "side B");
    }
}
