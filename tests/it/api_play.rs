//! The lesson page as served: every asset from the binary, a
//! Content-Security-Policy on every answer, nothing from another origin.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Reply, get, post_json, send, spawn_app};
use serde_json::json;

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

fn assert_page(r: &Reply, status: u16, content_type: &str) -> String {
    assert_eq!(r.status.as_u16(), status);
    assert_eq!(r.header("content-type").as_deref(), Some(content_type));
    assert_eq!(r.header("content-security-policy").as_deref(), Some(CSP));
    assert_eq!(
        r.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert_eq!(r.header("referrer-policy").as_deref(), Some("no-referrer"));
    String::from_utf8(r.body.clone()).unwrap()
}

/// The `src` and `href` values of a page.
fn references(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["src=\"", "href=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap();
            out.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    out
}

#[actix_web::test]
async fn the_pages_and_their_assets_come_from_the_binary_with_a_csp() {
    let (_db, app) = spawn_app().await;
    let id = send(&app, post_json("/v1/games", &json!({}))).await.json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let html = "text/html; charset=utf-8";
    let new = assert_page(&send(&app, get("/play")).await, 200, html);
    let game = assert_page(&send(&app, get(&format!("/play/{id}"))).await, 200, html);
    let join = assert_page(&send(&app, get("/join")).await, 200, html);
    let class = send(&app, post_json("/v1/classes", &json!({})))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let class = assert_page(
        &send(&app, get(&format!("/play/class/{class}"))).await,
        200,
        html,
    );
    assert!(new.contains("<form id=\"new-game\""));
    assert!(game.contains("id=\"board\""));
    assert!(class.contains("id=\"boards\""));
    assert!(join.contains("<label for=\"code\""));
    let mut assets = 0;
    for page in [&new, &game, &join, &class] {
        assert!(!page.contains("<script>"), "no inline script");
        assert!(!page.contains("style=\""), "no inline style");
        for reference in references(page) {
            assert!(
                reference.starts_with('/') || reference.starts_with('#'),
                "only this origin: {reference}"
            );
            if let Some(name) = reference.strip_prefix("/play/assets/") {
                let r = send(&app, get(&reference)).await;
                let ty = if name.ends_with(".css") {
                    "text/css; charset=utf-8"
                } else {
                    "text/javascript; charset=utf-8"
                };
                let body = assert_page(&r, 200, ty);
                assert!(
                    !body.contains("http://") && !body.contains("https://"),
                    "{name} names another origin"
                );
                assets += 1;
            }
        }
    }
    assert_eq!(
        assets, 23,
        "newclass.js, new.js and seatlinks.js; early.js, bidi.js, sources.js, fairness.js, refusals.js, seatlinks.js, newlink.js, links.js, recap.js, chances.js, game.js; join.js; class.css, fairness.js, classrecap.js and class.js; the stylesheet four times"
    );
}

#[actix_web::test]
async fn an_unknown_or_malformed_game_gets_the_not_found_page() {
    let (_db, app) = spawn_app().await;
    let html = "text/html; charset=utf-8";
    let body = assert_page(
        &send(&app, get("/play/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")).await,
        404,
        html,
    );
    assert!(body.contains("No such game"));
    assert_page(&send(&app, get("/play/nope")).await, 404, html);
    send(&app, get("/play/assets/nope.js")).await.problem(404);
}

#[actix_web::test]
async fn the_game_page_never_puts_a_seat_token_in_a_url_it_requests() {
    // The script reads the token from the fragment and sends it only as an
    // Authorization header: no URL the script builds mentions it.
    let (_db, app) = spawn_app().await;
    let js = String::from_utf8(send(&app, get("/play/assets/game.js")).await.body).unwrap();
    assert!(js.contains("\"Authorization\"] = \"Bearer \" + seatToken"));
    for line in js.lines().filter(|l| l.contains("seatToken")) {
        assert!(
            !line.contains("fetch(") && !line.contains("EventSource(") && !line.contains("src"),
            "the token near a request URL: {line}"
        );
    }
}

#[actix_web::test]
async fn the_pages_had_no_icon_now_each_links_the_embedded_svg_served_under_the_csp() {
    let (_db, app) = spawn_app().await;
    let id = send(&app, post_json("/v1/games", &json!({}))).await.json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let link = "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">";
    for path in [
        "/play".to_owned(),
        format!("/play/{id}"),
        "/play/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79".to_owned(),
        "/join".to_owned(),
    ] {
        let page = String::from_utf8(send(&app, get(&path)).await.body).unwrap();
        assert!(page.contains(link), "{path} links the icon");
    }
    // Browsers that read no page ask for /favicon.ico: the same picture.
    let svg = send(&app, get("/favicon.svg")).await;
    let ico = send(&app, get("/favicon.ico")).await;
    for r in [&svg, &ico] {
        assert_eq!(r.status.as_u16(), 200);
        assert_eq!(r.header("content-type").as_deref(), Some("image/svg+xml"));
        assert_eq!(r.header("content-security-policy").as_deref(), Some(CSP));
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff")
        );
    }
    assert_eq!(svg.body, ico.body);
    let text = String::from_utf8(svg.body.clone()).unwrap();
    assert!(text.len() < 2048, "a small icon: {} bytes", text.len());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("viewBox"), Some("0 0 32 32"));
    // Nothing from another origin: no reference but the SVG namespace.
    assert!(
        !text
            .replace("http://www.w3.org/2000/svg", "")
            .contains("http")
    );
    assert!(!text.contains("href"));
}

/// Regression: a curator found no way on the kiosk's pages to report a
/// correction, and no word there that the text is unreviewed. Both pages
/// say that no Kiowa educator has reviewed the narration and how to report
/// a correction: to the operator's configured address when there is one
/// (escaped into the link), to whoever runs the screen otherwise.
#[actix_web::test]
async fn the_pages_say_the_text_is_unreviewed_and_where_to_report_a_correction() {
    use zohn_ahl::http::CorrectionsContact;
    let (db, plain) = spawn_app().await;
    let game = send(&plain, post_json("/v1/games", &json!({})))
        .await
        .json();
    let id = game["id"].as_str().unwrap().to_owned();
    for path in [
        "/play".to_owned(),
        format!("/play/{id}"),
        "/join".to_owned(),
    ] {
        let html = assert_page(
            &send(&plain, get(&path)).await,
            200,
            "text/html; charset=utf-8",
        );
        assert!(
            html.contains("not been reviewed by Kiowa educators"),
            "{path}"
        );
        assert!(
            html.contains("tell the people who run this screen"),
            "{path}"
        );
        assert!(!html.contains("<!-- corrections -->"), "{path}");
    }

    let contact =
        CorrectionsContact::parse("mailto:curator@museum.example?subject=Zohn Ahl \"text\"")
            .unwrap();
    let service = db.service().await;
    let with_contact = common::spawn_server_with(move || {
        zohn_ahl::http::app(service.clone()).app_data(actix_web::web::Data::new(contact.clone()))
    });
    for path in [
        "/play".to_owned(),
        format!("/play/{id}"),
        "/join".to_owned(),
    ] {
        let html = assert_page(
            &send(&with_contact, get(&path)).await,
            200,
            "text/html; charset=utf-8",
        );
        assert!(
            html.contains("not been reviewed by Kiowa educators"),
            "{path}"
        );
        let link = references(&html)
            .into_iter()
            .find(|r| r.starts_with("mailto:"))
            .unwrap_or_else(|| panic!("{path}: no mailto link"));
        assert!(
            link.starts_with("mailto:curator@museum.example?subject="),
            "{link}"
        );
        assert!(!link.contains('"'), "{link}");
    }

    for bad in [
        "javascript:alert(1)",
        "curator@museum.example",
        "ftp://x.example/",
    ] {
        assert!(CorrectionsContact::parse(bad).is_err(), "{bad}");
    }
}

/// The page's list of rulesets called the composite "the usual game", where
/// the API and the rules call it a modern reconstruction: every preset the
/// page offers is named as the API names it, and none is called usual.
#[actix_web::test]
async fn regression_the_page_called_the_composite_the_usual_game() {
    let (_db, app) = spawn_app().await;
    let new = assert_page(
        &send(&app, get("/play")).await,
        200,
        "text/html; charset=utf-8",
    );
    assert!(!new.contains("usual"), "no preset is the usual game");
    let composite = new
        .lines()
        .find(|l| l.contains("value=\"composite\""))
        .unwrap();
    assert!(composite.contains("modern reconstruction"), "{composite}");
    for preset in ["composite", "culin1898", "ludii", "a4", "boxed"] {
        assert!(
            new.contains(&format!("<option value=\"{preset}\"")),
            "{preset} offered"
        );
    }
}

/// What the QR code in `svg` says: the picture rasterized (by the
/// service's own renderer) and read back with a QR decoder.
pub(crate) fn read_qr(svg: &str) -> String {
    let png = zohn_ahl::picture::png(svg).unwrap();
    let image = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let (w, h) = (image.width() as usize, image.height() as usize);
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| {
        let p = image.pixel(x as u32, y as u32).unwrap();
        // Transparent (nothing drawn) reads as white.
        if p.alpha() == 0 { 255 } else { p.red() }
    });
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code in the picture");
    grids[0].decode().unwrap().1
}

/// A seat's link as a QR code: the start page shows one for each seat. It
/// reads back as the link, secret and all; the answer is never cached;
/// anything but a game page's link is refused, naming the body.
#[actix_web::test]
async fn a_seats_link_comes_back_as_a_qr_code_that_reads_as_the_link() {
    let (_db, app) = spawn_app().await;
    let link =
        "https://school.example/play/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79#seat=A.zx81-secret-token";
    let post = |body: &str| {
        actix_web::test::TestRequest::post()
            .uri("/play/qr")
            .insert_header(("content-type", "text/plain"))
            .set_payload(body.to_owned())
    };
    let r = send(&app, post(link)).await;
    assert_eq!(r.status.as_u16(), 200);
    assert_eq!(r.header("content-type").as_deref(), Some("image/svg+xml"));
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    let svg = String::from_utf8(r.body.clone()).unwrap();
    assert!(svg.contains("role=\"img\" aria-label="), "{svg}");
    assert_eq!(read_qr(&svg), link);
    for bad in [
        "https://school.example/v1/games",
        "javascript:alert(1)",
        "https://school.example/play/not-an-id#seat=A.x",
        "https://school.example/play/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79 x",
        &format!(
            "https://school.example/play/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79#{}",
            "x".repeat(600)
        ),
    ] {
        let problem = send(&app, post(bad)).await.problem(400);
        assert_eq!(
            problem["errors"][0]["pointer"], "#/body",
            "{bad}: {problem}"
        );
    }
}
