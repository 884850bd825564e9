"""`hearthlog play`: a plain-text client that plays one seat of a match from a terminal.

It shows the seat's view, the log and the numbered legal actions, reads a number, and follows
the match stream (GET /matches/{id}/stream), reconnecting with Last-Event-ID when it drops. One
request a move: the legal actions come with each stream update and with each command's answer.
"""

from __future__ import annotations

import argparse
import json
import queue
import select
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

import httpx

from service.names import shown

READ_TIMEOUT = 60.0  # longer than the server's heartbeat: a silent stream is reconnected


class Message:
    """One Server-Sent Event: its id, its event type and its data."""

    def __init__(self) -> None:
        self.id: str | None = None
        self.event = "message"
        self.data: list[str] = []


class SseParser:
    """A text/event-stream read line by line; comment lines (heartbeats) are skipped."""

    def __init__(self) -> None:
        self.message = Message()

    def feed(self, line: str) -> Message | None:
        """Take one line; the message it completes, if any."""
        if not line:
            done, self.message = self.message, Message()
            return done if done.data else None
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            self.message.id = value
        elif field == "event":
            self.message.event = value
        elif field == "data":
            self.message.data.append(value)
        return None


def sse_messages(lines: Iterable[str]) -> Iterator[Message]:
    """The messages of a text/event-stream."""
    parser = SseParser()
    for line in lines:
        if (message := parser.feed(line)) is not None:
            yield message


def follow(client: httpx.Client, match_id: str, updates: queue.Queue[dict[str, Any]]) -> None:
    """Put every stream update on the queue, forever; reconnect after Last-Event-ID on a drop."""
    last: str | None = None
    while True:
        headers = {} if last is None else {"Last-Event-ID": last}
        try:
            with client.stream(
                "GET",
                f"/matches/{match_id}/stream",
                headers=headers,
                timeout=httpx.Timeout(10, read=READ_TIMEOUT),
            ) as answer:
                answer.raise_for_status()
                for message in sse_messages(answer.iter_lines()):
                    last = message.id or last
                    updates.put(json.loads("\n".join(message.data)))
        except httpx.HTTPError:
            time.sleep(1)


class Table:
    """The terminal player: what it last saw, and whether it is waiting for a choice."""

    def __init__(self, client: httpx.Client, match_id: str, seat: int) -> None:
        self.client, self.match_id, self.seat = client, match_id, seat
        self.view: dict[str, Any] | None = None
        self.offered: list[dict[str, Any]] = []  # the legal actions at the view's version
        self.actions: list[dict[str, Any]] = []
        self.asked: int | None = None  # the version the open question was asked at

    def take(self, update: dict[str, Any]) -> None:
        """Print an update's log lines and keep its view and legal actions."""
        for line in update["log"]:
            print(shown(("  (to you) " if line["private"] else "  ") + line["text"]))
        self.see(update["view"], update.get("actions", []))

    def see(self, view: dict[str, Any], actions: list[dict[str, Any]]) -> None:
        """Keep a view and the legal actions at its version, unless a later one is kept."""
        if self.view is None or view["version"] >= self.view["version"]:
            self.view, self.offered = view, actions

    def ask_if_my_turn(self) -> None:
        """When this seat owes an action: show the table and the numbered legal actions."""
        view = self.view
        if view is None or self.seat not in view["to_act"] or self.asked == view["version"]:
            return
        if not self.offered:
            return
        self.actions, self.asked = self.offered, view["version"]
        print(render(view))
        for number, action in enumerate(self.actions, start=1):
            print(shown(f"  {number}. {action['label']}"))
        ends = view.get("deadline")
        clock = f" (played for you at {ends[11:19]} UTC)" if ends else ""
        print(f"Your move{clock}: type a number, or q to leave.", flush=True)

    def answer(self, line: str) -> bool:
        """Act on a typed line; False to leave."""
        choice = line.strip()
        if choice == "q":
            return False
        if self.asked is None or not choice.isdigit() or not 1 <= int(choice) <= len(self.actions):
            print(f"Type a number from 1 to {len(self.actions)}, or q.", flush=True)
            return True
        body = {"command": self.actions[int(choice) - 1]["command"], "expected_version": self.asked}
        sent = self.client.post(f"/matches/{self.match_id}/commands", json=body)
        if sent.status_code != 200:
            print(shown(f"Not played: {sent.json().get('detail', sent.text)}"), flush=True)
        else:
            self.see(sent.json()["view"], sent.json().get("actions", []))
        self.asked = None
        return True


def render(view: dict[str, Any]) -> str:
    """The table as text: each seat, your hand and notes, then what lies face up (each line's
    unsafe characters escaped)."""
    board = view.get("board") or {}
    bots = {p["seat"]: p.get("bot") for p in view["players"]}
    lines = [f"--- version {view['version']}, round {board.get('round', '?')} ---"]
    for seat in board.get("seats", []):
        state = "lit" if seat.get("lit") else "out"
        tags = (" (you)" if seat.get("you") else "") + (" [bot]" if bots.get(seat["seat"]) else "")
        logged = ", ".join(seat.get("lantern_log", [])) or "-"
        lines.append(
            f"  seat {seat['seat']} {seat['name']}{tags}: {state}, "
            f"embers {seat.get('embers', 0)}, lantern log: {logged}"
        )
    lines.append(f"Your hand: {', '.join(board.get('hand', [])) or '-'}")
    lines += [f"  {note['text']}" for note in board.get("notes", [])]
    lines.append(
        f"In the ash: {', '.join(board.get('ash', [])) or '-'}; "
        f"deck: {board.get('deck_size', '?')} cards"
    )
    return "\n".join(map(shown, lines))  # a name or card from the server drives no terminal


def finished(view: dict[str, Any] | None) -> bool:
    """Whether the match is over (then the result is printed)."""
    if view is None or view["status"] != "finished":
        return False
    print(render(view))
    result = (view.get("board") or {}).get("result") or {}
    names = {p["seat"]: p["name"] for p in view["players"]}
    winners = " and ".join(names[seat] for seat in result.get("winners", []))
    print(shown(f"The match is over. Winner: {winners or 'see the log'}."), flush=True)
    return True


def join(
    client: httpx.Client, match_id: str, name: str, client_seed: str | None
) -> tuple[int, str]:
    """Take the next free seat; its number and token."""
    body = {"name": name, **({"client_seed": client_seed} if client_seed else {})}
    answer = client.post(f"/matches/{match_id}/seats", json=body)
    if answer.status_code != 201:
        raise SystemExit(f"could not join: {answer.json().get('detail', answer.text)}")
    seat, token = answer.json()["seat"], answer.json()["token"]
    print(f"You took seat {seat}. Your seat token (to come back with --seat-token): {token}")
    return seat, token


def play(args: argparse.Namespace) -> int:
    """Join or rejoin a seat, then follow the match and play it until it ends or you leave."""
    client = httpx.Client(base_url=args.url, timeout=30)
    token = args.seat_token or join(client, args.match, args.name, args.client_seed)[1]
    client.headers["authorization"] = f"Bearer {token}"
    view = client.get(f"/matches/{args.match}/view")
    if view.status_code != 200:
        raise SystemExit(f"cannot see the match: {view.json().get('detail', view.text)}")
    table = Table(client, args.match, view.json()["seat"])
    updates: queue.Queue[dict[str, Any]] = queue.Queue()
    streaming = httpx.Client(base_url=args.url, headers=client.headers)
    threading.Thread(target=follow, args=(streaming, args.match, updates), daemon=True).start()
    return loop(table, updates)


def loop(table: Table, updates: queue.Queue[dict[str, Any]]) -> int:
    """Print updates as they come and answer questions as they are typed."""
    while True:
        try:
            table.take(updates.get(timeout=0.2))
            continue
        except queue.Empty:
            pass
        if finished(table.view):
            return 0
        table.ask_if_my_turn()
        if table.asked is not None and _typed():
            line = sys.stdin.readline()
            if not line or not table.answer(line):  # end of input, or q
                return 0


def _typed() -> bool:
    """Whether a line waits on standard input."""
    return bool(select.select([sys.stdin], [], [], 0.1)[0])
