// A tournament's page (/tournament/{id}): its settings, rounds with their tables (each linking
// to its match's table and, once finished, its replay) and the standings with their tie-breaks
// explained; the crosstable (and a 2-seat event's TRF) to download; the organizer's recorded
// actions; a cancelled event said so, without standings; registering (a person, the signed-in
// player or a bot), this browser's table ("my table"), and the organizer's controls.
// /tournament/new creates one. Only the public REST API is used; it refreshes while the
// tournament runs.

import { call, hold } from "./api.js";
import { $, h, put, say, titled } from "./dom.js";
import { me as signedIn } from "./player.js";
import { createPage } from "./tournament-new.js";

// Short column heads for the tie-breaks, and what each means (docs/tournaments.md, section 5).
const SHORT = { sonneborn_berger: "S-B", buchholz_cut1: "Buchholz Cut-1" };
const MEANS = {
  buchholz: "the sum of the points of every opponent met",
  buchholz_cut1: "Buchholz less its lowest term",
  sonneborn_berger: "the sum over every opponent met of its points times one's score against it (1 above it, 1/2 tied, 0 below)",
  wins: "tables won outright (forfeits and byes are not wins)",
  direct_encounter: "the points scored in games between the entrants still tied",
  firsts: "tables where one placed first, shared first places included",
  reached: "the round one lost in (still in: one past the last round played)",
};
// How each recorded action reads (docs/tournaments.md, "Organizer actions").
const ACTIONS = {
  withdraw: "withdrew", forfeit: "forfeited", void: "table declared void", end: "ended the tournament",
  override: "paired by hand", bye: "asked for a bye", late_entry: "entered late",
};
const DONE = ["finished", "cancelled"]; // a tournament that changes no more
const FORMATS = { swiss: "Swiss", "round-robin": "Round robin", "single-elimination": "Single elimination" };
const KEY = (tid) => `hearthlog:tournament:${tid}`;
const kept = (tid) => JSON.parse(localStorage.getItem(KEY(tid)) || "{}");
const keep = (tid, more) => localStorage.setItem(KEY(tid), JSON.stringify({ ...kept(tid), ...more }));

const id = decodeURIComponent(location.pathname.split("/")[2] || "");

/** The page's skeleton: heading, facts, rounds, standings. */
function skeleton() {
  put($("main"),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("h1", { id: "title" }, "Tournament"),
    h("p", { id: "facts", class: "meta" }),
    h("section", { id: "mine", class: "seating", "aria-label": "You in this tournament" }),
    h("section", { class: "tournament-grid" },
      h("div", {}, h("h2", {}, "Rounds"), h("div", { id: "rounds" })),
      h("div", { class: "standings", role: "region", tabindex: 0, "aria-labelledby": "standings-title" },
        h("h2", { id: "standings-title" }, "Standings"),
        h("div", { id: "standings" }),
        h("p", { id: "downloads", class: "links" }))),
    h("section", { id: "actions", "aria-labelledby": "actions-title" },
      h("h2", { id: "actions-title" }, "Recorded actions"), h("ul", { id: "action-list" })),
    h("details", { class: "fairness" }, h("summary", {}, "Fairness: the seed"),
      h("p", { id: "seed", class: "mono" })));
  $("main").className = "tournament";
}

/** One table: its seat order, status, result and links. */
function tableRow(table) {
  const winners = table.result
    ? table.result.placements.map((p, seat) => (p === 1 ? table.names[seat] : null)).filter(Boolean)
    : [];
  const links = [h("a", { class: "button", href: `/play/${table.match_id}` },
    table.status === "finished" ? "Table" : "Watch")];
  if (table.status === "finished") {
    links.push(h("a", { class: "button", href: `/replay/${table.match_id}` }, "Replay"));
  }
  const outcome = table.result
    ? (winners.length > 1 ? `draw: ${winners.join(", ")}` : `${winners[0]} won`)
    : table.status;
  return h("li", { class: "match", "data-table": table.table, "data-status": table.status },
    h("div", {},
      h("strong", {}, `Table ${table.table}`),
      h("span", {}, ` ${table.names.join(" vs ")}`),
      h("div", { class: "meta" }, outcome)),
    h("div", { class: "links" }, links));
}

/** One round: its tables and byes. */
function roundSection(round, names) {
  const byes = round.byes.map((n) => names[n]);
  return h("section", { class: "round", "aria-labelledby": `round-${round.round}` },
    h("h3", { id: `round-${round.round}` }, `Round ${round.round}`),
    h("ul", { class: "matches" }, round.tables.map(tableRow)),
    byes.length ? h("p", { class: "meta" }, `Bye: ${byes.join(", ")}`) : null);
}

/** The standings as a table with a caption naming the round they follow. */
function standingsTable(table) {
  const first = table.standings[0];
  const breaks = first ? Object.keys(first.tiebreaks) : [];
  const cell = (text, tag = "td") => h(tag, {}, text);
  return h("table", { class: "standings-table" },
    h("caption", {}, table.after_round ? `After round ${table.after_round}` : "No round finished yet"),
    h("thead", {}, h("tr", {}, ["Rank", "Name", "Points", ...breaks.map((b) => SHORT[b] ?? titled(b)), "Played"]
      .map((t) => cell(t, "th")))),
    h("tbody", {}, table.standings.map((line) => h("tr", { class: line.withdrawn ? "withdrawn" : null },
      cell(String(line.rank)), cell(line.name + (line.withdrawn ? " (withdrew)" : "")),
      cell(line.points), breaks.map((b) => cell(line.tiebreaks[b])), cell(String(line.played))))));
}

/** What the standings' columns mean: points, then each tie-break in order, then the lot. */
function tiebreakLegend(table) {
  const breaks = table.standings[0] ? Object.keys(table.standings[0].tiebreaks) : [];
  return h("details", { class: "legend" }, h("summary", {}, "How ties are broken"),
    h("p", {}, "Ranked by points, then each tie-break in turn, then by lot:"),
    h("dl", { class: "card-texts" }, breaks.map((b) =>
      h("div", {}, h("dt", {}, SHORT[b] ?? titled(b)), h("dd", {}, MEANS[b] ?? "")))));
}

/** The crosstable (JSON and CSV) and, at 2 seats, the TRF-16, once a round has started. */
function downloads(tournament) {
  const base = `/tournaments/${encodeURIComponent(tournament.tournament_id)}`;
  if (!tournament.rounds.length) return [];
  const links = [h("a", { class: "button", href: `${base}/crosstable?format=csv`, download: "" }, "Crosstable (CSV)"),
    h("a", { class: "button", href: `${base}/crosstable` }, "Crosstable (JSON)")];
  if (tournament.table_size === 2) {
    links.push(h("a", { class: "button", href: `${base}/trf`, download: "" }, "TRF-16"));
  }
  return links;
}

/** One recorded action in words: round, who, what, whom, why. */
function actionLine(action, names) {
  const whom = action.entrant != null ? ` ${names[action.entrant] ?? `entrant ${action.entrant}`}` : "";
  const where = action.table != null ? ` at table ${action.table}` : "";
  const why = action.reason ? `: ${action.reason}` : "";
  return h("li", { "data-kind": action.kind },
    `Round ${action.round} (${action.by ?? "organizer"}):${whom} ${ACTIONS[action.kind] ?? action.kind}${where}${why}`);
}

/** Draw the whole tournament. */
function show(tournament, table) {
  document.title = `Hearthlog: ${tournament.name}`;
  const names = Object.fromEntries(tournament.entrants.map((e) => [e.number, e.name]));
  put($("title"), `${tournament.name} · ${tournament.status}`);
  const total = tournament.rounds_total ?? "?";
  put($("facts"), `${FORMATS[tournament.format] ?? titled(tournament.format)} · ${gameTitles[tournament.game] ?? tournament.game} · ` +
    `tables of ${tournament.table_size} · round ${tournament.round} of ${total} · ${tournament.entrants.length} entrants`);
  drawMine(tournament).catch((error) => say(error.message, "error"));
  const rounds = [...tournament.rounds].reverse().map((r) => roundSection(r, names));
  put($("rounds"), rounds.length ? rounds : h("p", { class: "empty" }, "No round has started yet."));
  if (tournament.status === "cancelled") {
    put($("standings"), h("p", { id: "cancelled", class: "empty" },
      "The organizer cancelled this tournament: no more rounds, no standings and no bundle. " +
      "Tables still in play finish as ordinary matches."));
  } else {
    put($("standings"), standingsTable(table), tiebreakLegend(table));
  }
  put($("downloads"), downloads(tournament));
  put($("action-list"), tournament.actions.map((a) => actionLine(a, names)));
  $("actions").hidden = !tournament.actions.length;
  put($("seed"), `Commitment (sha256 of the seed): ${tournament.seed_commitment}`,
    h("br"), tournament.seed ? `Seed, revealed: ${tournament.seed}`
      : tournament.status === "cancelled" ? "A cancelled tournament never reveals its seed."
        : "The seed is revealed when the tournament is finished.");
}

async function refresh() {
  const tournament = await call("GET", `/tournaments/${encodeURIComponent(id)}`);
  const table = tournament.status === "cancelled" ? null
    : await call("GET", `/tournaments/${encodeURIComponent(id)}/standings`);
  show(tournament, table);
  return tournament.status;
}

let gameTitles = {};

/** This browser in the tournament: register (a person, or a bot), its table now, and the
 * organizer's controls when it holds the organizer token. */
let askedAsPlayer = false; // whether the signed-in player's token was asked for its entrant here

/** The signed-in player's entrant token here, when it entered from elsewhere (asked once). */
async function enteredAsPlayer() {
  const player = signedIn();
  if (askedAsPlayer || !player) return;
  askedAsPlayer = true;
  try {
    await call("GET", `/tournaments/${encodeURIComponent(id)}/me`, { token: player.token });
    keep(id, { player_token: player.token });
  } catch {
    // not entered as this player
  }
}

async function drawMine(tournament) {
  if (!kept(id).player_token) await enteredAsPlayer();
  const mine = kept(id);
  const parts = [];
  if (mine.player_token) {
    const me = await call("GET", `/tournaments/${encodeURIComponent(id)}/me`, { token: mine.player_token });
    parts.push(h("h2", {}, `You play as ${me.entrant.name}`));
    if (me.match_id) {
      parts.push(h("p", {}, `Round ${me.round}, table ${me.table}, seat ${me.seat}: ${me.status}.`),
        h("a", { class: "button primary", id: "my-table", href: `/play/${me.match_id}`,
          onclick: () => hold(me.match_id, { seat: me.seat, token: mine.player_token, name: me.entrant.name }) },
        "Go to my table"));
    } else {
      parts.push(h("p", { class: "meta" }, me.bye ? `A bye in round ${me.round}.` : "No table for you right now."));
    }
  } else if (tournament.status === "registering") {
    const player = signedIn(); // signed in: the player enters, its token the entrant's
    const name = h("input", { id: "entrant-name", type: "text", maxlength: 32, required: !player,
      placeholder: player?.name, autocomplete: "nickname" });
    const form = h("form", { class: "join", "aria-label": "Register" },
      h("div", { class: "field" }, h("label", { for: "entrant-name" },
        player ? "Your name (yours as a player if empty)" : "Your name"), name),
      h("button", { type: "submit", class: "primary" }, "Register"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const made = await call("POST", `/tournaments/${encodeURIComponent(id)}/players`,
          { body: name.value ? { name: name.value } : {}, token: player?.token });
        keep(id, { player_token: made.player_token ?? player.token });
        say(`You are registered as ${made.entrant.name}; your token is kept in this browser.`);
        refresh().catch(() => {});
      } catch (error) {
        say(`Could not register: ${error.message}`, "error");
      }
    });
    parts.push(h("h2", {}, "Take part"), form);
  }
  if (tournament.status === "registering") {
    parts.push(h("button", { type: "button", id: "add-bot", onclick: () => addBot(tournament) }, "Register a bot"));
  }
  if (mine.organizer_token && tournament.status === "registering") {
    parts.push(h("h2", {}, "You organize it"),
      h("button", { type: "button", id: "close", class: "primary", onclick: () => organize("close") }, "Close registration"));
  } else if (mine.organizer_token && ["closed", "running"].includes(tournament.status)
      && (!tournament.auto_advance || tournament.round === 0)) {
    parts.push(h("h2", {}, "You organize it"),
      h("button", { type: "button", id: "next-round", class: "primary", onclick: () => organize("rounds") }, "Start the next round"));
  }
  put($("mine"), parts);
  $("mine").hidden = !parts.length;
}

async function addBot(tournament) {
  try {
    await call("POST", `/tournaments/${encodeURIComponent(id)}/players`,
      { body: { name: `Bot ${tournament.entrants.length + 1}`, bot: "random" } });
    await refresh();
  } catch (error) {
    say(`Could not register a bot: ${error.message}`, "error");
  }
}

async function organize(what) {
  try {
    await call("POST", `/tournaments/${encodeURIComponent(id)}/${what}`, { token: kept(id).organizer_token });
    await refresh();
  } catch (error) {
    say(`Not done: ${error.message}`, "error");
  }
}

async function main() {
  if (id === "new") {
    createPage(keep).catch((error) => say(`The server did not answer: ${error.message}`, "error"));
    return;
  }
  skeleton();
  try {
    const { games } = await call("GET", "/games");
    gameTitles = Object.fromEntries(games.map((g) => [g.id, g.title]));
  } catch {
    gameTitles = {};
  }
  try {
    const status = await refresh();
    if (!DONE.includes(status)) {
      const timer = setInterval(() => refresh().then((s) => {
        if (DONE.includes(s)) clearInterval(timer);
      }).catch(() => {}), 3000);
    }
  } catch (error) {
    say(`The tournament could not be read: ${error.message}`, "error");
  }
}

main();
