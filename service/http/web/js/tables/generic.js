// The generic table: any game's view (its `board`) shown as nested, labelled values, so a game
// without a table of its own is playable from its view and its labelled legal actions.

import { h, titled } from "../dom.js";

const SKIP = new Set(["type", "legal_actions"]);

function value(v, depth) {
  if (v === null || v === undefined) return h("span", { class: "none" }, "none");
  if (Array.isArray(v)) {
    if (!v.length) return h("span", { class: "none" }, "none");
    if (v.every((x) => x === null || typeof x !== "object")) return h("span", {}, v.map(String).join(", "));
    return h("ol", { class: "generic-list" }, v.map((x) => h("li", {}, value(x, depth + 1))));
  }
  if (typeof v === "object") return fields(v, depth + 1);
  if (typeof v === "boolean") return h("span", {}, v ? "yes" : "no");
  return h("span", {}, String(v));
}

function fields(object, depth) {
  return h("dl", { class: depth ? "generic nested" : "generic" },
    Object.entries(object).filter(([k]) => !SKIP.has(k)).map(([k, v]) =>
      h("div", { class: "pair", "data-key": k }, h("dt", {}, titled(k)), h("dd", {}, value(v, depth)))));
}

/** Any board as a definition list. */
export function genericTable(board) {
  return h("div", { class: "generic-table" }, fields(board ?? {}, 0));
}
