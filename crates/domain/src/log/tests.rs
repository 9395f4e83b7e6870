use super::*;

fn every_event() -> Vec<Event> {
    let seat = Seat {
        side: Side::B,
        player: 3,
    };
    vec![
        Event::Moved {
            side: Side::A,
            from: 1,
            to: 40,
            steps: 10,
        },
        Event::PassedNorthCreek { side: Side::B },
        Event::CompletedCircuit {
            side: Side::A,
            circuits: 300,
            exact: true,
        },
        Event::FellIntoCreek {
            side: Side::B,
            creek: Creek::South,
            space: 40,
        },
        Event::Whipped {
            side: Side::A,
            victim: Side::B,
            space: 17,
        },
        Event::CounterPaid {
            payer: Side::B,
            payee: Side::A,
            reason: CounterReason::CreekFall,
            counters: [13, 1],
        },
        Event::CounterUnpaid {
            payer: Side::A,
            payee: Side::B,
            reason: CounterReason::Whip,
        },
        Event::ForcedPass {
            side: Side::A,
            value: 6,
        },
        Event::LandedOnDryBranch {
            side: Side::B,
            space: 11,
        },
        Event::LostThrow {
            side: Side::A,
            space: 30,
            extra_throw_lost: true,
        },
        Event::CrossedDryBranch {
            side: Side::B,
            from: 11,
            to: 31,
        },
        Event::TurnSkipped { seat },
        Event::ThrowsAgain { seat },
        Event::TurnPassed { seat },
        Event::Won {
            side: Side::B,
            reason: WinReason::Stopped,
        },
        Event::Drawn,
    ]
}

fn logged(events: Vec<Event>, outcome: Option<Outcome>) -> LoggedMove {
    LoggedMove {
        seat: Seat {
            side: Side::B,
            player: 7,
        },
        origin: ThrowOrigin::Reported,
        throw: Throw::Spinner(SpinnerSector::ALL[6]),
        score: Score {
            value: 10,
            throws_again: true,
            probability: Odds::new(5, 1024),
        },
        from: 39,
        to: 4,
        events,
        state: GameState {
            awls: [40, 2],
            counters: [0, 14],
            circuits: [1, 999],
            turn: 70_000u32.try_into().unwrap_or(u16::MAX),
            extra_throw: true,
            forfeits: [false, true],
            throws: 1_000_000,
            outcome,
        },
        rules: vec![
            ("dry_branch_lose_throw".to_owned(), true),
            (String::new(), false),
        ],
        fact: Some("sticks_made_of_wood".to_owned()),
    }
}

#[test]
fn every_event_and_outcome_reads_back_as_written() {
    for outcome in [
        None,
        Some(Outcome::Won { side: Side::A }),
        Some(Outcome::Won { side: Side::B }),
        Some(Outcome::Draw),
    ] {
        let m = logged(every_event(), outcome);
        assert_eq!(LoggedMove::decode(&m.encode()), Ok(m));
    }
    let mut m = logged(Vec::new(), None);
    m.fact = None;
    m.rules.clear();
    m.throw = Throw::Sticks(Sticks::from_bits(0b1010));
    m.origin = ThrowOrigin::Server;
    assert_eq!(LoggedMove::decode(&m.encode()), Ok(m));
}

#[test]
fn cut_or_padded_bytes_are_refused_not_misread() {
    let bytes = logged(every_event(), None).encode();
    for end in 0..bytes.len() {
        assert!(LoggedMove::decode(&bytes[..end]).is_err(), "cut at {end}");
    }
    let mut padded = bytes.clone();
    padded.push(0);
    assert!(LoggedMove::decode(&padded).is_err());
    let mut other = bytes;
    other[0] = 2;
    assert!(LoggedMove::decode(&other).is_err());
}
