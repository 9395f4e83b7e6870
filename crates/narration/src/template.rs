//! Filling templates: `{name}` placeholders replaced in one pass, the
//! board's words every text may use, and the phrasing chosen for a move.

use super::catalogue::{BoardWords, Catalogue};
use super::vocabulary::Audience;
use crate::rules::{Board, Options, ThrowTable};

/// Replace each `{name}` by its value in one pass: values are never read as
/// templates, so a name containing braces is printed as it is. An unknown
/// name is left as written.
#[cfg(test)]
fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    fill_with(template, |name| {
        vars.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
    })
}

/// First-strong isolate and pop directional isolate (Unicode's bidi
/// algorithm, UAX #9): the characters that set a run of text apart.
const FSI: char = '\u{2068}';
const PDI: char = '\u{2069}';

/// Push a filled-in value, isolated (between [`FSI`] and [`PDI`]) when it
/// has a right-to-left letter and no isolate of its own: a Hebrew or
/// Arabic name then keeps the words and numbers around it in their order
/// wherever the text is shown (a teacher's trial: "7 throws in a row for
/// <a Hebrew name>" was shown with the 7 on the name's other side). Every
/// other value is pushed as it is.
fn push_isolated(out: &mut String, value: &str) {
    let right_to_left = value.chars().any(|c| {
        matches!(
            unicode_bidi::bidi_class(c),
            unicode_bidi::BidiClass::R | unicode_bidi::BidiClass::AL
        )
    });
    if right_to_left && !value.contains(FSI) {
        out.push(FSI);
        out.push_str(value);
        out.push(PDI);
    } else {
        out.push_str(value);
    }
}

/// `value` as it reads after `before`: a name given with a leading "The"
/// ("The Otters") keeps its capital only where a sentence begins (a
/// teacher's trial: "Again, The Herons!" and "The awl of The Otters").
fn mid_sentence<'v>(before: &str, value: &'v str) -> std::borrow::Cow<'v, str> {
    let starts = before
        .trim_end()
        .chars()
        .last()
        .is_none_or(|c| matches!(c, '.' | '!' | '?' | '\n'));
    if starts {
        value.into()
    } else {
        name_mid_sentence(value)
    }
}

/// A name as it reads in the middle of a sentence: a leading "The" ("The
/// Otters") lowercase, any other name as it is.
#[must_use]
pub fn name_mid_sentence(name: &str) -> std::borrow::Cow<'_, str> {
    match name.strip_prefix("The ") {
        Some(rest) => format!("the {rest}").into(),
        None => name.into(),
    }
}

/// Both sides' counting sticks, A first ("Side A 3, Side B 5"), as a
/// counter paid and a stopped game say them; the second name is always
/// mid-sentence.
pub(super) fn score_words(sides: [&str; 2], counters: [u8; 2], audience: Audience) -> String {
    format!(
        "{} {}, {} {}",
        sides[0],
        count_word(counters[0], audience),
        name_mid_sentence(sides[1]),
        count_word(counters[1], audience)
    )
}

/// [`fill`] with the values from `lookup`.
pub(super) fn fill_with<'v>(template: &str, lookup: impl Fn(&str) -> Option<&'v str>) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match lookup(name) {
                    Some(v) => {
                        let v = mid_sentence(&out, v);
                        push_isolated(&mut out, &v);
                    }
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A stable number from a key, so that different keys start their
/// rotations at different places.
fn salt(key: &str) -> usize {
    key.bytes().map(usize::from).sum()
}

/// The phrasing for move `n`: the list rotates by one each move, so the
/// same key never reads the same on two consecutive moves (every list has
/// at least two entries); `occurrence` separates two uses of one key within
/// a move.
pub(super) fn choose<'p>(list: &'p [String], n: u32, key: &str, occurrence: usize) -> &'p str {
    if list.is_empty() {
        return "";
    }
    let n = usize::try_from(n).unwrap_or_default();
    list.get((n + salt(key) + occurrence) % list.len())
        .map_or("", String::as_str)
}

/// A count in words where it reads better: 0 is "none" ("zero" for the
/// young, "0" for scholars).
pub(super) fn count_word(n: u8, audience: Audience) -> String {
    match (n, audience) {
        (0, Audience::Scholar) => "0".to_owned(),
        // Read aloud to a class, "Counting sticks: Side A zero" (a teacher's trial:
        // "Side A none" reads oddly).
        (0, Audience::Young) => "zero".to_owned(),
        (0, _) => "none".to_owned(),
        (n, _) => n.to_string(),
    }
}

/// "1 space", "3 spaces".
pub(super) fn spaces(n: u8) -> String {
    if n == 1 {
        "1 space".to_owned()
    } else {
        format!("{n} spaces")
    }
}

/// The board's words and numbers, which every template and rule statement
/// may use: `{creek}`, `{creek_x}`, `{dry_branch}`, `{dry_branch_x}`,
/// `{dry_branches}`,
/// `{track}`, `{counting_stick}`, `{counting_sticks}`, `{Counting_sticks}` and
/// `{counting_stick_short}` (a counter as the board's account names it), `{north}` (own space of the near north bank), `{north_far}`,
/// `{north_deadly}` (own space of the bank the ruleset makes deadly),
/// `{north_deadly_other}` (the other side's number for that space),
/// `{last}` (own last space), `{sum}` (`a + b` for one physical space),
/// `{implement}` (`sticks` or `spinner`), `{throw}`, `{throws}` and
/// `{thrown}` (`spin`, `spins`, `spun` under the spinner).
pub(super) struct BoardVars {
    board: Board,
    vars: Vec<(&'static str, String)>,
}

impl BoardVars {
    pub(super) fn new(cat: &Catalogue, options: &Options, audience: Audience) -> Self {
        let words: &BoardWords = cat.templates.words.board(options.board).get(audience);
        let board = options.board;
        let north = board.north_near_bank();
        let deadly = options.deadly_north_space();
        let implement = if options.throw_table == ThrowTable::Spinner {
            "spinner"
        } else {
            "sticks"
        };
        Self {
            board,
            vars: vec![
                ("creek", words.creek.clone()),
                ("creek_x", words.creek_x.clone()),
                ("dry_branch", words.dry_branch.clone()),
                ("dry_branch_x", words.dry_branch_x.clone()),
                ("dry_branches", words.dry_branches.clone()),
                ("track", words.track.clone()),
                ("counting_stick", words.counter.clone()),
                ("counting_sticks", words.counters.clone()),
                ("Counting_sticks", capitalized(&words.counters)),
                ("counting_stick_short", words.counter_short.clone()),
                ("north", north.to_string()),
                ("north_far", (north + 1).to_string()),
                ("north_deadly", deadly.to_string()),
                ("north_deadly_other", (board.len() + 1 - deadly).to_string()),
                ("last", board.len().to_string()),
                ("sum", (board.len() + 1).to_string()),
                ("counters_per_side", options.counters_per_side.to_string()),
                // "1 counting stick", "4 counting sticks".
                ("counters_s", plural_s(options.counters_per_side).to_owned()),
                ("implement", implement.to_owned()),
                // What a player does with the implement: throw the sticks,
                // spin the spinner.
                (
                    "throw",
                    if implement == "spinner" {
                        "spin"
                    } else {
                        "throw"
                    }
                    .to_owned(),
                ),
                (
                    "throws",
                    if implement == "spinner" {
                        "spins"
                    } else {
                        "throws"
                    }
                    .to_owned(),
                ),
                (
                    "thrown",
                    if implement == "spinner" {
                        "spun"
                    } else {
                        "thrown"
                    }
                    .to_owned(),
                ),
            ],
        }
    }

    /// The board whose words these are.
    pub(super) fn board(&self) -> Board {
        self.board
    }

    /// Whether the game is played with the spinner, whose chances are an
    /// assumption of this service (the sheet gives no sector sizes).
    pub(super) fn spinner(&self) -> bool {
        self.vars
            .iter()
            .any(|(k, v)| *k == "implement" && v == "spinner")
    }

    /// Fill `template` from `vars` first, then from the board's words.
    pub(super) fn fill(&self, template: &str, vars: &[(&str, &str)]) -> String {
        fill_with(template, |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| *v)
                .or_else(|| {
                    self.vars
                        .iter()
                        .find(|(k, _)| *k == name)
                        .map(|(_, v)| v.as_str())
                })
        })
    }
}

/// The plural ending of a noun counted `n`: "" for one, else "s".
/// `word` with its first letter upper case.
fn capitalized(word: &str) -> String {
    let mut letters = word.chars();
    letters
        .next()
        .map(|c| c.to_uppercase().chain(letters).collect())
        .unwrap_or_default()
}

pub(crate) fn plural_s(n: u8) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::{Audience, choose, fill};

    /// A teacher's trial read "Again, The Herons!" and "The awl of The
    /// Otters": a team's "The" keeps its capital only where a sentence
    /// begins.
    #[test]
    fn regression_a_name_with_the_kept_its_capital_mid_sentence() {
        let vars = [("side", "The Herons")];
        assert_eq!(fill("Again, {side}!", &vars), "Again, the Herons!");
        assert_eq!(fill("The awl of {side}.", &vars), "The awl of the Herons.");
        assert_eq!(fill("{side}: a 2.", &vars), "The Herons: a 2.");
        assert_eq!(
            fill("A whip! {side} again.", &vars),
            "A whip! The Herons again."
        );
        assert_eq!(fill("Again, {side}!", &[("side", "Theo")]), "Again, Theo!");
        // A curator's trial: "Counters now: the Otters 6, The Herons 2."
        let score = super::score_words(["The Otters", "The Herons"], [6, 2], Audience::General);
        assert_eq!(score, "The Otters 6, the Herons 2");
        assert_eq!(
            fill("Score: {score}.", &[("score", &score)]),
            "Score: the Otters 6, the Herons 2."
        );
    }

    #[test]
    fn fill_substitutes_once_and_keeps_braces_in_values() {
        let out = fill("{a} meets {b} at {c}", &[("a", "{b}"), ("b", "Ann")]);
        assert_eq!(out, "{b} meets Ann at {c}");
    }

    /// The API's narration did not isolate right-to-left names (a teacher's
    /// trial: only the lesson page did, with `<bdi>`; chatbots and other
    /// clients got a sentence whose numbers a Hebrew name reordered).
    #[test]
    fn regression_right_to_left_names_were_not_isolated_in_the_text() {
        let template = "{side} threw 7 times, then {other}";
        assert_eq!(
            fill(template, &[("side", "שועלים"), ("other", "Hawks")]),
            "\u{2068}שועלים\u{2069} threw 7 times, then Hawks"
        );
        assert_eq!(
            fill(template, &[("side", "الصقور"), ("other", "Ann")]),
            "\u{2068}الصقور\u{2069} threw 7 times, then Ann"
        );
        // A value filled in already isolated is not isolated again.
        let once = fill("{side}", &[("side", "שועלים")]);
        assert_eq!(fill("{what}!", &[("what", &once)]), format!("{once}!"));
    }

    #[test]
    fn consecutive_moves_never_choose_the_same_phrasing() {
        for len in 2..6 {
            let list: Vec<String> = (0..len).map(|i| i.to_string()).collect();
            for n in 1..200 {
                assert_ne!(choose(&list, n, "k", 0), choose(&list, n + 1, "k", 0));
            }
        }
    }
}
