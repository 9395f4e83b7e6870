//! A class's overview on the projector, in a real browser (chromium
//! through chromedriver, the harness of `browser.rs`): eight games' boards
//! with their names, whose turn it is and how each stands fit a 1920 x 1080
//! screen without scrolling, and follow the games as they are played; the
//! class's fairness counts the throws reported in all of them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::Client;
use serde_json::{Value, json};

use crate::browser::{fetch_json, js, start, until};
use crate::browser_devices::{layout_shift, overflow, viewport};

/// Built without a browser, these tests would pass without having drawn
/// anything; they are ignored instead, saying what they need.
#[test]
fn regression_the_overview_test_passed_without_a_browser() {
    crate::common::assert_the_other_tests_run_or_say_why(
        cfg!(browser_tests),
        "browser_classes::regression_the_overview_test_passed_without_a_browser",
        "needs chromium and chromedriver",
    );
}

/// `POST path` in the page with the bearer `token` and a JSON `body` (or
/// none): the answer's status.
async fn post_as(client: &Client, path: &str, token: &str, body: Option<Value>) -> u64 {
    client
        .execute_async(
            "const [path, token, body] = arguments; const done = arguments[arguments.length - 1];
             const headers = { Authorization: 'Bearer ' + token };
             if (body) headers['content-type'] = 'application/json';
             fetch(path, { method: 'POST', headers, body: body ? JSON.stringify(body) : undefined })
               .then(r => done(r.status));",
            vec![json!(path), json!(token), body.unwrap_or(Value::Null)],
        )
        .await
        .unwrap()
        .as_u64()
        .unwrap()
}

/// The tile of game `id`: its text and its board's `src`.
async fn tile(client: &Client, id: &str) -> Value {
    js(
        client,
        &format!(
            "const li = document.querySelector('#boards a[href^=\"/play/{id}#\"]').closest('li');
             return {{ text: li.innerText, src: li.querySelector('img').getAttribute('src') }};"
        ),
    )
    .await
}

#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn eight_boards_fit_the_projector_and_follow_their_games() {
    let session = start().await;
    let (base, client) = (&session.base, &session.client);
    client.goto(&format!("{base}/play")).await.unwrap();
    let class = fetch_json(
        client,
        "POST",
        "/v1/classes",
        Some(json!({
            "name": "Room 4",
            "games": 8,
            "game": {"sides": {"a": {"name": "The Very Patient Owls of the Eastern Bay"}, "b": {"name": "עפרונים"}}}
        })),
    )
    .await;
    let id = class["id"].as_str().unwrap();
    let host = class["host_token"].as_str().unwrap();
    let games: Vec<String> = class["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(games.len(), 8);

    viewport(client, 1920, 1080).await;
    client
        .goto(&format!("{base}/play/class/{id}#seat=host.{host}"))
        .await
        .unwrap();
    until(
        client,
        "eight boards drawn",
        "const imgs = [...document.querySelectorAll('#boards img')];
         return imgs.length === 8 && imgs.every(i => i.complete && i.naturalWidth > 0);",
    )
    .await;
    assert_eq!(
        js(
            client,
            "return document.getElementById('title').textContent"
        )
        .await,
        "Room 4"
    );
    // Every tile whole above the fold, nothing past the right edge.
    let lowest = js(
        client,
        "return Math.max(...[...document.querySelectorAll('#boards > li')].map(li => li.getBoundingClientRect().bottom));",
    )
    .await;
    assert!(
        lowest.as_f64().unwrap() <= 1080.0,
        "the lowest tile ends at {lowest} px"
    );
    // And each board as large as the room allows: at least 300 px high.
    let smallest = js(
        client,
        "return Math.min(...[...document.querySelectorAll('#boards img')].map(i => i.getBoundingClientRect().height));",
    )
    .await;
    assert!(
        smallest.as_f64().unwrap() >= 300.0,
        "the smallest board is {smallest} px high"
    );
    let past = overflow(client).await;
    assert_eq!(past["past"], 0, "{past}");
    // Each board is described, each name isolated, each says whose turn.
    let described = js(
        client,
        "return [...document.querySelectorAll('#boards img')].every(i => i.alt.startsWith('The board: '))
            && document.querySelectorAll('#boards bdi').length >= 16",
    )
    .await;
    assert_eq!(described, true);
    let first = tile(client, &games[0]).await;
    assert!(
        first["text"].as_str().unwrap().contains("to throw"),
        "{first}"
    );
    crate::browser::save(
        "class-overview-1920x1080.png",
        &client.screenshot().await.unwrap(),
    );
    let (shift, moved) = layout_shift(client).await;
    assert!(shift <= 0.1, "layout shift {shift}: {moved}");

    // Played elsewhere with the class's token: the page follows.
    let throws = format!("/v1/games/{}/throws", games[0]);
    assert_eq!(post_as(client, &throws, host, None).await, 201);
    let stop = format!("/v1/games/{}/stop", games[1]);
    assert_eq!(post_as(client, &stop, host, None).await, 200);
    until(
        client,
        "the first board at version 1 and the second stopped",
        &format!(
            "const tile = (id) => document.querySelector('#boards a[href^=\"/play/' + id + '#\"]').closest('li');
             return tile('{}').querySelector('img').getAttribute('src').endsWith('v=1')
                 && tile('{}').innerText.includes('Stopped');",
            games[0], games[1]
        ),
    )
    .await;
    let summary = js(
        client,
        "return document.getElementById('summary').textContent",
    )
    .await;
    assert_eq!(summary, "8 games, 7 in play");
    // The class's recap: the stopped game looks back (stopped before its
    // first throw, it asks no question).
    until(
        client,
        "the stopped game in the class's recap",
        &format!(
            "const li = document.querySelector('#class-recap-list li[data-game=\"{}\"]');
             return !document.getElementById('class-recap').hidden && !!li
               && li.innerText.includes('stopped') && !li.querySelector('.question');",
            games[1]
        ),
    )
    .await;
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('#class-recap-list li').length"
        )
        .await,
        json!(1)
    );
    // A game stopped after a throw asks its first question, the answer
    // folded away.
    let stop = format!("/v1/games/{}/stop", games[0]);
    assert_eq!(post_as(client, &stop, host, None).await, 200);
    until(
        client,
        "the game stopped after a throw in the class's recap, with its question",
        &format!(
            "const li = document.querySelector('#class-recap-list li[data-game=\"{}\"]');
             return !!li && !!li.querySelector('.question') && !li.querySelector('details').open;",
            games[0]
        ),
    )
    .await;
    // Real sticks reported in two games: the class's fairness counts both.
    let sticks = json!({"sticks": ["flat", "round", "flat", "flat"]});
    for game in [&games[2], &games[3]] {
        let throws = format!("/v1/games/{game}/throws");
        assert_eq!(
            post_as(client, &throws, host, Some(sticks.clone())).await,
            201
        );
    }
    until(
        client,
        "the class's fairness counting the two reported throws",
        "return document.getElementById('fair-figures').textContent === 'Reported throws so far: 2.'",
    )
    .await;
    session.client.clone().close().await.unwrap();
    session.handle.stop(false).await;
}

/// A teacher could make a class only through the API: the start page now
/// starts one when asked for more than one game. Three games, each with
/// its own numbered names, each side's link, join code and QR code; the
/// class's overview link shows the three boards; the links are kept in
/// this browser.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn regression_a_class_could_not_be_started_from_the_start_page() {
    let session = start().await;
    let (base, client) = (&session.base, &session.client);
    client.goto(&format!("{base}/play")).await.unwrap();
    crate::browser::css(client, "#create").await;
    js(
        client,
        "document.getElementById('name-a').value = 'Hawks';
         document.getElementById('name-b').value = 'Foxes';
         document.getElementById('games').value = '3';
         document.getElementById('class-name').value = 'Room 4';
         document.getElementById('create').click();
         return true;",
    )
    .await;
    until(
        client,
        "the class's links",
        "const s = document.getElementById('class-links');
         return !s.hidden && document.querySelectorAll('#class-games > li').length === 3
           && document.querySelectorAll('#class-games .qr svg').length === 6;",
    )
    .await;
    let shown = js(
        client,
        "return [...document.querySelectorAll('#class-games > li')].map(li => ({
           names: li.querySelector('p bdi').textContent,
           codes: [...li.querySelectorAll('.seat-code')].map(c => c.textContent.replace(' ', '')),
         }));",
    )
    .await;
    for (i, game) in shown.as_array().unwrap().iter().enumerate() {
        let n = i + 1;
        assert_eq!(game["names"], json!(format!("Hawks {n} and Foxes {n}")));
        for code in game["codes"].as_array().unwrap() {
            assert_eq!(code.as_str().unwrap().len(), 6, "{shown}");
        }
    }
    let overview = js(
        client,
        "return document.getElementById('class-link').getAttribute('href')",
    )
    .await;
    let overview = overview.as_str().unwrap().to_owned();
    assert!(overview.contains("/play/class/") && overview.contains("#seat=host."));
    let kept = js(
        client,
        "return JSON.parse(localStorage.getItem('zohn-ahl.games')).filter(g => g.overview).length",
    )
    .await;
    assert_eq!(kept, json!(3));
    client.goto(&overview).await.unwrap();
    until(
        client,
        "three boards drawn",
        "const imgs = [...document.querySelectorAll('#boards img')];
         return imgs.length === 3 && imgs.every(i => i.complete && i.naturalWidth > 0);",
    )
    .await;
    assert_eq!(
        js(
            client,
            "return document.getElementById('title').textContent"
        )
        .await,
        json!("Room 4")
    );
}

/// A teacher's trial: four games on the projector left half of each tile
/// blank, with the turn in 22 px and the counters in 18 px. Each board is
/// now as wide as its column with its words right under it, larger.
#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn regression_four_games_on_the_projector_left_half_of_each_tile_blank() {
    let session = start().await;
    let (base, client) = (&session.base, &session.client);
    client.goto(&format!("{base}/play")).await.unwrap();
    let class = fetch_json(client, "POST", "/v1/classes", Some(json!({"games": 4}))).await;
    let id = class["id"].as_str().unwrap();
    let host = class["host_token"].as_str().unwrap();
    viewport(client, 1920, 1080).await;
    client
        .goto(&format!("{base}/play/class/{id}#seat=host.{host}"))
        .await
        .unwrap();
    until(
        client,
        "four boards drawn",
        "const imgs = [...document.querySelectorAll('#boards img')];
         return imgs.length === 4 && imgs.every(i => i.complete && i.naturalWidth > 0);",
    )
    .await;
    let measured = js(
        client,
        "return [...document.querySelectorAll('#boards > li')].map(li => {
           const img = li.querySelector('img').getBoundingClientRect();
           const turn = li.querySelector('.turn');
           return { w: img.width, h: img.height, top: img.top,
                    gap: turn.getBoundingClientRect().top - img.bottom,
                    turn: parseFloat(getComputedStyle(turn).fontSize),
                    counters: parseFloat(getComputedStyle(li.querySelector('.counters')).fontSize) };
         });",
    )
    .await;
    let tiles = measured.as_array().unwrap();
    assert_eq!(tiles.len(), 4);
    for t in tiles {
        let ratio = t["h"].as_f64().unwrap() / t["w"].as_f64().unwrap();
        assert!(
            (ratio - 900.0 / 1010.0).abs() < 0.02,
            "no blank band: {measured}"
        );
        assert!(t["w"].as_f64().unwrap() > 400.0, "{measured}");
        assert!(
            t["gap"].as_f64().unwrap() < 20.0,
            "the words under the board: {measured}"
        );
        assert!(t["turn"].as_f64().unwrap() >= 28.0, "{measured}");
        assert!(t["counters"].as_f64().unwrap() >= 22.0, "{measured}");
        assert_eq!(
            t["top"], tiles[0]["top"],
            "the boards start level: {measured}"
        );
    }
    let past = overflow(client).await;
    assert_eq!(past["past"], json!(0), "{past}");
    // A smaller projector and a tablet either way (a second trial: at
    // 1366 x 768 the titles ran under the boards and names went missing):
    // every tile holds its words, each side's counters under its name.
    for (width, height) in [(1366, 768), (1024, 768), (768, 1024)] {
        viewport(client, width, height).await;
        until(
            client,
            &format!("every tile holding its words at {width} x {height}"),
            "const tiles = [...document.querySelectorAll('#boards > li')];
             return tiles.length === 4 && tiles.every(li => {
               const box = li.getBoundingClientRect();
               const words = li.querySelector('.counters').getBoundingClientRect();
               return words.bottom <= box.bottom + 1 && li.querySelector('.counters').innerText.includes('Side A 4');
             });",
        )
        .await;
        let past = overflow(client).await;
        assert_eq!(past["past"], json!(0), "{width} x {height}: {past}");
    }
}
