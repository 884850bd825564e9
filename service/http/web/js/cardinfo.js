// What a card does, from the game's own data (GET /games/{game} cards): shown in one box at the
// foot of the screen when a card is hovered, focused or tapped, and in each game's rules panel.

import { h, put } from "./dom.js";

let known = new Map(); // code -> {code, name, text}

/** Learn the cards of the game on the table (the catalogue entry's `cards`). */
export function learnCards(cards) {
  known = new Map((cards ?? []).map((card) => [card.code, card]));
}

/** Every card text the game serves. */
export function allCards() {
  return [...known.values()];
}

/** Every text that explains a card as views write it: the card itself ("gale", "JOKER",
 * "dew_sprite"), else its rank without its suit ("9S" -> "9") and its suit ("S"). */
export function explain(code) {
  if (!code) return [];
  if (known.has(code)) return [known.get(code)];
  return [code.slice(0, -1), code.slice(-1)].filter((key) => key && known.has(key)).map((key) => known.get(key));
}

/** The words of a card's text, for its accessible name ("Possess: Move a ghost..."). */
export function described(code) {
  return explain(code).map((t) => `${t.name}: ${t.text}`).join(" ");
}

function box() {
  let el = document.getElementById("card-info");
  if (!el) {
    el = h("aside", { id: "card-info", class: "card-info", "aria-live": "polite", "aria-label": "Card", hidden: true });
    document.body.append(el);
  }
  return el;
}

let pinned = null; // the card element a tap or a focus opened the box for

function show(el) {
  const texts = explain(el.dataset.card);
  if (!texts.length) return;
  const info = box();
  put(info, texts.map((t) => h("p", {}, h("strong", {}, t.name), ": ", t.text)),
    h("button", { type: "button", class: "close", "aria-label": "Close the card's text", onclick: hide }, "×"));
  info.hidden = false;
}

function hide() {
  pinned = null;
  box().hidden = true;
}

/** Hover, focus and tap on any drawn card show its text; Escape or a tap elsewhere hides it. */
export function installCardInfo() {
  const cardOf = (event) => event.target.closest?.("[data-card]");
  document.addEventListener("pointerover", (event) => {
    const card = cardOf(event);
    if (card && event.pointerType === "mouse") show(card);
  });
  document.addEventListener("pointerout", (event) => {
    const card = cardOf(event);
    if (card && event.pointerType === "mouse" && card !== pinned) box().hidden = true;
  });
  document.addEventListener("focusin", (event) => {
    const card = cardOf(event);
    if (card) { pinned = card; show(card); }
  });
  document.addEventListener("click", (event) => {
    const card = cardOf(event);
    if (card) { pinned = card; show(card); }
    else if (!event.target.closest?.("#card-info")) hide();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
}

/** The short rules of a game and every card's text, folded under one disclosure. */
export function rulesPanel(title, rules) {
  const cards = [...known.values()];
  return h("details", { class: "rules", id: "rules" },
    h("summary", {}, `How to play ${title}`),
    (rules ?? []).map((line) => h("p", {}, line)),
    cards.length ? h("dl", { class: "card-texts" },
      cards.map((c) => h("div", {}, h("dt", {}, c.name), h("dd", {}, c.text)))) : null);
}
