//! A caption's parts and what shortening them loses: each part's forms,
//! longest first, the weight of each step from one form to the next, and
//! which step a caption too long for its line takes first.

/// What a step from one form to the next loses, least first: while a
/// caption is too long, the step that loses the least is taken (among
/// equals, the later part's; among names, the earlier part's). A part's own weight is what its other steps
/// lose (its details, or the part itself when it is left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Weight {
    /// A feature's description, or words that only explain (`the awl goes`).
    Description,
    /// Skipped turns, harmless passes, unpaid counters.
    Aside,
    /// Counters changing hands.
    Counter,
    /// Circuits and lost throws.
    Notable,
    /// The winner's details (`with all 8 counters`).
    Result,
    /// A name shortened to its first words or its side's letter.
    Name,
    /// Whips: the whipped side's name left out.
    Whip,
    /// The route's details: the feature's name, where the awl came from.
    Route,
    /// The winner's name shortened: the last thing a result loses.
    Winner,
    /// What is in every caption: the throw, the awl's final space, what
    /// happens next (never left out; only its names shorten).
    Kept,
}

/// The name placeholders and their short forms: a step that only swaps a
/// name for its short form loses [`Weight::Name`].
const NAMES: &[(&str, &str)] = &[
    ("player", "player_short"),
    ("player_short", "player_label"),
    ("opponent", "opponent_short"),
    ("payer", "payer_short"),
    ("payee", "payee_short"),
    ("next_player", "next_short"),
    ("side", "side_short"),
];

/// The placeholders of a template: `{to}` gives `to`.
fn placeholders(template: &str) -> Vec<&str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(name, _)| name))
        .collect()
}

/// What going from template `from` to `to` loses, in a part of `weight`
/// whose move variables are `vars`: a name swapped for its short form is a
/// [`Weight::Name`]; the feature's description, a board word or words alone
/// are a [`Weight::Description`]; any other variable (a count, a space, a
/// short feature, a name left out) is the part's own weight.
pub(super) fn loss(from: &str, to: &str, weight: Weight, vars: &[(&str, &str)]) -> Weight {
    let after = placeholders(to);
    let mut detail = None;
    let mut names = false;
    for name in placeholders(from) {
        if after.contains(&name) {
            continue;
        }
        if NAMES
            .iter()
            .any(|(long, short)| *long == name && after.contains(short))
        {
            names = true;
        } else if name == "feature" || !vars.iter().any(|(k, _)| *k == name) {
            detail = detail.max(Some(Weight::Description));
        } else {
            detail = Some(weight);
        }
    }
    match detail {
        Some(Weight::Description) | None if names && weight == Weight::Result => Weight::Winner,
        Some(Weight::Description) | None if names => Weight::Name,
        Some(w) => w,
        None => Weight::Description,
    }
}

/// One part of a caption: its forms, longest first, and which one is used.
pub(super) struct Part {
    pub(super) forms: Vec<String>,
    /// What each step loses: `steps[i]` from form `i` to form `i + 1`.
    pub(super) steps: Vec<Weight>,
    pub(super) weight: Weight,
    /// Whether it may be left out once its shortest form does not fit.
    pub(super) optional: bool,
    /// The form in use; `forms.len()` once left out.
    pub(super) at: usize,
}

impl Part {
    pub(super) fn text(&self) -> Option<&str> {
        self.forms.get(self.at).map(String::as_str)
    }

    /// The part's next step, if it can shrink: what it loses and the form
    /// it leaves the part at. An optional part is left out at once when
    /// that loses less than its next form would (a counter is left out
    /// before the names in it are shortened).
    pub(super) fn next_step(&self) -> Option<(Weight, usize)> {
        let len = self.forms.len();
        let shrink = (self.at + 1 < len)
            .then(|| self.steps.get(self.at).map(|w| (*w, self.at + 1)))
            .flatten();
        let leave = (self.optional && self.at < len).then_some((self.weight, len));
        match (shrink, leave) {
            (Some(s), Some(l)) if l.0 < s.0 => Some(l),
            (s, l) => s.or(l),
        }
    }
}
