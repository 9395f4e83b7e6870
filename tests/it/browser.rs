//! The lesson page in a real browser: Debian's `chromium`, driven through
//! `chromedriver` over WebDriver (fantoccini), against the real server on a
//! local port. Opens `/play`, starts a game, throws until the feed shows
//! five moves, checks that the board moved, switches the audience, reloads
//! and resumes, plays a seated game from its side's link (the token never
//! in a URL the page requests), and saves screenshots in the target
//! directory (`play-game.png`, `play-big.png`, `play-new.png`). A stopped
//! game's page shows the game's final board: on the page that stopped it,
//! on another page told through the feed, after a reload, an audience
//! switch and in big-screen mode.
//!
//! Built without `chromedriver` and `chromium` (on `PATH`, or `CHROMEDRIVER`
//! and `CHROMIUM`) the tests are ignored, saying why, unless `CI` is set:
//! then they run, and fail without them (the cfg `browser_tests`, see
//! `build.rs`). Each browser test carries the `cfg_attr` below.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use actix_web::HttpServer;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// The chromedriver process, killed when dropped.
pub(crate) struct Driver(pub(crate) Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// chromedriver and chromium, or `None` (with the reason) when missing.
pub(crate) fn tools() -> Result<(PathBuf, PathBuf), String> {
    let driver = std::env::var_os("CHROMEDRIVER")
        .map(PathBuf::from)
        .or_else(|| on_path("chromedriver"))
        .ok_or("no chromedriver on PATH (Debian: apt-get install chromium chromium-driver)")?;
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| on_path("chromium"))
        .or_else(|| Some(PathBuf::from("/usr/bin/chromium")).filter(|p| p.is_file()))
        .ok_or("no chromium on PATH (Debian: apt-get install chromium chromium-driver)")?;
    Ok((driver, chromium))
}

/// Built without a browser, `cargo test` said the browser test passed: it
/// returned at its first line, and the line saying so was captured. It is
/// ignored now, saying what it needs; built with one (or with `CI` set), it
/// runs.
#[test]
fn regression_the_browser_test_passed_without_a_browser() {
    common::assert_the_other_tests_run_or_say_why(
        cfg!(browser_tests),
        "browser::regression_the_browser_test_passed_without_a_browser",
        "needs chromium and chromedriver",
    );
}

pub(crate) async fn connect(port: u16, chromium: &Path, profile: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", "--window-size=1280,1000",
                format!("--user-data-dir={}", profile.display()),
            ]
        }),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let attempt = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await;
        match attempt {
            Ok(client) => return client,
            Err(e) if Instant::now() > deadline => panic!("chromedriver did not start: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

pub(crate) const WAIT: Duration = Duration::from_secs(10);

/// The first element `selector` finds, waited for at most [`WAIT`]. A
/// navigation under way is waited out too: chromedriver answers a look-up
/// made while the page changes with "aborted by navigation", which once
/// failed the lesson page's test when the start page opened the game.
pub(crate) async fn css(client: &Client, selector: &str) -> fantoccini::elements::Element {
    let deadline = Instant::now() + WAIT;
    loop {
        match client.find(Locator::Css(selector)).await {
            Ok(element) => return element,
            Err(e) if Instant::now() > deadline => panic!("no {selector} within {WAIT:?}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

pub(crate) async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, Vec::new()).await.unwrap()
}

/// Wait until `script` returns true (a script cut short by a navigation
/// is run again).
pub(crate) async fn until(client: &Client, what: &str, script: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        let last = client.execute(script, Vec::new()).await;
        if matches!(&last, Ok(v) if *v == json!(true)) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "not within {WAIT:?}: {what} ({last:?})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(crate) fn save(name: &str, png: &[u8]) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, png).unwrap();
    eprintln!("screenshot: {}", path.display());
    path
}

/// Click the throw button and wait for move `n` in the feed.
pub(crate) async fn throw_and_see(client: &Client, n: u32) {
    until(
        client,
        "the throw button enabled",
        "return !document.getElementById('throw').disabled",
    )
    .await;
    css(client, "#throw").await.click().await.unwrap();
    css(client, &format!("#moves li[data-n=\"{n}\"]")).await;
}

/// The real server on a local port over a fresh database file, and a
/// browser driven through chromedriver; dropped, chromedriver stops.
pub(crate) struct Session {
    pub(crate) base: String,
    pub(crate) handle: actix_web::dev::ServerHandle,
    pub(crate) client: Client,
    _driver: Driver,
    _profile: tempfile::TempDir,
    pub(crate) db: common::TestDb,
}

pub(crate) async fn start() -> Session {
    let (driver_bin, chromium) =
        tools().unwrap_or_else(|why| panic!("the browser test cannot run: {why}"));
    let db = common::TestDb::new();
    let service = db.service().await;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = HttpServer::new(move || zohn_ahl::http::app(service.clone()))
        .workers(2)
        .listen(listener)
        .unwrap()
        .run();
    let handle = server.handle();
    actix_web::rt::spawn(server);
    let port = common::process::free_port();
    let driver = Driver(
        Command::new(&driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let profile = tempfile::tempdir().unwrap();
    let client = connect(port, &chromium, profile.path()).await;
    Session {
        base,
        handle,
        client,
        _driver: driver,
        _profile: profile,
        db,
    }
}

#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn a_teacher_plays_a_game_in_a_real_browser() {
    let Session {
        base,
        handle,
        client,
        _driver,
        _profile,
        db: _db,
    } = start().await;

    // /play: start a game for young players.
    client.goto(&format!("{base}/play")).await.unwrap();
    css(&client, "#name-a")
        .await
        .send_keys("Ama")
        .await
        .unwrap();
    css(&client, "#name-b")
        .await
        .send_keys("Bea")
        .await
        .unwrap();
    css(&client, "#audience")
        .await
        .select_by_value("general")
        .await
        .unwrap();
    save("play-new.png", &client.screenshot().await.unwrap());
    css(&client, "#create").await.click().await.unwrap();
    css(&client, "#moves").await;
    let url = client.current_url().await.unwrap();
    let id = url.path().trim_start_matches("/play/").to_owned();
    assert_eq!(id.len(), 36, "a game's page: {url}");
    until(
        &client,
        "the game's names in the title",
        "return document.getElementById('title').textContent === 'Ama and Bea'",
    )
    .await;
    until(
        &client,
        "the opening board",
        "const b = document.getElementById('board'); return b.getAttribute('src').startsWith(location.pathname.replace('/play/', '/v1/games/') + '/board.svg?v=') && b.dataset.shows === 'game' && b.complete && b.naturalWidth > 0",
    )
    .await;

    // Throw until the feed shows five moves.
    for n in 1..=5 {
        throw_and_see(&client, n).await;
    }
    until(
        &client,
        "the page kept in step through the live feed",
        "return document.body.dataset.feed === 'live'",
    )
    .await;
    let items = js(
        &client,
        "return document.querySelectorAll('#moves li').length",
    )
    .await;
    assert_eq!(items, json!(5));
    // Every citation links to its source: the source online where its
    // record gives an https URL, else the record.
    let cites = js(
        &client,
        "return fetch('/v1/sources').then(r => r.json()).then(b => { const url = Object.fromEntries(b.items.map(s => [s.id, s.URL])); return [...document.querySelectorAll('#moves .cites a')].map(a => [a.title, a.getAttribute('href'), url]); })",
    )
    .await;
    let cites = cites.as_array().unwrap();
    assert!(!cites.is_empty());
    for cite in cites {
        let href = cite[1].as_str().unwrap();
        let online = cite[2]
            .as_object()
            .unwrap()
            .values()
            .any(|u| u.as_str() == Some(href) && href.starts_with("https://"));
        assert!(online || href.starts_with("/v1/sources/"), "{cite:?}");
    }
    // Each source has a label of its own: they once read "Digital Ludeme
    // Project" for five sources and "Zohn Ahl" for two.
    let labels = js(&client, "return window.zohnAhl.labels()").await;
    let labels = labels.as_object().unwrap();
    let catalogue: Value = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/v1/sources').then(r => r.json()).then(done);",
            Vec::new(),
        )
        .await
        .unwrap();
    let catalogue = catalogue["items"].as_array().unwrap();
    assert_eq!(labels.len(), catalogue.len(), "a label for every source");
    let distinct: std::collections::HashSet<&str> =
        labels.values().map(|l| l.as_str().unwrap()).collect();
    assert_eq!(distinct.len(), labels.len(), "labels alike: {labels:?}");
    assert_eq!(labels["culin1907"], "Culin 1907");
    // A citation's link reads its source's label, then the page if any.
    let links = js(
        &client,
        "return [...document.querySelectorAll('#moves .cites a')].map(a => [a.dataset.source, a.textContent])",
    )
    .await;
    for link in links.as_array().unwrap() {
        let (source, text) = (link[0].as_str().unwrap(), link[1].as_str().unwrap());
        let label = labels[source].as_str().unwrap();
        assert!(
            text == label || text.starts_with(&format!("{label}, ")),
            "{source}: {text:?}"
        );
    }

    // The board moved: its picture is now the fifth move's, drawn, and not
    // the opening's.
    until(
        &client,
        "the board showing move 5",
        "const b = document.getElementById('board'); return b.getAttribute('src').endsWith('/moves/5/board.svg') && b.complete && b.naturalWidth > 0",
    )
    .await;
    let moved = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const id = arguments[0];
             Promise.all([fetch('/v1/games/' + id + '/moves/5/board.svg'), fetch('/v1/games/' + id + '/moves/1/board.svg')])
               .then(rs => Promise.all(rs.map(r => r.text())))
               .then(([a, b]) => done(a !== b && a.includes('<svg')));",
            vec![json!(id)],
        )
        .await
        .unwrap();
    assert_eq!(
        moved,
        json!(true),
        "the board after move 5 differs from after move 1"
    );
    let game: Value = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/v1/games/' + arguments[0]).then(r => r.json()).then(done);",
            vec![json!(id)],
        )
        .await
        .unwrap();
    // The page's own reading of the game follows the moves (it reads the
    // game again after each move of the feed).
    let awls = format!(
        "{},{}",
        game["sides"][0]["awl"]["space"], game["sides"][1]["awl"]["space"]
    );
    until(
        &client,
        "the page showing the game's awls",
        &format!("return document.getElementById('board').dataset.awls === '{awls}'"),
    )
    .await;
    save("play-game.png", &client.screenshot().await.unwrap());
    save(
        "play-feed.png",
        &css(&client, ".feed").await.screenshot().await.unwrap(),
    );

    // Switch the audience: the moves are told again, for young players.
    let general = css(&client, "#moves li[data-n=\"1\"]")
        .await
        .text()
        .await
        .unwrap();
    css(&client, "#audience")
        .await
        .select_by_value("young")
        .await
        .unwrap();
    let deadline = Instant::now() + WAIT;
    loop {
        let now = client
            .find(Locator::Css("#moves li[data-n=\"1\"]"))
            .await
            .ok();
        if let Some(li) = now
            && li.text().await.unwrap_or_default() != general
        {
            break;
        }
        assert!(Instant::now() < deadline, "the moves were not told again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    css(&client, "#moves li[data-n=\"5\"]").await;
    assert!(
        client
            .current_url()
            .await
            .unwrap()
            .fragment()
            .unwrap_or("")
            .contains("audience=young")
    );

    // Reload: the page resumes, in the audience chosen, with the five moves
    // once each, and keeps following the game.
    client.refresh().await.unwrap();
    css(&client, "#moves li[data-n=\"5\"]").await;
    let audience = css(&client, "#audience").await.prop("value").await.unwrap();
    assert_eq!(audience.as_deref(), Some("young"));
    let segments = js(&client, "return [...document.querySelectorAll('#moves li[data-n=\"1\"] .segment')].map(s => s.textContent).join(' ')").await;
    let young: Value = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/v1/games/' + arguments[0] + '/moves/1?audience=young').then(r => r.json()).then(done);",
            vec![json!(id)],
        )
        .await
        .unwrap();
    let first_young = young["narration"]["segments"][0]["text"].as_str().unwrap();
    assert!(
        segments.as_str().unwrap().contains(first_young),
        "move 1 told for young players after the reload"
    );
    // The caption line was blank after a reload until the next move: it
    // shows the newest move's caption at once.
    let caption5: Value = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/v1/games/' + arguments[0] + '/moves/5?audience=young').then(r => r.json()).then(m => done(m.caption));",
            vec![json!(id)],
        )
        .await
        .unwrap();
    until(
        &client,
        "the newest move's caption shown after the reload",
        &format!(
            "return document.getElementById('latest').textContent === {}",
            caption5
        ),
    )
    .await;

    // Tell the moves in brief: move 2 reads as the API tells it at that
    // detail, and the choice is kept in the address.
    css(&client, "#detail")
        .await
        .select_by_value("brief")
        .await
        .unwrap();
    let brief: Value = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/v1/games/' + arguments[0] + '/moves/2?audience=young&detail=brief').then(r => r.json()).then(m => done(m.narration.segments.map(s => s.text).join(' ')));",
            vec![json!(id)],
        )
        .await
        .unwrap();
    until(
        &client,
        "move 2 told in brief",
        &format!(
            "return location.hash.includes('detail=brief') && [...document.querySelectorAll('#moves li[data-n=\"2\"] .segment')].map(s => s.textContent).join(' ').includes({brief})"
        ),
    )
    .await;
    css(&client, "#moves li[data-n=\"5\"]").await;

    throw_and_see(&client, 6).await;
    let items = js(
        &client,
        "return document.querySelectorAll('#moves li').length",
    )
    .await;
    assert_eq!(items, json!(6), "each move once");

    // Report a physical throw (two sticks flat, the sahe round): it is
    // played, and the fairness section counts it.
    until(
        &client,
        "the report button enabled",
        "return !document.getElementById('report-send').disabled",
    )
    .await;
    for (stick, face) in [(1, "flat"), (2, "flat"), (3, "round"), (4, "round")] {
        css(&client, &format!("#stick-{stick}"))
            .await
            .select_by_value(face)
            .await
            .unwrap();
    }
    css(&client, "#report-send").await.click().await.unwrap();
    css(&client, "#moves li[data-n=\"7\"]").await;
    until(
        &client,
        "the fairness section counting the reported throw",
        "return document.getElementById('fair-figures').textContent === 'Reported throws so far: 1.'",
    )
    .await;
    let fair = css(&client, "#fair-text").await.text().await.unwrap();
    assert!(fair.contains("We have 1"), "told for young players: {fair}");

    // Big-screen mode.
    css(&client, "#big").await.click().await.unwrap();
    until(
        &client,
        "big-screen mode",
        "return document.documentElement.classList.contains('big')",
    )
    .await;
    // On a 1920 x 1080 projector the board and the newest move's caption
    // and narration are all above the fold (the feed once started below
    // it, under the board).
    // The window's own frame taken into account, so that the page gets
    // 1920 x 1080 as on a projector in full screen.
    client.set_window_size(1920, 1080).await.unwrap();
    let frame = js(&client, "return window.outerHeight - window.innerHeight").await;
    let frame = u32::try_from(frame.as_u64().unwrap_or(0)).unwrap();
    client.set_window_size(1920, 1080 + frame).await.unwrap();
    until(
        &client,
        "the page at 1920 x 1080",
        "return window.innerWidth === 1920 && window.innerHeight === 1080",
    )
    .await;
    until(
        &client,
        "the board drawn",
        "const b = document.getElementById('board'); return b.complete && b.naturalWidth > 0",
    )
    .await;
    let layout = js(
        &client,
        "const r = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
         const first = document.querySelector('#moves li');
         return { height: window.innerHeight, width: window.innerWidth,
                  board: r(document.getElementById('board')),
                  latest: r(document.getElementById('latest')),
                  latestText: document.getElementById('latest').textContent,
                  caption: r(first.querySelector('.caption')),
                  segment: r(first.querySelector('.segment')),
                  throwButton: r(document.getElementById('throw')) };",
    )
    .await;
    let height = layout["height"].as_f64().unwrap();
    let side = |name: &str, i: usize| layout[name][i].as_f64().unwrap();
    for name in ["board", "latest", "caption", "segment", "throwButton"] {
        assert!(
            side(name, 3) <= height && side(name, 1) >= 0.0 && side(name, 3) > side(name, 1),
            "{name} above the fold: {layout}"
        );
    }
    assert!(
        side("board", 3) - side("board", 1) >= 0.6 * height,
        "the board large: {layout}"
    );
    assert!(
        side("latest", 0) >= side("board", 2),
        "the narration beside the board: {layout}"
    );
    assert!(!layout["latestText"].as_str().unwrap().is_empty());
    save("play-big.png", &client.screenshot().await.unwrap());
    client.set_window_size(1280, 1000).await.unwrap();

    // A seated game: each side plays from its own link; the token stays in
    // the fragment and no URL the page requested carries it.
    client.goto(&format!("{base}/play")).await.unwrap();
    css(&client, "#seats").await.click().await.unwrap();
    css(&client, "#create").await.click().await.unwrap();
    let link = css(&client, "#link-a").await;
    until(
        &client,
        "the seat links",
        "return document.getElementById('link-a').getAttribute('href').includes('#seat=A.')",
    )
    .await;
    let href = link.attr("href").await.unwrap().unwrap();
    let host_href = css(&client, "#link-host")
        .await
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    assert!(host_href.contains("#seat=host."), "{host_href}");
    // The projector's link opens the big screen.
    let watch_href = css(&client, "#link-watch")
        .await
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    assert!(watch_href.ends_with("#big=1"), "{watch_href}");
    let token = href.split("#seat=A.").nth(1).unwrap().to_owned();
    assert_eq!(token.len(), 64);
    // The links are whole addresses, to copy or scan.
    assert!(href.starts_with(&format!("{base}/play/")), "{href}");
    client.goto(&href).await.unwrap();
    throw_and_see(&client, 1).await;
    let requested = js(
        &client,
        "return performance.getEntriesByType('resource').map(e => e.name).concat([location.pathname + location.search])",
    )
    .await;
    let requested = requested.as_array().unwrap();
    assert!(requested.len() > 3, "{requested:?}");
    for url in requested {
        assert!(
            !url.as_str().unwrap().contains(&token),
            "the seat token in a requested URL: {url}"
        );
    }
    // On the other side's turn this page cannot throw.
    until(
        &client,
        "the throw button follows whose turn it is",
        "return fetch(location.pathname.replace('/play/', '/v1/games/')).then(r => r.json()).then(g => document.getElementById('throw').disabled === (g.to_throw.side !== 'A'))",
    )
    .await;
    // A side's page neither stops the game nor reports real sticks (the
    // game was made without `sides_report_throws`): a side's page that
    // offered them failed on every try. Both are the teacher's.
    until(
        &client,
        "a side's page without stop and the report form",
        "return document.getElementById('stop').hidden && document.getElementById('report').hidden",
    )
    .await;
    // The teacher's link reports the class's real sticks, and may stop.
    // (A new page: only the fragment differs from the side's, and a
    // fragment change alone does not load a page again.)
    client.goto("about:blank").await.unwrap();
    client.goto(&host_href).await.unwrap();
    until(
        &client,
        "the teacher's page with the report form and stop",
        "return !document.getElementById('report').hidden && !document.getElementById('report-send').disabled && !document.getElementById('stop').hidden && !document.getElementById('stop').disabled",
    )
    .await;
    css(&client, "#report-send").await.click().await.unwrap();
    until(
        &client,
        "the teacher's reported throw played",
        "return fetch(location.pathname.replace('/play/', '/v1/games/') + '/moves').then(r => r.json()).then(p => p.items.some(m => m.origin === 'reported'))",
    )
    .await;

    // From the keyboard: Enter on the throw button throws, and the focus
    // stays on the button for the next throw (it was lost to the page's
    // body after each throw, so a second Enter did nothing).
    let moves_before = js(
        &client,
        "return document.querySelectorAll('#moves li[data-n]').length",
    )
    .await;
    let next = moves_before.as_u64().unwrap() + 1;
    js(
        &client,
        "document.getElementById('throw').focus(); return true",
    )
    .await;
    css(&client, "#throw")
        .await
        .send_keys("\u{E007}")
        .await
        .unwrap();
    css(&client, &format!("#moves li[data-n=\"{next}\"]")).await;
    until(
        &client,
        "the keyboard's focus back on the throw button after a throw",
        "return document.activeElement && document.activeElement.id === 'throw'",
    )
    .await;

    // A citation opens in a new tab, so that a tap keeps the game on screen.
    until(
        &client,
        "citation links that open a new tab",
        "const a = [...document.querySelectorAll('#moves .cites a')]; return a.length > 0 && a.every(x => x.target === '_blank' && x.rel.includes('noopener'))",
    )
    .await;

    // Stop, from the teacher's page: the stop's narrated result is shown
    // (the page once read the answer as a game view and threw a TypeError).
    js(
        &client,
        "window.__errors = []; window.addEventListener('error', e => window.__errors.push(String(e.message))); window.confirm = () => true; return true",
    )
    .await;
    css(&client, "#stop").await.click().await.unwrap();
    until(
        &client,
        "the stop's narration at the top of the moves and the game over",
        "return document.querySelector('#moves li.stop .segment') !== null && document.getElementById('status').textContent.startsWith('The game is over')",
    )
    .await;
    assert_eq!(
        js(&client, "return window.__errors").await,
        json!([]),
        "no script error on stop"
    );

    // The game over, its recap for the class: three to five questions,
    // each answer hidden until asked for, then the summary, closed too
    // (it answers them: a teacher's trial).
    until(
        &client,
        "the recap shown once the game is over",
        "const r = document.getElementById('recap'); return !r.hidden && document.querySelectorAll('#recap-summary li').length > 0 && document.querySelectorAll('#recap-questions li details').length >= 3",
    )
    .await;
    let questions = js(
        &client,
        "return [...document.querySelectorAll('#recap-questions li')].map(li => [li.querySelector('p').textContent, li.querySelector('details').open])",
    )
    .await;
    let questions = questions.as_array().unwrap();
    assert!((3..=5).contains(&questions.len()), "{questions:?}");
    assert!(
        questions.iter().all(|q| q[1] == json!(false)),
        "answers start hidden"
    );
    assert_eq!(
        js(
            &client,
            "const d = document.getElementById('recap-numbers'); return [d.open, d.compareDocumentPosition(document.getElementById('recap-questions')) === Node.DOCUMENT_POSITION_PRECEDING]",
        )
        .await,
        json!([false, true]),
        "the summary, which answers the questions, comes after them and closed"
    );

    // The chart of the chances under the board, its description the
    // image's alt text.
    until(
        &client,
        "the chart of the chances shown with its description",
        "const f = document.getElementById('chances-figure'); const i = document.getElementById('chances'); return f && !f.hidden && i.complete && i.naturalWidth > 0 && i.alt.length > 40",
    )
    .await;

    client.close().await.unwrap();
    handle.stop(false).await;
}

/// `fetch` in the page: the answer's JSON (`null` for an empty body).
pub(crate) async fn fetch_json(
    client: &Client,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Value {
    client
        .execute_async(
            "const [method, path, body] = arguments; const done = arguments[arguments.length - 1];
             fetch(path, { method, headers: body ? { 'content-type': 'application/json' } : {},
                           body: body ? JSON.stringify(body) : undefined })
               .then(r => r.text()).then(t => done(t ? JSON.parse(t) : null));",
            vec![json!(method), json!(path), body.unwrap_or(Value::Null)],
        )
        .await
        .unwrap()
}

/// What the page's board shows once its picture is drawn: its `src`, what
/// the page says it shows (`data-shows`), and the picture's own words (its
/// `<title>`, `<desc>` and `data-winner`), read from that `src`.
async fn board_shown(client: &Client) -> Value {
    until(
        client,
        "the board drawn",
        "const b = document.getElementById('board'); return b.getAttribute('src') !== null && b.complete && b.naturalWidth > 0",
    )
    .await;
    client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const b = document.getElementById('board');
             const src = b.getAttribute('src');
             fetch(src).then(r => r.text()).then(t => {
               const svg = new DOMParser().parseFromString(t, 'image/svg+xml');
               done({ src, shows: b.dataset.shows || null,
                      title: svg.querySelector('title').textContent,
                      desc: svg.querySelector('desc').textContent,
                      winner: svg.documentElement.getAttribute('data-winner') });
             });",
            Vec::new(),
        )
        .await
        .unwrap()
}

/// The page's board is the game's final board: the game's own picture at
/// its last version, which says who won, and not a move's, which says whose
/// throw it was.
async fn assert_final_board(client: &Client, id: &str, game: &Value, what: &str) {
    let version = &game["version"];
    // On the big screen, the projector's view of the same board.
    let big = js(
        client,
        "return document.documentElement.classList.contains('big')",
    )
    .await;
    let view = if big == json!(true) {
        "&view=projector"
    } else {
        ""
    };
    let expected = format!("/v1/games/{id}/board.svg?v={version}{view}");
    until(
        client,
        &format!("{what}: the board is {expected}"),
        &format!(
            "return document.getElementById('board').getAttribute('src') === {}",
            json!(expected)
        ),
    )
    .await;
    let shown = board_shown(client).await;
    assert_eq!(shown["src"], json!(expected), "{what}: {shown}");
    assert_eq!(shown["shows"], "final", "{what}: {shown}");
    let progress = match game["throws"].as_u64().unwrap() {
        0 => "before the first throw".to_owned(),
        1 => "after 1 throw".to_owned(),
        n => format!("after {n} throws"),
    };
    let title = shown["title"].as_str().unwrap();
    assert!(
        title.ends_with(&format!("finished {progress}")),
        "{what}: {title}"
    );
    let desc = shown["desc"].as_str().unwrap();
    let over = match game["winner"].as_str() {
        Some(side) => {
            let name = game["sides"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["side"] == side)
                .unwrap()["name"]
                .as_str()
                .unwrap();
            assert_eq!(shown["winner"], side.to_lowercase(), "{what}: {shown}");
            format!("The game is over: {name} won.")
        }
        None => {
            assert_eq!(shown["winner"], "draw", "{what}: {shown}");
            "The game is over: a draw.".to_owned()
        }
    };
    assert!(desc.ends_with(&over), "{what}: {desc}");
    assert!(
        !desc.contains("to throw next") && !desc.contains("to throw again"),
        "{what}: {desc}"
    );
}

/// Regression: a stopped game's page drew the last move's board over the
/// game's (the board said "Hawks throws again" while the line under it
/// said "Foxes won"): the moves read after the feed's `end` set their
/// pictures last. The board of a finished game is now always the game's
/// own final board: on the page that stops it, on another page that hears
/// of the stop through the feed, after a reload, an audience switch and in
/// big-screen mode; and for a game stopped before its first throw, whose
/// opening board had the same address as its final one.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn regression_a_stopped_game_showed_the_last_moves_board() {
    let Session {
        base,
        handle,
        client,
        _driver,
        _profile,
        db: _db,
    } = start().await;

    // A game of Foxes and Hawks, thrown until a side is to throw again
    // with a side ahead on counters (so that the stop has a winner).
    client.goto(&format!("{base}/play")).await.unwrap();
    let created = fetch_json(
        &client,
        "POST",
        "/v1/games",
        Some(json!({"sides": {"a": {"name": "Foxes"}, "b": {"name": "Hawks"}}, "seed": "stopped-board"})),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let api = format!("/v1/games/{id}");
    let n = loop {
        let m = fetch_json(&client, "POST", &format!("{api}/throws"), None).await;
        let n = m["n"].as_u64().unwrap();
        assert_eq!(
            m["state"]["status"], "in_progress",
            "the game ended by throws"
        );
        let sides = &m["state"]["sides"];
        if m["state"]["extra_throw_pending"] == json!(true)
            && sides[0]["counters"] != sides[1]["counters"]
        {
            break n;
        }
        assert!(n < 200, "no extra throw with a side ahead in {n} throws");
    };
    let page = format!("{base}/play/{id}");

    // The watching page (the first tab) shows the last move's board: its
    // side throws again.
    client.goto(&page).await.unwrap();
    css(&client, &format!("#moves li[data-n=\"{n}\"]")).await;
    until(
        &client,
        "the watching page showing the last move's board",
        &format!(
            "return document.getElementById('board').getAttribute('src') === '{api}/moves/{n}/board.svg'"
        ),
    )
    .await;
    let before = board_shown(&client).await;
    assert!(
        before["desc"].as_str().unwrap().contains("to throw again."),
        "{before}"
    );
    let watching = client.window().await.unwrap();

    // The teacher's page (a second tab) stops the game.
    let tab = client.new_window(true).await.unwrap();
    client.switch_to_window(tab.handle).await.unwrap();
    client.goto(&page).await.unwrap();
    css(&client, &format!("#moves li[data-n=\"{n}\"]")).await;
    until(
        &client,
        "the stop button enabled",
        "return !document.getElementById('stop').disabled",
    )
    .await;
    js(&client, "window.confirm = () => true; return true").await;
    css(&client, "#stop").await.click().await.unwrap();
    until(
        &client,
        "the game over on the page that stopped it",
        "return document.getElementById('status').textContent.startsWith('The game is over')",
    )
    .await;
    let game = fetch_json(&client, "GET", &api, None).await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], "won", "a side was ahead: {game}");
    assert_final_board(&client, &id, &game, "the page that stopped the game").await;

    // The watching page heard of the stop through the feed's `end`.
    client.switch_to_window(watching).await.unwrap();
    until(
        &client,
        "the stop told to the watching page",
        "return document.getElementById('status').textContent.startsWith('The game is over')",
    )
    .await;
    assert_final_board(&client, &id, &game, "the page told through the feed").await;

    // A page opened on the stopped game: its moves are read after the
    // feed's `end` (the reported failure); once every move is listed the
    // board is still the final one.
    client.refresh().await.unwrap();
    css(&client, "#moves li[data-n=\"1\"]").await;
    css(&client, &format!("#moves li[data-n=\"{n}\"]")).await;
    assert_final_board(&client, &id, &game, "the page opened after the stop").await;
    // The line under the board said the last move's "... throws again."
    // under "The game is over" (a newcomer's trial): it says the game was
    // stopped, once the moves are read.
    until(
        &client,
        "the line under the board saying the game was stopped after the reload",
        "return document.getElementById('latest').textContent === 'The game was stopped.'",
    )
    .await;

    // Another audience: the moves are read again, the board stays final.
    css(&client, "#audience")
        .await
        .select_by_value("scholar")
        .await
        .unwrap();
    until(
        &client,
        "the moves read again for scholars",
        "return location.hash.includes('audience=scholar') && document.querySelectorAll('#moves li[data-n]').length > 0",
    )
    .await;
    css(&client, &format!("#moves li[data-n=\"{n}\"]")).await;
    assert_final_board(&client, &id, &game, "after the audience switch").await;

    // Big-screen mode, opened from its own link.
    client.goto("about:blank").await.unwrap();
    client.goto(&format!("{page}#big=1")).await.unwrap();
    until(
        &client,
        "big-screen mode",
        "return document.documentElement.classList.contains('big')",
    )
    .await;
    css(&client, &format!("#moves li[data-n=\"{n}\"]")).await;
    assert_final_board(&client, &id, &game, "on the big screen").await;
    until(
        &client,
        "the line under the board saying the game was stopped on the big screen",
        "return document.getElementById('latest').textContent === 'The game was stopped.'",
    )
    .await;

    // A game stopped before its first throw: the opening board and the
    // final one are both the game's board, at different versions.
    let created = fetch_json(
        &client,
        "POST",
        "/v1/games",
        Some(json!({"sides": {"a": {"name": "Foxes"}, "b": {"name": "Hawks"}}})),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    client.goto(&format!("{base}/play/{id}")).await.unwrap();
    until(
        &client,
        "the opening board",
        "const b = document.getElementById('board'); return b.dataset.shows === 'game' && b.complete && b.naturalWidth > 0",
    )
    .await;
    js(&client, "window.confirm = () => true; return true").await;
    until(
        &client,
        "the stop button enabled",
        "return !document.getElementById('stop').disabled",
    )
    .await;
    css(&client, "#stop").await.click().await.unwrap();
    until(
        &client,
        "the game over",
        "return document.getElementById('status').textContent.startsWith('The game is over')",
    )
    .await;
    let game = fetch_json(&client, "GET", &format!("/v1/games/{id}"), None).await;
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["result"], "draw", "equal counters: {game}");
    assert_final_board(&client, &id, &game, "a game stopped before its first throw").await;

    client.close().await.unwrap();
    handle.stop(false).await;
}
