// The one page the server sends for /, /play/{id} and /replay/{id}: it loads the module of the
// page its address names, which builds its own skeleton in <main>.

const path = location.pathname;
const page = path.startsWith("/play/") ? "play" : path.startsWith("/replay/") ? "replay" : "lobby";
import(`./${page}.js`);
