//! The chart in words: its `<title>`, its heading and its `<desc>` for
//! screen readers, with the chances in the audience's words
//! ([`narration::chance_words`]: "about 7 in 10" for the young, "67%" for
//! everyone, "0.6667" for scholars).

use std::fmt::Write as _;

use super::{ChanceChart, ChartResult};
use crate::narration::{self, Audience};
use crate::rules::Side;

/// `1 move`, `12 moves`.
fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_owned()
    } else {
        format!("{n} moves")
    }
}

/// The chart's title: what it shows and of whom.
pub(super) fn title(chart: &ChanceChart<'_>) -> String {
    format!(
        "Chances of winning over the game: {} and {}",
        chart.sides[0], chart.sides[1]
    )
}

/// The line written over the plot.
pub(super) fn heading(chart: &ChanceChart<'_>) -> String {
    let n = chart.moves.len();
    let state = match chart.result {
        ChartResult::Playing => "so far".to_owned(),
        ChartResult::Won(side) => format!("{} won", chart.sides[side.index()]),
        ChartResult::Stopped(Some(side)) => {
            format!("stopped: {} won on counters", chart.sides[side.index()])
        }
        ChartResult::Stopped(None) => "stopped: a draw".to_owned(),
    };
    format!("Chances of winning, move by move ({}, {state})", moves(n))
}

/// The chart in words: who was more likely to win at the start, the
/// turning point (its move, who threw what, the chance before and after),
/// how many rare throws, and the result.
pub(super) fn description(chart: &ChanceChart<'_>) -> String {
    let words = |p: f64| narration::chance_words(p, chart.audience);
    let young = chart.audience == Audience::Young;
    let [a, b] = chart.sides;
    let n = chart.moves.len();
    let up = if young {
        "from no chance at the bottom to certain at the top"
    } else {
        "from 0 to 100% up"
    };
    let mut out = format!(
        "A chart of each side's chance of winning, {a} (a solid line with diamonds) and {b} (a dashed line with squares), from the start to move {n}: the move number runs across, the chance {up}."
    );
    // The start.
    let start = chart.start;
    let leader = if start[0] > start[1] {
        Some(Side::A)
    } else if start[1] > start[0] {
        Some(Side::B)
    } else {
        None
    };
    match leader {
        Some(side) if words(start[0]) != words(start[1]) => {
            let i = side.index();
            let _ = write!(
                out,
                " At the start {} had the better chance: {} against {}.",
                chart.sides[i],
                words(start[i]),
                words(start[1 - i])
            );
        }
        Some(side) => {
            let i = side.index();
            let _ = write!(
                out,
                " At the start both sides had nearly the same chance ({} each), with {} just ahead.",
                words(start[i]),
                chart.sides[i]
            );
        }
        None => {
            let _ = write!(
                out,
                " At the start both sides had the same chance ({} each).",
                words(start[0])
            );
        }
    }
    // The turning point.
    if let Some(k) = chart.turning_point()
        && let Some(m) = chart.moves.get(k)
    {
        // From the thrower's side, as the recap tells it.
        let i = m.side.index();
        let mover = chart.sides[m.side.index()];
        let who = if m.player == mover {
            mover.to_owned()
        } else {
            format!("{} ({mover})", m.player)
        };
        let _ = write!(
            out,
            " The turning point, the move that changed the chances most, was move {}: {who} {} {}, and the chance of {} went from {} to {}.",
            k + 1,
            chart.threw(),
            m.value,
            chart.sides[i],
            words(m.chances.before[i]),
            words(m.chances.after[i])
        );
    }
    // The rare throws.
    let rare: Vec<String> = chart
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.is_rare())
        .map(|(k, _)| (k + 1).to_string())
        .collect();
    match rare.len() {
        // Nothing said of what did not happen.
        0 => {}
        1 => {
            let _ = write!(
                out,
                " One throw was rarer than 1 in 16: move {}.",
                rare.join("")
            );
        }
        k => {
            let _ = write!(
                out,
                " {k} throws were rarer than 1 in 16: moves {}.",
                rare.join(", ")
            );
        }
    }
    // The result.
    let last = chart.moves.last().map_or(start, |m| m.chances.after);
    match chart.result {
        ChartResult::Won(side) => {
            let _ = write!(
                out,
                " {} won{}.",
                chart.sides[side.index()],
                if n == 0 {
                    String::new()
                } else {
                    format!(" after {}", moves(n))
                }
            );
        }
        ChartResult::Stopped(Some(side)) => {
            let _ = write!(
                out,
                " The game was stopped after {}: {} won, holding more counters.",
                moves(n),
                chart.sides[side.index()]
            );
        }
        ChartResult::Stopped(None) => {
            let _ = write!(
                out,
                " The game was stopped after {} with equal counters: a draw.",
                moves(n)
            );
        }
        ChartResult::Playing if young => {
            let _ = write!(
                out,
                " The game goes on: now {a} {} and {b} {}.",
                words(last[0]),
                words(last[1])
            );
        }
        ChartResult::Playing => {
            let _ = write!(
                out,
                " The game is still being played: now {a} has {} and {b} {}.",
                words(last[0]),
                words(last[1])
            );
        }
    }
    out
}
