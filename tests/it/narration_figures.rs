//! Figures of the narration over whole seeded games, per preset, audience
//! and detail level, written to `docs/narration.md` (`UPDATE_DOCS=1 cargo
//! test --test it narration_figures::` writes it; otherwise the test fails when
//! the document is not current). The goals that hold are asserted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::cast_precision_loss)]

use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::Arc;

use zohn_ahl::narration::{Audience, Detail, SegmentKind, add_odds, catalogue, renarrate_move};
use zohn_ahl::rules::{Preset, Side, Table};
use zohn_ahl::service::ChanceTable;
use zohn_ahl::transcript::narrated_game;

/// Seeds per preset.
const SEEDS: usize = 50;

/// A text's sentences.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        current.push(c);
        if matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| *n == ' ') {
            out.push(current.trim().to_owned());
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_owned());
    }
    out
}

/// A sentence with its numbers set aside.
fn numberless(s: &str) -> String {
    s.chars().filter(|c| !c.is_ascii_digit()).collect()
}

/// The figures of one preset, audience and detail level.
#[derive(Default)]
struct Figures {
    moves: usize,
    words: usize,
    teaching: usize,
    teaching_repeated: usize,
    events: usize,
    events_repeated: usize,
    facts: usize,
    facts_retold: usize,
    rules_acting: usize,
    rules_stated_in_time: usize,
    odds: usize,
}

impl Figures {
    fn of(preset: Preset, audience: Audience, detail: Detail, chances: &ChanceTable) -> Self {
        let cat = catalogue();
        let players = usize::from(preset.default_players());
        let table = Table::new(preset.options(), [players; 2], Side::A).unwrap();
        let mut f = Self::default();
        for seed in 0..SEEDS {
            let game = narrated_game(&format!("figures-{seed}"), preset, audience).unwrap();
            let mut seen: HashSet<String> = HashSet::new();
            let mut told: HashSet<String> = HashSet::new();
            let mut stated: HashSet<String> = HashSet::new();
            let mut acted: HashSet<String> = HashSet::new();
            for m in &game.moves {
                f.moves += 1;
                let ctx = game.context_at(m, audience, detail);
                let mut narration = renarrate_move(&ctx, &m.narration);
                // The odds sentence, as the API adds it when the move is read.
                if let Ok(c) = chances.of_move(&table, m) {
                    f.odds += usize::from(add_odds(&mut narration, &ctx, &c));
                }
                for s in &narration.segments {
                    f.words += s.text.split_whitespace().count();
                    for sentence in sentences(&s.text) {
                        let repeated = !seen.insert(numberless(&sentence));
                        if matches!(s.kind, SegmentKind::Event | SegmentKind::Odds) {
                            f.events += 1;
                            f.events_repeated += usize::from(repeated);
                        } else {
                            f.teaching += 1;
                            f.teaching_repeated += usize::from(repeated);
                        }
                    }
                    if let Some(fact) = &s.fact {
                        f.facts += 1;
                        f.facts_retold += usize::from(!told.insert(fact.clone()));
                    }
                    if s.kind == SegmentKind::Rule {
                        stated.insert(s.rule.clone().unwrap());
                    }
                }
                // A rule acts on a move when one of its events cites it.
                for s in &narration.segments {
                    if let Some(rule) = s.rule.as_deref()
                        && s.kind == SegmentKind::Event
                        && cat.templates.rules.contains_key(rule)
                        && acted.insert(rule.to_owned())
                    {
                        f.rules_acting += 1;
                        f.rules_stated_in_time += usize::from(stated.contains(rule));
                    }
                }
            }
        }
        f
    }

    fn words_per_move(&self) -> f64 {
        self.words as f64 / self.moves as f64
    }

    fn percent(part: usize, whole: usize) -> f64 {
        if whole == 0 {
            0.0
        } else {
            100.0 * part as f64 / whole as f64
        }
    }
}

/// The goal of words per move, where there is one.
fn words_goal(audience: Audience, detail: Detail) -> Option<f64> {
    match (detail, audience) {
        (Detail::Lesson, Audience::Young) => Some(20.0),
        (Detail::Lesson, Audience::General) => Some(30.0),
        (Detail::Brief, _) => Some(25.0),
        _ => None,
    }
}

/// The minutes a whole game takes read aloud to a class (`zohn-ahl
/// transcript --audience young --read-aloud`), in full and at the
/// default `--minutes`, per preset, as a section of `docs/narration.md`.
fn read_aloud_figures() -> String {
    use zohn_ahl::transcript::{
        DEFAULT_SIDES, SHORT_LESSON_MINUTES, TranscriptRequest, transcript_of,
    };
    let mut doc = format!(
        "\n## Read aloud to a class\n\n\
         The same seeds' games read aloud to the young (`zohn-ahl transcript --audience young \
         --read-aloud`), the minutes each takes at a class's pace (110 words a minute, as the \
         teacher's note counts them: the closing questions included, the note not): told in \
         full, and at the default `--minutes {SHORT_LESSON_MINUTES}`, where a game that would \
         read more than a fifth longer tells its opening, its ending and the turn of its first \
         fall, first whip and first trip around in full, and the throws between in short \
         paragraphs. Minimum, median and maximum over the 50 games. The `ludii` preset, \
         kept to compare with Ludii's engine, is left out: its games run to a thousand throws \
         and more, a long test to tell.\n\n\
         | preset | in full | at --minutes {SHORT_LESSON_MINUTES} | games with throws told in short |\n\
         |---|---|---|---:|\n"
    );
    let rows: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = Preset::ALL
            .into_iter()
            .filter(|&preset| preset != Preset::Ludii)
            .map(|preset| {
                scope.spawn(move || {
                    let (mut whole, mut fitted, mut skipped) = (Vec::new(), Vec::new(), 0);
                    for seed in 0..SEEDS {
                        let text = transcript_of(&TranscriptRequest {
                            seed: format!("figures-{seed}"),
                            preset,
                            audience: Audience::Young,
                            detail: Detail::Lesson,
                            sides: DEFAULT_SIDES.map(str::to_owned),
                            read_aloud: true,
                            stop_after: None,
                            board: None,
                            counting_sticks: None,
                            minutes: Some(SHORT_LESSON_MINUTES),
                        })
                        .unwrap();
                        let number = |after: &str| -> Option<usize> {
                            let rest = text.split_once(after)?.1;
                            rest.split(|c: char| !c.is_ascii_digit())
                                .next()?
                                .parse()
                                .ok()
                        };
                        let minutes = number(" words, about ").unwrap();
                        fitted.push(minutes);
                        match number("add --minutes ") {
                            Some(every) => {
                                skipped += 1;
                                whole.push(every);
                            }
                            None => whole.push(minutes),
                        }
                    }
                    let spread = |v: &mut Vec<usize>| {
                        v.sort_unstable();
                        format!("{} / {} / {}", v[0], v[v.len() / 2], v[v.len() - 1])
                    };
                    let name: &'static str = preset.into();
                    format!(
                        "| {name} | {} | {} | {skipped} of {SEEDS} |\n",
                        spread(&mut whole),
                        spread(&mut fitted)
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    doc.extend(rows);
    doc
}

#[test]
fn the_narration_figures_are_current_and_meet_their_goals() {
    let mut doc = String::from(
        "# The narration in figures\n\n\
         Measured by `tests/it/narration_figures.rs` over whole seeded games (seeds `figures-0` to \
         `figures-49`, 50 per preset, the preset's default players), each move read at every \
         audience and detail level as the API renders it. `UPDATE_DOCS=1 cargo test --test it \
         narration_figures::` writes this page; the test fails when it is not current.\n\n\
         - **words/move**: the mean words a move's narration tells.\n\
         - **teaching repeated**: of the sentences that are not events (rules, context facts, \
         the framing), the share that repeat a sentence told earlier in the same game, numbers \
         set aside.\n\
         - **events repeated**: the same for the event sentences (who threw what, where the awl \
         went, and the odds sentences: what a move did to the chances). Their words come back \
         by design: a throw is told in a few fixed forms, the chances in two a kind of moment.\n\
         - **odds/game**: odds sentences told (at `lesson` and `full`: a move that changes who \
         is more likely to win, swings a side's chance by 10 points or more, or comes from a \
         throw rarer than 1 in 16; see `docs/odds.md`).\n\
         - **facts/game** and **facts retold/game**: context facts told, and told again.\n\
         - **rules in time**: of the rules that act in a game (an event cites them), the share \
         stated at or before their first action.\n\n\
         Goals (issue 25): at `lesson`, at most 20 words per move for `young` and 30 for \
         `general`, at most 10 % teaching sentences repeated, no fact retold, every rule in \
         time; at `brief`, at most 25 words per move. The test asserts the goals marked met; \
         a goal not met is marked **not met** here. Before the lesson plan (on f9f5215, every \
         move stating a rule and a fact every few moves), the same games told 75-94 words per \
         move to `young` and `general`, and 62-97 % of all their sentences repeated an earlier \
         one; a long `ludii` game told each of its facts about 18 times.\n\n\
         | preset | audience | detail | words/move | teaching repeated | events repeated | odds/game | facts/game | facts retold/game | rules in time |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    // Each preset's figures on its own thread (the games are independent).
    let figures: Vec<Vec<(Audience, Detail, Figures)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = Preset::ALL
            .map(|preset| {
                scope.spawn(move || {
                    // The preset's chain, solved once, as the server solves
                    // it at start.
                    let players = usize::from(preset.default_players());
                    let table = Table::new(preset.options(), [players; 2], Side::A).unwrap();
                    let chances =
                        ChanceTable::Solved(Arc::new(zohn_ahl::odds::solve(&table).unwrap()));
                    Audience::ALL
                        .into_iter()
                        .flat_map(|a| Detail::ALL.map(|d| (a, d)))
                        .map(|(a, d)| (a, d, Figures::of(preset, a, d, &chances)))
                        .collect()
                })
            })
            .into_iter()
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    for (preset, rows) in Preset::ALL.into_iter().zip(figures) {
        let preset_name: &'static str = preset.into();
        for (audience, detail, f) in rows {
            {
                let at = format!("{preset_name} {audience} {detail}");
                let wpm = f.words_per_move();
                let words = match words_goal(audience, detail) {
                    Some(goal) if wpm > goal => format!("{wpm:.1} (goal {goal}: **not met**)"),
                    _ => format!("{wpm:.1}"),
                };
                let teaching = Figures::percent(f.teaching_repeated, f.teaching);
                let teaching_cell = if detail == Detail::Lesson && teaching > 10.0 {
                    format!("{teaching:.0} % (**not met**)")
                } else {
                    format!("{teaching:.0} %")
                };
                let in_time = Figures::percent(f.rules_stated_in_time, f.rules_acting);
                let _ = writeln!(
                    doc,
                    "| {preset_name} | {audience} | {detail} | {words} | {teaching_cell} | {:.0} % | {:.1} | {:.1} | {:.1} | {} |",
                    Figures::percent(f.events_repeated, f.events),
                    f.odds as f64 / SEEDS as f64,
                    f.facts as f64 / SEEDS as f64,
                    f.facts_retold as f64 / SEEDS as f64,
                    if detail == Detail::Brief {
                        "(no rules)".to_owned()
                    } else {
                        format!("{in_time:.0} %")
                    },
                );
                if f.facts_retold > 0 {
                    failures.push(format!("{at}: {} facts retold", f.facts_retold));
                }
                if detail != Detail::Brief && f.rules_stated_in_time != f.rules_acting {
                    failures.push(format!("{at}: rules in time {in_time:.1} %"));
                }
                // Every words goal at `lesson` is met, the odds sentences
                // (issue 26) included.
                if detail == Detail::Lesson
                    && words_goal(audience, detail).is_some_and(|goal| wpm > goal)
                {
                    failures.push(format!("{at}: {wpm:.1} words per move"));
                }
                if detail == Detail::Brief && wpm > 25.0 {
                    failures.push(format!("{at}: {wpm:.1} words per move"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    doc.push_str(&read_aloud_figures());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/narration.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &doc).unwrap();
    }
    let current = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        current == doc,
        "docs/narration.md is not current: run UPDATE_DOCS=1 cargo test --test it narration_figures::"
    );
}

/// Regression: the A4 sheet's games told the young 26.0 words a move at
/// `lesson` (goal 20), where a `brief` move told them 16.6: the throw, the
/// move and each event were told in more words than they need. They are
/// told in fewer, plainer words now, every event still told.
#[test]
fn regression_a4_young_lesson_ran_past_twenty_words_a_move() {
    let preset = Preset::A4;
    let players = usize::from(preset.default_players());
    let table = Table::new(preset.options(), [players; 2], Side::A).unwrap();
    let chances = ChanceTable::Solved(Arc::new(zohn_ahl::odds::solve(&table).unwrap()));
    let f = Figures::of(preset, Audience::Young, Detail::Lesson, &chances);
    let wpm = f.words_per_move();
    assert!(wpm <= 20.0, "{wpm:.3} words a move");
}

/// Regression: a young game's first move at `lesson` ran to about 250
/// words, with three caveats (the spelling of Kiowa words, a modern best
/// guess, no review by Kiowa educators) before its first rule. Its framing
/// now says in a few short sentences what game it is, where its rules come
/// from, the note on spelling and the note on review (cited), and the
/// turn's rules follow at once. A teacher's trial then found the framing a
/// row of caveats that never named the game: it names it, says where its
/// rules come from and that no Kiowa teacher has checked them, and the
/// first move's fact says who played it in the 1800s; the game's length
/// goes to the teacher's note.
#[test]
fn regression_the_young_first_move_ran_to_250_words_before_its_first_rule() {
    for preset in Preset::ALL {
        let game = narrated_game("first-move", preset, Audience::Young).unwrap();
        let first = &game.moves[0].narration;
        let framing = &first.segments[0];
        assert_eq!(framing.kind, SegmentKind::Framing, "{preset:?}");
        let words = framing.text.split_whitespace().count();
        assert!(words <= 65, "{preset:?}: {words} words: {}", framing.text);
        assert!(framing.text.contains("Zohn Ahl"), "{preset:?}");
        assert!(
            framing.text.contains("1890s"),
            "{preset:?}: the spelling note"
        );
        assert!(
            framing
                .text
                .ends_with("No Kiowa teacher has checked this telling of the game."),
            "{preset:?}: {}",
            framing.text
        );
        assert!(!framing.citations.is_empty(), "{preset:?}");
        let who = &first.segments[1];
        assert_eq!(who.kind, SegmentKind::Context, "{preset:?}");
        assert!(who.text.contains("women and girls") && who.text.contains("1800s"));
        assert_eq!(first.segments[2].kind, SegmentKind::Rule, "{preset:?}");
        let total: usize = first
            .segments
            .iter()
            .map(|s| s.text.split_whitespace().count())
            .sum();
        // About a minute and a half read aloud: a second teacher found it
        // "does the job" at 204-210 words.
        assert!(total <= 220, "{preset:?}: {total} words on move 1");
    }
}
