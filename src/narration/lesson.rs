//! A preset's rules as a narrated lesson: ordered sections (the board, the
//! sticks, a turn, each hazard, winning, stopping), each with text and
//! citations, and, where the preset departs from the composite
//! reconstruction, a sentence that says so and why. Pure: built from the
//! rule statements of `templates.json` and the lesson data of `lessons.json`.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::rule_id::RuleId;
use super::statement::rule_statement;
use super::vocabulary::{Audience, Citation};
use crate::rules::{Board, EndCheck, Options, Overshoot, Preset, ThrowTable};

/// A text with its sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitedText {
    /// The text.
    pub text: String,
    /// Its sources.
    pub citations: Vec<Citation>,
}

/// A board's section: its text for the general and scholar audiences, and
/// its own text for ages 7-10.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardText {
    title: String,
    text: String,
    young: String,
    citations: Vec<Citation>,
}

#[derive(Deserialize)]
struct PresetText {
    title: String,
    summary: String,
    citations: Vec<Citation>,
}

#[derive(Deserialize)]
struct LessonData {
    boards: BTreeMap<String, BoardText>,
    presets: BTreeMap<String, PresetText>,
    departures: BTreeMap<String, CitedText>,
}

static DATA: LazyLock<LessonData> = LazyLock::new(|| {
    // Compiled in and checked by the tests: a failure is a build defect.
    serde_json::from_str(include_str!("data/lessons.json"))
        .unwrap_or_else(|e| panic!("embedded lessons.json is invalid: {e}"))
});

/// One section of a lesson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonSection {
    /// Stable id: `board`, `sticks`, `turn`, `north_creek`, `home`, `whip`,
    /// `dry_branches`, `winning`, `stopping`.
    pub id: String,
    /// Heading.
    pub title: String,
    /// The rule, in the audience's words.
    pub text: String,
    /// Its sources.
    pub citations: Vec<Citation>,
    /// Where this preset departs from the composite reconstruction here:
    /// what differs and why, cited.
    pub departures: Vec<CitedText>,
}

/// A preset's rules as a lesson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lesson {
    /// The preset.
    pub preset: Preset,
    /// Its title.
    pub title: String,
    /// What it is and where it comes from.
    pub summary: CitedText,
    /// Sections in teaching order.
    pub sections: Vec<LessonSection>,
}

/// The API name of a rules value (`square28`, `spinner`, `no_effect`,
/// `a4`): the strum name the rules enums derive, which a rules test ties to
/// their serde name.
fn key<T: Into<&'static str>>(v: T) -> &'static str {
    v.into()
}

/// Join rule statements into one text, merging their citations.
fn rules_text(options: &Options, ids: &[RuleId], audience: Audience) -> (String, Vec<Citation>) {
    let mut text = Vec::new();
    let mut citations: Vec<Citation> = Vec::new();
    for &id in ids {
        let Some((t, cites)) = rule_statement(options, audience, id) else {
            continue;
        };
        text.push(t);
        for c in cites {
            if !citations.contains(&c) {
                citations.push(c);
            }
        }
    }
    (text.join(" "), citations)
}

/// The departure sentence `id` (`option.value`, e.g. `throw_table.spinner`,
/// or `counters_per_side`, `circuits_to_win`, `players` with `{n}` filled).
#[must_use]
pub fn departure(id: &str, n: Option<u8>) -> Option<CitedText> {
    DATA.departures.get(id).map(|d| CitedText {
        text: n.map_or_else(|| d.text.clone(), |n| d.text.replace("{n}", &n.to_string())),
        citations: d.citations.clone(),
    })
}

/// The lesson for `preset` in `audience`'s words.
#[must_use]
pub fn lesson(preset: Preset, audience: Audience) -> Lesson {
    let o: Options = preset.options();
    let base = Options::default();
    let players = preset.default_players();
    let mut sections = Vec::new();
    let board_key = key(o.board);
    if let Some(b) = DATA.boards.get(board_key) {
        let dep = (o.board != base.board).then(|| departure("board.square28", None));
        sections.push(LessonSection {
            id: "board".to_owned(),
            title: b.title.clone(),
            text: if audience == Audience::Young {
                b.young.clone()
            } else {
                b.text.clone()
            },
            citations: b.citations.clone(),
            departures: dep.flatten().into_iter().collect(),
        });
    }

    let mut section =
        |id: &str, title: &str, rules: &[RuleId], departures: Vec<Option<CitedText>>| {
            let (text, citations) = rules_text(&o, rules, audience);
            sections.push(LessonSection {
                id: id.to_owned(),
                title: title.to_owned(),
                text,
                citations,
                departures: departures.into_iter().flatten().collect(),
            });
        };

    section(
        "sticks",
        if o.throw_table == ThrowTable::Spinner {
            "The spinner"
        } else {
            "The sticks"
        },
        &[RuleId::throw_table(o.throw_table)],
        vec![
            (o.throw_table != base.throw_table)
                .then(|| departure(&format!("throw_table.{}", key(o.throw_table)), None))
                .flatten(),
        ],
    );

    section(
        "turn",
        "A turn",
        &[
            RuleId::Move,
            RuleId::ExtraThrowFromSticks,
            RuleId::team_turns(o.turn_order),
        ],
        vec![
            (o.turn_order != base.turn_order)
                .then(|| departure("turn_order.alternate", None))
                .flatten(),
            (players > 1)
                .then(|| departure("players", Some(players)))
                .flatten(),
        ],
    );

    section(
        "north_creek",
        if o.board == Board::Square28 {
            "The north torrent"
        } else {
            "The north creek"
        },
        &[RuleId::north_creek(o.deadly_north_bank)],
        vec![
            (o.deadly_north_bank != base.deadly_north_bank)
                .then(|| departure("deadly_north_bank.far", None))
                .flatten(),
        ],
    );

    let mut home = RuleId::coming_home(o.own_last_space).to_vec();
    if o.overshoot == Overshoot::NoMove {
        home.push(RuleId::OvershootNoMove);
    }
    section(
        "home",
        "Coming home",
        &home,
        vec![
            (o.own_last_space != base.own_last_space)
                .then(|| departure(&format!("own_last_space.{}", key(o.own_last_space)), None))
                .flatten(),
            (o.overshoot != base.overshoot)
                .then(|| departure("overshoot.no_move", None))
                .flatten(),
        ],
    );

    section(
        "whip",
        "Whipping",
        &[RuleId::Whip, RuleId::WhipThenFall],
        Vec::new(),
    );

    section(
        "dry_branches",
        if o.board == Board::Square28 {
            "The dry gullies"
        } else {
            "The dry branches"
        },
        &[RuleId::dry_branch(o.dry_branch)],
        vec![
            (o.dry_branch != base.dry_branch)
                .then(|| departure(&format!("dry_branch.{}", key(o.dry_branch)), None))
                .flatten(),
        ],
    );

    let mut winning = vec![RuleId::counters(o.end_check)];
    if o.circuits_to_win.is_some() {
        winning.push(RuleId::CircuitsToWin);
    }
    section(
        "winning",
        "Winning",
        &winning,
        vec![
            (o.counters_per_side != base.counters_per_side)
                .then(|| departure("counters_per_side", Some(o.counters_per_side)))
                .flatten(),
            o.circuits_to_win
                .and_then(|n| departure("circuits_to_win", Some(n))),
            (o.end_check == EndCheck::AfterMove)
                .then(|| departure("end_check.after_move", None))
                .flatten(),
        ],
    );

    section(
        "stopping",
        "Stopping a game",
        &[RuleId::StopMostCounters],
        Vec::new(),
    );

    let text = DATA.presets.get(key(preset));
    Lesson {
        preset,
        title: text.map(|t| t.title.clone()).unwrap_or_default(),
        summary: CitedText {
            text: text.map(|t| t.summary.clone()).unwrap_or_default(),
            citations: text.map(|t| t.citations.clone()).unwrap_or_default(),
        },
        sections,
    }
}

/// The title and summary of a preset.
#[must_use]
pub fn preset_summary(preset: Preset) -> (String, CitedText) {
    let l = DATA.presets.get(key(preset));
    (
        l.map(|t| t.title.clone()).unwrap_or_default(),
        CitedText {
            text: l.map(|t| t.summary.clone()).unwrap_or_default(),
            citations: l.map(|t| t.citations.clone()).unwrap_or_default(),
        },
    )
}
