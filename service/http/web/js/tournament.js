// A tournament's page (/tournament/{id}): its settings, rounds with their tables (each linking
// to its match's table and, once finished, its replay) and the standings. It reads only the
// public API (GET /tournaments/{id} and its standings) and refreshes while the tournament runs.

import { call } from "./api.js";
import { $, h, put, say, titled } from "./dom.js";

// Short column heads for the tie-breaks (docs/tournaments.md names each); others are titled.
const SHORT = { sonneborn_berger: "S-B" };

const id = decodeURIComponent(location.pathname.split("/")[2] || "");

/** The page's skeleton: heading, facts, rounds, standings. */
function skeleton() {
  put($("main"),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("h1", { id: "title" }, "Tournament"),
    h("p", { id: "facts", class: "meta" }),
    h("section", { class: "tournament-grid" },
      h("div", {}, h("h2", {}, "Rounds"), h("div", { id: "rounds" })),
      h("div", { class: "standings" }, h("h2", { id: "standings-title" }, "Standings"),
        h("div", { id: "standings" }))),
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

/** Draw the whole tournament. */
function show(tournament, table) {
  document.title = `Hearthlog: ${tournament.name}`;
  const names = Object.fromEntries(tournament.entrants.map((e) => [e.number, e.name]));
  put($("title"), `${tournament.name} · ${tournament.status}`);
  const total = tournament.rounds_total ?? "?";
  put($("facts"), `${tournament.format} of ${tournament.game}, tables of ${tournament.table_size}, ` +
    `round ${tournament.round} of ${total}, ${tournament.entrants.length} entrants`);
  const rounds = [...tournament.rounds].reverse().map((r) => roundSection(r, names));
  put($("rounds"), rounds.length ? rounds : h("p", { class: "empty" }, "No round has started yet."));
  put($("standings"), standingsTable(table));
  put($("seed"), `Commitment (sha256 of the seed): ${tournament.seed_commitment}`,
    h("br"), tournament.seed ? `Seed, revealed: ${tournament.seed}` : "The seed is revealed when the tournament is finished.");
}

async function refresh() {
  const tournament = await call("GET", `/tournaments/${encodeURIComponent(id)}`);
  const table = await call("GET", `/tournaments/${encodeURIComponent(id)}/standings`);
  show(tournament, table);
  return tournament.status;
}

async function main() {
  skeleton();
  try {
    const status = await refresh();
    if (status !== "finished") {
      const timer = setInterval(() => refresh().then((s) => {
        if (s === "finished") clearInterval(timer);
      }).catch(() => {}), 3000);
    }
  } catch (error) {
    say(`The tournament could not be read: ${error.message}`, "error");
  }
}

main();
