// A class's overview for the projector (/play/class/{id}#seat=host.<token>):
// every game's board with its names, whose turn it is and how it stands,
// from the class's list (GET /v1/classes/{id}), read again every few
// seconds: the one place the page follows its games. Each game's board is
// fetched again only when its version moves on.
//
// The class's host token is read from the URL fragment and sent only in
// the Authorization header; the fragment never reaches the server. It is
// host of each game too, so each game's link opens its teacher's page.
"use strict";
(function () {
  const EVERY_MS = 4000;
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean)[2] || "");
  const api = "/v1/classes/" + encodeURIComponent(id);
  const $ = (sel) => document.getElementById(sel);
  const fragment = new URLSearchParams(location.hash.slice(1));
  const seat = fragment.get("seat") || "";
  const token = seat.startsWith("host.") ? seat.slice(5) : "";
  const headers = { Authorization: "Bearer " + token };
  const tiles = new Map(); // game id -> its tile's elements
  let fairnessUrl = null; // the class's fairness link, from its list
  let moved = -1; // the games' versions summed: the fairness is read again when it changes
  // The fairness report in the words of the class's games' audience (a
  // teacher's trial: a class of young players got "Chi-square 2.40").
  let audience = "general";
  const fair = window.ZohnFairness(() => fairnessUrl, $, () => audience);
  const recaps = window.ZohnClassRecap($);

  function say(text) {
    $("status").textContent = text || "";
  }

  // The class cannot be shown: why, in place of the games' count.
  function refuse(text) {
    $("summary").textContent = "";
    say(text);
  }

  // Text with each name in <bdi>: a right-to-left name keeps the words
  // around it in their order.
  function put(el, parts) {
    el.textContent = "";
    for (const part of parts) {
      if (typeof part === "string") el.append(part);
      else {
        const b = document.createElement("bdi");
        b.textContent = part.name;
        el.append(b);
      }
    }
  }

  function turnParts(g) {
    const [a, b] = g.sides;
    if (g.standing === "in_play") {
      const who = g.to_throw;
      return [{ name: who ? who.name : "" }, " to throw"];
    }
    const winner = g.winner ? g.sides.find((s) => s.side === g.winner) : null;
    if (g.standing === "won") return [{ name: winner ? winner.name : "" }, " won"];
    if (winner) return ["Stopped: ", { name: winner.name }, " had more counters"];
    return ["Stopped: a draw, ", { name: a.name }, " and ", { name: b.name }, " level"];
  }

  // The counters in the heading's order (side A's, then side B's).
  // Each side's counters under its own name (a teacher's trial: "Counters
  // 4 and 4" did not say whose), names in <bdi>.
  function countersParts(g) {
    const [a, b] = g.sides;
    return [{ name: a.name }, " " + a.counters + " · ", { name: b.name }, " " + b.counters + " counters · throw " + g.throws];
  }

  function altOf(g) {
    const [a, b] = g.sides;
    return (g.standing === "in_play" ? "The board: " : "The final board: ") + a.name + "'s awl on its space " + a.awl.space + ", " +
      b.name + "'s on its space " + b.awl.space + "; " + a.name + " hold " + a.counters + " counters, " + b.name + " " + b.counters;
  }

  function tile(g) {
    let t = tiles.get(g.id);
    if (!t) {
      const li = document.createElement("li");
      const h2 = document.createElement("h2");
      const link = document.createElement("a");
      link.href = "/play/" + encodeURIComponent(g.id) + "#seat=host." + token;
      h2.append(link);
      const img = document.createElement("img");
      img.width = 1010;
      img.height = 900;
      img.alt = "";
      const turn = document.createElement("p");
      turn.className = "turn";
      const counters = document.createElement("p");
      counters.className = "counters";
      li.append(h2, img, turn, counters);
      t = { li, link, img, turn, counters, version: -1 };
      tiles.set(g.id, t);
    }
    if (t.version !== g.version) {
      const [a, b] = g.sides;
      put(t.link, [{ name: a.name }, " and ", { name: b.name }]);
      t.img.alt = altOf(g);
      t.img.src = g.board + "&v=" + g.version;
      put(t.turn, turnParts(g));
      put(t.counters, countersParts(g));
      t.li.classList.toggle("over", g.standing !== "in_play");
      t.version = g.version;
    }
    return t.li;
  }

  function show(view) {
    $("title").textContent = view.name;
    document.title = "Zohn Ahl: " + view.name;
    const playing = view.games.filter((g) => g.standing === "in_play").length;
    const n = view.games.length;
    $("summary").textContent = n + (n === 1 ? " game, " : " games, ") + playing + " in play";
    const list = $("boards");
    list.dataset.count = String(Math.min(n, 8));
    const seen = new Set(view.games.map((g) => g.id));
    for (const [gid, t] of tiles) {
      if (!seen.has(gid)) {
        t.li.remove();
        tiles.delete(gid);
      }
    }
    view.games.forEach((g, i) => {
      const li = tile(g);
      if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
    });
    say(n ? "" : "This class has no game now.");
    const versions = view.games.reduce((sum, g) => sum + g.version, 0);
    fairnessUrl = view.links.fairness;
    if (view.games.length) audience = view.games[0].audience || "general";
    if (fairnessUrl && versions !== moved) fair.load();
    recaps.show(view);
    moved = versions;
  }

  let timer = null;
  async function refresh() {
    try {
      const res = await fetch(api, { headers, cache: "no-store" });
      if (!res.ok) {
        const problem = await res.json().catch(() => ({}));
        refuse(problem.detail ? "The class cannot be shown: " + problem.detail : "The class cannot be shown (" + res.status + ").");
        if (res.status === 401 || res.status === 403 || res.status === 404) return; // asking again will not help
      } else {
        $("connection").hidden = true;
        show(await res.json());
      }
    } catch (_) {
      const c = $("connection");
      c.textContent = "The server does not answer; trying again…";
      c.hidden = false;
    }
    timer = setTimeout(refresh, EVERY_MS);
  }

  if (!token) {
    refuse("This page needs the class's own link, with its host token after # (#seat=host.…), as the class's creation gave it.");
    return;
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && timer !== null) {
      clearTimeout(timer);
      refresh();
    }
  });
  refresh();
})();
