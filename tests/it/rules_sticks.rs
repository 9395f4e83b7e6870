//! The throw tables of `zohn_ahl::rules`: every stick configuration, every
//! spinner sector, exact probabilities.
//!
//! Sources: docs/rules.md#sticks (four split sticks, the sahe; p = 1/2 per face is a
//! modelling choice), 2.1 `sticks_sahe` (the Wikipedia composite and Mooney's
//! Tsoñä values; docs/rules.md#evidence), 2.2 `sticks_count` (Culin 1898 as
//! coded by Ludii; docs/rules.md#evidence), 2.3 `spinner` (the A4 sheet; seven
//! equal sectors is our assumption).
#![allow(clippy::unwrap_used)]

use zohn_ahl::rules::{Face, Odds, Score, SpinnerSector, Sticks, Throw, ThrowMismatch, ThrowTable};

const F: Face = Face::Flat;
const R: Face = Face::Round;

/// docs/rules.md#throw-sticks-sahe, written out by hand for all 16 configurations
/// (faces of the three red sticks, then the sahe): (faces, value, throws again).
const SAHE_TABLE: [([Face; 4], u8, bool); 16] = [
    // 0 flat up: 10, again.
    ([R, R, R, R], 10, true),
    // 1 flat up, not the sahe: 1, no.
    ([F, R, R, R], 1, false),
    ([R, F, R, R], 1, false),
    ([R, R, F, R], 1, false),
    // 1 flat up, the sahe: 1, again.
    ([R, R, R, F], 1, true),
    // 2 flat up, either: 2, no.
    ([F, F, R, R], 2, false),
    ([F, R, F, R], 2, false),
    ([R, F, F, R], 2, false),
    ([F, R, R, F], 2, false),
    ([R, F, R, F], 2, false),
    ([R, R, F, F], 2, false),
    // 3 flat up, sahe not among them: 3, no.
    ([F, F, F, R], 3, false),
    // 3 flat up, sahe among them: 3, again.
    ([F, F, R, F], 3, true),
    ([F, R, F, F], 3, true),
    ([R, F, F, F], 3, true),
    // 4 flat up: 6, again.
    ([F, F, F, F], 6, true),
];

/// docs/rules.md#throw-sticks-count, by hand: the count of flat faces, 4 = 5 and 0 = 10, both
/// again; the sahe plays no part.
const COUNT_TABLE: [([Face; 4], u8, bool); 16] = [
    ([R, R, R, R], 10, true),
    ([F, R, R, R], 1, false),
    ([R, F, R, R], 1, false),
    ([R, R, F, R], 1, false),
    ([R, R, R, F], 1, false),
    ([F, F, R, R], 2, false),
    ([F, R, F, R], 2, false),
    ([R, F, F, R], 2, false),
    ([F, R, R, F], 2, false),
    ([R, F, R, F], 2, false),
    ([R, R, F, F], 2, false),
    ([F, F, F, R], 3, false),
    ([F, F, R, F], 3, false),
    ([F, R, F, F], 3, false),
    ([R, F, F, F], 3, false),
    ([F, F, F, F], 5, true),
];

/// docs/rules.md#throw-spinner: the seven sectors (10+, 1, blue 1+, 2, 3, blue 3+, 6+).
const SPINNER_TABLE: [(SpinnerSector, u8, bool); 7] = [
    (SpinnerSector::Ten, 10, true),
    (SpinnerSector::One, 1, false),
    (SpinnerSector::BlueOne, 1, true),
    (SpinnerSector::Two, 2, false),
    (SpinnerSector::Three, 3, false),
    (SpinnerSector::BlueThree, 3, true),
    (SpinnerSector::Six, 6, true),
];

fn score(table: ThrowTable, throw: &Throw) -> Score {
    table.score(throw).expect("throw fits the table")
}

fn sticks(faces: [Face; 4]) -> Throw {
    Throw::Sticks(Sticks::new(faces))
}

/// Sum of `value × probability` over the table's distinct results, as an
/// exact fraction over 16 × 7 = 112 (a common multiple of every denominator).
fn expected_value_over_112(table: ThrowTable) -> u32 {
    table
        .results()
        .iter()
        .map(|s| {
            assert_eq!(112 % s.probability.denominator, 0);
            u32::from(s.value) * s.probability.numerator * (112 / s.probability.denominator)
        })
        .sum()
}

fn sum_probability_over_112(table: ThrowTable, filter: impl Fn(&Score) -> bool) -> u32 {
    table
        .results()
        .iter()
        .filter(|s| filter(s))
        .map(|s| s.probability.numerator * (112 / s.probability.denominator))
        .sum()
}

// docs/rules.md#throw-sticks-sahe: the written-out table covers each of the 16 configurations once.
#[test]
fn explicit_tables_cover_all_16_configurations_once() {
    for table in [&SAHE_TABLE, &COUNT_TABLE] {
        for s in Sticks::all() {
            assert_eq!(table.iter().filter(|row| row.0 == s.faces()).count(), 1);
        }
    }
}

// docs/rules.md#throw-sticks-sahe (`sticks_sahe`, composite; Mooney's values with the sahe's
// extra throws): every configuration scores the hand-written (value, again).
#[test]
fn sticks_sahe_scores_every_configuration_per_rules_2_1() {
    for (faces, value, again) in SAHE_TABLE {
        let s = score(ThrowTable::SticksSahe, &sticks(faces));
        assert_eq!((s.value, s.throws_again), (value, again), "{faces:?}");
    }
}

// docs/rules.md#throw-sticks-count (`sticks_count`, Culin 1898 via Ludii): every configuration.
#[test]
fn sticks_count_scores_every_configuration_per_rules_2_2() {
    for (faces, value, again) in COUNT_TABLE {
        let s = score(ThrowTable::SticksCount, &sticks(faces));
        assert_eq!((s.value, s.throws_again), (value, again), "{faces:?}");
    }
}

// docs/rules.md#throw-spinner: the spinner's seven sectors, with blue 1, blue 3, 6 and 10
// throwing again.
#[test]
fn spinner_scores_seven_sectors_per_rules_2_3() {
    assert_eq!(SpinnerSector::ALL.len(), 7);
    for (sector, value, again) in SPINNER_TABLE {
        let s = score(ThrowTable::Spinner, &Throw::Spinner(sector));
        assert_eq!((s.value, s.throws_again), (value, again), "{sector:?}");
        // docs/rules.md#throw-spinner: each sector 1/7 (our stated assumption).
        assert_eq!(s.probability, Odds::new(1, 7));
    }
    let listed: Vec<SpinnerSector> = SPINNER_TABLE.iter().map(|r| r.0).collect();
    assert_eq!(SpinnerSector::ALL.to_vec(), listed);
}

// docs/rules.md#throw-sticks-sahe probability column: P(1,no)=3/16, P(1,yes)=1/16, P(2)=6/16,
// P(3,no)=1/16, P(3,yes)=3/16, P(6)=1/16, P(10)=1/16.
#[test]
fn sticks_sahe_probabilities_are_exact() {
    let expected = [
        (1, false, Odds::new(3, 16)),
        (1, true, Odds::new(1, 16)),
        (2, false, Odds::new(6, 16)),
        (3, false, Odds::new(1, 16)),
        (3, true, Odds::new(3, 16)),
        (6, true, Odds::new(1, 16)),
        (10, true, Odds::new(1, 16)),
    ];
    let results = ThrowTable::SticksSahe.results();
    let got: Vec<(u8, bool, Odds)> = results
        .iter()
        .map(|s| (s.value, s.throws_again, s.probability))
        .collect();
    assert_eq!(got, expected.to_vec());
    // Reduced form: 6/16 is stored as 3/8.
    assert_eq!(
        Odds::new(6, 16),
        Odds {
            numerator: 3,
            denominator: 8
        }
    );
    // Each configuration's Score carries its row's probability.
    for (faces, value, again) in SAHE_TABLE {
        let s = score(ThrowTable::SticksSahe, &sticks(faces));
        let row = expected
            .iter()
            .find(|r| r.0 == value && r.1 == again)
            .expect("row");
        assert_eq!(s.probability, row.2, "{faces:?}");
    }
}

// docs/rules.md#throw-sticks-count / docs/rules.md#evidence: 1 = 4/16, 2 = 6/16, 3 = 4/16,
// 5 = 1/16, 10 = 1/16.
#[test]
fn sticks_count_probabilities_are_exact() {
    let got: Vec<(u8, bool, Odds)> = ThrowTable::SticksCount
        .results()
        .iter()
        .map(|s| (s.value, s.throws_again, s.probability))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, false, Odds::new(4, 16)),
            (2, false, Odds::new(6, 16)),
            (3, false, Odds::new(4, 16)),
            (5, true, Odds::new(1, 16)),
            (10, true, Odds::new(1, 16)),
        ]
    );
}

// docs/rules.md#throw-spinner: seven distinct results, 1/7 each, ordered by value then again.
#[test]
fn spinner_results_are_seven_sevenths() {
    let got: Vec<(u8, bool, Odds)> = ThrowTable::Spinner
        .results()
        .iter()
        .map(|s| (s.value, s.throws_again, s.probability))
        .collect();
    let seventh = Odds::new(1, 7);
    assert_eq!(
        got,
        vec![
            (1, false, seventh),
            (1, true, seventh),
            (2, false, seventh),
            (3, false, seventh),
            (3, true, seventh),
            (6, true, seventh),
            (10, true, seventh),
        ]
    );
}

// docs/rules.md#sticks: the probabilities of each table sum to exactly 1.
#[test]
fn every_tables_probabilities_sum_to_one() {
    for table in ThrowTable::ALL {
        assert_eq!(sum_probability_over_112(table, |_| true), 112, "{table:?}");
    }
}

// docs/rules.md#throw-sticks-sahe: E[value] = 2.75 = 44/16; docs/rules.md#evidence: sticks_count
// E[value] = 43/16; spinner (1+1+2+3+3+6+10)/7 = 26/7.
#[test]
fn expected_values_are_44_16_and_43_16_and_26_7() {
    assert_eq!(expected_value_over_112(ThrowTable::SticksSahe), 44 * 7);
    assert_eq!(expected_value_over_112(ThrowTable::SticksCount), 43 * 7);
    assert_eq!(expected_value_over_112(ThrowTable::Spinner), 26 * 16);
    // The same from the 16 elementary outcomes: the values sum to 44 and 43.
    let total = |t: ThrowTable| -> u32 {
        t.outcomes()
            .iter()
            .map(|th| u32::from(score(t, th).value))
            .sum()
    };
    assert_eq!(total(ThrowTable::SticksSahe), 44);
    assert_eq!(total(ThrowTable::SticksCount), 43);
}

// docs/rules.md#throw-sticks-sahe: P(throw again) = 3/8; docs/rules.md#evidence: 1/8 for
// sticks_count; spinner 4/7 (10+, blue 1+, blue 3+, 6+).
#[test]
fn throw_again_probabilities_are_3_8_and_1_8_and_4_7() {
    assert_eq!(
        sum_probability_over_112(ThrowTable::SticksSahe, |s| s.throws_again),
        42
    );
    assert_eq!(
        sum_probability_over_112(ThrowTable::SticksCount, |s| s.throws_again),
        14
    );
    assert_eq!(
        sum_probability_over_112(ThrowTable::Spinner, |s| s.throws_again),
        64
    );
    let again = |t: ThrowTable| {
        t.outcomes()
            .iter()
            .filter(|th| score(t, th).throws_again)
            .count()
    };
    assert_eq!(again(ThrowTable::SticksSahe), 6);
    assert_eq!(again(ThrowTable::SticksCount), 2);
    assert_eq!(again(ThrowTable::Spinner), 4);
}

// docs/rules.md#sticks / 2.4: a sticks table scores only sticks, the spinner only a
// sector; a mismatch is refused, naming the table and what was thrown.
#[test]
fn mismatched_throws_are_refused() {
    for table in [ThrowTable::SticksSahe, ThrowTable::SticksCount] {
        for sector in SpinnerSector::ALL {
            assert_eq!(
                table.score(&Throw::Spinner(sector)),
                Err(ThrowMismatch {
                    table,
                    got: "spinner"
                })
            );
        }
    }
    for s in Sticks::all() {
        assert_eq!(
            ThrowTable::Spinner.score(&Throw::Sticks(s)),
            Err(ThrowMismatch {
                table: ThrowTable::Spinner,
                got: "sticks"
            })
        );
    }
}

// docs/rules.md#sticks: four sticks, the sahe is index 3; `from_bits` bit i = stick i
// flat; 16 equally likely configurations.
#[test]
fn sticks_bits_faces_flat_count_and_sahe() {
    assert_eq!(Sticks::SAHE, 3);
    assert_eq!(Sticks::from_bits(0).faces(), [R, R, R, R]);
    assert_eq!(Sticks::from_bits(0b0001).faces(), [F, R, R, R]);
    assert_eq!(Sticks::from_bits(0b1000).faces(), [R, R, R, F]);
    assert_eq!(Sticks::from_bits(0b1111).faces(), [F, F, F, F]);
    // Only the low four bits are read.
    assert_eq!(Sticks::from_bits(0b1111_0000), Sticks::from_bits(0));
    let all: Vec<Sticks> = Sticks::all().collect();
    assert_eq!(all.len(), 16);
    for (bits, s) in (0u8..16).zip(&all) {
        assert_eq!(*s, Sticks::from_bits(bits));
        assert_eq!(u32::from(s.flat_count()), u32::from(bits).count_ones());
        assert_eq!(s.sahe_flat(), bits & 0b1000 != 0);
    }
    // Configurations with k flat faces: C(4, k).
    let by_count: Vec<usize> = (0..=4)
        .map(|k| all.iter().filter(|s| s.flat_count() == k).count())
        .collect();
    assert_eq!(by_count, vec![1, 4, 6, 4, 1]);
}

// docs/rules.md#sticks: the elementary outcomes are the 16 configurations or the 7 sectors.
#[test]
fn outcomes_are_16_configurations_or_7_sectors() {
    assert_eq!(ThrowTable::SticksSahe.outcomes().len(), 16);
    assert_eq!(ThrowTable::SticksCount.outcomes().len(), 16);
    assert_eq!(
        ThrowTable::Spinner.outcomes(),
        SpinnerSector::ALL.map(Throw::Spinner).to_vec()
    );
    assert!(ThrowTable::SticksSahe.uses_sticks());
    assert!(ThrowTable::SticksCount.uses_sticks());
    assert!(!ThrowTable::Spinner.uses_sticks());
    // docs/rules.md#options: `sticks_sahe` is the default table.
    assert_eq!(ThrowTable::default(), ThrowTable::SticksSahe);
}

// docs/rules.md#throw-sticks-sahe: "Given n sticks flat-up, the chance that the sahe is one of
// them is n/4" (docs/rules.md#evidence): a 3 throws again 3 times in 4.
#[test]
fn a_three_throws_again_three_times_in_four_under_sticks_sahe() {
    let threes: Vec<bool> = ThrowTable::SticksSahe
        .outcomes()
        .iter()
        .map(|t| score(ThrowTable::SticksSahe, t))
        .filter(|s| s.value == 3)
        .map(|s| s.throws_again)
        .collect();
    assert_eq!(threes.len(), 4);
    assert_eq!(threes.iter().filter(|a| **a).count(), 3);
}

// Odds are kept in lowest terms.
#[test]
fn odds_reduce_to_lowest_terms() {
    assert_eq!(
        Odds::new(4, 16),
        Odds {
            numerator: 1,
            denominator: 4
        }
    );
    assert_eq!(
        Odds::new(0, 16),
        Odds {
            numerator: 0,
            denominator: 1
        }
    );
    assert_eq!(
        Odds::new(7, 7),
        Odds {
            numerator: 1,
            denominator: 1
        }
    );
    assert!((Odds::new(3, 8).as_f64() - 0.375).abs() < 1e-12);
}
