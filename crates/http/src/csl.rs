//! The bibliography's CSL-JSON items: served as the catalogue holds them,
//! documented field by field.

use serde::Serialize;
use utoipa::ToSchema;

use crate::narration::{Reading, Source};

/// A bibliography entry as a CSL-JSON item, written as the catalogue holds
/// it (the schema documents it: [`CslItemDoc`]).
#[derive(Debug, Serialize, ToSchema)]
#[schema(value_type = CslItemDoc)]
pub struct CslItem(serde_json::Map<String, serde_json::Value>);

impl CslItem {
    /// The item of `source`.
    #[must_use]
    pub fn of(source: &Source) -> Self {
        Self(source.csl.clone())
    }
}

/// A bibliography entry as a CSL-JSON item (the CSL 1.0 data schema), with
/// its rights status and how the research reached it in `custom`. As CSL-JSON
/// does, an item leaves out the fields its source does not have.
#[derive(Serialize, ToSchema)]
#[schema(as = CslItem, example = json!({
    "id": "culin1907", "type": "report",
    "title": "Games of the North American Indians",
    "author": [{"family": "Culin", "given": "Stewart"}],
    "issued": {"date-parts": [[1907]]},
    "note": "Culin's survey of the games of North America.",
    "custom": {"rights": "public-domain", "kind": "primary", "read": "part", "seen": "Read in scans."}
}))]
#[serde(rename_all = "kebab-case")]
pub struct CslItemDoc {
    /// The source's id, cited by narration segments.
    pub id: String,
    /// The CSL item type (`book`, `chapter`, `webpage`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// The title.
    pub title: String,
    /// A short title.
    #[schema(required = false, nullable = false)]
    pub title_short: Option<String>,
    /// Authors.
    #[schema(required = false, nullable = false)]
    pub author: Option<Vec<CslName>>,
    /// The book, journal or site it is part of.
    #[schema(required = false, nullable = false)]
    pub container_title: Option<String>,
    /// Pages in the container.
    #[schema(required = false, nullable = false)]
    pub page: Option<String>,
    /// The first page.
    #[schema(required = false, nullable = false)]
    pub page_first: Option<String>,
    /// The volume.
    #[schema(required = false, nullable = false)]
    pub volume: Option<String>,
    /// The edition.
    #[schema(required = false, nullable = false)]
    pub edition: Option<String>,
    /// The version (software).
    #[schema(required = false, nullable = false)]
    pub version: Option<String>,
    /// The genre.
    #[schema(required = false, nullable = false)]
    pub genre: Option<String>,
    /// The publisher.
    #[schema(required = false, nullable = false)]
    pub publisher: Option<String>,
    /// Where it was published.
    #[schema(required = false, nullable = false)]
    pub publisher_place: Option<String>,
    /// The first publisher of a reprint.
    #[schema(required = false, nullable = false)]
    pub original_publisher: Option<String>,
    /// When it was issued.
    #[schema(required = false, nullable = false)]
    pub issued: Option<CslDate>,
    /// When a reprint was first issued.
    #[schema(required = false, nullable = false)]
    pub original_date: Option<CslDate>,
    /// Where it can be read.
    #[serde(rename = "URL")]
    #[schema(required = false, nullable = false)]
    pub url: Option<String>,
    /// Its DOI.
    #[serde(rename = "DOI")]
    #[schema(required = false, nullable = false)]
    pub doi: Option<String>,
    /// Its ISBN.
    #[serde(rename = "ISBN")]
    #[schema(required = false, nullable = false)]
    pub isbn: Option<String>,
    /// What it holds for the game, in the project's words.
    pub note: String,
    /// Rights status and how the research reached it.
    pub custom: CslCustom,
}

/// A CSL name: `family` and `given`, or a `literal` (an organisation).
#[derive(Serialize, ToSchema)]
pub struct CslName {
    /// Family name.
    #[schema(required = false, nullable = false)]
    pub family: Option<String>,
    /// Given names.
    #[schema(required = false, nullable = false)]
    pub given: Option<String>,
    /// The whole name, for an organisation.
    #[schema(required = false, nullable = false)]
    pub literal: Option<String>,
}

/// A CSL date: `date-parts`, one `[year, month, day]` list (month and day
/// optional).
#[derive(Serialize, ToSchema)]
pub struct CslDate {
    /// The date's parts.
    #[serde(rename = "date-parts")]
    #[schema(min_items = 1, max_items = 2)]
    pub date_parts: Vec<Vec<i32>>,
}

/// What kind of source it is.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[expect(
    dead_code,
    reason = "the schema of a value the catalogue holds as text"
)]
pub enum SourceKind {
    /// A period account, or a Kiowa-authored page speaking for itself.
    Primary,
    /// Scholarship, reference works and research databases that summarise
    /// or code the primary texts.
    Secondary,
    /// Blogs, wikis, craft sites, print-and-play sheets and commercial
    /// editions.
    ModernRetelling,
    /// This service's own work, not a historical source: its computation
    /// from the ruleset (the exact odds), its reading of the A4 sheet's
    /// board, its decisions where the sources are silent.
    OwnComputation,
}

/// What the project records of a source beside CSL's fields.
#[derive(Serialize, ToSchema)]
pub struct CslCustom {
    /// Its rights status, e.g. `public-domain`, `in-copyright`, `cc-by-sa`,
    /// `unknown`.
    pub rights: String,
    /// `primary`, `secondary`, `modern_retelling` or `own_computation`.
    pub kind: SourceKind,
    /// How much of it was read.
    pub read: Reading,
    /// What of it was seen, and where.
    pub seen: String,
    /// The locators seen in it.
    #[schema(required = false, nullable = false)]
    pub locators_seen: Option<Vec<String>>,
    /// Locators others report for it, each with where the report comes from.
    #[schema(required = false, nullable = false)]
    pub locators_reported: Option<std::collections::BTreeMap<String, String>>,
    /// For each locator in `locators_reported`, the id of the source that
    /// reports it (cited beside it wherever it is cited).
    #[schema(required = false, nullable = false)]
    pub locators_reported_by: Option<std::collections::BTreeMap<String, String>>,
    /// Locators known only through another source's quotation, each with
    /// the id of the source that quotes it.
    #[schema(required = false, nullable = false)]
    pub locators_quoted: Option<std::collections::BTreeMap<String, String>>,
    /// Ids of the sources it is quoted in.
    #[schema(required = false, nullable = false)]
    pub quoted_in: Option<Vec<String>>,
    /// Whether a Kiowa author wrote it.
    #[schema(required = false, nullable = false)]
    pub kiowa_authored: Option<bool>,
}
