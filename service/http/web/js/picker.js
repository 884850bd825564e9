// Moves by picking: the seat's legal actions, grouped by its game's table (a card, or what the
// move is), then narrowed one field at a time (the move's kind, its target, its option); where
// moves differ only by a set of cards (Ember's discard, a payment), a chooser of those cards
// that sends the one command the chosen set names. Every step has its keys: 1-9 then a-z,
// Escape goes back.

import { h, titled } from "./dom.js";
import { explain } from "./cardinfo.js";

const KEYS = "123456789abcdefghijklmnopqrstuvwxyz";
const SEAT_FIELDS = new Set(["target", "onto", "seat"]);

/** The fields in which a set of commands differ: single values first, then lists of cards. */
function varying(actions) {
  const fields = new Set(actions.flatMap((a) => Object.keys(a.command)));
  const differ = [...fields].filter((f) => new Set(actions.map((a) => JSON.stringify(a.command[f] ?? null))).size > 1);
  const list = (f) => actions.some((a) => Array.isArray(a.command[f]));
  return [...differ.filter((f) => !list(f)), ...differ.filter(list)];
}

/** A field's value in words: a seat's name, a card's name, the move's kind. */
function worded(field, value, view) {
  if (value === null || value === undefined) return field === "target" || field === "onto" ? "no one" : "none";
  if (SEAT_FIELDS.has(field) && typeof value === "number") return view.players[value]?.name ?? `seat ${value}`;
  if (typeof value === "boolean") return value ? `${titled(field)}: yes` : `${titled(field)}: no`;
  return explain(String(value))[0]?.name ?? titled(String(value));
}

const sameCards = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * The picker's state: the group picked and the choices made in it, kept across redraws while
 * they still fit the legal actions.
 */
export class Picker {
  constructor(send) {
    this.send = send;
    this.group = null;
    this.path = []; // [[field, value], ...]
    this.chosen = [];
  }

  /** Play an action, or open its chooser when it is a template (a set of cards to choose). */
  pick(action, redraw) {
    if (!action.choose) return this.send(action);
    this.template = action.label;
    // Start from the set the template's command holds (a legal one); the seat changes it at will.
    const { field, among } = action.choose;
    this.chosen = [];
    for (const card of action.command[field] ?? []) {
      const i = among.findIndex((c, j) => c === card && !this.chosen.includes(j));
      if (i >= 0) this.chosen.push(i);
    }
    redraw(true);
  }

  back() {
    if (this.template !== null) { this.template = null; this.chosen = []; }
    else if (this.chosen.length) this.chosen = [];
    else if (this.path.length) this.path.pop();
    else this.group = null;
  }

  reset() {
    this.group = null;
    this.path = [];
    this.chosen = [];
    this.template = null;
  }

  /** The buttons (or the chooser) for the current step, given the grouped actions. */
  draw(view, groups, disabled, redraw) {
    const open = groups.find(([title]) => title === this.group);
    if (this.group !== null && !open) this.reset();
    let step = 0;
    const key = () => KEYS[step++] ?? null;
    const button = (text, onclick, extra = {}, fixed = undefined) => {
      const k = fixed === undefined ? key() : fixed;
      return h("button", { type: "button", class: "action", disabled, "data-key": k, "aria-keyshortcuts": k, onclick, ...extra },
        k ? h("kbd", {}, k === "Escape" ? "Esc" : k) : null, text);
    };
    if (!open && groups.length > 1) {
      return [h("p", { class: "meta", id: "pick-step" }, "Pick a card or a move:"),
        h("div", { class: "action-group" }, groups.map(([title, list]) =>
          button(list.length === 1 ? list[0].label : `${title} (${list.length})`, () => {
            this.group = title;
            if (list.length === 1) this.pick(list[0], redraw);
            else { this.group = title; redraw(true); }
          })))];
    }
    const [title, all] = open ?? groups[0];
    let actions = all;
    for (const [field, value] of this.path) actions = actions.filter((a) => JSON.stringify(a.command[field] ?? null) === value);
    if (!actions.length) { this.reset(); return this.draw(view, groups, disabled, redraw); }
    const backButton = groups.length > 1 || this.path.length || this.chosen.length || this.template !== null
      ? button("Back", () => { this.back(); redraw(true); }, { class: "action back" }, "Escape")
      : null;
    const fields = varying(actions);
    const heading = h("p", { class: "meta", id: "pick-step" }, title ? `${title}: ` : "", fields.length ? `choose ${fields[0] === "type" ? "how" : titled(fields[0]).toLowerCase()}` : "");
    const template = actions.find((a) => a.choose && a.label === this.template);
    if (template) return [heading, this.templateChooser(template, button, disabled, redraw), backButton];
    if (!fields.length || actions.length === 1) {
      return [heading, h("div", { class: "action-group" }, actions.map((a) => button(a.label, () => this.pick(a, redraw))), backButton)];
    }
    const field = fields[0];
    if (Array.isArray(actions[0].command[field])) return [heading, this.chooser(actions, field, button, disabled, redraw), backButton];
    const values = [...new Set(actions.map((a) => JSON.stringify(a.command[field] ?? null)))];
    return [heading, h("div", { class: "action-group" }, values.map((value) => {
      const matching = actions.filter((a) => JSON.stringify(a.command[field] ?? null) === value);
      const text = matching.length === 1 ? matching[0].label : `${worded(field, JSON.parse(value), view)} (${matching.length})`;
      return button(text, () => {
        if (matching.length === 1) this.pick(matching[0], redraw);
        else { this.path.push([field, value]); redraw(true); }
      });
    }), backButton)];
  }

  /** Check the cards of a set; the move is sent once the chosen set is exactly a legal one. */
  chooser(actions, field, button, disabled, redraw) {
    const counts = new Map();
    for (const a of actions) {
      const here = new Map();
      for (const card of a.command[field]) here.set(card, (here.get(card) ?? 0) + 1);
      for (const [card, n] of here) counts.set(card, Math.max(n, counts.get(card) ?? 0));
    }
    const slots = [...counts.entries()].flatMap(([card, n]) => Array.from({ length: n }, (_, i) => [card, i]));
    const sizes = [...new Set(actions.map((a) => a.command[field].length))].sort((a, b) => a - b);
    const match = actions.find((a) => sameCards(a.command[field], this.chosen));
    const picked = (card, i) => this.chosen.filter((c) => c === card).length > i;
    const toggle = (card, i) => {
      if (picked(card, i)) this.chosen.splice(this.chosen.lastIndexOf(card), 1);
      else this.chosen.push(card);
      redraw(false);
    };
    const need = sizes.length === 1 ? `exactly ${sizes[0]}` : `${sizes[0]} to ${sizes[sizes.length - 1]}`;
    return h("fieldset", { class: "chooser" },
      h("legend", {}, `Choose ${need} card${sizes[sizes.length - 1] === 1 ? "" : "s"} (${titled(field).toLowerCase()}): ${this.chosen.length} chosen`),
      h("div", { class: "action-group" }, slots.map(([card, i]) => {
        const b = button(explain(card)[0]?.name ?? titled(card), () => toggle(card, i),
          { class: `action pick${picked(card, i) ? " on" : ""}`, "aria-pressed": picked(card, i) ? "true" : "false" });
        return b;
      })),
      button(match ? match.label : "Choose a set the rules allow", () => match && this.send(match),
        { class: "action primary", disabled: disabled || !match }));
  }

  /** A template's chooser: exactly ``count`` of the cards ``among``, sent as one command. */
  templateChooser(action, button, disabled, redraw) {
    const { field, count, among, rule } = action.choose;
    const picked = (i) => this.chosen.includes(i);
    const ready = this.chosen.length === count;
    const cards = this.chosen.map((i) => among[i]).sort();
    const toggle = (i) => {
      if (picked(i)) this.chosen = this.chosen.filter((j) => j !== i);
      else if (this.chosen.length < count) this.chosen.push(i);
      else { this.chosen.shift(); this.chosen.push(i); } // full: the earliest choice makes way
      redraw(false);
    };
    const words = cards.map((c) => explain(c)[0]?.name ?? titled(c)).join(", ");
    return h("fieldset", { class: "chooser" },
      h("legend", {}, `${action.label}: choose ${count} (${this.chosen.length} chosen)`),
      rule ? h("p", { class: "meta" }, `The rule: ${rule}.`) : null,
      h("div", { class: "action-group" }, among.map((card, i) =>
        button(explain(card)[0]?.name ?? titled(card), () => toggle(i),
          { class: `action pick${picked(i) ? " on" : ""}`, "aria-pressed": picked(i) ? "true" : "false" }))),
      button(ready ? `Send: ${titled(field)} ${words}` : `Choose ${count - this.chosen.length} more`,
        () => ready && this.send({ label: action.label, command: { ...action.command, [field]: cards } }),
        { class: "action primary", disabled: disabled || !ready }));
  }
}
