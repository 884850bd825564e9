"""The test vectors in docs/fairness.md hold for our code and for a re-implementation of the doc."""

import hashlib
import hmac
import json
import re
from pathlib import Path

from domain.core.chain import GENESIS, link
from domain.core.rng import Rng, mix_seeds

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def vectors() -> dict:
    """The JSON block under 'Test vectors' in docs/fairness.md."""
    text = DOC.read_text().split("## Test vectors", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)```", text, re.DOTALL).group(1))


class DocGenerator:
    """A from-scratch generator written from docs/fairness.md alone, to cross-check ours."""

    def __init__(self, seed: bytes, label: str) -> None:
        self.seed, self.label, self.block, self.buffer = seed, label.encode(), 0, b""

    def read(self) -> int:
        """The next 8 stream bytes as a big-endian integer."""
        while len(self.buffer) < 8:
            message = self.label + b"\x00" + self.block.to_bytes(8, "big")
            self.buffer += hmac.new(self.seed, message, hashlib.sha256).digest()
            self.block += 1
        head, self.buffer = self.buffer[:8], self.buffer[8:]
        return int.from_bytes(head, "big")

    def below(self, n: int) -> int:
        """Rejection sampling as the doc specifies."""
        while (x := self.read()) >= 2**64 - (2**64 % n):
            pass
        return x % n


def doc_mix(server: bytes, clients: list) -> bytes:
    """The match seed as the doc specifies it."""
    data = b"hearthlog-match-seed-v1\x00" + len(server).to_bytes(4, "big") + server
    for seed in clients:
        raw = (seed or "").encode()
        data += len(raw).to_bytes(4, "big") + raw
    return hashlib.sha256(data).digest()


def test_the_commitment_is_the_sha256_of_the_server_seed():
    """Given the vector's server seed, its commitment is its SHA-256."""
    v = vectors()
    assert hashlib.sha256(bytes.fromhex(v["server_seed_hex"])).hexdigest() == v["seed_commitment"]


def test_the_match_seed_mixes_client_seeds_in_seat_order():
    """Given a server seed and client seeds, our mixing and the doc's agree with the vectors."""
    v = vectors()
    server = bytes.fromhex(v["server_seed_hex"])
    assert mix_seeds(server, v["client_seeds"]).hex() == v["match_seed_hex"]
    assert doc_mix(server, v["client_seeds"]).hex() == v["match_seed_hex"]
    assert mix_seeds(server, [None, None]).hex() == v["match_seed_no_clients_hex"]
    assert mix_seeds(server, ["b", "a"]) != mix_seeds(server, ["a", "b"])
    assert mix_seeds(server, ["ab", None]) != mix_seeds(server, ["a", "b"])


def test_streams_draws_and_shuffles_match_the_vectors():
    """Given the match seed, the first block, below() and shuffle() match ours and the doc's."""
    v = vectors()
    seed = bytes.fromhex(v["match_seed_hex"])
    block = hmac.new(seed, v["stream_label"].encode() + b"\x00" + bytes(8), hashlib.sha256)
    assert block.hexdigest() == v["first_block_hex"]
    ours = Rng(seed).stream("opener")
    theirs = DocGenerator(seed, "opener")
    expected = v["opener_below_6_sequence"]
    assert [ours.below(6) for _ in expected] == expected
    assert [theirs.below(6) for _ in expected] == expected
    assert Rng(seed).stream("round", 1, "deck").shuffle(range(16)) == v["shuffle_16"]
    doc = DocGenerator(seed, "round/1/deck")
    items = list(range(16))
    for i in range(15, 0, -1):
        j = doc.below(i + 1)
        items[i], items[j] = items[j], items[i]
    assert items == v["shuffle_16"]


def test_the_hash_chain_starts_from_32_zero_bytes():
    """Given the first event's bytes, its hash is SHA-256 of 32 zeros and those bytes."""
    v = vectors()
    event = v["chain_event_bytes"].encode()
    assert link(GENESIS, event).hex() == v["chain_first_hash_hex"]
    assert hashlib.sha256(bytes(32) + event).hexdigest() == v["chain_first_hash_hex"]
