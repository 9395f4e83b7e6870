// The sources a game's page cites (GET /v1/sources): each citation link's
// short label and where it leads (the source online where it is, else its
// record on this server).
"use strict";
(function () {
  // Each source's label, as a short citation reads: who (the authors'
  // family names, else the publisher or the site) and the year, or, for a
  // source without a year (a web page, a game file), who and a short title;
  // a short title added where that is not enough to tell two sources apart,
  // and the source's id where even that is not. Every source gets its own
  // label (the page's citations once read "Digital Ludeme Project" for five).
  function sourceLabels(items) {
    const who = (s) => {
      const names = (s.author || []).map((a) => a.family || a.literal).filter(Boolean);
      if (names.length > 2) return names[0] + " et al.";
      if (names.length) return names.join(" and ");
      return s.publisher || s["container-title"] || "";
    };
    const year = (s) => {
      const parts = s.issued && s.issued["date-parts"];
      return parts && parts[0] && parts[0][0] ? String(parts[0][0]) : "";
    };
    const shortTitle = (s) => {
      const title = (s["title-short"] || s.title || "").split(/[:;] /)[0].trim();
      const words = title.split(/\s+/).filter(Boolean);
      return words.length > 5
        ? words.slice(0, 5).join(" ").replace(/[,;:.]+$/, "") + "…"
        : words.join(" ");
    };
    const count = (labels) => {
      const n = {};
      for (const l of Object.values(labels)) n[l] = (n[l] || 0) + 1;
      return n;
    };
    const labels = {};
    for (const s of items) {
      const [w, y, t] = [who(s), year(s), shortTitle(s)];
      labels[s.id] = (w && y ? w + " " + y : w && t && t !== w ? w + ", " + t : w || t) || s.id;
    }
    let n = count(labels);
    for (const s of items) {
      const title = shortTitle(s);
      if (n[labels[s.id]] > 1 && title && !labels[s.id].includes(title)) {
        labels[s.id] += ", " + title;
      }
    }
    n = count(labels);
    for (const s of items) {
      if (n[labels[s.id]] > 1) labels[s.id] += " [" + s.id + "]";
    }
    return labels;
  }

  let sources = {}; // source id -> short label
  let sourceUrls = {}; // source id -> the source online (https), where it is

  async function load() {
    try {
      const res = await fetch("/v1/sources");
      if (!res.ok) return;
      const body = await res.json();
      const items = Array.isArray(body) ? body : body.items || body.sources || [];
      sources = sourceLabels(items);
      sourceUrls = Object.fromEntries(
        items.filter((s) => typeof s.URL === "string" && /^https:\/\//.test(s.URL)).map((s) => [s.id, s.URL]),
      );
    } catch (_) {
      // Citations then show the source ids.
    }
  }

  window.ZohnSources = () => ({
    load,
    label: (id) => sources[id] || id,
    url: (id) => sourceUrls[id] || "/v1/sources/" + encodeURIComponent(id),
    online: (id) => Boolean(sourceUrls[id]),
  });
  // For the page's tests and for anyone reading the page: the labels in use.
  window.zohnAhl = { sourceLabels, labels: () => Object.assign({}, sources) };
})();
