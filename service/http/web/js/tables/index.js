// Which table draws a game's view: a game's own where it has one, else the generic table
// (any game's view as labelled values). A new game adds its module here: its table, how its
// moves are grouped for picking, and its short rules.

import { h } from "../dom.js";
import { deathwickGroup, deathwickRules, deathwickTable } from "./deathwick.js";
import { emberGroup, emberRules, emberTable } from "./ember.js";
import { genericTable } from "./generic.js";
import { wickEmberGroup, wickEmberRules, wickEmberTable } from "./wick-and-ember.js";
import { whiteoutGroup, whiteoutRules, whiteoutTable } from "./whiteout-road.js";

const TABLES = {
  "wick-and-ember": { draw: wickEmberTable, group: wickEmberGroup, rules: wickEmberRules },
  "whiteout-road": { draw: whiteoutTable, group: whiteoutGroup, rules: whiteoutRules },
  deathwick: { draw: deathwickTable, group: deathwickGroup, rules: deathwickRules },
  ember: { draw: emberTable, group: emberGroup, rules: emberRules },
};

/** The view's board drawn as its game's table (view: a MatchView with a board). */
export function drawTable(view) {
  const table = TABLES[view.game];
  return h("div", { class: `board game-${view.game}`, "data-game": view.game, "data-version": view.version },
    table ? table.draw(view.board, view) : genericTable(view.board, view));
}

/** A game's short rules, as sentences, from its cards' texts where it needs them (none for a
 * game without a table of its own). */
export function rulesOf(game, cards) {
  const rules = TABLES[game]?.rules ?? [];
  return typeof rules === "function" ? rules(cards) : rules;
}

/** The legal actions grouped for picking: [[title, actions], ...] (one untitled group by default). */
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
