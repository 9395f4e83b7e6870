//! "Are our sticks fair?": Pearson's chi-square goodness-of-fit test of the
//! throws a class reported against the exact probabilities of the throw
//! table in play.
//!
//! The cells are the table's distinct results (value and throws-again), and
//! their probabilities are data of the rules ([`ThrowTable::results`]); this
//! module only counts and compares. The test is only trusted when every
//! expected count is at least [`MIN_EXPECTED`] (Cochran's rule): cells below
//! it are pooled, the two smallest together first, until every pooled cell
//! reaches it. When fewer than two pooled cells are left there is nothing to
//! test: the result says so and names the number of throws from which the
//! test can be made ([`Fairness::min_throws`]).

use statrs::distribution::{ChiSquared, ContinuousCDF};

use crate::narration::Audience;
use crate::rules::{Odds, Score, ThrowTable};

/// The smallest expected count a cell of the test may have: the usual
/// condition for the chi-square approximation (W. G. Cochran, Biometrics 10,
/// 1954, recommends it; the served texts name no source for it).
pub const MIN_EXPECTED: f64 = 5.0;

/// Below this p-value the counts are called unlike fair sticks.
pub const SIGNIFICANCE: f64 = 0.05;

/// One result of the throw table: how often it was thrown, how often fair
/// sticks would give it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Spaces moved.
    pub value: u8,
    /// Whether it throws again.
    pub throws_again: bool,
    /// Its exact probability under the table.
    pub probability: Odds,
    /// Reported throws with this result.
    pub observed: u32,
    /// `throws × probability`.
    pub expected: f64,
}

/// Cells pooled for the test.
#[derive(Clone, Debug, PartialEq)]
pub struct Pooled {
    /// Indices into [`Fairness::cells`], in table order.
    pub cells: Vec<usize>,
    /// Their observed counts together.
    pub observed: u32,
    /// Their expected counts together.
    pub expected: f64,
}

/// The chi-square statistic with its degrees of freedom and p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquareTest {
    /// Pearson's statistic, the sum of `(observed - expected)² / expected`.
    pub statistic: f64,
    /// Pooled cells minus one.
    pub degrees_of_freedom: u32,
    /// Probability that fair sticks give a statistic at least this large.
    pub p_value: f64,
}

/// The test for one throw table.
#[derive(Clone, Debug, PartialEq)]
pub struct Fairness {
    /// The table the throws were scored by.
    pub table: ThrowTable,
    /// Reported throws counted.
    pub throws: u32,
    /// Every result of the table, in the table's order.
    pub cells: Vec<Cell>,
    /// The cells as pooled for the test.
    pub pooled: Vec<Pooled>,
    /// The test, when at least two pooled cells reach [`MIN_EXPECTED`].
    pub test: Option<ChiSquareTest>,
    /// The fewest throws for which the test can be made with this table.
    pub min_throws: u32,
}

/// Pearson's statistic of `observed` against `expected` counts.
#[must_use]
pub fn chi_square_statistic(observed: &[u32], expected: &[f64]) -> f64 {
    observed
        .iter()
        .zip(expected)
        .filter(|(_, e)| **e > 0.0)
        .map(|(o, e)| {
            let d = f64::from(*o) - e;
            d * d / e
        })
        .sum()
}

/// The probability that a chi-square variable with `df` degrees of freedom
/// is at least `statistic` (the upper tail); `df` 0 is taken as 1.
#[must_use]
pub fn p_value(statistic: f64, df: u32) -> f64 {
    let Ok(dist) = ChiSquared::new(f64::from(df.max(1))) else {
        return f64::NAN;
    };
    dist.sf(statistic).clamp(0.0, 1.0)
}

/// Pool cells whose expected count is under [`MIN_EXPECTED`]: while any
/// group is under it and more than one group is left, the group with the
/// smallest expected count joins the next smallest (ties broken by table
/// order).
fn pool(expected: &[f64], observed: &[u32]) -> Vec<Pooled> {
    let mut groups: Vec<Pooled> = expected
        .iter()
        .zip(observed)
        .enumerate()
        .filter(|(_, (e, _))| **e > 0.0)
        .map(|(i, (e, o))| Pooled {
            cells: vec![i],
            observed: *o,
            expected: *e,
        })
        .collect();
    loop {
        if groups.len() < 2 {
            break;
        }
        let mut order: Vec<usize> = (0..groups.len()).collect();
        order.sort_by(|&x, &y| {
            groups[x]
                .expected
                .total_cmp(&groups[y].expected)
                .then(groups[x].cells[0].cmp(&groups[y].cells[0]))
        });
        let (smallest, next) = (order[0], order[1]);
        if groups[smallest].expected >= MIN_EXPECTED {
            break;
        }
        let taken = groups.remove(smallest.max(next));
        let kept = &mut groups[smallest.min(next)];
        kept.cells.extend(taken.cells);
        kept.cells.sort_unstable();
        kept.observed += taken.observed;
        kept.expected += taken.expected;
    }
    groups.sort_by_key(|g| g.cells[0]);
    groups
}

fn testable(groups: &[Pooled]) -> bool {
    groups.len() >= 2 && groups.iter().all(|g| g.expected >= MIN_EXPECTED)
}

/// The fewest throws for which pooling leaves at least two cells that
/// reach [`MIN_EXPECTED`] under `results`.
fn min_throws(results: &[Score]) -> u32 {
    let probabilities: Vec<f64> = results.iter().map(|s| s.probability.as_f64()).collect();
    let zeros = vec![0; probabilities.len()];
    (1..=10_000u32)
        .find(|&n| {
            let expected: Vec<f64> = probabilities.iter().map(|p| p * f64::from(n)).collect();
            testable(&pool(&expected, &zeros))
        })
        .unwrap_or(u32::MAX)
}

/// Test the reported throws `scores` (each scored by `table`) against the
/// table's exact probabilities. A score that is not one of the table's
/// results is not counted.
#[must_use]
pub fn test(table: ThrowTable, scores: &[Score]) -> Fairness {
    let results = table.results();
    let mut observed = vec![0u32; results.len()];
    for score in scores {
        if let Some(i) = results
            .iter()
            .position(|r| r.value == score.value && r.throws_again == score.throws_again)
        {
            observed[i] += 1;
        }
    }
    let throws: u32 = observed.iter().sum();
    let expected: Vec<f64> = results
        .iter()
        .map(|r| r.probability.as_f64() * f64::from(throws))
        .collect();
    let pooled = pool(&expected, &observed);
    let test = testable(&pooled).then(|| {
        let o: Vec<u32> = pooled.iter().map(|g| g.observed).collect();
        let e: Vec<f64> = pooled.iter().map(|g| g.expected).collect();
        let statistic = chi_square_statistic(&o, &e);
        let degrees_of_freedom = u32::try_from(pooled.len() - 1).unwrap_or(u32::MAX);
        ChiSquareTest {
            statistic,
            degrees_of_freedom,
            p_value: p_value(statistic, degrees_of_freedom),
        }
    });
    Fairness {
        table,
        throws,
        cells: results
            .iter()
            .zip(observed.iter().zip(&expected))
            .map(|(r, (o, e))| Cell {
                value: r.value,
                throws_again: r.throws_again,
                probability: r.probability,
                observed: *o,
                expected: *e,
            })
            .collect(),
        pooled,
        test,
        min_throws: min_throws(&results),
    }
}

/// Three significant figures, without a trailing exponent for ordinary
/// p-values.
fn figure(x: f64) -> String {
    if x >= 0.001 {
        format!("{x:.3}")
    } else {
        "less than 0.001".to_owned()
    }
}

impl Fairness {
    /// Whether the test was made and found the counts unlike fair sticks.
    #[must_use]
    pub fn unlike_fair(&self) -> bool {
        self.test.is_some_and(|t| t.p_value < SIGNIFICANCE)
    }

    /// What the result means, in one or two sentences for `audience`, in
    /// the words of the table's own equipment: sticks are thrown and are
    /// fair or not; a spinner is spun and is fair or not.
    #[must_use]
    pub fn explanation(&self, audience: Audience) -> String {
        let sticks = self.table.uses_sticks();
        let (thing, are, throw, throws, fair) = if sticks {
            ("sticks", "are", "throw", "throws", "fair sticks")
        } else {
            ("spinner", "is", "spin", "spins", "a fair spinner")
        };
        let n = self.throws;
        let need = self.min_throws;
        let counted = |n: u32| {
            if n == 1 {
                format!("1 {throw}")
            } else {
                format!("{n} {throws}")
            }
        };
        let reported = |n: u32| {
            if n == 1 {
                format!("1 reported {throw} is")
            } else {
                format!("{n} reported {throws} are")
            }
        };
        match (audience, self.test) {
            (Audience::Young, None) => format!(
                "We need more {throws} to tell if the {thing} {are} fair. We have {n}, and we need at least {need}."
            ),
            (Audience::Young, Some(_)) if self.unlike_fair() => format!(
                "In {n} {throws}, some results came up a lot more or a lot less often than {fair} would give. That can happen by luck, but not often."
            ),
            (Audience::Young, Some(_)) => format!(
                "In {n} {throws}, any differences from what {fair} would give are no bigger than luck often makes. So far there is no sign that our {thing} {are} unfair."
            ),
            (Audience::General, None) => format!(
                "{} too few to test: the comparison with {fair} is only reliable from {need} {throws} on.",
                reported(n)
            ),
            (Audience::General, Some(t)) => {
                let these = if sticks { "these" } else { "this" };
                let look = if sticks {
                    "do not look"
                } else {
                    "does not look"
                };
                let verdict = if self.unlike_fair() {
                    format!("so {these} {thing} {look} fair")
                } else {
                    format!("so there is no sign that {these} {thing} {are} unfair")
                };
                format!(
                    "In {n} reported {throws}, counts at least this far from those expected of {fair} would turn up by chance with probability {}, {verdict}.",
                    figure(t.p_value)
                )
            }
            (Audience::Scholar, None) => format!(
                "Pearson's chi-square test needs every expected count to be at least 5 (the usual condition for its approximation); with {}, pooling the rarest results leaves fewer than two cells, so no test is made before {need} {throws}.",
                counted(n)
            ),
            (Audience::Scholar, Some(t)) => format!(
                "Pearson's chi-square goodness-of-fit test of {n} reported {throws} against the table's exact probabilities, results with expected counts under 5 pooled (the usual condition for the approximation): X² = {:.3}, {} degrees of freedom, p = {}; fair {throws} are {} at the 5% level.",
                t.statistic,
                t.degrees_of_freedom,
                figure(t.p_value),
                if self.unlike_fair() {
                    "rejected"
                } else {
                    "not rejected"
                }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::rules::{Sticks, Throw};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Check values: the upper-tail critical values of the chi-square
    // distribution at the 5% and 1% levels, as tabulated in the
    // NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4,
    // "Critical Values of the Chi-Square Distribution"
    // (https://www.itl.nist.gov/div898/handbook/eda/section3/eda3674.htm).
    #[test]
    fn p_values_match_the_nist_table_of_critical_values() {
        for (df, at_5, at_1) in [
            (1, 3.841, 6.635),
            (2, 5.991, 9.210),
            (4, 9.488, 13.277),
            (6, 12.592, 16.812),
        ] {
            let p5 = p_value(at_5, df);
            let p1 = p_value(at_1, df);
            assert!(close(p5, 0.05, 2e-4), "df {df}: p({at_5}) = {p5}");
            assert!(close(p1, 0.01, 1e-4), "df {df}: p({at_1}) = {p1}");
        }
    }

    // With two degrees of freedom the upper tail is exactly exp(-x/2)
    // (the chi-square with 2 df is the exponential with mean 2).
    #[test]
    fn p_value_with_two_degrees_of_freedom_is_exp_of_minus_half_the_statistic() {
        for x in [0.5, 2.0, 10.0, 25.0] {
            assert!(close(p_value(x, 2), (-x / 2.0).exp(), 1e-12), "x = {x}");
        }
    }

    // A hand computation: 10, 20, 30 against 20 each gives
    // (100 + 0 + 100) / 20 = 10.
    #[test]
    fn statistic_of_a_hand_computed_example() {
        assert!(close(
            chi_square_statistic(&[10, 20, 30], &[20.0, 20.0, 20.0]),
            10.0,
            1e-12
        ));
    }

    fn score_of(table: ThrowTable, flats: u8, sahe_flat: bool) -> Score {
        let faces = Sticks::all()
            .find(|s| s.flat_count() == flats && s.sahe_flat() == sahe_flat)
            .unwrap();
        table.score(&Throw::Sticks(faces)).unwrap()
    }

    #[test]
    fn throws_exactly_in_proportion_give_a_statistic_of_zero_and_p_of_one() {
        let table = ThrowTable::SticksSahe;
        // 16 × 4 = 64 throws, each of the 16 configurations 4 times.
        let scores: Vec<Score> = Sticks::all()
            .flat_map(|s| std::iter::repeat_n(table.score(&Throw::Sticks(s)).unwrap(), 4))
            .collect();
        let f = test(table, &scores);
        assert_eq!(f.throws, 64);
        let t = f.test.unwrap();
        assert!(close(t.statistic, 0.0, 1e-12));
        assert!(close(t.p_value, 1.0, 1e-12));
        assert!(!f.unlike_fair());
    }

    #[test]
    fn regression_the_young_verdict_said_our_sticks_look_fair_beside_a_table_that_differed() {
        // 24 throws whose pooled cells cancel out: the test finds nothing,
        // but single results are far from their expected counts. A child
        // reading the table beside the verdict must not be told the counts
        // match, nor that a test of 24 throws shows the sticks are fair.
        let table = ThrowTable::SticksSahe;
        let mut scores = vec![score_of(table, 2, false); 9];
        scores.extend(vec![score_of(table, 1, false); 6]);
        scores.extend(vec![score_of(table, 3, true); 6]);
        scores.extend(vec![score_of(table, 0, false); 3]);
        let f = test(table, &scores);
        assert!(f.test.is_some() && !f.unlike_fair(), "{:?}", f.test);
        let young = f.explanation(Audience::Young);
        assert!(!young.contains("look fair"), "{young}");
        assert!(!young.contains("about as often"), "{young}");
        assert!(
            young.contains("no sign that our sticks are unfair"),
            "{young}"
        );
    }

    #[test]
    fn cells_under_five_expected_are_pooled_until_each_reaches_five() {
        // 32 composite throws: expected 2, 2, 6, 12, 2, 6, 2 (value order).
        let table = ThrowTable::SticksSahe;
        let scores = vec![score_of(table, 2, false); 32];
        let f = test(table, &scores);
        assert!(f.pooled.iter().all(|g| g.expected >= MIN_EXPECTED));
        let cells: usize = f.pooled.iter().map(|g| g.cells.len()).sum();
        assert_eq!(cells, f.cells.len(), "every cell in exactly one group");
        let t = f.test.unwrap();
        assert_eq!(t.degrees_of_freedom as usize, f.pooled.len() - 1);
        assert!(f.unlike_fair(), "every throw a 2 is not fair: {t:?}");
    }

    #[test]
    fn too_few_throws_give_no_test_and_say_how_many_are_needed() {
        let table = ThrowTable::SticksSahe;
        let f = test(table, &[score_of(table, 2, false); 5]);
        assert!(f.test.is_none());
        // The 2 (6/16) alone against the rest (10/16) needs 6n/16 >= 5.
        assert_eq!(f.min_throws, 14);
        assert!(f.explanation(Audience::Young).contains("14"));
        let f = test(table, &[score_of(table, 2, false); 14]);
        assert!(f.test.is_some());
    }

    #[test]
    fn regression_the_fairness_result_said_1_reported_throws() {
        let table = ThrowTable::SticksSahe;
        let f = test(table, &[score_of(table, 2, false)]);
        let general = f.explanation(Audience::General);
        assert!(
            general.starts_with("1 reported throw is too few"),
            "{general}"
        );
        let scholar = f.explanation(Audience::Scholar);
        assert!(scholar.contains("with 1 throw,"), "{scholar}");
        for audience in [Audience::Young, Audience::General, Audience::Scholar] {
            let text = f.explanation(audience);
            assert!(!text.contains("1 reported throws"), "{text}");
            // Every work a served text names is in the bibliography: this
            // text names none.
            assert!(!text.contains("Cochran"), "{text}");
        }
    }

    #[test]
    fn regression_the_spinner_was_called_plural_and_thrown() {
        let table = ThrowTable::Spinner;
        let few = test(table, &[table.score(&table.outcomes()[0]).unwrap(); 3]);
        let scores: Vec<Score> = table
            .outcomes()
            .iter()
            .flat_map(|t| std::iter::repeat_n(table.score(t).unwrap(), 5))
            .collect();
        let tested = test(table, &scores);
        for f in [&few, &tested] {
            for audience in [Audience::Young, Audience::General, Audience::Scholar] {
                let text = f.explanation(audience);
                for wrong in ["spinner are", "throw", "sticks"] {
                    assert!(!text.contains(wrong), "{wrong:?} in {text}");
                }
            }
        }
        assert!(
            few.explanation(Audience::Young)
                .contains("the spinner is fair")
        );
        assert!(
            tested
                .explanation(Audience::General)
                .contains("this spinner is unfair")
        );
    }

    #[test]
    fn each_table_names_the_throws_its_test_needs() {
        // Worked by hand from the pooling rule: the count table's 6/16 cell
        // against the rest (6n/16 >= 5); the spinner's seven sevenths pooled
        // 3 + 4 (3n/7 >= 5).
        assert_eq!(test(ThrowTable::SticksCount, &[]).min_throws, 14);
        assert_eq!(test(ThrowTable::Spinner, &[]).min_throws, 12);
    }

    #[test]
    fn the_spinner_counts_its_seven_sectors() {
        let table = ThrowTable::Spinner;
        let scores: Vec<Score> = table
            .outcomes()
            .iter()
            .flat_map(|t| std::iter::repeat_n(table.score(t).unwrap(), 5))
            .collect();
        let f = test(table, &scores);
        assert_eq!(f.cells.len(), 7);
        assert_eq!(f.test.unwrap().degrees_of_freedom, 6);
    }
}

/// One test of a fairness report: the games whose rulesets share a throw
/// table, the test of their reported throws, and how many of their throws
/// the server made (left out of the test).
#[derive(Clone, Debug, PartialEq)]
pub struct TableTest {
    /// The games, in the order asked for.
    pub games: Vec<crate::domain::GameId>,
    /// The test of their reported throws.
    pub fairness: Fairness,
    /// Their throws the server made.
    pub server_throws: u32,
}

impl crate::Service {
    /// "Are our sticks fair?" for games `ids`: each game's moves read, and
    /// their reported throws tested, one test per throw table, in the
    /// order the tables first appear (games whose rulesets share a table
    /// are counted together).
    ///
    /// # Errors
    /// [`crate::ServiceError::GameNotFound`]; storage errors.
    pub async fn fairness(
        &self,
        ids: &[crate::domain::GameId],
    ) -> Result<Vec<TableTest>, crate::ServiceError> {
        use crate::domain::ThrowOrigin;
        let mut groups: Vec<(ThrowTable, Vec<crate::domain::GameId>, Vec<Score>, u32)> = Vec::new();
        for &id in ids {
            let (game, moves) = self.moves(id, 0, u32::MAX).await?;
            let table = game.setup.options.throw_table;
            let i = match groups.iter().position(|g| g.0 == table) {
                Some(i) => i,
                None => {
                    groups.push((table, Vec::new(), Vec::new(), 0));
                    groups.len() - 1
                }
            };
            let (_, games, scores, server) = &mut groups[i];
            games.push(game.id);
            for record in moves {
                match record.origin {
                    ThrowOrigin::Reported => scores.push(record.score),
                    ThrowOrigin::Server => *server += 1,
                }
            }
        }
        Ok(groups
            .into_iter()
            .map(|(table, games, scores, server_throws)| TableTest {
                games,
                fairness: test(table, &scores),
                server_throws,
            })
            .collect())
    }
}
