// Creating a tournament (/tournament/new): its name, game, format, table size and rounds, the
// turn clock, whether rounds start by themselves; the organizer token is kept in this browser.

import { call } from "./api.js";
import { $, h, put, say } from "./dom.js";

const FORMATS = [
  ["swiss", "Swiss: every round pairs entrants with equal points"],
  ["round-robin", "Round robin: everyone meets everyone"],
  ["single-elimination", "Single elimination: a table's losers leave"],
];

function field(id, label, input, help) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input,
    help ? h("small", { class: "help", id: `${id}-help` }, help) : null);
}

/** The creation page; ``keep(id, {organizer_token})`` stores the token before it opens the tournament. */
export async function createPage(keep) {
  document.title = "Hearthlog: a new tournament";
  $("main").className = "tournament";
  const { games } = await call("GET", "/games");
  const name = h("input", { id: "t-name", type: "text", maxlength: 100, required: true });
  const game = h("select", { id: "t-game" }, games.map((g) => h("option", { value: g.id }, g.title)));
  const format = h("select", { id: "t-format", "aria-describedby": "t-format-help" },
    FORMATS.map(([value, text]) => h("option", { value }, text)));
  const size = h("input", { id: "t-size", type: "number", min: 1, max: 64, value: 2, required: true, inputmode: "numeric" });
  const rounds = h("input", { id: "t-rounds", type: "number", min: 1, max: 64, placeholder: "the format's", inputmode: "numeric" });
  const clock = h("input", { id: "t-clock", type: "number", min: 1, max: 86400, placeholder: "no clock", inputmode: "numeric" });
  const auto = h("input", { id: "t-auto", type: "checkbox", checked: true });
  const form = h("form", { class: "game", "aria-labelledby": "new-title" },
    field("t-name", "Name", name),
    field("t-game", "Game", game),
    field("t-format", "Format", format, "How entrants are paired each round."),
    field("t-size", "Seats at a table", size, "Each table is one match of the game with this many seats."),
    field("t-rounds", "Rounds", rounds, "Leave empty for the format's own number."),
    field("t-clock", "Turn clock (seconds)", clock, "A seat out of time is played for."),
    h("div", { class: "field" }, h("label", { for: "t-auto" }, auto, " Start each round as the last table of the one before finishes")),
    h("button", { type: "submit", class: "primary" }, "Create the tournament"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { name: name.value, game: game.value, format: format.value,
        table_size: Number(size.value), auto_advance: auto.checked };
      if (rounds.value) body.rounds = Number(rounds.value);
      if (clock.value) body.turn_seconds = Number(clock.value);
      const made = await call("POST", "/tournaments", { body });
      keep(made.tournament_id, { organizer_token: made.organizer_token });
      location.assign(`/tournament/${made.tournament_id}`);
    } catch (error) {
      say(`Could not create the tournament: ${error.message}`, "error");
    }
  });
  put($("main"),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("h1", { id: "new-title" }, "A new tournament"),
    h("p", { class: "meta" }, "You organize it: this browser keeps the organizer's token. Entrants register on its page; you close registration and the rounds begin."),
    form);
}
