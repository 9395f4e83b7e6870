//! Turning a move's events into narrated, cited segments.
//!
//! Narration happens in two steps.
//!
//! 1. A **plan** (see `plan.rs`) decides what to tell besides the events:
//!    which rules, each in full or as a short restatement, and which
//!    context fact. The plan depends on the game's history (the facts told
//!    so far and the previous move's narration) but never on the audience,
//!    and it is kept in the stored segments: a rule segment keeps its rule
//!    id and its `brief` flag, a context segment its fact id.
//! 2. The **rendering**, here, turns a plan and the move's events into
//!    text for one audience. Phrasings rotate with the move number, so
//!    consecutive moves never read the same, and nothing else goes into
//!    the choice: a stored move re-rendered for another audience
//!    ([`renarrate_move`]) reads exactly as if the game had been narrated
//!    for that audience from the start.

use std::collections::{BTreeMap, HashMap};

use super::caption::caption;
use super::catalogue::{Catalogue, catalogue};
use super::lesson::framing;
use super::plan::{Plan, plan};
use super::rule_id::RuleId;
use super::statement::{rule_cite, rule_segment};
use super::template::{BoardVars, choose, count_word, spaces};
use super::vocabulary::{Audience, Cast, Detail, MoveContext, Narration, Segment, SegmentKind};
use crate::rules::{
    Creek, DryBranch, Event, Options, Side, SpinnerSector, Throw, ThrowTable, WinReason,
};

/// Narrate one move for a lesson (the narration a game keeps): on the
/// first move the game's framing, then the events (after the first move the
/// throw and the move in one sentence), the rules the plan states (see
/// `plan.rs`) and the context fact it chose, if any.
#[must_use]
pub fn narrate_move(ctx: &MoveContext<'_>) -> Narration {
    let plan = plan(catalogue(), ctx);
    render(ctx, &plan)
}

/// Narrate a stored move again for `ctx.audience`: the same events, the
/// same rules in the same form and the same context fact as `stored` (the
/// move's narration as first written, in any audience), in that audience's
/// words. Deterministic: it reads exactly as [`narrate_move`] would have
/// written the move for that audience. `ctx.told` and `ctx.previous` are
/// not read.
#[must_use]
pub fn renarrate_move(ctx: &MoveContext<'_>, stored: &Narration) -> Narration {
    render(ctx, &Plan::of_stored(stored))
}

/// The plan a narration followed, as [`narrate_planned`] takes it: the
/// rules of its `rule` segments, each with whether it is restated briefly,
/// and its context fact (what [`renarrate_move`] reads off a stored
/// narration).
#[must_use]
pub fn plan_of(narration: &Narration) -> (Vec<(String, bool)>, Option<String>) {
    let plan = Plan::of_stored(narration);
    (plan.rules, plan.fact)
}

/// Narrate a move from its plan as [`plan_of`] gives it: the same text as
/// [`renarrate_move`] of a narration with that plan (deterministic). The
/// narration carries no memory of the rules stated (`rules_stated` is
/// empty). `ctx.told` and `ctx.previous` are not read.
#[must_use]
pub fn narrate_planned(
    ctx: &MoveContext<'_>,
    rules: &[(String, bool)],
    fact: Option<&str>,
) -> Narration {
    render(
        ctx,
        &Plan {
            rules: rules.to_vec(),
            fact: fact.map(str::to_owned),
            rules_stated: BTreeMap::new(),
        },
    )
}

/// Narrate a stopped game's result event ([`Event::Won`] with
/// [`WinReason::Stopped`], or [`Event::Drawn`]).
#[must_use]
pub fn narrate_stop(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    counters: [u8; 2],
    event: &Event,
) -> Narration {
    let cat = catalogue();
    let (key, side) = match event {
        Event::Won { side, .. } => ("stopped", Some(*side)),
        _ => ("stopped_draw", None),
    };
    let held = side.map_or(counters[0], |s| counters[s.index()]);
    let name = side.map(|s| cast.side(s).to_owned()).unwrap_or_default();
    let words = BoardVars::new(cat, options, audience);
    let rule = RuleId::StopMostCounters;
    let text = cat.templates.events.get(key).map_or_else(String::new, |p| {
        let list = p.for_audience(audience);
        let template = list.first().map_or("", String::as_str);
        words.fill(
            template,
            &[("side", &name), ("counters", &count_word(held, audience))],
        )
    });
    let mut segments = vec![Segment {
        kind: SegmentKind::Event,
        text,
        citations: rule_cite(cat, rule, options.board),
        rule: Some(rule.key().to_owned()),
        fact: None,
        brief: false,
    }];
    segments.push(rule_segment(cat, &words, rule.key(), false, audience, 0));
    Narration {
        audience,
        segments,
        rules_stated: BTreeMap::new(),
    }
}

fn render(ctx: &MoveContext<'_>, plan: &Plan) -> Narration {
    let cat = catalogue();
    let mut r = Renderer {
        cat,
        ctx,
        words: BoardVars::new(cat, ctx.options, ctx.audience),
        segments: Vec::new(),
        used: HashMap::new(),
        folded_move: false,
    };
    if ctx.move_number == 1 && ctx.detail != Detail::Brief {
        let framing = framing(ctx.options, ctx.audience);
        r.segments.push(Segment {
            kind: SegmentKind::Framing,
            text: framing.text,
            citations: framing.citations,
            rule: None,
            fact: None,
            brief: false,
        });
    }
    r.throw();
    for (i, event) in ctx.events.iter().enumerate() {
        r.event(event, ctx.events.get(i + 1));
    }
    if ctx.detail == Detail::Brief {
        return brief(ctx, r.segments, plan);
    }
    let mut rules = plan.rules.clone();
    if ctx.detail == Detail::Full {
        // Every rule behind the move's events, each in full.
        for rule in r.segments.iter().filter_map(|s| s.rule.as_deref()) {
            if cat.templates.rules.contains_key(rule) && !rules.iter().any(|(id, _)| id == rule) {
                rules.push((rule.to_owned(), false));
            }
        }
        for (_, brief) in &mut rules {
            *brief = false;
        }
    }
    for (id, brief) in &rules {
        r.segments.push(rule_segment(
            cat,
            &r.words,
            id,
            *brief,
            ctx.audience,
            ctx.move_number,
        ));
    }
    if let Some(fact) = plan
        .fact
        .as_deref()
        .and_then(|id| cat.facts.iter().find(|f| f.id == id))
        // A move first narrated for scholars may hold a fact that rests on
        // modern retellings alone; narrated again for another audience it
        // tells none.
        .filter(|f| f.told_to(ctx.audience))
    {
        let text = match ctx.audience {
            Audience::Young => &fact.young,
            Audience::General => &fact.general,
            Audience::Scholar => &fact.scholar,
        };
        r.segments.push(Segment {
            kind: SegmentKind::Context,
            text: text.clone(),
            citations: fact.citations.clone(),
            rule: None,
            fact: Some(fact.id.clone()),
            brief: false,
        });
    }
    Narration {
        audience: ctx.audience,
        segments: r.segments,
        rules_stated: plan.rules_stated.clone(),
    }
}

/// A move at [`Detail::Brief`]: its caption, one sentence, cited by the
/// sources of every event it sums up; its rule is the move's most notable
/// one (the last event's rule that is not the throw's, the move's or the
/// turn's), else the throw's.
fn brief(ctx: &MoveContext<'_>, events: Vec<Segment>, plan: &Plan) -> Narration {
    let options = ctx.options;
    let routine = [
        RuleId::throw_table(options.throw_table).key(),
        RuleId::Move.key(),
        RuleId::turn(options.turn_order, ctx.cast.has_teams()).key(),
    ];
    let rule = events
        .iter()
        .filter_map(|s| s.rule.as_deref())
        .rfind(|r| !routine.contains(r))
        .unwrap_or(routine[0])
        .to_owned();
    let mut citations = Vec::new();
    for c in events.into_iter().flat_map(|s| s.citations) {
        if !citations.contains(&c) {
            citations.push(c);
        }
    }
    Narration {
        audience: ctx.audience,
        segments: vec![Segment {
            kind: SegmentKind::Event,
            text: caption(ctx, ctx.from, ctx.to),
            citations,
            rule: Some(rule),
            fact: None,
            brief: false,
        }],
        rules_stated: plan.rules_stated.clone(),
    }
}

struct Renderer<'a> {
    cat: &'static Catalogue,
    ctx: &'a MoveContext<'a>,
    words: BoardVars,
    segments: Vec<Segment>,
    /// How often each template key has been used in this move.
    used: HashMap<&'static str, usize>,
    /// The throw's sentence told the move too (at [`Detail::Lesson`]), so
    /// the move's own sentence is left out.
    folded_move: bool,
}

impl Renderer<'_> {
    fn audience(&self) -> Audience {
        self.ctx.audience
    }

    fn push_event(&mut self, key: &'static str, rule: RuleId, vars: &[(&str, &str)]) {
        let short = (self.ctx.detail == Detail::Lesson && self.ctx.move_number > 1)
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

    fn throw(&mut self) {
        let ctx = self.ctx;
        let audience = self.audience();
        let words = &self.cat.templates.words;
        let player = ctx.cast.player(ctx.seat).to_owned();
        let value = ctx.score.value;
        let rule = RuleId::throw_table(ctx.options.throw_table);
        // On the move that ends the game no throw follows, whatever the
        // sticks said.
        let over = ctx.events.iter().any(|e| matches!(e, Event::Won { .. }));
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
        let fold = match moved[..] {
            [(from, to)] if ctx.detail == Detail::Lesson && ctx.move_number > 1 => {
                Some((from.to_string(), to.to_string()))
            }
            _ => None,
        };
        self.folded_move = fold.is_some();
        let (from, to) = fold.clone().unwrap_or_default();
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
                    ],
                );
            }
            Throw::Spinner(sector) => {
                let key = match (fold.is_some(), over, ctx.score.throws_again) {
                    (true, ..) => "spin_moved",
                    (false, true, _) => "spin_last",
                    (false, false, true) => "spin_again",
                    (false, false, false) => "spin_end",
                };
                let s = words.sectors.get(audience);
                let sector = match sector {
                    SpinnerSector::Ten => &s.ten,
                    SpinnerSector::One => &s.one,
                    SpinnerSector::BlueOne => &s.blue_one,
                    SpinnerSector::Two => &s.two,
                    SpinnerSector::Three => &s.three,
                    SpinnerSector::BlueThree => &s.blue_three,
                    SpinnerSector::Six => &s.six,
                }
                .clone();
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
                    ],
                );
            }
        }
        // The one sentence tells the move too: it cites the move's sources.
        if self.folded_move {
            let cites = rule_cite(self.cat, RuleId::Move, ctx.options.board);
            if let Some(segment) = self.segments.last_mut() {
                for c in cites {
                    if !segment.citations.contains(&c) {
                        segment.citations.push(c);
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_lines)]
    fn event(&mut self, event: &Event, next: Option<&Event>) {
        let ctx = self.ctx;
        let cast = ctx.cast;
        let audience = self.audience();
        match *event {
            Event::Moved { .. } if self.folded_move => {}
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
                let (key, rule) = match reason {
                    WinReason::AllCounters => {
                        ("won_all_counters", RuleId::counters(ctx.options.end_check))
                    }
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
