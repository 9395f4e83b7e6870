//! BibTeX entries for the bibliography's CSL-JSON items, written with the
//! `biblatex` crate (which escapes TeX's special characters and braces
//! titles so that styles keep their capitals).

use biblatex::{Chunk, Entry, EntryType, Person, Spanned};
use serde_json::Value;

use super::catalogue::Source;

/// A source that cannot be written as BibTeX (a defect of the data).
#[derive(Debug, thiserror::Error)]
#[error("source {id} cannot be written as BibTeX: {reason}")]
pub struct BibtexError {
    /// The source's id.
    pub id: String,
    /// What went wrong.
    pub reason: String,
}

fn normal(text: &str) -> Vec<Spanned<Chunk>> {
    vec![Spanned::detached(Chunk::Normal(text.to_owned()))]
}

/// Braced, so that BibTeX styles print it as written.
fn verbatim(text: &str) -> Vec<Spanned<Chunk>> {
    vec![Spanned::detached(Chunk::Verbatim(text.to_owned()))]
}

fn person(name: &Value) -> Option<Person> {
    let field = |k: &str| name.get(k).and_then(Value::as_str).unwrap_or_default();
    let family = match field("family") {
        "" => field("literal"),
        f => f,
    };
    (!family.is_empty()).then(|| Person {
        name: family.to_owned(),
        given_name: field("given").to_owned(),
        prefix: field("non-dropping-particle").to_owned(),
        suffix: field("suffix").to_owned(),
        id: None,
        prefix_initials: None,
        given_initials: None,
        use_prefix: None,
    })
}

/// `[[1898]]` or `[[2007, 11]]` as a year and a month.
fn date_parts(date: &Value) -> (Option<i64>, Option<i64>) {
    let parts = date
        .get("date-parts")
        .and_then(Value::as_array)
        .and_then(|p| p.first())
        .and_then(Value::as_array);
    let part = |i: usize| parts.and_then(|p| p.get(i)).and_then(Value::as_i64);
    (part(0), part(1))
}

/// The source as one BibTeX entry keyed by its id: `@book`, `@incollection`
/// (CSL `chapter`), `@article`, `@techreport` or `@misc` (web pages,
/// software, documents, encyclopedia entries), with author, title,
/// container, publisher and place, year and month, pages (`--` for ranges),
/// volume, edition, ISBN, DOI and URL. The CSL note and the rights status
/// go into `annote`; an original publication into `note`.
///
/// # Errors
/// [`BibtexError`] when the item cannot be written (a defect of the data).
pub fn bibtex(source: &Source) -> Result<String, BibtexError> {
    let csl = &source.csl;
    let text = |k: &str| csl.get(k).and_then(Value::as_str);
    let id = source.id().to_owned();
    let (entry_type, container_field) = match text("type").unwrap_or_default() {
        "book" => (EntryType::Book, "booktitle"),
        "chapter" | "paper-conference" => (EntryType::InCollection, "booktitle"),
        "article-journal" | "article-magazine" | "article-newspaper" => {
            (EntryType::Article, "journal")
        }
        "report" => (EntryType::TechReport, "howpublished"),
        _ => (EntryType::Misc, "howpublished"),
    };
    let mut entry = Entry::new(id.clone(), entry_type);
    let authors: Vec<Person> = csl
        .get("author")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(person).collect())
        .unwrap_or_default();
    if !authors.is_empty() {
        entry.set_as("author", &authors);
    }
    if let Some(title) = text("title") {
        entry.set("title", verbatim(title));
    }
    match (text("container-title"), text("genre")) {
        (Some(container), _) if container_field == "howpublished" => {
            entry.set("howpublished", normal(container));
        }
        (Some(container), _) => entry.set(container_field, verbatim(container)),
        (None, Some(genre)) => entry.set("howpublished", normal(genre)),
        (None, None) => {}
    }
    for (csl_key, bib_key) in [
        ("publisher", "publisher"),
        ("publisher-place", "address"),
        ("volume", "volume"),
        ("edition", "edition"),
        ("ISBN", "isbn"),
        ("DOI", "doi"),
        ("URL", "url"),
        ("version", "version"),
    ] {
        if let Some(value) = text(csl_key) {
            entry.set(bib_key, normal(value));
        }
    }
    if let Some(page) = text("page") {
        entry.set("pages", normal(&page.replace('-', "--")));
    } else if let Some(first) = text("page-first") {
        entry.set("pages", normal(&format!("{first}ff.")));
    }
    if let Some(issued) = csl.get("issued") {
        let (year, month) = date_parts(issued);
        if let Some(year) = year {
            entry.set("year", normal(&year.to_string()));
        }
        if let Some(month) = month {
            entry.set("month", normal(&month.to_string()));
        }
    }
    if let Some(original) = text("original-publisher") {
        let year = csl
            .get("original-date")
            .and_then(|d| date_parts(d).0)
            .map(|y| format!(", {y}"))
            .unwrap_or_default();
        entry.set(
            "note",
            normal(&format!("First published by {original}{year}.")),
        );
    }
    let rights = csl
        .get("custom")
        .and_then(|c| c.get("rights"))
        .and_then(Value::as_str);
    let annote = match (text("note"), rights) {
        (Some(note), Some(rights)) => Some(format!("{note} Rights: {rights}.")),
        (Some(note), None) => Some(note.to_owned()),
        (None, Some(rights)) => Some(format!("Rights: {rights}.")),
        (None, None) => None,
    };
    if let Some(annote) = annote {
        entry.set("annote", normal(&annote));
    }
    entry
        .to_bibtex_string()
        .map(|s| {
            // Indent the fields, one to a line, under the entry's head.
            let mut out = String::with_capacity(s.len() + 64);
            for (i, line) in s.lines().enumerate() {
                if i > 0 && line != "}" {
                    out.push_str("  ");
                }
                out.push_str(line);
                out.push('\n');
            }
            out
        })
        .map_err(|e| BibtexError {
            id,
            reason: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::bibtex;
    use crate::catalogue;

    #[test]
    fn every_source_writes_an_entry_that_parses_back() {
        for source in &catalogue().sources {
            let text = bibtex(source).unwrap();
            let parsed = biblatex::Bibliography::parse(&text).unwrap();
            let entry = parsed.get(source.id()).unwrap();
            let title = source.csl["title"].as_str().unwrap();
            let got: String = entry
                .get("title")
                .unwrap()
                .iter()
                .map(|c| c.v.get())
                .collect();
            assert_eq!(got, title, "{text}");
        }
    }

    #[test]
    fn a_chapter_is_an_incollection_with_its_pages_and_year() {
        let source = catalogue().source("culin1898").unwrap();
        let text = bibtex(source).unwrap();
        assert!(text.starts_with("@incollection{culin1898,\n"), "{text}");
        assert!(text.contains("\n  author = {Culin, Stewart},\n"), "{text}");
        assert!(text.contains("pages = {665--942},"), "{text}");
        assert!(text.contains("year = {1898},"), "{text}");
        assert!(text.contains("address = {Washington},"), "{text}");
    }
}
