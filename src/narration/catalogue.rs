//! The narration catalogue: templates, rules, facts, sources and glossary,
//! parsed once from the JSON embedded in the binary.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A pointer into the bibliography: `source` is an id of
/// `GET /v1/sources`, `locator` the pages where known (e.g. `pp. 124-130`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Citation {
    /// Id of a source in the bibliography.
    pub source: String,
    /// Pages or section, where the bibliography gives them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
}

/// Phrasings of one event, per audience.
#[derive(Clone, Debug, Deserialize)]
pub struct Phrasings {
    /// For the general audience (at least one).
    pub general: Vec<String>,
    /// For ages 7-10.
    #[serde(default)]
    pub young: Vec<String>,
    /// For scholars.
    #[serde(default)]
    pub scholar: Vec<String>,
}

/// A rule statement with its sources.
#[derive(Clone, Debug, Deserialize)]
pub struct RuleText {
    /// For the general audience.
    pub general: String,
    /// For ages 7-10.
    pub young: Option<String>,
    /// For scholars.
    pub scholar: Option<String>,
    /// Where the rule comes from.
    pub citations: Vec<Citation>,
}

/// Words the templates splice in.
#[derive(Clone, Debug, Deserialize)]
pub struct Words {
    /// Count words 0..=4 ("no", "one", ...).
    pub counts: Vec<String>,
    /// Phrase for the sahe showing its flat face, per audience.
    pub sahe_up: BTreeMap<String, String>,
    /// Phrase for the sahe showing its round face, per audience.
    pub sahe_down: BTreeMap<String, String>,
}

/// The templates file.
#[derive(Clone, Debug, Deserialize)]
pub struct Templates {
    /// Event phrasings by template key.
    pub events: BTreeMap<String, Phrasings>,
    /// Rule statements by rule id.
    pub rules: BTreeMap<String, RuleText>,
    /// Spliced words.
    pub words: Words,
}

/// A cultural-context fact (rules-research.md section 6).
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// Where the fact comes from.
    pub citations: Vec<Citation>,
}

#[derive(Deserialize)]
struct FactsFile {
    facts: Vec<Fact>,
}

/// A glossary term.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// Where the meaning comes from.
    pub citations: Vec<Citation>,
}

#[derive(Deserialize)]
struct GlossaryFile {
    terms: Vec<GlossaryTerm>,
}

/// A bibliography entry: a CSL-JSON item, kept as JSON so every CSL field
/// passes through unchanged; `id` is its stable id.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Source {
    /// The CSL-JSON item.
    #[serde(flatten)]
    pub csl: serde_json::Map<String, serde_json::Value>,
}

impl Source {
    /// The item's `id`.
    #[must_use]
    pub fn id(&self) -> &str {
        self.csl
            .get("id")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
    }
}

/// Feature names per audience, keyed `ordinary`, `dry_branch_east`, ...
pub type FeatureWords = BTreeMap<String, BTreeMap<String, String>>;

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
        Ok(Self {
            templates: parse("templates.json", include_str!("data/templates.json"))?,
            facts: parse::<FactsFile>("facts.json", include_str!("data/facts.json"))?.facts,
            sources: parse("sources.json", include_str!("data/sources.json"))?,
            glossary: parse::<GlossaryFile>("glossary.json", include_str!("data/glossary.json"))?
                .terms,
            features: parse("features.json", include_str!("data/features.json"))?,
        })
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
