// Ember's table: the Pool (creatures by VP with their costs), the dragons' parts and the
// artifacts on offer, every wizard's VP, hand count and cards in front of them (ready, exhausted,
// burned), your hand, your tutor, the Charred pile, the deck and the Call.

import { h, titled } from "../dom.js";
import { allCards, explain } from "../cardinfo.js";
import { cardBack, cardFace } from "./cards.js";

const ELEMENTS = { fire: ["♨", "we-8"], water: ["≋", "we-2"], air: ["☁", "we-6"], earth: ["☘", "we-3"] };

/** A wizard card from a hand or the Charred pile: "earth-11", "archmage". */
export function wizardCard(code, size = "m") {
  if (code === "archmage") return cardFace({ rank: "", title: "Archmage", sigil: "✶", size, colour: "we-4", code });
  const [element, number] = code.split("-");
  const [sigil, colour] = ELEMENTS[element] ?? ["?", "ink"];
  return cardFace({ rank: number, title: `${titled(element)} ${number}`, sigil, size, colour });
}

/** A creature, dragon part, artifact or tutor by its id, titled by its name. */
export function emberCard(code, name, size = "m", extra = "") {
  const element = Object.keys(ELEMENTS).find((e) => (explain(code)[0]?.text ?? "").includes(`, ${e}`));
  const [sigil, colour] = ELEMENTS[element] ?? ["✦", "ink"];
  return cardFace({ rank: "", title: name ?? explain(code)[0]?.name ?? titled(code), sigil, size, colour, extra, code });
}

/** Each cost's name with what it is, read from the cards' own texts ("a run3 (three consecutive numbers)"). */
export function costGlossary(cards) {
  const glossary = new Map();
  for (const card of cards ?? []) {
    for (const [, name, what] of card.text.matchAll(/\ba (\w+(?: of \w+)?) \(([^)]+)\)/g)) glossary.set(name, what);
  }
  return glossary;
}

function offer(o, glossary) {
  const words = o.cost.split(" + ").map((part) => glossary.get(part) ?? part).join(", and ");
  return h("li", { class: "offer-card" }, emberCard(o.card, o.name, "s"),
    h("span", {}, h("strong", {}, o.name), ` · ${o.vp} VP · cost `,
      h("abbr", { title: words }, o.cost)));
}

function inFront(card) {
  const state = card.burned ? "burned" : card.turned;
  return h("li", { class: `in-front ${state}` }, emberCard(card.card, card.name, "xs", state),
    h("span", {}, card.name ?? "face down", h("span", { class: `badge ${state === "ready" ? "lit" : "out"}` }, state),
      card.drained ? h("span", { class: "badge" }, "drained") : null));
}

function wizard(seat, board) {
  const turn = board.to_act.includes(seat.seat);
  return h("section", { class: `seat${turn ? " to-act" : ""}${seat.you ? " you" : ""}${seat.conceded ? " conceded" : ""}`,
    "data-seat": seat.seat, "aria-label": `${seat.name}${seat.you ? " (you)" : ""}` },
    h("header", {}, h("strong", {}, seat.name, seat.you ? " (you)" : ""),
      h("span", { class: "badge lit" }, `${seat.vp} VP`),
      turn ? h("span", { class: "badge turn" }, "to act") : null,
      seat.conceded ? h("span", { class: "badge out" }, "conceded") : null),
    h("p", { class: "meta" }, `Hand ${seat.cards_in_hand} of ${seat.hand_size}`),
    seat.tutor ? h("div", { class: "row" }, h("span", { class: "meta" }, "Tutor:"), emberCard(seat.tutor, null, "xs"),
      h("span", {}, explain(seat.tutor)[0]?.name ?? titled(seat.tutor))) : null,
    seat.cards.length ? h("ul", { class: "front" }, seat.cards.map(inFront)) : h("p", { class: "meta" }, "Nothing in front yet"));
}

function call(board) {
  const c = board.call;
  if (!c) return h("p", { class: "meta" }, `The Call: open to a wizard with ${board.call_at} VP or more`);
  const names = (seats) => seats.map((s) => board.seats[s]?.name ?? s).join(", ");
  return h("p", { class: "call" }, c.caller === null ? "The Call has come (the turn cap)" : `${board.seats[c.caller]?.name} made the Call`,
    c.final_turns.length ? ` · final turns: ${names(c.final_turns)}` : "");
}

/** The whole table from the view's seat (or the gallery). */
export function emberTable(board) {
  const result = board.result;
  const glossary = costGlossary(allCards());
  const offers = (list) => h("ul", { class: "offers" }, list.map((o) => offer(o, glossary)));
  return h("div", { class: "em" },
    h("p", { class: "meta" }, `Round ${board.round} · ${titled(board.step)} step · deck ${board.deck_size} · turn cap ${board.turn_cap}`),
    call(board),
    result ? h("p", { class: "result" }, "Winner: ", result.winners.map((w) => board.seats[w]?.name).join(", "),
      " · ", board.seats.map((s, i) => `${s.name} ${result.scores[i]} VP`).join(", ")) : null,
    h("div", { class: "seats-ring" }, board.seats.map((s) => wizard(s, board))),
    board.you !== null && board.you !== undefined ? h("section", { class: "hand", "aria-label": "Your hand" },
      h("h2", {}, `Your hand (${board.hand.length})`),
      h("div", { class: "row" }, board.hand.length ? board.hand.map((c) => wizardCard(c, "m")) : h("span", { class: "meta" }, "empty"))) : null,
    h("section", { class: "pool", "aria-label": "The Pool" }, h("h2", {}, "The Pool"),
      offers(board.pool),
      board.face_down_groups.length ? h("p", { class: "meta" }, `Face down still: groups ${board.face_down_groups.join(", ")}`) : null),
    board.dragon_piles.length ? h("section", { class: "pool", "aria-label": "Dragons" }, h("h2", {}, "Dragons"),
      offers(board.dragon_piles)) : null,
    board.artifacts.length ? h("section", { class: "pool", "aria-label": "Artifacts" }, h("h2", {}, "Artifacts"),
      offers(board.artifacts)) : null,
    h("div", { class: "middle" },
      h("div", { class: "pile" }, h("span", { class: "meta" }, "Deck"), cardBack(board.deck_size, "s", "card in the deck")),
      h("div", { class: "pile" }, h("span", { class: "meta" }, `Charred (${board.charred.length})`),
        board.charred.slice(-6).map((c) => wizardCard(c, "xs")))));
}

/** Moves grouped by what they are. */
export function emberGroup(command) {
  switch (command.type) {
    case "conjure": return "Conjure";
    case "use_ability": return "Use an ability";
    case "play_archmage": return "Play an Archmage";
    case "end_turn": return "End your turn";
    default: return "Draw or refresh";
  }
}

const EMBER_RULES = [
  "A turn: your cards advance (exhausted to ready); draw (at hand size, recycle a card to draw) or refresh your whole hand; conjure at most one creature, dragon part or artifact from the Pool by paying its cost in wizard cards; end your turn, discarding down to your hand size.",
  "A cost is a set of wizard cards (numbers 1 to 13 in four elements; an Archmage stands for any card): the names are explained below. Creatures score their VP; a Spectral is conjured onto an opponent, who loses its VP. Exhaust a ready card for its ability, at any time.",
  "At or above the Call's VP a wizard may make the Call as its turn ends: everyone else gets one final turn, abilities are used in turn until all pass, tutors are revealed and scored; the highest score wins.",
];

/** Ember's rules, with each cost's name explained from the cards' own texts. */
export function emberRules(cards) {
  const costs = [...costGlossary(cards).entries()].filter(([name]) => !name.includes(" of "));
  return [...EMBER_RULES, `Costs: ${costs.map(([name, what]) => `${name} is ${what}`).join("; ")}.`];
}
