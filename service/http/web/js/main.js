// The one page the server sends for /, /play/{id}, /replay/{id} and /tournament/{id}: it loads
// the module of the page its address names, which builds its own skeleton in <main>.

const path = location.pathname;
const pages = { "/play/": "play", "/replay/": "replay", "/tournament/": "tournament" };
const page = Object.entries(pages).find(([prefix]) => path.startsWith(prefix))?.[1] ?? "lobby";
import(`./${page}.js`);
