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

mod events;

use events::Renderer;

use super::caption::caption;
use super::catalogue::catalogue;
use super::lesson::{brief_framing, framing};
use super::plan::{Plan, plan};
use super::rule_id::RuleId;
use super::statement::{event_segment, rule_segment};
use super::template::{BoardVars, count_word, score_words};
use super::vocabulary::{Audience, Cast, Detail, MoveContext, Narration, Segment, SegmentKind};
use crate::rules::{Event, Options, Side};

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
        // Both sides' counting sticks, A first, as a counter paid says them.
        let score = score_words([cast.side(Side::A), cast.side(Side::B)], counters, audience);
        words.fill(
            template,
            &[
                ("side", &name),
                ("counters", &count_word(held, audience)),
                ("score", &score),
            ],
        )
    });
    let mut segments = vec![event_segment(cat, rule, options.board, text)];
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
        folded_passage: false,
        folded_landing: false,
    };
    if ctx.move_number == 1 {
        let framing = if ctx.detail == Detail::Brief {
            brief_framing(ctx.options, ctx.audience)
        } else {
            framing(ctx.options, ctx.audience)
        };
        r.segments.push(Segment {
            kind: SegmentKind::Framing,
            text: framing.text,
            citations: framing.citations,
            rule: None,
            fact: None,
            brief: false,
        });
    }
    let events_at = r.segments.len();
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
    // A move teaches before it tells: the rules it states come before the
    // events they explain (on the first move, the turn's rules before the
    // first throw; later, the north creek's rule before the jump over it).
    let events = r.segments.len() - events_at - rules.len();
    r.segments[events_at..].rotate_left(events);
    // But the extra throw's rule, after the fall or whip it outlives.
    if let Some(at) = r.segments.iter().position(|s| {
        s.kind == SegmentKind::Rule && s.rule.as_deref() == Some(RuleId::ExtraThrowFromSticks.key())
    }) {
        let rule = r.segments.remove(at);
        insert_rule(&mut r.segments, rule);
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
        let context = Segment {
            kind: SegmentKind::Context,
            text: text.clone(),
            citations: fact.citations_for(ctx.audience).to_vec(),
            rule: None,
            fact: Some(fact.id.clone()),
            brief: false,
        };
        // The first move's fact (who played the game) goes with the
        // framing, before the rules; a later move's, after its events.
        if ctx.move_number == 1
            && r.segments
                .first()
                .is_some_and(|s| s.kind == SegmentKind::Framing)
        {
            r.segments.insert(1, context);
        } else {
            r.segments.push(context);
        }
    }
    Narration {
        audience: ctx.audience,
        segments: r.segments,
        rules_stated: plan.rules_stated.clone(),
    }
}

/// Put the statement of a rule (`rule`) among a move's `segments` where it
/// teaches: before the move's own rules and events; but the extra throw's
/// rule after the events it outlives, before the throw again it explains
/// (a teacher's trial: told before a fall, "Even after a fall or a whip,
/// you still throw again." was heard as "a fall earns a throw").
pub fn insert_rule(segments: &mut Vec<Segment>, rule: Segment) {
    let event = |s: &Segment| s.kind == SegmentKind::Event;
    let at = if rule.rule.as_deref() == Some(RuleId::ExtraThrowFromSticks.key()) {
        let first = segments.iter().position(event);
        let last = segments.iter().rposition(event);
        match (first, last) {
            // The throw again, its own sentence after the move's events.
            (Some(first), Some(last))
                if last > first
                    && segments[last]
                        .rule
                        .as_deref()
                        .and_then(|k| k.parse::<RuleId>().ok())
                        .is_some_and(RuleId::is_throw_table) =>
            {
                last
            }
            (_, Some(last)) => last + 1,
            _ => segments.len(),
        }
    } else {
        segments
            .iter()
            .position(|s| matches!(s.kind, SegmentKind::Rule | SegmentKind::Event))
            .unwrap_or(segments.len())
    };
    segments.insert(at, rule);
}

/// A move at [`Detail::Brief`]: its caption, one sentence, cited by the
/// sources of every event it sums up; its rule is the move's most notable
/// one (the last event's rule that is not the throw's, the move's or the
/// turn's), else the throw's. The first move's one-line framing comes
/// before it.
fn brief(ctx: &MoveContext<'_>, segments: Vec<Segment>, plan: &Plan) -> Narration {
    let (mut told, events): (Vec<Segment>, Vec<Segment>) = segments
        .into_iter()
        .partition(|s| s.kind == SegmentKind::Framing);
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
    told.push(Segment {
        kind: SegmentKind::Event,
        text: caption(ctx, ctx.from, ctx.to),
        citations,
        rule: Some(rule),
        fact: None,
        brief: false,
    });
    Narration {
        audience: ctx.audience,
        segments: told,
        rules_stated: plan.rules_stated.clone(),
    }
}
