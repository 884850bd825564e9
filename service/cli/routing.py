"""`hearthlog serve --workers N --route-by-match`: N one-worker servers behind HAProxy, every
request of one match sent to the same one.

granian hands each connection to any of its workers, so one match's seats and streams are
spread over all of them: a command reaching a worker that did not make the match's last move
reads first, and a stream followed through it learns of the move only from the Postgres
announcement and a read. Routing by the match id in the path keeps each match on one worker,
which takes its own appends with no read (docs/scaling.md, "Several workers").

This module writes HAProxy's configuration (``haproxy_config``, the one place it is decided)
and runs the set: the N servers, each ``hearthlog serve --workers 1`` on a loopback port, then
Debian's ``haproxy`` in the foreground on the public address. A server that dies is started
again on its port (HAProxy's health check sends its matches to the others meanwhile); one that
dies again within ``CRASH_SECONDS`` of that, or HAProxy dying, stops the whole set.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

STARTUP_SECONDS = 90  # for a server to answer /health (it applies the migrations first)
CRASH_SECONDS = 5.5  # a server dying again this soon after its restart is a crash loop
STOP_SECONDS = 15  # for a server to stop after SIGTERM before it is killed
TRUSTED = "HEARTHLOG_TRUSTED_PROXIES"  # docs/limits.md: the client is the address HAProxy names

# Timeouts are for silence, not for a request's whole life: a stream sends a heartbeat every
# 15 s (HEARTHLOG_HEARTBEAT_SECONDS), so 60 s of silence is a dead peer; a stream itself may
# live for hours. The log line names the server that answered and the path without its query
# (a stream's ticket is in the query); headers, tokens and bodies are never logged.
CONFIG = """\
# Written by `hearthlog serve --route-by-match` (service/cli/routing.py); docs/scaling.md.
global
    # No maxconn: HAProxy takes as many connections as its file limit allows.
    log stdout format raw local0 info

defaults
    mode http
    log global
    log-format "{log_format}"
    option forwardfor
    # Send each part as it comes: without it a stream's small update may wait in the kernel
    # for more (HAProxy sends a body that is not over with MSG_MORE), 100 ms and more a move.
    option http-no-delay
    option redispatch
    retries 2
    timeout connect 5s
    timeout http-request 10s
    timeout http-keep-alive 60s
    timeout client 60s
    timeout server 60s
    timeout queue 10s

frontend hearthlog
    bind {host}:{port}
    # Every route of one match is /matches/{{match_id}}/...: its stream, its ticket, its
    # commands, views, log, replay and export. Nothing else names a match.
    acl names_a_match path_reg ^/matches/[^/]+(/|$)
    use_backend by_match if names_a_match
    default_backend any_worker

backend by_match
    # The match id (the path's third field) picks the server; consistent hashing, so a server
    # lost moves only its own matches, and they come back when it does.
    balance hash path,field(3,/)
    hash-type consistent
{checked}
backend any_worker
    # Listings, creating a match, players, tournaments, the queue, the web client: any server.
    balance roundrobin
{tracked}"""
# The most weight a server may have: the most points on the hash ring, so the most even split
# (4,000 random match ids over two servers: 51/49 at 256, 58/42 at the default 1).
CHECKED = "    server w{number} 127.0.0.1:{port} weight 256 check inter 2s fall 2 rise 2\n"
TRACKED = "    server w{number} 127.0.0.1:{port} track by_match/w{number}\n"  # the same check
LOG_FORMAT = '{"route":"%s","status":%ST,"method":"%HM","path":"%HP"}'  # one JSON line
CHECK = "    option httpchk GET /health\n    http-check expect status 200\n"


def haproxy_config(host: str, port: int, ports: list[int], health: bool = True) -> str:
    """HAProxy's configuration: ``host:port`` in front of one server per loopback port in
    ``ports``, named w1, w2, ... in that order (the names and order place them on the hash
    ring, so the same count gives the same match to the same server after a restart). Each
    server is checked by GET /health, or (``health`` false: bench/workers.py's bare app, which
    has no such route) by a TCP connection."""
    numbered = list(enumerate(ports, start=1))
    checked = "".join(CHECKED.format(number=n, port=each) for n, each in numbered)
    checked = (CHECK if health else "") + checked
    tracked = "".join(TRACKED.format(number=n, port=each) for n, each in numbered)
    quoted = LOG_FORMAT.replace('"', '\\"')
    return CONFIG.format(log_format=quoted, host=host, port=port, checked=checked, tracked=tracked)


def logged_routes(text: str) -> list[dict[str, Any]]:
    """HAProxy's request lines in ``text`` (its log, or the routed set's output, which holds the
    servers' lines too), one dict per request in ``LOG_FORMAT``: which server took it, the
    status, the method and the path."""
    return [json.loads(line) for line in text.splitlines() if line.startswith('{"route"')]


class Unroutable(Exception):
    """The routed set cannot start: HAProxy is missing, or a server did not come up."""


def haproxy_binary() -> str:
    """Debian's haproxy, or why there is none."""
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy")
                                        else None)
    if found is None:
        raise Unroutable("--route-by-match needs HAProxy 2.6 or later: apt-get install haproxy")
    return found


def free_port() -> int:
    """A loopback TCP port nothing listens on right now (the benches and tests use it too)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(url: str, port: int, server: str) -> subprocess.Popen[bytes]:
    """One `hearthlog serve --workers 1` on a loopback port (its output is this process's)."""
    return subprocess.Popen(
        [sys.executable, "-m", "service.cli.main", "serve", "--workers", "1", "--host",
         "127.0.0.1", "--port", str(port), "--database-url", url, "--server", server])


def wait_healthy(process: subprocess.Popen[bytes], port: int) -> None:
    """Wait until the server on ``port`` answers /health with 200."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Unroutable(f"the server on port {port} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise Unroutable(f"the server on port {port} did not answer /health in {STARTUP_SECONDS} s")


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each, then SIGKILL to any still running after STOP_SECONDS."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serve_routed(url: str, host: str, port: int, workers: int, server: str) -> int:
    """Run N servers and HAProxy in front of them until interrupted (0) or until HAProxy or a
    crash-looping server dies (1)."""
    binary = haproxy_binary()
    os.environ.setdefault(TRUSTED, "127.0.0.1")  # per-client limits see the real client
    ports = [free_port() for _ in range(workers)]
    config = Path(tempfile.mkdtemp(prefix="hearthlog-route-")) / "haproxy.cfg"
    config.write_text(haproxy_config(host, port, ports))
    servers = [start_server(url, each, server) for each in ports]
    restarted: list[float | None] = [None] * workers  # when each was last started again
    proxy: subprocess.Popen[bytes] | None = None
    try:
        for process, each in zip(servers, ports):
            wait_healthy(process, each)
        proxy = subprocess.Popen([binary, "-db", "-f", str(config)])
        base = f"http://{host}:{port}"  # the servers' own lines above name their loopback ports
        print(f"\nHearthlog is serving at {base}\nAPI docs: {base}/docs\nPlay in a browser: "
              f"{base}/\nHAProxy routes each match to one of {workers} servers (loopback ports "
              f"{', '.join(map(str, ports))}; its configuration: {config})\n", flush=True)
        while proxy.poll() is None:
            for number, process in enumerate(servers):
                if process.poll() is None:
                    continue
                last = restarted[number]
                if last is not None and time.monotonic() - last < CRASH_SECONDS:
                    raise Unroutable(f"the server on port {ports[number]} keeps dying")
                print(f"The server on port {ports[number]} died; starting it again", flush=True)
                servers[number] = start_server(url, ports[number], server)
                restarted[number] = time.monotonic()
            time.sleep(0.5)
        raise Unroutable(f"HAProxy exited with {proxy.returncode}")
    except Unroutable as error:
        print(f"hearthlog serve: {error}", file=sys.stderr, flush=True)
        return 1
    except (KeyboardInterrupt, SystemExit):  # SIGINT, or SIGTERM (serve's handler exits)
        return 0
    finally:
        stop([*([proxy] if proxy else []), *servers])
        shutil.rmtree(config.parent, ignore_errors=True)
