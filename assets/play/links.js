// On the teacher's page of a seated game (#seat=host.…): each side's link
// with its QR code and join code, when this browser started the game (the
// start page keeps them: seatlinks.js), and a "New link" for each side
// (newlink.js), which also works from another browser. Never on a side's
// page: a pupil sees only her own link.
"use strict";
(function () {
  const seat = new URLSearchParams(location.hash.slice(1)).get("seat") || "";
  if (!seat.startsWith("host.")) return;
  const host = seat.slice("host.".length);
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const list = document.getElementById("seat-links-list");
  const status = document.getElementById("seat-links-status");
  document.getElementById("join-address").textContent = location.origin + "/join";

  const spaced = window.ZohnLinks.spaced;

  // The side's line: its link, join code and QR code, or a note when this
  // browser did not keep them; then its "New link".
  function fill(li, side, name, link, code) {
    li.replaceChildren();
    const who = document.createElement("span");
    who.className = "who";
    const bdi = document.createElement("bdi");
    bdi.textContent = name;
    who.append(bdi, ": ");
    li.append(who);
    if (link) {
      const a = document.createElement("a");
      a.href = link;
      a.textContent = "play as " + name;
      li.append(a);
    } else {
      li.append("this browser did not keep the link; make a new one to see it.");
    }
    if (code) {
      const p = document.createElement("p");
      const c = document.createElement("span");
      c.className = "seat-code";
      c.dataset.side = side;
      c.textContent = spaced(code);
      p.append("Join code: ", c);
      li.append(p);
    }
    if (link) {
      const box = document.createElement("div");
      box.className = "qr";
      li.append(box);
      window.ZohnLinks.qrInto(box, link, "QR code of the link for " + name);
    }
    window.ZohnNewLink.offer(li, {
      id, host, side, name, status,
      done: (newLink, newCode) => {
        const kept = window.ZohnLinks.kept().find((g) => g.id === id);
        if (kept) {
          const key = side.toLowerCase();
          kept.links = { ...kept.links, [key]: newLink };
          kept.codes = { ...(kept.codes || {}), [key]: newCode };
          window.ZohnLinks.keep(kept);
        }
        fill(li, side, name, newLink, newCode);
      },
    });
  }

  async function show() {
    const kept = window.ZohnLinks.kept().find((g) => g.id === id);
    let names = kept && kept.names;
    if (!names) {
      try {
        const game = await (await fetch("/v1/games/" + encodeURIComponent(id))).json();
        if (!game.seated) return;
        names = Object.fromEntries(game.sides.map((s) => [s.side, s.name]));
      } catch (_) {
        return;
      }
    }
    for (const side of ["A", "B"]) {
      const key = side.toLowerCase();
      const li = document.createElement("li");
      li.dataset.side = side;
      fill(li, side, names[side], kept && kept.links[key], kept && kept.codes && kept.codes[key]);
      list.append(li);
    }
    if (kept) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = kept.links.watch;
      a.textContent = "The projector";
      li.append(a);
      list.append(li);
    }
    document.getElementById("seat-links").hidden = false;
  }
  show();
})();
