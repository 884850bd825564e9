// The lobby: the player this browser plays as (sign in, or create one), every game with a form
// from its options schema, its "Play now" and its leaderboard, and the matches to join, watch or
// replay. Creating a match keeps its host token in this browser and opens its table.

import { call, held, hold } from "./api.js";
import { $, h, put, say } from "./dom.js";
import { me, signInPanel } from "./player.js";
import { followQueue, playNow } from "./queue.js";
import { optionsForm } from "./schemaform.js";

/** The lobby's skeleton: the games, then the matches with their three filters. */
function skeleton() {
  const tab = (status, text) => h("button", { type: "button", class: "tab", "data-status": status,
    "aria-pressed": String(status === "lobby") }, text);
  document.title = "Hearthlog: lobby";
  put($("main"),
    h("h1", { class: "visually-hidden" }, "Lobby"),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("section", { id: "queue", class: "seating", "aria-labelledby": "queue-title", hidden: true }),
    h("section", { id: "player", class: "seating", "aria-labelledby": "player-title" },
      h("h2", { id: "player-title" }, "Your player"), h("div", { id: "player-box" })),
    h("section", { "aria-labelledby": "games-title" },
      h("h2", { id: "games-title", class: "page-title" }, "Open a match"), h("div", { id: "games", class: "games" })),
    h("section", { "aria-labelledby": "matches-title" },
      h("h2", { id: "matches-title" }, "Matches"),
      h("div", { class: "filters", role: "group", "aria-label": "Show matches" },
        tab("lobby", "Open"), tab("playing", "Playing"), tab("finished", "Finished")),
      h("ul", { id: "matches", class: "matches" })),
    h("section", { "aria-labelledby": "tournaments-title" },
      h("h2", { id: "tournaments-title" }, "Tournaments"),
      h("p", {}, h("a", { class: "button", href: "/tournament/new" }, "Create a tournament")),
      h("ul", { id: "tournaments", class: "matches" })));
  $("main").className = "lobby";
}

let shown = "lobby";
const FORMATS = { swiss: "Swiss", "round-robin": "Round robin", "single-elimination": "Single elimination" };

/** One game's card: title, seats, options, turn clock, and the create button. */
function gameCard(game) {
  const id = `new-${game.id}`;
  const { fields, read, scripted } = optionsForm(game.options, id);
  const seats = h("input", { id: `${id}-seats`, type: "number", min: game.min_seats,
    max: game.max_seats, value: game.min_seats, required: true, inputmode: "numeric" });
  const clock = h("input", { id: `${id}-clock`, type: "number", min: 1, max: 86400,
    placeholder: "no clock", inputmode: "numeric" });
  const label = h("input", { id: `${id}-label`, type: "text", maxlength: 100, placeholder: "optional" });
  const form = h("form", { class: "game", "aria-labelledby": `${id}-title`, "data-game": game.id },
    h("h3", { id: `${id}-title` }, game.title),
    h("p", { class: "meta" }, `${game.min_seats} to ${game.max_seats} seats, rules ${game.rules_version}`),
    h("div", { class: "field" }, h("label", { for: `${id}-seats` }, "Seats"), seats),
    h("details", { class: "more" }, h("summary", {}, "Turn clock and options"),
      h("div", { class: "field" }, h("label", { for: `${id}-clock` }, "Turn clock (seconds)"), clock),
      h("div", { class: "field" }, h("label", { for: `${id}-label` }, "Label"), label),
      fields),
    h("button", { type: "submit", class: "primary" }, `Open a ${game.title} match`),
    playNowPart(game, id, seats, read, scripted),
    h("p", { class: "links" }, h("a", { href: `/leaderboard/${encodeURIComponent(game.id)}` }, `${game.title} leaderboard`)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { game: game.id, seats: Number(seats.value), options: read() };
      if (scripted()) body.practice = true;
      if (clock.value) body.turn_seconds = Number(clock.value);
      if (label.value) body.label = label.value;
      const made = await call("POST", "/matches", { body });
      hold(made.match_id, { host_token: made.host_token });
      location.assign(`/play/${made.match_id}`);
    } catch (error) {
      say(`Could not open the match: ${error.message}`, "error");
    }
  });
  return form;
}

/** A game's "Play now": queue the signed-in player for a table of this game (the seats and
 * options above, or any larger table), rated or casual, with bots allowed to fill after a wait
 * or not. */
function playNowPart(game, id, seats, read, scripted) {
  const rated = h("input", { id: `${id}-rated`, type: "checkbox", checked: true });
  const larger = h("input", { id: `${id}-larger`, type: "checkbox" });
  const bots = h("input", { id: `${id}-bots`, type: "checkbox" });
  // Exactly the card's seats, or any table from there up to the game's largest.
  const asked = () => (larger.checked && Number(seats.value) < game.max_seats
    ? { min: Number(seats.value), max: game.max_seats } : Number(seats.value));
  const go = async () => {
    if (scripted()) {
      say("A scripted deal is for practice matches only: open a match with it instead.", "error");
      return;
    }
    try {
      await playNow({ game: game.id, seats: asked(), rated: rated.checked, options: read(), bots: bots.checked });
    } catch (error) {
      say(`Could not queue: ${error.message}`, "error");
    }
  };
  return h("fieldset", { class: "play-now", "data-signed-in": String(Boolean(me())) },
    h("legend", {}, "Play now"),
    h("div", { class: "row" },
      h("label", { class: "check" }, rated, "Rated"),
      h("label", { class: "check" }, larger, `Or a larger table (up to ${game.max_seats})`),
      h("label", { class: "check" }, bots, "Bots may fill the table if I wait long")),
    h("button", { type: "button", class: "play-now-button", onclick: go }, `Play ${game.title} now`),
    h("small", { class: "help signed-out-only" }, "Sign in as a player (above) to play now."));
}

/** One listed match: its game, players, status and the links that fit it. */
function matchRow(match, titles) {
  const mine = held(match.match_id);
  const players = match.players.map((p) => p.name + (p.bot ? " (bot)" : "")).join(", ") || "nobody yet";
  const links = [];
  if (match.status === "lobby") {
    links.push(h("a", { class: "button primary", href: `/play/${match.match_id}` },
      mine.token ? "Return to your seat" : "Join"));
    links.push(h("a", { class: "button", href: `/play/${match.match_id}?as=spectator` }, "Watch"));
  } else if (match.status === "playing") {
    links.push(h("a", { class: "button", href: `/play/${match.match_id}` },
      mine.token ? "Return to your seat" : "Watch"));
  } else {
    links.push(h("a", { class: "button", href: `/replay/${match.match_id}` }, "Replay"));
  }
  return h("li", { class: "match", "data-match": match.match_id },
    h("div", {},
      h("strong", {}, titles[match.game] ?? match.game),
      match.label ? h("span", { class: "label" }, ` ${match.label}`) : null,
      h("div", { class: "meta" },
        `${match.players.length}/${match.seats} seats: ${players}`,
        mine.host_token ? " · you host it" : "")),
    h("div", { class: "links" }, links));
}

async function showMatches(titles) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-pressed", String(tab.dataset.status === shown));
  }
  const page = await call("GET", `/matches?status=${shown}&limit=50`);
  const rows = page.matches.map((m) => matchRow(m, titles));
  put($("matches"), rows.length ? rows : h("li", { class: "empty" }, `No ${shown === "lobby" ? "open" : shown} matches.`));
}

/** The tournaments, newest first, each linking to its page. */
async function showTournaments(titles) {
  const { tournaments } = await call("GET", "/tournaments?limit=20");
  const rows = tournaments.map((t) => h("li", { class: "match", "data-tournament": t.tournament_id },
    h("div", {}, h("strong", {}, t.name),
      h("div", { class: "meta" }, `${FORMATS[t.format] ?? t.format} · ${titles[t.game] ?? t.game} · ${t.entrants} ` +
        `entrants · ${t.status}${t.round ? `, round ${t.round}` : ""}`)),
    h("div", { class: "links" },
      h("a", { class: "button", href: `/tournament/${t.tournament_id}` }, "Rounds and standings"))));
  put($("tournaments"), rows.length ? rows : h("li", { class: "empty" }, "No tournaments yet."));
}

/** The games' "Play now" buttons work only for a signed-in player. */
function markSignedIn() {
  const signedIn = Boolean(me());
  for (const part of document.querySelectorAll(".play-now")) {
    part.dataset.signedIn = String(signedIn);
    part.querySelector(".play-now-button").disabled = !signedIn;
  }
}

async function main() {
  skeleton();
  try {
    const { games } = await call("GET", "/games");
    const titles = Object.fromEntries(games.map((g) => [g.id, g.title]));
    put($("games"), games.map(gameCard));
    signInPanel($("player-box"), () => {
      markSignedIn();
      followQueue($("queue"), titles);
    });
    markSignedIn();
    followQueue($("queue"), titles);
    for (const tab of document.querySelectorAll(".tab")) {
      tab.addEventListener("click", () => {
        shown = tab.dataset.status;
        showMatches(titles).catch((e) => say(e.message, "error"));
      });
    }
    await showMatches(titles);
    await showTournaments(titles);
    setInterval(() => showMatches(titles).catch(() => {}), 5000);
  } catch (error) {
    say(`The server did not answer: ${error.message}`, "error");
  }
}

main();
