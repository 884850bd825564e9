"""Clients pinned to one worker process each, of a server run with `--workers N`.

A keep-alive connection is served by the worker that accepted it for as long as it stays open,
so a client holding one connection talks to one worker. Which worker accepted it is read from
the operating system: the worker process whose socket has the client's port at its far end.
"""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import psutil

from tests.servers import Server


def workers_of(server: Server) -> list[int]:
    """The pids of the server's worker processes: its children listening on its port."""
    found = []
    for child in psutil.Process(server.process.pid).children(recursive=True):
        try:
            sockets = child.net_connections("tcp")
        except psutil.NoSuchProcess:
            continue
        if any(s.status == psutil.CONN_LISTEN and s.laddr.port == server.port for s in sockets):
            found.append(child.pid)
    return sorted(found)


def serving_worker(server: Server, client_port: int) -> int | None:
    """The worker whose end of a connection faces the client's ``client_port``."""
    for pid in workers_of(server):
        for sock in psutil.Process(pid).net_connections("tcp"):
            if sock.raddr and sock.raddr.port == client_port and sock.laddr.port == server.port:
                return pid
    return None


def one_connection(server: Server, headers: dict[str, str] | None = None) -> httpx.AsyncClient:
    """A client that keeps a single connection to the server."""
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=600)
    return httpx.AsyncClient(base_url=server, headers=headers or {}, limits=limits,
                             timeout=httpx.Timeout(30, read=60))


async def pinned(server: Server, headers: dict[str, str] | None = None,
                 seconds: float = 60) -> dict[int, httpx.AsyncClient]:
    """One client per worker of the server (by worker pid), each on one kept-alive connection
    that worker accepted; the spare clients opened while looking are closed."""
    expected = server.workers
    found: dict[int, httpx.AsyncClient] = {}
    deadline = asyncio.get_running_loop().time() + seconds
    while len(found) < expected:
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"reached {len(found)} of {expected} workers in {seconds} s")
        client = one_connection(server, headers)
        answer = await client.get("/health")
        port = answer.extensions["network_stream"].get_extra_info("client_addr")[1]
        pid = serving_worker(server, port)
        if answer.status_code == 200 and pid is not None and pid not in found:
            found[pid] = client
        else:
            await client.aclose()
    return found


async def worker_of(server: Server, client: httpx.AsyncClient) -> int | None:
    """The worker a pinned client's connection is served by now."""
    answer = await client.get("/health")
    return serving_worker(server, answer.extensions["network_stream"].get_extra_info(
        "client_addr")[1])


async def sessions(database_url: str, application: str) -> int:
    """How many sessions of the database carry this application name now."""
    connection = await asyncpg.connect(database_url)
    try:
        return await connection.fetchval(
            """SELECT count(*) FROM pg_stat_activity
            WHERE application_name = $1 AND datname = current_database()""", application)
    finally:
        await connection.close()
