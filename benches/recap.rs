//! The recap of a long game (issue 26: at most 50 ms for 1,000 moves), the
//! computation alone: no store, no HTTP.
//!
//! `cargo bench --bench recap -- --warm-up-time 1 --measurement-time 3`
//!
//! The game: the seeded `ludii` game (10 counters a side, two players) of
//! about 1,000 moves, the seed found when the bench starts (the first of
//! `recap-bench-0`, `recap-bench-1`, ... whose game has 950 to 1,050 moves),
//! played and narrated as the service plays it; the ruleset's chain solved
//! once beforehand, as the server has it solved when a recap is asked.
//!
//! Benchmarks:
//! - `recap/chances`: each move's chances before and after it
//!   (`ChanceTable::of_game`, what `Service::game_chances` adds to the read);
//! - `recap/recap`: the recap from the moves and their chances
//!   (`service::recap`: the facts, the tallies against the odds, the words),
//!   at the lesson detail for the general audience;
//! - `recap/total`: both, as the service runs them after reading the moves;
//! - `move/*`, over every move of the game (per move: divide by the moves,
//!   or read the throughput): what a move view adds with the chances on:
//!   `of_move` (the chances before and after one move, the state before it
//!   found again from its record, as every move view does), `told` and
//!   `told_with_chances` (the move's narration without and with the odds
//!   sentence).
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use zohn_ahl::domain::{Game, GameId, Seed, SideSetup, Timestamp, Version};
use zohn_ahl::narration::{Audience, Detail};
use zohn_ahl::rules::{Preset, Side, Table};
use zohn_ahl::service::{ChanceTable, GameChances, recap};
use zohn_ahl::transcript::{NarratedGame, narrated_game};

/// The bench's game: its seed and its narrated moves.
fn long_game(preset: Preset) -> (String, NarratedGame) {
    for i in 0..2_000 {
        let seed = format!("recap-bench-{i}");
        let game = narrated_game(&seed, preset, Audience::General).unwrap();
        if (950..=1_050).contains(&game.moves.len()) {
            return (seed, game);
        }
    }
    panic!("no seed gives a game of about 1,000 moves");
}

/// The stored game `played` makes: finished, every move counted.
fn stored(played: &NarratedGame, preset: Preset, seed: &str) -> Game {
    let cast = &played.cast;
    let side = |i: usize| SideSetup {
        name: cast.sides[i].clone(),
        players: cast.players[i].clone(),
    };
    let setup = zohn_ahl::domain::Setup {
        preset,
        options: played.options,
        sides: [side(0), side(1)],
        first: Side::A,
        audience: Audience::General,
        detail: Detail::Lesson,
    };
    assert!(setup.table().is_ok());
    let last = played.moves.last().unwrap();
    let now = Timestamp::now();
    Game {
        id: GameId::new(),
        created_at: now.clone(),
        updated_at: now,
        setup,
        seed: Seed::parse(seed).unwrap(),
        seeded: true,
        seated: false,
        sides_report_throws: false,
        state: last.state.clone(),
        version: Version::new(last.n),
        told_facts: Vec::new(),
    }
}

fn bench_recap(c: &mut Criterion) {
    let preset = Preset::Ludii;
    let (seed, played) = long_game(preset);
    let players = usize::from(preset.default_players());
    let table = Table::new(preset.options(), [players, players], Side::A).unwrap();
    let game = stored(&played, preset, &seed);
    let solution = Arc::new(zohn_ahl::odds::solve(&table).unwrap());
    let chance_table = ChanceTable::Solved(solution);
    let moves = played.moves;
    eprintln!(
        "recap bench: preset ludii, seed {seed}, {} moves, winner {:?}",
        moves.len(),
        game.state.outcome
    );
    let chances = chance_table.of_game(&table, &moves).unwrap();
    let read = GameChances {
        game,
        moves,
        chances: Ok(chances),
    };

    let mut group = c.benchmark_group("recap");
    group.bench_function("chances", |b| {
        b.iter(|| {
            chance_table
                .of_game(&table, black_box(&read.moves))
                .unwrap()
        });
    });
    group.bench_function("recap", |b| {
        b.iter_batched(
            || read.clone(),
            |r| recap(r, &table, Audience::General, Detail::Lesson),
            BatchSize::LargeInput,
        );
    });
    group.bench_function("total", |b| {
        b.iter_batched(
            || (read.game.clone(), read.moves.clone()),
            |(game, moves)| {
                let chances = chance_table.of_game(&table, &moves);
                recap(
                    GameChances {
                        game,
                        moves,
                        chances,
                    },
                    &table,
                    Audience::General,
                    Detail::Lesson,
                )
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();

    let setup = &read.game.setup;
    let series = read.chances.as_ref().unwrap();
    let mut group = c.benchmark_group("move");
    group.throughput(Throughput::Elements(
        u64::try_from(read.moves.len()).unwrap(),
    ));
    group.bench_function("of_move", |b| {
        b.iter(|| {
            for m in &read.moves {
                let _ = black_box(chance_table.of_move(&table, m));
            }
        });
    });
    group.bench_function("told", |b| {
        b.iter(|| {
            for m in &read.moves {
                black_box(m.told_with_chances(setup, Audience::General, Detail::Lesson, None));
            }
        });
    });
    group.bench_function("told_with_chances", |b| {
        b.iter(|| {
            for (m, ch) in read.moves.iter().zip(series) {
                black_box(m.told_with_chances(setup, Audience::General, Detail::Lesson, Some(ch)));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench_recap);
criterion_main!(benches);
