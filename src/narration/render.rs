//! Turning a move's events into narrated, cited segments.

use serde::{Deserialize, Serialize};

use super::catalogue::{Catalogue, Citation, Phrasings, catalogue};
use crate::rules::{
    Bank, Compass, CounterReason, Creek, DryBranch, Event, Feature, Options, OwnLastSpace, Score,
    Seat, Side, Throw, ThrowTable, WinReason,
};

/// Who the narration is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Ages 7-10: short sentences, every Kiowa word explained.
    Young,
    /// Everyone else (default).
    #[default]
    General,
    /// Names where the sources disagree, with page-level citations.
    Scholar,
}

impl Audience {
    fn key(self) -> &'static str {
        match self {
            Audience::Young => "young",
            Audience::General => "general",
            Audience::Scholar => "scholar",
        }
    }
}

/// What a segment says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentKind {
    /// What happened.
    Event,
    /// The rule that made it happen.
    Rule,
    /// Cultural context.
    Context,
}

/// One narrated sentence or two, with its sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// Event, rule or context.
    pub kind: SegmentKind,
    /// The text, plain Unicode.
    pub text: String,
    /// Its sources (never empty).
    pub citations: Vec<Citation>,
    /// The rule id behind an `event` or `rule` segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The fact id of a `context` segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
}

/// A move's narration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narration {
    /// The audience it was written for.
    pub audience: Audience,
    /// Its segments, in reading order.
    pub segments: Vec<Segment>,
}

impl Narration {
    /// The context fact this narration told, if any.
    #[must_use]
    pub fn fact(&self) -> Option<&str> {
        self.segments.iter().find_map(|s| s.fact.as_deref())
    }
}

/// The names the narration uses: each side's name and its players' names
/// (a side with one player uses the side's name for her).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cast {
    /// Side names, A first.
    pub sides: [String; 2],
    /// Player names per side, A first.
    pub players: [Vec<String>; 2],
}

impl Cast {
    fn side(&self, side: Side) -> &str {
        &self.sides[side.index()]
    }

    fn player(&self, seat: Seat) -> &str {
        self.players[seat.side.index()]
            .get(usize::from(seat.player))
            .map_or_else(|| self.side(seat.side), String::as_str)
    }
}

/// Everything one move's narration depends on.
#[derive(Clone, Copy, Debug)]
pub struct MoveContext<'a> {
    /// The ruleset's options.
    pub options: &'a Options,
    /// Names.
    pub cast: &'a Cast,
    /// Who reads it.
    pub audience: Audience,
    /// 1-based move number, for choosing phrasings.
    pub move_number: u32,
    /// Who threw.
    pub seat: Seat,
    /// The throw.
    pub throw: &'a Throw,
    /// Its score.
    pub score: &'a Score,
    /// What happened.
    pub events: &'a [Event],
    /// Fact ids this game has told already, oldest first.
    pub told: &'a [String],
}

/// Narrate one move: one `event` segment per event (the throw first), the
/// rule behind the move's main event, and, on the first move, on moves with
/// a notable event and on every third move, one cultural-context fact this
/// game has not told yet, relevant to the event where one fits.
#[must_use]
pub fn narrate_move(ctx: &MoveContext<'_>) -> Narration {
    let cat = catalogue();
    let mut r = Renderer {
        cat,
        ctx,
        segments: Vec::new(),
        slot: 0,
    };
    r.throw();
    for (i, event) in ctx.events.iter().enumerate() {
        r.event(event, ctx.events.get(i + 1));
    }
    r.rules();
    r.context();
    Narration {
        audience: ctx.audience,
        segments: r.segments,
    }
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
    let counters_text = side
        .map_or(counters[0], |s| counters[s.index()])
        .to_string();
    let name = side.map(|s| cast.side(s).to_owned()).unwrap_or_default();
    let text = fill(
        pick(&cat.templates.events[key], audience, 0, key),
        &[("side", &name), ("counters", &counters_text)],
    );
    let rule = "stop_most_counters";
    let mut segments = vec![Segment {
        kind: SegmentKind::Event,
        text,
        citations: rule_citations(cat, rule),
        rule: Some(rule.to_owned()),
        fact: None,
    }];
    segments.push(rule_segment(cat, rule, audience));
    let _ = options;
    Narration { audience, segments }
}

struct Renderer<'a> {
    cat: &'static Catalogue,
    ctx: &'a MoveContext<'a>,
    segments: Vec<Segment>,
    slot: usize,
}

/// The phrasing list for `audience`, falling back to `general`.
fn phrasings(p: &Phrasings, audience: Audience) -> &[String] {
    let list = match audience {
        Audience::Young => &p.young,
        Audience::General => &p.general,
        Audience::Scholar => &p.scholar,
    };
    if list.is_empty() { &p.general } else { list }
}

/// Choose a phrasing deterministically from the move number, the segment's
/// slot and the template key, so consecutive moves rotate phrasings.
fn pick<'p>(p: &'p Phrasings, audience: Audience, seed: usize, key: &str) -> &'p str {
    let list = phrasings(p, audience);
    let salt: usize = key.bytes().map(usize::from).sum();
    list.get((seed + salt) % list.len().max(1))
        .map_or("", String::as_str)
}

/// Replace each `{name}` by its value in one pass: values are never read as
/// templates, so a name containing braces is printed as it is.
fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match vars.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn rule_citations(cat: &Catalogue, rule: &str) -> Vec<Citation> {
    cat.templates
        .rules
        .get(rule)
        .map(|r| r.citations.clone())
        .unwrap_or_default()
}

fn rule_segment(cat: &Catalogue, rule: &str, audience: Audience) -> Segment {
    let text = cat.templates.rules.get(rule).map_or_else(String::new, |r| {
        match audience {
            Audience::Young => r.young.as_ref(),
            Audience::General => None,
            Audience::Scholar => r.scholar.as_ref(),
        }
        .unwrap_or(&r.general)
        .clone()
    });
    Segment {
        kind: SegmentKind::Rule,
        text,
        citations: rule_citations(cat, rule),
        rule: Some(rule.to_owned()),
        fact: None,
    }
}

/// The rule id of the table in force.
fn table_rule(table: ThrowTable) -> &'static str {
    match table {
        ThrowTable::SticksSahe => "sticks_sahe",
        ThrowTable::SticksCount => "sticks_count",
        ThrowTable::Spinner => "spinner",
    }
}

impl Renderer<'_> {
    fn audience(&self) -> Audience {
        self.ctx.audience
    }

    fn push_event(&mut self, key: &str, rule: &str, vars: &[(&str, &str)]) {
        let Some(p) = self.cat.templates.events.get(key) else {
            return;
        };
        let seed = self.ctx.move_number as usize * 7 + self.slot * 3;
        self.slot += 1;
        let text = fill(pick(p, self.audience(), seed, key), vars);
        self.segments.push(Segment {
            kind: SegmentKind::Event,
            text,
            citations: rule_citations(self.cat, rule),
            rule: Some(rule.to_owned()),
            fact: None,
        });
    }

    fn feature_words(&self, side: Side, space: u8) -> String {
        let key = match self.ctx.options.board.feature(side, space) {
            Feature::Ordinary => "ordinary",
            Feature::DryBranch {
                compass: Compass::East,
            } => "dry_branch_east",
            Feature::DryBranch {
                compass: Compass::West,
            } => "dry_branch_west",
            Feature::NorthCreek { bank: Bank::Near } => "north_creek_near",
            Feature::NorthCreek { bank: Bank::Far } => "north_creek_far",
            Feature::SouthCreek { bank: Bank::Far } => "south_creek_far",
            Feature::SouthCreek { bank: Bank::Near } => "south_creek_near",
        };
        self.cat
            .features
            .get(key)
            .and_then(|m| m.get(self.audience().key()).or_else(|| m.get("general")))
            .cloned()
            .unwrap_or_default()
    }

    fn throw(&mut self) {
        let ctx = self.ctx;
        let player = ctx.cast.player(ctx.seat).to_owned();
        let value = ctx.score.value.to_string();
        let key = if ctx.score.throws_again {
            "throw_again"
        } else {
            "throw_end"
        };
        let words = &self.cat.templates.words;
        let (flat, sahe) = match ctx.throw {
            Throw::Sticks(sticks) => {
                let flat = words
                    .counts
                    .get(usize::from(sticks.flat_count()))
                    .cloned()
                    .unwrap_or_default();
                let phrase = if sticks.sahe_flat() {
                    &words.sahe_up
                } else {
                    &words.sahe_down
                };
                let sahe = phrase
                    .get(self.audience().key())
                    .or_else(|| phrase.get("general"))
                    .cloned()
                    .unwrap_or_default();
                (flat, sahe)
            }
            Throw::Spinner(_) => (String::new(), String::new()),
        };
        let rule = table_rule(ctx.options.throw_table);
        self.push_event(
            key,
            rule,
            &[
                ("player", &player),
                ("flat", &flat),
                ("value", &value),
                ("sahe", &sahe),
            ],
        );
    }

    fn north_rule(&self) -> &'static str {
        match self.ctx.options.deadly_north_bank {
            crate::rules::DeadlyNorthBank::Near => "north_creek_near",
            crate::rules::DeadlyNorthBank::Far => "north_creek_far",
        }
    }

    fn circuit_rule(&self) -> &'static str {
        match self.ctx.options.own_last_space {
            OwnLastSpace::Ordinary => "circuit_lap_a4",
            OwnLastSpace::FallsIn | OwnLastSpace::CompletesCircuit => "circuit_carry_on",
        }
    }

    fn event(&mut self, event: &Event, next: Option<&Event>) {
        let ctx = self.ctx;
        let cast = ctx.cast;
        let player = cast.player(ctx.seat).to_owned();
        match *event {
            Event::Moved {
                side,
                from,
                to,
                steps,
            } => {
                let feature = self.feature_words(side, to);
                self.push_event(
                    "moved",
                    "move",
                    &[
                        ("player", &player),
                        ("side", cast.side(side)),
                        ("steps", &steps.to_string()),
                        ("from", &from.to_string()),
                        ("to", &to.to_string()),
                        ("feature", &feature),
                    ],
                );
            }
            Event::PassedNorthCreek { side } => {
                let rule = self.north_rule();
                self.push_event(
                    "passed_north_creek",
                    rule,
                    &[("player", &player), ("side", cast.side(side))],
                );
            }
            Event::CompletedCircuit {
                side,
                circuits,
                exact,
            } => {
                let (key, rule) = if exact {
                    ("circuit_completed_home", "circuit_exact_ludii")
                } else {
                    ("completed_circuit", self.circuit_rule())
                };
                self.push_event(
                    key,
                    rule,
                    &[
                        ("player", &player),
                        ("side", cast.side(side)),
                        ("circuits", &circuits.to_string()),
                    ],
                );
            }
            Event::FellIntoCreek { side, creek, space } => {
                let (key, rule) = match creek {
                    Creek::North => ("fell_into_creek_north", self.north_rule()),
                    Creek::South => ("fell_into_creek_south", "south_creek_falls_in"),
                };
                self.push_event(
                    key,
                    rule,
                    &[
                        ("player", &player),
                        ("side", cast.side(side)),
                        ("space", &space.to_string()),
                    ],
                );
            }
            Event::Whipped {
                side,
                victim,
                space,
            } => {
                let then_falls = ctx.events.iter().any(|e| {
                    matches!(
                        e,
                        Event::FellIntoCreek {
                            creek: Creek::North,
                            ..
                        }
                    )
                });
                let rule = if then_falls { "whip_then_fall" } else { "whip" };
                self.push_event(
                    "whipped",
                    rule,
                    &[
                        ("player", &player),
                        ("side", cast.side(side)),
                        ("opponent", cast.side(victim)),
                        ("space", &space.to_string()),
                    ],
                );
            }
            Event::CounterPaid {
                payer,
                payee,
                counters,
                reason,
            } => {
                let _ = (reason, next);
                self.push_event(
                    "counter_paid",
                    "counters_one_at_a_time",
                    &[
                        ("payer", cast.side(payer)),
                        ("payee", cast.side(payee)),
                        ("payer_counters", &counters[payer.index()].to_string()),
                        ("payee_counters", &counters[payee.index()].to_string()),
                    ],
                );
            }
            Event::CounterUnpaid { payer, payee, .. } => self.push_event(
                "counter_unpaid",
                "counters_one_at_a_time",
                &[("payer", cast.side(payer)), ("payee", cast.side(payee))],
            ),
            Event::ForcedPass { side, value } => self.push_event(
                "forced_pass",
                "overshoot_no_move",
                &[
                    ("player", &player),
                    ("side", cast.side(side)),
                    ("value", &value.to_string()),
                ],
            ),
            Event::LandedOnDryBranch { side, space } => {
                let rule = if ctx.options.dry_branch == DryBranch::CrossOver {
                    "dry_branch_cross_over"
                } else {
                    "dry_branch_no_effect"
                };
                self.push_event(
                    "landed_on_dry_branch",
                    rule,
                    &[
                        ("player", &player),
                        ("side", cast.side(side)),
                        ("space", &space.to_string()),
                    ],
                );
            }
            Event::LostThrow { side, .. } => self.push_event(
                "lost_throw",
                "dry_branch_lose_throw",
                &[("player", &player), ("side", cast.side(side))],
            ),
            Event::CrossedDryBranch { side, from, to } => self.push_event(
                "crossed_dry_branch",
                "dry_branch_cross_over",
                &[
                    ("player", &player),
                    ("side", cast.side(side)),
                    ("from", &from.to_string()),
                    ("to", &to.to_string()),
                ],
            ),
            Event::TurnSkipped { seat } => self.push_event(
                "turn_skipped",
                "dry_branch_lose_throw",
                &[
                    ("player", cast.player(seat)),
                    ("side", cast.side(seat.side)),
                ],
            ),
            Event::ThrowsAgain { seat } => self.push_event(
                "throws_again",
                "extra_throw_from_sticks",
                &[("player", cast.player(seat))],
            ),
            Event::TurnPassed { seat } => {
                let rule = match ctx.options.turn_order {
                    crate::rules::TurnOrder::SideBlocks => "turn_side_blocks",
                    crate::rules::TurnOrder::Alternate => "turn_alternate",
                };
                self.push_event(
                    "turn_passed",
                    rule,
                    &[
                        ("next_player", cast.player(seat)),
                        ("next_side", cast.side(seat.side)),
                    ],
                );
            }
            Event::Won { side, reason } => {
                let state_counters = ctx
                    .events
                    .iter()
                    .rev()
                    .find_map(|e| match e {
                        Event::CounterPaid { counters, .. } => Some(counters[side.index()]),
                        _ => None,
                    })
                    .unwrap_or(ctx.options.total_counters());
                let (key, rule) = match reason {
                    WinReason::AllCounters => ("won_all_counters", "counters_one_at_a_time"),
                    WinReason::Circuits => ("won_circuits", "circuits_to_win"),
                    WinReason::Stopped => ("stopped", "stop_most_counters"),
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
                        ("counters", &state_counters.to_string()),
                        ("circuits", &circuits.to_string()),
                    ],
                );
            }
            Event::Drawn => {
                let counters = ctx.options.counters_per_side.to_string();
                self.push_event(
                    "stopped_draw",
                    "stop_most_counters",
                    &[("counters", &counters)],
                );
            }
        }
    }

    /// The rules behind the move's notable events; a plain move gets the
    /// throw table's rule on the first move and on extra throws, and the
    /// moving rule otherwise.
    fn rules(&mut self) {
        let mut ids: Vec<&'static str> = Vec::new();
        for event in self.ctx.events {
            let id = match event {
                Event::FellIntoCreek {
                    creek: Creek::South,
                    ..
                } => Some("south_creek_falls_in"),
                Event::FellIntoCreek { .. } => Some(self.north_rule()),
                Event::Whipped { .. } => Some(
                    if self
                        .segments
                        .iter()
                        .any(|s| s.rule.as_deref() == Some("whip_then_fall"))
                    {
                        "whip_then_fall"
                    } else {
                        "whip"
                    },
                ),
                Event::CompletedCircuit { exact: true, .. } => Some("circuit_exact_ludii"),
                Event::CompletedCircuit { .. } => Some(self.circuit_rule()),
                Event::ForcedPass { .. } => Some("overshoot_no_move"),
                Event::LostThrow { .. } | Event::TurnSkipped { .. } => {
                    Some("dry_branch_lose_throw")
                }
                Event::CrossedDryBranch { .. } => Some("dry_branch_cross_over"),
                Event::Won {
                    reason: WinReason::Circuits,
                    ..
                } => Some("circuits_to_win"),
                Event::Won { .. } | Event::CounterUnpaid { .. } => Some("counters_one_at_a_time"),
                Event::CounterPaid {
                    reason: CounterReason::Circuit,
                    ..
                } => None,
                _ => None,
            };
            if let Some(id) = id
                && !ids.contains(&id)
            {
                ids.push(id);
            }
        }
        if ids.is_empty() {
            let id = if self.ctx.move_number == 1 || self.ctx.score.throws_again {
                table_rule(self.ctx.options.throw_table)
            } else if self.ctx.move_number.is_multiple_of(2) {
                "move"
            } else {
                match self.ctx.options.turn_order {
                    crate::rules::TurnOrder::SideBlocks => "turn_side_blocks",
                    crate::rules::TurnOrder::Alternate => "turn_alternate",
                }
            };
            ids.push(id);
        }
        for id in ids {
            self.segments
                .push(rule_segment(self.cat, id, self.audience()));
        }
    }

    /// Topics relevant to this move, most specific first.
    fn topics(&self) -> Vec<&'static str> {
        let mut topics = Vec::new();
        for event in self.ctx.events {
            match event {
                Event::FellIntoCreek { .. } | Event::PassedNorthCreek { .. } => {
                    topics.push("creek");
                }
                Event::Whipped { .. } => topics.extend(["whip", "awl"]),
                Event::CompletedCircuit { .. } => topics.extend(["circuit", "counters"]),
                Event::LandedOnDryBranch { .. }
                | Event::LostThrow { .. }
                | Event::CrossedDryBranch { .. } => topics.push("dry_branch"),
                Event::Won { .. } => topics.extend(["women", "history"]),
                _ => {}
            }
        }
        if self.ctx.score.value >= 5 {
            topics.extend(["stone", "sticks"]);
        }
        if let Throw::Sticks(s) = self.ctx.throw
            && s.sahe_flat()
            && self.ctx.score.throws_again
        {
            topics.push("sahe");
        }
        if self.ctx.move_number == 1 {
            topics.push("names");
        }
        topics
    }

    /// One untold fact, relevant where one fits; after every fact has been
    /// told, the walk starts over.
    fn context(&mut self) {
        let topics = self.topics();
        let notable = !topics.is_empty();
        if !(self.ctx.move_number == 1 || notable || self.ctx.move_number.is_multiple_of(3)) {
            return;
        }
        let facts = &self.cat.facts;
        if facts.is_empty() {
            return;
        }
        // Facts told since the last full round.
        let round_start = self.ctx.told.len() - self.ctx.told.len() % facts.len();
        let told = &self.ctx.told[round_start..];
        let untold = |f: &&super::catalogue::Fact| !told.contains(&f.id);
        let chosen = topics
            .iter()
            .find_map(|topic| {
                facts
                    .iter()
                    .filter(untold)
                    .find(|f| f.tags.iter().any(|t| t == topic))
            })
            .or_else(|| facts.iter().find(untold));
        let Some(fact) = chosen else {
            return;
        };
        let text = match self.audience() {
            Audience::Young => &fact.young,
            Audience::General => &fact.general,
            Audience::Scholar => &fact.scholar,
        };
        self.segments.push(Segment {
            kind: SegmentKind::Context,
            text: text.clone(),
            citations: fact.citations.clone(),
            rule: None,
            fact: Some(fact.id.clone()),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn fill_substitutes_once_and_keeps_braces_in_values() {
        let out = fill("{a} meets {b} at {c}", &[("a", "{b}"), ("b", "Ann")]);
        assert_eq!(out, "{b} meets Ann at {c}");
    }
}
