//! Reference resources: the throw tables, the bibliography, the glossary,
//! and health checks.

use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::csl::CslItem;
use super::dto::{CitationView, ProbabilityView};
use super::problem::{ApiError, Problem};
use crate::narration::{Source, catalogue};
use crate::service::Service;
use zohn_ahl_rules::{Face, Odds, SpinnerSector, Throw, ThrowTable};

/// One equally likely outcome of a throw table.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutcomeView {
    /// Each stick's face, the sahe last (stick tables).
    pub sticks: Option<Vec<Face>>,
    /// Flat faces up (stick tables).
    pub flat_faces: Option<u8>,
    /// Whether the sahe is flat up (stick tables).
    pub sahe_flat: Option<bool>,
    /// The sector (spinner).
    pub spinner: Option<SpinnerSector>,
    /// Spaces moved.
    pub value: u8,
    /// Whether the side throws again.
    pub throws_again: bool,
    /// Probability of this exact outcome.
    pub probability: ProbabilityView,
}

/// A distinct result (value and throws-again) with its probability.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResultView {
    /// Spaces moved.
    pub value: u8,
    /// Whether the side throws again.
    pub throws_again: bool,
    /// Probability of this result.
    pub probability: ProbabilityView,
}

/// A throw table with exact probabilities.
#[derive(Debug, Serialize, ToSchema)]
pub struct ThrowTableView {
    /// The table's id (the `throw_table` option).
    pub id: ThrowTable,
    /// How it scores, in words.
    pub description: String,
    /// The equally likely outcomes (16 stick configurations or 7 sectors).
    pub outcomes: Vec<OutcomeView>,
    /// The distinct results.
    pub results: Vec<ResultView>,
    /// Expected spaces per throw, exactly.
    pub expected_value: ProbabilityView,
    /// Probability that a throw earns another throw.
    pub throw_again: ProbabilityView,
    /// Where the table comes from.
    pub citations: Vec<CitationView>,
}

/// All throw tables.
#[derive(Debug, Serialize, ToSchema)]
pub struct SticksView {
    /// One entry per table; `sticks_sahe` is the default.
    pub items: Vec<ThrowTableView>,
}

fn table_view(table: ThrowTable) -> ThrowTableView {
    let outcomes_raw = table.outcomes();
    let n = u32::try_from(outcomes_raw.len()).unwrap_or(1);
    let mut outcomes = Vec::new();
    let mut value_sum = 0u32;
    let mut again = 0u32;
    for throw in &outcomes_raw {
        let Ok(score) = table.score(throw) else {
            continue;
        };
        value_sum += u32::from(score.value);
        again += u32::from(score.throws_again);
        let (sticks, flat_faces, sahe_flat, spinner) = match throw {
            Throw::Sticks(s) => (
                Some(s.faces().to_vec()),
                Some(s.flat_count()),
                Some(s.sahe_flat()),
                None,
            ),
            Throw::Spinner(sector) => (None, None, None, Some(*sector)),
        };
        outcomes.push(OutcomeView {
            sticks,
            flat_faces,
            sahe_flat,
            spinner,
            value: score.value,
            throws_again: score.throws_again,
            probability: Odds::new(1, n).into(),
        });
    }
    let options = zohn_ahl_rules::Options {
        throw_table: table,
        ..zohn_ahl_rules::Options::default()
    };
    let (description, citations) = crate::narration::rule_statement(
        &options,
        crate::narration::Audience::General,
        crate::narration::RuleId::throw_table(table),
    )
    .unwrap_or_default();
    ThrowTableView {
        id: table,
        description,
        results: table
            .results()
            .into_iter()
            .map(|s| ResultView {
                value: s.value,
                throws_again: s.throws_again,
                probability: s.probability.into(),
            })
            .collect(),
        outcomes,
        expected_value: Odds::new(value_sum, n).into(),
        throw_again: Odds::new(again, n).into(),
        citations: citations.iter().map(Into::into).collect(),
    }
}

/// List the throw tables, with the exact probability of every outcome.
///
/// The throw tables, with the exact probability of every outcome.
#[utoipa::path(operation_id = "list_throw_tables", tag = "reference", responses((status = 200, description = "The throw tables", body = SticksView)))]
#[get("/v1/sticks")]
pub async fn get_sticks() -> HttpResponse {
    HttpResponse::Ok().json(SticksView {
        items: ThrowTable::ALL.into_iter().map(table_view).collect(),
    })
}

/// The bibliography.
#[derive(Debug, Serialize, ToSchema)]
pub struct SourcesView {
    /// CSL-JSON items.
    pub items: Vec<CslItem>,
}

/// How a source is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SourceFormat {
    /// The CSL-JSON item (`application/json`), the default.
    Csl,
    /// A BibTeX entry (`application/x-bibtex`).
    Bibtex,
}

/// The media type of BibTeX, as served.
pub const BIBTEX: &str = "application/x-bibtex; charset=utf-8";

/// The answer depends on `Accept`.
const VARY_ACCEPT: (actix_web::http::header::HeaderName, &str) =
    (actix_web::http::header::VARY, "Accept");

/// The BibTeX media types an `Accept` header may name (the second is an
/// older name, still accepted).
const BIBTEX_TYPES: [&str; 2] = ["application/x-bibtex", "text/x-bibtex"];

/// Whether an `Accept` header prefers BibTeX to JSON: BibTeX named with a
/// quality above JSON's (a wildcard counts for both, so JSON wins ties).
fn accept_prefers_bibtex(req: &HttpRequest) -> bool {
    let Some(accept) = req
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let (mut bibtex, mut json) = (0.0_f32, 0.0_f32);
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if BIBTEX_TYPES.contains(&media.as_str()) {
            bibtex = bibtex.max(q);
        } else if ["application/json", "application/*", "*/*"].contains(&media.as_str()) {
            json = json.max(q);
        }
    }
    bibtex > json
}

/// The format a source is asked for in.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SourceQuery {
    /// Deprecated: ask `.bib` (`/v1/sources.bib`, `/v1/sources/{id}.bib`)
    /// for BibTeX. `csl`: CSL-JSON; `bibtex`: BibTeX, answered as
    /// `application/x-bibtex`. Without it the `Accept` header chooses
    /// (CSL-JSON unless it prefers BibTeX, deprecated alike).
    #[param(value_type = Option<SourceFormat>)]
    format: Option<String>,
}

impl SourceQuery {
    fn format(&self, req: &HttpRequest) -> Result<SourceFormat, ApiError> {
        match self.format.as_deref() {
            None if accept_prefers_bibtex(req) => Ok(SourceFormat::Bibtex),
            None | Some("csl") => Ok(SourceFormat::Csl),
            Some("bibtex") => Ok(SourceFormat::Bibtex),
            Some(other) => Err(ApiError::field(
                "#/query/format",
                format!(
                    "must be one of: csl, bibtex (got {:?})",
                    super::problem::echo(other)
                ),
            )),
        }
    }
}

fn bibtex_of(source: &Source) -> Result<String, ApiError> {
    crate::narration::bibtex(source).map_err(|e| ApiError::internal(&e))
}

/// List the bibliography every citation points into.
///
/// CSL-JSON items, with their rights status in `custom`. BibTeX has its own
/// path, `/v1/sources.bib`; this one still answers it for `format=bibtex`
/// or an `Accept` that prefers `application/x-bibtex` (deprecated).
#[utoipa::path(
    tag = "reference",
    operation_id = "list_sources",
    params(SourceQuery),
    responses(
        (status = 200, description = "The bibliography as CSL-JSON items", body = SourcesView),
        (status = 400, description = "An unknown format", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/sources")]
pub async fn get_sources(
    req: HttpRequest,
    query: web::Query<SourceQuery>,
) -> Result<HttpResponse, ApiError> {
    let mut res = HttpResponse::Ok();
    res.insert_header(VARY_ACCEPT);
    Ok(match query.format(&req)? {
        SourceFormat::Csl => res.json(SourcesView {
            items: catalogue().sources.iter().map(CslItem::of).collect(),
        }),
        SourceFormat::Bibtex => res.content_type(BIBTEX).body(bibliography()?),
    })
}

/// List the bibliography as one BibTeX file.
///
/// Every source as a BibTeX entry (`application/x-bibtex`), in the order
/// of `/v1/sources`.
#[utoipa::path(
    tag = "reference",
    operation_id = "list_sources_bibtex",
    responses(
        (status = 200, description = "The bibliography as BibTeX", content(
            (String = "application/x-bibtex", example = "@book{murray1951,\n  author = {Murray, H. J. R.},\n  title = {{A History of Board-Games Other Than Chess}},\n  year = {1951},\n}\n"),
        )),
    )
)]
#[get("/v1/sources.bib")]
pub async fn get_sources_bibtex() -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok()
        .content_type(BIBTEX)
        .body(bibliography()?))
}

/// Every source's BibTeX entry, one after the other.
fn bibliography() -> Result<String, ApiError> {
    let mut text = String::new();
    for (i, source) in catalogue().sources.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&bibtex_of(source)?);
    }
    Ok(text)
}

fn check_id(pointer: &str, id: &str) -> Result<(), ApiError> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::field(
            pointer,
            "must be 1 to 64 lower-case letters, digits or hyphens",
        ))
    }
}

/// Get one source as a CSL-JSON item.
///
/// CSL-JSON. BibTeX has its own path, `/v1/sources/{id}.bib`; this one
/// still answers it for `format=bibtex` or an `Accept` that prefers
/// `application/x-bibtex` (deprecated).
#[utoipa::path(
    tag = "reference",
    operation_id = "get_source",
    params(("id" = String, Path, description = "The source's id, e.g. culin1907", pattern = "^[a-z0-9-]{1,64}$", example = "culin1907"), SourceQuery),
    responses(
        (status = 200, description = "The source as a CSL-JSON item", body = CslItem),
        (status = 400, description = "Malformed id or unknown format", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such source", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/sources/{id}")]
pub async fn get_source(
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<SourceQuery>,
) -> Result<HttpResponse, ApiError> {
    let source = source(&id)?;
    let format = query.format(&req)?;
    let mut res = HttpResponse::Ok();
    res.insert_header(VARY_ACCEPT);
    Ok(match format {
        SourceFormat::Csl => res.json(CslItem::of(source)),
        SourceFormat::Bibtex => res.content_type(BIBTEX).body(bibtex_of(source)?),
    })
}

/// Get one source as a BibTeX entry.
///
/// The source's BibTeX entry (`application/x-bibtex`).
#[utoipa::path(
    tag = "reference",
    operation_id = "get_source_bibtex",
    params(("id" = String, Path, description = "The source's id, e.g. culin1907", pattern = "^[a-z0-9-]{1,64}$", example = "culin1907")),
    responses(
        (status = 200, description = "The source as BibTeX", content(
            (String = "application/x-bibtex", example = "@book{murray1951,\n  author = {Murray, H. J. R.},\n  title = {{A History of Board-Games Other Than Chess}},\n  year = {1951},\n}\n"),
        )),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such source", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/sources/{id}.bib")]
pub async fn get_source_bibtex(id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok()
        .content_type(BIBTEX)
        .body(bibtex_of(source(&id)?)?))
}

/// The source `id` names: 400 for a malformed id, 404 for an unknown one.
fn source(id: &str) -> Result<&'static Source, ApiError> {
    check_id("#/path/id", id)?;
    catalogue().source(id).ok_or_else(|| {
        ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "source-not-found",
            "Source not found",
            format!("no source has the id {id}; GET /v1/sources lists them"),
        )
    })
}

/// A glossary term.
#[derive(Debug, Serialize, ToSchema)]
pub struct TermView {
    /// Stable id.
    #[schema(example = "zohn")]
    pub id: String,
    /// The term as written.
    #[schema(example = "zohn")]
    pub term: String,
    /// `Kiowa`, `Arapaho` or `English`.
    pub language: String,
    /// Its meaning.
    pub meaning: String,
    /// A simpler explanation for ages 7-10.
    pub young: String,
    /// A pronunciation note, only where a source gives one.
    pub pronunciation: Option<String>,
    /// Related term ids.
    pub related: Vec<String>,
    /// How well the meaning is evidenced.
    pub grade: crate::narration::EvidenceGrade,
    /// Sources.
    pub citations: Vec<CitationView>,
}

/// The glossary.
#[derive(Debug, Serialize, ToSchema)]
pub struct GlossaryView {
    /// Terms in catalogue order.
    pub items: Vec<TermView>,
}

fn term_view(t: &crate::narration::GlossaryTerm) -> TermView {
    TermView {
        id: t.id.clone(),
        term: t.term.clone(),
        language: t.language.clone(),
        meaning: t.meaning.clone(),
        young: t.young.clone(),
        pronunciation: t.pronunciation.clone(),
        related: t.related.clone(),
        grade: t.grade,
        citations: t.citations.iter().map(Into::into).collect(),
    }
}

/// List the Kiowa and English terms of the game, each cited.
///
/// Kiowa and English terms of the game, each cited.
#[utoipa::path(operation_id = "list_glossary_terms", tag = "reference", responses((status = 200, description = "The glossary", body = GlossaryView)))]
#[get("/v1/glossary")]
pub async fn get_glossary() -> HttpResponse {
    HttpResponse::Ok().json(GlossaryView {
        items: catalogue().glossary.iter().map(term_view).collect(),
    })
}

/// Read one glossary term.
///
/// A term by its id, as `/v1/glossary` lists them: its meaning, a simpler
/// explanation for ages 7-10, related terms, its evidence grade and sources.
#[utoipa::path(
    operation_id = "get_glossary_term",
    tag = "reference",
    params(("term" = String, Path, description = "The term's id, e.g. zohn", pattern = "^[a-z0-9-]{1,64}$", example = "zohn")),
    responses(
        (status = 200, description = "The term", body = TermView),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such term", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/glossary/{term}")]
pub async fn get_glossary_term(term: web::Path<String>) -> Result<HttpResponse, ApiError> {
    check_id("#/path/term", &term)?;
    let found = catalogue().term(&term).ok_or_else(|| {
        ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "term-not-found",
            "Term not found",
            format!("the glossary has no term {term}; GET /v1/glossary lists them"),
        )
    })?;
    Ok(HttpResponse::Ok().json(term_view(found)))
}

/// What a health check found: `ok` (alive) or `ready` (serving).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    /// The process answers.
    Ok,
    /// The database answers and every migration is applied.
    Ready,
}

/// Health status.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `ready`.
    pub status: HealthStatus,
}

/// Check liveness: the process answers.
///
/// 200 while the process runs; nothing else (not even the database) is checked.
#[utoipa::path(operation_id = "check_health", tag = "health", responses((status = 200, description = "Alive", body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: HealthStatus::Ok,
    })
}

/// Check readiness: the database answers and every migration is applied.
///
/// 200 once the database answers and its migrations are in; 503 otherwise.
#[utoipa::path(
    operation_id = "check_readiness",
    tag = "health",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "Not ready", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(service: web::Data<Service>) -> Result<HttpResponse, ApiError> {
    let ready = service.ready().await;
    if ready {
        Ok(HttpResponse::Ok().json(Health {
            status: HealthStatus::Ready,
        }))
    } else {
        Err(ApiError::new(
            actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
            "not-ready",
            "Not ready",
            "the database is not reachable or not migrated",
        ))
    }
}
