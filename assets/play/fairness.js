// "Are our sticks fair?" on a game's page and a class's overview: the
// chi-square test of the throws reported from real sticks (`url()`: GET
// /v1/games/{id}/fairness, or /v1/fairness?game=… for a class's games
// together), in the page's audience's words; read at the start and after
// each reported throw.
"use strict";
window.ZohnFairness = function (url, $, audienceNow) {
  let fairness = null;

  async function load() {
    try {
      const res = await fetch(url());
      if (!res.ok) return;
      fairness = await res.json();
      render();
    } catch (_) {
      // Read again with the next reported throw.
    }
  }

  function render() {
    const test = fairness && fairness.tests[0];
    if (!test) return;
    const key = audienceNow() || "general";
    $("fair-text").textContent = test.explanation[key] || test.explanation.general;
    const table = $("fair-table");
    const body = table.querySelector("tbody");
    body.replaceChildren();
    for (const c of test.cells) {
      const tr = document.createElement("tr");
      const label = c.value + (c.throws_again ? ", throw again" : "");
      for (const [text, num] of [[label, false], [String(c.observed), true], [key === "young" ? String(Math.round(c.expected)) : c.expected.toFixed(1), true]]) {
        const td = document.createElement("td");
        td.textContent = text;
        if (num) td.className = "num";
        tr.append(td);
      }
      body.append(tr);
    }
    table.hidden = test.throws === 0;
    $("fair-figures").textContent = test.reliable && key !== "young"
      ? "Chi-square " + test.chi_square.toFixed(2) + ", " + test.degrees_of_freedom +
        " degrees of freedom, p = " + test.p_value.toFixed(3) + " (" + test.throws + " reported throws)."
      : "Reported throws so far: " + test.throws + ".";
  }

  return { load, render };
};
