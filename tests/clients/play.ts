// Plays one whole match of a game through the client openapi-typescript and openapi-fetch build
// from openapi/openapi.json: every seat a person, each sending its legal actions in turn.
// Usage: node out/play.js <base url> <game> <seats> <options as JSON>; prints a JSON summary.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

declare const process: { argv: string[] };  // node's, without the @types/node package
type Client = ReturnType<typeof createClient<paths>>;
type Command = components["schemas"]["SendCommand"]["command"];
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
): Promise<{ matchId: string; players: Client[] }> {
  // Create the match, take every seat, start it as the host.
  const created = await client(baseUrl).POST("/matches", { body: { game, seats, options } });
  if (!created.data) fail("create", created.error);
  const matchId = created.data.match_id;
  const players: Client[] = [];
  for (let seat = 0; seat < seats; seat++) {
    const joined = await client(baseUrl).POST("/matches/{match_id}/seats", {
      params: { path: { match_id: matchId } },
      body: { name: `Seat ${seat}` },
    });
    if (!joined.data?.token) fail("join", joined.error);
    players.push(client(baseUrl, joined.data.token));
  }
  const host = client(baseUrl, created.data.host_token);
  const started = await host.POST("/matches/{match_id}/start", {
    params: { path: { match_id: matchId } },
  });
  if (!started.data) fail("start", started.error);
  return { matchId, players };
}

async function move(player: Client, matchId: string, pick: number): Promise<string | null> {
  // Send one of the seat's legal actions (if it has any); its label, or null.
  const path = { match_id: matchId };
  const legal = await player.GET("/matches/{match_id}/legal-actions", { params: { path } });
  if (!legal.data) fail("legal-actions", legal.error);
  if (legal.data.actions.length === 0) return null;
  const action = legal.data.actions[pick % legal.data.actions.length];
  const command: Command = action.command;
  const sent = await player.POST("/matches/{match_id}/commands", {
    params: { path },
    body: { command, expected_version: legal.data.version },
  });
  if (!sent.data) fail("command", sent.error);
  return action.label;
}

async function main(): Promise<void> {
  // Play until the match is finished; print what was played.
  const [baseUrl, game, seatsText, optionsText] = process.argv.slice(2);
  const { matchId, players } = await open(baseUrl, game, Number(seatsText), JSON.parse(optionsText));
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
    if (view.data.status === "finished") {
      console.log(JSON.stringify({ match_id: matchId, moves: labels.length, labels }));
      return;
    }
  }
  throw new Error(`the match did not end within ${MAX_MOVES} moves`);
}

await main();
