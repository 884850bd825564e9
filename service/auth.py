"""Tokens: 256 random bits, shown once, stored only as SHA-256 hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh bearer token (URL-safe text of 32 random bytes)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> bytes:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode("utf-8")).digest()


def same_token(token: str, stored_hash: bytes | None) -> bool:
    """Whether a presented token matches a stored hash, in constant time."""
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None when absent."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
