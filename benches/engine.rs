//! Engine benchmarks: throws per second and whole games per second, one
//! thread, for each preset (`ludii` with its 10 counters a side and with 4).
//!
//! `cargo bench --bench engine -- --warm-up-time 1 --measurement-time 3`
//!
//! Groups:
//! - `throw_source`: drawing one throw: `SeededThrows` (a ChaCha20 set up per
//!   throw, what the server uses) against `StreamThrows` (one ChaCha8
//!   stream, four bits a throw, what simulations use);
//! - `throws/<preset>/<how>`: one throw played, restarting the game when it
//!   ends: `play` (the public API: clones the state and returns a fresh event
//!   list), `play_into` (in place, reusing the event buffer), each with
//!   `stream` throws, and `play_into` with `seeded` throws;
//! - `games/<preset>`: one whole game from the opening, `play_into` with
//!   `stream` throws, its events tallied as `zohn-ahl simulate` does.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use zohn_ahl::rules::{self, GameState, Options, Preset, Side, Table, ThrowTable};
use zohn_ahl::simulate::play_game;
use zohn_ahl::throws::{SeededThrows, StreamThrows, ThrowSource};

/// The benchmarked rulesets: each preset with its default team size, and
/// `ludii` also with 4 counters a side.
fn tables() -> Vec<(&'static str, Table)> {
    let table = |options: Options, players: u8| {
        let p = usize::from(players);
        Table::new(options, [p, p], Side::A).unwrap()
    };
    let mut out = Vec::new();
    for (name, preset) in [
        ("composite", Preset::Composite),
        ("culin1898", Preset::Culin1898),
        ("ludii10", Preset::Ludii),
        ("a4", Preset::A4),
        ("boxed", Preset::Boxed),
    ] {
        out.push((name, table(preset.options(), preset.default_players())));
    }
    let ludii4 = Options {
        counters_per_side: 4,
        ..Preset::Ludii.options()
    };
    out.insert(
        3,
        ("ludii4", table(ludii4, Preset::Ludii.default_players())),
    );
    out
}

fn throw_source(c: &mut Criterion) {
    let mut g = c.benchmark_group("throw_source");
    g.throughput(Throughput::Elements(1));
    let mut seeded = SeededThrows::new("bench");
    let mut n = 0u32;
    g.bench_function("seeded_chacha20_per_throw", |b| {
        b.iter(|| {
            n = n.wrapping_add(1);
            black_box(seeded.throw(ThrowTable::SticksSahe, n))
        });
    });
    let mut stream = StreamThrows::new("bench");
    g.bench_function("stream_chacha8", |b| {
        b.iter(|| black_box(stream.next_throw(ThrowTable::SticksSahe)));
    });
    g.bench_function("stream_chacha8_spinner", |b| {
        b.iter(|| black_box(stream.next_throw(ThrowTable::Spinner)));
    });
    g.finish();
}

fn throws(c: &mut Criterion) {
    for (name, table) in tables() {
        let mut g = c.benchmark_group(format!("throws/{name}"));
        g.throughput(Throughput::Elements(1));
        let tt = table.options().throw_table;

        let mut stream = StreamThrows::new("bench");
        let mut state = GameState::new(&table);
        g.bench_function("play/stream", |b| {
            b.iter(|| {
                let throw = stream.next_throw(tt);
                let played = rules::play(&table, &state, &throw).unwrap();
                state = if played.state.is_finished() {
                    GameState::new(&table)
                } else {
                    played.state
                };
                black_box(played.events.len())
            });
        });

        let mut stream = StreamThrows::new("bench");
        let mut state = GameState::new(&table);
        let mut events = Vec::with_capacity(16);
        g.bench_function("play_into/stream", |b| {
            b.iter(|| {
                let throw = stream.next_throw(tt);
                rules::play_into(&table, &mut state, &throw, &mut events).unwrap();
                if state.is_finished() {
                    state = GameState::new(&table);
                }
                black_box(events.len())
            });
        });

        let mut seeded = SeededThrows::new("bench");
        let mut n = 0u32;
        let mut state = GameState::new(&table);
        g.bench_function("play_into/seeded", |b| {
            b.iter(|| {
                n = n.wrapping_add(1);
                let throw = seeded.throw(tt, n);
                rules::play_into(&table, &mut state, &throw, &mut events).unwrap();
                if state.is_finished() {
                    state = GameState::new(&table);
                }
                black_box(events.len())
            });
        });
        g.finish();
    }
}

fn games(c: &mut Criterion) {
    let mut g = c.benchmark_group("games");
    g.throughput(Throughput::Elements(1));
    for (name, table) in tables() {
        let mut stream = StreamThrows::new("bench");
        let mut events = Vec::with_capacity(16);
        g.bench_function(name, |b| {
            b.iter(|| black_box(play_game(&table, &mut stream, &mut events).unwrap()));
        });
    }
    g.finish();
}

criterion_group!(benches, throw_source, throws, games);
criterion_main!(benches);
