//! The printable rules as served (no browser): the index links a page for
//! every preset and audience; each page is the preset's lesson as
//! `GET /v1/rulesets/{preset}` gives it for that audience, escaped, every
//! text with its citations and the sources listed, the board picture with
//! its description as the alternative text; wrong addresses get pages that
//! say so. `browser_print` prints them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use crate::common::{Reply, get, send, spawn_app};

const PRESETS: [&str; 5] = ["composite", "culin1898", "ludii", "a4", "boxed"];
const AUDIENCES: [&str; 3] = ["young", "general", "scholar"];
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Text as it must appear in an HTML text node (written apart from the
/// server's escaping, to check it).
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn html(r: &Reply, status: u16) -> String {
    assert_eq!(r.status.as_u16(), status);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(r.header("content-security-policy").as_deref(), Some(CSP));
    let body = String::from_utf8(r.body.clone()).unwrap();
    assert!(body.starts_with("<!doctype html>\n<html lang=\"en\">"));
    assert!(!body.contains("<script"), "no script");
    assert!(!body.contains("style=\""), "no inline style");
    body
}

/// The values of `attr="..."` in a page, in order.
fn values(html: &str, attr: &str) -> Vec<String> {
    let key = format!(" {attr}=\"");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .collect()
}

#[actix_web::test]
async fn the_index_links_every_preset_for_every_audience_and_each_page_answers() {
    let (_db, app) = spawn_app().await;
    let index = html(&send(&app, get("/play/rules")).await, 200);
    let links: BTreeSet<String> = values(&index, "href")
        .into_iter()
        .filter(|h| h.starts_with("/play/rules/"))
        .collect();
    for preset in PRESETS {
        for audience in AUDIENCES {
            let page = format!("/play/rules/{preset}?audience={audience}");
            for link in [
                page.clone(),
                format!("{page}&amp;paper=a4"),
                format!("{page}&amp;paper=letter"),
            ] {
                assert!(links.contains(&link), "the index links {link}");
            }
        }
    }
    assert_eq!(links.len(), 45, "15 pages, each also on A4 and on Letter");
    for link in &links {
        html(&send(&app, get(&link.replace("&amp;", "&"))).await, 200);
    }
    // The new-game page links the index.
    let new = String::from_utf8(send(&app, get("/play")).await.body).unwrap();
    assert!(
        new.contains("href=\"/play/rules\""),
        "/play links the index"
    );
}

#[actix_web::test]
async fn each_page_is_the_presets_lesson_for_its_audience_with_citations_and_board() {
    let (_db, app) = spawn_app().await;
    for preset in PRESETS {
        let svg = send(&app, get(&format!("/v1/rulesets/{preset}/board.svg"))).await;
        assert_eq!(svg.status.as_u16(), 200);
        let svg = String::from_utf8(svg.body).unwrap();
        let svg = roxmltree::Document::parse(&svg).unwrap();
        let desc = svg
            .descendants()
            .find(|n| n.has_tag_name("desc"))
            .and_then(|n| n.text())
            .unwrap()
            .to_owned();
        for audience in AUDIENCES {
            let path = format!("/play/rules/{preset}?audience={audience}");
            let page = html(&send(&app, get(&path)).await, 200);
            let lesson = send(
                &app,
                get(&format!("/v1/rulesets/{preset}?audience={audience}")),
            )
            .await
            .json();
            let title = escaped(lesson["title"].as_str().unwrap());
            assert!(
                page.contains(&format!("<h1>Zohn Ahl: {title}</h1>")),
                "{path}"
            );
            assert!(
                page.contains(&escaped(lesson["summary"]["text"].as_str().unwrap())),
                "{path}: the summary"
            );
            let mut cited = BTreeSet::new();
            let mut texts = vec![&lesson["summary"]];
            for s in lesson["sections"].as_array().unwrap() {
                let heading = format!(
                    "<h2 id=\"title-{}\">{}</h2>",
                    s["id"].as_str().unwrap(),
                    escaped(s["title"].as_str().unwrap())
                );
                assert!(page.contains(&heading), "{path}: {heading}");
                texts.push(s);
                texts.extend(s["departures"].as_array().unwrap());
            }
            // Every text, followed by its citations: each source's label
            // linked to its entry, with the pages.
            for t in texts {
                let text = escaped(t["text"].as_str().unwrap());
                let at = page
                    .find(&text)
                    .unwrap_or_else(|| panic!("{path}: no {text}"));
                let after = &page[at + text.len()..];
                assert!(
                    after.starts_with(" <span class=\"cites\">["),
                    "{path}: no citations after {text}"
                );
                let cites = &after[..after.find("</span>").unwrap()];
                for c in t["citations"].as_array().unwrap() {
                    cited.insert(c["source"].as_str().unwrap().to_owned());
                    if let Some(locator) = c["locator"].as_str() {
                        assert!(cites.contains(&escaped(locator)), "{path}: {locator}");
                    }
                }
                assert_eq!(
                    cites.matches("<a href=\"#source-").count(),
                    t["citations"].as_array().unwrap().len(),
                    "{path}: {cites}"
                );
            }
            // The numbered list holds each source cited, once.
            let entries = values(&page, "id")
                .into_iter()
                .filter(|id| id.starts_with("source-"))
                .count();
            assert_eq!(entries, cited.len(), "{path}: the sources listed");
            assert!(page.contains("<h2 id=\"sources-title\">Sources</h2>"));
            for href in values(&page, "href").iter().filter(|h| h.starts_with('#')) {
                assert!(
                    page.contains(&format!("id=\"{}\"", &href[1..])),
                    "{path}: {href} leads nowhere"
                );
            }
            // The board, described by its own words.
            let img = format!("<img src=\"/v1/rulesets/{preset}/board.svg\"");
            assert!(page.contains(&img), "{path}: the board");
            let alt = values(&page, "alt");
            assert_eq!(alt.len(), 1);
            assert_eq!(alt[0], escaped(&desc).replace('"', "&quot;"), "{path}");
            assert!(page.contains("not been reviewed by Kiowa educators"));
            // Only this origin is loaded; other addresses are the sources'.
            for src in values(&page, "src") {
                assert!(src.starts_with('/'), "{path}: {src}");
            }
        }
    }
}

#[actix_web::test]
async fn without_an_audience_the_page_is_for_everyone_and_wrong_addresses_say_so() {
    let (_db, app) = spawn_app().await;
    let plain = html(&send(&app, get("/play/rules/ludii")).await, 200);
    let general = html(
        &send(&app, get("/play/rules/ludii?audience=general")).await,
        200,
    );
    assert_eq!(plain, general);
    assert!(plain.contains("class=\"rules\" data-preset=\"ludii\""));
    let a4 = html(
        &send(&app, get("/play/rules/ludii?audience=young&paper=a4")).await,
        200,
    );
    assert!(a4.contains("<body class=\"rules paper-a4\""));

    let missing = html(&send(&app, get("/play/rules/chess")).await, 404);
    assert!(missing.contains("<h1>No such ruleset</h1>"));
    assert!(missing.contains("href=\"/play/rules\""));
    html(&send(&app, get("/play/rules/Composite")).await, 404);

    let audience = html(
        &send(&app, get("/play/rules/a4?audience=%3Cb%3Ekids%3C%2Fb%3E")).await,
        400,
    );
    assert!(audience.contains("<h1>No such audience</h1>"));
    assert!(!audience.contains("<b>kids"), "the value is not echoed");
    for a in AUDIENCES {
        assert!(audience.contains(&format!("href=\"/play/rules/a4?audience={a}\"")));
    }
    let paper = html(
        &send(&app, get("/play/rules/a4?audience=young&paper=a3")).await,
        400,
    );
    assert!(paper.contains("<h1>No such paper</h1>"));
    assert!(paper.contains("href=\"/play/rules/a4?audience=young&amp;paper=letter\""));
}

/// The print stylesheet never sets text below 9pt, and the page asks for
/// the sheet it names.
#[actix_web::test]
async fn the_print_styles_keep_text_at_9pt_or_more_and_name_both_sheets() {
    let (_db, app) = spawn_app().await;
    let r = send(&app, get("/play/assets/print.css")).await;
    assert_eq!(r.status.as_u16(), 200);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("text/css; charset=utf-8")
    );
    let css = String::from_utf8(r.body).unwrap();
    let print = &css[css.find("@media print").unwrap()..];
    let sizes: Vec<f64> = print
        .match_indices("font-size:")
        .map(|(i, m)| {
            let value = print[i + m.len()..].trim_start();
            let end = value.find(';').unwrap();
            let value = &value[..end];
            value
                .strip_suffix("pt")
                .unwrap_or_else(|| panic!("print sizes in pt: {value}"))
                .parse()
                .unwrap()
        })
        .collect();
    assert!(sizes.len() >= 5, "{sizes:?}");
    assert!(sizes.iter().all(|&s| s >= 9.0), "{sizes:?}");
    assert!(css.contains("@page a4 { size: A4 portrait;"));
    assert!(css.contains("@page letter { size: letter portrait;"));
    assert!(css.contains("body.paper-a4 { page: a4; }"));
}

/// On paper the notice that the text is unreviewed names where to report a
/// correction in writing: the configured address, or whoever gave the sheet.
#[actix_web::test]
async fn a_printed_page_names_where_to_report_a_correction() {
    use zohn_ahl::http::CorrectionsContact;
    let (db, plain) = spawn_app().await;
    let page = html(&send(&plain, get("/play/rules/boxed")).await, 200);
    assert!(page.contains("tell whoever gave you this sheet which sentence"));

    let contact =
        CorrectionsContact::parse("mailto:curator@museum.example?subject=Zohn Ahl \"text\"")
            .unwrap();
    let service = db.service().await;
    let app = crate::common::spawn_server_with(move || {
        zohn_ahl::http::app(service.clone()).app_data(actix_web::web::Data::new(contact.clone()))
    });
    let page = html(
        &send(&app, get("/play/rules/boxed?audience=young")).await,
        200,
    );
    let link = values(&page, "href")
        .into_iter()
        .find(|h| h.starts_with("mailto:"))
        .unwrap();
    assert!(
        link.starts_with("mailto:curator@museum.example?subject="),
        "{link}"
    );
    assert!(
        page.contains(">curator@museum.example</a>."),
        "the address, written out"
    );
}

/// Regression: a printed rules page wrote "(known only from another
/// source)" after every citation not seen directly, and the `ludii`
/// scholar page ran to a third sheet of Letter. Such a citation now carries
/// a mark (`*` not seen, `†` seen only as quoted) that one line above the
/// list of sources explains, in the caveat's own words; a page whose
/// citations were all seen has neither.
#[actix_web::test]
async fn regression_printed_caveats_ran_a_rules_page_to_a_third_sheet() {
    let (_db, app) = spawn_app().await;
    for preset in PRESETS {
        for audience in AUDIENCES {
            let path = format!("/play/rules/{preset}?audience={audience}");
            let page = html(&send(&app, get(&path)).await, 200);
            assert!(
                !page.contains("(known only from another source)")
                    && !page.contains("(as another source quotes it)"),
                "{path}: a caveat in words after a citation"
            );
            let not_seen = "<abbr title=\"known only from another source\">*</abbr>";
            let quoted = "<abbr title=\"as another source quotes it\">\u{2020}</abbr>";
            let legend = page
                .split("<p class=\"marks\">")
                .nth(1)
                .map(|l| l.split("</p>").next().unwrap_or_default());
            for (mark, words, shown) in [
                (
                    "*",
                    "known only from another source",
                    page.contains(not_seen),
                ),
                (
                    "\u{2020}",
                    "as another source quotes it",
                    page.contains(quoted),
                ),
            ] {
                let explained = legend.is_some_and(|l| l.contains(&format!("{mark} {words}")));
                assert_eq!(shown, explained, "{path}: the mark {mark} and its legend");
            }
        }
    }
    // The composite's rules rest on pages nobody here has seen (Culin's,
    // through Ludii's file): its page carries the mark.
    let page = html(&send(&app, get("/play/rules/composite")).await, 200);
    assert!(page.contains("<p class=\"marks\">"), "{page}");
}
