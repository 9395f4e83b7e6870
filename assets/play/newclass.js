// A class from the start page: more than one game. POST /v1/classes makes
// the class with its first game, then each further game is added with its
// own names (POST /v1/classes/{id}/games: "Hawks 2" against "Foxes 2", or
// "Group 2 A" against "Group 2 B"), so that the projector's overview tells
// the games apart; then the class's links: the overview for the projector
// and, for each game, the teacher's link and each side's link, join code and
// QR code. Every game is kept in this browser (seatlinks.js) with the
// class's overview link.
"use strict";
window.ZohnNewClass = (function () {
  const $ = (id) => document.getElementById(id);
  const MAX_NAME = 40;

  // The names of game `n` (1-based): the teacher's names with its number,
  // or "Group n A" and "Group n B".
  function names(n, a, b) {
    const numbered = (base, fallback) => {
      if (!base) return fallback;
      const tail = " " + n;
      return base.slice(0, MAX_NAME - tail.length).trimEnd() + tail;
    };
    return {
      a: { name: numbered(a, "Group " + n + " A") },
      b: { name: numbered(b, "Group " + n + " B") },
    };
  }

  async function post(url, body, token) {
    const headers = { "content-type": "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = await res.json();
    if (!res.ok) {
      const fields = (answer.errors || []).map((e) => e.detail).join("; ");
      throw new Error(answer.detail + (fields && fields !== answer.detail ? " (" + fields + ")" : ""));
    }
    return answer;
  }

  function item(parts) {
    const li = document.createElement("li");
    li.append(...parts);
    return li;
  }

  function link(href, text) {
    const a = document.createElement("a");
    a.href = href;
    const label = document.createElement("bdi");
    label.textContent = text;
    a.append(label);
    return a;
  }

  // One game's links, shown and kept.
  function show(game, overview, list) {
    const page = location.origin + "/play/" + encodeURIComponent(game.id);
    const named = Object.fromEntries(game.sides.map((s) => [s.side, s.name]));
    const links = {
      watch: page + "#big=1",
      host: page + "#seat=host." + game.host_token,
      a: page + "#seat=A." + game.seat_tokens.a,
      b: page + "#seat=B." + game.seat_tokens.b,
    };
    const codes = game.join_codes || {};
    const li = document.createElement("li");
    const head = document.createElement("p");
    const both = document.createElement("bdi");
    both.textContent = named.A + " and " + named.B;
    head.append(both, " ", link(links.host, "teacher's page"));
    const seats = document.createElement("ul");
    for (const key of ["a", "b"]) {
      const code = document.createElement("span");
      code.className = "seat-code";
      code.textContent = window.ZohnLinks.spaced(codes[key]);
      const qr = document.createElement("div");
      qr.className = "qr";
      seats.append(item([link(links[key], named[key.toUpperCase()]), ": join code ", code, qr]));
      window.ZohnLinks.qrInto(qr, links[key], "QR code of the link for " + named[key.toUpperCase()]);
    }
    li.append(head, seats);
    list.append(li);
    window.ZohnLinks.keep({ id: game.id, created: new Date().toISOString(), names: named, links, codes, overview });
  }

  // Make the class of `count` games from the form's `body` (a game's
  // setting) and show its links; throws the server's refusal.
  async function create(body, count, name, a, b) {
    const game = Object.assign({}, body, { sides: names(1, a, b) });
    if (!game.seats) game.seats = true;
    const made = await post("/v1/classes", { name: name || undefined, games: 1, game });
    const overview =
      location.origin + "/play/class/" + encodeURIComponent(made.id) + "#seat=host." + made.host_token;
    $("class-title").textContent = "Your class's links: " + made.name;
    $("class-link").href = overview;
    $("url-class").textContent = overview;
    const list = $("class-games");
    list.replaceChildren();
    $("join-address-class").textContent = location.origin + "/join";
    $("new-game").hidden = true;
    $("class-links").hidden = false;
    show(made.games[0], overview, list);
    for (let n = 2; n <= count; n++) {
      const more = Object.assign({}, game, { sides: names(n, a, b) });
      const added = await post("/v1/classes/" + encodeURIComponent(made.id) + "/games", more, made.host_token);
      show(added, overview, list);
    }
    $("class-title").focus();
  }

  return { create, names };
})();
