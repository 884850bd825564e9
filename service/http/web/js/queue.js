// "Play now": the signed-in player queues for a game (POST /queue), the lobby shows the wait and
// *Leave* (DELETE /queue), and the table opens once the matcher seats the player. The queue's
// stream (through a ticket, as a match's stream) says when something changed; GET /queue is
// what the page believes, and it is polled too, more often when the stream cannot be opened.

import { ApiError, call, hold } from "./api.js";
import { h, put, say } from "./dom.js";
import { me } from "./player.js";

const POLL_MS = 5000; // while the stream is open: a check now and then, in case a message is lost
const POLL_ALONE_MS = 2000; // without the stream

let box = null; // the lobby's waiting panel
let titles = {};
let source = null;
let timer = null;
let streaming = false;
let shown = null; // the waiting entry the panel shows (redrawn only when it changes, so focus stays)

/** Queue the signed-in player: {game, seats, rated, options, bots}; then follow the wait. */
export async function playNow(request) {
  const player = me();
  if (!player) throw new Error("sign in as a player first (above)");
  try {
    await call("POST", "/queue", { token: player.token, body: request });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    say("You are already waiting for a table: leave that queue first to queue for another.", "warn");
  }
  await check();
}

/** Show the player's place in the queue in `panel`, and keep it current (the lobby calls this once). */
export function followQueue(panel, gameTitles) {
  box = panel;
  titles = gameTitles;
  check().catch((error) => say(`Could not read your queue: ${error.message}`, "error"));
}

/** Ask the server where the player stands, and show it (or open the table it was seated at). */
async function check() {
  const player = me();
  let entry = null;
  if (player) {
    try {
      entry = await call("GET", "/queue", { token: player.token });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  if (entry?.status === "seated" && entry.match_id) return seated(entry, player);
  if (entry?.status === "waiting" || entry?.status === "forming") return waiting(entry, player);
  stopFollowing();
  shown = null;
  if (box) {
    put(box);
    box.hidden = true;
  }
}

function seated(entry, player) {
  stopFollowing();
  hold(entry.match_id, { seat: entry.seat, token: player.token, name: player.name });
  say("A table is ready: opening it…");
  location.assign(`/play/${entry.match_id}`);
}

function waiting(entry, player) {
  if (!box) return;
  const windowText = entry.status === "forming" ? "A table was formed: its match is being set up…"
    : `Matching players within ${entry.window.toFixed(1)} of your rating (μ); the window widens as you wait.`;
  const { window: _widening, ...fixed } = entry;
  if (JSON.stringify(fixed) === shown) {
    document.querySelector("#queue-window").textContent = windowText;
    return;
  }
  shown = JSON.stringify(fixed);
  const since = entry.waiting_since;
  const { min, max } = entry.seats;
  const seats = min === max ? `${min} seats` : `${min} to ${max} seats`;
  const waited = h("span", { id: "waited" });
  put(box,
    h("h2", { id: "queue-title" }, `Waiting for a ${titles[entry.game] ?? entry.game} table`),
    h("p", {}, `${seats}, ${entry.rated ? "rated" : "casual"}${entry.bots ? ", bots may fill" : ""}. `, waited),
    h("p", { id: "queue-window", class: "meta" }, windowText),
    h("button", { type: "button", id: "leave-queue", onclick: () => leave(player) }, "Leave the queue"));
  box.hidden = false;
  const show = () => {
    if (!since) return;
    const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(since)) / 1000));
    waited.textContent = `Waiting ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}.`;
  };
  show();
  startFollowing(player, show);
}

async function leave(player) {
  try {
    await call("DELETE", "/queue", { token: player.token });
    say("You left the queue.");
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) {
      say(`Could not leave the queue: ${error.message}`, "error");
      return;
    }
  }
  await check();
}

/** Open the queue's stream (once) and poll; every message or poll asks the server anew. */
function startFollowing(player, everySecond) {
  clearInterval(timer);
  let last = Date.now();
  timer = setInterval(() => {
    everySecond();
    if (Date.now() - last >= (streaming ? POLL_MS : POLL_ALONE_MS)) {
      last = Date.now();
      check().catch(() => {});
    }
  }, 1000);
  if (source) return;
  openStream(player).catch(() => { streaming = false; });
}

async function openStream(player) {
  const { ticket } = await call("POST", "/queue/stream-ticket", { token: player.token });
  source = new EventSource(`/queue/stream?ticket=${encodeURIComponent(ticket)}`);
  streaming = true;
  const nudge = () => check().catch(() => {});
  for (const name of ["waiting", "forming", "seated"]) source.addEventListener(name, nudge);
  source.addEventListener("error", () => {
    if (source?.readyState === EventSource.CLOSED) {
      source = null;
      streaming = false; // polling alone from now on
    }
  });
}

function stopFollowing() {
  clearInterval(timer);
  timer = null;
  source?.close();
  source = null;
  streaming = false;
}
