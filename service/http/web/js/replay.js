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
// "spectator", "seat-N" or "state"; a browser holding a seat of the match sees as that seat.
let as = params.get("as") || (held(matchId).token ? `seat-${held(matchId).seat}` : "spectator");
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
        button("next", "Next version", "▶", "ArrowRight"), button("last", "Last version", "▶▶", "End"),
        h("button", { type: "button", id: "autoplay", "aria-pressed": "false", "aria-keyshortcuts": "p" }, "Play")),
      h("div", { class: "row" },
        h("output", { id: "position", for: "slider", class: "position" }),
        h("label", { for: "as" }, "Seen by"), h("select", { id: "as" }),
        h("button", { type: "button", id: "share" }, "Copy a link to this")),
      h("p", { class: "meta" }, "Arrow keys step, Home and End jump to the ends, P plays and pauses.")),
    h("div", { class: "layout" },
      h("div", { class: "board-column" },
        h("p", { id: "event", class: "event" }),
        h("section", { id: "table", class: "table", "aria-label": "The table at this version" }),
        h("section", { id: "fairness", class: "fairness", "aria-labelledby": "fairness-title" },
          h("h2", { id: "fairness-title" }, "Fairness"),
          h("dl", { id: "fairness-list", class: "generic" }),
          h("p", {}, h("a", { id: "download", class: "button", download: true }, "Download the export (JSON)")))),
      h("aside", { class: "log-column", "aria-labelledby": "log-title" },
        h("h2", { id: "moves-title" }, "Moves"),
        h("ol", { id: "moves", class: "log moves", tabindex: 0, "aria-labelledby": "moves-title" }),
        h("h2", { id: "log-title" }, "Log"),
        h("p", { id: "log-note", class: "meta" }),
        h("ol", { id: "log", class: "log", tabindex: 0, "aria-labelledby": "log-title" }))));
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
  // The event's own words (its log lines); whose move caused it is said apart, since an event
  // such as "Ash's turn begins" follows another seat's move.
  const said = shownLog().filter((line) => line.version === version).map((line) => line.text);
  const cause = step.seat === null || step.seat === undefined ? ""
    : ` (after ${replay.names[step.seat] ?? `seat ${step.seat}`}'s move)`;
  $("event").textContent = `${version}: ${said.join(" ") || step.type.replaceAll("_", " ")}${cause}`;
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

/** The log as the chosen viewer saw it: a seat's private lines only when the viewer is the
 * seat this browser holds (the API gives them to its token alone); otherwise public lines. */
function shownLog() {
  const mine = held(matchId);
  const own = mine.token && as === `seat-${mine.seat}`;
  return own ? log : log.filter((line) => !line.private);
}

function drawLog() {
  const mine = held(matchId);
  const lines = shownLog().filter((line) => line.version <= version);
  $("log-note").textContent = as.startsWith("seat-") && !(mine.token && as === `seat-${mine.seat}`)
    ? "Public lines only: a seat's private lines are given to its own browser alone." : "";
  put($("log"), lines.map((line) =>
    h("li", { class: `${line.version === version ? "current" : ""} ${line.private ? "private" : ""}`,
      "data-version": line.version },
      h("span", { class: "version" }, line.version),
      line.private ? h("span", { class: "tag" }, "only you") : null, line.text)));
  // Scroll the log itself (never the page) to the last line at or before this version.
  const box = $("log");
  const last = box.lastElementChild;
  if (last) box.scrollTop = last.offsetTop - box.offsetTop - box.clientHeight + last.offsetHeight + 8;
  drawMoves();
}

/** "3. Ash played the Gale on Bryn.": the move's first public line, its seat named once. */
function moveText(i, step, line) {
  const name = replay.names[step.seat] ?? `seat ${step.seat}`;
  const text = line ?? step.command.type.replaceAll("_", " ");
  return `${i + 1}. ${text.startsWith(name) ? "" : `${name}: `}${text}`;
}

/** The players' moves (the events a seat's command caused), each a link to its version. */
function drawMoves() {
  const said = new Map();
  for (const line of log) if (!line.private && !said.has(line.version)) said.set(line.version, line.text);
  const moves = replay.steps.filter((s) => s.seat !== null && s.seat !== undefined && s.command
    && s.command.type !== "join_seat" && s.command.type !== "start_match");
  const box = $("moves");
  put(box, moves.map((s, i) => h("li", { class: s.version <= version && (moves[i + 1]?.version ?? Infinity) > version ? "current" : "" },
    h("button", { type: "button", class: "link", onclick: () => show(s.version).catch(failed) },
      moveText(i, s, said.get(s.version))))));
  const current = box.querySelector(".current");
  box.scrollTop = current ? current.offsetTop - box.offsetTop - box.clientHeight / 2 : 0;
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
  $("autoplay").addEventListener("click", autoplay);
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
    else if (event.key === "p" || event.key === "P") autoplay();
    else return;
    event.preventDefault();
  });
}

let playing = null; // the autoplay's timer

/** Play the match forward, a version every 0.8 s, to its end; pressed again, pause. */
function autoplay() {
  const button = $("autoplay");
  if (playing) {
    clearInterval(playing);
    playing = null;
  } else {
    if (version >= replay.steps.length) show(1).catch(failed);
    playing = setInterval(() => {
      if (version >= replay.steps.length) autoplay();
      else show(version + 1).catch(failed);
    }, 800);
  }
  button.textContent = playing ? "Pause" : "Play";
  button.setAttribute("aria-pressed", String(Boolean(playing)));
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
