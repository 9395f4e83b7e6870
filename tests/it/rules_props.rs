//! Property tests of `zohn_ahl::rules`: random tables (every combination of
//! the option enums, counters 1..=15, circuits_to_win none or 1..=10, 1..=3
//! players per side, either first side) and random games of up to 400 throws
//! drawn from the table's own equally likely outcomes.
//!
//! Each property cites the rule it pins, as docs/rules.md does.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use proptest::sample::select;
use zohn_ahl::rules::{
    Board, DeadlyNorthBank, DryBranch, EndCheck, Event, GameState, Options, Outcome, Overshoot,
    OwnLastSpace, Played, RulesError, Side, Table, Throw, ThrowTable, TurnOrder, WinReason, play,
    replay, stop,
};

const CASES: u32 = 256;
const MAX_THROWS: usize = 400;

fn options_strategy(end_check: Option<EndCheck>) -> impl Strategy<Value = Options> {
    let shape = (
        select(vec![Board::Circle40, Board::Square28]),
        select(ThrowTable::ALL.to_vec()),
        select(vec![DeadlyNorthBank::Near, DeadlyNorthBank::Far]),
        select(vec![
            OwnLastSpace::FallsIn,
            OwnLastSpace::Ordinary,
            OwnLastSpace::CompletesCircuit,
        ]),
        select(vec![Overshoot::CarryOn, Overshoot::NoMove]),
    );
    let rest = (
        select(vec![
            DryBranch::NoEffect,
            DryBranch::LoseThrow,
            DryBranch::CrossOver,
        ]),
        1u8..=15,
        select(vec![TurnOrder::SideBlocks, TurnOrder::Alternate]),
        prop_oneof![Just(None), (1u8..=10).prop_map(Some)],
        match end_check {
            Some(e) => Just(e).boxed(),
            None => select(vec![EndCheck::Immediate, EndCheck::AfterMove]).boxed(),
        },
    );
    (shape, rest).prop_map(
        |(
            (board, throw_table, deadly_north_bank, own_last_space, overshoot),
            (dry_branch, counters_per_side, turn_order, circuits_to_win, end_check),
        )| Options {
            board,
            throw_table,
            deadly_north_bank,
            own_last_space,
            overshoot,
            dry_branch,
            counters_per_side,
            turn_order,
            circuits_to_win,
            end_check,
        },
    )
}

/// A random table and a random list of throws from its own outcomes.
fn game_strategy(end_check: Option<EndCheck>) -> impl Strategy<Value = (Table, Vec<Throw>)> {
    (
        options_strategy(end_check),
        1usize..=3,
        1usize..=3,
        select(vec![Side::A, Side::B]),
        prop::collection::vec(0usize..16, 0..=MAX_THROWS),
    )
        .prop_map(|(options, a, b, first, picks)| {
            let table = Table::new(options, [a, b], first).expect("bounded options are valid");
            let outcomes = options.throw_table.outcomes();
            let throws = picks.iter().map(|i| outcomes[i % outcomes.len()]).collect();
            (table, throws)
        })
}

/// One throw of a game: the state before it and what `play` made of it.
struct Step {
    before: GameState,
    throw: Throw,
    result: Result<Played, RulesError>,
}

/// Plays the throws in order until the list ends or one is refused (the
/// refused step is kept).
fn run(table: &Table, throws: &[Throw]) -> Vec<Step> {
    let mut steps = Vec::with_capacity(throws.len());
    let mut state = GameState::new(table);
    for throw in throws {
        let result = play(table, &state, throw);
        let next = result.as_ref().ok().map(|p| p.state.clone());
        steps.push(Step {
            before: state.clone(),
            throw: *throw,
            result,
        });
        match next {
            Some(s) => state = s,
            None => break,
        }
    }
    steps
}

fn played(steps: &[Step]) -> impl Iterator<Item = (&GameState, &Played)> {
    steps
        .iter()
        .filter_map(|s| s.result.as_ref().ok().map(|p| (&s.before, p)))
}

fn final_state(table: &Table, steps: &[Step]) -> GameState {
    played(steps)
        .last()
        .map_or_else(|| GameState::new(table), |(_, p)| p.state.clone())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    // docs/rules.md#counters / 3.10: counters only move from one side to the other
    // ("counters move one at a time"): their sum is always 2 × counters_per_side.
    #[test]
    fn counters_always_sum_to_twice_counters_per_side((table, throws) in game_strategy(None)) {
        let total = u16::from(table.options().total_counters());
        prop_assert_eq!(total, 2 * u16::from(table.options().counters_per_side));
        for (_, p) in played(&run(&table, &throws)) {
            let [a, b] = p.state.counters;
            prop_assert_eq!(u16::from(a) + u16::from(b), total);
            // Every CounterPaid event carries the running tally.
            for e in &p.events {
                if let Event::CounterPaid { counters: [a, b], .. } = e {
                    prop_assert_eq!(u16::from(*a) + u16::from(*b), total);
                }
            }
        }
    }

    // docs/rules.md#board / 5: an awl is always on its own numbering 1..=L.
    #[test]
    fn awls_always_rest_on_own_spaces_1_to_len((table, throws) in game_strategy(None)) {
        let l = table.options().board.len();
        for (_, p) in played(&run(&table, &throws)) {
            for side in Side::BOTH {
                prop_assert!((1..=l).contains(&p.state.awl(side)), "{:?}", p.state.awls);
            }
            for e in &p.events {
                if let Event::Moved { from, to, .. } = e {
                    prop_assert!((1..=l).contains(from) && (1..=l).contains(to));
                }
            }
        }
    }

    // docs/rules.md#end / 3.11: a finished game refuses any further throw and a stop.
    #[test]
    fn a_finished_game_refuses_further_throws((table, throws) in game_strategy(None)) {
        let steps = run(&table, &throws);
        for s in &steps {
            if s.before.is_finished() {
                prop_assert_eq!(&s.result, &Err(RulesError::GameOver));
            } else {
                prop_assert!(s.result.is_ok(), "a throw from the table's outcomes is playable");
            }
        }
        let last = final_state(&table, &steps);
        if last.is_finished() {
            for th in table.options().throw_table.outcomes() {
                prop_assert_eq!(play(&table, &last, &th), Err(RulesError::GameOver));
            }
            prop_assert_eq!(stop(&last).map(|_| ()), Err(RulesError::GameOver));
        }
    }

    // docs/rules.md#end: once finished, the outcome is a win (a draw comes only
    // from a stop, docs/rules.md#stop), the throw's last event is Won, nothing
    // follows it, and no extra throw is pending.
    #[test]
    fn once_finished_the_outcome_is_set_and_the_last_event_is_won((table, throws) in game_strategy(None)) {
        for (before, p) in played(&run(&table, &throws)) {
            prop_assert!(!before.is_finished());
            let wins: Vec<&Event> = p.events.iter().filter(|e| matches!(e, Event::Won { .. })).collect();
            if p.state.is_finished() {
                prop_assert_eq!(wins.len(), 1);
                let Some(Event::Won { side, reason }) = p.events.last() else {
                    return Err(TestCaseError::fail("last event is not Won"));
                };
                prop_assert_eq!(p.state.outcome, Some(Outcome::Won { side: *side }));
                prop_assert!(matches!(reason, WinReason::AllCounters | WinReason::Circuits));
                prop_assert!(!p.state.extra_throw);
            } else {
                prop_assert!(wins.is_empty());
                prop_assert_eq!(p.state.outcome, None);
            }
        }
    }

    // docs/rules.md#end (end_check immediate): the game is over exactly when a
    // side holds every counter, or (docs/rules.md#options circuits_to_win) a side has
    // completed the circuits that win; the winner is that side.
    #[test]
    fn immediate_end_check_finishes_exactly_when_a_side_holds_all_counters(
        (table, throws) in game_strategy(Some(EndCheck::Immediate))
    ) {
        let o = *table.options();
        for (_, p) in played(&run(&table, &throws)) {
            let s = &p.state;
            let all = Side::BOTH.into_iter().find(|side| s.counters(side.other()) == 0);
            let by_circuits = o.circuits_to_win.and_then(|n| {
                Side::BOTH.into_iter().find(|side| s.circuits[side.index()] >= u16::from(n))
            });
            prop_assert_eq!(s.is_finished(), all.is_some() || by_circuits.is_some());
            if let Some(Outcome::Won { side }) = s.outcome {
                match p.events.last() {
                    Some(Event::Won { reason: WinReason::AllCounters, .. }) => {
                        prop_assert_eq!(all, Some(side));
                    }
                    Some(Event::Won { reason: WinReason::Circuits, .. }) => {
                        prop_assert_eq!(by_circuits, Some(side));
                    }
                    other => return Err(TestCaseError::fail(format!("{other:?}"))),
                }
            }
        }
    }

    // docs/rules.md#options ludii detail (end_check after_move): the game ends only after
    // a whole move, for the mover, when the other side holds none (or on
    // circuits_to_win); a side may sit at 0 counters meanwhile.
    #[test]
    fn after_move_end_check_only_the_mover_wins_when_the_other_side_holds_none(
        (table, throws) in game_strategy(Some(EndCheck::AfterMove))
    ) {
        let o = *table.options();
        for (before, p) in played(&run(&table, &throws)) {
            let mover = before.to_throw(&table).side;
            let s = &p.state;
            match p.events.last() {
                Some(Event::Won { side, reason: WinReason::AllCounters }) => {
                    prop_assert_eq!(*side, mover);
                    prop_assert_eq!(s.counters(mover.other()), 0);
                }
                Some(Event::Won { side, reason: WinReason::Circuits }) => {
                    prop_assert_eq!(*side, mover);
                    let n = o.circuits_to_win.expect("a circuits win needs the option");
                    prop_assert_eq!(s.circuits[mover.index()], u16::from(n));
                }
                _ => {
                    prop_assert!(!s.is_finished());
                    prop_assert!(s.counters(mover.other()) > 0);
                }
            }
        }
    }

    // Module docs (rules/mod.rs): a game is fully described by its table and
    // its throws: `replay` equals the step-by-step state, and `play` is a
    // pure function of its inputs.
    #[test]
    fn replay_equals_the_step_by_step_state((table, throws) in game_strategy(None)) {
        let steps = run(&table, &throws);
        let n = steps.iter().filter(|s| s.result.is_ok()).count();
        let last = final_state(&table, &steps);
        prop_assert_eq!(replay(&table, &throws[..n]), Ok(last.clone()));
        if n < throws.len() {
            prop_assert_eq!(replay(&table, &throws), Err(RulesError::GameOver));
        }
        // A prefix replays to the state after that many throws.
        let half = n / 2;
        let mid = if half == 0 {
            GameState::new(&table)
        } else {
            steps[half - 1].result.as_ref().expect("played").state.clone()
        };
        prop_assert_eq!(replay(&table, &throws[..half]), Ok(mid));
        for s in steps.iter().take(20) {
            prop_assert_eq!(&play(&table, &s.before, &s.throw), &s.result);
        }
    }

    // docs/rules.md#turn: the seat to throw is always a real player of its side,
    // and the turn index stays inside the table's round.
    #[test]
    fn the_seat_to_throw_is_always_a_valid_player((table, throws) in game_strategy(None)) {
        let steps = run(&table, &throws);
        let mut states: Vec<&GameState> = steps.iter().map(|s| &s.before).collect();
        let last = final_state(&table, &steps);
        states.push(&last);
        for s in states {
            let seat = s.to_throw(&table);
            prop_assert!(seat.player < table.players(seat.side), "{seat:?}");
            prop_assert!(usize::from(s.turn) < table.round_len());
        }
    }

    // docs/rules.md#turn: side blocks play each side's players in order, one block
    // per side; alternate (A1, B1, A2, B2, ...) switches side every turn; in
    // both, each team goes round its players in order (the smaller team
    // starting over when it runs out), so no player throws twice for her
    // team while a teammate waits.
    #[test]
    fn each_team_goes_round_its_players_in_order((table, _throws) in game_strategy(None)) {
        let mut next = [0u8; 2];
        let round = table.round_len();
        prop_assert_eq!(table.seat(0).side, table.first());
        for turn in 0..3 * round {
            let seat = table.seat(turn);
            prop_assert_eq!(seat.player, next[seat.side.index()], "turn {}", turn);
            next[seat.side.index()] = (seat.player + 1) % table.players(seat.side);
            if table.options().turn_order == TurnOrder::Alternate {
                let side = if turn % 2 == 0 { table.first() } else { table.first().other() };
                prop_assert_eq!(seat.side, side);
            }
            prop_assert_eq!(table.seat(turn + round), seat);
        }
        // A round ends with every team back at its first player.
        prop_assert_eq!(next, [0, 0]);
    }

    // docs/rules.md#turn / 3.9: every throw that does not end the game ends with
    // exactly one of ThrowsAgain (the same seat, when the sticks say so and
    // no lose_throw took it) or TurnPassed (to the new seat to throw).
    #[test]
    fn each_throw_passes_the_sticks_or_throws_again_exactly_once((table, throws) in game_strategy(None)) {
        for (before, p) in played(&run(&table, &throws)) {
            let again = p.events.iter().filter(|e| matches!(e, Event::ThrowsAgain { .. })).count();
            let passed = p.events.iter().filter(|e| matches!(e, Event::TurnPassed { .. })).count();
            let thrower = before.to_throw(&table);
            if p.state.is_finished() {
                prop_assert_eq!((again, passed), (0, 0));
                continue;
            }
            prop_assert_eq!(again + passed, 1);
            let lost = p.events.iter().any(|e| matches!(e, Event::LostThrow { .. }));
            match p.events.last() {
                Some(Event::ThrowsAgain { seat }) => {
                    prop_assert!(p.score.throws_again && !lost);
                    prop_assert_eq!(*seat, thrower);
                    prop_assert_eq!(p.state.to_throw(&table), thrower);
                    prop_assert!(p.state.extra_throw);
                }
                Some(Event::TurnPassed { seat }) => {
                    prop_assert!(!p.score.throws_again || lost);
                    prop_assert_eq!(*seat, p.state.to_throw(&table));
                    prop_assert!(!p.state.extra_throw);
                }
                other => return Err(TestCaseError::fail(format!("ends with {other:?}"))),
            }
            prop_assert_eq!(p.state.throws, before.throws + 1);
        }
    }

    // docs/rules.md#passing-home: a circuit is only ever completed, never undone: circuits
    // never decrease, and grow by at most one per throw, for the mover only.
    #[test]
    fn circuits_never_decrease((table, throws) in game_strategy(None)) {
        for (before, p) in played(&run(&table, &throws)) {
            let mover = before.to_throw(&table).side;
            for side in Side::BOTH {
                let (was, now) = (before.circuits[side.index()], p.state.circuits[side.index()]);
                prop_assert!(now >= was);
                prop_assert!(now <= was + 1);
                if side != mover {
                    prop_assert_eq!(now, was);
                }
            }
        }
    }

    // docs/rules.md#move / 4 (no_move): each throw moves the mover's awl once or is
    // a forced pass; the other awl moves only by being whipped to its own 1;
    // the counter events replay the counters exactly.
    #[test]
    fn events_account_for_every_change_of_state((table, throws) in game_strategy(None)) {
        for (before, p) in played(&run(&table, &throws)) {
            let mover = before.to_throw(&table).side;
            let moves = p.events.iter().filter(|e| matches!(e, Event::Moved { .. } | Event::ForcedPass { .. })).count();
            prop_assert_eq!(moves, 1);
            for e in &p.events {
                match e {
                    Event::Moved { side, from, steps, .. } => {
                        prop_assert_eq!(*side, mover);
                        prop_assert_eq!(*from, before.awl(mover));
                        prop_assert_eq!(*steps, p.score.value);
                    }
                    Event::ForcedPass { side, value } => {
                        prop_assert_eq!(*side, mover);
                        prop_assert_eq!(*value, p.score.value);
                        prop_assert_eq!(table.options().overshoot, Overshoot::NoMove);
                        prop_assert_eq!(p.state.awls, before.awls);
                    }
                    _ => {}
                }
            }
            let victim = mover.other();
            let whipped = p.events.iter().any(|e| matches!(e, Event::Whipped { .. }));
            if whipped {
                prop_assert_eq!(p.state.awl(victim), 1);
            } else {
                prop_assert_eq!(p.state.awl(victim), before.awl(victim));
            }
            let mut counters = before.counters;
            for e in &p.events {
                if let Event::CounterPaid { payer, payee, counters: after, .. } = e {
                    prop_assert_eq!(*payee, payer.other());
                    counters[payer.index()] -= 1;
                    counters[payee.index()] += 1;
                    prop_assert_eq!(counters, *after);
                }
            }
            prop_assert_eq!(counters, p.state.counters);
        }
    }
}
