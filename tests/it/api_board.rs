//! The board pictures through the real HTTP stack on a real SQLite file:
//! `GET /v1/games/{id}/board.svg`, `GET /v1/games/{id}/moves/{n}/board.svg`
//! and `GET /v1/rulesets/{preset}/board.svg`, as SVG and (`?format=png`)
//! PNG, with ETags, 304s and problem details.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test;
use common::{Reply, TestDb, get, post_empty, post_json, send};
use serde_json::{Value, json};

const HOSTILE: &str = "<b>&\"'";

/// The awls' spaces a picture shows: A's own space and B's own space.
fn awls(svg: &[u8]) -> [u8; 2] {
    let text = std::str::from_utf8(svg).unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    let own = |class: &str, attr: &str| -> u8 {
        doc.descendants()
            .find(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.split(' ').any(|k| k == class))
            })
            .and_then(|n| n.attribute(attr))
            .unwrap()
            .parse()
            .unwrap()
    };
    [own("awl-a", "data-a"), own("awl-b", "data-b")]
}

/// The awls' own spaces in a game state answer.
fn state_awls(state: &Value) -> [u8; 2] {
    let side =
        |i: usize| u8::try_from(state["sides"][i]["awl"]["space"].as_u64().unwrap()).unwrap();
    [side(0), side(1)]
}

fn spaces(svg: &[u8]) -> usize {
    let text = std::str::from_utf8(svg).unwrap();
    roxmltree::Document::parse(text)
        .unwrap()
        .descendants()
        .filter(|n| n.attribute("data-space").is_some())
        .count()
}

fn ok_picture(r: &Reply, content_type: &str) -> String {
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(r.header("content-type").as_deref(), Some(content_type));
    assert_eq!(r.header("cache-control").as_deref(), Some("no-cache"));
    r.header("etag").expect("an ETag")
}

fn with_tag(path: &str, tag: &str) -> test::TestRequest {
    get(path).insert_header(("if-none-match", tag))
}

#[actix_web::test]
async fn a_games_board_follows_its_throws_with_etags_and_304s() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let created = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": HOSTILE}, "b": {"name": "Bea"}}, "seed": "lesson-4"}),
        ),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    let board = format!("/v1/games/{id}/board.svg");

    let opening = send(&app, get(&board)).await;
    let tag = ok_picture(&opening, "image/svg+xml");
    assert_eq!(awls(&opening.body), [1, 1], "both awls at their starts");
    assert_eq!(spaces(&opening.body), 40);
    let text = String::from_utf8(opening.body.clone()).unwrap();
    assert!(text.contains("&lt;b&gt;&amp;\"'"), "the name escaped");

    let mut last = Value::Null;
    for _ in 0..5 {
        last = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
            .await
            .json();
    }
    let now = send(&app, get(&board)).await;
    let new_tag = ok_picture(&now, "image/svg+xml");
    assert_ne!(new_tag, tag, "the picture changed");
    assert_eq!(awls(&now.body), state_awls(&last["state"]));
    let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(awls(&now.body), state_awls(&game));

    // The same picture again: the same bytes and ETag; 304 when held.
    let again = send(&app, get(&board)).await;
    assert_eq!(again.body, now.body);
    assert_eq!(again.header("etag"), Some(new_tag.clone()));
    for held in [
        new_tag.clone(),
        format!("W/{new_tag}"),
        format!("\"x\", {new_tag}"),
        "*".to_owned(),
    ] {
        let r = send(&app, with_tag(&board, &held)).await;
        assert_eq!(r.status.as_u16(), 304, "If-None-Match: {held}");
        assert!(r.body.is_empty());
        assert_eq!(r.header("etag"), Some(new_tag.clone()));
    }
    // An old tag gets the new picture.
    let r = send(&app, with_tag(&board, &tag)).await;
    assert_eq!(ok_picture(&r, "image/svg+xml"), new_tag);
}

#[actix_web::test]
async fn a_moves_board_shows_the_state_that_move_left() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let created = send(&app, post_json("/v1/games", &json!({"seed": "picture"})))
        .await
        .json();
    let id = created["id"].as_str().unwrap().to_owned();
    let mut states = Vec::new();
    for _ in 0..6 {
        let m = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
            .await
            .json();
        states.push(m["state"].clone());
    }
    let mut pictures = Vec::new();
    for (i, state) in states.iter().enumerate() {
        let r = send(
            &app,
            get(&format!("/v1/games/{id}/moves/{}/board.svg", i + 1)),
        )
        .await;
        ok_picture(&r, "image/svg+xml");
        assert_eq!(awls(&r.body), state_awls(state), "after move {}", i + 1);
        pictures.push(r.body);
    }
    // The last move's picture is the game's board now.
    let now = send(&app, get(&format!("/v1/games/{id}/board.svg"))).await;
    assert_eq!(&now.body, pictures.last().unwrap());
    // A move's picture does not change when the game goes on.
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let third = send(&app, get(&format!("/v1/games/{id}/moves/3/board.svg"))).await;
    assert_eq!(third.body, pictures[2]);
}

/// The text of an element of a picture (`title`, `desc`) and an attribute
/// of its root.
fn words(svg: &[u8], tag: &str) -> String {
    let text = std::str::from_utf8(svg).unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    doc.descendants()
        .find(|n| n.has_tag_name(tag))
        .and_then(|n| n.text())
        .unwrap_or_default()
        .to_owned()
}

fn root_attribute(svg: &[u8], name: &str) -> Option<String> {
    let text = std::str::from_utf8(svg).unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    doc.root_element().attribute(name).map(str::to_owned)
}

/// What the play page shows of a stopped game: the game's board says the
/// game is over and who won (the side with more counters), where its last
/// move's board still says whose throw it was (here, that the side throws
/// again); `?v=`, the version the page adds to tell the game's states
/// apart, is ignored.
#[actix_web::test]
async fn a_stopped_games_board_says_who_won_and_its_last_moves_does_not() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let created = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": "Foxes"}, "b": {"name": "Hawks"}}, "seed": "stopped-board"}),
        ),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    let n = loop {
        let m = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
            .await
            .json();
        assert_eq!(m["state"]["status"], "in_progress");
        let sides = &m["state"]["sides"];
        if m["state"]["extra_throw_pending"] == json!(true)
            && sides[0]["counters"] != sides[1]["counters"]
        {
            break m["n"].as_u64().unwrap();
        }
        assert!(
            m["n"].as_u64().unwrap() < 200,
            "no extra throw with a side ahead"
        );
    };
    let stopped = send(&app, post_empty(&format!("/v1/games/{id}/stop")))
        .await
        .json();
    let game = &stopped["state"];
    assert_eq!(game["status"], "finished");

    let last = send(&app, get(&format!("/v1/games/{id}/moves/{n}/board.svg"))).await;
    ok_picture(&last, "image/svg+xml");
    assert!(words(&last.body, "desc").contains("to throw again."));
    assert_eq!(root_attribute(&last.body, "data-winner"), None);

    let version = &game["version"];
    let board = send(&app, get(&format!("/v1/games/{id}/board.svg?v={version}"))).await;
    ok_picture(&board, "image/svg+xml");
    let plain = send(&app, get(&format!("/v1/games/{id}/board.svg"))).await;
    assert_eq!(board.body, plain.body, "?v= is ignored");
    let desc = words(&board.body, "desc");
    let (over, winner) = match game["winner"].as_str() {
        Some("A") => ("The game is over: Foxes won.", "a"),
        Some("B") => ("The game is over: Hawks won.", "b"),
        other => panic!("the side with more counters wins: {other:?}"),
    };
    assert!(desc.ends_with(over), "{desc}");
    assert!(!desc.contains("next"), "{desc}");
    assert_eq!(
        root_attribute(&board.body, "data-winner").as_deref(),
        Some(winner)
    );
    let throws = if n == 1 {
        "1 throw".to_owned()
    } else {
        format!("{n} throws")
    };
    let title = words(&board.body, "title");
    assert!(
        title.ends_with(&format!("finished after {throws}")),
        "{title}"
    );
}

#[actix_web::test]
async fn format_png_serves_the_same_picture_as_a_png() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let created = send(&app, post_json("/v1/games", &json!({"seed": "lesson-4"})))
        .await
        .json();
    let id = created["id"].as_str().unwrap().to_owned();
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    for path in [
        format!("/v1/games/{id}/board.svg"),
        format!("/v1/games/{id}/moves/1/board.svg"),
        "/v1/rulesets/a4/board.svg".to_owned(),
    ] {
        let svg = send(&app, get(&path)).await;
        let svg_tag = ok_picture(&svg, "image/svg+xml");
        let png = send(&app, get(&format!("{path}?format=png"))).await;
        let png_tag = ok_picture(&png, "image/png");
        assert!(png_tag.starts_with("\"png-") && svg_tag.starts_with("\"svg-"));
        assert_eq!(png_tag[5..], svg_tag[5..], "both tags hash the same SVG");
        let image = resvg::tiny_skia::Pixmap::decode_png(&png.body).unwrap();
        assert_eq!(
            (image.width(), image.height()),
            (zohn_ahl::picture::WIDTH, zohn_ahl::picture::HEIGHT)
        );
        let held = send(&app, with_tag(&format!("{path}?format=png"), &png_tag)).await;
        assert_eq!(held.status.as_u16(), 304);
        // The SVG's tag is not the PNG's.
        let other = send(&app, with_tag(&format!("{path}?format=png"), &svg_tag)).await;
        assert_eq!(other.status.as_u16(), 200);
        let explicit = send(&app, get(&format!("{path}?format=svg"))).await;
        assert_eq!(explicit.body, svg.body);
    }
}

#[actix_web::test]
async fn a_presets_empty_board_has_its_own_shape() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    for (preset, len) in [("composite", 40), ("ludii", 40), ("a4", 28)] {
        let r = send(&app, get(&format!("/v1/rulesets/{preset}/board.svg"))).await;
        ok_picture(&r, "image/svg+xml");
        assert_eq!(spaces(&r.body), len, "{preset}");
        let text = String::from_utf8(r.body).unwrap();
        assert!(!text.contains("class=\"awl"), "no awls on the empty board");
    }
}

#[actix_web::test]
async fn board_errors_are_problem_details() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let created = send(&app, post_json("/v1/games", &json!({}))).await.json();
    let id = created["id"].as_str().unwrap().to_owned();
    let unknown = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79";

    let p = send(&app, get("/v1/games/not-a-uuid/board.svg"))
        .await
        .problem(400);
    assert_eq!(p["errors"][0]["pointer"], "#/path/id");
    let p = send(&app, get(&format!("/v1/games/{unknown}/board.svg")))
        .await
        .problem(404);
    assert_eq!(p["type"], "/problems/game-not-found");
    let p = send(&app, get(&format!("/v1/games/{unknown}/moves/1/board.svg")))
        .await
        .problem(404);
    assert_eq!(p["type"], "/problems/game-not-found");
    let p = send(&app, get(&format!("/v1/games/{id}/moves/1/board.svg")))
        .await
        .problem(404);
    assert_eq!(p["type"], "/problems/move-not-found");
    for n in ["0", "-1", "abc", "1000000000"] {
        let p = send(&app, get(&format!("/v1/games/{id}/moves/{n}/board.svg")))
            .await
            .problem(400);
        assert_eq!(p["errors"][0]["pointer"], "#/path/n", "{n}");
    }
    for path in [
        format!("/v1/games/{id}/board.svg?format=gif"),
        "/v1/rulesets/composite/board.svg?format=".to_owned(),
    ] {
        let p = send(&app, get(&path)).await.problem(400);
        assert_eq!(p["errors"][0]["pointer"], "#/query/format", "{path}");
    }
    // An unknown parameter is ignored, as everywhere.
    let r = send(&app, get(&format!("/v1/games/{id}/board.svg?size=big"))).await;
    assert_eq!(r.status.as_u16(), 200);
    let p = send(&app, get("/v1/rulesets/nope/board.svg"))
        .await
        .problem(404);
    assert_eq!(p["type"], "/problems/preset-not-found");
    let r = send(&app, post_empty(&format!("/v1/games/{id}/board.svg"))).await;
    r.problem(405);
    assert_eq!(r.header("allow").as_deref(), Some("GET, HEAD"));
}
