// The recap of a finished game on its page: the questions for the class
// first, each answer behind a disclosure so that the class can think
// first, and the summary (which answers them) closed behind one too. The recap comes with the live feed's `end` (and,
// when the page polls instead, from GET /v1/games/{id}/recap); the numbers
// are this service's own computation (source `zohn-ahl-odds`).
"use strict";
window.ZohnRecap = (function () {
  const $ = (sel) => document.getElementById(sel);

  function show(recap) {
    const section = $("recap");
    if (!section || !recap) return;
    $("recap-numbers").open = false;
    const summary = $("recap-summary");
    summary.replaceChildren();
    for (const line of recap.summary || []) {
      const li = document.createElement("li");
      window.ZohnBidi.put(li, line);
      summary.append(li);
    }
    const questions = $("recap-questions");
    questions.replaceChildren();
    for (const q of recap.questions || []) {
      const li = document.createElement("li");
      const p = document.createElement("p");
      window.ZohnBidi.put(p, q.question);
      const details = document.createElement("details");
      const label = document.createElement("summary");
      label.textContent = "Show the answer";
      const answer = document.createElement("p");
      window.ZohnBidi.put(answer, q.answer);
      details.append(label, answer);
      li.append(p, details);
      questions.append(li);
    }
    section.hidden = false;
  }

  // For a page that learns the game is over without the feed's `end`.
  async function load(api, audience) {
    const q = audience ? "?audience=" + encodeURIComponent(audience) : "";
    const res = await fetch(api + "/recap" + q);
    if (res.ok) show(await res.json());
  }

  return { show, load };
})();
