"""The web client: the lobby at `/`, a match's table at `/play/{id}`, its replay at `/replay/{id}`,
a tournament at `/tournament/{id}`, a game's leaderboard at `/leaderboard/{game}`, a player at
`/player/{id}`.

One HTML page and ES modules from ``service/http/web`` (no build step; docs/web.md says why): the
page loads the module its address names, which calls only the public API. None of these routes
is in the OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Router, get
from litestar.params import FromPath
from litestar.response import File
from litestar.static_files import create_static_files_router

WEB = Path(__file__).resolve().parent.parent / "web"


def page() -> File:
    """The client's one HTML page (it loads the module of the page its address names)."""
    return File(WEB / "index.html", media_type="text/html",  # litestar adds the charset
                content_disposition_type="inline")


@get("/", include_in_schema=False, sync_to_thread=False)
def lobby() -> File:
    """The lobby: games, open matches, create, join, start."""
    return page()


@get("/play/{match_id:str}", include_in_schema=False, sync_to_thread=False)
def table(match_id: FromPath[str]) -> File:
    """A match's table: a seat's (with its token kept in the browser) or the spectator's."""
    return page()


@get("/replay/{match_id:str}", include_in_schema=False, sync_to_thread=False)
def replay(match_id: FromPath[str]) -> File:
    """A finished match stepped through, with its fairness panel."""
    return page()


@get("/tournament/{tournament_id:str}", include_in_schema=False, sync_to_thread=False)
def tournament(tournament_id: FromPath[str]) -> File:
    """A tournament's rounds, tables (linking to their matches) and standings."""
    return page()


@get("/leaderboard/{game:str}", include_in_schema=False, sync_to_thread=False)
def leaderboard(game: FromPath[str]) -> File:
    """A game's ratings, best first, paged; provisional ones marked."""
    return page()


@get("/player/{player_id:str}", include_in_schema=False, sync_to_thread=False)
def player(player_id: FromPath[str]) -> File:
    """A player: its ratings with their history charted, its matches and tournaments."""
    return page()


def web_client() -> Router:
    """The pages and their assets (/ui/...)."""
    assets = create_static_files_router(path="/ui", directories=[WEB], include_in_schema=False)
    pages = [lobby, table, replay, tournament, leaderboard, player]
    return Router(path="/", route_handlers=[*pages, assets])
