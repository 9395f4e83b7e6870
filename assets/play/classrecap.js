// The class's recap on its overview: "Looking back", one entry for each game
// that is over, with how it ended and its first question and answer (GET
// /v1/games/{id}/recap, in the game's own audience), read once a game is
// over and kept. Names are put in <bdi>, as everywhere on the page.
"use strict";
window.ZohnClassRecap = function ($) {
  const read = new Map(); // game id -> its recap, or null while asked

  function names(g) {
    const a = g.sides.find((s) => s.side === "A");
    const b = g.sides.find((s) => s.side === "B");
    const head = document.createElement("h3");
    for (const [i, part] of [a.name, " and ", b.name].entries()) {
      if (i === 1) head.append(part);
      else head.append(Object.assign(document.createElement("bdi"), { textContent: part }));
    }
    return head;
  }

  function entry(g, recap) {
    const li = document.createElement("li");
    li.dataset.game = g.id;
    li.append(names(g));
    const ended = document.createElement("p");
    ended.textContent = recap.summary[0] || "";
    li.append(ended);
    const q = recap.questions[0];
    if (q) {
      const ask = document.createElement("p");
      ask.className = "question";
      ask.textContent = q.question;
      const details = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "The answer";
      const answer = document.createElement("p");
      answer.textContent = q.answer;
      details.append(summary, answer);
      li.append(ask, details);
    }
    return li;
  }

  // Show the games of `view` that are over, asking for each recap once.
  function show(view) {
    const over = view.games.filter((g) => g.standing !== "in_play" && g.recap);
    $("class-recap").hidden = over.length === 0;
    for (const g of over) {
      if (read.has(g.id)) continue;
      read.set(g.id, null);
      fetch(g.recap, { cache: "no-store" })
        .then((res) => (res.ok ? res.json() : Promise.reject(res.status)))
        .then((recap) => {
          read.set(g.id, recap);
          render(view);
        })
        .catch(() => read.delete(g.id)); // asked again with the next list
    }
    render(view);
  }

  function render(view) {
    const list = $("class-recap-list");
    const items = view.games
      .filter((g) => read.get(g.id))
      .map((g) => entry(g, read.get(g.id)));
    list.replaceChildren(...items);
  }

  return { show };
};
