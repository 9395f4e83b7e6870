//! The sources of a printed page: each source's short label (as the
//! lesson page labels its citation links), each citation as a reader sees
//! it on paper, and each source's full reference for the numbered list at
//! the end of the page.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::narration::{Citation, Seen, Source, catalogue, year_issued};

/// Escape text for an HTML text node.
pub(super) fn text(s: &str) -> String {
    html_escape::encode_text(s).into_owned()
}

/// Escape text for a double-quoted HTML attribute.
pub(super) fn attr(s: &str) -> String {
    html_escape::encode_double_quoted_attribute(s).into_owned()
}

/// A CSL field's text, trimmed, where it has any.
fn string<'a>(csl: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    csl.get(field)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Every source's label, as a short citation reads: who and the year, or,
/// for a source without a year, who and a short title; a short title added
/// where that does not tell two sources apart, and the source's id where
/// even that does not. The same rule as the lesson page's
/// (`assets/play/sources.js`, `sourceLabels`), over the same bibliography,
/// so a source reads alike on screen and on paper (`browser_print` compares
/// them).
fn labels(sources: &[Source]) -> BTreeMap<String, String> {
    let mut labels: BTreeMap<String, String> = sources
        .iter()
        .map(|s| {
            let (w, t) = (s.who(), s.short_title());
            let label = match (w.is_empty(), s.year()) {
                (false, Some(y)) => format!("{w} {y}"),
                (false, None) if !t.is_empty() && t != w => format!("{w}, {t}"),
                (false, None) => w,
                (true, _) if !t.is_empty() => t,
                (true, _) => s.id().to_owned(),
            };
            (s.id().to_owned(), label)
        })
        .collect();
    let count = |labels: &BTreeMap<String, String>| {
        let mut n: BTreeMap<String, usize> = BTreeMap::new();
        for l in labels.values() {
            *n.entry(l.clone()).or_default() += 1;
        }
        n
    };
    let n = count(&labels);
    for s in sources {
        let title = s.short_title();
        if let Some(label) = labels.get_mut(s.id())
            && n[label.as_str()] > 1
            && !title.is_empty()
            && !label.contains(&title)
        {
            let _ = write!(label, ", {title}");
        }
    }
    let n = count(&labels);
    for s in sources {
        if let Some(label) = labels.get_mut(s.id())
            && n[label.as_str()] > 1
        {
            let _ = write!(label, " [{}]", s.id());
        }
    }
    labels
}

/// Every source's label, made once.
static LABELS: LazyLock<BTreeMap<String, String>> = LazyLock::new(|| labels(&catalogue().sources));

/// The short label of the source with this id (its id if the bibliography
/// has no such source).
fn label(id: &str) -> &str {
    LABELS.get(id).map_or(id, String::as_str)
}

/// The sources a page cites, numbered in the order the page first cites
/// them.
#[derive(Default)]
pub(super) struct Cited {
    /// Each cited source's id, in the order of its first citation.
    ids: Vec<String>,
    /// The marks of citations not seen directly that the text uses.
    marks: Vec<Seen>,
}

/// The mark a printed citation not seen directly carries (the list of
/// sources explains it in [`Seen::caveat`]'s words).
fn mark(seen: Seen) -> &'static str {
    match seen {
        Seen::Seen => "",
        Seen::Quoted => "\u{2020}",
        Seen::NotSeen => "*",
    }
}

impl Cited {
    /// A text's citations as HTML: in brackets, each the source's number
    /// in the page's list of sources (linked to its entry, and titled with
    /// the source's short label), with the pages where given, and for what
    /// nobody here has seen directly a mark that the list of sources
    /// explains (`*`, `†`). Numbers rather than labels: on paper the labels
    /// would take a third more room than the rules.
    pub(super) fn cites(&mut self, citations: &[Citation]) -> String {
        if citations.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = citations
            .iter()
            .map(|c| {
                let n = self.number(&c.source);
                let mut part = format!(
                    "<a href=\"#source-{n}\" title=\"{}\">{n}</a>",
                    attr(label(&c.source))
                );
                if let Some(locator) = &c.locator {
                    let _ = write!(part, ", {}", text(locator));
                }
                let seen = c.seen();
                if let Some(caveat) = seen.caveat() {
                    // A mark, explained once above the list: on paper the
                    // words after every such citation took a third sheet.
                    let mark = mark(seen);
                    let _ = write!(part, "<abbr title=\"{caveat}\">{mark}</abbr>");
                    if !self.marks.contains(&seen) {
                        self.marks.push(seen);
                    }
                }
                part
            })
            .collect();
        format!(" <span class=\"cites\">[{}]</span>", parts.join("; "))
    }

    /// The number of a source in the page's list, given on first citation.
    fn number(&mut self, id: &str) -> usize {
        if let Some(i) = self.ids.iter().position(|s| s == id) {
            return i + 1;
        }
        self.ids.push(id.to_owned());
        self.ids.len()
    }

    /// The numbered list of the sources cited, each with its label and
    /// its full reference.
    pub(super) fn list(&self) -> String {
        let mut out = String::new();
        if !self.marks.is_empty() {
            let mut marks = self.marks.clone();
            marks.sort_by_key(|s| Seen::ALL.iter().position(|x| x == s));
            let legend: Vec<String> = marks
                .iter()
                .filter_map(|&s| s.caveat().map(|c| format!("{} {c}", mark(s))))
                .collect();
            let _ = writeln!(out, "<p class=\"marks\">{}.</p>", legend.join("; "));
        }
        out.push_str("<ol class=\"sources\">\n");
        for (i, id) in self.ids.iter().enumerate() {
            let reference = catalogue()
                .source(id)
                .map_or_else(|| text(id), |s| reference(&s.csl));
            let _ = writeln!(
                out,
                "<li id=\"source-{}\" data-source=\"{}\"><b>{}</b>: {reference}</li>",
                i + 1,
                attr(id),
                text(label(id)),
            );
        }
        out.push_str("</ol>\n");
        out
    }
}

/// A source's full reference, escaped: authors, year, title, the work it
/// is part of, volume and pages, edition, place and publisher, version,
/// kind, and its address (printed in full, since paper cannot follow a
/// link).
fn reference(csl: &Map<String, Value>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let authors: Vec<String> = csl
        .get("author")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(
            |a| match (a.get("family"), a.get("given"), a.get("literal")) {
                (Some(Value::String(f)), Some(Value::String(g)), _) => Some(format!("{f}, {g}")),
                (Some(Value::String(f)), _, _) | (_, _, Some(Value::String(f))) => Some(f.clone()),
                _ => None,
            },
        )
        .collect();
    if !authors.is_empty() {
        parts.push(text(&authors.join("; ")));
    }
    if let Some(y) = year_issued(csl) {
        parts.push(y.to_string());
    }
    if let Some(title) = string(csl, "title") {
        parts.push(format!("<cite>{}</cite>", text(title)));
    }
    let mut within = Vec::new();
    if let Some(c) = string(csl, "container-title") {
        within.push(format!("In {}", text(c)));
    }
    if let Some(v) = string(csl, "volume") {
        within.push(format!("vol. {}", text(v)));
    }
    if let Some(p) = string(csl, "page") {
        let pp = if p.contains('-') { "pp." } else { "p." };
        within.push(format!("{pp} {}", text(p)));
    } else if let Some(p) = string(csl, "page-first") {
        within.push(format!("from p. {}", text(p)));
    }
    if !within.is_empty() {
        parts.push(within.join(", "));
    }
    if let Some(e) = string(csl, "edition") {
        parts.push(format!("{} edition", text(e)));
    }
    match (string(csl, "publisher-place"), string(csl, "publisher")) {
        (Some(place), Some(publisher)) => {
            parts.push(format!("{}: {}", text(place), text(publisher)))
        }
        (None, Some(publisher)) => parts.push(text(publisher)),
        _ => {}
    }
    if let Some(v) = string(csl, "version") {
        parts.push(format!("Version {}", text(v)));
    }
    if let Some(g) = string(csl, "genre") {
        parts.push(text(g));
    }
    // Parts end with a full stop, one only (an initial's stop is enough).
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() {
            out.push_str(if out.ends_with('.') { " " } else { ". " });
        }
        out.push_str(&part);
    }
    if !out.ends_with('.') {
        out.push('.');
    }
    if let Some(url) = string(csl, "URL") {
        let _ = write!(
            out,
            " <a class=\"url\" href=\"{}\">{}</a>",
            attr(url),
            text(url)
        );
    } else if let Some(doi) = string(csl, "DOI") {
        let _ = write!(out, " doi:{}", text(doi));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_has_a_label_of_its_own() {
        let labels = labels(&catalogue().sources);
        assert_eq!(labels.len(), catalogue().sources.len());
        let mut seen = std::collections::BTreeSet::new();
        for (id, label) in &labels {
            assert!(!label.is_empty(), "{id}");
            assert!(seen.insert(label.clone()), "{label} twice");
        }
        assert_eq!(labels["culin1907"], "Culin 1907");
        assert_eq!(labels["wp-zohnahl"], "Wikipedia, Zohn Ahl");
    }

    #[test]
    fn a_reference_is_escaped_and_prints_its_address() {
        let csl: Map<String, Value> = serde_json::from_value(serde_json::json!({
            "id": "x", "title": "A <b> & C", "author": [{"family": "Doe", "given": "J."}],
            "issued": {"date-parts": [[1900]]}, "URL": "https://example.org/?a=1&b=\"2\""
        }))
        .expect("a CSL item");
        assert_eq!(
            reference(&csl),
            "Doe, J. 1900. <cite>A &lt;b&gt; &amp; C</cite>. <a class=\"url\" \
             href=\"https://example.org/?a=1&amp;b=&quot;2&quot;\">https://example.org/?a=1&amp;b=\"2\"</a>"
        );
    }
}
