// Plays one whole match of a game through the client openapi-typescript and openapi-fetch build
// from openapi/openapi.json with their default options: every seat a person. In "turns" mode
// each seat in turn asks for its legal actions and sends one; in "stream" mode every seat
// follows its own stream (GET /matches/{id}/stream, Server-Sent Events) at once and sends one of
// the actions each update offers it, until its view says the match is finished.
// In "players" mode each seat is taken by a new player (POST /players) with its own token, and
// played in turns with it (the player's token acts for its seat).
// Usage: node out/play.js <base url> <game> <seats> <options as JSON> [turns|stream|players];
// prints a JSON summary.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

declare const process: { argv: string[] };  // node's, without the @types/node package
type Client = ReturnType<typeof createClient<paths>>;
type Command = components["schemas"]["SendCommand"]["command"];
type StreamUpdate = components["schemas"]["StreamUpdate"];
const MAX_MOVES = 5000;

function client(baseUrl: string, token?: string): Client {
  // A client for the server, sending a bearer token when given one.
  return createClient<paths>({
    baseUrl,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

function fail(what: string, error: unknown): never {
  // Stop the match with the server's answer.
  throw new Error(`${what}: ${JSON.stringify(error)}`);
}

async function open(
  baseUrl: string, game: string, seats: number, options: Record<string, unknown>,
  asPlayers = false,
): Promise<{ matchId: string; players: Client[] }> {
  // Create the match, take every seat, start it as the host. As players: each seat is taken by
  // a new player with its own token (an empty body), and played with that token.
  const created = await client(baseUrl).POST("/matches", { body: { game, seats, options } });
  if (!created.data) fail("create", created.error);
  const matchId = created.data.match_id;
  const players: Client[] = [];
  for (let seat = 0; seat < seats; seat++) {
    const player = asPlayers ? await newPlayer(baseUrl, `Seat ${seat} ${matchId.slice(0, 8)}`)
      : null;
    const joined = await (player ?? client(baseUrl)).POST("/matches/{match_id}/seats", {
      params: { path: { match_id: matchId } },
      body: player ? {} : { name: `Seat ${seat}` },
    });
    if (!joined.data?.token) fail("join", joined.error);
    players.push(player ?? client(baseUrl, joined.data.token));
  }
  const host = client(baseUrl, created.data.host_token);
  const started = await host.POST("/matches/{match_id}/start", {
    params: { path: { match_id: matchId } },
  });
  if (!started.data) fail("start", started.error);
  return { matchId, players };
}

async function newPlayer(baseUrl: string, name: string): Promise<Client> {
  // A new player (POST /players), and a client sending its token; it checks GET /players/me.
  const made = await client(baseUrl).POST("/players", { body: { name } });
  if (!made.data) fail("player", made.error);
  const player = client(baseUrl, made.data.token);
  const me = await player.GET("/players/me");
  if (me.data?.player_id !== made.data.player_id) fail("me", me.error);
  return player;
}

async function send(player: Client, matchId: string, command: Command, version: number) {
  // Send a command at the version it was offered at; the answer (a 409 if the match moved on).
  return player.POST("/matches/{match_id}/commands", {
    params: { path: { match_id: matchId } },
    body: { command, expected_version: version },
  });
}

async function move(player: Client, matchId: string, pick: number): Promise<string | null> {
  // Send one of the seat's legal actions (if it has any); its label, or null.
  const path = { match_id: matchId };
  const legal = await player.GET("/matches/{match_id}/legal-actions", { params: { path } });
  if (!legal.data) fail("legal-actions", legal.error);
  if (legal.data.actions.length === 0) return null;
  const action = legal.data.actions[pick % legal.data.actions.length];
  const sent = await send(player, matchId, action.command, legal.data.version);
  if (!sent.data) fail("command", sent.error);
  return action.label;
}

async function playTurns(matchId: string, players: Client[]): Promise<string[]> {
  // Seat after seat sends one of its legal actions until the match is finished.
  const labels: string[] = [];
  for (let round = 0; labels.length < MAX_MOVES; round++) {
    for (const player of players) {
      const label = await move(player, matchId, round * 7 + labels.length);
      if (label !== null) labels.push(label);
    }
    const view = await players[0].GET("/matches/{match_id}/view", {
      params: { path: { match_id: matchId } },
    });
    if (!view.data) fail("view", view.error);
    if (view.data.status === "finished") return labels;
  }
  throw new Error(`the match did not end within ${MAX_MOVES} moves`);
}

export async function* updates(player: Client, matchId: string): AsyncGenerator<StreamUpdate> {
  // Follow the seat's stream: each Server-Sent Event's data, a StreamUpdate. openapi-fetch
  // hands over the body unread (parseAs: "stream"); events end at a blank line, a line
  // starting with ":" is a heartbeat. The caller stops when it has seen enough.
  const { data, error } = await player.GET("/matches/{match_id}/stream", {
    params: { path: { match_id: matchId } },
    parseAs: "stream",
  });
  if (!data) fail("stream", error);
  const reader = data.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer = (buffer + value).replaceAll("\r\n", "\n");
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const lines = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const text = lines.filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart()).join("\n");
        if (text) yield JSON.parse(text) as StreamUpdate;
      }
    }
  } finally {
    await reader.cancel();
  }
}

async function followAndPlay(player: Client, matchId: string, labels: string[]): Promise<void> {
  // One seat: on each update that offers it actions, send one; stop once the match is over.
  for await (const update of updates(player, matchId)) {
    if (update.view.status === "finished") return;
    const actions = update.actions ?? [];
    if (actions.length === 0) continue;
    const action = actions[(update.version * 7) % actions.length];
    const sent = await send(player, matchId, action.command, update.version);
    if (sent.data) labels.push(action.label);
    else if (sent.response.status !== 409) fail("command", sent.error);  // 409: the next update
    if (labels.length >= MAX_MOVES) throw new Error(`no end within ${MAX_MOVES} moves`);
  }
  throw new Error("the stream ended before the match did");
}

async function main(): Promise<void> {
  // Play until the match is finished; print what was played.
  const [baseUrl, game, seatsText, optionsText, mode = "turns"] = process.argv.slice(2);
  const { matchId, players } = await open(baseUrl, game, Number(seatsText), JSON.parse(optionsText),
                                         mode === "players");
  let labels: string[] = [];
  if (mode === "stream") {
    await Promise.all(players.map((player) => followAndPlay(player, matchId, labels)));
  } else {
    labels = await playTurns(matchId, players);
  }
  console.log(JSON.stringify({ match_id: matchId, moves: labels.length, labels }));
}

await main();
