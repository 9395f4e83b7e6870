//! Board geometry of `zohn_ahl::rules`: both boards, both sides, every space.
//!
//! Sources: docs/rules.md#board (the 40-space circle, Culin 1898 p. 687 as coded by
//! Ludii; docs/rules.md#evidence checked `a + b = 41` over all 40 Ludii sites)
//! and docs/rules.md#board-square28 (the 28-cell square of the A4 sheet, our inference;
//! docs/rules.md#evidence).
#![allow(clippy::unwrap_used)]

use zohn_ahl::rules::{Bank, Board, Compass, Feature, Side};

const BOARDS: [Board; 2] = [Board::Circle40, Board::Square28];

/// The feature table of docs/rules.md#board (circle) and 5 (square), written out
/// literally for one side's own numbering, independent of the engine's
/// helpers. `first`/`second` are the compass points of the side's first and
/// second dry branch (A: east then west; B: west then east).
fn expected_feature(board: Board, side: Side, own: u8) -> Feature {
    let (first, second) = match side {
        Side::A => (Compass::East, Compass::West),
        Side::B => (Compass::West, Compass::East),
    };
    match (board, own) {
        (_, 1) => Feature::SouthCreek { bank: Bank::Far },
        (Board::Circle40, 10 | 11) | (Board::Square28, 7 | 8) => {
            Feature::DryBranch { compass: first }
        }
        (Board::Circle40, 20) | (Board::Square28, 14) => Feature::NorthCreek { bank: Bank::Near },
        (Board::Circle40, 21) | (Board::Square28, 15) => Feature::NorthCreek { bank: Bank::Far },
        (Board::Circle40, 30 | 31) | (Board::Square28, 21 | 22) => {
            Feature::DryBranch { compass: second }
        }
        (Board::Circle40, 40) | (Board::Square28, 28) => Feature::SouthCreek { bank: Bank::Near },
        _ => Feature::Ordinary,
    }
}

// docs/rules.md#board ("40 counting spaces") and 5 ("28 cells", 8·4 − 4).
#[test]
fn board_lengths_are_40_and_28() {
    assert_eq!(Board::Circle40.len(), 40);
    assert_eq!(Board::Square28.len(), 28);
    assert_eq!(Board::default(), Board::Circle40);
}

// docs/rules.md#board: "One physical space has A-number a and B-number b with a + b = 41";
// docs/rules.md#board-square28: "B's k = A's (29 − k)". So mirror(a) + a == L + 1 everywhere.
#[test]
fn mirror_plus_own_is_len_plus_one_on_every_space() {
    for board in BOARDS {
        let l = board.len();
        for a in 1..=l {
            let m = board.mirror(a);
            assert_eq!(
                u16::from(m) + u16::from(a),
                u16::from(l) + 1,
                "{board:?} {a}"
            );
            assert!((1..=l).contains(&m));
            assert_eq!(board.mirror(m), a, "mirror is an involution");
        }
    }
}

// docs/rules.md#board: "physical index p = 0..39 counted in A's direction from A's
// start; A-space = p + 1, B-space = 40 − p" (and L − p on the square, docs/rules.md#board-square28).
#[test]
fn physical_index_follows_a_p_plus_one_and_b_len_minus_p() {
    for board in BOARDS {
        let l = board.len();
        for p in 0..l {
            assert_eq!(board.own_space(Side::A, p), p + 1, "{board:?} A p={p}");
            assert_eq!(board.own_space(Side::B, p), l - p, "{board:?} B p={p}");
        }
        for own in 1..=l {
            assert_eq!(board.physical(Side::A, own), own - 1);
            assert_eq!(board.physical(Side::B, own), l - own);
        }
    }
}

// docs/rules.md#board: physical index and own space are two names of one space.
#[test]
fn physical_and_own_space_round_trip_for_both_sides() {
    for board in BOARDS {
        let l = board.len();
        for side in Side::BOTH {
            for own in 1..=l {
                let p = board.physical(side, own);
                assert!(p < l);
                assert_eq!(board.own_space(side, p), own, "{board:?} {side:?} {own}");
            }
            for p in 0..l {
                assert_eq!(board.physical(side, board.own_space(side, p)), p);
            }
        }
    }
}

// docs/rules.md#board: the other side's number of my space is the mirror.
#[test]
fn the_other_sides_number_of_a_space_is_its_mirror() {
    for board in BOARDS {
        for side in Side::BOTH {
            for own in 1..=board.len() {
                let p = board.physical(side, own);
                assert_eq!(board.own_space(side.other(), p), board.mirror(own));
            }
        }
    }
}

// docs/rules.md#board table: own 21 "far bank of the north creek (= the opponent's 20)".
#[test]
fn a_own_20_is_b_own_21_and_b_own_20_is_a_own_21() {
    let b = Board::Circle40;
    assert_eq!(b.physical(Side::A, 20), b.physical(Side::B, 21));
    assert_eq!(b.physical(Side::B, 20), b.physical(Side::A, 21));
    assert_eq!(b.mirror(20), 21);
    // docs/rules.md#board-square28: on the square the near bank is 14 and the far bank 15.
    let s = Board::Square28;
    assert_eq!(s.physical(Side::A, 14), s.physical(Side::B, 15));
    assert_eq!(s.physical(Side::B, 14), s.physical(Side::A, 15));
}

// docs/rules.md#board table: own 40 "= the opponent's start, own 1 of the other side";
// the two starts are different, adjacent spaces.
#[test]
fn each_sides_own_last_space_is_the_other_sides_own_1() {
    for board in BOARDS {
        let l = board.len();
        for side in Side::BOTH {
            assert_eq!(board.physical(side, l), board.physical(side.other(), 1));
        }
        let a_start = board.physical(Side::A, 1);
        let b_start = board.physical(Side::B, 1);
        assert_ne!(a_start, b_start, "starts are different spaces");
        // Adjacent on the closed circuit.
        assert_eq!(
            (b_start + 1) % l,
            a_start,
            "{board:?}: B's start is just behind A's"
        );
    }
}

// docs/rules.md#board: "Side::other" and "index" are the two-side bookkeeping.
#[test]
fn sides_other_and_index() {
    assert_eq!(Side::A.other(), Side::B);
    assert_eq!(Side::B.other(), Side::A);
    assert_eq!(Side::A.index(), 0);
    assert_eq!(Side::B.index(), 1);
    assert_eq!(Side::BOTH, [Side::A, Side::B]);
}

// docs/rules.md#board table (circle) and docs/rules.md#board-square28 (square): the feature of every own
// space, for both sides, matches the table exactly.
#[test]
fn feature_table_matches_rules_md_for_every_own_space() {
    for board in BOARDS {
        for side in Side::BOTH {
            for own in 1..=board.len() {
                assert_eq!(
                    board.feature(side, own),
                    expected_feature(board, side, own),
                    "{board:?} {side:?} own {own}"
                );
            }
        }
    }
}

/// Counts (north creek, south creek, dry branch, ordinary) over one side's spaces.
fn feature_counts(board: Board, side: Side) -> [usize; 4] {
    let mut n = [0; 4];
    for own in 1..=board.len() {
        let i = match board.feature(side, own) {
            Feature::NorthCreek { .. } => 0,
            Feature::SouthCreek { .. } => 1,
            Feature::DryBranch { .. } => 2,
            Feature::Ordinary => 3,
        };
        n[i] += 1;
    }
    n
}

// docs/rules.md#board: four features, each two spaces long (one space per stroke):
// 2 north-creek, 2 south-creek, 4 dry-branch spaces; the rest ordinary
// (32 on the circle; 20 on the square, docs/rules.md#board-square28).
#[test]
fn feature_counts_two_creek_banks_each_and_four_dry_branch_strokes() {
    for side in Side::BOTH {
        assert_eq!(feature_counts(Board::Circle40, side), [2, 2, 4, 32]);
        assert_eq!(feature_counts(Board::Square28, side), [2, 2, 4, 20]);
    }
}

// docs/rules.md#board: "first dry branch (A: east, B: west)"; the same physical stroke
// has the same compass point from both sides, and creek banks swap near/far.
#[test]
fn both_sides_agree_on_what_is_drawn_at_each_physical_space() {
    for board in BOARDS {
        for p in 0..board.len() {
            let fa = board.feature(Side::A, board.own_space(Side::A, p));
            let fb = board.feature(Side::B, board.own_space(Side::B, p));
            let swap = |bank| match bank {
                Bank::Near => Bank::Far,
                Bank::Far => Bank::Near,
            };
            let expected_b = match fa {
                Feature::Ordinary => Feature::Ordinary,
                Feature::DryBranch { compass } => Feature::DryBranch { compass },
                Feature::NorthCreek { bank } => Feature::NorthCreek { bank: swap(bank) },
                Feature::SouthCreek { bank } => Feature::SouthCreek { bank: swap(bank) },
            };
            assert_eq!(fb, expected_b, "{board:?} p={p}");
        }
    }
}

// docs/rules.md#board (10, 11 / 30, 31; 20 near bank) and docs/rules.md#board-square28 (7, 8 / 21, 22; 14).
#[test]
fn dry_branch_strokes_and_north_near_bank() {
    assert_eq!(Board::Circle40.first_dry_branch(), [10, 11]);
    assert_eq!(Board::Circle40.second_dry_branch(), [30, 31]);
    assert_eq!(Board::Circle40.north_near_bank(), 20);
    assert_eq!(Board::Square28.first_dry_branch(), [7, 8]);
    assert_eq!(Board::Square28.second_dry_branch(), [21, 22]);
    assert_eq!(Board::Square28.north_near_bank(), 14);
    for board in BOARDS {
        let dry: Vec<u8> = (1..=board.len())
            .filter(|&s| board.is_dry_branch(s))
            .collect();
        let expected: Vec<u8> = match board {
            Board::Circle40 => vec![10, 11, 30, 31],
            Board::Square28 => vec![7, 8, 21, 22],
        };
        assert_eq!(dry, expected, "{board:?}");
    }
}

// docs/rules.md#options `cross_over`: own 10 → own 31, own 11 → own 30; on square28
// 7 → 22, 8 → 21; nowhere else (a modern print-and-play option).
#[test]
fn cross_over_maps_first_dry_branch_to_facing_stroke_only() {
    for board in BOARDS {
        for own in 1..=board.len() {
            let expected = match (board, own) {
                (Board::Circle40, 10) => Some(31),
                (Board::Circle40, 11) => Some(30),
                (Board::Square28, 7) => Some(22),
                (Board::Square28, 8) => Some(21),
                _ => None,
            };
            assert_eq!(board.cross_over(own), expected, "{board:?} {own}");
        }
    }
}

// docs/rules.md#board-square28: "Corners at own 4, 11, 18, 25" on the square; the circle has none.
// The corner set is closed under the mirror (29 − k), so both sides agree.
#[test]
fn corners_only_on_square28_at_4_11_18_25() {
    let corners: Vec<u8> = (1..=28).filter(|&s| Board::Square28.is_corner(s)).collect();
    assert_eq!(corners, vec![4, 11, 18, 25]);
    for &c in &corners {
        assert!(Board::Square28.is_corner(Board::Square28.mirror(c)));
    }
    assert!((1..=40).all(|s| !Board::Circle40.is_corner(s)));
}

// docs/rules.md#board-square28: between features lie 5 ordinary cells on the square
// (docs/rules.md#evidence) and 8 on the circle (docs/rules.md#evidence),
// and the four corners of the square are all ordinary cells.
#[test]
fn gaps_between_features_are_8_on_circle_and_5_on_square() {
    for (board, gap) in [(Board::Circle40, 8), (Board::Square28, 5)] {
        let l = board.len();
        let mut run = 0;
        let mut runs = Vec::new();
        // Walk the circuit once from A's own 2 round to A's own 1.
        for k in 0..l {
            let own = (k + 1) % l + 1;
            if board.feature(Side::A, own) == Feature::Ordinary {
                run += 1;
            } else if run > 0 {
                runs.push(run);
                run = 0;
            }
        }
        if run > 0 {
            runs.push(run);
        }
        assert_eq!(runs, vec![gap; 4], "{board:?}");
    }
    for c in [4, 11, 18, 25] {
        assert_eq!(Board::Square28.feature(Side::A, c), Feature::Ordinary);
    }
}
