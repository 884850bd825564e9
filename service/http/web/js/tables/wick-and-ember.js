// Wick & Ember's table: every seat's lantern (lit, veiled, out), embers and lantern log, the
// deck, the cards set aside, the ash; your hand and your Lensmaker notes.

import { h, titled } from "../dom.js";
import { cardBack, cardFace } from "./cards.js";

const RANKS = ["lamp_warden", "lensmaker", "gale", "veilkeeper", "sootsweep", "ferrywoman",
  "moth_duchess", "hearthflame"];
const SIGILS = ["☀", "◎", "≋", "☾", "✧", "⚓", "♛", "♨"];

/** A Wick & Ember card by its name ("gale"). */
export function weCard(name, size = "m") {
  const i = RANKS.indexOf(name);
  if (i < 0) return cardBack(undefined, size, titled(name));
  return cardFace({ rank: i + 1, title: titled(name), sigil: SIGILS[i], size, colour: `we-${i + 1}`, code: name });
}

function embers(n, target) {
  return h("span", { class: "embers", role: "img", "aria-label": `${n} of ${target} embers`, title: `${n} of ${target} embers` },
    Array.from({ length: target }, (_, i) => h("span", { class: i < n ? "ember on" : "ember", "aria-hidden": "true" }, "●")),
    h("span", { class: "ember-count", "aria-hidden": "true" }, ` ${n}/${target}`));
}

function seatPanel(seat, board) {
  const state = seat.conceded ? "conceded" : !seat.lit ? "out" : seat.veiled ? "veiled" : "lit";
  const turn = board.turn === seat.seat;
  return h("section", { class: `seat ${state}${turn ? " to-act" : ""}${seat.you ? " you" : ""}`,
    "aria-label": `${seat.name}${seat.you ? " (you)" : ""}`, "data-seat": seat.seat },
    h("header", {}, h("strong", {}, seat.name, seat.you ? " (you)" : ""),
      h("span", { class: `badge ${state}` }, { lit: "lantern lit", out: "lantern out", veiled: "veiled", conceded: "conceded" }[state]),
      turn ? h("span", { class: "badge turn" }, "to act") : null),
    embers(seat.embers, board.ember_target),
    h("div", { class: "row" }, h("span", { class: "meta" }, "Hand"),
      seat.you ? null : Array.from({ length: seat.cards_in_hand }, () => cardBack(undefined, "xs")),
      seat.you ? h("span", { class: "meta" }, ` ${seat.cards_in_hand} card${seat.cards_in_hand === 1 ? "" : "s"}`) : null),
    h("div", { class: "row lantern-log", role: "group", "aria-label": "Lantern log" }, h("span", { class: "meta" }, "Played"),
      seat.lantern_log.length ? seat.lantern_log.map((c) => weCard(c, "xs")) : h("span", { class: "meta" }, " nothing yet")));
}

/** The card counter: how many of each card are still unseen (the view's ``counter``). */
function counterPanel(counter) {
  if (!counter) return null;
  return h("section", { class: "counter", "aria-labelledby": "counter-title" },
    h("h2", { id: "counter-title" }, "Still unseen"),
    h("ul", { class: "counts" }, RANKS.filter((name) => name in counter).map((name) =>
      h("li", { "data-card": name }, weCard(name, "xs"), ` ${titled(name)} × ${counter[name]}`))));
}

/** The whole table from the view's seat (or the gallery). */
export function wickEmberTable(board) {
  const you = board.seats.find((s) => s.you);
  const result = board.result;
  return h("div", { class: "we" },
    h("p", { class: "meta" }, `Round ${board.round} · first to ${board.ember_target} embers · ${board.deck} deck`),
    result ? h("p", { class: "result" }, "Winner: ", result.winners.map((w) => board.seats[w]?.name).join(", ")) : null,
    h("div", { class: "seats-ring" }, board.seats.map((s) => seatPanel(s, board))),
    h("div", { class: "middle" },
      h("div", { class: "pile" }, h("span", { class: "meta" }, "Deck"), cardBack(board.deck_size, "s", "card in the deck")),
      h("div", { class: "pile" }, h("span", { class: "meta" }, "Set aside"),
        // Face up once shown; face down while it lies there; gone once dealt out.
        board.set_aside ? weCard(board.set_aside, "s")
          : board.set_aside_dealt ? h("span", { class: "meta" }, "dealt out")
            : cardBack(undefined, "s", "card set aside face down"),
        board.face_up.map((c) => weCard(c, "s"))),
      h("div", { class: "pile" }, h("span", { class: "meta" }, "Ash"),
        board.ash.length ? board.ash.map((c) => weCard(c, "xs")) : h("span", { class: "meta" }, "none"))),
    counterPanel(board.counter),
    you ? h("section", { class: "hand", "aria-label": "Your hand" }, h("h2", {}, "Your hand"),
      h("div", { class: "row" }, board.hand.map((c) => weCard(c, "l")))) : null,
    board.notes.length ? h("section", { class: "notes", "aria-label": "Your notes" }, h("h2", {}, "Your notes"),
      h("ul", {}, board.notes.map((n) => h("li", {}, n.text)))) : null,
    result?.dawn?.length ? h("section", { class: "notes" }, h("h2", {}, "At dawn"),
      h("ul", {}, result.dawn.map((d) => h("li", {}, `${board.seats[d.seat]?.name ?? d.seat}: ${titled(d.card ?? "")}`)))) : null);
}

/** Moves grouped by the card they play. */
export function wickEmberGroup(command) {
  return command.card ? `Play the ${titled(command.card)}` : "Other";
}

export const wickEmberRules = [
  "Each round every seat holds one hidden card. On your turn you draw a second card and play one of the two face up into your lantern log; the card acts (hover or tap a card for what it does).",
  "A round ends when one flame is left lit, or when the deck runs out: at dawn the highest hidden card wins. Each round's winner banks an ember; the first to the ember target wins the night.",
];
