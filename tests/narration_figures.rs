//! Figures of the narration over whole seeded games (docs/narration.md).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, HashSet};

use zohn_ahl::narration::{Audience, Detail, SegmentKind, catalogue};
use zohn_ahl::rules::Preset;
use zohn_ahl::transcript::narrated_game;

const SEEDS: usize = 50;

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        cur.push(c);
        if matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| *n == ' ') {
            let s = cur.trim().to_owned();
            if !s.is_empty() {
                out.push(s);
            }
            cur.clear();
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

fn numberless(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

#[test]
fn figures() {
    let cat = catalogue();
    for preset in Preset::ALL {
        for audience in Audience::ALL {
            for detail in Detail::ALL {
                let (mut words, mut moves, mut sent, mut rep, mut facts, mut retold) =
                    (0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
                let (mut acting, mut before) = (0usize, 0usize);
                for seed in 0..SEEDS {
                    let game = narrated_game(&format!("figures-{seed}"), preset, audience).unwrap();
                    let mut seen: HashSet<String> = HashSet::new();
                    let mut told: HashSet<String> = HashSet::new();
                    let mut stated: HashSet<String> = HashSet::new();
                    let mut acted: HashSet<String> = HashSet::new();
                    for m in &game.moves {
                        moves += 1;
                        let narration = zohn_ahl::narration::renarrate_move(
                            &m.context(&game.options, &game.cast, audience, detail),
                            &m.narration,
                        );
                        for s in &narration.segments {
                            words += s.text.split_whitespace().count();
                            if s.kind != SegmentKind::Event {
                                for x in sentences(&s.text) {
                                    sent += 1;
                                    if !seen.insert(numberless(&x)) {
                                        rep += 1;
                                    }
                                }
                            }
                            if let Some(f) = &s.fact {
                                facts += 1;
                                if !told.insert(f.clone()) {
                                    retold += 1;
                                }
                            }
                            if s.kind == SegmentKind::Rule {
                                stated.insert(s.rule.clone().unwrap());
                            }
                        }
                        for s in &narration.segments {
                            if s.kind == SegmentKind::Event
                                && let Some(r) = &s.rule
                                && cat.templates.rules.contains_key(r.as_str())
                                && acted.insert(r.clone())
                            {
                                acting += 1;
                                if stated.contains(r) {
                                    before += 1;
                                } else if detail == Detail::Lesson {
                                    println!("late {preset:?} {seed} move {} {r}", m.n);
                                }
                            }
                        }
                    }
                }
                println!(
                    "{preset:?} {audience:?} {detail:?}: words/move {:.1}, repeated {:.0}%, facts/game {:.1}, retold/game {:.1}, rules before first action {:.0}%",
                    words as f64 / moves as f64,
                    100.0 * rep as f64 / sent as f64,
                    facts as f64 / SEEDS as f64,
                    retold as f64 / SEEDS as f64,
                    100.0 * before as f64 / acting as f64,
                );
            }
        }
    }
    let _ = BTreeMap::<u8, u8>::new();
}

#[test]
fn show() {
    let game = narrated_game("lesson-4", Preset::Composite, Audience::Young).unwrap();
    for m in game.moves.iter().take(40) {
        for s in &m.narration.segments {
            println!("   [{:?} {:?}] {}", s.kind, s.rule, s.text);
        }
    }
}

#[test]
fn breakdown() {
    for preset in [Preset::Composite, Preset::A4] {
        for audience in [Audience::Young, Audience::General] {
            let mut by: BTreeMap<String, (usize, usize)> = BTreeMap::new();
            let mut moves = 0;
            for seed in 0..SEEDS {
                let game = narrated_game(&format!("figures-{seed}"), preset, audience).unwrap();
                for m in &game.moves {
                    moves += 1;
                    for s in &m.narration.segments {
                        let k = match s.kind {
                            SegmentKind::Event => {
                                format!("event {}", s.rule.clone().unwrap_or_default())
                            }
                            k => format!("{k:?}"),
                        };
                        let e = by.entry(k).or_default();
                        e.0 += s.text.split_whitespace().count();
                        e.1 += 1;
                    }
                }
            }
            println!("{preset:?} {audience:?}: {} moves/game", moves / SEEDS);
            for (k, (w, c)) in by {
                println!(
                    "   {k}: {:.1} words/move, {c} segs, {:.1} w/seg",
                    w as f64 / moves as f64,
                    w as f64 / c as f64
                );
            }
        }
    }
}
