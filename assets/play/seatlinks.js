// A seated game's links as this browser keeps them (localStorage, for the
// start page's "Games started here" and the teacher's page), and a link's
// QR code (POST /play/qr: the link goes in the body, never in an address),
// for the start page and the teacher's page alike.
"use strict";
window.ZohnLinks = (function () {
  const KEPT = "zohn-ahl.games"; // the seated games started here, newest first
  const KEPT_MAX = 30;

  function kept() {
    try {
      const list = JSON.parse(localStorage.getItem(KEPT) || "[]");
      return Array.isArray(list) ? list.filter((g) => g && g.id && g.links && g.names) : [];
    } catch (_) {
      return [];
    }
  }

  function save(list) {
    try {
      localStorage.setItem(KEPT, JSON.stringify(list.slice(0, KEPT_MAX)));
    } catch (_) {
      // Private browsing: the links are shown once, as they were.
    }
  }

  const keep = (entry) => save([entry, ...kept().filter((g) => g.id !== entry.id)]);
  const forget = (id) => save(kept().filter((g) => g.id !== id));

  // The QR code of `link`, put into `box` as inline SVG named `label`.
  async function qrInto(box, link, label) {
    try {
      const res = await fetch("/play/qr", { method: "POST", headers: { "content-type": "text/plain" }, body: link });
      if (!res.ok) return;
      const doc = new DOMParser().parseFromString(await res.text(), "image/svg+xml");
      const svg = document.importNode(doc.documentElement, true);
      svg.setAttribute("aria-label", label);
      svg.dataset.link = link;
      box.replaceChildren(svg);
    } catch (_) {
      // The link is there to copy.
    }
  }

  // A join code as it is easiest to read aloud and type: two groups of
  // three.
  const spaced = (code) => (code && code.length === 6 ? code.slice(0, 3) + " " + code.slice(3) : code || "");

  return { kept, keep, forget, qrInto, spaced };
})();
