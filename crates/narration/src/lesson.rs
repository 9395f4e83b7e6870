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
use super::section::Section;
use super::statement::rule_statement;
use super::template::{BoardVars, plural_s};
use super::vocabulary::{Audience, Citation};
use crate::rules::{Options, Preset};

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
    /// How long a game of the preset runs on average (with its usual
    /// players), from the solved chain of its rules: told by the framing.
    length: DepartureText,
    /// The framing's first sentence for a preset that is not the game as
    /// recorded (a modern version), in place of the framing's `intro`.
    #[serde(default)]
    intro: Option<Words>,
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
    /// Said after the summary of a preset played with another number of
    /// counters a side (`{n}`; the preset's own is `{usual}`).
    counters: DepartureText,
    /// The note on the spelling of Kiowa words in a young framing (the
    /// general and scholar audiences read it in the summary).
    spelling_young: String,
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

/// The lesson for `preset` in `audience`'s words: each [`Section`] in
/// order, with the rules it states for the preset and the departure of
/// each of the preset's options taught there whose value is not the
/// composite's.
#[must_use]
pub fn lesson(preset: Preset, audience: Audience) -> Lesson {
    let o: Options = preset.options();
    let base = Options::default().named_values();
    let players = preset.default_players();
    // The departures of the options whose values are not the composite's,
    // each with its section: `option.value` for a choice, `option` with
    // {n} for a count.
    let departures: Vec<(Section, CitedText)> = o
        .named_values()
        .into_iter()
        .zip(base)
        .filter(|((_, value), (_, composite))| value != composite)
        .filter_map(|((name, value), _)| {
            let section = Section::of_option(name)?;
            departure_with(&format!("{name}.{value}"), None, audience, &o)
                .or_else(|| departure_with(name, value.parse().ok(), audience, &o))
                .map(|d| (section, d))
        })
        .chain(
            (players > 1)
                .then(|| departure_with("players", Some(players), audience, &o))
                .flatten()
                .map(|d| (Section::Turn, d)),
        )
        .collect();
    let mut sections = Vec::new();
    for section in Section::ALL {
        let departures: Vec<CitedText> = departures
            .iter()
            .filter(|(s, _)| *s == section)
            .map(|(_, d)| d.clone())
            .collect();
        let (title, text, citations) = if section == Section::Board {
            let Some(b) = DATA.boards.get(key(o.board)) else {
                continue;
            };
            let text = if audience == Audience::Young {
                &b.young
            } else {
                &b.text
            };
            (b.title.clone(), text.clone(), b.citations.clone())
        } else {
            let (text, citations) = rules_text(&o, &section.rules(&o), audience);
            (
                section.title(&o).unwrap_or_default().to_owned(),
                text,
                citations,
            )
        };
        sections.push(LessonSection {
            id: section.id().to_owned(),
            title,
            text,
            citations,
            departures,
        });
    }

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
    if audience == Audience::Young {
        return young_framing(options);
    }
    let (preset, counters) = preset_near(options);
    let (text, citations) = match preset {
        Some(p) => (&p.summary, &p.citations),
        None => (&framing.custom.text, &framing.custom.citations),
    };
    let intro = intro_of(preset, audience)
        .replace("{counters}", &options.counters_per_side.to_string())
        .replace("{counters_s}", plural_s(options.counters_per_side));
    let (length, length_citations) = preset_length(preset_text(options), audience);
    let mut citations = framing_citations(citations);
    citations.extend(length_citations);
    let counters = counters.map_or_else(String::new, |(n, usual)| {
        extend_citations(&mut citations, &framing.counters.citations);
        format!(" {}", counters_text(&framing.counters.text, n, usual))
    });
    CitedText {
        text: format!(
            "{intro} {text}{counters}{length} {}",
            framing.review.get(audience)
        ),
        citations,
    }
}

/// The preset whose options these are but for the counters a side, and,
/// when they differ, the game's counters and the preset's own; `None` for
/// options of no preset (a teacher may play a preset's game shorter, with
/// fewer counting sticks: the sources leave their number open).
fn preset_near(options: &Options) -> (Option<&'static PresetText>, Option<(u8, u8)>) {
    Preset::ALL
        .into_iter()
        .map(|p| (p, p.options()))
        .find(|(_, o)| {
            Options {
                counters_per_side: o.counters_per_side,
                ..*options
            } == *o
        })
        .map_or((None, None), |(p, o)| {
            let usual = o.counters_per_side;
            (
                DATA.presets.get(key(p)),
                (usual != options.counters_per_side).then_some((options.counters_per_side, usual)),
            )
        })
}

/// `text` with the game's counters `n`, the preset's `usual` and whether
/// that is fewer or more (the young hear the number itself once, from the
/// counters' rule: a teacher's trial heard it twice in a row).
fn counters_text(text: &str, n: u8, usual: u8) -> String {
    text.replace("{n}", &n.to_string())
        .replace("{usual}", &usual.to_string())
        .replace("{fewer_or_more}", if n < usual { "fewer" } else { "more" })
        .replace("{counters_s}", plural_s(n))
}

/// `more` added to `citations`, but for those already there.
fn extend_citations(citations: &mut Vec<Citation>, more: &[Citation]) {
    for c in more {
        if !citations.contains(c) {
            citations.push(c.clone());
        }
    }
}

/// The sentence on how long a game of the preset runs, with a space before
/// it, and its citations; nothing for a game of no preset.
fn preset_length(preset: Option<&PresetText>, audience: Audience) -> (String, Vec<Citation>) {
    preset.map_or_else(
        || (String::new(), Vec::new()),
        |p| {
            let text = if audience == Audience::Young {
                &p.length.young
            } else {
                &p.length.text
            };
            (format!(" {text}"), p.length.citations.clone())
        },
    )
}

/// The framing for the young, short so that the first rule comes soon:
/// what game this is, the note on the spelling of Kiowa words (its name
/// among them), what these rules are and where they come from (the
/// preset's `brief` line, or the note that the game mixes options), and the
/// note on review. Who played it follows, as the first move's fact; how
/// long a game runs is for the teacher ([`game_length`]).
fn young_framing(options: &Options) -> CitedText {
    let framing = &DATA.framing;
    let (preset, counters) = preset_near(options);
    let rules = preset.map_or(&framing.custom_brief, |p| &p.brief);
    let citations = preset.map_or(&framing.custom.citations, |p| &p.citations);
    let intro = intro_of(preset, Audience::Young)
        .replace("{counters}", &options.counters_per_side.to_string())
        .replace("{counters_s}", plural_s(options.counters_per_side));
    let mut citations = framing_citations(citations);
    let counters = counters.map_or_else(String::new, |(n, usual)| {
        extend_citations(&mut citations, &framing.counters.citations);
        format!(" {}", counters_text(&framing.counters.young, n, usual))
    });
    CitedText {
        text: format!(
            "{intro} {} {}{counters} {}",
            framing.spelling_young, rules.young, framing.review.young
        ),
        citations,
    }
}

/// How long a game of the ruleset `options` runs on average with its
/// usual players, in `audience`'s words, cited; `None` for options of no
/// preset. The framing tells it to the general and scholarly audiences; a
/// teacher of the young reads it beside the lesson (the transcript's note).
#[must_use]
pub fn game_length(options: &Options, audience: Audience) -> Option<CitedText> {
    let (text, citations) = preset_length(preset_text(options), audience);
    (!text.is_empty()).then(|| CitedText {
        text: text.trim_start().to_owned(),
        citations,
    })
}

/// The framing of a game at `brief` detail, one line: what game it is,
/// whose rules these are, and that no Kiowa educator has reviewed the
/// narration.
#[must_use]
pub fn brief_framing(options: &Options, audience: Audience) -> CitedText {
    let framing = &DATA.framing;
    let (preset, _) = preset_near(options);
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

/// The framing's first sentence for `audience`: the preset's own, or the
/// framing's.
fn intro_of(preset: Option<&'static PresetText>, audience: Audience) -> &'static str {
    match preset.and_then(|p| p.intro.as_ref()) {
        Some(words) => words.get(audience),
        None if audience == Audience::Young => &DATA.framing.intro.young,
        None => &DATA.framing.intro.text,
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

#[cfg(test)]
mod tests;
