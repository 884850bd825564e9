// Playing as a player: the identity this browser holds (its player id, name and token, kept in
// localStorage under "hearthlog:player"), the sign-in panel (create a player, or paste a token
// kept from before), signing out, and the header's "you" link. The token is shown once, when the
// player is created; the server keeps only its hash.

import { ApiError, call } from "./api.js";
import { h, put } from "./dom.js";

const KEY = "hearthlog:player";

/** The player this browser is signed in as: {player_id, name, token}, or null. */
export function me() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    return kept?.token && kept?.player_id ? kept : null;
  } catch {
    return null;
  }
}

function keep(player) {
  localStorage.setItem(KEY, JSON.stringify(player));
}

/** Forget the player (its token goes with it: only the person's own copy can sign in again). */
export function signOut() {
  localStorage.removeItem(KEY);
}

/** Create a player named `name`; the token is kept in this browser and returned to be shown once. */
export async function createPlayer(name) {
  const made = await call("POST", "/players", { body: { name } });
  keep({ player_id: made.player_id, name: made.name, token: made.token });
  return made;
}

/** Sign in with a token kept from before: the server says whose it is (401 for a token it does not know). */
export async function signInWith(token) {
  const player = await call("GET", "/players/me", { token });
  keep({ player_id: player.player_id, name: player.name, token });
  return player;
}

/** The header's link to the signed-in player's page, or to the lobby's sign-in. */
export function markHeader() {
  const nav = document.querySelector("header.top nav");
  if (!nav || nav.querySelector("#you")) return;
  const player = me();
  nav.append(" · ", player
    ? h("a", { id: "you", href: `/player/${encodeURIComponent(player.player_id)}` }, `You: ${player.name}`)
    : h("a", { id: "you", href: "/#player" }, "Sign in"));
}

function refreshHeader() {
  const link = document.querySelector("#you");
  if (!link) return;
  link.previousSibling?.remove(); // the " · " before it
  link.remove();
  markHeader();
}

/**
 * The sign-in panel: signed out, a form to create a player and one to paste a token; signed in,
 * whose browser this is, a link to the player's page and *Sign out* (pressed twice). After a
 * player is created its token is shown once, with the warning to keep it. onChange() runs after
 * every change of who is signed in.
 */
export function signInPanel(box, onChange = () => {}) {
  const changed = () => {
    refreshHeader();
    onChange();
  };
  const draw = (shownToken = null, problem = "") => {
    const player = me();
    put(box, player ? signedIn(player, shownToken, () => { signOut(); draw(); changed(); })
      : signedOut(async (work) => {
        try {
          const token = await work();
          draw(token);
          changed();
        } catch (error) {
          draw(null, error instanceof ApiError && error.status === 401
            ? "That token is not a player's token here." : error.message);
        }
      }, problem));
  };
  draw();
}

function signedIn(player, shownToken, leave) {
  const parts = [h("p", {}, "Signed in as ",
    h("a", { href: `/player/${encodeURIComponent(player.player_id)}` }, h("strong", {}, player.name)),
    ": seats you take, and “Play now”, use your player.")];
  if (shownToken) {
    parts.push(h("div", { class: "token-once", role: "alert" },
      h("p", {}, h("strong", {}, "Keep this token now: it is shown only once."),
        " It is your player: copy it somewhere safe (a password manager). This browser keeps it until you sign out; ",
        "to play as you in another browser, or after signing out, paste it there."),
      h("p", { class: "mono", id: "new-token" }, shownToken)));
  }
  let asked = false;
  const button = h("button", { type: "button", id: "sign-out" }, "Sign out");
  button.addEventListener("click", () => {
    if (asked) return leave();
    asked = true;
    button.textContent = "Really sign out? Without your token you cannot sign in again: press again";
    button.classList.add("danger");
  });
  parts.push(h("div", { class: "row" }, button));
  return parts;
}

function signedOut(attempt, problem) {
  const name = h("input", { id: "player-name", type: "text", maxlength: 32, required: true, autocomplete: "nickname" });
  const create = h("form", { class: "join", "aria-label": "Create a player" },
    h("div", { class: "field" }, h("label", { for: "player-name" }, "Player name"), name),
    h("button", { type: "submit", class: "primary" }, "Create a player"));
  create.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => (await createPlayer(name.value)).token);
  });
  const token = h("input", { id: "player-token", type: "password", required: true, autocomplete: "off", spellcheck: "false" });
  const paste = h("form", { class: "join", "aria-label": "Sign in with a token" },
    h("div", { class: "field" }, h("label", { for: "player-token" }, "Your player token"), token),
    h("button", { type: "submit" }, "Sign in"));
  paste.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      await signInWith(token.value.trim());
      return null;
    });
  });
  return [
    h("p", { class: "meta" }, "Play as a player to keep a history and a rating across matches, and to use “Play now”. ",
      "Without one you can still take seats by name."),
    problem ? h("p", { class: "status error" }, problem) : null,
    h("div", { class: "sign-in" }, create, paste),
  ];
}

/** The seat the signed-in player holds in a match (among its 100 newest matches), or null. */
export async function seatIn(matchId) {
  const player = me();
  if (!player) return null;
  const page = await call("GET", `/players/${encodeURIComponent(player.player_id)}/matches?limit=100`);
  const found = (page.matches ?? []).find((m) => m.match_id === matchId);
  return found && Number.isInteger(found.seat) ? found.seat : null;
}
