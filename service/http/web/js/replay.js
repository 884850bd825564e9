// The replay viewer of a finished match: every version, from the spectator's view, any seat's
// view or the whole state, with the log beside it; the fairness panel (seed commitment, the
// revealed server seed, client seeds, the server's verification) and the export to download.
// The address carries the version and the viewer (?v=12&as=seat-1), so it can be shared.

import { call, held, matchIdFromPath } from "./api.js";
import { installCardInfo, learnCards } from "./cardinfo.js";
import { $, h, put, say } from "./dom.js";
import { drawTable } from "./tables/index.js";

const matchId = matchIdFromPath();
const params = new URLSearchParams(location.search);
let replay = null;
let summary = null;
let log = [];
let version = 1;
let as = params.get("as") || "spectator"; // "spectator", "seat-N" or "state"
const views = new Map(); // "as:version" -> MatchView
let shown = 0; // the latest request drawn, so a slow answer never draws over a newer one

/** The viewer's skeleton: the stepper, the table, the fairness panel, and the log. */
function skeleton() {
  const button = (id, label, text, keys) =>
    h("button", { type: "button", id, "aria-label": label, "aria-keyshortcuts": keys }, text);
  $("main").className = "replay";
  document.title = "Hearthlog: replay";
  put($("main"),
    h("div", { class: "heading" }, h("h1", { id: "title" }, "Loading the replay…"),
      h("p", { id: "summary", class: "meta" })),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("section", { class: "stepper", "aria-label": "Step through the match" },
      h("div", { class: "row" },
        button("first", "First version", "◀◀", "Home"), button("prev", "Previous version", "◀", "ArrowLeft"),
        h("label", { for: "slider", class: "visually-hidden" }, "Version"),
        h("input", { type: "range", id: "slider", min: 1, max: 1, value: 1 }),
        button("next", "Next version", "▶", "ArrowRight"), button("last", "Last version", "▶▶", "End")),
      h("div", { class: "row" },
        h("output", { id: "position", for: "slider", class: "position" }),
        h("label", { for: "as" }, "Seen by"), h("select", { id: "as" }),
        h("button", { type: "button", id: "share" }, "Copy a link to this")),
      h("p", { class: "meta" }, "Arrow keys step, Home and End jump to the ends.")),
    h("div", { class: "layout" },
      h("div", { class: "board-column" },
        h("p", { id: "event", class: "event" }),
        h("section", { id: "table", class: "table", "aria-label": "The table at this version" }),
        h("section", { id: "fairness", class: "fairness", "aria-labelledby": "fairness-title" },
          h("h2", { id: "fairness-title" }, "Fairness"),
          h("dl", { id: "fairness-list", class: "generic" }),
          h("p", {}, h("a", { id: "download", class: "button", download: true }, "Download the export (JSON)")))),
      h("aside", { class: "log-column", "aria-labelledby": "log-title" },
        h("h2", { id: "log-title" }, "Log"), h("ol", { id: "log", class: "log" }))));
}

/** The view of the chosen viewer at a version (cached; each asked of the API once). */
async function viewAt(v) {
  const key = `${as}:${v}`;
  if (!views.has(key)) {
    const query = as.startsWith("seat-") ? `?seat=${as.slice(5)}` : "";
    views.set(key, await call("GET", `/matches/${matchId}/replay/${v}${query}`));
  }
  return views.get(key);
}

async function show(v) {
  const last = replay.steps.length;
  version = Math.min(Math.max(1, v), last);
  const ticket = ++shown;
  $("slider").value = String(version);
  $("position").textContent = `Version ${version} of ${last}`;
  const step = replay.steps[version - 1];
  const who = step.seat === null || step.seat === undefined ? "the server" : replay.names[step.seat] ?? `seat ${step.seat}`;
  $("event").textContent = `${version}: ${step.type.replaceAll("_", " ")} (${who})`;
  const url = new URL(location.href);
  url.searchParams.set("v", String(version));
  url.searchParams.set("as", as);
  history.replaceState(null, "", url);
  drawLog();
  let body;
  if (as === "state") {
    body = h("div", { class: "state" },
      h("h2", {}, "The whole state after this event"),
      h("pre", { class: "json", tabindex: 0 }, JSON.stringify(step.state, null, 1)),
      step.command ? h("details", {}, h("summary", {}, "The command"), h("pre", { class: "json" }, JSON.stringify(step.command, null, 1))) : null);
  } else {
    const view = await viewAt(version);
    body = view.board ? drawTable(view) : h("p", { class: "meta" }, "The match had not started yet at this version.");
  }
  if (ticket === shown) put($("table"), body);
}

function drawLog() {
  const items = log.filter((line) => line.version <= version).map((line) =>
    h("li", { class: `${line.version === version ? "current" : ""} ${line.private ? "private" : ""}`,
      "data-version": line.version },
      h("span", { class: "version" }, line.version),
      line.private ? h("span", { class: "tag" }, "only you") : null, line.text));
  put($("log"), items);
  $("log").querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

function fairness(report) {
  const rows = [
    ["Seed commitment", summary.seed_commitment, "seed-commitment"],
    ["Server seed (revealed)", summary.server_seed ?? "not yet revealed", "server-seed"],
    ["Client seeds", (summary.client_seeds ?? []).map((c, i) => `${replay.names[i] ?? i}: ${c ?? "none"}`).join("; ") || "none", "client-seeds"],
    ["Match seed", report.match_seed ?? "", "match-seed"],
    ["Verified by the server", report.ok ? `yes: ${report.checked.join(", ")}` : `NO: ${report.problem?.message ?? "failed"}`, "verified"],
    ["Events", String(report.events), "events"],
  ];
  put($("fairness-list"), rows.map(([k, v, id]) =>
    h("div", { class: "pair" }, h("dt", {}, k), h("dd", { id: `fair-${id}`, class: id === "verified" ? (report.ok ? "ok" : "bad") : "mono" }, v))));
  $("download").href = `/matches/${matchId}/export`;
  $("download").setAttribute("download", `hearthlog-${matchId}.json`);
}

function choices() {
  const options = [h("option", { value: "spectator" }, "a spectator")];
  replay.names.forEach((name, i) => options.push(h("option", { value: `seat-${i}` }, `${name} (seat ${i})`)));
  options.push(h("option", { value: "state" }, "nobody: the whole state"));
  put($("as"), options);
  if (![...$("as").options].some((o) => o.value === as)) as = "spectator";
  $("as").value = as;
}

function wire() {
  const last = () => replay.steps.length;
  const step = (d) => show(version + d).catch(failed);
  $("first").addEventListener("click", () => show(1).catch(failed));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => show(last()).catch(failed));
  $("slider").addEventListener("input", () => show(Number($("slider").value)).catch(failed));
  $("as").addEventListener("change", () => {
    as = $("as").value;
    show(version).catch(failed);
  });
  $("share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      say("The link to this version and viewer was copied.");
    } catch {
      say(`The link: ${location.href}`);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("select, textarea, input[type=text]")) return;
    if (event.target.id === "slider") return; // the slider moves itself with the arrows
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) step(moves[event.key]);
    else if (event.key === "Home") show(1).catch(failed);
    else if (event.key === "End") show(last()).catch(failed);
    else return;
    event.preventDefault();
  });
}

function failed(error) {
  say(error.message, "error");
}

async function main() {
  skeleton();
  try {
    summary = await call("GET", `/matches/${matchId}`);
    if (summary.status !== "finished") {
      $("title").textContent = "This match is not over yet";
      say("A replay opens once the match has finished: the seeds are secret until then.", "warn");
      put($("table"), h("a", { class: "button primary", href: `/play/${matchId}` }, "Watch it live"));
      return;
    }
    const [games, full, report, page] = await Promise.all([
      call("GET", "/games"), call("GET", `/matches/${matchId}/replay`),
      call("GET", `/matches/${matchId}/verification`),
      // With a seat of this match kept in the browser, the log has that seat's private lines.
      call("GET", `/matches/${matchId}/log`, { token: held(matchId).token })]);
    replay = full;
    log = page.entries;
    const game = games.games.find((g) => g.id === replay.game);
    const title = game?.title ?? replay.game;
    learnCards(game?.cards);
    installCardInfo();
    $("title").textContent = `Replay: ${title}`;
    const winners = (summary.result?.winners ?? []).map((w) => replay.names[w]).join(", ");
    $("summary").textContent = `${replay.names.join(", ")} · winner: ${winners || "none"} · rules ${replay.rules_version}`;
    $("slider").max = String(replay.steps.length);
    choices();
    fairness(report);
    wire();
    await show(Number(params.get("v")) || replay.steps.length);
  } catch (error) {
    failed(error);
  }
}

main();
