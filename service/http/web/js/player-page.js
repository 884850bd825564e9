// A player's page (/player/{id}): its name, its rating per game with the history as a chart
// (GET /ratings/{game}/subjects/{id}), its matches newest first, 20 at a time, each linking to
// its table or replay (GET /players/{id}/matches), its tournaments, and the export of its
// finished matches (NDJSON that `hearthlog verify` reads). Only public routes are read.

import { call, hasMore } from "./api.js";
import { ratingChart } from "./chart.js";
import { $, h, put, say } from "./dom.js";
import { me } from "./player.js";

const LIMIT = 20;
const playerId = decodeURIComponent(location.pathname.split("/")[2] || "");
let offset = 0;
let titles = {};

function skeleton() {
  $("main").className = "player";
  put($("main"),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("h1", { id: "title" }, "Player"),
    h("p", { id: "facts", class: "meta" }),
    h("section", { "aria-labelledby": "ratings-title" },
      h("h2", { id: "ratings-title" }, "Ratings"), h("div", { id: "ratings", class: "charts" })),
    h("section", { "aria-labelledby": "history-title" },
      h("h2", { id: "history-title" }, "Matches"),
      h("ul", { id: "history", class: "matches" }),
      h("nav", { id: "pager", class: "row pager", "aria-label": "Pages of matches" },
        h("button", { type: "button", id: "previous" }, "Newer matches"),
        h("span", { id: "page-of", class: "meta" }),
        h("button", { type: "button", id: "next" }, "Older matches"))),
    h("section", { "aria-labelledby": "tournaments-title" },
      h("h2", { id: "tournaments-title" }, "Tournaments"), h("ul", { id: "tournaments", class: "matches" })),
    h("p", { class: "links" },
      h("a", { class: "button", href: `/players/${encodeURIComponent(playerId)}/export`, download: `player-${playerId}.ndjson` },
        "Export finished matches (NDJSON)")));
}

/** The history of one game's rating: [{mu, sigma}] before the first rated match, then after
 * each, oldest first. */
function historyOf(answer) {
  const updates = [...answer.updates].sort((a, b) => a.sequence - b.sequence);
  if (!updates.length) return [];
  return [{ mu: updates[0].mu_before, sigma: updates[0].sigma_before },
    ...updates.map((u) => ({ mu: u.mu_after, sigma: u.sigma_after }))];
}

/** Every game's rating with its chart; games without a rated match are left out. */
async function showRatings() {
  const parts = [];
  for (const [game, title] of Object.entries(titles)) {
    let answer;
    try {
      answer = await call("GET", `/ratings/${encodeURIComponent(game)}/subjects/${encodeURIComponent(playerId)}?limit=1000`);
    } catch {
      continue; // not rated in this game (or ratings not served)
    }
    const points = historyOf(answer);
    if (!points.length) continue;
    const now = points[points.length - 1];
    const { games, provisional } = answer.current;
    const words = `${title}: μ ${now.mu.toFixed(2)}, σ ${now.sigma.toFixed(2)} after ${games} rated ` +
      `match${games === 1 ? "" : "es"}${provisional ? " (provisional)" : ""}`;
    parts.push(h("figure", { class: "rating", "data-game": game },
      ratingChart(points, `${title} rating history: μ from ${points[0].mu.toFixed(2)} to ${now.mu.toFixed(2)}`),
      h("figcaption", {}, words, " · ", h("a", { href: `/leaderboard/${encodeURIComponent(game)}` }, "leaderboard"))));
  }
  put($("ratings"), parts.length ? parts : h("p", { class: "empty" }, "No rated matches yet."));
}

/** A match's result for this player: its place, or what the status says. */
function outcome(match) {
  const place = match.place ?? match.result?.place;
  if (match.status !== "finished") return match.status === "playing" ? "in play" : "waiting for players";
  if (place === 1) return "won (1st)";
  return place ? `placed ${ordinal(place)}` : "finished";
}

/** 1 -> "1st", 12 -> "12th", 22 -> "22nd". */
function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

function matchRow(match) {
  const link = match.status === "finished"
    ? h("a", { class: "button", href: `/replay/${match.match_id}` }, "Replay")
    : h("a", { class: "button", href: `/play/${match.match_id}` }, "Table");
  return h("li", { class: "match", "data-match": match.match_id },
    h("div", {}, h("strong", {}, titles[match.game] ?? match.game),
      h("div", { class: "meta" }, `seat ${match.seat} · ${outcome(match)}${match.rated ? " · rated" : ""}${match.practice ? " · practice" : ""}`)),
    h("div", { class: "links" }, link));
}

async function showMatches() {
  const page = await call("GET", `/players/${encodeURIComponent(playerId)}/matches?limit=${LIMIT}&offset=${offset}`);
  const matches = page.matches ?? [];
  put($("history"), matches.length ? matches.map(matchRow) : h("li", { class: "empty" }, "No matches yet."));
  $("previous").disabled = offset === 0;
  $("next").disabled = !hasMore(page, matches.length, LIMIT);
  $("pager").hidden = $("previous").disabled && $("next").disabled; // one page: no paging
  $("page-of").textContent = matches.length ? `Matches ${offset + 1} to ${offset + matches.length}` : "";
}

async function showTournaments() {
  const page = await call("GET", `/players/${encodeURIComponent(playerId)}/tournaments?limit=20`);
  const rows = (page.tournaments ?? []).map((t) => h("li", { class: "match", "data-tournament": t.tournament_id },
    h("div", {}, h("strong", {}, t.name ?? t.tournament_id),
      h("div", { class: "meta" }, `${t.status} · as ${t.entrant_name ?? "entrant"}`)),
    h("div", { class: "links" }, h("a", { class: "button", href: `/tournament/${t.tournament_id}` }, "Tournament"))));
  put($("tournaments"), rows.length ? rows : h("li", { class: "empty" }, "No tournaments yet."));
}

function turn(by) {
  offset = Math.max(0, offset + by * LIMIT);
  showMatches().catch((error) => say(`Could not read the matches: ${error.message}`, "error"));
}

async function main() {
  skeleton();
  $("previous").addEventListener("click", () => turn(-1));
  $("next").addEventListener("click", () => turn(1));
  try {
    const player = await call("GET", `/players/${encodeURIComponent(playerId)}`);
    document.title = `Hearthlog: ${player.name}`;
    $("title").textContent = player.name;
    $("facts").textContent = [me()?.player_id === playerId ? "This is you." : "",
      player.created_at ? `Playing since ${player.created_at.slice(0, 10)}.` : ""].filter(Boolean).join(" ");
    const { games } = await call("GET", "/games");
    titles = Object.fromEntries(games.map((g) => [g.id, g.title]));
  } catch (error) {
    say(error.status === 404 ? "There is no such player." : `Could not read the player: ${error.message}`, "error");
    return;
  }
  await Promise.all([
    showMatches().catch((error) => say(`Could not read the matches: ${error.message}`, "error")),
    showTournaments().catch(() => put($("tournaments"), h("li", { class: "empty" }, "No tournaments listed."))),
    showRatings(),
  ]);
}

main();
