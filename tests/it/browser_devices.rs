//! The lesson pages on every device a class has, in a real browser (as
//! `browser.rs`, whose harness this uses): a 390 px phone, a tablet held
//! both ways, a 1920 x 1080 projector. Nothing overflows sideways, the
//! throw button is in view under the board, names of 40 characters and
//! right-to-left names keep their place, the board's size is reserved (the
//! page's layout shift at most 0.1). And screens that recover: a page that
//! loses the server says so and comes back when it returns; two devices on
//! one seat throw once (`If-Match`), the second told why in words.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::TcpListener;
use std::time::{Duration, Instant};

use actix_web::HttpServer;
use fantoccini::Client;
use serde_json::{Value, json};

use crate::browser::{Session, WAIT, css, fetch_json, js, start, throw_and_see, until};

/// The viewports a class has: (name, width, height).
const VIEWPORTS: [(&str, u32, u32); 4] = [
    ("phone", 390, 844),
    ("tablet, upright", 768, 1024),
    ("tablet, on its side", 1024, 768),
    ("projector", 1920, 1080),
];

/// A Chrome DevTools command, through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
struct Cdp(&'static str, Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({"cmd": self.0, "params": self.1});
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Give the page `width` x `height`: a phone's viewport as Chrome's device
/// emulation makes it (a desktop window is at least 500 px wide), else the
/// window, its frame added.
pub(crate) async fn viewport(client: &Client, width: u32, height: u32) {
    let phone = width < 500;
    let metrics = if phone {
        Cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 3, "mobile": true}),
        )
    } else {
        Cdp("Emulation.clearDeviceMetricsOverride", json!({}))
    };
    client.issue_cmd(metrics).await.unwrap();
    if phone {
        client.refresh().await.unwrap();
        return;
    }
    client.set_window_size(width, height).await.unwrap();
    // The window's frame, measured and added until the page has the size
    // (the window reports its new size a moment after it is set).
    let deadline = Instant::now() + WAIT;
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let got = js(
            client,
            "return [window.innerWidth, window.innerHeight, window.outerWidth, window.outerHeight]",
        )
        .await;
        let n = |i: usize| u32::try_from(got[i].as_u64().unwrap_or(0)).unwrap();
        if (n(0), n(1)) == (width, height) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the page at {width} x {height}: {got}"
        );
        let (dw, dh) = (n(2).saturating_sub(n(0)), n(3).saturating_sub(n(1)));
        client
            .set_window_size(width + dw, height + dh)
            .await
            .unwrap();
    }
}

/// How far the page reaches past the window's right edge (0: nothing
/// overflows), and the elements that do.
pub(crate) async fn overflow(client: &Client) -> Value {
    js(
        client,
        "const w = document.documentElement.clientWidth;
         const wide = [...document.querySelectorAll('body *')]
           .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 1)
           .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''));
         return { past: document.documentElement.scrollWidth - w, wide: wide.slice(0, 8) };",
    )
    .await
}

/// The page's layout shift so far (Chrome's `layout-shift` entries not
/// caused by input, summed), and what moved.
pub(crate) async fn layout_shift(client: &Client) -> (f64, Value) {
    let got = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             let sum = 0; const moved = [];
             new PerformanceObserver((list) => {
               for (const e of list.getEntries()) {
                 if (e.hadRecentInput) continue;
                 sum += e.value;
                 moved.push([Math.round(e.value * 1000) / 1000, Math.round(e.startTime), (e.sources || []).map(s => [s.node ? (s.node.id || s.node.nodeName) : '?', s.previousRect.y, s.currentRect.y, s.previousRect.height, s.currentRect.height])]);
               }
             }).observe({ type: 'layout-shift', buffered: true });
             setTimeout(() => done([sum, moved]), 300);",
            vec![],
        )
        .await
        .unwrap();
    (got[0].as_f64().unwrap(), got[1].clone())
}

/// Where element `id` is: [left, top, right, bottom].
async fn rect(client: &Client, id: &str) -> Vec<f64> {
    let r = js(
        client,
        &format!(
            "const b = document.getElementById('{id}').getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom];"
        ),
    )
    .await;
    r.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// A teacher's trial: on a 390 px phone the new-game form was 662 px wide
/// and the Big-screen toggle off screen; on a 1024 x 768 tablet the throw
/// button was below the fold; 40-character names overflowed; the board's
/// picture had no reserved size (layout shift 0.24-0.55).
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn regression_the_pages_overflowed_a_phone_and_hid_the_throw_button_on_a_tablet() {
    let session = start().await;
    let (base, client) = (&session.base, &session.client);
    // Long names, one of them right to left.
    let long = "The Very Patient Owls of the Eastern Bay";
    let rtl = "\u{5d4}\u{5e0}\u{5e9}\u{5e8}\u{5d9}\u{5dd} \u{5d4}\u{5e1}\u{5d1}\u{5dc}\u{5e0}\u{5d9}\u{5d9}\u{5dd} \u{5e9}\u{5dc} \u{5d4}\u{5d9}\u{5dd}";
    assert_eq!(long.chars().count(), 40);
    client.goto(&format!("{base}/play")).await.unwrap();
    let game = fetch_json(
        client,
        "POST",
        "/v1/games",
        Some(json!({"sides": {"a": {"name": long}, "b": {"name": rtl}}})),
    )
    .await;
    let id = game["id"].as_str().unwrap().to_owned();
    // A move, so that the latest move's caption is shown under the status.
    fetch_json(client, "POST", &format!("/v1/games/{id}/throws"), None).await;
    for (name, width, height) in VIEWPORTS {
        viewport(client, width, height).await;
        client.goto(&format!("{base}/play")).await.unwrap();
        css(client, "#create").await;
        let past = overflow(client).await;
        assert_eq!(past["past"], json!(0), "{name}: /play overflows: {past}");
        // The printable rules' index and a page too.
        for page in ["/play/rules", "/play/rules/a4?audience=young"] {
            client.goto(&format!("{base}{page}")).await.unwrap();
            css(client, "h1").await;
            let past = overflow(client).await;
            assert_eq!(past["past"], json!(0), "{name}: {page} overflows: {past}");
        }

        client
            .goto(&format!(
                "{base}/play/{id}{}",
                if width >= 1920 { "#big=1" } else { "" }
            ))
            .await
            .unwrap();
        until(
            client,
            "the board drawn",
            "const b = document.getElementById('board'); return b.complete && b.naturalWidth > 0 && document.body.dataset.feed === 'live'",
        )
        .await;
        let past = overflow(client).await;
        assert_eq!(
            past["past"],
            json!(0),
            "{name}: the game page overflows: {past}"
        );
        crate::browser::save(
            &format!("play-{}.png", name.replace([' ', ','], "-")),
            &client.screenshot().await.unwrap(),
        );
        let h = f64::from(height);
        let w = f64::from(width);
        let throw = rect(client, "throw").await;
        assert!(
            throw[1] >= 0.0 && throw[3] <= h && throw[2] <= w,
            "{name}: the throw button in view: {throw:?}"
        );
        let big = rect(client, "big").await;
        assert!(
            big[2] <= w && big[3] <= h,
            "{name}: the Big-screen toggle in view: {big:?}"
        );
        let board = rect(client, "board").await;
        assert!(
            board[1] < throw[1],
            "{name}: the board above the throw button"
        );
        // A teacher's trial: at 1024 x 768 the floating throw button
        // covered the status line. No line of the status or of the latest
        // move's caption lies under it.
        let covered = js(
            client,
            "const t = document.getElementById('throw').getBoundingClientRect();
             const hit = [];
             for (const id of ['status', 'latest', 'seat-note', 'error']) {
               const r = document.createRange();
               r.selectNodeContents(document.getElementById(id));
               for (const b of r.getClientRects()) {
                 if (b.width > 0 && b.right > t.left && b.left < t.right && b.bottom > t.top && b.top < t.bottom) {
                   hit.push(id + ': ' + r.toString().slice(0, 40));
                 }
               }
             }
             return hit;",
        )
        .await;
        assert_eq!(
            covered,
            json!([]),
            "{name}: the throw button covers the status or the latest move"
        );
        if width >= 1920 {
            // The projector: the board's own view fills the height, and its
            // space numbers are 28 px or more (the trial measured 15 px).
            let numbers = client
                .execute_async(
                    "const done = arguments[arguments.length - 1];
                     const b = document.getElementById('board');
                     fetch(b.getAttribute('src')).then(r => r.text()).then(t => {
                       const svg = new DOMParser().parseFromString(t, 'image/svg+xml');
                       const size = Number(svg.querySelector('.numbers text').getAttribute('font-size'));
                       const box = svg.documentElement.viewBox.baseVal;
                       done([size * b.clientHeight / box.height, b.clientHeight, svg.documentElement.dataset.view || '']);
                     });",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(numbers[2], json!("projector"), "{numbers}");
            assert!(
                numbers[0].as_f64().unwrap() >= 28.0,
                "{name}: the numbers' size: {numbers}"
            );
            assert!(
                numbers[1].as_f64().unwrap() >= 0.85 * h,
                "{name}: the board's height: {numbers}"
            );
        }
        // The names wrap inside the page and are isolated (<bdi>).
        let names = js(
            client,
            "return [...document.querySelectorAll('#title bdi, #status bdi')].map(b => b.textContent)",
        )
        .await;
        let names: Vec<&str> = names
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(names.contains(&long) && names.contains(&rtl), "{names:?}");
        let (shift, moved) = layout_shift(client).await;
        assert!(shift <= 0.1, "{name}: layout shift {shift}: {moved}");
        crate::browser::save(
            &format!("play-{}.png", name.replace([' ', ','], "-")),
            &client.screenshot().await.unwrap(),
        );
    }
    // A throw from the phone works like any other; a right-to-left name in
    // the move's narration is isolated too (a teacher's trial: a number
    // jumped in front of it in a recap question).
    viewport(client, 390, 844).await;
    client.goto(&format!("{base}/play/{id}")).await.unwrap();
    throw_and_see(client, 1).await;
    let isolated = js(
        client,
        "return [...document.querySelectorAll('#moves li[data-n=\"1\"] bdi')].map(b => b.textContent)",
    )
    .await;
    let text = js(
        client,
        "return document.querySelector('#moves li[data-n=\"1\"]').textContent",
    )
    .await;
    // Wherever the move's words name that side (its turn may not have
    // come yet), the name is isolated.
    assert_eq!(
        isolated
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| *n == rtl)
            .count(),
        text.as_str().unwrap().matches(rtl).count(),
        "{isolated}: {text}"
    );
}

/// Serve `service` on `addr` (a port just freed), in this test's runtime.
fn serve_on(addr: &str, service: zohn_ahl::service::Service) -> actix_web::dev::ServerHandle {
    let deadline = Instant::now() + Duration::from_secs(5);
    let listener = loop {
        match TcpListener::bind(addr) {
            Ok(l) => break l,
            Err(e) if Instant::now() > deadline => panic!("cannot bind {addr} again: {e}"),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    let server = HttpServer::new(move || zohn_ahl::http::app(service.clone()))
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
    let handle = server.handle();
    actix_web::rt::spawn(server);
    handle
}

/// A teacher's trial: with the server stopped for 8 s no screen showed
/// anything and a throw did nothing (an uncaught "Failed to fetch"). The
/// page now says it is reconnecting, waits with its throw button, and once
/// the server is back it is in step again and throws.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn regression_a_page_said_nothing_while_the_server_was_down() {
    let session: Session = start().await;
    let (base, client) = (&session.base, &session.client);
    client.goto(&format!("{base}/play")).await.unwrap();
    let game = fetch_json(client, "POST", "/v1/games", Some(json!({}))).await;
    let id = game["id"].as_str().unwrap().to_owned();
    // A phone (a second trial: scrolled down, a pupil saw no banner).
    viewport(client, 390, 844).await;
    client.goto(&format!("{base}/play/{id}")).await.unwrap();
    throw_and_see(client, 1).await;

    session.handle.stop(false).await;
    until(
        client,
        "the page says it is reconnecting",
        "const c = document.getElementById('connection'); return !c.hidden && /Reconnecting/.test(c.textContent) && document.getElementById('throw').disabled",
    )
    .await;
    // Scrolled down to the moves, the banner is still in view.
    until(
        client,
        "the banner in view at the foot of the page",
        "scrollTo(0, document.body.scrollHeight);
         const r = document.getElementById('connection').getBoundingClientRect();
         return scrollY > 0 && r.top >= 0 && r.bottom <= innerHeight && r.height > 0;",
    )
    .await;
    // Another device throws meanwhile, once the server is back: this page
    // must show that move too.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let addr = base.trim_start_matches("http://").to_owned();
    let handle = serve_on(&addr, session.db.service().await);
    let thrown = post_raw(&addr, &format!("/v1/games/{id}/throws")).await;
    assert!(thrown.starts_with("HTTP/1.1 201"), "{thrown}");
    let deadline = Instant::now() + Duration::from_secs(15);
    while js(
        client,
        "return document.getElementById('connection').hidden && !!document.querySelector('#moves li[data-n=\"2\"]')",
    )
    .await
        != json!(true)
    {
        assert!(Instant::now() < deadline, "the page did not come back in step");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let n = fetch_json(client, "GET", &format!("/v1/games/{id}"), None).await["throws"]
        .as_u64()
        .unwrap();
    throw_and_see(client, u32::try_from(n).unwrap() + 1).await;
    assert_eq!(
        js(
            client,
            "return document.getElementById('error').textContent"
        )
        .await,
        json!("")
    );
    handle.stop(false).await;
}

/// A POST with no body over a plain TCP connection: the status line and
/// the rest of the answer.
async fn post_raw(addr: &str, path: &str) -> String {
    let addr = addr.to_owned();
    let path = path.to_owned();
    tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    })
    .await
    .unwrap()
}

/// A teacher's trial: two devices on one side's link threw twice in 2 of 6
/// tries (the page sent no `If-Match`). Here the second device has not
/// heard of the first one's throw (its feed held back): its throw is
/// refused, once, and it says why in words a pupil understands, then reads
/// the game again.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn regression_two_devices_on_one_seat_threw_twice() {
    let session = start().await;
    let (base, client) = (&session.base, &session.client);
    client.goto(&format!("{base}/play")).await.unwrap();
    let game = fetch_json(client, "POST", "/v1/games", Some(json!({"seats": true}))).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let host = game["host_token"].as_str().unwrap().to_owned();
    let page = format!("{base}/play/{id}#seat=host.{host}");

    // The second device: its live feed held back (an EventSource that
    // never delivers), so it knows only the game as it first read it.
    let first = client.window().await.unwrap();
    let second = client.new_window(true).await.unwrap().handle;
    client.switch_to_window(second.clone()).await.unwrap();
    client.goto(&page).await.unwrap();
    until(
        client,
        "the second device's page ready",
        "return document.body.dataset.feed === 'live' && !document.getElementById('throw').disabled",
    )
    .await;
    js(
        client,
        "window.EventSource = class { constructor() { this.readyState = 0; } addEventListener() {} close() {} };
         const d = document.getElementById('detail'); d.value = 'brief'; d.dispatchEvent(new Event('change')); return true;",
    )
    .await;

    // The first device throws.
    client.switch_to_window(first).await.unwrap();
    client.goto(&page).await.unwrap();
    throw_and_see(client, 1).await;

    // The second throws on the version it knows: refused, in words.
    client.switch_to_window(second).await.unwrap();
    css(client, "#throw").await.click().await.unwrap();
    until(
        client,
        "the refusal said",
        "return /moved on/.test(document.getElementById('error').textContent)",
    )
    .await;
    let text = js(
        client,
        "return document.getElementById('error').textContent",
    )
    .await;
    assert!(
        !text.as_str().unwrap().contains("version"),
        "in a pupil's words: {text}"
    );
    let game = fetch_json(client, "GET", &format!("/v1/games/{id}"), None).await;
    assert_eq!(game["throws"], json!(1), "one throw, not two");
    // Read again, the page throws on the game as it is now.
    until(
        client,
        "the page read the game again",
        "return !document.getElementById('throw').disabled",
    )
    .await;
    let deadline = Instant::now() + WAIT;
    loop {
        css(client, "#throw").await.click().await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let game = fetch_json(client, "GET", &format!("/v1/games/{id}"), None).await;
        if game["throws"] == json!(2) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the second device never threw: {game}"
        );
    }
}

/// A teacher's trial: the seats' links were 136-139 characters with no copy
/// button and no QR code, and a reload of `/play` lost them for good. Each
/// link now has a copy button and a QR code (read back here as the link),
/// and the links are kept in this browser under "Games started here" until
/// the teacher forgets them.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn regression_seat_links_had_no_qr_code_and_were_lost_on_a_reload() {
    let session = start().await;
    let (base, client) = (&session.base, &session.client);
    client.goto(&format!("{base}/play")).await.unwrap();
    js(client, "localStorage.clear(); return true").await;
    client.refresh().await.unwrap();
    assert_eq!(
        js(client, "return document.getElementById('kept').hidden").await,
        json!(true)
    );
    css(client, "#name-a")
        .await
        .send_keys("Otters")
        .await
        .unwrap();
    css(client, "#seats").await.click().await.unwrap();
    css(client, "#create").await.click().await.unwrap();
    until(
        client,
        "the links shown with their QR codes",
        "return !document.getElementById('links').hidden && ['host', 'a', 'b'].every(k => document.querySelector('#qr-' + k + ' svg'))",
    )
    .await;
    let links = js(
        client,
        "return Object.fromEntries(['watch', 'host', 'a', 'b'].map(k => [k, document.getElementById('link-' + k).href]))",
    )
    .await;
    let codes = js(
        client,
        "return ['a', 'b'].map(k => document.getElementById('code-' + k).textContent)",
    )
    .await;
    assert!(
        codes
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.as_str().unwrap().len() == 7),
        "each side's join code, in two groups of three: {codes}"
    );
    for key in ["host", "a", "b"] {
        let svg = js(
            client,
            &format!("return document.querySelector('#qr-{key} svg').outerHTML"),
        )
        .await;
        assert_eq!(
            json!(crate::api_play::read_qr(svg.as_str().unwrap())),
            links[key],
            "the QR code of {key}'s link reads as the link"
        );
    }
    let label = js(
        client,
        "return document.querySelector('#qr-a svg').getAttribute('aria-label')",
    )
    .await;
    assert_eq!(label, json!("QR code of the link for Otters"));
    // Copy: the button says it did.
    css(client, "button.copy[data-for=url-a]")
        .await
        .click()
        .await
        .unwrap();
    until(
        client,
        "the copy button says it copied",
        "return document.querySelector('button.copy[data-for=url-a]').textContent === 'Copied'",
    )
    .await;

    // The teacher's page shows the sides' links again, with their codes; a
    // side's page never shows them.
    client.goto(links["host"].as_str().unwrap()).await.unwrap();
    until(
        client,
        "the sides' links on the teacher's page",
        "return !document.getElementById('seat-links').hidden && document.querySelectorAll('#seat-links-list svg').length === 2",
    )
    .await;
    let again = js(
        client,
        "return [...document.querySelectorAll('#seat-links-list a')].map(a => a.href)",
    )
    .await;
    assert_eq!(again, json!([links["a"], links["b"], links["watch"]]));
    assert_eq!(
        js(
            client,
            "return [...document.querySelectorAll('#seat-links-list .seat-code')].map(c => c.textContent)",
        )
        .await,
        codes,
        "the teacher's page shows the codes kept"
    );
    // The same page with another fragment: it loads afresh for that seat.
    client.goto(links["a"].as_str().unwrap()).await.unwrap();
    until(
        client,
        "side A's page",
        "return document.getElementById('seat-note').textContent.startsWith('You play Otters')",
    )
    .await;
    assert_eq!(
        js(client, "return document.getElementById('seat-links').hidden && !document.querySelector('#seat-links-list li')").await,
        json!(true),
        "a side's page shows no other link"
    );

    // A reload keeps the links, under "Games started here".
    client.goto(&format!("{base}/play")).await.unwrap();
    until(
        client,
        "the game kept",
        "return !document.getElementById('kept').hidden && document.querySelectorAll('#kept-list > li').length === 1",
    )
    .await;
    let kept = js(
        client,
        "return [...document.querySelectorAll('#kept-list > li a')].map(a => a.href)",
    )
    .await;
    assert_eq!(
        kept,
        json!([links["watch"], links["host"], links["a"], links["b"]])
    );
    css(client, "#kept-list button")
        .await
        .click()
        .await
        .unwrap();
    until(
        client,
        "the links forgotten",
        "return document.getElementById('kept').hidden && localStorage.getItem('zohn-ahl.games') === '[]'",
    )
    .await;
}

/// What `fetch` answers for a POST to `path` with `token` as the bearer:
/// its status.
async fn post_status(client: &Client, path: &str, token: &str) -> Value {
    client
        .execute_async(
            "const [path, token] = arguments; const done = arguments[arguments.length - 1];
             fetch(path, { method: 'POST', headers: { authorization: 'Bearer ' + token } })
               .then(r => done(r.status));",
            vec![json!(path), json!(token)],
        )
        .await
        .unwrap()
}

/// Issue 28, point 1: a pupil on a phone types her side's join code on
/// `/join` (a wrong one first, told in plain words), lands on her seat's
/// page and throws; the teacher's page shows each side's code, and its
/// "New link" (asked first) shows a new link and code, and the old token
/// and code are refused from then on.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn a_pupil_joins_by_code_on_a_phone_and_throws_and_a_new_link_ends_the_old_one() {
    let session = start().await;
    let (base, client) = (&session.base, &session.client);
    client.goto(&format!("{base}/play")).await.unwrap();
    js(client, "localStorage.clear(); return true").await;
    let game = fetch_json(
        client,
        "POST",
        "/v1/games",
        Some(json!({"seats": true, "sides": {"a": {"name": "Otters"}, "b": {"name": "Herons"}}})),
    )
    .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let host = game["host_token"].as_str().unwrap().to_owned();
    let old_token = game["seat_tokens"]["a"].as_str().unwrap().to_owned();
    let old_code = game["join_codes"]["a"].as_str().unwrap().to_owned();

    viewport(client, 390, 844).await;
    client.goto(&format!("{base}/join")).await.unwrap();
    css(client, "#code").await;
    let past = overflow(client).await;
    assert_eq!(past["past"], json!(0), "/join overflows a phone: {past}");
    let size = js(
        client,
        "return parseFloat(getComputedStyle(document.getElementById('code')).fontSize)",
    )
    .await;
    assert!(size.as_f64().unwrap() >= 32.0, "big letters: {size}");
    assert_eq!(
        js(
            client,
            "return document.querySelector('label[for=code]').textContent"
        )
        .await,
        json!("Your side's code")
    );
    // A code of no open game: plain words, and the pupil stays.
    let wrong = if old_code == "ZZZZZZ" {
        "YYY YYY"
    } else {
        "ZZZ ZZZ"
    };
    css(client, "#code").await.send_keys(wrong).await.unwrap();
    css(client, "#join-button").await.click().await.unwrap();
    until(
        client,
        "the wrong code refused in plain words",
        "return document.getElementById('join-error').textContent === 'That code does not match an open game. Check it with your teacher.'",
    )
    .await;
    // Her code as she types it: small letters, a space.
    let typed = format!("{} {}", old_code[..3].to_lowercase(), &old_code[3..]);
    css(client, "#code").await.clear().await.unwrap();
    css(client, "#code").await.send_keys(&typed).await.unwrap();
    css(client, "#join-button").await.click().await.unwrap();
    until(
        client,
        "side A's page, opened by the code",
        "return location.pathname.startsWith('/play/') && document.getElementById('seat-note').textContent.startsWith('You play Otters')",
    )
    .await;
    let url = client.current_url().await.unwrap();
    assert_eq!(
        url.as_str(),
        format!("{base}/play/{id}#seat=A.{old_token}"),
        "the same link as the seat's"
    );
    throw_and_see(client, 1).await;

    // The teacher's page: each side's code beside its link; a new link
    // for A, asked first.
    viewport(client, 1024, 768).await;
    client
        .goto(&format!("{base}/play/{id}#seat=host.{host}"))
        .await
        .unwrap();
    until(
        client,
        "the sides' codes and their new-link buttons",
        "return !document.getElementById('seat-links').hidden && document.querySelectorAll('#seat-links-list button.new-link').length === 2",
    )
    .await;
    js(
        client,
        "document.getElementById('seat-links').open = true; document.querySelector('li[data-side=A] button.new-link').scrollIntoView({block: 'center'}); return true",
    )
    .await;
    css(client, "li[data-side=A] button.new-link")
        .await
        .click()
        .await
        .unwrap();
    assert_eq!(
        js(
            client,
            "return document.querySelector('li[data-side=A] p.confirm').hidden"
        )
        .await,
        json!(false),
        "it asks first"
    );
    js(
        client,
        "document.querySelector('li[data-side=A] button.make-new-link').scrollIntoView({block: 'center'}); return true",
    )
    .await;
    css(client, "li[data-side=A] button.make-new-link")
        .await
        .click()
        .await
        .unwrap();
    until(
        client,
        "the new link, code and QR code shown",
        "return document.getElementById('seat-links-status').textContent.startsWith('New link made for Otters') && !!document.querySelector('li[data-side=A] .seat-code') && !!document.querySelector('li[data-side=A] .qr svg')",
    )
    .await;
    let shown = js(
        client,
        "const li = document.querySelector('li[data-side=A]'); return [li.querySelector('a').href, li.querySelector('.seat-code').textContent, li.querySelector('.qr svg').dataset.link]",
    )
    .await;
    let link = shown[0].as_str().unwrap().to_owned();
    let new_code = shown[1].as_str().unwrap().replace(' ', "");
    assert_eq!(shown[2], json!(link), "the QR code is the new link's");
    let new_token = link
        .split_once("#seat=A.")
        .map(|(_, t)| t.to_owned())
        .unwrap();
    assert_ne!(new_token, old_token);
    assert_ne!(new_code, old_code);
    // The old token and code are refused; the new code opens the new link.
    assert_eq!(
        post_status(client, &format!("/v1/games/{id}/throws"), &old_token).await,
        json!(401)
    );
    let old = fetch_json(client, "POST", "/v1/join", Some(json!({"code": old_code}))).await;
    assert_eq!(old["status"], json!(404));
    let joined = fetch_json(client, "POST", "/v1/join", Some(json!({"code": new_code}))).await;
    assert_eq!(joined["token"], json!(new_token));
    assert_eq!(format!("{base}{}", joined["play"].as_str().unwrap()), link);
    // The pupil's old link, on A's turn (the host throws for B till
    // then): its throw is refused in plain words.
    loop {
        let g = fetch_json(client, "GET", &format!("/v1/games/{id}"), None).await;
        if g["to_throw"]["side"] == json!("A") {
            break;
        }
        assert_eq!(g["status"], json!("in_progress"));
        assert_eq!(
            post_status(client, &format!("/v1/games/{id}/throws"), &host).await,
            json!(201)
        );
    }
    client
        .goto(&format!("{base}/play/{id}#seat=A.{old_token}"))
        .await
        .unwrap();
    until(
        client,
        "the old link's page ready",
        "return document.body.dataset.feed === 'live' && !document.getElementById('throw').disabled",
    )
    .await;
    js(
        client,
        "document.getElementById('throw').scrollIntoView({block: 'center'}); return true",
    )
    .await;
    css(client, "#throw").await.click().await.unwrap();
    until(
        client,
        "the old link told it no longer works",
        "return document.getElementById('error').textContent === \"This link no longer works. Ask your teacher for your side's new link or code.\"",
    )
    .await;
    // This browser did not start the game: it keeps no link of it.
    let kept = js(
        client,
        "return JSON.parse(localStorage.getItem('zohn-ahl.games') || '[]')",
    )
    .await;
    assert_eq!(kept, json!([]));
}
