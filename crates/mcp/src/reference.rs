//! The reference tools' answers: a rule, a fact, a lesson, a source, the
//! glossary, the board; each a text block and structured content with its
//! output schema, so a model can read either.

use schemars::JsonSchema;
use serde::Serialize;

use super::answer::{GameBrief, cite};
use super::args::SourceFormat;
use super::library::clip;
use crate::narration::{
    Audience, Citation, RuleId, Seen, bibtex, catalogue, lesson, rule_statement,
};
use crate::rules::{Options, Preset};

/// A source a text cites.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CitationBrief {
    /// The source's id in the bibliography (`get_source` gives it).
    pub source: String,
    /// Pages or section; empty where the bibliography gives none.
    pub locator: String,
    /// False when what is cited (the pages in `locator`, or the source
    /// where none are given) was not seen by those who wrote the text:
    /// another source reports or quotes it.
    pub locator_seen: bool,
}

fn citations(cites: &[Citation]) -> Vec<CitationBrief> {
    cites
        .iter()
        .map(|c| CitationBrief {
            source: c.source.clone(),
            locator: c.locator.clone().unwrap_or_default(),
            locator_seen: c.seen() == Seen::Seen,
        })
        .collect()
}

/// The answer to `explain_rule`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RuleOutput {
    /// The rule's id.
    pub rule_id: String,
    /// The ruleset it is worded for (the game's, when a game was given).
    pub preset: String,
    /// The game it is worded for; empty when a preset was given.
    pub game_id: String,
    /// The audience it is worded for.
    pub audience: String,
    /// Whether the ruleset's games (or the game given) can call for this
    /// rule: a narration of such a game states no other rule.
    pub in_play: bool,
    /// The rule in full.
    pub statement: String,
    /// Its sources.
    pub citations: Vec<CitationBrief>,
}

/// Where a rule is asked about: a preset's games, or one game.
pub struct RuleContext {
    /// The ruleset's preset.
    pub preset: Preset,
    /// Its options.
    pub options: Options,
    /// Whether a side has more than one player.
    pub teams: bool,
    /// The game, if one was given.
    pub game_id: String,
}

/// A rule in full for `audience`, worded for `at`, and whether it is in
/// play there.
///
/// # Errors
/// The narration has no statement of the rule.
pub fn rule(
    at: &RuleContext,
    audience: Audience,
    rule: RuleId,
) -> Result<(String, RuleOutput), String> {
    let preset: &str = at.preset.into();
    let Some((statement, cites)) = rule_statement(&at.options, audience, rule) else {
        return Err(format!(
            "the {preset} ruleset has no statement of {}",
            rule.key()
        ));
    };
    let in_play = rule.applies(&at.options, at.teams);
    let whose = if at.game_id.is_empty() {
        format!("the {preset} ruleset's games")
    } else {
        "this game".to_owned()
    };
    let play = if in_play {
        format!("In play in {whose}.")
    } else {
        format!("Not in play in {whose}: they never call for it.")
    };
    let text = format!("{statement}{}\n{play}", cite(&cites));
    Ok((
        text,
        RuleOutput {
            rule_id: rule.key().to_owned(),
            preset: preset.to_owned(),
            game_id: at.game_id.clone(),
            audience: <&str>::from(audience).to_owned(),
            in_play,
            statement,
            citations: citations(&cites),
        },
    ))
}

/// The answer to `get_fact`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FactOutput {
    /// The fact's id.
    pub fact_id: String,
    /// The audience it is told for.
    pub audience: String,
    /// The fact.
    pub text: String,
    /// How well it is evidenced (`documented`, ...).
    pub evidence: String,
    /// Its sources.
    pub citations: Vec<CitationBrief>,
}

/// The id in what a model pastes: a citation as printed (`culin1907 pp.
/// 124-130`, `[wp-zohnahl]`), or an id as a text names it (`fact
/// womens-game`).
#[must_use]
pub fn bare_id(raw: &str) -> &str {
    let t = raw.trim().trim_start_matches('[').trim();
    let t = ["fact ", "rule ", "source "]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t)
        .trim_start();
    t.split(|c: char| c.is_whitespace() || matches!(c, ';' | ',' | ']'))
        .next()
        .unwrap_or_default()
}

/// Edits (insertions, deletions, substitutions) from `a` to `b`.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The ids nearest `wanted`, at most three: those that hold it (or that it
/// holds) first, then the fewest edits away.
#[must_use]
pub fn nearest<'a>(wanted: &str, ids: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let w = wanted.to_lowercase();
    let mut ranked: Vec<(usize, &str)> = ids
        .map(|id| {
            let held = !w.is_empty() && (id.contains(w.as_str()) || w.contains(id));
            (if held { 0 } else { 1 + distance(&w, id) }, id)
        })
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().take(3).map(|(_, id)| id).collect()
}

/// A fact for `audience`, by its id or as a text names it.
///
/// # Errors
/// No fact has the id: the nearest ids are suggested.
pub fn fact(id: &str, audience: Audience) -> Result<(String, FactOutput), String> {
    let cat = catalogue();
    let wanted = bare_id(id);
    let Some(fact) = cat.fact_index(wanted).and_then(|i| cat.facts.get(i)) else {
        let near = nearest(wanted, cat.facts.iter().map(|f| f.id.as_str()));
        return Err(format!(
            "no fact has the id {}; nearest: {} (the ids are the `fact` of narration sentences)",
            clip(id),
            near.join(", ")
        ));
    };
    let body = match audience {
        Audience::Young => &fact.young,
        Audience::General => &fact.general,
        Audience::Scholar => &fact.scholar,
    };
    let evidence: &str = fact.grade.into();
    let text = format!("{body}{} (evidence: {evidence})", cite(&fact.citations));
    Ok((
        text,
        FactOutput {
            fact_id: fact.id.clone(),
            audience: <&str>::from(audience).to_owned(),
            text: body.clone(),
            evidence: evidence.to_owned(),
            citations: citations(&fact.citations),
        },
    ))
}

/// The answer to `get_lesson`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LessonOutput {
    /// The ruleset.
    pub preset: String,
    /// The audience.
    pub audience: String,
    /// The lesson's title.
    pub title: String,
    /// Its sections' headings, in teaching order.
    pub sections: Vec<String>,
    /// Every source it cites, each once.
    pub sources: Vec<String>,
}

/// A ruleset's lesson: the Markdown text, and its outline.
#[must_use]
pub fn lesson_outline(preset: Preset, audience: Audience) -> (String, LessonOutput) {
    let l = lesson(preset, audience);
    let mut sources: Vec<String> = Vec::new();
    let cited = l
        .summary
        .citations
        .iter()
        .chain(l.sections.iter().flat_map(|s| {
            s.citations
                .iter()
                .chain(s.departures.iter().flat_map(|d| d.citations.iter()))
        }));
    for c in cited {
        if !sources.contains(&c.source) {
            sources.push(c.source.clone());
        }
    }
    let output = LessonOutput {
        preset: <&str>::from(preset).to_owned(),
        audience: <&str>::from(audience).to_owned(),
        title: l.title.clone(),
        sections: l.sections.iter().map(|s| s.title.clone()).collect(),
        sources,
    };
    (super::library::lesson_text(preset, audience), output)
}

/// The answer to `get_source`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SourceOutput {
    /// The source's id.
    pub source_id: String,
    /// Its title.
    pub title: String,
    /// `csl` or `bibtex`.
    pub format: String,
    /// The entry: a CSL-JSON item or a BibTeX entry, as text.
    pub entry: String,
}

/// A source as CSL-JSON or BibTeX, by its id or a citation as printed.
///
/// # Errors
/// No source has the id: the nearest ids are suggested.
pub fn source(id: &str, format: SourceFormat) -> Result<(String, SourceOutput), String> {
    let cat = catalogue();
    let wanted = bare_id(id);
    let source = cat.source(wanted).ok_or_else(|| {
        let near = nearest(wanted, cat.sources.iter().map(|s| s.id()));
        format!(
            "no source has the id {}; nearest: {} (the resources list the bibliography)",
            clip(id),
            near.join(", ")
        )
    })?;
    let (entry, name) = match format {
        SourceFormat::Csl => (
            serde_json::to_string_pretty(source).map_err(|e| e.to_string())?,
            "csl",
        ),
        SourceFormat::Bibtex => (bibtex(source).map_err(|e| e.to_string())?, "bibtex"),
    };
    let title = source
        .csl
        .get("title")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_owned();
    Ok((
        entry.clone(),
        SourceOutput {
            source_id: source.id().to_owned(),
            title,
            format: name.to_owned(),
            entry,
        },
    ))
}

/// A glossary term.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TermBrief {
    /// The term's id.
    pub id: String,
    /// The term as written.
    pub term: String,
    /// `Kiowa`, `Arapaho` or `English`.
    pub language: String,
    /// What it means, for the audience asked for.
    pub meaning: String,
    /// Its sources.
    pub citations: Vec<CitationBrief>,
}

/// The answer to `search_glossary`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GlossaryOutput {
    /// The word looked for.
    pub query: String,
    /// The matching terms (at most eight); none when nothing matches.
    pub terms: Vec<TermBrief>,
}

/// Most terms one search gives.
const TERMS: usize = 8;

/// The glossary terms whose term, id or meaning contains `query`, without
/// regard to case.
///
/// # Errors
/// A query that is empty or longer than 40 characters.
pub fn glossary(query: &str, audience: Audience) -> Result<(String, GlossaryOutput), String> {
    let q = query.trim().to_lowercase();
    let chars = q.chars().count();
    if chars == 0 || chars > 40 {
        return Err(format!(
            "`query`: must be from 1 to 40 characters, got {chars}"
        ));
    }
    let hits: Vec<_> = catalogue()
        .glossary
        .iter()
        .filter(|t| {
            t.term.to_lowercase().contains(&q)
                || t.id.contains(&q)
                || t.meaning.to_lowercase().contains(&q)
        })
        .take(TERMS)
        .collect();
    let meaning = |t: &crate::narration::GlossaryTerm| {
        if audience == Audience::Young {
            t.young.clone()
        } else {
            t.meaning.clone()
        }
    };
    let text = if hits.is_empty() {
        format!("The glossary has no term matching {}.", clip(query))
    } else {
        hits.iter()
            .map(|t| {
                format!(
                    "{} ({}): {}{}",
                    t.term,
                    t.language,
                    meaning(t),
                    cite(&t.citations)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let terms = hits
        .iter()
        .map(|t| TermBrief {
            id: t.id.clone(),
            term: t.term.clone(),
            language: t.language.clone(),
            meaning: meaning(t),
            citations: citations(&t.citations),
        })
        .collect();
    Ok((
        text,
        GlossaryOutput {
            query: query.trim().to_owned(),
            terms,
        },
    ))
}

/// The answer to `get_board`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BoardOutput {
    /// The move the board is drawn after (0: the board now).
    #[serde(rename = "move")]
    pub move_n: u32,
    /// The game as the board shows it.
    pub game: GameBrief,
}
