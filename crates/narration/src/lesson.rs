//! A preset's rules as a narrated lesson: ordered sections (the board, the
//! sticks, a turn, each hazard, winning, stopping), each with text and
//! citations, and, where the preset departs from the composite
//! reconstruction, a sentence that says so and why. Pure: built from the
//! rule statements of `templates.json` and the lesson data of `lessons.json`.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::catalogue::catalogue;
use super::rule_id::RuleId;
use super::statement::rule_statement;
use super::template::BoardVars;
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

/// A preset's title and summary: the summary for the general and scholar
/// audiences, and its own text for ages 7-10.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetText {
    title: String,
    summary: String,
    young: String,
    /// What rules these are, in the few words of a `brief` framing.
    brief: Words,
    citations: Vec<Citation>,
}

/// Where a preset departs from the composite: for the general and scholar
/// audiences, and in the young audience's own words.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DepartureText {
    text: String,
    young: String,
    citations: Vec<Citation>,
}

/// What a game's first move says it is: the text for options that match
/// no preset, and the note on review that always follows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FramingText {
    #[allow(dead_code)]
    comment: String,
    intro: DepartureText,
    custom: DepartureText,
    /// The `brief` framing's line; `{rules}` is the preset's `brief`.
    brief: Words,
    /// What rules a game of no preset plays, for the `brief` framing.
    custom_brief: Words,
    review: Words,
}

/// A text for the general and scholar audiences, and its young form.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Words {
    text: String,
    young: String,
}

impl Words {
    fn get(&self, audience: Audience) -> &str {
        if audience == Audience::Young {
            &self.young
        } else {
            &self.text
        }
    }
}

#[derive(Deserialize)]
struct LessonData {
    boards: BTreeMap<String, BoardText>,
    presets: BTreeMap<String, PresetText>,
    departures: BTreeMap<String, DepartureText>,
    framing: FramingText,
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
    departure_with(id, n, Audience::General, &Options::default())
}

/// The departure sentence `id` in `audience`'s words: the young have their
/// own, the general and scholar audiences share one. The board's own words
/// fill it (`{creek}` is a torrent on the A4 square), and `n` fills `{n}`.
fn departure_with(
    id: &str,
    n: Option<u8>,
    audience: Audience,
    options: &Options,
) -> Option<CitedText> {
    DATA.departures.get(id).map(|d| {
        let text = if audience == Audience::Young {
            &d.young
        } else {
            &d.text
        };
        let n = n.map(|n| n.to_string()).unwrap_or_default();
        CitedText {
            text: BoardVars::new(catalogue(), options, audience).fill(text, &[("n", &n)]),
            citations: d.citations.clone(),
        }
    })
}

/// The lesson for `preset` in `audience`'s words.
#[must_use]
pub fn lesson(preset: Preset, audience: Audience) -> Lesson {
    let o: Options = preset.options();
    let base = Options::default();
    let departure_for =
        |id: &str, n: Option<u8>, audience: Audience| departure_with(id, n, audience, &o);
    let players = preset.default_players();
    let mut sections = Vec::new();
    let board_key = key(o.board);
    if let Some(b) = DATA.boards.get(board_key) {
        let dep = (o.board != base.board).then(|| departure_for("board.square28", None, audience));
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
                .then(|| {
                    departure_for(
                        &format!("throw_table.{}", key(o.throw_table)),
                        None,
                        audience,
                    )
                })
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
                .then(|| departure_for("turn_order.alternate", None, audience))
                .flatten(),
            (players > 1)
                .then(|| departure_for("players", Some(players), audience))
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
                .then(|| departure_for("deadly_north_bank.far", None, audience))
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
                .then(|| {
                    departure_for(
                        &format!("own_last_space.{}", key(o.own_last_space)),
                        None,
                        audience,
                    )
                })
                .flatten(),
            (o.overshoot != base.overshoot)
                .then(|| departure_for("overshoot.no_move", None, audience))
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
                .then(|| {
                    departure_for(&format!("dry_branch.{}", key(o.dry_branch)), None, audience)
                })
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
                .then(|| departure_for("counters_per_side", Some(o.counters_per_side), audience))
                .flatten(),
            o.circuits_to_win
                .and_then(|n| departure_for("circuits_to_win", Some(n), audience)),
            (o.end_check == EndCheck::AfterMove)
                .then(|| departure_for("end_check.after_move", None, audience))
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
            text: text
                .map(|t| {
                    if audience == Audience::Young {
                        t.young.clone()
                    } else {
                        t.summary.clone()
                    }
                })
                .unwrap_or_default(),
            citations: text.map(|t| t.citations.clone()).unwrap_or_default(),
        },
        sections,
    }
}

/// What a game played with `options` is (a Kiowa race game, with the
/// ruleset's counters per side) and where its rules come from, in
/// `audience`'s words, then the note that no Kiowa educator has reviewed
/// the narration: the summary of the preset whose options these are, or a
/// note that the game mixes options of its own.
#[must_use]
pub fn framing(options: &Options, audience: Audience) -> CitedText {
    let framing = &DATA.framing;
    let preset = preset_text(options);
    let (text, citations) = match preset {
        Some(p) => (
            if audience == Audience::Young {
                &p.young
            } else {
                &p.summary
            },
            &p.citations,
        ),
        None => (
            if audience == Audience::Young {
                &framing.custom.young
            } else {
                &framing.custom.text
            },
            &framing.custom.citations,
        ),
    };
    let intro = if audience == Audience::Young {
        &framing.intro.young
    } else {
        &framing.intro.text
    }
    .replace("{counters}", &options.counters_per_side.to_string());
    CitedText {
        text: format!("{intro} {text} {}", framing.review.get(audience)),
        citations: framing_citations(citations),
    }
}

/// The framing of a game at `brief` detail, one line: what game it is,
/// whose rules these are, and that no Kiowa educator has reviewed the
/// narration.
#[must_use]
pub fn brief_framing(options: &Options, audience: Audience) -> CitedText {
    let framing = &DATA.framing;
    let preset = preset_text(options);
    let rules = preset.map_or(&framing.custom_brief, |p| &p.brief);
    let citations = preset.map_or(&framing.custom.citations, |p| &p.citations);
    CitedText {
        text: format!(
            "{} {}",
            framing
                .brief
                .get(audience)
                .replace("{rules}", rules.get(audience)),
            framing.review.get(audience)
        ),
        citations: framing_citations(citations),
    }
}

/// The text of the preset whose options these are, if any.
fn preset_text(options: &Options) -> Option<&'static PresetText> {
    Preset::ALL
        .into_iter()
        .find(|p| p.options() == *options)
        .and_then(|p| DATA.presets.get(key(p)))
}

/// The framing's citations: the introduction's, then the rules' own.
fn framing_citations(rules: &[Citation]) -> Vec<Citation> {
    let mut cites = DATA.framing.intro.citations.clone();
    for c in rules {
        if !cites.contains(c) {
            cites.push(c.clone());
        }
    }
    cites
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
