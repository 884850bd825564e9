// A match's table: the lobby of the match (seats, join, bots, start) while it fills, then the
// seat's view drawn by its game's table, the legal actions as buttons, the log and the turn
// clock, all from the seat's stream (the spectator's without a seat token in this browser).

import { call, follow, held, hold, matchIdFromPath, release } from "./api.js";
import { installCardInfo, learnCards, rulesPanel } from "./cardinfo.js";
import { $, h, put, say, titled } from "./dom.js";
import { Picker } from "./picker.js";
import { me, seatIn } from "./player.js";
import { drawTable, groupActions, rulesOf } from "./tables/index.js";
import { turnSignal } from "./signal.js";

const matchId = matchIdFromPath();
const spectating = new URLSearchParams(location.search).get("as") === "spectator";
let mine = spectating ? {} : held(matchId);
let view = null;
let actions = [];
let lines = new Map(); // "version:index:text" -> line, in order
let logAnew = true; // the log was started again (a new stream): draw it all anew
let stop = null;
let sending = false;
let conceding = false;
const signal = turnSignal();

/** The table's skeleton: heading, status, clock, seats, table, moves, controls, and the log. */
function skeleton() {
  $("main").className = "play";
  put($("main"),
    h("div", { class: "heading" }, h("h1", { id: "title" }, "Loading the match…"),
      h("p", { id: "whoami", class: "meta" })),
    h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    h("p", { id: "clock", class: "clock", "aria-live": "off" }),
    h("section", { id: "seating", class: "seating", "aria-label": "Seats", hidden: true }),
    h("div", { class: "layout" },
      h("div", { class: "board-column" },
        h("section", { id: "actions", class: "actions", "aria-labelledby": "actions-title", tabindex: -1, hidden: true },
          h("h2", { id: "actions-title" }, "Your moves"),
          h("p", { class: "meta" }, "Pick a card, then its target and option: press the key shown on a move (Esc goes back), or Tab to it and press Enter."),
          h("div", { id: "action-list" })),
        h("section", { id: "table", class: "table", "aria-label": "The table" }),
        h("div", { id: "rules-box" }),
        h("div", { id: "footer-controls", class: "controls" })),
      h("aside", { class: "log-column", "aria-labelledby": "log-title" },
        h("h2", { id: "log-title" }, "Log"),
        h("ol", { id: "log", class: "log", "aria-live": "polite", tabindex: 0, "aria-label": "Log lines" }))));
}

/** The seat this browser holds, or null for the spectator. */
const seat = () => (mine.token ? mine.seat : null);

function connect() {
  stop?.();
  lines = new Map();
  logAnew = true;
  stop = follow(matchId, mine.token, onUpdate, (error) => {
    if (error?.status === 401 || error?.status === 403) {
      release(matchId);
      mine = {};
      say("This browser's seat token is not valid for this match; you are watching.", "error");
      connect();
    } else if (error?.status === 404) {
      say("There is no such match.", "error");
    } else {
      say("The stream was interrupted; reconnecting…", "warn");
    }
  });
}

function onUpdate(update) {
  if (update.first === 1) {
    lines = new Map();
    logAnew = true;
  }
  update.log.forEach((line, i) => lines.set(`${line.version}:${i}:${line.text}`, line));
  view = update.view;
  actions = update.actions ?? [];
  sending = false;
  if ($("status").classList.contains("warn")) say("");
  render().catch((error) => say(error.message, "error"));
}

let rulesFor = null; // the game whose cards and rules panel are drawn
function learnGame(game) {
  if (rulesFor === game) return;
  rulesFor = game;
  learnCards(games?.[game]?.cards);
  put($("rules-box"), rulesPanel(titleOf(game), rulesOf(game, games?.[game]?.cards)));
}

async function render() {
  const names = view.players.map((p) => p.name);
  learnGame(view.game);
  $("title").textContent = `${titleOf(view.game)} · ${statusText(view)}`;
  signal.update(view, seat(), `Hearthlog: ${titleOf(view.game)}`);
  const hosting = Boolean(held(matchId).host_token);
  $("whoami").textContent = seat() !== null ? `You are ${names[seat()] ?? "seated"} (seat ${seat()}).`
    : hosting && view.status === "lobby" ? "You host this match: take a seat to play, or give the seats to bots."
      : hosting ? "You host this match and hold no seat in it: you are watching." : "You are watching as a spectator.";
  await drawSeating();
  put($("table"), view.board ? drawTable(view) : h("p", { class: "meta" }, "The table is set once the match starts."));
  drawActions();
  drawControls();
  drawLog();
  tick();
}

let games = null; // id -> the game as GET /games describes it
function titleOf(game) {
  return games?.[game]?.title ?? game;
}

function statusText(v) {
  if (v.status === "lobby") return "waiting for players";
  if (v.status === "finished") return "finished";
  const acting = v.to_act.map((s) => (s === seat() ? "you" : v.players[s]?.name)).join(", ");
  return acting ? `${acting} to act` : "playing";
}

/** While the match fills: every seat, the join form, a bot for the next seat, start. */
async function drawSeating() {
  const box = $("seating");
  if (view.status !== "lobby") {
    box.hidden = true;
    return;
  }
  const summary = await call("GET", `/matches/${matchId}`);
  const free = summary.seats - summary.players.length;
  const seats = [];
  for (let i = 0; i < summary.seats; i++) {
    const p = summary.players[i];
    seats.push(h("li", { class: p ? "taken" : "free" },
      `Seat ${i}: `, p ? `${p.name}${p.bot ? ` (${p.bot} bot)` : ""}${i === seat() ? " (you)" : ""}` : "free"));
  }
  const parts = [h("h2", {}, "Seats"), h("ul", { class: "seats" }, seats)];
  if (free > 0 && seat() === null) {
    const player = me(); // signed in: the seat is the player's, its name unless another is given
    const name = h("input", { id: "join-name", type: "text", maxlength: 32, required: !player,
      placeholder: player?.name, autocomplete: "nickname" });
    const clientSeed = h("input", { id: "join-seed", type: "text", maxlength: 128, placeholder: "optional" });
    const form = h("form", { class: "join", "aria-label": "Take a seat" },
      h("div", { class: "field" }, h("label", { for: "join-name" }, player ? "Your name (yours as a player if empty)" : "Your name"), name),
      h("button", { type: "submit", class: "primary" }, "Take a seat"),
      h("details", { class: "field advanced" }, h("summary", {}, "Advanced"),
        h("div", { class: "field" }, h("label", { for: "join-seed" }, "Your client seed"), clientSeed,
          h("small", { class: "help" }, "Optional: any text of yours, mixed into the match's seed, so that afterwards " +
            "you can check the server could not choose the deal alone (the replay's fairness panel)."))));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const body = {};
        if (name.value || player) body.name = name.value || player.name;
        if (clientSeed.value) body.client_seed = clientSeed.value;
        const taken = await call("POST", `/matches/${matchId}/seats`, { body, token: player?.token });
        // A player's own token acts for its seat: the browser keeps that, not a second token.
        hold(matchId, { seat: taken.seat, token: player?.token ?? taken.token, name: name.value || player?.name });
        mine = held(matchId);
        say(`You took seat ${taken.seat}. Your seat is kept in this browser.`);
        connect();
      } catch (error) {
        say(`Could not take a seat: ${error.message}`, "error");
      }
    });
    parts.push(form);
  }
  if (free > 0) {
    const kinds = games?.[view.game]?.bots?.length ? games[view.game].bots : ["random"];
    const bot = h("select", { id: "bot-kind", "aria-label": "Bot" },
      kinds.map((kind) => h("option", { value: kind, selected: kind === "random" }, `${titled(kind)} bot`)));
    parts.push(h("div", { class: "row" }, bot,
      h("button", { type: "button", id: "add-bot", onclick: () => addBot(bot.value) }, "Give the next seat to a bot")));
  }
  if (mine.host_token || held(matchId).host_token) {
    parts.push(h("button", { type: "button", id: "start", class: "primary", disabled: free > 0,
      onclick: start }, free > 0 ? `Start (${free} seat${free > 1 ? "s" : ""} free)` : "Start the match"));
  }
  parts.push(h("p", { class: "meta" }, "Share this page's address to invite others."));
  put(box, parts);
  box.hidden = false;
}

async function addBot(kind) {
  try {
    await call("POST", `/matches/${matchId}/seats`, { body: { bot: kind } });
  } catch (error) {
    say(`Could not add a bot: ${error.message}`, "error");
  }
}

async function start() {
  try {
    await call("POST", `/matches/${matchId}/start`, { token: held(matchId).host_token });
  } catch (error) {
    say(`Could not start: ${error.message}`, "error");
  }
}

/** The seat's legal actions, picked a card, then its target and option (picker.js). */
const picker = new Picker((action) => send(action));
let pickedBefore = null; // the actions the picker's choices were made among

function drawActions(focus = false) {
  const box = $("actions");
  const mineToAct = seat() !== null && view.status === "playing";
  box.hidden = !mineToAct;
  if (!mineToAct) return;
  if (!actions.length) {
    const inList = $("action-list").contains(document.activeElement);
    put($("action-list"), h("p", { class: "meta" }, "Nothing to do until it is your turn."));
    if (inList) box.focus(); // the focused move is gone: the keyboard stays on the moves
    pickedBefore = null;
    return;
  }
  const now = JSON.stringify(actions.map((a) => a.command));
  const changed = pickedBefore !== now;
  if (changed) picker.reset();
  pickedBefore = now;
  const inList = $("action-list").contains(document.activeElement);
  const before = inList && !changed ? document.activeElement.dataset.key : null;
  put($("action-list"), picker.draw(view, groupActions(view, actions), sending, (moved) => drawActions(moved)));
  // Keep the keyboard on the moves: after a step, on its first choice; after a toggle, where it was.
  const target = focus ? $("action-list").querySelector("button.action:not(.back):not(:disabled)")
    : before ? $("action-list").querySelector(`button.action[data-key="${before}"]`) : null;
  if (target && !target.disabled) target.focus();
  else if (inList) box.focus(); // the focused move is gone or waits for the server
}

async function send(action) {
  if (sending) return;
  sending = true;
  drawActions();
  try {
    // Alone to act, the move is meant for this very version; when several seats owe at once
    // (a simultaneous beat) another's move may land first, and the server decides this one
    // again on the new state (refusing it if it no longer fits).
    const body = { command: action.command };
    if (view.to_act.length === 1) body.expected_version = view.version;
    await call("POST", `/matches/${matchId}/commands`, { token: mine.token, body });
    say("");
    // Focus stays on the table's moves (not the page) for the next move.
    if (!$("actions").contains(document.activeElement)) $("actions").focus();
  } catch (error) {
    sending = false;
    drawActions();
    say(`Not played: ${error.message}`, "error");
  }
}

function drawControls() {
  const parts = [];
  if (seat() !== null && view.status !== "finished") parts.push(signal.control());
  if (view.status === "playing" && seat() !== null) {
    parts.push(h("button", { type: "button", id: "concede", class: conceding ? "danger" : "",
      onclick: concede }, conceding ? "Really concede? Press again" : "Concede"));
  }
  if (view.status === "finished") {
    parts.push(h("a", { class: "button primary", href: `/replay/${matchId}` }, "Replay this match"));
  }
  if (seat() !== null && view.status !== "playing") {
    parts.push(h("button", { type: "button", onclick: () => { release(matchId); mine = {}; connect(); } },
      "Leave the seat in this browser"));
  }
  if (seat() === null && held(matchId).token) {
    parts.push(h("a", { class: "button", href: `/play/${matchId}` }, "Back to your seat"));
  }
  put($("footer-controls"), parts);
}

async function concede() {
  if (!conceding) {
    conceding = true;
    drawControls();
    $("concede").focus();
    return;
  }
  conceding = false;
  try {
    await call("POST", `/matches/${matchId}/concede`, { token: mine.token });
  } catch (error) {
    say(`Could not concede: ${error.message}`, "error");
  }
}

/** The log: only new lines are added (so a screen reader hears those), all anew after a reset. */
function drawLog() {
  const box = $("log");
  const all = [...lines.values()];
  if (logAnew || box.children.length > all.length) box.replaceChildren();
  logAnew = false;
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.append(...all.slice(box.children.length).map((line) =>
    h("li", { class: line.private ? "private" : "", "data-version": line.version },
      h("span", { class: "version" }, line.version),
      line.private ? h("span", { class: "tag" }, "only you") : null, line.text)));
  if (atBottom) box.scrollTop = box.scrollHeight;
}

/** The turn clock: the time left to the view's deadline, every quarter second. */
function tick() {
  const el = $("clock");
  if (!view || view.status !== "playing" || !view.deadline) {
    el.textContent = "";
    el.className = "clock";
    return;
  }
  const left = Math.max(0, Math.ceil((Date.parse(view.deadline) - Date.now()) / 1000));
  const whose = view.to_act.includes(seat()) ? "Your clock" : "Clock";
  el.textContent = `${whose}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
  el.className = left <= 10 ? "clock low" : "clock";
}

document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  const button = document.querySelector(`#action-list button.action[data-key="${event.key}"]`);
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

async function main() {
  skeleton();
  try {
    const { games: list } = await call("GET", "/games");
    games = Object.fromEntries(list.map((g) => [g.id, g]));
  } catch {
    games = {};
  }
  installCardInfo();
  setInterval(tick, 250);
  if (!spectating && !mine.token && me()) {
    // A seat the signed-in player holds here (taken elsewhere, or by the matcher): its token acts for it.
    const found = await seatIn(matchId).catch(() => null);
    if (found !== null) {
      hold(matchId, { seat: found, token: me().token, name: me().name });
      mine = held(matchId);
    }
  }
  connect();
}

main();
