//! Every move's caption, over whole seeded games of every preset, in every
//! audience, with short and very long names: one line of at most 100
//! characters that names the thrower, the value and where the awl went, in
//! the ruleset's own words.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use zohn_ahl::narration::{Audience, CAPTION_MAX_CHARS, Cast, MoveContext, caption};
use zohn_ahl::rules::{Board, Event, GameState, Preset, Side, Table, ThrowTable, play};
use zohn_ahl::throws::{SeededThrows, ThrowSource};

/// 64 characters in several words, with letters outside ASCII.
const LONG_WORDS: &str = "Ōkami Wolf Clan Children of the Third Grade, Museum School Halls";
/// 64 characters in one word.
const LONG_WORD: &str = "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

fn casts(players: usize) -> Vec<Cast> {
    let names: [[&str; 2]; 4] = [
        ["Ama", "Bea"],
        [LONG_WORDS, LONG_WORD],
        [LONG_WORD, LONG_WORDS],
        [&LONG_WORDS[..LONG_WORDS.len() - 4], "Ève"],
    ];
    names
        .iter()
        .map(|[a, b]| Cast {
            sides: [(*a).to_owned(), (*b).to_owned()],
            players: [*a, *b].map(|n| {
                if players == 1 {
                    vec![n.to_owned()]
                } else {
                    (1..=players)
                        .map(|i| {
                            // Player names as long as side names.
                            let mut name = format!("{i} {n}");
                            while name.chars().count() > 64 {
                                name.pop();
                            }
                            name
                        })
                        .collect()
                }
            }),
        })
        .collect()
}

/// Whether `text` has `word` with no letter or digit either side.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Whether the caption begins with the thrower: her name, its first whole
/// words, or her side's letter.
fn names_thrower(text: &str, name: &str, side: Side) -> bool {
    let label = match side {
        Side::A => "side A ",
        Side::B => "side B ",
    };
    if text.starts_with(name) || text.starts_with(label) {
        return true;
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    (1..words.len()).any(|k| {
        let short = words[..k].join(" ");
        text.starts_with(&format!("{short} "))
    })
}

#[test]
fn every_caption_fits_one_line_and_names_thrower_value_and_landing() {
    let seeds: Vec<String> = (0..24).map(|i| format!("caption-{i}")).collect();
    let mut checked = 0usize;
    let mut longest = 0usize;
    for preset in Preset::ALL {
        let options = preset.options();
        let players = usize::from(preset.default_players());
        for cast in casts(players).into_iter().chain(casts(3)) {
            let teams = [cast.players[0].len(), cast.players[1].len()];
            let table = Table::new(options, teams, Side::A).unwrap();
            for seed in &seeds {
                let mut throws = SeededThrows::new(seed);
                let mut state = GameState::new(&table);
                let mut n = 0;
                while !state.is_finished() && n < 400 {
                    n += 1;
                    let seat = state.to_throw(&table);
                    let throw = throws.throw(options.throw_table, n);
                    let from = state.awl(seat.side);
                    let played = play(&table, &state, &throw).unwrap();
                    let to = played.state.awl(seat.side);
                    for audience in Audience::ALL {
                        let ctx = MoveContext {
                            options: &options,
                            cast: &cast,
                            audience,
                            move_number: n,
                            seat,
                            throw: &throw,
                            score: &played.score,
                            events: &played.events,
                            told: &[],
                            previous: None,
                        };
                        let text = caption(&ctx, from, to);
                        let at = format!("{preset:?} {audience:?} {seed} move {n}: {text:?}");
                        let chars = text.chars().count();
                        longest = longest.max(chars);
                        assert!(chars <= CAPTION_MAX_CHARS, "{at}: {chars} characters");
                        assert!(!text.contains('\n') && !text.contains('{'), "{at}");
                        assert!(!text.contains('…'), "{at}: cut");
                        let player = &cast.players[seat.side.index()][usize::from(seat.player)];
                        assert!(names_thrower(&text, player, seat.side), "{at}: no thrower");
                        assert!(
                            has_word(&text, &played.score.value.to_string()),
                            "{at}: no value"
                        );
                        assert!(has_word(&text, &to.to_string()), "{at}: no landing {to}");
                        let spinner = options.throw_table == ThrowTable::Spinner;
                        assert_eq!(text.contains(" spins "), spinner, "{at}");
                        if options.board == Board::Square28 {
                            assert!(!text.contains("creek") && !text.contains("branch"), "{at}");
                        } else {
                            assert!(!text.contains("torrent") && !text.contains("gully"), "{at}");
                        }
                        let again = played
                            .events
                            .iter()
                            .any(|e| matches!(e, Event::ThrowsAgain { .. }));
                        if !again {
                            assert!(
                                !text.contains("throws again") && !text.contains("spins again"),
                                "{at}: an extra throw not earned"
                            );
                        }
                        checked += 1;
                    }
                    state = played.state;
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} captions");
    assert!(longest > 60, "the long names never made a long caption");
}

#[test]
fn a_short_cast_gets_the_whole_story() {
    // The first move of the lesson-4 game, told in full.
    let options = Preset::Composite.options();
    let cast = Cast {
        sides: ["Ama".into(), "Bea".into()],
        players: [vec!["Ama".into()], vec!["Bea".into()]],
    };
    let table = Table::new(options, [1, 1], Side::A).unwrap();
    let mut throws = SeededThrows::new("lesson-4");
    let mut state = GameState::new(&table);
    let seat = state.to_throw(&table);
    let throw = throws.throw(options.throw_table, 1);
    let played = play(&table, &state, &throw).unwrap();
    let ctx = MoveContext {
        options: &options,
        cast: &cast,
        audience: Audience::General,
        move_number: 1,
        seat,
        throw: &throw,
        score: &played.score,
        events: &played.events,
        told: &[],
        previous: None,
    };
    let text = caption(&ctx, state.awl(seat.side), played.state.awl(seat.side));
    let value = played.score.value;
    assert!(
        text.starts_with(&format!("Ama throws {value}: from 1 to ")),
        "{text}"
    );
    assert!(text.ends_with('.'), "{text}");
    state = played.state;
    assert!(!state.is_finished());
}
