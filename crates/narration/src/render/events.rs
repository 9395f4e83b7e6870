//! A move's events in words: the throw (after a lesson's first move, told
//! with the move in one sentence), then one sentence per event, each cited
//! by the sources of the rule behind it.

use std::collections::HashMap;

use super::super::catalogue::Catalogue;
use super::super::rule_id::RuleId;
use super::super::statement::rule_cite;
use super::super::template::{BoardVars, choose, count_word, score_words, spaces};
use super::super::vocabulary::{Audience, Detail, MoveContext, Segment, SegmentKind};
use crate::rules::{Creek, DryBranch, Event, Side, Throw, ThrowTable, WinReason};

pub(super) struct Renderer<'a> {
    pub(super) cat: &'static Catalogue,
    pub(super) ctx: &'a MoveContext<'a>,
    pub(super) words: BoardVars,
    pub(super) segments: Vec<Segment>,
    /// How often each template key has been used in this move.
    pub(super) used: HashMap<&'static str, usize>,
    /// The throw's sentence told the move too (at [`Detail::Lesson`]), so
    /// the move's own sentence is left out.
    pub(super) folded_move: bool,
    /// That sentence also told a harmless passage over the north creek, so
    /// its own sentence is left out.
    pub(super) folded_passage: bool,
    /// That sentence also told a landing on a dry branch that does nothing,
    /// so its own sentence is left out.
    pub(super) folded_landing: bool,
}

impl Renderer<'_> {
    fn audience(&self) -> Audience {
        self.ctx.audience
    }

    fn push_event(&mut self, key: &'static str, rule: RuleId, vars: &[(&str, &str)]) {
        let short = (self.ctx.detail == Detail::Lesson
            && (self.ctx.move_number > 1 || self.ctx.audience == Audience::Young))
            .then(|| self.cat.templates.lesson.get(key))
            .flatten();
        let Some(p) = short.or_else(|| self.cat.templates.events.get(key)) else {
            return;
        };
        let occurrence = self.used.entry(key).or_default();
        let template = choose(
            p.for_audience(self.ctx.audience),
            self.ctx.move_number,
            key,
            *occurrence,
        );
        *occurrence += 1;
        let text = self.words.fill(template, vars);
        self.segments.push(Segment {
            kind: SegmentKind::Event,
            text,
            citations: rule_cite(self.cat, rule, self.ctx.options.board),
            rule: Some(rule.key().to_owned()),
            fact: None,
            brief: false,
        });
    }

    fn feature_words(&self, side: Side, space: u8) -> String {
        let key = self.ctx.options.board.feature(side, space).key();
        self.cat
            .features
            .get(key)
            .map(|m| self.words.fill(m.get(self.audience()), &[]))
            .unwrap_or_default()
    }

    pub(super) fn throw(&mut self) {
        let ctx = self.ctx;
        let audience = self.audience();
        let words = &self.cat.templates.words;
        let player = ctx.cast.player(ctx.seat).to_owned();
        let value = ctx.score.value;
        let rule = RuleId::throw_table(ctx.options.throw_table);
        // On the move that ends the game no throw follows, whatever the
        // sticks said.
        let over = ctx.events.iter().any(|e| matches!(e, Event::Won { .. }));
        // A throw too big to be played moves nothing: its sentence tells
        // the throw alone, not the spaces the awl would go (the forced
        // pass's own sentence says the awl stays).
        let no_move = ctx
            .events
            .iter()
            .any(|e| matches!(e, Event::ForcedPass { .. }));
        // For a lesson, after the first move, the throw and the move are
        // told in one sentence (the throw's extra throw, or the turn
        // passing, follows as its own event).
        let moved: Vec<(u8, u8)> = ctx
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Moved { from, to, .. } => Some((*from, *to)),
                _ => None,
            })
            .collect();
        // The young hear the first move in one sentence too: the rules just
        // stated explain it, and their first move is long enough.
        let folds = ctx.move_number > 1 || ctx.audience == Audience::Young;
        let fold = match moved[..] {
            [(from, to)] if ctx.detail == Detail::Lesson && folds => {
                Some((from.to_string(), to.to_string()))
            }
            _ => None,
        };
        self.folded_move = fold.is_some();
        let (from, to) = fold.clone().unwrap_or_default();
        let destination = if self.folded_move {
            self.destination(&from, &to)
        } else {
            String::new()
        };
        match *ctx.throw {
            Throw::Sticks(sticks) => {
                let flat = usize::from(sticks.flat_count());
                let sahe_words = words.sahe.get(audience);
                // The phrasings take turns by move number, so consecutive
                // moves never repeat the same words about the sahe.
                let turn = |list: &'static [String]| {
                    list.get(ctx.move_number as usize % list.len().max(1))
                        .map_or("", String::as_str)
                };
                let sahe = match (ctx.options.throw_table, flat, sticks.sahe_flat()) {
                    (ThrowTable::SticksSahe, 1, true) => turn(&sahe_words.one_with),
                    (ThrowTable::SticksSahe, 1, false) => turn(&sahe_words.one_without),
                    (ThrowTable::SticksSahe, 3, true) => turn(&sahe_words.three_with),
                    (ThrowTable::SticksSahe, 3, false) => turn(&sahe_words.three_without),
                    _ => "",
                };
                // In one sentence with the move, the sahe is named only when
                // it earns the extra throw.
                let sahe = if fold.is_some() && !sticks.sahe_flat() {
                    ""
                } else {
                    sahe
                };
                let key = match (fold.is_some(), over, ctx.score.throws_again) {
                    (true, ..) if sahe.is_empty() => "throw_moved",
                    (true, ..) => "throw_moved_sahe",
                    _ if no_move => "throw_no_move",
                    (false, true, _) => "throw_last",
                    (false, false, true) => "throw_again",
                    (false, false, false) => "throw_end",
                };
                let pick = |list: &Vec<String>| list.get(flat).cloned().unwrap_or_default();
                self.push_event(
                    key,
                    rule,
                    &[
                        ("player", &player),
                        ("flat_sticks", &pick(words.flat_sticks.get(audience))),
                        ("flat_faces", &pick(words.flat_faces.get(audience))),
                        ("s", if flat <= 1 { "s" } else { "" }),
                        ("sahe", sahe),
                        ("value", &value.to_string()),
                        ("value_spaces", &spaces(value)),
                        ("from", &from),
                        ("to", &to),
                        ("destination", &destination),
                    ],
                );
            }
            Throw::Spinner(sector) => {
                let key = match (fold.is_some(), over, ctx.score.throws_again) {
                    (true, ..) => "spin_moved",
                    _ if no_move => "spin_no_move",
                    (false, true, _) => "spin_last",
                    (false, false, true) => "spin_again",
                    (false, false, false) => "spin_end",
                };
                let sector = words.sectors.get(audience).of(sector).to_owned();
                self.push_event(
                    key,
                    rule,
                    &[
                        ("player", &player),
                        ("sector", &sector),
                        ("value", &value.to_string()),
                        ("value_spaces", &spaces(value)),
                        ("from", &from),
                        ("to", &to),
                        ("destination", &destination),
                    ],
                );
            }
        }
        // The one sentence tells the move too (and a harmless passage or
        // landing): it cites their sources.
        if self.folded_move {
            let mut cites = rule_cite(self.cat, RuleId::Move, ctx.options.board);
            if self.folded_passage {
                cites.extend(rule_cite(
                    self.cat,
                    RuleId::north_creek(ctx.options.deadly_north_bank),
                    ctx.options.board,
                ));
            }
            if self.folded_landing {
                cites.extend(rule_cite(
                    self.cat,
                    RuleId::landed_on_dry_branch(ctx.options.dry_branch),
                    ctx.options.board,
                ));
            }
            if let Some(segment) = self.segments.last_mut() {
                for c in cites {
                    if !segment.citations.contains(&c) {
                        segment.citations.push(c);
                    }
                }
            }
        }
    }

    /// Where a folded throw takes the awl, with what it passed or landed on
    /// when that does nothing (`lesson` section of the templates: on to
    /// space n; onto a dry branch; over the north creek). Sets
    /// `folded_passage` and `folded_landing` for what it tells.
    fn destination(&mut self, from: &str, to: &str) -> String {
        let ctx = self.ctx;
        let passed = ctx
            .events
            .iter()
            .any(|e| matches!(e, Event::PassedNorthCreek { .. }));
        // Under `cross_over` a landing on a branch is a crossing, told on
        // its own.
        let dry = ctx.options.dry_branch == DryBranch::NoEffect
            && ctx
                .events
                .iter()
                .any(|e| matches!(e, Event::LandedOnDryBranch { .. }));
        self.folded_passage = passed;
        self.folded_landing = dry;
        // A landing that costs a throw is named where the awl stops; what
        // it costs is told on its own.
        let lost = ctx
            .events
            .iter()
            .any(|e| matches!(e, Event::LostThrow { .. }));
        // Past the deadly near bank onto the far one: the awl stands on
        // the creek's bank, not past the creek (a curator's trial: "past
        // the north creek to space 21").
        let far_bank = passed && ctx.to == ctx.options.board.north_near_bank() + 1;
        let key = match (passed, dry || lost) {
            (false, false) => "to_space",
            (false, true) => "to_dry_branch",
            (true, false) if far_bank => "onto_far_bank",
            (true, false) => "over_north_creek",
            (true, true) => "over_north_creek_to_dry_branch",
        };
        let Some(p) = self.cat.templates.lesson.get(key) else {
            return String::new();
        };
        let template = choose(p.for_audience(ctx.audience), ctx.move_number, key, 0);
        self.words.fill(template, &[("from", from), ("to", to)])
    }

    #[allow(clippy::too_many_lines)]
    pub(super) fn event(&mut self, event: &Event, next: Option<&Event>) {
        let ctx = self.ctx;
        let cast = ctx.cast;
        let audience = self.audience();
        match *event {
            Event::Moved { .. } if self.folded_move => {}
            Event::PassedNorthCreek { .. } if self.folded_passage => {}
            Event::LandedOnDryBranch { .. } if self.folded_landing => {}
            Event::Moved {
                side,
                from,
                to,
                steps,
            } => {
                // When the next event tells where the awl landed, the move
                // itself does not name the place.
                let landing_told = matches!(
                    next,
                    Some(
                        Event::LandedOnDryBranch { .. }
                            | Event::LostThrow { .. }
                            | Event::CrossedDryBranch { .. }
                            | Event::FellIntoCreek { .. }
                            | Event::CompletedCircuit { exact: true, .. }
                    )
                );
                let feature = self.feature_words(side, to);
                self.push_event(
                    if landing_told { "moved_plain" } else { "moved" },
                    RuleId::Move,
                    &[
                        ("side", cast.side(side)),
                        ("steps", &steps.to_string()),
                        ("steps_spaces", &spaces(steps)),
                        ("from", &from.to_string()),
                        ("to", &to.to_string()),
                        ("feature", &feature),
                    ],
                );
            }
            Event::PassedNorthCreek { side } => {
                self.push_event(
                    "passed_north_creek",
                    RuleId::north_creek(ctx.options.deadly_north_bank),
                    &[("side", cast.side(side))],
                );
            }
            Event::CompletedCircuit {
                side,
                circuits,
                exact,
            } => {
                let (key, rule) = if exact {
                    ("circuit_completed_home", RuleId::CircuitExactLudii)
                } else {
                    (
                        "completed_circuit",
                        RuleId::circuit(ctx.options.own_last_space),
                    )
                };
                self.push_event(
                    key,
                    rule,
                    &[
                        ("side", cast.side(side)),
                        ("circuits", &circuits.to_string()),
                    ],
                );
            }
            Event::FellIntoCreek { side, creek, space } => {
                let (key, rule) = match creek {
                    Creek::North => (
                        "fell_into_creek_north",
                        RuleId::north_creek(ctx.options.deadly_north_bank),
                    ),
                    Creek::South => ("fell_into_creek_south", RuleId::SouthCreekFallsIn),
                };
                self.push_event(
                    key,
                    rule,
                    &[("side", cast.side(side)), ("space", &space.to_string())],
                );
            }
            Event::Whipped {
                side,
                victim,
                space,
            } => self.push_event(
                "whipped",
                RuleId::whip(ctx.events),
                &[
                    ("side", cast.side(side)),
                    ("opponent", cast.side(victim)),
                    ("space", &space.to_string()),
                ],
            ),
            Event::CounterPaid {
                payer,
                payee,
                counters,
                reason,
            } => {
                let rule = RuleId::counter(reason, ctx.options, ctx.events);
                self.push_event(
                    "counter_paid",
                    rule,
                    &[
                        ("payer", cast.side(payer)),
                        ("payee", cast.side(payee)),
                        (
                            "payer_counters",
                            &count_word(counters[payer.index()], audience),
                        ),
                        (
                            "payee_counters",
                            &count_word(counters[payee.index()], audience),
                        ),
                        // Both sides' counters, A first, whoever was paid.
                        (
                            "score",
                            &score_words(
                                [cast.side(Side::A), cast.side(Side::B)],
                                counters,
                                audience,
                            ),
                        ),
                    ],
                );
            }
            Event::CounterUnpaid { payer, payee, .. } => self.push_event(
                "counter_unpaid",
                RuleId::counters(ctx.options.end_check),
                &[("payer", cast.side(payer)), ("payee", cast.side(payee))],
            ),
            Event::ForcedPass { side, value } => self.push_event(
                "forced_pass",
                RuleId::OvershootNoMove,
                &[("side", cast.side(side)), ("value", &value.to_string())],
            ),
            Event::LandedOnDryBranch { side, space } => self.push_event(
                // Under `cross_over` the awl rests on the second branch,
                // where nothing more happens.
                if ctx.options.dry_branch == DryBranch::CrossOver {
                    "landed_on_dry_branch_across"
                } else {
                    "landed_on_dry_branch"
                },
                RuleId::landed_on_dry_branch(ctx.options.dry_branch),
                &[("side", cast.side(side)), ("space", &space.to_string())],
            ),
            Event::LostThrow {
                side,
                space,
                extra_throw_lost,
            } => self.push_event(
                if extra_throw_lost {
                    "lost_throw_extra"
                } else {
                    "lost_throw_next"
                },
                RuleId::DryBranchLoseThrow,
                &[("side", cast.side(side)), ("space", &space.to_string())],
            ),
            Event::CrossedDryBranch { side, from, to } => self.push_event(
                "crossed_dry_branch",
                RuleId::DryBranchCrossOver,
                &[
                    ("side", cast.side(side)),
                    ("from", &from.to_string()),
                    ("to", &to.to_string()),
                ],
            ),
            Event::TurnSkipped { seat } => self.push_event(
                if cast.is_solo(seat) {
                    "turn_skipped_solo"
                } else {
                    "turn_skipped"
                },
                RuleId::DryBranchLoseThrow,
                &[
                    ("player", cast.player(seat)),
                    ("side", cast.side(seat.side)),
                ],
            ),
            Event::ThrowsAgain { seat } => self.push_event(
                if ctx.options.throw_table == ThrowTable::Spinner {
                    "spins_again"
                } else {
                    "throws_again"
                },
                RuleId::throw_table(ctx.options.throw_table),
                &[("player", cast.player(seat))],
            ),
            Event::TurnPassed { seat } => self.push_event(
                if cast.is_solo(seat) {
                    "turn_passed_solo"
                } else {
                    "turn_passed"
                },
                RuleId::turn(ctx.options.turn_order, cast.has_teams()),
                &[
                    ("next_player", cast.player(seat)),
                    ("next_side", cast.side(seat.side)),
                ],
            ),
            Event::Won { side, reason } => {
                let held = ctx
                    .events
                    .iter()
                    .rev()
                    .find_map(|e| match e {
                        Event::CounterPaid { counters, .. } => Some(counters[side.index()]),
                        _ => None,
                    })
                    .unwrap_or(ctx.options.total_counters());
                // A win with no counter passed on its move (Ludii's end
                // check after a move: the other side emptied its pile
                // earlier) says so (a curator's trial: "The last counter
                // changes hands" right after "No counter moves").
                let paid = ctx
                    .events
                    .iter()
                    .any(|e| matches!(e, Event::CounterPaid { .. }));
                // A whip on the mover's deadly bank that wins ends the
                // game before the fall, and says so (teachers' and a
                // curator's trials: the class asked why the awl did not
                // fall in).
                let on_bank = ctx.events.iter().any(|e| {
                    matches!(e, Event::Whipped { space, .. }
                        if *space == ctx.options.deadly_north_space())
                }) && !ctx
                    .events
                    .iter()
                    .any(|e| matches!(e, Event::FellIntoCreek { .. }));
                // A winning trip around that lands on the other awl ends
                // the game before the whip (`end_check: immediate`,
                // docs/rules.md 4.14), and says so (a teacher's trial:
                // "Side A: trip 2!" on Side B's space, no whip told).
                let board = ctx.options.board;
                let landing = match ctx.options.dry_branch {
                    DryBranch::CrossOver => board.cross_over(ctx.to).unwrap_or(ctx.to),
                    _ => ctx.to,
                };
                let on_awl = ctx.seat.side == side
                    && ctx.other_awl != 1
                    && board.physical(side.other(), ctx.other_awl) == board.physical(side, landing)
                    && ctx
                        .events
                        .iter()
                        .any(|e| matches!(e, Event::CompletedCircuit { exact: false, .. }))
                    && !ctx
                        .events
                        .iter()
                        .any(|e| matches!(e, Event::Whipped { .. }));
                let (key, rule) = match reason {
                    WinReason::AllCounters if paid && on_bank => {
                        ("won_before_fall", RuleId::counters(ctx.options.end_check))
                    }
                    WinReason::AllCounters if paid && on_awl => {
                        ("won_before_whip", RuleId::counters(ctx.options.end_check))
                    }
                    WinReason::Circuits if on_awl => {
                        ("won_circuits_before_whip", RuleId::CircuitsToWin)
                    }
                    WinReason::AllCounters if paid => {
                        ("won_all_counters", RuleId::counters(ctx.options.end_check))
                    }
                    WinReason::AllCounters => (
                        "won_all_counters_held",
                        RuleId::counters(ctx.options.end_check),
                    ),
                    WinReason::Circuits => ("won_circuits", RuleId::CircuitsToWin),
                    WinReason::Stopped => ("stopped", RuleId::StopMostCounters),
                };
                let circuits = ctx
                    .events
                    .iter()
                    .find_map(|e| match e {
                        Event::CompletedCircuit { circuits, .. } => Some(*circuits),
                        _ => None,
                    })
                    .unwrap_or_default();
                self.push_event(
                    key,
                    rule,
                    &[
                        ("side", cast.side(side)),
                        ("loser", cast.side(side.other())),
                        ("counters", &held.to_string()),
                        ("circuits", &circuits.to_string()),
                    ],
                );
            }
            Event::Drawn => {
                let counters = ctx.options.counters_per_side.to_string();
                self.push_event(
                    "stopped_draw",
                    RuleId::StopMostCounters,
                    &[("counters", &counters)],
                );
            }
        }
    }
}
