//! The printable rules in a real browser: every preset's page for every
//! audience (`/play/rules/{preset}?audience=&paper=`) printed by Debian's
//! `chromium` through WebDriver's Print Page command, once on A4 (21 ×
//! 29.7 cm) and once on Letter (21.59 × 27.94 cm), with the page's own
//! margins. Each PDF has one or two pages (the page is made to print on two
//! sheets), and the board picture was loaded and is drawn in it.
//!
//! Gated like `browser.rs` (the cfg `browser_tests`, see `build.rs`): built
//! without chromium and chromedriver it is ignored, saying why, unless `CI`
//! is set.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;

use fantoccini::wd::{PrintConfiguration, PrintMargins, PrintSize};
use serde_json::json;

use crate::browser::{Session, fetch_json, js, save, start, until};

const PRESETS: [&str; 5] = ["composite", "culin1898", "ludii", "a4", "boxed"];
const AUDIENCES: [&str; 3] = ["young", "general", "scholar"];

/// What a PDF holds, read from its bytes: Chrome writes every object
/// uncompressed at the top level (only streams are compressed), and tags
/// the PDF (a structure tree with each figure's alternative text).
#[derive(Debug)]
struct Pdf {
    /// The `/Type /Page` objects (not `/Pages`).
    pages: usize,
    /// The page tree's `/Count`.
    count: Option<usize>,
    /// The pages' content streams, inflated: the drawing operators of
    /// every page, text and pictures alike, in bytes.
    drawn: usize,
    /// The alternative texts of the figures of the structure tree.
    figures: Vec<String>,
}

/// Where `needle` is in `hay` from `from` on.
fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The decimal number at the start of `bytes`.
fn number(bytes: &[u8]) -> Option<usize> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&bytes[..digits]).ok()?.parse().ok()
}

impl Pdf {
    fn read(pdf: &[u8]) -> Self {
        assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
        // Searched with line ends as spaces (Chrome puts each key of a
        // dictionary on its own line); the streams are read from `pdf`.
        let bytes: Vec<u8> = pdf
            .iter()
            .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
            .collect();
        let bytes = bytes.as_slice();
        let all = |needle: &[u8]| {
            let mut at = Vec::new();
            let mut from = 0;
            while let Some(i) = find(bytes, needle, from) {
                at.push(i + needle.len());
                from = i + 1;
            }
            at
        };
        let pages = all(b"/Type /Page")
            .into_iter()
            .filter(|&end| bytes.get(end) != Some(&b's'))
            .count();
        let count = all(b"/Type /Pages /Count ")
            .into_iter()
            .filter_map(|end| number(&bytes[end..]))
            .max();
        let drawn = all(b"/Contents ")
            .into_iter()
            .map(|end| {
                let object = number(&bytes[end..]).expect("a content stream's object");
                let start = find(bytes, format!(" {object} 0 obj").as_bytes(), 0)
                    .expect("the content stream");
                let length = find(bytes, b"/Length ", start).expect("its length") + 8;
                let length = number(&bytes[length..]).unwrap();
                let data = find(bytes, b"stream ", start).expect("its data") + 7;
                let mut inflated = Vec::new();
                std::io::Read::read_to_end(
                    &mut flate2::read::ZlibDecoder::new(&pdf[data..data + length]),
                    &mut inflated,
                )
                .expect("a Flate stream");
                inflated.len()
            })
            .sum();
        let figures = all(b"/S /Figure /Alt (")
            .into_iter()
            .map(|start| {
                let end = find(bytes, b")", start).unwrap();
                String::from_utf8_lossy(&bytes[start..end]).into_owned()
            })
            .collect();
        Self {
            pages,
            count,
            drawn,
            figures,
        }
    }
}

/// Print the current page on `size` through WebDriver's Print Page
/// command; the PDF's bytes (fantoccini decodes the base64 answer).
async fn print(session: &Session, size: PrintSize) -> Vec<u8> {
    let config = PrintConfiguration::builder()
        .size(size)
        // The stylesheet's @page margin, so that the sheet's area is the
        // same whichever of the two the browser follows.
        .margins(PrintMargins {
            top: 1.0,
            bottom: 1.0,
            left: 1.0,
            right: 1.0,
        })
        .background(false)
        .build()
        .unwrap();
    session.client.print(config).await.unwrap()
}

/// Built without a browser, these tests would pass without having printed
/// anything; they are ignored instead, saying what they need.
#[test]
fn regression_the_print_test_passed_without_a_browser() {
    crate::common::assert_the_other_tests_run_or_say_why(
        cfg!(browser_tests),
        "browser_print::regression_the_print_test_passed_without_a_browser",
        "needs chromium and chromedriver",
    );
}

#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn every_rules_page_prints_on_at_most_two_sheets_of_a4_and_of_letter_with_its_board() {
    // The pages are measured in the font they name: on a fresh machine with
    // only DejaVu, its wider fallback printed three sheets where Liberation
    // Sans prints two.
    let font = std::process::Command::new("fc-match")
        .args(["--format=%{family}", "Liberation Sans"])
        .output()
        .expect("fc-match (fontconfig, which chromium uses)");
    let family = String::from_utf8_lossy(&font.stdout);
    assert!(
        family.contains("Liberation Sans"),
        "the printed rules name Liberation Sans, and fontconfig gives {family}: \
         apt-get install fonts-liberation"
    );
    let session = start().await;
    // The index and one page as they look on screen, for a reader of the
    // test's output (in the target's tmp directory).
    for (path, name) in [
        ("/play/rules", "rules-index.png"),
        ("/play/rules/composite?audience=general", "rules-page.png"),
    ] {
        session
            .client
            .goto(&format!("{}{path}", session.base))
            .await
            .unwrap();
        save(name, &session.client.screenshot().await.unwrap());
    }
    let mut report = String::from("pages printed (preset, audience: A4, Letter)\n");
    let mut failures = Vec::new();
    for preset in PRESETS {
        for audience in AUDIENCES {
            let _ = write!(report, "{preset:>9}, {audience:<7}:");
            for (paper, size) in [("a4", PrintSize::A4), ("letter", PrintSize::US_LETTER)] {
                let url = format!(
                    "{}/play/rules/{preset}?audience={audience}&paper={paper}",
                    session.base
                );
                session.client.goto(&url).await.unwrap();
                until(
                    &session.client,
                    &format!("{url}: the board picture loaded"),
                    &format!(
                        "const b = document.querySelector('figure.board img'); return !!b && \
                         b.getAttribute('src') === '/v1/rulesets/{preset}/board.svg' && \
                         b.complete && b.naturalWidth > 0 && b.alt.length > 100"
                    ),
                )
                .await;
                let page = js(
                    &session.client,
                    "return [document.documentElement.lang, document.body.className, \
                     document.querySelectorAll('.sections section').length]",
                )
                .await;
                assert_eq!(page[0], json!("en"), "{url}");
                assert_eq!(page[1], json!(format!("rules paper-{paper}")), "{url}");
                assert!(page[2].as_u64().unwrap() >= 6, "{url}: {page}");

                let bytes = print(&session, size.clone()).await;
                std::fs::write(
                    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
                        .join(format!("rules-{preset}-{audience}-{paper}.pdf")),
                    &bytes,
                )
                .unwrap();
                let pdf = Pdf::read(&bytes);
                let _ = write!(report, " {}", pdf.pages);
                if !(1..=2).contains(&pdf.pages) {
                    failures.push(format!("{url}: {} pages", pdf.pages));
                }
                assert_eq!(pdf.count, Some(pdf.pages), "{url}: the page tree's count");

                // The board is in the PDF: a figure described by the
                // board's own words, and drawn (without the picture far
                // less is drawn).
                assert!(
                    pdf.figures
                        .iter()
                        .any(|alt| alt.starts_with("The empty Zohn Ahl board, the ")),
                    "{url}: no figure of the board in the PDF: {:?}",
                    pdf.figures
                );
                js(
                    &session.client,
                    "document.querySelector('figure.board img').remove(); return true",
                )
                .await;
                let bare = Pdf::read(&print(&session, size).await);
                assert!(
                    pdf.drawn > bare.drawn + 10_000,
                    "{url}: the board is not drawn ({} bytes drawn with it, {} without)",
                    pdf.drawn,
                    bare.drawn
                );
                assert!(bare.figures.is_empty(), "{url}: {:?}", bare.figures);
            }
            report.push('\n');
        }
    }
    eprintln!("{report}");
    assert!(
        failures.is_empty(),
        "more than two sheets:\n{}\n{report}",
        failures.join("\n")
    );
    session.client.close().await.unwrap();
    session.handle.stop(true).await;
}

/// A source printed under one label and shown on the lesson page under
/// another would send a reader looking for the wrong book: the printed
/// list's labels are the ones the lesson page's script gives
/// (`assets/play/sources.js`), for every source a scholar's page cites.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn the_printed_sources_carry_the_lesson_pages_labels() {
    let session = start().await;
    let client = &session.client;
    client
        .goto(&format!("{}/play", session.base))
        .await
        .unwrap();
    let game = fetch_json(client, "POST", "/v1/games", Some(json!({}))).await;
    let id = game["id"].as_str().unwrap();
    client
        .goto(&format!("{}/play/{id}", session.base))
        .await
        .unwrap();
    until(
        client,
        "the lesson page's labels",
        "return !!window.zohnAhl && Object.keys(window.zohnAhl.labels()).length > 0",
    )
    .await;
    let labels = js(client, "return window.zohnAhl.labels()").await;
    let mut compared = 0;
    for preset in PRESETS {
        client
            .goto(&format!(
                "{}/play/rules/{preset}?audience=scholar",
                session.base
            ))
            .await
            .unwrap();
        let printed = js(
            client,
            "return [...document.querySelectorAll('ol.sources li')].map(li => \
             [li.dataset.source, li.querySelector('b').textContent])",
        )
        .await;
        for entry in printed.as_array().unwrap() {
            let source = entry[0].as_str().unwrap();
            assert_eq!(entry[1], labels[source], "{preset}: {source}");
            compared += 1;
        }
    }
    assert!(compared >= 20, "{compared} labels compared");
    session.client.clone().close().await.unwrap();
    session.handle.stop(true).await;
}
