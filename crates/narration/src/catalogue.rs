//! The narration catalogue: templates, rules, facts, sources and glossary,
//! parsed once from the JSON embedded in the binary.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

pub use super::source::{Source, year_issued};
use super::vocabulary::{Audience, Citation, Reading};
use crate::rules::{Board, Options, OptionsCondition, SpinnerSector};

/// Phrasings of one event (or of a rule's short form), per audience.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phrasings {
    /// For the general audience (at least two, so that consecutive moves
    /// can always be told in different words).
    pub general: Vec<String>,
    /// For ages 7-10.
    pub young: Vec<String>,
    /// For scholars.
    pub scholar: Vec<String>,
}

impl Phrasings {
    /// The list for `audience`.
    #[must_use]
    pub fn for_audience(&self, audience: Audience) -> &[String] {
        match audience {
            Audience::Young => &self.young,
            Audience::General => &self.general,
            Audience::Scholar => &self.scholar,
        }
    }

    /// Every phrasing, all audiences.
    pub fn all(&self) -> impl Iterator<Item = &String> {
        self.general.iter().chain(&self.young).chain(&self.scholar)
    }
}

/// One text per audience.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerAudience<T> {
    /// For the general audience.
    pub general: T,
    /// For ages 7-10.
    pub young: T,
    /// For scholars.
    pub scholar: T,
}

impl<T> PerAudience<T> {
    /// The value for `audience`.
    #[must_use]
    pub fn get(&self, audience: Audience) -> &T {
        match audience {
            Audience::Young => &self.young,
            Audience::General => &self.general,
            Audience::Scholar => &self.scholar,
        }
    }

    /// The three values, general first.
    pub fn all(&self) -> impl Iterator<Item = &T> {
        [&self.general, &self.young, &self.scholar].into_iter()
    }
}

/// A rule statement with its sources: the full statement per audience,
/// short restatements for a rule already stated in full, and two lists of
/// citations.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleText {
    /// For the general audience.
    pub general: String,
    /// For ages 7-10.
    pub young: String,
    /// For scholars.
    pub scholar: String,
    /// Short restatements, per audience (at least two each).
    pub short: Phrasings,
    /// The one or two sources that carry the rule: cited by event sentences
    /// and short restatements.
    pub cite: Vec<Citation>,
    /// Every source the full statements draw on.
    pub citations: Vec<Citation>,
    /// What the rule's sentences cite on a board whose own source names
    /// what they tell (the A4 sheet's rule for the square board's torrent,
    /// say): in place of `cite` there (a curator's trial: the square
    /// board's torrent cited Culin, who never saw that board), and beside
    /// `citations`.
    #[serde(default)]
    pub on_board: HashMap<Board, Vec<Citation>>,
    /// The scholars' full statement on a board whose own sources tell the
    /// rule (the A4 sheet's, for the square), with every source it draws
    /// on, in place of `scholar` and `citations` there (a curator's trial:
    /// on the square board the scholars heard that the circle's sources
    /// agree on own 14, and "29 minus a" cited the circle's numbering).
    #[serde(default)]
    pub scholar_on_board: HashMap<Board, BoardStatement>,
}

/// A full statement of a rule on one board, with its sources.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardStatement {
    /// The statement.
    pub text: String,
    /// Every source it draws on.
    pub citations: Vec<Citation>,
}

impl RuleText {
    /// The one or two sources that carry the rule: on a board with its
    /// own, those.
    #[must_use]
    pub fn cite_on(&self, board: Board) -> Vec<Citation> {
        self.on_board
            .get(&board)
            .map_or_else(|| self.cite.clone(), Clone::clone)
    }

    /// Every source the full statements draw on, with the board's own.
    #[must_use]
    pub fn citations_on(&self, board: Board) -> Vec<Citation> {
        self.with_board(&self.citations, board)
    }

    /// Every source the full statement for `audience` draws on, on
    /// `board`: the scholars' own statement's there, if the board has one.
    #[must_use]
    pub fn full_citations_on(&self, audience: Audience, board: Board) -> Vec<Citation> {
        match (audience, self.scholar_on_board.get(&board)) {
            (Audience::Scholar, Some(own)) => own.citations.clone(),
            _ => self.citations_on(board),
        }
    }

    /// The full statement for `audience` on `board`: the scholars' own
    /// statement there, if the board has one.
    #[must_use]
    pub fn full_on(&self, audience: Audience, board: Board) -> &str {
        match (audience, self.scholar_on_board.get(&board)) {
            (Audience::Scholar, Some(own)) => &own.text,
            _ => self.full(audience),
        }
    }

    fn with_board(&self, base: &[Citation], board: Board) -> Vec<Citation> {
        let mut all = base.to_vec();
        for c in self.on_board.get(&board).into_iter().flatten() {
            if !all.contains(c) {
                all.push(c.clone());
            }
        }
        all
    }

    /// The full statement for `audience`.
    #[must_use]
    pub fn full(&self, audience: Audience) -> &str {
        match audience {
            Audience::Young => &self.young,
            Audience::General => &self.general,
            Audience::Scholar => &self.scholar,
        }
    }
}

/// How the sahe is spoken of after a throw of one or three flat faces.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaheWords {
    /// One flat face, and it is the sahe (phrasings, used in turn).
    pub one_with: Vec<String>,
    /// One flat face, not the sahe.
    pub one_without: Vec<String>,
    /// Three flat faces, the sahe among them.
    pub three_with: Vec<String>,
    /// Three flat faces, the sahe not among them.
    pub three_without: Vec<String>,
}

/// The spinner's sectors in words.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectorWords {
    /// 10, spin again.
    pub ten: String,
    /// 1.
    pub one: String,
    /// Blue 1, spin again.
    pub blue_one: String,
    /// 2.
    pub two: String,
    /// 3.
    pub three: String,
    /// Blue 3, spin again.
    pub blue_three: String,
    /// 6, spin again.
    pub six: String,
}

impl SectorWords {
    /// The words for `sector`.
    #[must_use]
    pub fn of(&self, sector: SpinnerSector) -> &str {
        match sector {
            SpinnerSector::Ten => &self.ten,
            SpinnerSector::One => &self.one,
            SpinnerSector::BlueOne => &self.blue_one,
            SpinnerSector::Two => &self.two,
            SpinnerSector::Three => &self.three,
            SpinnerSector::BlueThree => &self.blue_three,
            SpinnerSector::Six => &self.six,
        }
    }
}

/// A board's words: what its features are called (Bell's torrent and dry
/// gully on the 28-space board). The `_x` forms are for a first mention and
/// may carry an explanation.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardWords {
    /// The creek, bare (`creek`, `torrent`).
    pub creek: String,
    /// The creek at first mention.
    pub creek_x: String,
    /// The dry branch, bare.
    pub dry_branch: String,
    /// The dry branch at first mention.
    pub dry_branch_x: String,
    /// The dry branches, plural.
    pub dry_branches: String,
    /// The track's shape (`circle`, `square`).
    pub track: String,
    /// A counter, as the board's own account names it (`counting stick`
    /// for the young on the circle, after Culin's sticks; `counter` on the
    /// A4 sheet's square, which has counters).
    pub counter: String,
    /// Counters, plural.
    pub counters: String,
    /// A counter in a caption's fewest words (`stick`, `counter`).
    pub counter_short: String,
}

/// Words the templates splice in.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// "no stick", "one stick", ... "all four sticks", by flat faces up.
    pub flat_sticks: PerAudience<Vec<String>>,
    /// "no flat face", "one flat face", ..., by flat faces up.
    pub flat_faces: PerAudience<Vec<String>>,
    /// The sahe after a throw of one or three flat faces.
    pub sahe: PerAudience<SaheWords>,
    /// The spinner's sectors.
    pub sectors: PerAudience<SectorWords>,
    /// Words of the 40-space circle.
    pub circle40: PerAudience<BoardWords>,
    /// Words of the 28-space square.
    pub square28: PerAudience<BoardWords>,
}

impl Words {
    /// The words of `board`, for each audience: the one place a board's
    /// features get their names (the narration's sentences and the board's
    /// picture both read them here).
    #[must_use]
    pub const fn board(&self, board: Board) -> &PerAudience<BoardWords> {
        match board {
            Board::Circle40 => &self.circle40,
            Board::Square28 => &self.square28,
        }
    }
}

/// The templates file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Templates {
    /// Event phrasings by template key.
    pub events: BTreeMap<String, Phrasings>,
    /// Short phrasings of events, by template key, told at the lesson
    /// detail after the first move: their rule is stated in full when it
    /// first acts, so the event need not explain it again.
    pub lesson: BTreeMap<String, Phrasings>,
    /// The recap's sentences, questions and answers, by key
    /// (`recap::recap_words`).
    pub recap: BTreeMap<String, PerAudience<String>>,
    /// Rule statements by rule id.
    pub rules: BTreeMap<String, RuleText>,
    /// Spliced words.
    pub words: Words,
}

/// How well a fact or a glossary term is evidenced (the scheme of
/// `docs/sources-and-evidence.md`), strongest first: the grade of the
/// weakest evidence behind what the entry is there to tell.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum EvidenceGrade {
    /// A primary text (a period account, or a Kiowa-authored page speaking
    /// for itself) read, on the page cited.
    PrimaryRead,
    /// A primary text's own words, read only as another source quotes them.
    PrimaryQuoted,
    /// Scholarship, reference works and research databases that summarise
    /// or code the primary texts (the Wikipedia article, Ludii, the Digital
    /// Ludeme Project's summaries, Bell, Murray, Winkelman).
    Secondary,
    /// Blogs, wikis, craft sites, print-and-play sheets and commercial
    /// editions: never told to the young or general audience.
    ModernRetelling,
}

/// A cultural-context fact, with the evidence it rests on.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    /// Stable id, kebab-case.
    pub id: String,
    /// Topics, for choosing a fact relevant to an event.
    pub tags: Vec<String>,
    /// For the general audience.
    pub general: String,
    /// For ages 7-10.
    pub young: String,
    /// For scholars.
    pub scholar: String,
    /// How well the fact is evidenced.
    pub grade: EvidenceGrade,
    /// Where the fact comes from (never empty).
    pub citations: Vec<Citation>,
    /// The sources the young text draws on, where it draws on fewer than
    /// the others (a sentence for children that leaves out a scholar's
    /// point cites only what it says); a subset of `citations`.
    #[serde(default, skip_serializing)]
    pub young_citations: Option<Vec<Citation>>,
    /// The audiences the fact may be told to (all three unless the data
    /// narrows it, as for a speculation not told to children); see
    /// [`Fact::told_to`].
    #[serde(default = "every_audience", skip_serializing_if = "is_every_audience")]
    pub audiences: Vec<Audience>,
    /// The rule this fact retells, if it does: the fact is not told on a
    /// move that states that rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Ruleset options this fact presupposes: it is only told in games
    /// whose options match, so a fact about the 40-space cloth is not told
    /// on the 28-cell board.
    #[serde(default, skip_serializing_if = "OptionsCondition::is_empty")]
    pub when: OptionsCondition,
}

fn every_audience() -> Vec<Audience> {
    Audience::ALL.to_vec()
}

fn is_every_audience(audiences: &[Audience]) -> bool {
    Audience::ALL.iter().all(|a| audiences.contains(a))
}

impl Fact {
    /// The sources the text for `audience` cites.
    #[must_use]
    pub fn citations_for(&self, audience: Audience) -> &[Citation] {
        match (&self.young_citations, audience) {
            (Some(young), Audience::Young) => young,
            _ => &self.citations,
        }
    }

    /// Whether the fact fits a game played with `options`.
    #[must_use]
    pub fn fits(&self, options: &Options) -> bool {
        self.when.matches(options)
    }

    /// Whether the fact may be told to `audience`: it must be one of the
    /// fact's audiences, and a fact that rests only on modern retellings
    /// ([`EvidenceGrade::ModernRetelling`]) is told to scholars alone,
    /// whose text attributes it ("According to ..."), never to the young
    /// or general audience.
    #[must_use]
    pub fn told_to(&self, audience: Audience) -> bool {
        self.audiences.contains(&audience)
            && (audience == Audience::Scholar || self.grade != EvidenceGrade::ModernRetelling)
    }

    /// Whether the fact may be told in a game played with `options` and
    /// narrated for `audience`: [`Fact::fits`] and [`Fact::told_to`].
    #[must_use]
    pub fn tellable(&self, options: &Options, audience: Audience) -> bool {
        self.fits(options) && self.told_to(audience)
    }
}

#[derive(Deserialize)]
struct FactsFile {
    facts: Vec<Fact>,
}

/// A glossary term, with the evidence for its meaning.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlossaryTerm {
    /// Stable id, kebab-case ASCII.
    pub id: String,
    /// The term as written (may carry diacritics).
    pub term: String,
    /// `Kiowa`, `Arapaho` or `English`.
    pub language: String,
    /// What it means, in the product's words.
    pub meaning: String,
    /// A simpler explanation for ages 7-10.
    pub young: String,
    /// A pronunciation note, only where a source gives one.
    pub pronunciation: Option<String>,
    /// Ids of related terms.
    #[serde(default)]
    pub related: Vec<String>,
    /// How well the meaning is evidenced.
    pub grade: EvidenceGrade,
    /// Where the meaning comes from (never empty).
    pub citations: Vec<Citation>,
}

#[derive(Deserialize)]
struct GlossaryFile {
    terms: Vec<GlossaryTerm>,
}

/// Feature names per audience, keyed `ordinary`, `dry_branch_east`, ...;
/// `{creek}` and `{dry_branch}` stand for the board's words.
pub type FeatureWords = BTreeMap<String, PerAudience<String>>;

/// Everything the narration reads.
#[derive(Debug)]
pub struct Catalogue {
    /// Event templates, rule statements and words.
    pub templates: Templates,
    /// Cultural-context facts, in telling order.
    pub facts: Vec<Fact>,
    /// The bibliography.
    pub sources: Vec<Source>,
    /// The glossary.
    pub glossary: Vec<GlossaryTerm>,
    /// Feature names.
    pub features: FeatureWords,
    /// Each fact's place in `facts`, by id (looked up for every fact a game
    /// has told, at each of its moves: a fast hash rather than SipHash,
    /// whose resistance to chosen keys the catalogue's own ids need not).
    fact_index: foldhash::HashMap<String, usize>,
}

impl Catalogue {
    /// Parse the embedded data.
    ///
    /// # Errors
    /// The first JSON error met, naming the file.
    pub fn load() -> Result<Self, String> {
        fn parse<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Result<T, String> {
            serde_json::from_str(text).map_err(|e| format!("{name}: {e}"))
        }
        let facts = parse::<FactsFile>("facts.json", include_str!("data/facts.json"))?.facts;
        let fact_index = facts
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id.clone(), i))
            .collect();
        let catalogue = Self {
            templates: parse("templates.json", include_str!("data/templates.json"))?,
            facts,
            fact_index,
            sources: parse("sources.json", include_str!("data/sources.json"))?,
            glossary: parse::<GlossaryFile>("glossary.json", include_str!("data/glossary.json"))?
                .terms,
            features: parse("features.json", include_str!("data/features.json"))?,
        };
        catalogue.check_evidence()?;
        Ok(catalogue)
    }

    /// Every fact and term carries its evidence: at least one citation, each
    /// of a source in the bibliography; a fact has at least one audience.
    fn check_evidence(&self) -> Result<(), String> {
        let sources: HashSet<&str> = self.sources.iter().map(Source::id).collect();
        let cited = |file: &str, id: &str, citations: &[Citation]| {
            if citations.is_empty() {
                return Err(format!("{file}: {id} has no citation"));
            }
            match citations
                .iter()
                .find(|c| !sources.contains(c.source.as_str()))
            {
                Some(c) => Err(format!("{file}: {id} cites unknown source {}", c.source)),
                None => Ok(()),
            }
        };
        for f in &self.facts {
            cited("facts.json", &f.id, &f.citations)?;
            if f.audiences.is_empty() {
                return Err(format!("facts.json: {} is told to no audience", f.id));
            }
        }
        for t in &self.glossary {
            cited("glossary.json", &t.id, &t.citations)?;
        }
        for s in &self.sources {
            let read = s.csl.get("custom").and_then(|c| c.get("read"));
            if read
                .and_then(serde_json::Value::as_str)
                .and_then(|r| r.parse::<Reading>().ok())
                .is_none()
            {
                return Err(format!("sources.json: {} reads {read:?}", s.id()));
            }
        }
        Ok(())
    }

    /// The place in [`Catalogue::facts`] of the fact with this id.
    #[must_use]
    pub fn fact_index(&self, id: &str) -> Option<usize> {
        self.fact_index.get(id).copied()
    }

    /// The source with this id.
    #[must_use]
    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.id() == id)
    }

    /// The glossary term with this id.
    #[must_use]
    pub fn term(&self, id: &str) -> Option<&GlossaryTerm> {
        self.glossary.iter().find(|t| t.id == id)
    }
}

static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(|| {
    // The data is compiled in and checked by the test suite, so a failure
    // here is a build defect, never a user's input.
    Catalogue::load().unwrap_or_else(|e| panic!("embedded narration data is invalid: {e}"))
});

/// The catalogue, parsed on first use.
#[must_use]
pub fn catalogue() -> &'static Catalogue {
    &CATALOGUE
}
