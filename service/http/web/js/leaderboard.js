// A game's leaderboard (/leaderboard/{game}): the ratings of its players and server bots, best
// first, a page of 50 at a time (GET /ratings/{game}); a provisional rating (too few games yet)
// is marked in words, and each player links to its page. The export link gives every rating
// update as NDJSON, which `hearthlog verify` checks against the matches it came from.

import { call, hasMore } from "./api.js";
import { $, h, put, say } from "./dom.js";

const LIMIT = 50;
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
let offset = Math.max(0, Number(new URLSearchParams(location.search).get("offset")) || 0);

function skeleton(title) {
  document.title = `Hearthlog: ${title} leaderboard`;
  $("main").className = "leaderboard";
  put($("main"),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("h1", { id: "title" }, `${title}: leaderboard`),
    h("p", { class: "meta" }, "OpenSkill ratings (Plackett-Luce): μ is the rating, σ how unsure it still is; ",
      "μ − 3σ is a rating one is very likely above. A rating is provisional until it has enough games. ",
      "Only rated matches count; server bots are rated too, by name."),
    h("div", { class: "standings", role: "region", tabindex: 0, "aria-labelledby": "title" },
      h("div", { id: "board" })),
    h("nav", { id: "pager", class: "row pager", "aria-label": "Pages" },
      h("button", { type: "button", id: "previous" }, "Previous page"),
      h("span", { id: "page-of", class: "meta" }),
      h("button", { type: "button", id: "next" }, "Next page")),
    h("p", { class: "links" },
      h("a", { class: "button", href: `/ratings/${encodeURIComponent(game)}/export`, download: `${game}-ratings.ndjson` },
        "Export every rating update (NDJSON)"),
      h("a", { class: "button", href: "/" }, "Back to the lobby")));
}

/** Who a rating belongs to, linked to the player's page (a server bot has no page). */
function who(entry) {
  const subject = String(entry.subject ?? entry.player_id ?? "");
  if (subject.startsWith("bot:")) return h("span", {}, `${entry.name ?? subject.slice(4)} (bot)`);
  return h("a", { href: `/player/${encodeURIComponent(subject)}` }, entry.name ?? subject);
}

const fixed = (x) => (typeof x === "number" ? x.toFixed(2) : "");

function row(entry, rank) {
  return h("tr", { "data-subject": entry.subject, class: entry.provisional ? "provisional" : "" },
    h("td", {}, rank),
    h("th", { scope: "row" }, who(entry),
      entry.provisional ? h("span", { class: "badge provisional" }, "provisional") : null),
    h("td", {}, fixed(entry.mu)),
    h("td", {}, fixed(entry.sigma)),
    h("td", {}, fixed(entry.ordinal ?? entry.mu - 3 * entry.sigma)),
    h("td", {}, entry.games ?? ""));
}

async function show() {
  const page = await call("GET", `/ratings/${encodeURIComponent(game)}?limit=${LIMIT}&offset=${offset}`);
  const entries = page.ratings ?? page.entries ?? page.items ?? [];
  const table = entries.length
    ? h("table", { class: "standings-table" },
      h("caption", {}, `Ranks ${offset + 1} to ${offset + entries.length}${page.subjects ? ` of ${page.subjects}` : ""}`),
      h("thead", {}, h("tr", {}, ["Rank", "Player", "μ", "σ", "μ − 3σ", "Games"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, entries.map((e, i) => row(e, e.rank ?? offset + i + 1))))
    : h("p", { class: "empty" }, offset ? "No ratings on this page." : "No rated matches of this game have finished yet.");
  put($("board"), table);
  $("previous").disabled = offset === 0;
  $("next").disabled = !hasMore(page, entries.length, LIMIT);
  $("pager").hidden = $("previous").disabled && $("next").disabled; // one page: no paging
  $("page-of").textContent = entries.length ? `Page ${Math.floor(offset / LIMIT) + 1}` : "";
}

function turn(by) {
  offset = Math.max(0, offset + by * LIMIT);
  history.replaceState(null, "", offset ? `?offset=${offset}` : location.pathname);
  show().catch((error) => say(`Could not read the leaderboard: ${error.message}`, "error"));
}

async function main() {
  let title = game;
  try {
    const { games } = await call("GET", "/games");
    title = games.find((g) => g.id === game)?.title ?? game;
  } catch {
    // the game's id serves as its title
  }
  skeleton(title);
  $("previous").addEventListener("click", () => turn(-1));
  $("next").addEventListener("click", () => turn(1));
  try {
    await show();
  } catch (error) {
    say(`Could not read the leaderboard: ${error.message}`, "error");
  }
}

main();
