// The one page the server sends for /, /play/{id}, /replay/{id}, /tournament/{id},
// /leaderboard/{game} and /player/{id}: it loads the module of the page its address names, which
// builds its own skeleton in <main>, and marks the header with the player this browser holds.

import { markHeader } from "./player.js";

const path = location.pathname;
const pages = {
  "/play/": "play", "/replay/": "replay", "/tournament/": "tournament",
  "/leaderboard/": "leaderboard", "/player/": "player-page",
};
const page = Object.entries(pages).find(([prefix]) => path.startsWith(prefix))?.[1] ?? "lobby";
markHeader();
import(`./${page}.js`);
