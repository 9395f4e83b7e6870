// Run before the game's page is drawn (not deferred): big-screen mode from
// the address (#big=1, the projector's link), so that the page is drawn big
// from the start rather than drawn small and then moved (layout shift).
"use strict";
if (new URLSearchParams(location.hash.slice(1)).get("big") === "1") {
  document.documentElement.classList.add("big");
}
// Another fragment typed or pasted into this tab is another seat (or
// audience): the page loads afresh for it, so that it never keeps the
// powers of the link it was opened with. (The page's own changes to its
// fragment use history.replaceState, which fires no hashchange.)
window.addEventListener("hashchange", () => location.reload());
