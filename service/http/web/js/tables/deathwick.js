// Deathwick's table: the circle of seats (Candle sizes, hands, classes with their powers, each
// Shadow's ghosts by suit with who sent them), The Dark with its top, your hand and Sights, the
// acting group of the step and an open reaction window with who may answer.

import { h, titled } from "../dom.js";
import { explain } from "../cardinfo.js";
import { cardBack, cardFace } from "./cards.js";

const SUITS = { S: ["♠", "ink", "spades"], H: ["♥", "red", "hearts"], C: ["♣", "ink", "clubs"], D: ["♦", "red", "diamonds"] };
const WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

/** A Deathwick card by its code ("9S", "10D", "JOKER"), titled by its Grimoire name. */
export function dwCard(code, size = "m", extra = "") {
  if (!code) return cardBack(undefined, size);
  const spell = explain(code)[0]?.name;
  if (code === "JOKER") return cardFace({ rank: "", title: spell ?? "Joker", sigil: "☠", size, colour: "red", extra, code });
  const rank = code.slice(0, -1);
  const [suit, colour, suitWord] = SUITS[code.slice(-1)] ?? ["?", "ink", ""];
  const name = `${WORDS[rank] ?? rank} of ${suitWord}`;
  return cardFace({ rank, suit, title: spell ? `${spell}: ${name}` : name, sigil: suit, size, colour, extra, code });
}

const nameOf = (view, seat) => view.players[seat]?.name ?? `seat ${seat}`;

/** A class as a chip whose power is written beside it (hover or tap it for the same text). */
function curseChip(name, chosen = false) {
  const text = explain(name)[0];
  return h("span", { class: `curse${chosen ? " chosen" : ""}`, "data-card": name },
    h("strong", {}, text?.name ?? titled(name)), text ? h("span", { class: "power" }, ` ${text.text}`) : null);
}

/** A Shadow: its ghosts grouped by suit (three of a suit at a turn's end possess), each with who sent it. */
function shadow(player, view) {
  if (!player.shadow.length) return h("p", { class: "meta" }, "Shadow: no ghosts");
  const bySuit = new Map();
  for (const ghost of player.shadow) {
    const suit = ghost.card.slice(-1);
    if (!bySuit.has(suit)) bySuit.set(suit, []);
    bySuit.get(suit).push(ghost);
  }
  return h("div", { class: "shadow", role: "group", "aria-label": `${player.name}'s Shadow` },
    [...bySuit.entries()].map(([suit, ghosts]) => h("div", { class: `ghost-suit${ghosts.length >= 2 ? " danger" : ""}` },
      h("span", { class: "meta" }, `${SUITS[suit]?.[2] ?? suit} ${ghosts.length}/3`),
      ghosts.map((g) => h("div", { class: "ghost" }, dwCard(g.card, "xs"),
        h("span", { class: "origin" }, g.by === null ? "from the Candle" : `from ${nameOf(view, g.by)}`,
          g.bound ? ` · ${titled(g.bound)}` : ""))))));
}

function seatPanel(player, view) {
  const acting = view.turns.find((t) => t.seat === player.seat);
  const answering = view.pending?.answering.includes(player.seat);
  const state = player.alive ? (acting ? "to-act" : "") : "out";
  return h("section", { class: `seat ${state}${player.you ? " you" : ""}`, "data-seat": player.seat,
    "aria-label": `${player.name}${player.you ? " (you)" : ""}` },
    h("header", {}, h("strong", {}, player.name, player.you ? " (you)" : ""),
      player.alive ? null : h("span", { class: "badge out" }, player.fate ? titled(player.fate) : "out"),
      acting ? h("span", { class: "badge turn" }, `turn: ${acting.phase}`) : null,
      answering ? h("span", { class: "badge turn" }, "may answer") : null),
    player.curse ? curseChip(player.curse, true) : null,
    view.phase === "draft" && !player.curse ? h("div", { class: "offer" }, h("span", { class: "meta" }, "Offered:"),
      player.offer.map((c) => curseChip(c))) : null,
    h("div", { class: "row" },
      h("span", { class: "candle" }, `Candle ${player.candle}`),
      h("span", { class: "meta" }, `· hand ${player.hand}`)),
    h("p", { class: "meta neighbours" }, `← ${nameOf(view, player.left)} · ${nameOf(view, player.right)} →`),
    shadow(player, view));
}

/** When each seat that may answer must have answered (with a turn clock), in local time. */
function answerBy(p, view, match) {
  const due = (match?.deadlines ?? []).filter((d) => p.answering.includes(d.seat));
  if (!due.length) return null;
  return h("p", { class: "meta" }, "The window's clock: ", due.map((d) =>
    `${nameOf(view, d.seat)} by ${new Date(d.deadline).toLocaleTimeString()}`).join(", "),
  " (then it is allowed)");
}

function windowPanel(view, match) {
  const p = view.pending;
  if (!p) return null;
  return h("section", { class: "window", "aria-label": "Reaction window" },
    h("h2", {}, "On the table"),
    h("div", { class: "row" }, p.card ? dwCard(p.card, "s") : null, h("p", {}, p.text)),
    h("p", {}, p.answering.length ? `May answer now: ${p.answering.map((s) => nameOf(view, s)).join(", ")}` : "Resolving",
      p.salts_by.length ? ` · Salt thrown by ${p.salts_by.map((s) => nameOf(view, s)).join(", ")}` : "",
      p.depth > 1 ? ` · window ${p.depth}` : ""),
    answerBy(p, view, match),
    h("p", { class: "meta" }, "A Salt (a 5) cancels an action that targets you; a Salt answers a Salt."));
}

function dark(view) {
  const [top, ...rest] = view.dark;
  return h("div", { class: "pile dark", role: "group", "aria-label": `The Dark: ${view.dark.length} cards, top first` },
    h("span", { class: "meta" }, `The Dark (${view.dark.length})`),
    top ? h("div", { class: "dark-top" }, h("span", { class: "badge" }, "top"), dwCard(top, "s")) : h("span", { class: "meta" }, "empty"),
    rest.slice(0, 8).map((c) => dwCard(c, "xs")),
    rest.length > 8 ? h("span", { class: "meta" }, `+${rest.length - 8} more`) : null);
}

/** The whole circle from the view's seat (or the gallery). */
export function deathwickTable(board, view) {
  const order = board.arcs.flat().length ? [...new Set([...board.arcs.flat(), ...board.players.map((p) => p.seat)])]
    : board.players.map((p) => p.seat);
  const acting = board.turns.map((t) => nameOf(board, t.seat)).join(", ");
  const result = board.result;
  return h("div", { class: "dw" },
    h("p", { class: "meta" }, board.phase === "draft" ? "Choosing classes" : `Round ${board.round} · step ${board.step + 1}`,
      acting ? ` · acting now: ${acting}` : "", board.arcs.length > 1 ? ` · ${board.arcs.length} groups act at once` : ""),
    result ? h("p", { class: "result" }, "Winner: ", result.winners.map((w) => nameOf(board, w)).join(", ") || "nobody") : null,
    windowPanel(board, view),
    h("div", { class: "seats-ring" }, order.map((seat) => seatPanel(board.players[seat], board))),
    h("div", { class: "middle" }, dark(board)),
    board.you !== null && board.you !== undefined ? h("section", { class: "hand", "aria-label": "Your hand" },
      h("h2", {}, `Your hand (${board.hand.length})`),
      h("div", { class: "row" }, board.hand.length ? board.hand.map((c) => dwCard(c, "l")) : h("span", { class: "meta" }, "empty"))) : null,
    board.sights.length ? h("section", { class: "notes", "aria-label": "Your Sights" }, h("h2", {}, "What you saw"),
      board.sights.map((s) => h("div", { class: "row" }, h("span", {}, `${nameOf(board, s.target)}'s hand:`), s.cards.map((c) => dwCard(c, "xs"))))) : null);
}

/** Moves grouped by the card they play (or what they are). */
export function deathwickGroup(command) {
  if (command.type === "choose_class") return "Choose your class";
  if (command.type === "allow" || command.type === "salt" || command.type === "cancel_haunt") return "Answer";
  if (command.type === "discard") return "Discard (over your hand limit)";
  if (command.type === "panic") return "Panic";
  if (command.type === "pass") return "Pass";
  if (!command.card) return titled(command.type);
  const [suit] = SUITS[command.card.slice(-1)] ?? [""];
  const spell = explain(command.card)[0]?.name;
  return command.card === "JOKER" ? `${spell ?? "Joker"}: the joker` : `${spell ? `${spell}: ` : ""}${command.card.slice(0, -1)}${suit}`;
}

export const deathwickRules = [
  "Two to twenty players each burn a Candle of 27 cards. At the start of your turn each ghost in your Shadow makes you burn one card of your Candle.",
  "On your turn, Haunt a neighbour with a number card (it becomes a ghost in their Shadow), Cast a card for its Grimoire effect, Banish a ghost of your own Shadow with a card that meets or beats it, Panic, or pass. Over your hand limit (5) you discard.",
  "You are out when your Candle cannot pay a Burn, or when three ghosts of one suit sit in your Shadow at the end of your turn. The last one standing wins. A Salt (a 5) cancels what targets you.",
];
