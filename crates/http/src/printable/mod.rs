//! The printable rules: each preset's lesson (`narration::lesson`, the
//! text `GET /v1/rulesets/{preset}` serves) as one server-rendered page for
//! each audience, with the preset's board picture, made to print on two
//! sheets of A4 or Letter (`assets/play/print.css`), and an index of them
//! all.
//!
//! - `GET /play/rules`: the index, every preset for every audience.
//! - `GET /play/rules/{preset}?audience=&paper=`: one lesson. `audience` is
//!   `young`, `general` (the default, as in the API) or `scholar`; `paper`
//!   is `a4` or `letter` and names the sheet the page asks the browser for,
//!   and without it the printer's own paper is used (the layout fits both).
//!   An unknown preset is a 404 page; an unknown audience or paper is a 400
//!   page that links the pages there are: a class handed another
//!   audience's text than the one asked for would not notice.
//!
//! Every sentence keeps its citations on paper: each text is followed by
//! its sources' numbers and pages, in brackets, and the page ends with the
//! numbered list of the sources it cites, each with its short label (as the
//! lesson page names it) and in full with its address. Every text put into the page is escaped; no script is needed,
//! and the page carries the same Content-Security-Policy as the lesson
//! pages.

mod sources;

use std::fmt::Write as _;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};

use super::play::{CorrectionsContact, HTML, page};
use crate::narration::{Audience, lesson, preset_summary};
use crate::picture::empty_words;
use sources::{Cited, attr, text};
use zohn_ahl_rules::Preset;

/// The sheet a page asks the browser for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Paper {
    /// 210 × 297 mm.
    A4,
    /// 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Both sheets.
    const ALL: [Self; 2] = [Self::A4, Self::Letter];

    /// Its name in the query.
    const fn key(self) -> &'static str {
        match self {
            Self::A4 => "a4",
            Self::Letter => "letter",
        }
    }

    /// Its name for a reader.
    const fn name(self) -> &'static str {
        match self {
            Self::A4 => "A4",
            Self::Letter => "Letter",
        }
    }
}

/// Who a page is written for, in a reader's words.
const fn audience_name(audience: Audience) -> &'static str {
    match audience {
        Audience::Young => "young players (ages 7 to 10)",
        Audience::General => "everyone",
        Audience::Scholar => "scholars (where the sources disagree)",
    }
}

/// The address of a preset's page for an audience, and a paper if given.
fn address(preset: Preset, audience: Audience, paper: Option<Paper>) -> String {
    let id: &str = preset.into();
    let mut out = format!("/play/rules/{id}?audience={}", audience.key());
    if let Some(p) = paper {
        let _ = write!(out, "&paper={}", p.key());
    }
    out
}

/// The head of every page of the printable rules: language, title, icon,
/// the print stylesheet.
fn head(title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\n\
         <link rel=\"stylesheet\" href=\"/play/assets/print.css\">\n</head>\n",
        text(title)
    )
}

/// A short page saying what is wrong, with where to go instead.
fn problem_page(status: StatusCode, title: &str, body: &str) -> HttpResponse {
    let html = format!(
        "{}<body>\n<main>\n<h1>{}</h1>\n{body}\n<p><a href=\"/play/rules\">Every printable \
         rules page</a></p>\n</main>\n</body>\n</html>\n",
        head(&format!("Zohn Ahl: {title}")),
        text(title)
    );
    page(status, HTML, html)
}

/// `GET /play/rules`: every preset's printable rules, for each audience.
async fn index() -> HttpResponse {
    let mut html = head("Zohn Ahl: printable rules");
    html.push_str(
        "<body class=\"index\">\n<main>\n<h1>Printable rules</h1>\n<p>Each ruleset's rules as a \
         lesson, with its board, written for one audience. Each page prints on two sheets of A4 \
         or Letter paper (print it from the browser; choose the paper below to have the browser \
         ask for it). Every text names its sources, listed in full at the end.</p>\n\
         <table>\n<caption>The rulesets, and the page for each audience</caption>\n<thead><tr>\
         <th scope=\"col\">Ruleset</th>",
    );
    for audience in Audience::ALL {
        let _ = write!(
            html,
            "<th scope=\"col\">For {}</th>",
            text(audience_name(audience))
        );
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for preset in Preset::ALL {
        let (title, _) = preset_summary(preset);
        let id: &str = preset.into();
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{} <span class=\"preset\">({})</span></th>",
            text(&title),
            text(id)
        );
        for audience in Audience::ALL {
            let _ = write!(
                html,
                "<td><a href=\"{}\">{}: {}</a> <span class=\"paper\">",
                attr(&address(preset, audience, None)),
                text(&title),
                text(audience.key())
            );
            for paper in Paper::ALL {
                let _ = write!(
                    html,
                    " <a href=\"{}\" aria-label=\"{}, {}, on {} paper\">{}</a>",
                    attr(&address(preset, audience, Some(paper))),
                    attr(&title),
                    attr(audience_name(audience)),
                    paper.name(),
                    paper.name()
                );
            }
            html.push_str("</span></td>");
        }
        html.push_str("</tr>\n");
    }
    html.push_str(
        "</tbody>\n</table>\n<p><a href=\"/play\">Start a game</a></p>\n</main>\n</body>\n\
         </html>\n",
    );
    page(StatusCode::OK, HTML, html)
}

/// The query of a rules page, read by hand so that a wrong value gets a
/// page rather than a JSON problem.
struct RulesQuery {
    audience: Option<String>,
    paper: Option<String>,
}

impl RulesQuery {
    /// The values of `audience` and `paper` in the request's query (the
    /// last of each where one is given twice); other parameters are left.
    fn of(req: &HttpRequest) -> Self {
        let mut out = Self {
            audience: None,
            paper: None,
        };
        for (name, value) in url::form_urlencoded::parse(req.query_string().as_bytes()) {
            match name.as_ref() {
                "audience" => out.audience = Some(value.into_owned()),
                "paper" => out.paper = Some(value.into_owned()),
                _ => {}
            }
        }
        out
    }
}

/// `GET /play/rules/{preset}`: a preset's lesson, for printing.
async fn rules_page(
    req: HttpRequest,
    preset: web::Path<String>,
    contact: Option<web::Data<CorrectionsContact>>,
) -> HttpResponse {
    let Some(preset) = Preset::ALL
        .into_iter()
        .find(|p| <&str>::from(*p) == preset.as_str())
    else {
        return problem_page(
            StatusCode::NOT_FOUND,
            "No such ruleset",
            "<p>No ruleset has this name.</p>",
        );
    };
    let query = RulesQuery::of(&req);
    let audience = match query.audience.as_deref() {
        None => Audience::General,
        Some(a) => match Audience::ALL.into_iter().find(|x| x.key() == a) {
            Some(x) => x,
            None => return choices(preset, "No such audience", None),
        },
    };
    let paper = match query.paper.as_deref() {
        None => None,
        Some(p) => match Paper::ALL.into_iter().find(|x| x.key() == p) {
            Some(x) => Some(x),
            None => return choices(preset, "No such paper", Some(audience)),
        },
    };
    page(
        StatusCode::OK,
        HTML,
        rules_html(
            preset,
            audience,
            paper,
            contact.as_ref().map(|c| c.get_ref()),
        ),
    )
}

/// The 400 page of a preset's rules asked for with an audience or paper
/// there is not: a link to each page there is.
fn choices(preset: Preset, title: &str, audience: Option<Audience>) -> HttpResponse {
    let (name, _) = preset_summary(preset);
    let mut body = String::from(
        "<p>The rules are written for young players, everyone or scholars \
         (<code>audience=young</code>, <code>general</code> or <code>scholar</code>), and \
         printed on A4 or Letter paper (<code>paper=a4</code> or <code>letter</code>).</p>\n<ul>\n",
    );
    let audiences = audience.map_or_else(|| Audience::ALL.to_vec(), |a| vec![a]);
    for a in audiences {
        for paper in [None, Some(Paper::A4), Some(Paper::Letter)] {
            let _ = writeln!(
                body,
                "<li><a href=\"{}\">{}, for {}{}</a></li>",
                attr(&address(preset, a, paper)),
                text(&name),
                text(audience_name(a)),
                paper.map_or(String::new(), |p| format!(", on {} paper", p.name()))
            );
        }
    }
    body.push_str("</ul>");
    problem_page(StatusCode::BAD_REQUEST, title, &body)
}

/// The notice that no Kiowa educator has reviewed the text, and where to
/// report a correction, with the address written out for paper.
fn review_notice(contact: Option<&CorrectionsContact>) -> String {
    let how = contact.map_or_else(
        || {
            "To report a correction, tell whoever gave you this sheet which sentence and which \
             source it cites."
                .to_owned()
        },
        |c| {
            // On paper the address is all a reader has: an email address
            // without its subject, or the web address.
            let shown = c
                .as_str()
                .strip_prefix("mailto:")
                .map_or(c.as_str(), |mail| {
                    mail.split_once('?').map_or(mail, |(to, _)| to)
                });
            format!(
                "Report a correction, naming the sentence and the source it cites, to \
                 <a href=\"{}\">{}</a>.",
                attr(c.as_str()),
                text(shown)
            )
        },
    );
    format!(
        "<p id=\"corrections\">The rules, facts and words here have not been reviewed by Kiowa \
         educators. {how}</p>"
    )
}

/// A preset's printable page for an audience.
fn rules_html(
    preset: Preset,
    audience: Audience,
    paper: Option<Paper>,
    contact: Option<&CorrectionsContact>,
) -> String {
    let l = lesson(preset, audience);
    let id: &str = preset.into();
    let (board_title, board_desc) = empty_words(preset.options().board);
    let mut cited = Cited::default();
    let mut html = head(&format!(
        "Zohn Ahl rules: {}, for {}",
        l.title,
        audience_name(audience)
    ));
    let paper_class = paper.map_or(String::new(), |p| format!(" paper-{}", p.key()));
    let _ = writeln!(
        html,
        "<body class=\"rules{paper_class}\" data-preset=\"{}\" data-audience=\"{}\">",
        attr(id),
        audience.key()
    );
    html.push_str(&controls(preset, audience, paper));
    // The board before the summary, which on paper runs beside it.
    let _ = write!(
        html,
        "<main>\n<header>\n<h1>Zohn Ahl: {}</h1>\n<p class=\"audience\">The rules, for {}</p>\n\
         <figure class=\"board\">\n<img src=\"/v1/rulesets/{}/board.svg\" width=\"{}\" \
         height=\"{}\" alt=\"{}\">\n<figcaption>{}</figcaption>\n</figure>\n\
         <p class=\"summary\">{}{}</p>\n</header>\n<div class=\"sections\">\n",
        text(&l.title),
        text(audience_name(audience)),
        attr(id),
        crate::picture::WIDTH,
        crate::picture::HEIGHT,
        attr(&board_desc),
        text(&board_title),
        text(&l.summary.text),
        cited.cites(&l.summary.citations)
    );
    for s in &l.sections {
        let _ = write!(
            html,
            "<section id=\"rule-{}\" aria-labelledby=\"title-{}\">\n<h2 id=\"title-{}\">{}</h2>\n\
             <p>{}{}</p>\n",
            attr(&s.id),
            attr(&s.id),
            attr(&s.id),
            text(&s.title),
            text(&s.text),
            cited.cites(&s.citations)
        );
        for d in &s.departures {
            let _ = writeln!(
                html,
                "<p class=\"departure\">{}{}</p>",
                text(&d.text),
                cited.cites(&d.citations)
            );
        }
        html.push_str("</section>\n");
    }
    let _ = write!(
        html,
        "</div>\n<section class=\"bibliography\" aria-labelledby=\"sources-title\">\n\
         <h2 id=\"sources-title\">Sources</h2>\n{}</section>\n<footer>\n{}\n</footer>\n</main>\n\
         </body>\n</html>\n",
        cited.list(),
        review_notice(contact)
    );
    html
}

/// The page's controls, on screen only: the other audiences and papers,
/// the index, how to print.
fn controls(preset: Preset, audience: Audience, paper: Option<Paper>) -> String {
    let mut out = String::from(
        "<nav class=\"controls\" aria-label=\"This page\">\n<p><a href=\"/play/rules\">Every \
         printable rules page</a> · <a href=\"/play\">Start a game</a></p>\n<p>For:",
    );
    for a in Audience::ALL {
        let here = if a == audience {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = write!(
            out,
            " <a href=\"{}\"{here}>{}</a>",
            attr(&address(preset, a, paper)),
            text(audience_name(a))
        );
    }
    out.push_str("</p>\n<p>Paper:");
    for p in Paper::ALL {
        let here = if Some(p) == paper {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = write!(
            out,
            " <a href=\"{}\"{here}>{}</a>",
            attr(&address(preset, audience, Some(p))),
            p.name()
        );
    }
    out.push_str(
        "</p>\n<p>Print this page from the browser's menu (Ctrl+P or ⌘P): two sheets.</p>\n</nav>\n",
    );
    out
}

/// Register the printable rules' routes (before `/play/{id}`, which would
/// otherwise take `rules` for a game's id).
pub(super) fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/play/rules", web::get().to(index))
        .route("/play/rules/", web::get().to(index))
        .route("/play/rules/{preset}", web::get().to(rules_page));
}
