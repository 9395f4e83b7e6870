//! Every move's caption, over whole seeded games of every preset, in every
//! audience, with short and very long names: one line of at most 100
//! characters that names the thrower, the value and where the awl went, in
//! the ruleset's own words.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use zohn_ahl::narration::{Audience, CAPTION_MAX_CHARS, Cast, MoveContext, caption};
use zohn_ahl::rules::{
    Board, Event, GameState, Outcome, Preset, Side, Table, Throw, ThrowTable, play,
};
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
        Side::A => "side A: ",
        Side::B => "side B: ",
    };
    if text.starts_with(&format!("{name}: ")) || text.starts_with(label) {
        return true;
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    (1..words.len()).any(|k| {
        let short = words[..k].join(" ");
        text.starts_with(&format!("{short}: "))
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
                            detail: zohn_ahl::narration::Detail::Lesson,
                            from,
                            to,
                            other_awl: played.state.awl(seat.side.other()),
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
                        assert_eq!(text.contains(": spin "), spinner, "{at}");
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
                                again_words(audience, spinner)
                                    .iter()
                                    .all(|w| !text.contains(w.as_str())),
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
        detail: zohn_ahl::narration::Detail::Lesson,
        from: state.awl(seat.side),
        to: played.state.awl(seat.side),
        other_awl: played.state.awl(seat.side.other()),
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
        text.starts_with(&format!("Ama: {value}, from 1 to ")),
        "{text}"
    );
    assert!(text.ends_with('.'), "{text}");
    state = played.state;
    assert!(!state.is_finished());
}

/// How a caption may name someone: the whole name, its first whole words,
/// or the side's letter.
fn ways_to_name(name: &str, side: Side) -> Vec<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut ways: Vec<String> = (1..=words.len()).map(|k| words[..k].join(" ")).collect();
    ways.push(name.to_owned());
    ways.push(match side {
        Side::A => "side A".to_owned(),
        Side::B => "side B".to_owned(),
    });
    ways
}

/// The words each audience hears for an extra throw, from the captions'
/// own data: the forms of `throws_again` (sticks) or `spins_again`.
fn again_words(audience: Audience, spinner: bool) -> Vec<String> {
    let data: serde_json::Value = serde_json::from_str(include_str!(
        "../../crates/narration/src/data/captions.json"
    ))
    .unwrap();
    let part = if spinner {
        "spins_again"
    } else {
        "throws_again"
    };
    data["parts"][part][audience.key()]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_owned())
        .collect()
}

/// Every seeded game of every preset, with every cast (short names, long
/// ones in many words and in one, teams of one and of three), each move
/// captioned for every audience: `check` gets the preset, the table, the
/// cast, the audience, the throw, the state after the move and the caption.
fn every_caption(
    mut check: impl FnMut(Preset, &Table, &Cast, Audience, &Throw, &GameState, &str),
) -> usize {
    let mut checked = 0;
    for preset in Preset::ALL {
        let options = preset.options();
        let players = usize::from(preset.default_players());
        for cast in casts(players).into_iter().chain(casts(3)) {
            let teams = [cast.players[0].len(), cast.players[1].len()];
            let table = Table::new(options, teams, Side::A).unwrap();
            for seed in (0..24).map(|i| format!("caption-{i}")) {
                let mut throws = SeededThrows::new(&seed);
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
                            detail: zohn_ahl::narration::Detail::Lesson,
                            from,
                            to,
                            other_awl: played.state.awl(seat.side.other()),
                            seat,
                            throw: &throw,
                            score: &played.score,
                            events: &played.events,
                            told: &[],
                            previous: None,
                        };
                        check(
                            preset,
                            &table,
                            &cast,
                            audience,
                            &throw,
                            &played.state,
                            &caption(&ctx, from, to),
                        );
                        checked += 1;
                    }
                    state = played.state;
                }
            }
        }
    }
    checked
}

/// Regression: for young players 11 of 44 captions of a move that earned
/// an extra throw left it out (3 of 44 for everyone), as in "Side A throws
/// 3: the awl goes from 8 to 11, the east dry branch, a stream bed with no
/// water." with 8 of the 100 characters to spare: the extra throw was the
/// first part given up, before the feature's description. On a big screen
/// that is who throws next. Every caption now says what happens next: that
/// the side throws again (in the audience's words), else who throws next,
/// or who won; descriptions are given up first.
#[test]
fn regression_captions_dropped_the_extra_throw() {
    let mut again_seen = std::collections::BTreeMap::new();
    let mut long_again = 0;
    let checked = every_caption(|preset, table, cast, audience, _, state, text| {
        let at = format!("{preset:?} {audience:?}: {text:?}");
        let chars = text.chars().count();
        assert!(chars <= CAPTION_MAX_CHARS, "{at}: {chars} characters");
        let spinner = preset.options().throw_table == ThrowTable::Spinner;
        let again = again_words(audience, spinner);
        let says_again = again.iter().any(|w| has_word(text, w));
        match state.outcome {
            _ if state.extra_throw => {
                assert!(says_again, "{at}: the extra throw left out");
                *again_seen.entry(audience.key()).or_insert(0usize) += 1;
                if chars > 80 {
                    long_again += 1;
                }
            }
            Some(Outcome::Won { side }) => {
                assert!(!says_again, "{at}");
                let named = ways_to_name(&cast.sides[side.index()], side)
                    .iter()
                    .any(|name| text.contains(&format!("won by {name}")));
                assert!(named, "{at}: the winner not named");
            }
            Some(Outcome::Draw) => panic!("{at}: a throw never draws"),
            None => {
                assert!(!says_again, "{at}");
                let next = state.to_throw(table);
                let player = cast.players[next.side.index()]
                    .get(usize::from(next.player))
                    .unwrap_or(&cast.sides[next.side.index()]);
                let named = ways_to_name(player, next.side)
                    .iter()
                    .any(|name| text.contains(&format!("next: {name}")));
                assert!(named, "{at}: who throws next not named");
            }
        }
    });
    assert!(checked > 10_000, "only {checked} captions");
    assert_eq!(again_seen.len(), 3, "{again_seen:?}");
    assert!(again_seen.values().all(|n| *n > 100), "{again_seen:?}");
    assert!(
        long_again > 0,
        "no long caption of an extra throw was checked"
    );
}

/// A team's name may be plural ("The Foxes"): no caption makes a side's
/// name the subject of a verb ("The Foxes gives", "The Foxes wins").
#[test]
fn regression_a_team_name_was_the_subject_of_gives_and_wins() {
    let cast = Cast {
        sides: ["The Foxes".into(), "The Hawks".into()],
        players: [vec!["Ama".into()], vec!["Bea".into()]],
    };
    plural_side_names_are_never_a_verbs_subject(&cast, Preset::Composite);
}

/// Regression (a curator's trial): with no player named, a thrower is
/// called by her side's name, and the caption read "The Otters throws 4"
/// (and "The Otters spins", "The Otters misses this turn"). A caption now
/// begins with the thrower's name and a colon, in every preset.
#[test]
fn regression_a_side_named_the_otters_throws_and_spins_in_captions() {
    let cast = Cast {
        sides: ["The Otters".into(), "The Herons".into()],
        players: [vec![], vec![]],
    };
    for preset in Preset::ALL {
        plural_side_names_are_never_a_verbs_subject(&cast, preset);
    }
}

fn plural_side_names_are_never_a_verbs_subject(cast: &Cast, preset: Preset) {
    let options = preset.options();
    let cast = cast.clone();
    let table = Table::new(options, [1, 1], Side::A).unwrap();
    let verbs = [
        "wins",
        "pays",
        "gives",
        "has",
        "owes",
        "holds",
        "throws",
        "spins",
        "misses",
        "skips",
        "forfeits",
        "falls",
        "whips",
        "crosses",
        "needs",
        "stays",
        "passes",
        "completes",
    ];
    // Captions that name a team for a counter paid, and for the winner.
    let (mut paid, mut won) = (0, 0);
    for seed in (0..24).map(|i| format!("plural-{i}")) {
        let mut throws = SeededThrows::new(&seed);
        let mut state = GameState::new(&table);
        let mut n = 0;
        while !state.is_finished() && n < 400 {
            n += 1;
            let seat = state.to_throw(&table);
            let throw = throws.throw(options.throw_table, n);
            let from = state.awl(seat.side);
            let played = play(&table, &state, &throw).unwrap();
            for audience in Audience::ALL {
                let ctx = MoveContext {
                    options: &options,
                    cast: &cast,
                    audience,
                    move_number: n,
                    detail: zohn_ahl::narration::Detail::Lesson,
                    from,
                    to: played.state.awl(seat.side),
                    other_awl: played.state.awl(seat.side.other()),
                    seat,
                    throw: &throw,
                    score: &played.score,
                    events: &played.events,
                    told: &[],
                    previous: None,
                };
                // A name's "The" is lowercase mid-sentence.
                let text = caption(&ctx, from, played.state.awl(seat.side)).to_lowercase();
                let sides = cast.sides.clone().map(|s| s.to_lowercase());
                for side in &sides {
                    for verb in verbs {
                        assert!(
                            !text.contains(&format!("{side} {verb}")),
                            "{audience:?}: {text}"
                        );
                    }
                }
                if sides.iter().any(|side| text.contains(side.as_str())) {
                    for e in &played.events {
                        match e {
                            Event::CounterPaid { .. } => paid += 1,
                            Event::Won { .. } => won += 1,
                            _ => {}
                        }
                    }
                }
            }
            state = played.state;
        }
    }
    assert!(paid > 0 && won > 0, "counters paid: {paid}, wins: {won}");
}

/// A teacher's trial: a winning caption read "won by The Long-Named." with
/// the thrower's whole name at its start. With names within the API's 40
/// characters, the thrower's name is shortened first (to its first words,
/// then to its side's letter), and the winner's only when the line is still
/// too long; in most winning captions the winner is named in full.
#[test]
fn regression_the_winning_caption_cut_the_winners_name_before_the_throwers() {
    let names = [
        "The Long-Named Hawks of the North Hill",
        "Mrs Tsoodle's third grade at Anadarko 4",
    ];
    let cast = Cast {
        sides: names.map(str::to_owned),
        players: names.map(|n| vec![n.to_owned()]),
    };
    let (mut wins, mut in_full) = (0, 0);
    each_winning_move(&cast, 8, |preset, seed, ctx| {
        let Some(side) = ctx.events.iter().find_map(|e| match e {
            Event::Won { side, .. } => Some(*side),
            _ => None,
        }) else {
            return;
        };
        let text = caption(ctx, ctx.from, ctx.to);
        let winner = names[side.index()];
        // "The" is lowercase mid-sentence.
        let whole = text.contains(&format!("won by {}", winner.replacen("The ", "the ", 1)));
        assert!(
            whole || text.starts_with("side "),
            "{preset:?} {:?} {seed}: the winner shortened first: {text}",
            ctx.audience
        );
        wins += 1;
        in_full += usize::from(whole);
    });
    assert!(wins >= 60, "only {wins} winning captions");
    assert!(in_full * 10 >= wins * 9, "{in_full} of {wins} in full");
}

/// Every game of every preset on seeds `caption-0` on (`seeds` of them),
/// played by one player a side named by `cast`: each winning move, as
/// `check` gets it with its preset and seed, captioned for every audience.
fn each_winning_move(
    cast: &Cast,
    seeds: u32,
    mut check: impl FnMut(Preset, &str, &MoveContext<'_>),
) {
    for preset in Preset::ALL {
        let options = preset.options();
        let table = Table::new(options, [1, 1], Side::A).unwrap();
        for seed in (0..seeds).map(|i| format!("caption-{i}")) {
            let mut throws = SeededThrows::new(&seed);
            let mut state = GameState::new(&table);
            let mut n = 0;
            while !state.is_finished() && n < 2000 {
                n += 1;
                let seat = state.to_throw(&table);
                let throw = throws.throw(options.throw_table, n);
                let played = play(&table, &state, &throw).unwrap();
                if matches!(played.state.outcome, Some(Outcome::Won { .. })) {
                    for audience in Audience::ALL {
                        let ctx = MoveContext {
                            options: &options,
                            cast,
                            audience,
                            move_number: n,
                            detail: zohn_ahl::narration::Detail::Lesson,
                            from: state.awl(seat.side),
                            to: played.state.awl(seat.side),
                            other_awl: played.state.awl(seat.side.other()),
                            seat,
                            throw: &throw,
                            score: &played.score,
                            events: &played.events,
                            told: &[],
                            previous: None,
                        };
                        check(preset, &seed, &ctx);
                    }
                }
                state = played.state;
            }
        }
    }
}

/// Regression: a brief caption read "Ama throws 1: the awl goes from 4 to
/// 5; throws again." and never said why a 1 earned another throw: the
/// sahe among the flat sides. Under the sahe's table a 1 or a 3 with the
/// sahe flat now names it; no other throw does, nor any throw of a table
/// in which the sahe plays no part.
#[test]
fn regression_a_brief_caption_never_said_why_a_1_earned_another_throw() {
    let (mut named, mut unnamed) = (0usize, 0usize);
    every_caption(|preset, _, cast, audience, throw, state, text| {
        let by_sahe = match throw {
            Throw::Sticks(sticks) => {
                preset.options().throw_table == ThrowTable::SticksSahe
                    && matches!(sticks.flat_count(), 1 | 3)
                    && sticks.sahe_flat()
            }
            Throw::Spinner(_) => false,
        };
        // It goes before the thrower's name is cut to a side's letter; a
        // crowded line may leave it out, but no caption names the sahe
        // where it earned nothing.
        if by_sahe
            && cast
                .sides
                .iter()
                .any(|name| text.starts_with(name.as_str()))
        {
            assert!(text.contains("with the sahe"), "{audience:?}: {text:?}");
        }
        if by_sahe && text.contains("with the sahe") {
            assert!(state.extra_throw || state.outcome.is_some(), "{text:?}");
            named += 1;
        } else {
            assert!(!text.contains("sahe"), "{preset:?} {audience:?}: {text:?}");
            unnamed += 1;
        }
    });
    assert!(
        named > 1000 && unnamed > 1000,
        "{named} named, {unnamed} not"
    );
}

/// A curator's trial: "Side B: spin 2, from 27 to 1, start; a whip: Side A
/// back home; won by Side B with all 8 counters." kept the win's count and
/// left out the lap that paid a counter on the winning move. On a winning
/// move a circuit outweighs the count: with short names it is always told.
#[test]
fn regression_the_winning_caption_left_out_the_lap_that_won() {
    let mut told = 0;
    each_winning_move(&casts(1)[0], 24, |preset, seed, ctx| {
        let lap = ctx
            .events
            .iter()
            .any(|e| matches!(e, Event::CompletedCircuit { exact: false, .. }));
        if !lap {
            return;
        }
        let text = caption(ctx, ctx.from, ctx.to);
        let said = match ctx.audience {
            Audience::Young => text.contains("trip") || text.contains("all the way around"),
            _ => text.contains("circuit"),
        };
        assert!(
            said,
            "{preset:?} {:?} {seed} move {}: {text}",
            ctx.audience, ctx.move_number
        );
        told += 1;
    });
    assert!(told >= 30, "only {told} winning captions with a lap");
}
