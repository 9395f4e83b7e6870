//! The board picture (`zohn_ahl::picture`): the SVG's structure and hooks,
//! its words, escaping and determinism; the PNG's size and pixels; and the
//! three HTTP routes that serve them, through the app on a real SQLite file.
//!
//! Geometry and numbering: RULES.md 1 (the circle, `a + b = 41`) and 5 (the
//! square, `a + b = 29`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use zohn_ahl::picture::{self, Names};
use zohn_ahl::rules::{self, Board, GameState, Outcome, Preset, Side, Table};
use zohn_ahl::throws::{SeededThrows, ThrowSource};

const BOARDS: [Board; 2] = [Board::Circle40, Board::Square28];

fn table(preset: Preset) -> Table {
    Table::new(preset.options(), [1, 1], Side::A).unwrap()
}

/// The state after the first `n` throws of the game seeded `seed`.
fn played(table: &Table, seed: &str, n: u32) -> GameState {
    let mut throws = SeededThrows::new(seed);
    let mut state = GameState::new(table);
    for k in 1..=n {
        if state.is_finished() {
            break;
        }
        state = rules::play(table, &state, &throws.throw(table.options().throw_table, k))
            .unwrap()
            .state;
    }
    state
}

/// The state at the end of the game seeded `seed`.
fn finished(table: &Table, seed: &str) -> GameState {
    let state = played(table, seed, 100_000);
    assert!(state.is_finished(), "the seeded game ends");
    state
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("the SVG parses: {e}\n{svg}"))
}

/// Elements carrying `attr`.
fn with_attr<'a, 'i>(doc: &'a roxmltree::Document<'i>, attr: &str) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.is_element() && n.attribute(attr).is_some())
        .collect()
}

fn has_class(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split(' ').any(|k| k == class))
}

fn by_class<'a, 'i>(doc: &'a roxmltree::Document<'i>, class: &str) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .collect()
}

fn num(node: &roxmltree::Node<'_, '_>, attr: &str) -> f64 {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("{attr} on {node:?}"))
        .parse()
        .unwrap()
}

/// The centre of a space element (a circle on the circle, a square cell on
/// the square).
fn centre(space: &roxmltree::Node<'_, '_>) -> (f64, f64) {
    match space.tag_name().name() {
        "circle" => (num(space, "cx"), num(space, "cy")),
        "rect" => (
            num(space, "x") + num(space, "width") / 2.0,
            num(space, "y") + num(space, "height") / 2.0,
        ),
        other => panic!("a space is a circle or a rect, not {other}"),
    }
}

/// The `translate(x y)` of an awl's group.
fn translation(node: &roxmltree::Node<'_, '_>) -> (f64, f64) {
    let t = node.attribute("transform").unwrap();
    let inner = t
        .strip_prefix("translate(")
        .and_then(|s| s.strip_suffix(')'))
        .unwrap();
    let mut parts = inner.split(' ').map(|v| v.parse::<f64>().unwrap());
    (parts.next().unwrap(), parts.next().unwrap())
}

fn text_of(doc: &roxmltree::Document<'_>, tag: &str) -> String {
    doc.descendants()
        .find(|n| n.has_tag_name(tag))
        .and_then(|n| n.text())
        .unwrap_or_else(|| panic!("a <{tag}> with text"))
        .to_owned()
}

fn awl<'a, 'i>(doc: &'a roxmltree::Document<'i>, side: Side) -> roxmltree::Node<'a, 'i> {
    let class = match side {
        Side::A => "awl-a",
        Side::B => "awl-b",
    };
    let found = by_class(doc, class);
    assert_eq!(found.len(), 1, "one {class}");
    found[0]
}

// RULES.md 1 and 5: 40 spaces on the circle, 28 on the square; one physical
// space has A-number a and B-number b with a + b = L + 1.
#[test]
fn every_space_is_one_element_carrying_both_numberings() {
    for board in BOARDS {
        let svg = picture::empty_svg(board);
        let doc = parse(&svg);
        let spaces = with_attr(&doc, "data-space");
        let len = usize::from(board.len());
        assert_eq!(spaces.len(), len, "{board:?}");
        let mut seen_a = BTreeSet::new();
        let mut seen_b = BTreeSet::new();
        for space in &spaces {
            let a: u8 = space.attribute("data-a").unwrap().parse().unwrap();
            let b: u8 = space.attribute("data-b").unwrap().parse().unwrap();
            let p: u8 = space.attribute("data-p").unwrap().parse().unwrap();
            assert_eq!(
                usize::from(a) + usize::from(b),
                len + 1,
                "{board:?} {a}/{b}"
            );
            assert_eq!(space.attribute("data-space").unwrap(), format!("{a}/{b}"));
            assert_eq!(board.own_space(Side::A, p), a);
            assert_eq!(
                space.attribute("data-feature-a").unwrap(),
                board.feature(Side::A, a).key()
            );
            assert_eq!(
                space.attribute("data-feature-b").unwrap(),
                board.feature(Side::B, b).key()
            );
            assert!(has_class(space, "space"));
            seen_a.insert(a);
            seen_b.insert(b);
        }
        assert_eq!(seen_a.len(), len, "every A-number once");
        assert_eq!(seen_b.len(), len, "every B-number once");
        // Both numberings are written on the board: A's outside, B's inside.
        for (group, seen) in [("numbers-a", &seen_a), ("numbers-b", &seen_b)] {
            let written: BTreeSet<u8> = by_class(&doc, group)[0]
                .children()
                .filter(roxmltree::Node::is_element)
                .filter_map(|t| t.text())
                .map(|t| t.parse().unwrap())
                .collect();
            assert_eq!(&written, seen, "{board:?} {group}");
        }
    }
}

// A's space 1 is its start on the east bank (to the right of the south
// creek), and A goes counter-clockwise: east first, so A's 10 is right of
// the centre and A's 20 above it (RULES.md 1; on screen north is up).
#[test]
fn a_starts_east_of_the_south_creek_and_goes_counter_clockwise() {
    for board in BOARDS {
        let svg = picture::empty_svg(board);
        let doc = parse(&svg);
        let at = |a: u8| {
            let node = with_attr(&doc, "data-a")
                .into_iter()
                .find(|n| n.attribute("data-a") == Some(&a.to_string()) && has_class(n, "space"))
                .unwrap();
            centre(&node)
        };
        let len = board.len();
        let (start, last) = (at(1), at(len));
        assert!(start.0 > last.0, "{board:?}: A's 1 east of A's {len}");
        assert!(
            (start.1 - last.1).abs() < 1e-6,
            "both starts on the south edge"
        );
        let east = at(board.first_dry_branch()[0]);
        let north = at(board.north_near_bank());
        let west = at(board.second_dry_branch()[0]);
        assert!(east.0 > start.0 && east.1 < start.1, "{board:?}: then east");
        assert!(north.1 < east.1, "{board:?}: then north");
        assert!(west.0 < north.0 && west.1 > north.1, "{board:?}: then west");
    }
}

// RULES.md 1 and 5: the south and north creeks (torrents on the square) and
// the east and west dry branches (dry gullies), each between its two banks.
#[test]
fn two_creeks_and_two_dry_branches_lie_between_their_banks() {
    let expect = [
        (
            Board::Circle40,
            "creek",
            "dry-branch",
            [("south", "40/1 1/40"), ("north", "20/21 21/20")],
            [("east", "10/31 11/30"), ("west", "30/11 31/10")],
            ["South creek", "North creek", "dry branch"],
        ),
        (
            Board::Square28,
            "torrent",
            "dry-gully",
            [("south", "28/1 1/28"), ("north", "14/15 15/14")],
            [("east", "7/22 8/21"), ("west", "21/8 22/7")],
            ["South torrent", "North torrent", "dry gully"],
        ),
    ];
    for (board, wet, dry, creeks, branches, labels) in expect {
        let svg = picture::empty_svg(board);
        let doc = parse(&svg);
        for (class, features) in [(wet, creeks), (dry, branches)] {
            let found = by_class(&doc, class);
            assert_eq!(found.len(), 2, "{board:?}: two {class}");
            for (compass, banks) in features {
                let g = found
                    .iter()
                    .find(|g| has_class(g, compass))
                    .unwrap_or_else(|| panic!("{board:?}: a {compass} {class}"));
                assert!(has_class(g, "feature"));
                assert_eq!(
                    g.attribute("data-banks"),
                    Some(banks),
                    "{board:?} {compass}"
                );
                // Both banks are marked as banks.
                for bank in banks.split(' ') {
                    let space = with_attr(&doc, "data-space")
                        .into_iter()
                        .find(|s| s.attribute("data-space") == Some(bank))
                        .unwrap();
                    assert!(has_class(&space, "bank"), "{board:?}: {bank} is a bank");
                    assert!(has_class(&space, &format!("{compass}-bank")));
                }
            }
        }
        assert_eq!(
            by_class(&doc, "creek").len(),
            2,
            "square creeks are creeks too"
        );
        assert_eq!(by_class(&doc, "bank").len(), 8, "{board:?}: eight banks");
        for label in labels {
            assert!(svg.contains(label), "{board:?}: labelled {label}");
        }
    }
}

// The awls stand on the spaces the rules put them on, in both numberings,
// after a few seeded throws on each board.
#[test]
fn awls_stand_on_their_spaces_after_seeded_throws() {
    for (preset, seed, n) in [
        (Preset::Composite, "lesson-4", 9),
        (Preset::Composite, "picture", 17),
        (Preset::A4, "lesson-4", 11),
    ] {
        let table = table(preset);
        let state = played(&table, seed, n);
        let board = table.options().board;
        let svg = picture::game_svg(&table, &state, &Names::sides("Ama", "Bea"));
        let doc = parse(&svg);
        assert_ne!(state.awls, [1, 1], "{preset:?} {seed}: the awls have moved");
        for side in Side::BOTH {
            let node = awl(&doc, side);
            let own = state.awl(side);
            let (a, b) = match side {
                Side::A => (own, board.mirror(own)),
                Side::B => (board.mirror(own), own),
            };
            assert_eq!(node.attribute("data-a"), Some(a.to_string().as_str()));
            assert_eq!(node.attribute("data-b"), Some(b.to_string().as_str()));
            let space = with_attr(&doc, "data-space")
                .into_iter()
                .find(|s| s.attribute("data-space") == Some(&format!("{a}/{b}")))
                .unwrap();
            if state.awls[0] != board.mirror(state.awls[1]) {
                assert_eq!(translation(&node), centre(&space), "{preset:?} {side:?}");
            }
        }
        for side in Side::BOTH {
            let g = by_class(
                &doc,
                if side == Side::A {
                    "counters-a"
                } else {
                    "counters-b"
                },
            );
            assert_eq!(g.len(), 1);
            let count = state.counters(side);
            assert_eq!(
                g[0].attribute("data-count"),
                Some(count.to_string().as_str())
            );
            assert_eq!(
                by_class(&doc, "counter")
                    .iter()
                    .filter(|c| c.parent() == Some(g[0]))
                    .count(),
                usize::from(count)
            );
        }
        assert_eq!(
            doc.root_element().attribute("data-to-throw"),
            Some(if state.to_throw(&table).side == Side::A {
                "a"
            } else {
                "b"
            })
        );
    }
}

// Accessible: role="img", a <title> and a <desc> named by aria-labelledby,
// and the desc says who is where, the counters and whose turn it is.
#[test]
fn title_and_desc_say_the_state_in_words() {
    let table = table(Preset::Composite);
    let state = played(&table, "lesson-4", 9);
    let svg = picture::game_svg(&table, &state, &Names::sides("Ama", "Bea"));
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert_eq!(root.attribute("role"), Some("img"));
    assert_eq!(
        root.attribute("aria-labelledby"),
        Some("board-title board-desc")
    );
    for id in ["board-title", "board-desc"] {
        assert!(
            doc.descendants().any(|n| n.attribute("id") == Some(id)),
            "{id}"
        );
    }
    let title = text_of(&doc, "title");
    assert!(
        title.contains("Ama") && title.contains("Bea") && title.contains("after 9 throws"),
        "{title}"
    );
    let desc = text_of(&doc, "desc");
    let board = Board::Circle40;
    for side in Side::BOTH {
        let name = ["Ama", "Bea"][side.index()];
        let own = state.awl(side);
        let (mine, theirs) = if side == Side::A {
            ("A", "B")
        } else {
            ("B", "A")
        };
        let place = format!(
            "The awl of {name} is on space {own} of {mine}'s count (space {} of {theirs}'s)",
            board.mirror(own)
        );
        assert!(desc.contains(&place), "{place} in {desc}");
        let held = state.counters(side);
        let counters = if held == 1 {
            "1 counting stick".to_owned()
        } else {
            format!("{held} counting sticks")
        };
        assert!(desc.contains(&format!("{name}: {counters}")), "{desc}");
    }
    let next = ["Ama", "Bea"][state.to_throw(&table).side.index()];
    let when = if state.extra_throw { "again" } else { "next" };
    assert!(desc.contains(&format!("{next} to throw {when}.")), "{desc}");
    assert!(desc.contains("diamond marked A") && desc.contains("square marked B"));
}

// The end of a game: the winner in the data, the centre and the desc.
#[test]
fn a_finished_game_names_its_winner() {
    let table = table(Preset::Composite);
    let state = finished(&table, "lesson-4");
    let Some(Outcome::Won { side }) = state.outcome else {
        panic!("a counters game has a winner");
    };
    let names = Names::sides("Ama", "Bea");
    let svg = picture::game_svg(&table, &state, &names);
    let doc = parse(&svg);
    let winner = names.sides[side.index()];
    assert_eq!(
        doc.root_element().attribute("data-winner"),
        Some(if side == Side::A { "a" } else { "b" })
    );
    assert_eq!(doc.root_element().attribute("data-to-throw"), None);
    assert!(text_of(&doc, "desc").contains(&format!("The game is over: {winner} won.")));
    assert!(
        doc.descendants()
            .any(|n| n.text() == Some(&format!("{winner} won"))),
        "the centre says who won"
    );
}

// Names are user input: markup in a name stays text, in every place the
// name appears, and the document still parses.
#[test]
fn hostile_names_are_escaped() {
    let table = table(Preset::Composite);
    let state = played(&table, "lesson-4", 5);
    let hostile = "<b>&\"'";
    let closing = "</desc><script>alert(1)</script>";
    let svg = picture::game_svg(&table, &state, &Names::sides(hostile, closing));
    let doc = parse(&svg);
    assert!(svg.contains("&lt;b&gt;&amp;\"'"), "escaped in text");
    assert!(!svg.contains("<b>") && !svg.contains("<script>"));
    assert!(
        !doc.descendants()
            .any(|n| n.has_tag_name("b") || n.has_tag_name("script")),
        "no element came from a name"
    );
    let title = text_of(&doc, "title");
    assert!(
        title.contains(hostile) && title.contains(closing),
        "{title}"
    );
    assert!(text_of(&doc, "desc").contains(&format!("The awl of {hostile} ")));
    assert!(
        doc.descendants().any(|n| n.text() == Some(hostile)),
        "the panel shows the name as written"
    );
    // No name is ever an attribute value.
    for node in doc.descendants() {
        for attr in node.attributes() {
            assert!(!attr.value().contains("<b>"), "{}", attr.name());
        }
    }
}

// XML cannot carry most control characters, even escaped: they become U+FFFD.
#[test]
fn control_characters_in_names_become_replacement_characters() {
    let table = table(Preset::Composite);
    let state = GameState::new(&table);
    let svg = picture::game_svg(&table, &state, &Names::sides("A\u{1}ma", "Bea\u{ffff}"));
    let doc = parse(&svg);
    let title = text_of(&doc, "title");
    assert!(
        title.contains("A\u{fffd}ma") && title.contains("Bea\u{fffd}"),
        "{title}"
    );
}

// The same state gives the same bytes; another state other bytes.
#[test]
fn the_same_state_gives_the_same_bytes() {
    for preset in [Preset::Composite, Preset::A4, Preset::Ludii] {
        let table = Table::new(preset.options(), [2, 2], Side::A).unwrap();
        let players = [
            vec!["Ama".to_owned(), "Kay".to_owned()],
            vec!["Bea".to_owned(), "Lou".to_owned()],
        ];
        let names = Names {
            sides: ["Kiowa girls", "Visitors"],
            players: [&players[0], &players[1]],
        };
        let state = played(&table, "same", 12);
        let first = picture::game_svg(&table, &state, &names);
        let again = picture::game_svg(&table, &state.clone(), &names);
        assert_eq!(first, again, "{preset:?}");
        let later = played(&table, "same", 13);
        assert_ne!(first, picture::game_svg(&table, &later, &names));
        assert_eq!(
            picture::empty_svg(preset.options().board),
            picture::empty_svg(preset.options().board)
        );
        // Coordinates are rounded to a tenth.
        for node in parse(&first).descendants() {
            for attr in ["x", "y", "cx", "cy"] {
                if let Some(v) = node.attribute(attr) {
                    let decimals = v.split('.').nth(1).map_or(0, str::len);
                    assert!(decimals <= 1, "{attr}={v}");
                }
            }
        }
    }
}

// A team's player is named when it is her throw, with her side.
#[test]
fn a_team_game_names_the_player_to_throw() {
    let table = Table::new(Preset::Ludii.options(), [2, 2], Side::A).unwrap();
    let players = [
        vec!["Ama".to_owned(), "Kay".to_owned()],
        vec!["Bea".to_owned(), "Lou".to_owned()],
    ];
    let names = Names {
        sides: ["Kiowa girls", "Visitors"],
        players: [&players[0], &players[1]],
    };
    let state = GameState::new(&table);
    let doc_text = picture::game_svg(&table, &state, &names);
    let doc = parse(&doc_text);
    assert!(text_of(&doc, "desc").contains("Ama to throw next, for Kiowa girls."));
    assert!(
        doc.descendants()
            .any(|n| n.text() == Some("for Kiowa girls"))
    );
}

// WCAG AA: every text colour against what it is written on is at least
// 4.5:1, and every text in the picture uses a colour from that list.
#[test]
fn text_colours_keep_a_projector_contrast() {
    let pairs = picture::contrasts();
    for c in &pairs {
        assert!(
            c.ratio >= 4.5,
            "{} {} on {}: {:.2}",
            c.what,
            c.text,
            c.ground,
            c.ratio
        );
    }
    let listed: BTreeSet<&str> = pairs.iter().map(|c| c.text).collect();
    let table = table(Preset::Composite);
    let state = played(&table, "lesson-4", 9);
    for svg in [
        picture::game_svg(&table, &state, &Names::sides("Ama", "Bea")),
        picture::empty_svg(Board::Square28),
    ] {
        let doc = parse(&svg);
        for text in doc.descendants().filter(|n| n.has_tag_name("text")) {
            let fill = text
                .ancestors()
                .find_map(|n| n.attribute("fill"))
                .unwrap_or_else(|| panic!("a fill for {:?}", text.text()));
            assert!(
                listed.contains(fill),
                "text {:?} in {fill}, not in the contrast list",
                text.text()
            );
        }
    }
}

/// RGB of a pixel of a decoded PNG.
fn pixel(png: &resvg::tiny_skia::Pixmap, x: f64, y: f64) -> [u8; 3] {
    let p = png
        .pixel(x.round() as u32, y.round() as u32)
        .unwrap()
        .demultiply();
    [p.red(), p.green(), p.blue()]
}

fn rgb(hex: &str) -> [u8; 3] {
    let c = |i: usize| u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap();
    [c(0), c(1), c(2)]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 3)
}

/// Emoji in names were empty boxes on the PNG board (the SVG, read by a
/// browser with its own fonts, showed them): two names that differ only in
/// their emoji now give two different pictures, and the emoji are drawn
/// (ink where the name's first character stands).
#[test]
fn regression_emoji_in_names_were_empty_boxes_on_the_png() {
    let table = table(Preset::Composite);
    let state = played(&table, "lesson-4", 3);
    let render = |a: &str| {
        let svg = picture::game_svg(&table, &state, &Names::sides(a, "Bea"));
        let png = picture::png(&svg).unwrap();
        (svg, resvg::tiny_skia::Pixmap::decode_png(&png).unwrap())
    };
    let (fox_svg, fox) = render("🦊 Foxes");
    let (_, owl) = render("🦉 Foxes");
    let (_, plain) = render("Foxes");
    assert_ne!(fox.data(), owl.data(), "a fox and an owl look alike");
    // Where the panel writes the name, the emoji has ink of its own.
    let doc = parse(&fox_svg);
    let name = doc
        .descendants()
        .find(|n| n.has_tag_name("text") && n.text() == Some("🦊 Foxes"))
        .expect("the panel writes the name");
    let (x, y, size) = (num(&name, "x"), num(&name, "y"), num(&name, "font-size"));
    // Ink: pixels unlike the panel's ground just left of the name.
    let ink = |image: &resvg::tiny_skia::Pixmap| {
        let ground = pixel(image, x - 3.0, y - size / 2.0);
        (0..size as u32)
            .flat_map(|dx| (0..size as u32).map(move |dy| (x + f64::from(dx), y - f64::from(dy))))
            .filter(|&(px, py)| !close(pixel(image, px, py), ground))
            .count()
    };
    assert!(
        ink(&fox) > 20,
        "the fox is drawn: {} inked pixels",
        ink(&fox)
    );
    assert_ne!(ink(&fox), ink(&plain), "the emoji's place is not empty");
    keep("board-emoji-name.png", &picture::png(&fox_svg).unwrap());
}

/// The file a person can open to look at a picture.
fn keep(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

// The PNG: the picture's size, the awls' colours under their marks, the
// ground at the corners, and text actually drawn (the shipped font loaded).
#[test]
fn the_png_shows_the_same_picture() {
    for (preset, seed, n, file) in [
        (Preset::Composite, "lesson-4", 9, "board-composite-9.png"),
        (Preset::A4, "lesson-4", 11, "board-a4-11.png"),
    ] {
        let table = table(preset);
        let state = played(&table, seed, n);
        let svg = picture::game_svg(&table, &state, &Names::sides("Ama", "Bea"));
        let png = picture::png(&svg).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let path = keep(file, &png);
        keep(&file.replace(".png", ".svg"), svg.as_bytes());
        let image = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!(
            (image.width(), image.height()),
            (picture::WIDTH, picture::HEIGHT)
        );
        let ground = rgb("#f7f1e3");
        let (w, h) = (f64::from(image.width() - 1), f64::from(image.height() - 1));
        for (x, y) in [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)] {
            assert_eq!(
                pixel(&image, x, y),
                ground,
                "ground at ({x}, {y}) of {}",
                path.display()
            );
        }
        let doc = parse(&svg);
        for (side, colour) in [(Side::A, "#b3261e"), (Side::B, "#5e35b1")] {
            // Below the letter, inside the mark.
            let (x, y) = translation(&awl(&doc, side));
            let got = pixel(&image, x, y + 14.0);
            assert!(
                close(got, rgb(colour)),
                "{side:?} awl at ({x}, {y}): {got:?} in {}",
                path.display()
            );
        }
        // The heading "Zohn Ahl" is drawn: dark pixels in the box its text
        // takes (it starts at x and sits on the baseline y).
        let heading = doc
            .descendants()
            .find(|n| n.has_tag_name("text") && n.text() == Some("Zohn Ahl"))
            .unwrap();
        let (x, y, size) = (
            num(&heading, "x"),
            num(&heading, "y"),
            num(&heading, "font-size"),
        );
        let dark = (0..150)
            .flat_map(|dx| (0..size as u32).map(move |dy| (x + f64::from(dx), y - f64::from(dy))))
            .filter(|&(px, py)| pixel(&image, px, py).iter().all(|&c| c < 90))
            .count();
        assert!(
            dark > 300,
            "text rendered with the shipped font: {dark} dark pixels"
        );
    }
    let empty = picture::png(&picture::empty_svg(Board::Circle40)).unwrap();
    keep("board-empty-circle40.png", &empty);
    keep(
        "board-empty-square28.png",
        &picture::png(&picture::empty_svg(Board::Square28)).unwrap(),
    );
    let table = table(Preset::Composite);
    let state = finished(&table, "lesson-4");
    keep(
        "board-composite-finished.png",
        &picture::png(&picture::game_svg(
            &table,
            &state,
            &Names::sides("Ama", "Bea"),
        ))
        .unwrap(),
    );
}

// The rate of pictures: `cargo test --release --test it board_picture:: -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn boards_per_second() {
    let table = table(Preset::Composite);
    let state = played(&table, "lesson-4", 9);
    let names = Names::sides("Ama", "Bea");
    let time = |what: &str, n: u32, f: &dyn Fn() -> usize| {
        let _ = f();
        let start = std::time::Instant::now();
        let mut bytes = 0;
        for _ in 0..n {
            bytes += std::hint::black_box(f());
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{what}: {:.0} boards/s ({:.3} ms each, {} bytes)",
            f64::from(n) / secs,
            secs * 1000.0 / f64::from(n),
            bytes / n as usize
        );
    };
    time("svg", 2000, &|| {
        picture::game_svg(&table, &state, &names).len()
    });
    let svg = picture::game_svg(&table, &state, &names);
    time("png from svg", 50, &|| picture::png(&svg).unwrap().len());
    time("svg + png", 50, &|| {
        picture::png(&picture::game_svg(&table, &state, &names))
            .unwrap()
            .len()
    });
}

// A name of the longest allowed length (40 characters) is shown whole in
// the panel, in two lines broken at a space, and whole in the title.
#[test]
fn a_long_name_is_wrapped_in_the_panel_not_cut() {
    let table = table(Preset::Composite);
    let state = played(&table, "lesson-4", 3);
    let long = "Mrs Tsoodle's third grade at Anadarko 4";
    assert!(long.chars().count() <= 40);
    let svg = picture::game_svg(&table, &state, &Names::sides(long, "Bea"));
    let doc = parse(&svg);
    let panel: Vec<String> = by_class(&doc, "side-a")[0]
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_owned))
        .collect();
    assert_eq!(panel[1], "Mrs Tsoodle's third", "{panel:?}");
    assert_eq!(panel[2], "grade at Anadarko 4", "{panel:?}");
    assert!(text_of(&doc, "title").contains(long));
    keep("board-long-name.png", &picture::png(&svg).unwrap());
}

/// A teacher's trial: on the projector the board was 65 % of the width
/// with space numbers about 15 px high. The projector's view is the track
/// alone (the page beside it tells whose turn it is and the counters),
/// 1010 x 900, its numbers 29 units high: 28 px and more when it is shown
/// 870 px high or more. Every number lies inside the picture, on both
/// boards.
#[test]
fn regression_the_projector_board_had_numbers_too_small_for_the_back_row() {
    for preset in [Preset::Composite, Preset::A4] {
        let table = table(preset);
        let state = played(&table, "projector", 7);
        let names = Names::sides("Hawks", "Foxes");
        let svg = picture::game_svg_in(&table, &state, &names, picture::BoardView::Projector);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("data-view"), Some("projector"));
        assert_eq!(root.attribute("viewBox"), Some("0 0 1010 900"));
        let numbers: Vec<_> = doc
            .descendants()
            .filter(|n| {
                n.has_tag_name("text")
                    && n.parent()
                        .and_then(|p| p.attribute("class"))
                        .is_some_and(|c| c.contains("numbers"))
            })
            .collect();
        assert_eq!(numbers.len(), 2 * usize::from(table.options().board.len()));
        for n in &numbers {
            assert_eq!(n.attribute("font-size"), Some("29"));
            let x: f64 = n.attribute("x").unwrap().parse().unwrap();
            let y: f64 = n.attribute("y").unwrap().parse().unwrap();
            assert!(
                (20.0..990.0).contains(&x) && (27.0..900.0).contains(&y),
                "{preset:?}: a number at {x}, {y}"
            );
        }
        // The full view is unchanged by it: its numbers stay as they were.
        let full = picture::game_svg(&table, &state, &names);
        assert!(full.contains("viewBox=\"0 0 1440 900\"") && !full.contains("data-view"));
        let png = picture::png(&svg).unwrap();
        let image = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((image.width(), image.height()), (1010, 900));
        std::fs::write(
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("board-projector-{preset:?}.png")),
            png,
        )
        .unwrap();
    }
}

/// A teacher's trial saw a Hebrew name stretched across the board's stone:
/// its width was guessed at an em a letter, so a name that fitted was
/// given the stone's whole width (`textLength`). A name is now measured in
/// the shipped fonts and squeezed only when it is wider than its room.
#[test]
fn regression_a_hebrew_name_that_fitted_was_stretched() {
    let table = table(Preset::Composite);
    let state = played(&table, "lesson-4", 3);
    // Both sides Hebrew, so the stone names one whichever is to throw.
    let svg = picture::game_svg(&table, &state, &Names::sides("שועלים של העמק", "נצים"));
    let doc = parse(&svg);
    let hebrew: Vec<_> = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("text")
                && n.text()
                    .is_some_and(|t| t.chars().any(|c| ('\u{5d0}'..='\u{5ea}').contains(&c)))
        })
        .collect();
    assert!(
        hebrew.len() >= 3,
        "the stone and both panels name a side: {svg}"
    );
    for text in hebrew {
        assert_eq!(text.attribute("textLength"), None, "{svg}");
    }
}

/// A teacher's trial: the board of an A4 game, played with a spinner,
/// said "to throw next". A spinner's board says spin, the sticks' throw.
#[test]
fn regression_the_spinner_board_said_throw() {
    let names = Names {
        sides: ["Otters", "Herons"],
        players: [&[], &[]],
    };
    for (preset, verb) in [(Preset::A4, "spin"), (Preset::Composite, "throw")] {
        let table = Table::new(preset.options(), [1, 1], Side::A).unwrap();
        let state = GameState::new(&table);
        let doc_text = picture::game_svg(&table, &state, &names);
        let doc = parse(&doc_text);
        let said = format!("Otters to {verb} next.");
        assert!(text_of(&doc, "desc").contains(&said), "{preset:?}");
        assert!(
            doc.descendants()
                .any(|n| n.text() == Some(&format!("to {verb} next"))
                    || n.text()
                        .is_some_and(|t| t.ends_with(&format!("to {verb} next")))),
            "{preset:?}"
        );
    }
}
