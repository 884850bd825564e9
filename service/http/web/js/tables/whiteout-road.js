// Whiteout Road's table: the road with its three wagons (space 0 to Town at 6) and their
// stores, the snow against the burial mark, the Fate deck and discard, every traveller, your
// hand and your face-down card.

import { h, s, titled } from "../dom.js";
import { cardBack, cardFace } from "./cards.js";

const SUITS = { H: ["♥", "red"], D: ["♦", "red"], C: ["♣", "ink"], S: ["♠", "ink"] };
const TOWN = 6;

/** A Whiteout Road card by its name ("9H", "TD", "WHITEOUT"). */
export function wrCard(name, size = "m") {
  if (!name) return cardBack(undefined, size);
  if (name === "WHITEOUT") return cardFace({ rank: "", title: "Whiteout", sigil: "❄", size, colour: "snow", code: name });
  const rank = name.slice(0, -1);
  const [suit, colour] = SUITS[name.slice(-1)] ?? ["?", "ink"];
  const shown = { T: "10", J: "J", Q: "Q", K: "K", A: "A" }[rank] ?? rank;
  const word = { T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace" }[rank] ?? rank;
  const suitWord = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" }[name.slice(-1)] ?? "";
  return cardFace({ rank: shown, suit, title: `${word} of ${suitWord}`, sigil: suit, size, colour, code: name });
}

function road(board) {
  const width = 340;
  const step = (width - 40) / TOWN;
  const rows = board.wagons.map((w, i) => {
    const y = 24 + i * 30;
    return [
      s("text", { x: 2, y: y + 4, class: "road-label" }, titled(w.wagon)),
      s("line", { x1: 80, y1: y, x2: 80 + step * TOWN * 0.8, y2: y, class: "road-line" }),
      Array.from({ length: TOWN + 1 }, (_, p) => s("circle", { cx: 80 + p * step * 0.8, cy: y, r: 3, class: p === TOWN ? "town" : "space" })),
      s("rect", { x: 80 + w.position * step * 0.8 - 9, y: y - 8, width: 18, height: 14, rx: 3,
        class: `wagon ${w.suit}${w.laden ? " laden" : ""}` }),
    ];
  });
  return s("svg", { viewBox: `0 0 ${width} ${24 + board.wagons.length * 30}`, class: "road", role: "img",
    "aria-label": board.wagons.map((w) => `${titled(w.wagon)} wagon on space ${w.position} of ${TOWN}${w.laden ? ", laden" : ""}`).join("; ") },
    rows,
    s("text", { x: 80 + step * TOWN * 0.8, y: 10, class: "road-label", "text-anchor": "middle" }, "Town"));
}

function snow(board) {
  const mark = Math.max(board.burial_mark, 1);
  const fill = Math.min(board.snow / mark, 1);
  return h("div", { class: "snow" }, h("span", { class: "meta" }, `Snow ${board.snow} of ${board.burial_mark}`),
    s("svg", { viewBox: "0 0 200 12", class: "snow-bar", role: "img", "aria-label": `snow ${board.snow} of ${board.burial_mark}` },
      s("rect", { x: 0, y: 0, width: 200, height: 12, rx: 3, class: "snow-empty" }),
      s("rect", { x: 0, y: 0, width: Math.round(200 * fill), height: 12, rx: 3, class: "snow-full" })));
}

function wagonPanel(w, board) {
  const name = (seat) => board.players[seat]?.name ?? `seat ${seat}`;
  const stores = (list, what) => list.length
    ? h("ul", { class: "stores" }, list.map((x) => h("li", {}, wrCard(x.card, "xs"), ` ${name(x.seat)}${x.pips ? ` · ${x.pips}` : ""}`)))
    : h("span", { class: "meta" }, ` no ${what}`);
  return h("section", { class: `wagon-panel ${w.suit}`, "aria-label": `${titled(w.wagon)} wagon` },
    h("header", {}, h("strong", {}, `${titled(w.wagon)} wagon`), h("span", { class: "meta" }, ` ${w.suit}, space ${w.position}${w.laden ? ", laden" : ""}`)),
    h("div", {}, h("span", { class: "meta" }, "Stores"), stores(w.stores, "stores")),
    w.pushes.length ? h("div", {}, h("span", { class: "meta" }, "Pushes"), stores(w.pushes, "pushes")) : null,
    w.flung.length ? h("div", {}, h("span", { class: "meta" }, "Flung"), stores(w.flung, "flings")) : null);
}

function traveller(p, board) {
  const owes = board.phase !== "over" && !p.committed && !p.conceded;
  return h("section", { class: `seat${p.you ? " you" : ""}${owes ? " to-act" : ""}`, "data-seat": p.seat,
    "aria-label": `${p.name}${p.you ? " (you)" : ""}` },
    h("header", {}, h("strong", {}, p.name, p.you ? " (you)" : ""),
      p.conceded ? h("span", { class: "badge out" }, "conceded")
        : p.committed ? h("span", { class: "badge lit" }, "committed") : owes ? h("span", { class: "badge turn" }, "choosing") : null),
    h("div", { class: "row" }, h("span", { class: "meta" }, `Gratitude ${p.score} · hand`),
      p.you ? h("span", { class: "meta" }, ` ${p.hand_size}`) : Array.from({ length: p.hand_size }, () => cardBack(undefined, "xs"))),
    h("div", { class: "row" }, h("span", { class: "meta" }, "Watch pile"),
      p.watch_pile.length ? p.watch_pile.map((c) => wrCard(c, "xs")) : h("span", { class: "meta" }, " empty")));
}

/** The whole road from the view's seat (or the roadside). */
export function whiteoutTable(board) {
  const you = board.players.find((p) => p.you);
  const result = board.result;
  return h("div", { class: "wr" },
    h("p", { class: "meta" }, `Night ${board.night} · ${board.phase === "gambit" ? "the Gambit" : board.phase === "over" ? "over" : "a beat"}`),
    result ? h("p", { class: "result" }, "Winner: ", result.winners.map((w) => board.players[w]?.name).join(", "),
      ` · gratitude: ${result.scores.map((s, i) => `${board.players[i]?.name ?? `seat ${i}`} ${s}`).join(", ")}`) : null,
    road(board),
    snow(board),
    h("div", { class: "wagons" }, board.wagons.map((w) => wagonPanel(w, board))),
    h("div", { class: "middle" },
      h("div", { class: "pile" }, h("span", { class: "meta" }, "Fate deck"), cardBack(board.fate_size, "s", "card in the Fate deck")),
      h("div", { class: "pile" }, h("span", { class: "meta" }, "Fate discard"),
        board.fate_discard.length ? board.fate_discard.slice(-6).map((c) => wrCard(c, "xs")) : h("span", { class: "meta" }, "none")),
      board.lost.length ? h("div", { class: "pile" }, h("span", { class: "meta" }, "Lost"), board.lost.map((c) => wrCard(c, "xs"))) : null),
    h("div", { class: "seats-ring" }, board.players.map((p) => traveller(p, board))),
    you ? h("section", { class: "hand", "aria-label": "Your hand" }, h("h2", {}, "Your hand"),
      board.commitment ? h("p", { class: "meta" }, "Your face-down card: ", wrCard(board.commitment.card, "s"),
        ` to ${board.commitment.play}${board.commitment.wagon ? ` the ${board.commitment.wagon} wagon` : ""}`) : null,
      h("div", { class: "row" }, board.hand.map((c) => wrCard(c, "m")))) : null,
    board.nights.length ? h("section", { class: "notes" }, h("h2", {}, "Nights"),
      h("ul", {}, board.nights.map((n) => h("li", {}, `Night ${n.night}: ${titled(n.ending)}${n.through ? `, the ${n.through} wagon through` : ", buried"}`)))) : null);
}

/** Moves grouped by the card they commit. */
export function whiteoutGroup(command) {
  return command.card ? `The ${wrCard(command.card).querySelector("figcaption").textContent}` : "Other";
}

export const whiteoutRules = [
  "Two to six travellers drive three wagons (food, medicine, firewood) down a road of six spaces to Town before the snow reaches the burial mark.",
  "Each beat a Fate card is turned up (it rolls a wagon, brings a cold snap, or is the whiteout); then everyone commits one card face down at once: feed the fire, load stores onto a wagon, push a wagon, or break trail with a spade. The snow drifts one for everyone who did not feed.",
  "A night ends when a laden wagon reaches Town, the road is buried, at the whiteout, or when every hand is empty. Stores on the wagon that got through pay three times over; stores on the others count against you. Three nights; most gratitude wins.",
];
