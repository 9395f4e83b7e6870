//! The rules engine of `zohn_ahl::rules` through `play`, `stop` and `replay`
//! on hand-built states: every rule of docs/rules.md#play and every option value of
//! docs/rules.md#options.
//!
//! Sources are cited as docs/rules.md does; docs/rules.md#evidence (the rules
//! matrix), 3.3 (decisions D1-D16) and 4 (Ludii's model) hold the evidence.
#![allow(clippy::unwrap_used)]

use zohn_ahl::rules::{
    Board, CounterReason, Creek, DeadlyNorthBank, DryBranch, EndCheck, Event, Face, GameState,
    OptionError, Options, Outcome, Overshoot, OwnLastSpace, Played, Preset, RulesError, Seat,
    SetupError, Side, SpinnerSector, Sticks, Table, Throw, ThrowMismatch, ThrowTable, TurnOrder,
    WinReason, play, replay, stop,
};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

const F: Face = Face::Flat;
const R: Face = Face::Round;

/// Stick throws named by what they score under `sticks_sahe` (docs/rules.md#throw-sticks-sahe);
/// under `sticks_count` (docs/rules.md#throw-sticks-count) the same faces score as noted.
/// 1, no (count: 1, no).
const ONE: Throw = Throw::Sticks(Sticks::new([F, R, R, R]));
/// 1 with the sahe, again (count: 1, no).
const ONE_AGAIN: Throw = Throw::Sticks(Sticks::new([R, R, R, F]));
/// 2, no (count: 2, no).
const TWO: Throw = Throw::Sticks(Sticks::new([F, F, R, R]));
/// 3 without the sahe, no (count: 3, no).
const THREE: Throw = Throw::Sticks(Sticks::new([F, F, F, R]));
/// 3 with the sahe, again (count: 3, no).
const THREE_AGAIN: Throw = Throw::Sticks(Sticks::new([F, F, R, F]));
/// 4 flat: 6, again (count: 5, again).
const SIX: Throw = Throw::Sticks(Sticks::new([F, F, F, F]));
/// 0 flat: 10, again (count: 10, again).
const TEN: Throw = Throw::Sticks(Sticks::new([R, R, R, R]));

const A0: Seat = Seat {
    side: Side::A,
    player: 0,
};
const A1: Seat = Seat {
    side: Side::A,
    player: 1,
};
const A2: Seat = Seat {
    side: Side::A,
    player: 2,
};
const B0: Seat = Seat {
    side: Side::B,
    player: 0,
};
const B1: Seat = Seat {
    side: Side::B,
    player: 1,
};
const B2: Seat = Seat {
    side: Side::B,
    player: 2,
};

fn seat(side: Side, player: u8) -> Seat {
    Seat { side, player }
}

/// A one-against-one table, A first.
fn table(options: Options) -> Table {
    Table::new(options, [1, 1], Side::A).expect("valid table")
}

fn composite() -> Table {
    table(Options::default())
}

/// A hand-built state: awls and counters given, `side` to throw (1v1, A first).
fn state(table: &Table, side: Side, awls: [u8; 2], counters: [u8; 2]) -> GameState {
    let mut s = GameState::new(table);
    s.awls = awls;
    s.counters = counters;
    s.turn = turn_of(table, side);
    s
}

/// The first turn index of the round at which `side` throws.
fn turn_of(table: &Table, side: Side) -> u16 {
    let t = (0..table.round_len())
        .find(|&t| table.seat(t).side == side)
        .expect("side has a turn");
    u16::try_from(t).expect("small round")
}

fn play_ok(table: &Table, state: &GameState, throw: Throw) -> Played {
    play(table, state, &throw).expect("throw is playable")
}

/// The event that ends a throw that did not end the game.
fn pass(again: bool, mover: Seat, next: Seat) -> Event {
    if again {
        Event::ThrowsAgain { seat: mover }
    } else {
        Event::TurnPassed { seat: next }
    }
}

fn moved(side: Side, from: u8, to: u8, steps: u8) -> Event {
    Event::Moved {
        side,
        from,
        to,
        steps,
    }
}

fn paid(payer: Side, reason: CounterReason, counters: [u8; 2]) -> Event {
    Event::CounterPaid {
        payer,
        payee: payer.other(),
        reason,
        counters,
    }
}

fn fell(side: Side, creek: Creek, space: u8) -> Event {
    Event::FellIntoCreek { side, creek, space }
}

fn circuit(side: Side, circuits: u16, exact: bool) -> Event {
    Event::CompletedCircuit {
        side,
        circuits,
        exact,
    }
}

fn whipped(side: Side, space: u8) -> Event {
    Event::Whipped {
        side,
        victim: side.other(),
        space,
    }
}

fn won(side: Side, reason: WinReason) -> Event {
    Event::Won { side, reason }
}

fn other_seat(side: Side) -> Seat {
    seat(side.other(), 0)
}

// ---------------------------------------------------------------------------
// Opening state and setup
// ---------------------------------------------------------------------------

// docs/rules.md#counters (4 counters per side), 3.2 (first side A unless chosen), 1
// (each awl on its own 1).
#[test]
fn opening_state_has_awls_on_own_1_and_counters_shared_equally() {
    for first in Side::BOTH {
        let t = Table::new(Options::default(), [1, 1], first).expect("table");
        let s = GameState::new(&t);
        assert_eq!(s.awls, [1, 1]);
        assert_eq!(s.counters, [4, 4]);
        assert_eq!(s.circuits, [0, 0]);
        assert_eq!(s.turn, 0);
        assert!(!s.extra_throw);
        assert_eq!(s.forfeits, [false, false]);
        assert_eq!(s.throws, 0);
        assert_eq!(s.outcome, None);
        assert_eq!(s.to_throw(&t), seat(first, 0));
        assert_eq!(t.first(), first);
    }
    let o = Options {
        counters_per_side: 10,
        ..Options::default()
    };
    assert_eq!(GameState::new(&table(o)).counters, [10, 10]);
    assert_eq!(o.total_counters(), 20);
}

// docs/rules.md#counters: "any even total from 2 to 30" = 1..=15 per side; docs/rules.md#options
// `counters_per_side` 4 (1..15).
#[test]
fn counters_per_side_bounds_refuse_0_and_16_accept_1_and_15() {
    for (n, ok) in [
        (0, false),
        (1, true),
        (4, true),
        (15, true),
        (16, false),
        (255, false),
    ] {
        let o = Options {
            counters_per_side: n,
            ..Options::default()
        };
        let got = Table::new(o, [1, 1], Side::A);
        if ok {
            assert!(got.is_ok(), "{n}");
            assert_eq!(o.validate(), Ok(()));
        } else {
            let error = OptionError {
                option: "counters_per_side",
                min: 1,
                max: 15,
                got: i64::from(n),
            };
            assert_eq!(got, Err(SetupError::Option(error.clone())));
            assert_eq!(o.validate(), Err(error));
        }
    }
    assert_eq!(Options::MIN_COUNTERS, 1);
    assert_eq!(Options::MAX_COUNTERS, 15);
}

// docs/rules.md#options `circuits_to_win`: none, 1..10 (boxed commercial edition: 4).
#[test]
fn circuits_to_win_bounds_refuse_0_and_11_accept_none_1_and_10() {
    for (n, ok) in [
        (None, true),
        (Some(0), false),
        (Some(1), true),
        (Some(10), true),
        (Some(11), false),
    ] {
        let o = Options {
            circuits_to_win: n,
            ..Options::default()
        };
        let got = Table::new(o, [1, 1], Side::A);
        if ok {
            assert!(got.is_ok(), "{n:?}");
        } else {
            let bad = n.expect("refused values are Some");
            let error = OptionError {
                option: "circuits_to_win",
                min: 1,
                max: 10,
                got: i64::from(bad),
            };
            assert_eq!(got, Err(SetupError::Option(error)));
        }
    }
    assert_eq!(Options::MAX_CIRCUITS_TO_WIN, 10);
}

// docs/rules.md#board / 3.2: two players or two teams; a side needs at least one
// player (and the table caps teams at Table::MAX_PLAYERS).
#[test]
fn players_per_side_bounds() {
    let o = Options::default();
    assert!(Table::new(o, [1, 1], Side::A).is_ok());
    assert!(Table::new(o, [8, 8], Side::A).is_ok());
    assert_eq!(Table::MAX_PLAYERS, 8);
    assert_eq!(
        Table::new(o, [0, 1], Side::A),
        Err(SetupError::Players {
            side: Side::A,
            got: 0,
            max: 8
        })
    );
    assert_eq!(
        Table::new(o, [1, 9], Side::A),
        Err(SetupError::Players {
            side: Side::B,
            got: 9,
            max: 8
        })
    );
    assert_eq!(
        Table::new(o, [1, 300], Side::B),
        Err(SetupError::Players {
            side: Side::B,
            got: 300,
            max: 8
        })
    );
}

// ---------------------------------------------------------------------------
// Presets (docs/rules.md#options)
// ---------------------------------------------------------------------------

// docs/rules.md#options presets table: composite = defaults (section 3).
#[test]
fn preset_composite_is_the_defaults() {
    let expected = Options {
        board: Board::Circle40,
        throw_table: ThrowTable::SticksSahe,
        deadly_north_bank: DeadlyNorthBank::Near,
        own_last_space: OwnLastSpace::FallsIn,
        overshoot: Overshoot::CarryOn,
        dry_branch: DryBranch::NoEffect,
        counters_per_side: 4,
        turn_order: TurnOrder::SideBlocks,
        circuits_to_win: None,
        end_check: EndCheck::Immediate,
    };
    assert_eq!(Preset::Composite.options(), expected);
    assert_eq!(Options::default(), expected);
    assert_eq!(Preset::default(), Preset::Composite);
    assert_eq!(Preset::Composite.default_players(), 1);
}

// docs/rules.md#options: culin1898 = `throw_table: sticks_count` (Culin 1898 via Ludii).
#[test]
fn preset_culin1898_is_sticks_count() {
    assert_eq!(
        Preset::Culin1898.options(),
        Options {
            throw_table: ThrowTable::SticksCount,
            ..Options::default()
        }
    );
    assert_eq!(Preset::Culin1898.default_players(), 1);
}

// docs/rules.md#options: ludii = sticks_count, completes_circuit, no_move, 10 counters
// per side, two players per side in side_blocks; "The ludii preset in
// detail": the end check runs after every move (Ludii's coding).
#[test]
fn preset_ludii_matches_ludiis_coding() {
    assert_eq!(
        Preset::Ludii.options(),
        Options {
            board: Board::Circle40,
            throw_table: ThrowTable::SticksCount,
            deadly_north_bank: DeadlyNorthBank::Near,
            own_last_space: OwnLastSpace::CompletesCircuit,
            overshoot: Overshoot::NoMove,
            dry_branch: DryBranch::NoEffect,
            counters_per_side: 10,
            turn_order: TurnOrder::SideBlocks,
            circuits_to_win: None,
            end_check: EndCheck::AfterMove,
        }
    );
    assert_eq!(Preset::Ludii.default_players(), 2);
}

// docs/rules.md#options: a4 = square28, spinner, own_last_space ordinary, dry_branch
// lose_throw, turn_order alternate, 4 counters per side.
#[test]
fn preset_a4_matches_the_a4_sheet() {
    assert_eq!(
        Preset::A4.options(),
        Options {
            board: Board::Square28,
            throw_table: ThrowTable::Spinner,
            deadly_north_bank: DeadlyNorthBank::Near,
            own_last_space: OwnLastSpace::Ordinary,
            overshoot: Overshoot::CarryOn,
            dry_branch: DryBranch::LoseThrow,
            counters_per_side: 4,
            turn_order: TurnOrder::Alternate,
            circuits_to_win: None,
            end_check: EndCheck::Immediate,
        }
    );
    assert_eq!(Preset::A4.default_players(), 1);
}

// docs/rules.md#options: boxed = defaults + circuits_to_win 4 (the boxed commercial edition).
#[test]
fn preset_boxed_is_defaults_plus_four_circuits() {
    assert_eq!(
        Preset::Boxed.options(),
        Options {
            circuits_to_win: Some(4),
            ..Options::default()
        }
    );
    assert_eq!(Preset::Boxed.default_players(), 1);
}

// docs/rules.md#options: five presets, the default first; every preset validates.
#[test]
fn every_preset_is_listed_and_valid() {
    assert_eq!(
        Preset::ALL,
        [
            Preset::Composite,
            Preset::Culin1898,
            Preset::Ludii,
            Preset::A4,
            Preset::Boxed
        ]
    );
    for p in Preset::ALL {
        assert_eq!(p.options().validate(), Ok(()), "{p:?}");
        let n = usize::from(p.default_players());
        assert!(Table::new(p.options(), [n, n], Side::A).is_ok());
    }
}

// docs/rules.md#options `deadly_north_bank`: near = own 20, far = own 21 (square: 14, 15).
#[test]
fn deadly_north_space_by_option_and_board() {
    let mut o = Options::default();
    assert_eq!(o.deadly_north_space(), 20);
    o.deadly_north_bank = DeadlyNorthBank::Far;
    assert_eq!(o.deadly_north_space(), 21);
    o.board = Board::Square28;
    assert_eq!(o.deadly_north_space(), 15);
    o.deadly_north_bank = DeadlyNorthBank::Near;
    assert_eq!(o.deadly_north_space(), 14);
}

// ---------------------------------------------------------------------------
// docs/rules.md#move: moving
// ---------------------------------------------------------------------------

// docs/rules.md#move: move the side's awl forward by the value, along its own numbering.
#[test]
fn move_forward_by_the_value_in_own_numbering() {
    let t = composite();
    let s = GameState::new(&t);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(p.score.value, 3);
    assert_eq!(
        p.events,
        vec![moved(Side::A, 1, 4, 3), Event::TurnPassed { seat: B0 }]
    );
    assert_eq!(p.state.awls, [4, 1]);
    assert_eq!(p.state.counters, [4, 4]);
    assert_eq!(p.state.throws, 1);
    assert_eq!(p.state.to_throw(&t), B0);
    // B moves along its own numbering too.
    let p = play_ok(&t, &p.state, TWO);
    assert_eq!(
        p.events,
        vec![moved(Side::B, 1, 3, 2), Event::TurnPassed { seat: A0 }]
    );
    assert_eq!(p.state.awls, [4, 3]);
    assert_eq!(p.state.throws, 2);
    assert_eq!(p.state.to_throw(&t), A0);
}

// docs/rules.md#move for every value of every table, from every plain space:
// a plain move lands on own + value.
#[test]
fn every_value_of_every_table_moves_that_many_spaces() {
    for tt in ThrowTable::ALL {
        let t = table(Options {
            throw_table: tt,
            ..Options::default()
        });
        for th in tt.outcomes() {
            let sc = tt.score(&th).expect("fits");
            for from in [2u8, 3, 5] {
                let s = state(&t, Side::A, [from, 1], [4, 4]);
                let p = play_ok(&t, &s, th);
                assert_eq!(
                    p.state.awl(Side::A),
                    from + sc.value,
                    "{tt:?} {th:?} {from}"
                );
                assert_eq!(p.events[0], moved(Side::A, from, from + sc.value, sc.value));
                assert_eq!(p.score, sc);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// docs/rules.md#passing-home / 3.5: passing home and landing on own 40
// ---------------------------------------------------------------------------

/// Plays every (start, value) pair from `starts` for `mover`, with the
/// opponent on its own 1, and checks passing home (docs/rules.md#passing-home), landing on
/// own L (docs/rules.md#own-last-space, or the option) and plain moves.
fn check_home_stretch(options: Options, starts: std::ops::RangeInclusive<u8>) {
    let t = table(options);
    let board = options.board;
    let l = board.len();
    for mover in Side::BOTH {
        for th in options.throw_table.outcomes() {
            let sc = options.throw_table.score(&th).expect("fits");
            let v = sc.value;
            for from in starts.clone() {
                let mut awls = [1, 1];
                awls[mover.index()] = from;
                let s = state(&t, mover, awls, [4, 4]);
                let p = play_ok(&t, &s, th);
                let raw = from + v;
                let i = mover.index();
                let mut won4 = [4, 4];
                won4[i] = 5;
                won4[1 - i] = 3;
                let mut lost4 = [4, 4];
                lost4[i] = 3;
                lost4[1 - i] = 5;
                let mut expected = Vec::new();
                // The exact finish: own L under `completes_circuit` (Ludii's
                // End), own start (L + 1) otherwise.
                let finish = if options.own_last_space == OwnLastSpace::CompletesCircuit {
                    l
                } else {
                    l + 1
                };
                let (awl, counters, circuits) =
                    if raw > finish && options.overshoot == Overshoot::NoMove {
                        // docs/rules.md#options `no_move`: a forced pass.
                        expected.push(Event::ForcedPass {
                            side: mover,
                            value: v,
                        });
                        (from, [4, 4], 0)
                    } else if raw > l {
                        // docs/rules.md#passing-home: +1 counter, new space = old + value − L.
                        let to = raw - l;
                        expected.push(moved(mover, from, to, v));
                        expected.push(circuit(mover, 1, false));
                        expected.push(paid(mover.other(), CounterReason::Circuit, won4));
                        if board.is_dry_branch(to) {
                            expected.push(Event::LandedOnDryBranch {
                                side: mover,
                                space: to,
                            });
                        }
                        (to, won4, 1)
                    } else if raw == l {
                        expected.push(moved(mover, from, l, v));
                        match options.own_last_space {
                            // docs/rules.md#own-last-space: falls into the south creek, no circuit.
                            OwnLastSpace::FallsIn => {
                                expected.push(fell(mover, Creek::South, l));
                                expected.push(paid(mover, CounterReason::CreekFall, lost4));
                                (1, lost4, 0)
                            }
                            // docs/rules.md#options `completes_circuit` (Ludii).
                            OwnLastSpace::CompletesCircuit => {
                                expected.push(circuit(mover, 1, true));
                                expected.push(paid(mover.other(), CounterReason::Circuit, won4));
                                (1, won4, 1)
                            }
                            // docs/rules.md#options `ordinary` (A4): nothing happens
                            // (the opponent is on its own 1: see the whip test).
                            OwnLastSpace::Ordinary => unreachable!("not used here"),
                        }
                    } else {
                        expected.push(moved(mover, from, raw, v));
                        if board.is_dry_branch(raw) {
                            expected.push(Event::LandedOnDryBranch {
                                side: mover,
                                space: raw,
                            });
                        }
                        (raw, [4, 4], 0)
                    };
                expected.push(pass(sc.throws_again, seat(mover, 0), other_seat(mover)));
                let ctx = format!("{options:?} {mover:?} from {from} value {v}");
                assert_eq!(p.events, expected, "{ctx}");
                assert_eq!(p.state.awl(mover), awl, "{ctx}");
                assert_eq!(p.state.awl(mover.other()), 1, "{ctx}");
                assert_eq!(p.state.counters, counters, "{ctx}");
                assert_eq!(p.state.circuits[i], circuits, "{ctx}");
                assert_eq!(p.state.circuits[1 - i], 0, "{ctx}");
                assert_eq!(p.state.extra_throw, sc.throws_again, "{ctx}");
            }
        }
    }
}

// docs/rules.md#passing-home (passing home: +1 counter, the awl carries on, new space =
// old + value − 40) and 3.5 (landing exactly on own 40 falls in, no circuit):
// from every start space 31..=39 with every value of every table, both sides.
#[test]
fn passing_home_from_31_to_39_with_every_value_wins_a_counter_and_carries_on() {
    for tt in ThrowTable::ALL {
        check_home_stretch(
            Options {
                throw_table: tt,
                ..Options::default()
            },
            31..=39,
        );
    }
}

// docs/rules.md#passing-home on the square (docs/rules.md#board-square28): new space = old + value − 28,
// from every start space 19..=27.
#[test]
fn passing_home_on_square28_carries_on_past_own_28() {
    for tt in ThrowTable::ALL {
        check_home_stretch(
            Options {
                board: Board::Square28,
                throw_table: tt,
                ..Options::default()
            },
            19..=27,
        );
    }
}

// docs/rules.md#options `completes_circuit` (Ludii): landing exactly on own 40 counts as
// coming home (own 1, +1 counter), passing it still completes a circuit.
#[test]
fn completes_circuit_from_31_to_39_with_every_value() {
    for tt in [ThrowTable::SticksSahe, ThrowTable::SticksCount] {
        check_home_stretch(
            Options {
                throw_table: tt,
                own_last_space: OwnLastSpace::CompletesCircuit,
                ..Options::default()
            },
            31..=39,
        );
    }
}

// docs/rules.md#options `overshoot: no_move` (Ludii: an exact throw is needed): every
// throw that would pass own 40 is a forced pass, from every start 31..=39,
// and the throw's "throw again" still holds (the 5 and 10 of sticks_count).
#[test]
fn no_move_makes_every_overshoot_a_forced_pass_keeping_the_extra_throw() {
    for own_last_space in [OwnLastSpace::FallsIn, OwnLastSpace::CompletesCircuit] {
        for tt in ThrowTable::ALL {
            check_home_stretch(
                Options {
                    throw_table: tt,
                    own_last_space,
                    overshoot: Overshoot::NoMove,
                    ..Options::default()
                },
                31..=39,
            );
        }
    }
}

// docs/rules.md#options ludii detail: "a 5 or a 10 still earns the extra throw, even on
// a forced pass".
#[test]
fn forced_pass_on_5_and_10_still_throws_again() {
    let t = table(Preset::Ludii.options());
    for (th, v) in [(SIX, 5), (TEN, 10)] {
        let s = state(&t, Side::A, [38, 1], [10, 10]);
        let p = play_ok(&t, &s, th);
        assert_eq!(
            p.events,
            vec![
                Event::ForcedPass {
                    side: Side::A,
                    value: v
                },
                Event::ThrowsAgain { seat: A0 }
            ]
        );
        assert_eq!(p.state.awls, [38, 1]);
        assert_eq!(p.state.counters, [10, 10]);
        assert!(p.state.extra_throw);
        assert_eq!(p.state.throws, 1, "a forced pass is a throw");
    }
    // And a plain value that overshoots passes the sticks on.
    let s = state(&t, Side::A, [38, 1], [10, 10]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            Event::ForcedPass {
                side: Side::A,
                value: 3
            },
            Event::TurnPassed { seat: B0 }
        ]
    );
}

// docs/rules.md#own-last-space: landing exactly on own 40 falls in: back to own 1, pay one
// counter, no circuit counter (for both sides).
#[test]
fn landing_exactly_on_own_40_falls_into_the_south_creek() {
    let t = composite();
    let s = state(&t, Side::A, [37, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 37, 40, 3),
            fell(Side::A, Creek::South, 40),
            paid(Side::A, CounterReason::CreekFall, [3, 5]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.circuits, [0, 0]);
    let s = state(&t, Side::B, [1, 34], [4, 4]);
    let p = play_ok(&t, &s, SIX);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 34, 40, 6),
            fell(Side::B, Creek::South, 40),
            paid(Side::B, CounterReason::CreekFall, [5, 3]),
            Event::ThrowsAgain { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.circuits, [0, 0]);
}

// docs/rules.md#options `own_last_space: ordinary` (cyningstan/A4): own 40 is an
// ordinary space; "landing on or passing own start wins the lap", i.e. going
// past own 40 (landing on own 1 or beyond) completes the circuit.
#[test]
fn ordinary_own_last_space_is_a_plain_space_and_the_lap_is_won_past_it() {
    let t = table(Options {
        own_last_space: OwnLastSpace::Ordinary,
        ..Options::default()
    });
    let s = state(&t, Side::A, [37, 5], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![moved(Side::A, 37, 40, 3), Event::TurnPassed { seat: B0 }]
    );
    assert_eq!(p.state.awls, [40, 5]);
    assert_eq!(p.state.counters, [4, 4]);
    assert_eq!(p.state.circuits, [0, 0]);
    // From own 40, a 1 lands on own 1 (the start): the lap is won.
    let s = state(&t, Side::A, [40, 5], [4, 4]);
    let p = play_ok(&t, &s, ONE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 40, 1, 1),
            circuit(Side::A, 1, false),
            paid(Side::B, CounterReason::Circuit, [5, 3]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 5]);
    // From own 40 a 10 carries on to own 10 (the first dry branch).
    let s = state(&t, Side::A, [40, 5], [4, 4]);
    let p = play_ok(&t, &s, TEN);
    assert_eq!(p.state.awls, [10, 5]);
    assert_eq!(p.state.circuits, [1, 0]);
}

// docs/rules.md#options `completes_circuit` (Ludii): landing exactly on own 40 sends the
// awl to own 1 and wins a counter; it is an exact arrival.
#[test]
fn completes_circuit_landing_exactly_on_own_40_wins_a_counter() {
    let t = table(Options {
        own_last_space: OwnLastSpace::CompletesCircuit,
        ..Options::default()
    });
    let s = state(&t, Side::A, [37, 5], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 37, 40, 3),
            circuit(Side::A, 1, true),
            paid(Side::B, CounterReason::Circuit, [5, 3]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 5]);
    assert_eq!(p.state.circuits, [1, 0]);
}

// docs/rules.md#whip: "An awl resting on its own start is on the other side's 40:
// landing there is a creek fall for the mover, so a start is never whipped"
// (docs/rules.md#decisions). Also under `completes_circuit` (Ludii: a start is
// not on the other track).
#[test]
fn a_start_is_never_whipped_under_falls_in_or_completes_circuit() {
    let t = composite();
    let s = state(&t, Side::A, [37, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert!(!p.events.iter().any(|e| matches!(e, Event::Whipped { .. })));
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.counters, [3, 5], "only the mover pays");
    let s = state(&t, Side::B, [1, 30], [4, 4]);
    let p = play_ok(&t, &s, TEN);
    assert!(!p.events.iter().any(|e| matches!(e, Event::Whipped { .. })));
    assert_eq!(p.state.counters, [5, 3]);

    let t = table(Options {
        own_last_space: OwnLastSpace::CompletesCircuit,
        ..Options::default()
    });
    let s = state(&t, Side::A, [37, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert!(!p.events.iter().any(|e| matches!(e, Event::Whipped { .. })));
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.counters, [5, 3], "only the circuit counter");
}

// docs/rules.md#whip: "a start is never whipped". Under `falls_in` the space is a
// creek for the mover; the engine keeps the rule for every option, so under
// `own_last_space: ordinary` landing on own 40 beside an awl resting on its
// own start whips nothing.
#[test]
fn ordinary_own_last_space_never_whips_an_awl_resting_on_its_start() {
    let t = table(Options {
        own_last_space: OwnLastSpace::Ordinary,
        ..Options::default()
    });
    let s = state(&t, Side::A, [37, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![moved(Side::A, 37, 40, 3), Event::TurnPassed { seat: B0 }]
    );
    assert_eq!(p.state.awls, [40, 1]);
    assert_eq!(p.state.counters, [4, 4]);
}

// docs/rules.md#options `overshoot: no_move` with `own_last_space: ordinary`: the exact
// finish is own start (one past own 40), so from own 40 a 1 comes home and
// wins the lap, and only larger values are forced passes: an awl on own 40
// is never stuck.
#[test]
fn ordinary_with_no_move_comes_home_from_own_40_with_an_exact_1() {
    let t = table(Options {
        own_last_space: OwnLastSpace::Ordinary,
        overshoot: Overshoot::NoMove,
        ..Options::default()
    });
    for th in ThrowTable::SticksSahe.outcomes() {
        let sc = ThrowTable::SticksSahe.score(&th).expect("fits");
        let s = state(&t, Side::A, [40, 5], [4, 4]);
        let p = play_ok(&t, &s, th);
        if sc.value == 1 {
            assert_eq!(p.events[0], moved(Side::A, 40, 1, 1));
            assert_eq!(p.events[1], circuit(Side::A, 1, false));
            assert_eq!(p.state.awls, [1, 5]);
            assert_eq!(p.state.counters, [5, 3]);
        } else {
            assert!(matches!(p.events[0], Event::ForcedPass { .. }));
            assert_eq!(p.state.awls, [40, 5]);
        }
    }
}

// ---------------------------------------------------------------------------
// docs/rules.md#north-creek: the north creek
// ---------------------------------------------------------------------------

// docs/rules.md#north-creek: landing exactly on own 20 falls in: back to own 1, pay one counter.
#[test]
fn landing_on_own_20_falls_into_the_north_creek() {
    let t = composite();
    let s = state(&t, Side::A, [17, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 17, 20, 3),
            fell(Side::A, Creek::North, 20),
            paid(Side::A, CounterReason::CreekFall, [3, 5]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.circuits, [0, 0]);
    // B's own 20 too.
    let s = state(&t, Side::B, [1, 18], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 18, 20, 2),
            fell(Side::B, Creek::North, 20),
            paid(Side::B, CounterReason::CreekFall, [5, 3]),
            Event::TurnPassed { seat: A0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
}

// docs/rules.md#north-creek: "Own 21 is safe" under the default near bank.
#[test]
fn own_21_is_safe_under_near_bank() {
    let t = composite();
    for from in [11u8, 15, 18, 19] {
        for th in ThrowTable::SticksSahe.outcomes() {
            let v = ThrowTable::SticksSahe.score(&th).expect("fits").value;
            if from + v != 21 {
                continue;
            }
            let s = state(&t, Side::A, [from, 1], [4, 4]);
            let p = play_ok(&t, &s, th);
            assert_eq!(p.state.awls, [21, 1]);
            assert_eq!(p.state.counters, [4, 4]);
        }
    }
}

// docs/rules.md#north-creek: "Only landing counts; passing over the creek is harmless"
// (docs/rules.md#decisions: no source says otherwise).
#[test]
fn passing_over_own_20_is_harmless() {
    let t = composite();
    for (from, th, to) in [
        (19u8, TWO, 21u8),
        (18, SIX, 24),
        (17, SIX, 23),
        (11, TEN, 21),
        (15, TEN, 25),
    ] {
        let s = state(&t, Side::A, [from, 1], [4, 4]);
        let p = play_ok(&t, &s, th);
        assert_eq!(p.state.awls, [to, 1], "from {from}");
        assert_eq!(p.state.counters, [4, 4]);
        assert!(
            p.events
                .contains(&Event::PassedNorthCreek { side: Side::A })
        );
        assert!(
            !p.events
                .iter()
                .any(|e| matches!(e, Event::FellIntoCreek { .. }))
        );
    }
    // Landing short of it or on it does not "pass" it.
    let s = state(&t, Side::A, [17, 1], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert!(
        !p.events
            .contains(&Event::PassedNorthCreek { side: Side::A })
    );
    let p = play_ok(&t, &s, THREE);
    assert!(
        !p.events
            .contains(&Event::PassedNorthCreek { side: Side::A })
    );
}

// docs/rules.md#options `deadly_north_bank: far` (bead.game, Ringling wiki): own 21
// is deadly and own 20 is safe; passing over 21 is harmless.
#[test]
fn far_deadly_bank_makes_own_21_deadly_and_own_20_safe() {
    let t = table(Options {
        deadly_north_bank: DeadlyNorthBank::Far,
        ..Options::default()
    });
    let s = state(&t, Side::A, [18, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 18, 21, 3),
            fell(Side::A, Creek::North, 21),
            paid(Side::A, CounterReason::CreekFall, [3, 5]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
    // Own 20 is safe.
    let s = state(&t, Side::A, [17, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![moved(Side::A, 17, 20, 3), Event::TurnPassed { seat: B0 }]
    );
    // From own 20 a 1 lands on 21 and falls in.
    let s = state(&t, Side::A, [20, 1], [4, 4]);
    let p = play_ok(&t, &s, ONE);
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.counters, [3, 5]);
    // From 19 a 2 lands on 21: falls in, and does not "pass" the creek.
    let s = state(&t, Side::A, [19, 1], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert!(
        !p.events
            .contains(&Event::PassedNorthCreek { side: Side::A })
    );
    assert_eq!(p.state.counters, [3, 5]);
    // From 19 a 3 passes over 21: harmless.
    let s = state(&t, Side::A, [19, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert!(
        p.events
            .contains(&Event::PassedNorthCreek { side: Side::A })
    );
    assert_eq!(p.state.awls, [22, 1]);
    assert_eq!(p.state.counters, [4, 4]);
    // B's own 21 too.
    let s = state(&t, Side::B, [1, 15], [4, 4]);
    let p = play_ok(&t, &s, SIX);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 15, 21, 6),
            fell(Side::B, Creek::North, 21),
            paid(Side::B, CounterReason::CreekFall, [5, 3]),
            Event::ThrowsAgain { seat: B0 },
        ]
    );
}

// docs/rules.md#board-square28: on the square the near bank of the north torrent is own 14
// (far: 15).
#[test]
fn square28_north_torrent_is_own_14_or_15() {
    for (bank, deadly, safe) in [
        (DeadlyNorthBank::Near, 14u8, 15u8),
        (DeadlyNorthBank::Far, 15, 14),
    ] {
        let t = table(Options {
            board: Board::Square28,
            deadly_north_bank: bank,
            ..Options::default()
        });
        let s = state(&t, Side::A, [deadly - 3, 1], [4, 4]);
        let p = play_ok(&t, &s, THREE);
        assert_eq!(p.state.awls, [1, 1], "{bank:?}");
        assert!(p.events.contains(&fell(Side::A, Creek::North, deadly)));
        assert_eq!(p.state.counters, [3, 5]);
        let s = state(&t, Side::A, [safe - 3, 1], [4, 4]);
        let p = play_ok(&t, &s, THREE);
        assert_eq!(p.state.awls, [safe, 1], "{bank:?}");
        assert_eq!(p.state.counters, [4, 4]);
    }
}

// ---------------------------------------------------------------------------
// docs/rules.md#whip: whipping
// ---------------------------------------------------------------------------

// docs/rules.md#whip: landing on the opponent's awl sends it to its own 1 and the
// opponent pays one counter (WP "whipped"; Culin 1898; Ludii).
#[test]
fn landing_on_the_opponents_awl_whips_it_home_and_the_victim_pays() {
    let t = composite();
    // A's 5 is B's 36.
    let s = state(&t, Side::A, [2, 36], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 2, 5, 3),
            whipped(Side::A, 5),
            paid(Side::B, CounterReason::Whip, [5, 3]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [5, 1]);
    // B whips A: B's 12 is A's 29.
    let s = state(&t, Side::B, [29, 10], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 10, 12, 2),
            whipped(Side::B, 12),
            paid(Side::A, CounterReason::Whip, [3, 5]),
            Event::TurnPassed { seat: A0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 12]);
}

// docs/rules.md#whip: a whip happens on every space where the two awls can meet:
// wherever the mover lands on the physical space of the victim.
#[test]
fn whips_on_every_meeting_space() {
    let t = composite();
    for to in 2u8..=39 {
        if to == 20 {
            continue; // whip then fall: its own test
        }
        let from = to - 1;
        let victim = 41 - to;
        if victim == 20 {
            continue; // the victim cannot rest on its own deadly bank
        }
        let s = state(&t, Side::A, [from, victim], [4, 4]);
        let p = play_ok(&t, &s, ONE);
        assert!(p.events.contains(&whipped(Side::A, to)), "to {to}");
        assert_eq!(p.state.awls, [to, 1], "to {to}");
        assert_eq!(p.state.counters, [5, 3], "to {to}");
    }
}

// docs/rules.md#whip: "If the mover then also falls in (it landed on own 20 while
// the opponent sat on its own safe 21), both happen, whip first, and both
// awls go home" (Ludii's order; docs/rules.md#decisions): net counters 0.
#[test]
fn whip_then_fall_on_own_20_sends_both_awls_home_net_zero() {
    let t = composite();
    let s = state(&t, Side::A, [17, 21], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 17, 20, 3),
            whipped(Side::A, 20),
            paid(Side::B, CounterReason::Whip, [5, 3]),
            fell(Side::A, Creek::North, 20),
            paid(Side::A, CounterReason::CreekFall, [4, 4]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.counters, [4, 4]);
    // B does the same, with a 10 that throws again (docs/rules.md#extra-throw).
    let s = state(&t, Side::B, [21, 10], [4, 4]);
    let p = play_ok(&t, &s, TEN);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 10, 20, 10),
            whipped(Side::B, 20),
            paid(Side::A, CounterReason::Whip, [3, 5]),
            fell(Side::B, Creek::North, 20),
            paid(Side::B, CounterReason::CreekFall, [4, 4]),
            Event::ThrowsAgain { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
}

// docs/rules.md#whip with `deadly_north_bank: far`: the opponent rests on its own
// 20 (safe for it) = the mover's 21: whip, then the mover falls in.
#[test]
fn whip_then_fall_on_own_21_under_far_bank() {
    let t = table(Options {
        deadly_north_bank: DeadlyNorthBank::Far,
        ..Options::default()
    });
    let s = state(&t, Side::A, [18, 20], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 18, 21, 3),
            whipped(Side::A, 21),
            paid(Side::B, CounterReason::Whip, [5, 3]),
            fell(Side::A, Creek::North, 21),
            paid(Side::A, CounterReason::CreekFall, [4, 4]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [1, 1]);
}

// docs/rules.md#passing-home then 3.7: passing home and landing on the opponent makes two
// transfers in one throw (circuit, then whip).
#[test]
fn passing_home_onto_the_opponent_wins_two_counters() {
    let t = composite();
    // A's 4 is B's 37.
    let s = state(&t, Side::A, [38, 37], [4, 4]);
    let p = play_ok(&t, &s, SIX);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 38, 4, 6),
            circuit(Side::A, 1, false),
            paid(Side::B, CounterReason::Circuit, [5, 3]),
            whipped(Side::A, 4),
            paid(Side::B, CounterReason::Whip, [6, 2]),
            Event::ThrowsAgain { seat: A0 },
        ]
    );
    assert_eq!(p.state.awls, [4, 1]);
}

// ---------------------------------------------------------------------------
// docs/rules.md#dry-branch / 3.9: dry branches and extra throws
// ---------------------------------------------------------------------------

// docs/rules.md#dry-branch: dry branches have no effect (WP, Ludii, Culin's silence).
#[test]
fn dry_branch_no_effect_on_each_stroke() {
    let t = composite();
    for side in Side::BOTH {
        for space in [10u8, 11, 30, 31] {
            let mut awls = [1, 1];
            awls[side.index()] = space - 2;
            let s = state(&t, side, awls, [4, 4]);
            let p = play_ok(&t, &s, TWO);
            assert_eq!(
                p.events,
                vec![
                    moved(side, space - 2, space, 2),
                    Event::LandedOnDryBranch { side, space },
                    Event::TurnPassed {
                        seat: other_seat(side)
                    },
                ]
            );
            assert_eq!(p.state.awl(side), space);
            assert_eq!(p.state.counters, [4, 4]);
            assert_eq!(p.state.forfeits, [false, false]);
        }
    }
    // With an extra throw, the extra throw stands.
    let s = state(&t, Side::A, [7, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE_AGAIN);
    assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: A0 }));
}

// docs/rules.md#extra-throw: "Extra throws come from the sticks alone: a throw that says
// 'throw again' still does after a creek fall or a whip" (Ludii; D7).
#[test]
fn extra_throws_come_from_the_sticks_alone() {
    let t = composite();
    // 10 into the north creek.
    let s = state(&t, Side::A, [10, 1], [4, 4]);
    let p = play_ok(&t, &s, TEN);
    assert!(p.events.contains(&fell(Side::A, Creek::North, 20)));
    assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: A0 }));
    assert!(p.state.extra_throw);
    assert_eq!(p.state.to_throw(&t), A0);
    assert_eq!(p.state.turn, s.turn);
    // 10 into the south creek.
    let s = state(&t, Side::A, [30, 1], [4, 4]);
    let p = play_ok(&t, &s, TEN);
    assert!(p.events.contains(&fell(Side::A, Creek::South, 40)));
    assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: A0 }));
    // 6 that whips (A's 10 is B's 31; landing on a dry branch too).
    let s = state(&t, Side::A, [4, 31], [4, 4]);
    let p = play_ok(&t, &s, SIX);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 4, 10, 6),
            whipped(Side::A, 10),
            paid(Side::B, CounterReason::Whip, [5, 3]),
            Event::LandedOnDryBranch {
                side: Side::A,
                space: 10
            },
            Event::ThrowsAgain { seat: A0 },
        ]
    );
    // Sahe 1 and sahe 3 throw again; a plain 3 after a whip does not.
    let s = state(&t, Side::A, [2, 38], [4, 4]);
    let p = play_ok(&t, &s, ONE_AGAIN);
    assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: A0 }));
    let s = state(&t, Side::A, [2, 36], [4, 4]);
    let p = play_ok(&t, &s, THREE);
    assert!(p.events.contains(&whipped(Side::A, 5)));
    assert_eq!(p.events.last(), Some(&Event::TurnPassed { seat: B0 }));
    assert!(!p.state.extra_throw);
}

// docs/rules.md#turn: the same side throws again until a throw without it, then
// the other side.
#[test]
fn a_run_of_extra_throws_ends_at_the_first_throw_without_one() {
    let t = composite();
    let mut s = GameState::new(&t);
    for th in [TEN, SIX, ONE_AGAIN, THREE_AGAIN] {
        let p = play_ok(&t, &s, th);
        assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: A0 }));
        s = p.state;
    }
    assert_eq!(s.awls, [1 + 10 + 6 + 1 + 3, 1]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(p.events.last(), Some(&Event::TurnPassed { seat: B0 }));
    assert!(!p.state.extra_throw);
    assert_eq!(p.state.throws, 5);
}

// docs/rules.md#options `dry_branch: lose_throw` (cyningstan, A4, bead.game): a throw
// that granted another throw loses that extra throw.
#[test]
fn lose_throw_loses_the_extra_throw_the_landing_throw_earned() {
    let t = table(Options {
        dry_branch: DryBranch::LoseThrow,
        ..Options::default()
    });
    let s = state(&t, Side::A, [7, 1], [4, 4]);
    let p = play_ok(&t, &s, THREE_AGAIN);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 7, 10, 3),
            Event::LostThrow {
                side: Side::A,
                space: 10,
                extra_throw_lost: true
            },
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.forfeits, [false, false]);
    assert!(!p.state.extra_throw);
    assert_eq!(p.state.to_throw(&t), B0);
}

// docs/rules.md#options `lose_throw`: otherwise the side's next turn is skipped
// (TurnSkipped, and the other side throws again).
#[test]
fn lose_throw_without_an_extra_throw_skips_the_sides_next_turn() {
    let t = table(Options {
        dry_branch: DryBranch::LoseThrow,
        ..Options::default()
    });
    let s = state(&t, Side::A, [8, 1], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 8, 10, 2),
            Event::LostThrow {
                side: Side::A,
                space: 10,
                extra_throw_lost: false
            },
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.forfeits, [true, false]);
    assert_eq!(p.state.to_throw(&t), B0);
    // B's extra throws do not use up A's forfeit.
    let p = play_ok(&t, &p.state, SIX);
    assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: B0 }));
    assert_eq!(p.state.forfeits, [true, false]);
    // B's turn ends: A's turn is skipped and B throws again.
    let p = play_ok(&t, &p.state, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 7, 9, 2),
            Event::TurnSkipped { seat: A0 },
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.forfeits, [false, false]);
    assert_eq!(p.state.to_throw(&t), B0);
    // And then A is back.
    let p = play_ok(&t, &p.state, THREE);
    assert_eq!(p.events.last(), Some(&Event::TurnPassed { seat: A0 }));
}

// docs/rules.md#options `lose_throw` on every stroke of both dry branches, both sides.
#[test]
fn lose_throw_applies_on_all_four_strokes() {
    let t = table(Options {
        dry_branch: DryBranch::LoseThrow,
        ..Options::default()
    });
    for side in Side::BOTH {
        for space in [10u8, 11, 30, 31] {
            let mut awls = [1, 1];
            awls[side.index()] = space - 2;
            let s = state(&t, side, awls, [4, 4]);
            let p = play_ok(&t, &s, TWO);
            assert!(p.events.contains(&Event::LostThrow {
                side,
                space,
                extra_throw_lost: false
            }));
            assert!(p.state.forfeits[side.index()]);
            assert!(
                !p.events
                    .iter()
                    .any(|e| matches!(e, Event::LandedOnDryBranch { .. }))
            );
        }
    }
}

// docs/rules.md#options `lose_throw`: both sides forfeiting: each loses one turn.
#[test]
fn lose_throw_by_both_sides_skips_one_turn_each() {
    let t = table(Options {
        dry_branch: DryBranch::LoseThrow,
        ..Options::default()
    });
    let mut s = state(&t, Side::B, [10, 8], [4, 4]);
    s.forfeits = [true, false];
    let p = play_ok(&t, &s, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 8, 10, 2),
            Event::LostThrow {
                side: Side::B,
                space: 10,
                extra_throw_lost: false
            },
            Event::TurnSkipped { seat: A0 },
            Event::TurnSkipped { seat: B0 },
            Event::TurnPassed { seat: A0 },
        ]
    );
    assert_eq!(p.state.forfeits, [false, false]);
    assert_eq!(p.state.to_throw(&t), A0);
}

// docs/rules.md#options `lose_throw` with teams in side blocks: the side's next turn
// is its next player's turn in the same block (A1), so A1 is skipped.
#[test]
fn lose_throw_in_side_blocks_skips_the_next_player_of_the_side() {
    let t = Table::new(
        Options {
            dry_branch: DryBranch::LoseThrow,
            ..Options::default()
        },
        [2, 2],
        Side::A,
    )
    .expect("table");
    let s = state(&t, Side::A, [8, 1], [4, 4]);
    assert_eq!(s.to_throw(&t), A0);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 8, 10, 2),
            Event::LostThrow {
                side: Side::A,
                space: 10,
                extra_throw_lost: false
            },
            Event::TurnSkipped { seat: A1 },
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.to_throw(&t), B0);
    assert_eq!(p.state.turn, 2);
}

// docs/rules.md#options `lose_throw` with `alternate` 2v2 (A1, B1, A2, B2): A's next
// turn after A1 is A2's, which is skipped.
#[test]
fn lose_throw_in_alternate_skips_the_sides_next_turn() {
    let t = Table::new(
        Options {
            dry_branch: DryBranch::LoseThrow,
            turn_order: TurnOrder::Alternate,
            ..Options::default()
        },
        [2, 2],
        Side::A,
    )
    .expect("table");
    let s = state(&t, Side::A, [8, 1], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(p.events.last(), Some(&Event::TurnPassed { seat: B0 }));
    let p = play_ok(&t, &p.state, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 1, 3, 2),
            Event::TurnSkipped { seat: A1 },
            Event::TurnPassed { seat: B1 },
        ]
    );
    assert_eq!(p.state.to_throw(&t), B1);
}

// docs/rules.md#options / docs/rules.md#board-square28: the A4 preset (square28, spinner, lose_throw):
// the dry gullies are own 7, 8, 21, 22.
#[test]
fn a4_preset_dry_gullies_lose_a_throw() {
    let t = table(Preset::A4.options());
    for space in [7u8, 8, 21, 22] {
        let s = state(&t, Side::A, [space - 2, 1], [4, 4]);
        let p = play_ok(&t, &s, Throw::Spinner(SpinnerSector::Two));
        assert!(p.events.contains(&Event::LostThrow {
            side: Side::A,
            space,
            extra_throw_lost: false
        }));
        let s = state(&t, Side::A, [space - 1, 1], [4, 4]);
        let p = play_ok(&t, &s, Throw::Spinner(SpinnerSector::BlueOne));
        assert!(p.events.contains(&Event::LostThrow {
            side: Side::A,
            space,
            extra_throw_lost: true
        }));
        assert_eq!(p.events.last(), Some(&Event::TurnPassed { seat: B0 }));
    }
}

// docs/rules.md#options `dry_branch: cross_over` (A4 adaptation option): own 10 → 31,
// own 11 → 30, landing there; the second branch does not cross back.
#[test]
fn cross_over_crosses_the_dry_bed_to_the_facing_stroke() {
    let t = table(Options {
        dry_branch: DryBranch::CrossOver,
        ..Options::default()
    });
    for side in Side::BOTH {
        for (land, across) in [(10u8, 31u8), (11, 30)] {
            let mut awls = [1, 1];
            awls[side.index()] = land - 2;
            let s = state(&t, side, awls, [4, 4]);
            let p = play_ok(&t, &s, TWO);
            assert_eq!(
                p.events,
                vec![
                    moved(side, land - 2, land, 2),
                    Event::CrossedDryBranch {
                        side,
                        from: land,
                        to: across
                    },
                    Event::LandedOnDryBranch {
                        side,
                        space: across
                    },
                    Event::TurnPassed {
                        seat: other_seat(side)
                    },
                ]
            );
            assert_eq!(p.state.awl(side), across);
        }
        for space in [30u8, 31] {
            let mut awls = [1, 1];
            awls[side.index()] = space - 2;
            let s = state(&t, side, awls, [4, 4]);
            let p = play_ok(&t, &s, TWO);
            assert_eq!(p.state.awl(side), space, "no crossing back");
            assert!(
                !p.events
                    .iter()
                    .any(|e| matches!(e, Event::CrossedDryBranch { .. }))
            );
        }
    }
}

// docs/rules.md#options `cross_over`: "landing there (and can whip there)".
#[test]
fn cross_over_whips_on_the_facing_stroke() {
    let t = table(Options {
        dry_branch: DryBranch::CrossOver,
        ..Options::default()
    });
    // A's 31 is B's 10.
    let s = state(&t, Side::A, [8, 10], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 8, 10, 2),
            Event::CrossedDryBranch {
                side: Side::A,
                from: 10,
                to: 31
            },
            whipped(Side::A, 31),
            paid(Side::B, CounterReason::Whip, [5, 3]),
            Event::LandedOnDryBranch {
                side: Side::A,
                space: 31
            },
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.awls, [31, 1]);
    // An awl resting on the stroke the mover crosses from (A's 10 = B's 31)
    // is not whipped: the mover does not stay there.
    let s = state(&t, Side::A, [8, 31], [4, 4]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(p.state.awls, [31, 31]);
    assert_eq!(p.state.counters, [4, 4]);
}

// docs/rules.md#options `cross_over` on square28: 7 → 22, 8 → 21.
#[test]
fn cross_over_on_square28_maps_7_to_22_and_8_to_21() {
    let t = table(Options {
        board: Board::Square28,
        dry_branch: DryBranch::CrossOver,
        ..Options::default()
    });
    for (land, across) in [(7u8, 22u8), (8, 21)] {
        let s = state(&t, Side::A, [land - 2, 1], [4, 4]);
        let p = play_ok(&t, &s, TWO);
        assert!(p.events.contains(&Event::CrossedDryBranch {
            side: Side::A,
            from: land,
            to: across
        }));
        assert_eq!(p.state.awls, [across, 1]);
    }
}

// ---------------------------------------------------------------------------
// docs/rules.md#end: the end of the game
// ---------------------------------------------------------------------------

// docs/rules.md#end: the game ends the moment one side holds all counters.
#[test]
fn the_game_ends_the_moment_a_side_holds_every_counter() {
    let t = composite();
    let s = state(&t, Side::A, [38, 5], [7, 1]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 38, 1, 3),
            circuit(Side::A, 1, false),
            paid(Side::B, CounterReason::Circuit, [8, 0]),
            won(Side::A, WinReason::AllCounters),
        ]
    );
    assert_eq!(p.state.outcome, Some(Outcome::Won { side: Side::A }));
    assert!(p.state.is_finished());
}

// docs/rules.md#end: "check after each transfer: one throw can make two": a
// circuit then a whip, the circuit takes B's last counter: the whip never
// happens, and the throw's "again" is void.
#[test]
fn the_second_transfer_does_not_happen_after_the_win_circuit_then_whip() {
    let t = composite();
    let s = state(&t, Side::A, [38, 37], [7, 1]);
    let p = play_ok(&t, &s, SIX);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 38, 4, 6),
            circuit(Side::A, 1, false),
            paid(Side::B, CounterReason::Circuit, [8, 0]),
            won(Side::A, WinReason::AllCounters),
        ]
    );
    assert_eq!(p.state.awls, [4, 37], "B's awl was never whipped");
    assert!(!p.state.extra_throw);
    // With two counters both transfers happen and the whip wins.
    let s = state(&t, Side::A, [38, 37], [6, 2]);
    let p = play_ok(&t, &s, SIX);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 38, 4, 6),
            circuit(Side::A, 1, false),
            paid(Side::B, CounterReason::Circuit, [7, 1]),
            whipped(Side::A, 4),
            paid(Side::B, CounterReason::Whip, [8, 0]),
            won(Side::A, WinReason::AllCounters),
        ]
    );
    assert_eq!(p.state.awls, [4, 1]);
}

// docs/rules.md#end with 3.7: the whip takes B's last counter: the mover's fall
// into the creek never happens.
#[test]
fn the_second_transfer_does_not_happen_after_the_win_whip_then_fall() {
    let t = composite();
    let s = state(&t, Side::A, [17, 21], [7, 1]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 17, 20, 3),
            whipped(Side::A, 20),
            paid(Side::B, CounterReason::Whip, [8, 0]),
            won(Side::A, WinReason::AllCounters),
        ]
    );
    assert_eq!(p.state.awls, [20, 1]);
    assert_eq!(p.state.outcome, Some(Outcome::Won { side: Side::A }));
    // When the mover is the one short of counters, whip then fall does not end it.
    let s = state(&t, Side::A, [17, 21], [1, 7]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(p.state.counters, [1, 7]);
    assert_eq!(p.state.outcome, None);
}

// docs/rules.md#end: a side that gives away its last counter by its own fall
// loses at once (the default end check), even on its own throw.
#[test]
fn immediate_end_check_a_side_falling_with_its_last_counter_loses_at_once() {
    let t = composite();
    let s = state(&t, Side::A, [17, 1], [1, 7]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 17, 20, 3),
            fell(Side::A, Creek::North, 20),
            paid(Side::A, CounterReason::CreekFall, [0, 8]),
            won(Side::B, WinReason::AllCounters),
        ]
    );
    assert_eq!(p.state.outcome, Some(Outcome::Won { side: Side::B }));
    // Even with a throw that says "throw again".
    let s = state(&t, Side::A, [10, 1], [1, 7]);
    let p = play_ok(&t, &s, TEN);
    assert_eq!(p.events.last(), Some(&won(Side::B, WinReason::AllCounters)));
    assert!(!p.state.extra_throw);
}

// docs/rules.md#options ludii detail (`end_check: after_move`, Ludii's coding): a side
// that gives away its last counter by its own creek fall is not out at once;
// the game ends after the other side's next move.
#[test]
fn after_move_a_side_emptied_by_its_own_fall_is_not_out_at_once() {
    let t = table(Options {
        end_check: EndCheck::AfterMove,
        ..Options::default()
    });
    let s = state(&t, Side::A, [17, 1], [1, 7]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 17, 20, 3),
            fell(Side::A, Creek::North, 20),
            paid(Side::A, CounterReason::CreekFall, [0, 8]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.outcome, None);
    // B's next (plain) move ends it.
    let p = play_ok(&t, &p.state, TWO);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 1, 3, 2),
            won(Side::B, WinReason::AllCounters)
        ]
    );
    assert_eq!(p.state.outcome, Some(Outcome::Won { side: Side::B }));
}

// docs/rules.md#options ludii detail: "unless that move is itself a creek fall".
#[test]
fn after_move_the_others_creek_fall_gives_the_emptied_side_a_counter_back() {
    let t = table(Options {
        end_check: EndCheck::AfterMove,
        ..Options::default()
    });
    let s = state(&t, Side::B, [1, 17], [0, 8]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::B, 17, 20, 3),
            fell(Side::B, Creek::North, 20),
            paid(Side::B, CounterReason::CreekFall, [1, 7]),
            Event::TurnPassed { seat: A0 },
        ]
    );
    assert_eq!(p.state.outcome, None);
}

// docs/rules.md#options ludii detail: "meanwhile the emptied side may win a counter
// back" with its own extra throws; and "or nothing when the side has none
// left" (CounterUnpaid) on a second fall in the same turn.
#[test]
fn after_move_the_emptied_side_plays_on_its_extra_throws() {
    let t = table(Options {
        end_check: EndCheck::AfterMove,
        ..Options::default()
    });
    // A falls with its last counter on a 10: it throws again.
    let s0 = state(&t, Side::A, [10, 38], [1, 7]);
    let p = play_ok(&t, &s0, TEN);
    assert_eq!(p.state.counters, [0, 8]);
    assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: A0 }));
    assert_eq!(p.state.outcome, None);
    // It whips B (A's 3 = B's 38) and wins a counter back.
    let q = play_ok(&t, &p.state, TWO);
    assert_eq!(
        q.events,
        vec![
            moved(Side::A, 1, 3, 2),
            whipped(Side::A, 3),
            paid(Side::B, CounterReason::Whip, [1, 7]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(q.state.outcome, None);
    // Or it falls in again with nothing to pay: 10, 6, then 3 onto own 20.
    let mut s = p.state;
    s.awls[1] = 5;
    for th in [TEN, SIX] {
        s = play_ok(&t, &s, th).state;
    }
    assert_eq!(s.awls, [17, 5]);
    let r = play_ok(&t, &s, THREE);
    assert_eq!(
        r.events,
        vec![
            moved(Side::A, 17, 20, 3),
            fell(Side::A, Creek::North, 20),
            Event::CounterUnpaid {
                payer: Side::A,
                payee: Side::B,
                reason: CounterReason::CreekFall
            },
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(r.state.counters, [0, 8]);
    assert_eq!(r.state.outcome, None);
}

// docs/rules.md#options ludii detail: "it wins if the other side holds no counters",
// checked after the whole move: whip-then-fall gives the counter straight
// back, so taking the last counter by the whip does not win (contrast with
// the immediate test above).
#[test]
fn after_move_whip_then_fall_with_the_victims_last_counter_does_not_win() {
    let t = table(Options {
        end_check: EndCheck::AfterMove,
        ..Options::default()
    });
    let s = state(&t, Side::A, [17, 21], [7, 1]);
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 17, 20, 3),
            whipped(Side::A, 20),
            paid(Side::B, CounterReason::Whip, [8, 0]),
            fell(Side::A, Creek::North, 20),
            paid(Side::A, CounterReason::CreekFall, [7, 1]),
            Event::TurnPassed { seat: B0 },
        ]
    );
    assert_eq!(p.state.outcome, None);
    // A plain whip of the last counter wins after the move, even on a throw
    // that says "throw again".
    let s = state(&t, Side::A, [4, 31], [7, 1]);
    let p = play_ok(&t, &s, SIX);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 4, 10, 6),
            whipped(Side::A, 10),
            paid(Side::B, CounterReason::Whip, [8, 0]),
            Event::LandedOnDryBranch {
                side: Side::A,
                space: 10
            },
            won(Side::A, WinReason::AllCounters),
        ]
    );
    assert!(!p.state.extra_throw);
}

// docs/rules.md#options `circuits_to_win` (the boxed edition: 4): completing that many
// circuits wins outright, counters or not.
#[test]
fn circuits_to_win_ends_the_game_on_the_nth_circuit() {
    let t = table(Preset::Boxed.options());
    let mut s = state(&t, Side::A, [38, 5], [4, 4]);
    s.circuits = [3, 0];
    let p = play_ok(&t, &s, THREE);
    assert_eq!(
        p.events,
        vec![
            moved(Side::A, 38, 1, 3),
            circuit(Side::A, 4, false),
            paid(Side::B, CounterReason::Circuit, [5, 3]),
            won(Side::A, WinReason::Circuits),
        ]
    );
    assert_eq!(p.state.outcome, Some(Outcome::Won { side: Side::A }));
    // The third circuit does not.
    s.circuits = [2, 0];
    let p = play_ok(&t, &s, THREE);
    assert_eq!(p.state.circuits, [3, 0]);
    assert_eq!(p.state.outcome, None);
    // Winning on circuits stops the throw: no whip after it, no extra throw.
    let mut s = state(&t, Side::A, [38, 37], [4, 4]);
    s.circuits = [3, 0];
    let p = play_ok(&t, &s, SIX);
    assert_eq!(p.events.last(), Some(&won(Side::A, WinReason::Circuits)));
    assert_eq!(p.state.awls, [4, 37]);
    assert!(!p.state.extra_throw);
    // If the circuit's counter is B's last, the counters decide first.
    let mut s = state(&t, Side::A, [38, 5], [7, 1]);
    s.circuits = [3, 0];
    let p = play_ok(&t, &s, THREE);
    assert_eq!(p.events.last(), Some(&won(Side::A, WinReason::AllCounters)));
}

// docs/rules.md#options `circuits_to_win` 1..10, with an exact `completes_circuit` and for B.
#[test]
fn circuits_to_win_counts_exact_arrivals_and_every_bound() {
    for n in 1u8..=10 {
        let t = table(Options {
            own_last_space: OwnLastSpace::CompletesCircuit,
            circuits_to_win: Some(n),
            ..Options::default()
        });
        let mut s = state(&t, Side::B, [5, 37], [4, 4]);
        s.circuits = [0, u16::from(n) - 1];
        let p = play_ok(&t, &s, THREE);
        assert_eq!(
            p.events,
            vec![
                moved(Side::B, 37, 40, 3),
                circuit(Side::B, u16::from(n), true),
                paid(Side::A, CounterReason::Circuit, [3, 5]),
                won(Side::B, WinReason::Circuits),
            ]
        );
    }
    // None: circuits never win.
    let t = composite();
    let mut s = state(&t, Side::A, [38, 5], [4, 4]);
    s.circuits = [999, 0];
    let p = play_ok(&t, &s, THREE);
    assert_eq!(p.state.circuits, [1000, 0]);
    assert_eq!(p.state.outcome, None);
}

// ---------------------------------------------------------------------------
// docs/rules.md#stop: stopping; finished games
// ---------------------------------------------------------------------------

// docs/rules.md#stop: a stopped game goes to the side with more counters; equal
// counts are a draw (the A4 sheet's rule; seed encyclopedia).
#[test]
fn stop_more_counters_wins_equal_is_a_draw() {
    let t = composite();
    for (counters, outcome, event) in [
        (
            [5, 3],
            Outcome::Won { side: Side::A },
            won(Side::A, WinReason::Stopped),
        ),
        (
            [3, 5],
            Outcome::Won { side: Side::B },
            won(Side::B, WinReason::Stopped),
        ),
        (
            [8, 0],
            Outcome::Won { side: Side::A },
            won(Side::A, WinReason::Stopped),
        ),
        ([4, 4], Outcome::Draw, Event::Drawn),
    ] {
        let mut s = state(&t, Side::A, [5, 9], counters);
        s.extra_throw = true;
        let (next, e) = stop(&s).expect("stoppable");
        assert_eq!(e, event);
        assert_eq!(next.outcome, Some(outcome));
        assert!(!next.extra_throw);
        assert_eq!(next.awls, s.awls);
        assert_eq!(next.counters, s.counters);
        // docs/rules.md#stop: stopping is refused once over, and so is a throw.
        assert_eq!(stop(&next), Err(RulesError::GameOver));
        assert_eq!(play(&t, &next, &TWO), Err(RulesError::GameOver));
    }
}

// docs/rules.md#end: a finished game refuses a throw (any throw, even a
// mismatched one) and a stop.
#[test]
fn a_finished_game_refuses_a_throw() {
    let t = composite();
    let s = state(&t, Side::A, [38, 5], [7, 1]);
    let over = play_ok(&t, &s, THREE).state;
    assert!(over.is_finished());
    for th in ThrowTable::SticksSahe.outcomes() {
        assert_eq!(play(&t, &over, &th), Err(RulesError::GameOver));
    }
    assert_eq!(
        play(&t, &over, &Throw::Spinner(SpinnerSector::Six)),
        Err(RulesError::GameOver)
    );
    assert_eq!(stop(&over), Err(RulesError::GameOver));
    let mut drawn = GameState::new(&t);
    drawn.outcome = Some(Outcome::Draw);
    assert_eq!(play(&t, &drawn, &TWO), Err(RulesError::GameOver));
}

// docs/rules.md#sticks / 2.4: a throw that does not fit the table is refused.
#[test]
fn a_mismatched_throw_is_refused_by_play() {
    let t = composite();
    let s = GameState::new(&t);
    assert_eq!(
        play(&t, &s, &Throw::Spinner(SpinnerSector::Ten)),
        Err(RulesError::Throw(ThrowMismatch {
            table: ThrowTable::SticksSahe,
            got: "spinner"
        }))
    );
    let t = table(Preset::A4.options());
    let s = GameState::new(&t);
    assert_eq!(
        play(&t, &s, &TWO),
        Err(RulesError::Throw(ThrowMismatch {
            table: ThrowTable::Spinner,
            got: "sticks"
        }))
    );
    assert!(replay(&t, &[Throw::Spinner(SpinnerSector::Two), TWO]).is_err());
}

// ---------------------------------------------------------------------------
// docs/rules.md#turn: turns and teams
// ---------------------------------------------------------------------------

fn seats(t: &Table, n: usize) -> Vec<Seat> {
    (0..n).map(|i| t.seat(i)).collect()
}

fn team_table(players: [usize; 2], first: Side, order: TurnOrder) -> Table {
    Table::new(
        Options {
            turn_order: order,
            ..Options::default()
        },
        players,
        first,
    )
    .expect("table")
}

// docs/rules.md#turn: "side blocks: every player of the side throws her turn in
// order, then every player of the other side" (Culin 1898; Ludii's P1, P2, P3, P4).
#[test]
fn side_blocks_seat_sequences() {
    let t = team_table([2, 2], Side::A, TurnOrder::SideBlocks);
    assert_eq!(t.round_len(), 4);
    assert_eq!(seats(&t, 8), vec![A0, A1, B0, B1, A0, A1, B0, B1]);
    let t = team_table([3, 1], Side::A, TurnOrder::SideBlocks);
    assert_eq!(t.round_len(), 4);
    assert_eq!(seats(&t, 8), vec![A0, A1, A2, B0, A0, A1, A2, B0]);
    let t = team_table([2, 2], Side::B, TurnOrder::SideBlocks);
    assert_eq!(seats(&t, 4), vec![B0, B1, A0, A1]);
    let t = team_table([3, 1], Side::B, TurnOrder::SideBlocks);
    assert_eq!(seats(&t, 5), vec![B0, A0, A1, A2, B0]);
    let t = team_table([1, 1], Side::A, TurnOrder::SideBlocks);
    assert_eq!(seats(&t, 4), vec![A0, B0, A0, B0]);
}

// docs/rules.md#turn option `alternate` (cyningstan/A4): A1, B1, A2, B2, ...; the
// smaller team starts over when it runs out of players.
#[test]
fn alternate_seat_sequences() {
    let t = team_table([2, 2], Side::A, TurnOrder::Alternate);
    assert_eq!(t.round_len(), 4);
    assert_eq!(seats(&t, 8), vec![A0, B0, A1, B1, A0, B0, A1, B1]);
    let t = team_table([3, 1], Side::A, TurnOrder::Alternate);
    assert_eq!(
        seats(&t, 12),
        vec![A0, B0, A1, B0, A2, B0, A0, B0, A1, B0, A2, B0]
    );
    let t = team_table([2, 2], Side::B, TurnOrder::Alternate);
    assert_eq!(seats(&t, 4), vec![B0, A0, B1, A1]);
    let t = team_table([3, 1], Side::B, TurnOrder::Alternate);
    assert_eq!(
        seats(&t, 12),
        vec![B0, A0, B0, A1, B0, A2, B0, A0, B0, A1, B0, A2]
    );
    let t = team_table([1, 1], Side::B, TurnOrder::Alternate);
    assert_eq!(seats(&t, 4), vec![B0, A0, B0, A0]);
}

// docs/rules.md#turn `alternate` with teams whose sizes do not divide each other
// (2 against 3): each team goes round its players in turn, so no player
// throws twice in a row for her team while a teammate waits.
#[test]
fn alternate_two_against_three_rotates_each_team_fairly() {
    let t = team_table([2, 3], Side::A, TurnOrder::Alternate);
    assert_eq!(t.round_len(), 12);
    assert_eq!(
        seats(&t, 12),
        vec![A0, B0, A1, B1, A0, B2, A1, B0, A0, B1, A1, B2]
    );
    let t = team_table([3, 2], Side::B, TurnOrder::Alternate);
    assert_eq!(
        seats(&t, 12),
        vec![B0, A0, B1, A1, B0, A2, B1, A0, B0, A1, B1, A2]
    );
    // Over many turns every team's seats follow 0, 1, 2, ... cyclically.
    for players in [[2usize, 3], [3, 2], [2, 1], [3, 3], [1, 3]] {
        for first in Side::BOTH {
            let t = team_table(players, first, TurnOrder::Alternate);
            let mut next = [0u8; 2];
            for turn in 0..60 {
                let s = t.seat(turn);
                assert_eq!(
                    s.player,
                    next[s.side.index()],
                    "{players:?} {first:?} turn {turn}"
                );
                let n = u8::try_from(players[s.side.index()]).expect("small");
                next[s.side.index()] = (s.player + 1) % n;
            }
        }
    }
}

// docs/rules.md#turn through `play`: each player throws her turn with her own extra
// throws, then the sticks pass to the next seat of the order.
#[test]
fn play_follows_the_seat_order_and_extra_throws_keep_the_seat() {
    for (players, first, order, expected) in [
        (
            [2usize, 2],
            Side::A,
            TurnOrder::SideBlocks,
            vec![A0, A1, B0, B1, A0, A1, B0, B1],
        ),
        (
            [3, 1],
            Side::A,
            TurnOrder::SideBlocks,
            vec![A0, A1, A2, B0, A0, A1, A2, B0],
        ),
        (
            [2, 2],
            Side::A,
            TurnOrder::Alternate,
            vec![A0, B0, A1, B1, A0, B0, A1, B1],
        ),
        (
            [3, 1],
            Side::A,
            TurnOrder::Alternate,
            vec![A0, B0, A1, B0, A2, B0, A0, B0],
        ),
        (
            [2, 2],
            Side::B,
            TurnOrder::SideBlocks,
            vec![B0, B1, A0, A1, B0, B1, A0, A1],
        ),
        (
            [1, 3],
            Side::B,
            TurnOrder::Alternate,
            vec![B0, A0, B1, A0, B2, A0, B0, A0],
        ),
    ] {
        let t = team_table(players, first, order);
        let mut s = GameState::new(&t);
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(
                s.to_throw(&t),
                *want,
                "{players:?} {first:?} {order:?} throw {i}"
            );
            // A 10 first: the same seat throws again.
            let p = play_ok(&t, &s, TEN);
            assert_eq!(p.events.last(), Some(&Event::ThrowsAgain { seat: *want }));
            assert_eq!(p.state.to_throw(&t), *want);
            // Then a 2 passes the sticks.
            let p = play_ok(&t, &p.state, TWO);
            let next = expected
                .get(i + 1)
                .copied()
                .unwrap_or_else(|| t.seat(i + 1));
            assert_eq!(p.events.last(), Some(&Event::TurnPassed { seat: next }));
            s = p.state;
        }
    }
}

// docs/rules.md#options ludii detail: two teams of two, P1, P2, P3, P4 in side blocks,
// each team sharing one awl.
#[test]
fn ludii_teams_share_one_awl_per_side() {
    let t = Table::new(Preset::Ludii.options(), [2, 2], Side::A).expect("table");
    let s = GameState::new(&t);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(p.state.to_throw(&t), A1);
    let p = play_ok(&t, &p.state, THREE);
    assert_eq!(p.state.awls, [6, 1], "A1 moves the same awl as A0");
    assert_eq!(p.state.to_throw(&t), B0);
    // An exact arrival on own 40 completes the circuit (Ludii).
    let s = state(&t, Side::A, [38, 1], [10, 10]);
    let p = play_ok(&t, &s, TWO);
    assert_eq!(p.state.awls, [1, 1]);
    assert_eq!(p.state.counters, [11, 9]);
    assert_eq!(p.state.circuits, [1, 0]);
    assert_eq!(p.state.to_throw(&t), A1);
}

// ---------------------------------------------------------------------------
// Determinism (module docs: a game is its table and its throws)
// ---------------------------------------------------------------------------

#[test]
fn replay_equals_playing_throw_by_throw() {
    let t = composite();
    let throws = [
        TEN,
        SIX,
        TWO,
        THREE_AGAIN,
        ONE,
        TWO,
        TWO,
        THREE,
        SIX,
        ONE_AGAIN,
        TWO,
    ];
    let mut s = GameState::new(&t);
    for th in &throws {
        s = play_ok(&t, &s, *th).state;
    }
    assert_eq!(replay(&t, &throws), Ok(s));
    assert_eq!(replay(&t, &Vec::<Throw>::new()), Ok(GameState::new(&t)));
}

// ---------------------------------------------------------------------------
// Pinned exhaustive counts
// ---------------------------------------------------------------------------

// docs/rules.md#throw-sticks-sahe and 3.3 from the opening state of `composite`: over the 16
// stick configurations, A's first throw lands on own 1 + value:
//   value 1 (4 configs: 3 plain + the sahe alone) → own 2,
//   value 2 (C(4,2) = 6)                          → own 3,
//   value 3 (4 configs)                           → own 4,
//   value 6 (all flat, 1)                         → own 7,
//   value 10 (all round, 1)                       → own 11 (a dry branch, no effect).
// Nothing else can happen (no hazard lies within 10 of own 1; B rests on A's
// 40). A throws again in 6 of 16 (10, 6, sahe-1, three sahe-3s), B next in 10.
#[test]
fn pinned_opening_throw_landing_distribution() {
    let t = composite();
    let s = GameState::new(&t);
    let mut landing = [0u32; 41];
    let mut again = 0;
    for th in ThrowTable::SticksSahe.outcomes() {
        let p = play_ok(&t, &s, th);
        landing[usize::from(p.state.awl(Side::A))] += 1;
        assert_eq!(p.state.awl(Side::B), 1);
        assert_eq!(p.state.counters, [4, 4]);
        if p.state.to_throw(&t) == A0 {
            again += 1;
        }
    }
    let nonzero: Vec<(usize, u32)> = landing
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(i, n)| (i, *n))
        .collect();
    assert_eq!(nonzero, vec![(2, 4), (3, 6), (4, 4), (7, 1), (11, 1)]);
    assert_eq!(again, 6);
}

// docs/rules.md#passing-home-3.6 over every (A's start 1..=39, configuration) pair, 39 × 16
// = 624 throws, B resting on its own 1 (= A's 40, never landed on: landing
// there is a fall, and passing home lands on A's 1..9):
// - falls: for each value v the starts 20 − v and 40 − v (both in 1..=39)
//   fall in, so 2 starts per configuration: 2 × 16 = 32 falls,
//   16 into the north creek and 16 into the south creek;
// - circuits: from start s, v passes home when s + v > 40, i.e. for v − 1
//   starts: value 1 → 0 (× 4 configs), 2 → 1 (× 6), 3 → 2 (× 4), 6 → 5 (× 1),
//   10 → 9 (× 1): 0 + 6 + 8 + 5 + 9 = 28 circuits;
// - dry-branch landings (10, 11, 30, 31): for each configuration value v the
//   starts 10 − v, 11 − v, 30 − v, 31 − v that are ≥ 1 (10 − 10 = 0 is not),
//   plus circuits landing on 10 or 11 (none: they land on 1..9):
//   16 × 4 − 1 (value 10 from 0) = 63;
// - whips: none.
#[test]
fn pinned_every_start_every_configuration_hazard_counts() {
    let t = composite();
    let (mut north, mut south, mut circuits, mut dry, mut whips, mut plain) = (0, 0, 0, 0, 0, 0);
    for start in 1u8..=39 {
        for th in ThrowTable::SticksSahe.outcomes() {
            let s = state(&t, Side::A, [start, 1], [4, 4]);
            let p = play_ok(&t, &s, th);
            let mut hazard = false;
            for e in &p.events {
                match e {
                    Event::FellIntoCreek {
                        creek: Creek::North,
                        ..
                    } => {
                        north += 1;
                        hazard = true;
                    }
                    Event::FellIntoCreek {
                        creek: Creek::South,
                        ..
                    } => {
                        south += 1;
                        hazard = true;
                    }
                    Event::CompletedCircuit { .. } => {
                        circuits += 1;
                        hazard = true;
                    }
                    Event::LandedOnDryBranch { .. } => {
                        dry += 1;
                        hazard = true;
                    }
                    Event::Whipped { .. } => whips += 1,
                    _ => {}
                }
            }
            if !hazard {
                plain += 1;
            }
        }
    }
    assert_eq!((north, south), (16, 16));
    assert_eq!(circuits, 28);
    assert_eq!(dry, 63);
    assert_eq!(whips, 0);
    assert_eq!(plain, 624 - 32 - 28 - 63);
}

// The one list of options: a patch applies every override and refuses every
// count out of its bounds, naming each.
#[test]
fn options_patch_applies_overrides_and_names_every_bound_it_refuses() {
    use zohn_ahl::rules::{OptionKind, OptionsPatch, option_specs};
    let patch: OptionsPatch = serde_json::from_str(
        r#"{"throw_table": "sticks_count", "counters_per_side": 6, "circuits_to_win": null}"#,
    )
    .unwrap();
    let o = patch.apply(Preset::Boxed.options()).unwrap();
    assert_eq!(o.throw_table, ThrowTable::SticksCount);
    assert_eq!(o.counters_per_side, 6);
    assert_eq!(o.circuits_to_win, None, "null turns circuits_to_win off");

    let bad: OptionsPatch =
        serde_json::from_str(r#"{"counters_per_side": 16.0, "circuits_to_win": 0}"#).unwrap();
    let errors = bad.apply(Options::default()).unwrap_err();
    let names: Vec<_> = errors
        .iter()
        .map(|e| (e.option, e.min, e.max, e.got))
        .collect();
    assert_eq!(
        names,
        [
            ("counters_per_side", 1, 15, 16),
            ("circuits_to_win", 1, 10, 0)
        ]
    );
    assert!(serde_json::from_str::<OptionsPatch>(r#"{"counters": 3}"#).is_err());
    assert!(serde_json::from_str::<OptionsPatch>(r#"{"counters_per_side": 2.5}"#).is_err());

    // Every option is documented once, with its default and values.
    let specs = option_specs();
    assert_eq!(specs.len(), 10);
    for spec in specs {
        let mut p = OptionsPatch::default();
        match spec.kind {
            OptionKind::Choice {
                values, default, ..
            } => {
                assert!(values.contains(&default), "{}", spec.name);
                for v in values {
                    p.set(spec.name, v).unwrap();
                }
            }
            OptionKind::Count { min, max, .. } => {
                p.set(spec.name, &min.to_string()).unwrap();
                assert!(p.apply(Options::default()).is_ok());
                p.set(spec.name, &(i64::from(max) + 1).to_string()).unwrap();
                assert!(p.apply(Options::default()).is_err(), "{}", spec.name);
            }
        }
        assert!(!spec.description.is_empty());
    }
}

// Enum names come from one derive: strum's names equal serde's for every
// value of every option type.
#[test]
fn option_value_names_are_the_same_for_serde_and_strum() {
    fn same<T>()
    where
        T: strum::VariantArray + Copy + serde::Serialize + Into<&'static str>,
    {
        for v in T::VARIANTS {
            let serde_name = serde_json::to_value(v).unwrap();
            let strum_name: &'static str = (*v).into();
            assert_eq!(serde_name, strum_name);
        }
    }
    same::<Board>();
    same::<ThrowTable>();
    same::<DeadlyNorthBank>();
    same::<OwnLastSpace>();
    same::<Overshoot>();
    same::<DryBranch>();
    same::<TurnOrder>();
    same::<EndCheck>();
    same::<Preset>();
    same::<Side>();
    same::<Face>();
    same::<SpinnerSector>();
}

// The one list of options also gives a fact's condition: every option,
// counts included, may be named with one value or several, and an option
// left out takes any value.
#[test]
fn options_condition_names_any_option_with_one_value_or_several() {
    use zohn_ahl::rules::OptionsCondition;
    let any: OptionsCondition = serde_json::from_str("{}").unwrap();
    assert!(any.is_empty() && any.matches(&Preset::A4.options()));
    let cond: OptionsCondition = serde_json::from_str(
        r#"{"throw_table": ["sticks_sahe", "sticks_count"], "counters_per_side": [4], "circuits_to_win": [null]}"#,
    )
    .unwrap();
    assert!(cond.matches(&Preset::Composite.options()));
    assert!(!cond.matches(&Preset::A4.options()), "a4 throws a spinner");
    let mut six = Preset::Composite.options();
    six.counters_per_side = 6;
    assert!(!cond.matches(&six), "a count outside the listed values");
    assert!(serde_json::from_str::<OptionsCondition>(r#"{"sticks": ["x"]}"#).is_err());
}

// Every option's name and value, in the one list's order, as the command
// line writes them (the simulate summary prints these).
#[test]
fn named_values_list_every_option_in_the_api_order() {
    use zohn_ahl::rules::option_specs;
    let values = Preset::Boxed.options().named_values();
    let names: Vec<_> = values.iter().map(|(n, _)| *n).collect();
    let specs: Vec<_> = option_specs().iter().map(|s| s.name).collect();
    assert_eq!(names, specs);
    let text = |name: &str| values.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    assert_eq!(text("board"), "circle40");
    assert_eq!(text("counters_per_side"), "4");
    let composite = Preset::Composite.options().named_values();
    assert!(composite.contains(&("circuits_to_win", "none".to_owned())));
}

/// A game's setup is stored with its options; one stored before an option
/// existed lacks it and must still read, with that option at its default
/// (the rule the game was played by) and every other option as stored.
#[test]
fn a_stored_setup_without_a_newer_option_reads_it_as_its_default() {
    let stored = Options {
        dry_branch: DryBranch::CrossOver,
        counters_per_side: 6,
        end_check: EndCheck::AfterMove,
        ..Options::default()
    };
    let mut json = serde_json::to_value(stored).unwrap();
    let fields = json.as_object_mut().unwrap();
    assert!(fields.remove("end_check").is_some());
    let read: Options = serde_json::from_value(json).unwrap();
    assert_eq!(
        read,
        Options {
            end_check: EndCheck::Immediate,
            ..stored
        }
    );
}
