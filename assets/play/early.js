// Run before the game's page is drawn (not deferred): big-screen mode from
// the address (#big=1, the projector's link), so that the page is drawn big
// from the start rather than drawn small and then moved (layout shift).
"use strict";
if (new URLSearchParams(location.hash.slice(1)).get("big") === "1") {
  document.documentElement.classList.add("big");
}
