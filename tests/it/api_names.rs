//! Names that would mislead (bidirectional controls, nothing visible, the
//! same name for both sides), values echoed in problems, and numbers
//! echoed as sent, through the real HTTP stack on a real SQLite file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test;
use common::{get, post_json, send, spawn_app};
use serde_json::{Value, json};

/// The problem a creation with these sides gets, with `status`.
async fn refused<T: common::Target>(app: &T, sides: Value, status: u16) -> Value {
    send(app, post_json("/v1/games", &json!({ "sides": sides })))
        .await
        .problem(status)
}

#[actix_web::test]
async fn names_with_bidirectional_controls_are_refused_with_their_pointer() {
    let (_db, app) = spawn_app().await;
    for c in [
        '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
        '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
    ] {
        let name = format!("Ama{c}lia");
        let p = refused(&app, json!({"a": {"name": name}}), 400).await;
        assert_eq!(p["errors"][0]["pointer"], "/sides/a/name", "{c:?}");
        let detail = p["errors"][0]["detail"].as_str().unwrap();
        assert!(detail.contains("bidirectional"), "{detail}");
        assert!(
            detail.contains(&format!("U+{:04X}", u32::from(c))),
            "{detail}"
        );
        let p = refused(&app, json!({"b": {"players": ["Bea", name]}}), 400).await;
        assert_eq!(p["errors"][0]["pointer"], "/sides/b/players/1");
    }
}

#[actix_web::test]
async fn names_of_only_invisible_characters_are_refused() {
    let (_db, app) = spawn_app().await;
    for name in [
        "\u{200B}",
        "\u{200B}\u{200C}\u{200D}",
        "\u{FEFF}",
        " \u{2060} ",
        "\u{00AD}\u{034F}",
        "\u{3164}",
        "\u{E0041}\u{E0042}",
    ] {
        let p = refused(&app, json!({"b": {"name": name}}), 400).await;
        assert_eq!(p["errors"][0]["pointer"], "/sides/b/name", "{name:?}");
        assert!(
            p["errors"][0]["detail"]
                .as_str()
                .unwrap()
                .contains("visible character"),
            "{p}"
        );
    }
    // Spaces only are refused as before (nothing is left once trimmed).
    let p = refused(&app, json!({"a": {"players": ["\u{3000}\u{2003}"]}}), 400).await;
    assert_eq!(p["errors"][0]["pointer"], "/sides/a/players/0");
    // Invisible characters inside a visible name are kept: joiners belong
    // to many scripts and emoji.
    let r = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": "\u{0915}\u{094D}\u{200D}\u{0937}"}, "b": {"name": "👩\u{200D}👧"}}}),
        ),
    )
    .await;
    assert_eq!(
        r.status.as_u16(),
        201,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
}

/// The same name on both sides gave "One counter crosses from Ama to Ama".
#[actix_web::test]
async fn the_same_name_for_both_sides_is_refused_case_and_spaces_aside() {
    let (_db, app) = spawn_app().await;
    for (a, b) in [
        ("Ama", "Ama"),
        ("Ama", "  ama "),
        ("AMA", "ama\u{200B}"),
        ("Straße", "STRASSE"),
    ] {
        let p = refused(&app, json!({"a": {"name": a}, "b": {"name": b}}), 422).await;
        assert_eq!(p["type"], "/problems/same-name");
        assert_eq!(p["errors"][0]["pointer"], "/sides/b/name", "{a:?} {b:?}");
        // Both names as they came (after trimming): "both are" only when
        // they are one string.
        let detail = p["detail"].as_str().unwrap();
        if a == b.trim() {
            assert!(detail.contains(&format!("both are {a:?}")), "{detail}");
        } else {
            assert!(
                detail.contains(&format!("{a:?} and {:?} are the same name", b.trim())),
                "{detail}"
            );
        }
    }
    // Against a default name: the pointer is the name that was sent.
    let p = refused(&app, json!({"a": {"name": "side b"}}), 422).await;
    assert_eq!(p["errors"][0]["pointer"], "/sides/a/name");
    let p = refused(&app, json!({"b": {"name": "Side A"}}), 422).await;
    assert_eq!(p["errors"][0]["pointer"], "/sides/b/name");
    let r = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": "Ama"}, "b": {"name": "Amalia"}}}),
        ),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
}

/// `counters_per_side: 1e20` was refused with "got 9223372036854775807".
#[actix_web::test]
async fn an_option_beyond_64_bits_is_refused_naming_the_number_sent() {
    let (_db, app) = spawn_app().await;
    for (sent, shown) in [
        ("1e20", "1e20"),
        ("-1e20", "-1e20"),
        ("12345678901234567890", "12345678901234567890"),
        ("1.5e300", "1.5e300"),
    ] {
        let body = format!(r#"{{"ruleset": {{"options": {{"counters_per_side": {sent}}}}}}}"#);
        let r = send(
            &app,
            test::TestRequest::post()
                .uri("/v1/games")
                .insert_header(("content-type", "application/json"))
                .set_payload(body),
        )
        .await;
        let p = r.problem(400);
        assert_eq!(
            p["errors"][0]["pointer"],
            "/ruleset/options/counters_per_side"
        );
        let detail = p["errors"][0]["detail"].as_str().unwrap();
        assert!(detail.contains(&format!("got {shown}")), "{detail}");
        assert!(!detail.contains("9223372036854775807"), "{detail}");
    }
    // Within 64 bits the bound is named as before, with the number sent.
    let p = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"options": {"counters_per_side": 9_000_000_000_000_000_000_u64}}}),
        ),
    )
    .await
    .problem(400);
    let detail = p["errors"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("from 1 to 15, got 9000000000000000000"),
        "{detail}"
    );
}

/// Every value a problem echoes is cut to 64 characters.
#[actix_web::test]
async fn echoed_values_are_cut_to_64_characters() {
    let (_db, app) = spawn_app().await;
    let long = "x".repeat(5000);
    let assert_cut = |p: &Value| {
        let text = p.to_string();
        assert!(
            !text.contains(&"x".repeat(65)),
            "an echo is not cut: {text}"
        );
        assert!(text.contains(&format!("{}…", "x".repeat(60))), "{text}");
    };
    // Serde's messages: an unknown field, an unknown value.
    let mut body = serde_json::Map::new();
    body.insert(long.clone(), json!(1));
    let p = send(&app, post_json("/v1/games", &Value::Object(body)))
        .await
        .problem(400);
    assert_cut(&p);
    let p = send(&app, post_json("/v1/games", &json!({"first": long})))
        .await
        .problem(400);
    assert_cut(&p);
    let p = send(
        &app,
        post_json("/v1/games", &json!({"ruleset": {"preset": long}})),
    )
    .await
    .problem(400);
    assert_cut(&p);
    // A query parameter and a path.
    let g = send(&app, post_json("/v1/games", &json!({}))).await.json();
    let id = g["id"].as_str().unwrap();
    let p = send(&app, get(&format!("/v1/games/{id}/moves?audience={long}")))
        .await
        .problem(400);
    assert_cut(&p);
    let p = send(&app, get(&format!("/v1/sources?format={long}")))
        .await
        .problem(400);
    assert_cut(&p);
    let p = send(&app, get(&format!("/{long}"))).await.problem(404);
    assert_cut(&p);
}

/// A `ludii` game with one named player against the other side's default
/// two was accepted silently, though Ludii's coding (which the preset
/// follows) seats two teams of the same size; other presets take teams of
/// different sizes, as docs/rules.md says.
#[actix_web::test]
async fn regression_a_ludii_game_of_one_player_against_two_was_accepted_silently() {
    let (_db, app) = spawn_app().await;
    let create = |body: Value| post_json("/v1/games", &body);
    let p = send(
        &app,
        create(json!({"ruleset": {"preset": "ludii"}, "sides": {"a": {"players": ["Ama"]}}})),
    )
    .await
    .problem(422);
    assert_eq!(p["type"], "/problems/unequal-teams");
    assert_eq!(p["errors"][0]["pointer"], "/sides/b/players");
    let detail = p["errors"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("Ludii's coding")
            && detail.contains("1 player named")
            && detail.contains("2 players by default"),
        "{detail}"
    );
    let p = send(
        &app,
        create(json!({"ruleset": {"preset": "ludii"},
                      "sides": {"a": {"players": ["Ama", "Ann"]}, "b": {"players": ["Bea", "Bo", "Bel"]}}})),
    )
    .await
    .problem(422);
    assert_eq!(p["errors"][0]["pointer"], "/sides/b/players");
    // Teams of one size are seated; so is one named pair against the default.
    for sides in [
        json!({"a": {"players": ["Ama"]}, "b": {"players": ["Bea"]}}),
        json!({"a": {"players": ["Ama", "Ann"]}}),
        json!({}),
    ] {
        let r = send(
            &app,
            create(json!({"ruleset": {"preset": "ludii"}, "sides": sides})),
        )
        .await;
        assert_eq!(r.status.as_u16(), 201, "{sides}");
    }
    // Other presets take teams of different sizes (docs/rules.md, section 5).
    let r = send(
        &app,
        create(json!({"ruleset": {"preset": "composite", "options": {"turn_order": "alternate"}},
                      "sides": {"a": {"players": ["Ama", "Ann"]}, "b": {"players": ["Bea", "Bo", "Bel"]}}})),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
}

/// The narration isolated no right-to-left name: a lesson page could wrap
/// it in `<bdi>`, but a chatbot or another client got sentences whose
/// numbers a Hebrew name reordered ("7 throws in a row" shown with the 7 on
/// the name's other side). Every sentence of a game now carries such a name
/// between the first-strong isolate and its pop (U+2068, U+2069), and an
/// English name as it is.
#[actix_web::test]
async fn regression_right_to_left_names_were_not_isolated_in_the_narration() {
    let (_db, app) = spawn_app().await;
    let hebrew = "שועלים";
    let g = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": hebrew}, "b": {"name": "Hawks"}}, "seed": "bidi"}),
        ),
    )
    .await
    .json();
    let id = g["id"].as_str().unwrap();
    let mut texts = Vec::new();
    for _ in 0..6 {
        let moved = send(&app, common::post_empty(&format!("/v1/games/{id}/throws"))).await;
        assert_eq!(moved.status.as_u16(), 201);
        let moved = moved.json();
        for segment in moved["narration"]["segments"].as_array().unwrap() {
            texts.push(segment["text"].as_str().unwrap().to_owned());
        }
        texts.push(moved["caption"].as_str().unwrap_or_default().to_owned());
    }
    let isolated = format!("\u{2068}{hebrew}\u{2069}");
    let named: Vec<&String> = texts.iter().filter(|t| t.contains(hebrew)).collect();
    assert!(!named.is_empty(), "the name is told: {texts:?}");
    for text in named {
        assert_eq!(
            text.matches(hebrew).count(),
            text.matches(&isolated).count(),
            "every mention is isolated: {text:?}"
        );
    }
    assert!(texts.iter().any(|t| t.contains("Hawks")));
    assert!(!texts.iter().any(|t| t.contains("\u{2068}Hawks")));
}
