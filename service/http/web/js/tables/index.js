// Which table draws a game's view: a game's own where it has one, else the generic table
// (any game's view as labelled values). A new game adds its module here.

import { h } from "../dom.js";
import { genericTable } from "./generic.js";
import { wickEmberTable, wickEmberGroup } from "./wick-and-ember.js";
import { whiteoutTable, whiteoutGroup } from "./whiteout-road.js";

const TABLES = {
  "wick-and-ember": { draw: wickEmberTable, group: wickEmberGroup },
  "whiteout-road": { draw: whiteoutTable, group: whiteoutGroup },
};

/** The view's board drawn as its game's table (view: a MatchView with a board). */
export function drawTable(view) {
  const table = TABLES[view.game];
  return h("div", { class: `board game-${view.game}`, "data-game": view.game, "data-version": view.version },
    table ? table.draw(view.board, view) : genericTable(view.board, view));
}

/** The legal actions grouped for buttons: [[title, actions], ...] (one untitled group by default). */
export function groupActions(view, actions) {
  const group = TABLES[view.game]?.group;
  if (!group) return [[null, actions]];
  const groups = new Map();
  for (const action of actions) {
    const key = group(action.command);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(action);
  }
  return [...groups.entries()];
}
