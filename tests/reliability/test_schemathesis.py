"""Schemathesis against openapi/openapi.json: thousands of generated requests, no 5xx, and every
answer (status, content type, headers, body) as the document says.

Every check runs, positive data acceptance included (a schema-valid request is accepted; only
where the rules of the match's game decide, creating a match, joining it and sending a command,
and those of a tournament's game, creating one and registering a bot, is 422 accepted too),
except `allow_header_conformance` (litestar's automatic OPTIONS answer lists one route's
methods). The phases are schemathesis's four: examples, coverage, fuzzing and
stateful (sequences of calls following the links it infers between operations).
Half the generated path ids are real matches (one in play, one in its lobby) and the bearer token
is a real seat's, so the generated requests also reach the rules, not only the 404s and 401s.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.cli.main import OPENAPI_PATH
from service.schemas import PERSON_RULE
from tests.reliability.logcheck import log_problems
from tests.reliability.tables import open_table
from tests.servers import Server, serving

pytestmark = pytest.mark.slow
EXAMPLES = int(os.environ.get("HEARTHLOG_FUZZ_EXAMPLES", "100"))
SEED = int(os.environ.get("HEARTHLOG_FUZZ_SEED", "20261130"))
CONFIG = """
[checks]
allow_header_conformance.enabled = false

[auth.openapi.BearerToken]
bearer = "{token}"

[dictionaries.matches]
values = ["{playing}", "{lobby}"]

[parameters]
"path.match_id" = {{ dictionary = "matches", probability = 0.5 }}

# The rules of the match's game decide these, which a schema cannot state: a game's seat range
# and options, a name already taken at the table, which game's commands a match takes. A
# schema-valid request may break them: 422 is the right answer there, and only there.
[[operations]]
include-operation-id = "createMatch"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-operation-id = "joinMatch"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-operation-id = "sendCommand"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

# A tournament's game decides its table sizes and options, and which bots it has.
[[operations]]
include-operation-id = "createTournament"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-operation-id = "registerPlayer"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-operation-id = "streamQueue"
# A token or a stream ticket, never both (its ticket's description says so): a rule across a
# header and a query, which no JSON Schema states, so a schema-valid request may get 400 here.
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]

[[operations]]
include-operation-id = "exportMatches"
# CSV is its other format (said in the description); a number in a query is read as a timestamp.
checks.content_type_conformance.enabled = false
checks.negative_data_rejection.enabled = false
"""


# Text others will see follows the name rule (service/names.py), which no JSON Schema pattern
# can follow all the way (characters beyond the BMP, text that grows when normalised; each such
# field's description says so): a schema-valid request may get 400 there, and only there.
PERSON_TEXT_OPERATION = """
[[operations]]
include-operation-id = "{operation}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]
"""


def person_text_operations(config: str) -> str:
    """``config`` with 400 accepted for every operation whose body carries text others will
    see: added to its own block where it has one (422 where the rules decide), else a block."""
    document = json.loads(OPENAPI_PATH.read_text())
    marked = {name for name, schema in document["components"]["schemas"].items()
              if PERSON_RULE in json.dumps(schema)}
    for operations in document["paths"].values():
        for operation in operations.values():
            body, name = json.dumps(operation.get("requestBody", {})), operation["operationId"]
            if not any(f'/{schema}"' in body for schema in marked):
                continue
            own = re.compile(f'(include-operation-id = "{name}"\n'
                             r'checks\.positive_data_acceptance\.expected-statuses = \["2xx", )')
            if own.search(config):
                config = own.sub(lambda found: found.group(1) + '"400", ', config)
            else:
                config += PERSON_TEXT_OPERATION.format(operation=name)
    return config


@pytest.fixture(scope="module")
def lone_server(server_database: str) -> Iterator[Server]:
    """A server of its own: the fuzzer's odd paths stay out of the other tests' logs."""
    with serving(server_database) as running:
        yield running


async def lobby(server: str) -> str:
    """A match still waiting for its seats."""
    async with httpx.AsyncClient(base_url=server) as client:
        created = await client.post("/matches", json={"game": "wick-and-ember", "seats": 6})
    return created.json()["match_id"]


def fuzz(server: str, config: Path, work: Path) -> subprocess.CompletedProcess:
    """Run the schemathesis command line against the server (bounded in examples and time)."""
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
               str(OPENAPI_PATH), "--url", server, "--max-examples", str(EXAMPLES),
               "--seed", str(SEED), "--request-timeout", "30", "--workers", "1",
               "--exclude-operation-id", "streamMatch", "--max-failures", "20"]
    return subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "NO_COLOR": "1"})


async def test_generated_requests_get_no_5xx_and_answers_match_the_document(
    lone_server, tmp_path, figures
):
    """Given thousands of requests generated from the document (valid and invalid), then no
    answer is a 5xx and every answer matches the documented status, content type and schema."""
    server = lone_server
    table = await open_table([server], 2, random.Random(3))
    config = tmp_path / "schemathesis.toml"
    config.write_text(person_text_operations(CONFIG).format(
        token=table.tokens[0], playing=table.match_id, lobby=await lobby(server)))
    run = fuzz(server, config, tmp_path)
    generated = re.search(r"(\d+) generated", run.stdout)
    figures.update(generated=int(generated.group(1)) if generated else None,
                   examples_per_operation=EXAMPLES, seed=SEED, failures=run.returncode)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert log_problems(server.output, table.tokens, cards_too=False) == []
