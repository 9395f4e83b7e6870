// Text with the game's names isolated (<bdi>), so that a right-to-left name
// keeps the words and numbers around it in their order (a teacher's trial:
// "Moves 98 to 104 were all for <a Hebrew name>: 7 throws in a row!" showed
// the 7 before the name). The names are the game's sides' names, set by the
// page once it knows them; text without them is put as it is.
"use strict";
window.ZohnBidi = (function () {
  let names = [];
  // Only names with a right-to-left letter need it; the longest first, so
  // that a name inside another is not matched alone.
  const rtl = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
  function setNames(list) {
    names = list.filter((n) => n && rtl.test(n)).sort((a, b) => b.length - a.length);
  }
  function put(el, text) {
    text = String(text || "");
    if (!names.length) {
      el.textContent = text;
      return;
    }
    const nodes = [];
    let rest = text;
    while (rest) {
      let at = -1;
      let name = "";
      for (const n of names) {
        const i = rest.indexOf(n);
        if (i >= 0 && (at < 0 || i < at)) {
          at = i;
          name = n;
        }
      }
      if (at < 0) {
        nodes.push(rest);
        break;
      }
      if (at > 0) nodes.push(rest.slice(0, at));
      nodes.push(Object.assign(document.createElement("bdi"), { textContent: name }));
      rest = rest.slice(at + name.length);
    }
    el.replaceChildren(...nodes);
  }
  return { setNames, put };
})();
