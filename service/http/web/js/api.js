// The public REST API and the match stream, as the pages use them. Nothing private: every call
// here is in docs/api.md. Tokens live in the browser's localStorage, per match.

/** An API error: its status and the server's message naming the problem. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

/** Call the API; JSON in, JSON out; a refusal raises ApiError with the server's detail. */
export async function call(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  const data = text ? JSON.parse(text) : null;
  if (!answer.ok) throw new ApiError(answer.status, data?.detail ?? answer.statusText);
  return data;
}

const KEY = (matchId) => `hearthlog:match:${matchId}`;

/** What this browser holds for a match: {seat, token, name, host_token}. */
export function held(matchId) {
  try {
    return JSON.parse(localStorage.getItem(KEY(matchId)) || "{}");
  } catch {
    return {};
  }
}

/** Remember more about a match (a seat's token, the host token). */
export function hold(matchId, more) {
  localStorage.setItem(KEY(matchId), JSON.stringify({ ...held(matchId), ...more }));
}

/** Forget a match's seat (the page then shows the spectator's view). */
export function release(matchId) {
  const { host_token } = held(matchId);
  localStorage.setItem(KEY(matchId), JSON.stringify(host_token ? { host_token } : {}));
}

/**
 * Follow a match's stream: onUpdate(update) for every message. With a seat token it trades it
 * for a short-lived stream ticket first (EventSource sends no Authorization header), and asks
 * for a new ticket whenever the stream has to be opened again. Returns a function that stops.
 */
export function follow(matchId, token, onUpdate, onTrouble) {
  let source = null;
  let stopped = false;
  let retry = null;

  async function open() {
    let url = `/matches/${matchId}/stream`;
    if (token) {
      const { ticket } = await call("POST", `/matches/${matchId}/stream-ticket`, { token });
      url += `?ticket=${encodeURIComponent(ticket)}`;
    }
    if (stopped) return;
    source = new EventSource(url);
    source.addEventListener("update", (message) => onUpdate(JSON.parse(message.data)));
    source.addEventListener("error", () => {
      // EventSource retries by itself while the stream is merely interrupted (same URL,
      // Last-Event-ID); once closed, a new ticket is needed and everything comes again.
      if (source.readyState === EventSource.CLOSED) again();
    });
  }

  function again() {
    if (stopped || retry) return;
    onTrouble?.();
    retry = setTimeout(() => {
      retry = null;
      open().catch(failed);
    }, 1500);
  }

  function failed(error) {
    onTrouble?.(error);
    // A token this match does not know (401, 403, 404) will not start working: stop there.
    if (!(error instanceof ApiError && [401, 403, 404].includes(error.status))) again();
  }

  open().catch(failed);
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
}

/** The match id in the page's path (/play/<id>, /replay/<id>). */
export function matchIdFromPath() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
}

/** Whether a paged answer has a page after this one (its next_offset; else a full page). */
export function hasMore(page, shown, limit) {
  return "next_offset" in page ? page.next_offset !== null : shown >= limit;
}
