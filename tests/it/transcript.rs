//! The committed example transcript is what `zohn-ahl transcript` prints,
//! so the narration users read is reviewed whenever it changes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use zohn_ahl::narration::Audience;
use zohn_ahl::rules::Preset;
use zohn_ahl::transcript::transcript;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/example-game.md");
/// The seed of `docs/example-game.md`: a short game with whips, creek
/// falls and circuits.
const SEED: &str = "lesson-4";

/// Run with `UPDATE_DOCS=1` to rewrite `docs/example-game.md` after an
/// intended narration change: that run rewrites the file and fails, so it
/// never passes unnoticed; review the diff and run again.
#[test]
fn the_example_game_transcript_is_current() {
    let text = transcript(SEED, Preset::Composite, Audience::General).unwrap();
    let committed = std::fs::read_to_string(EXAMPLE).unwrap_or_default();
    if std::env::var_os("UPDATE_DOCS").is_some() && committed != text {
        std::fs::write(EXAMPLE, &text).unwrap();
        panic!(
            "rewrote docs/example-game.md: review the diff, then run the tests again without UPDATE_DOCS"
        );
    }
    assert!(
        committed == text,
        "docs/example-game.md is stale: run `UPDATE_DOCS=1 cargo test --test it transcript::`"
    );
}

#[test]
fn a_transcript_plays_to_a_winner_and_lists_its_sources() {
    for preset in Preset::ALL {
        let text = transcript("any-seed", preset, Audience::General).unwrap();
        assert!(text.contains("## Move 1\n"), "{preset:?}");
        assert!(text.contains("## Sources cited"), "{preset:?}");
        assert!(!text.contains('{'), "placeholder left in {preset:?}");
        assert_eq!(
            text,
            transcript("any-seed", preset, Audience::General).unwrap(),
            "deterministic"
        );
    }
}

/// The whole narration of the lesson-4 game in each audience, and of the
/// A4 preset's game (spinner, square board), reviewed as snapshots: run
/// with `INSTA_UPDATE=always` after an intended narration change and
/// review the diff in `tests/it/snapshots/`.
#[test]
fn whole_games_read_as_reviewed_in_every_audience() {
    for audience in Audience::ALL {
        let text = transcript(SEED, Preset::Composite, audience).unwrap();
        insta::assert_snapshot!(format!("lesson_4_{}", audience.key()), text);
    }
    let text = transcript(SEED, Preset::A4, Audience::General).unwrap();
    insta::assert_snapshot!("lesson_4_a4_general", text);
}
