"""Errors the service answers with: one type, carrying the HTTP status and a clear message."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refuses; nothing was changed."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def not_found(match_id: str) -> ServiceError:
    """404 for a match that does not exist."""
    return ServiceError(404, f"no match {match_id}")


def unauthorized(message: str) -> ServiceError:
    """401: the token is missing or not valid here."""
    return ServiceError(401, message)


def forbidden(message: str) -> ServiceError:
    """403: the token is valid but may not do this."""
    return ServiceError(403, message)


def version_clash(expected: int, current: int) -> ServiceError:
    """409: the match moved on since the version the client expected."""
    return ServiceError(
        409,
        f"version clash: expected version {expected}, the match is at version {current}",
        current_version=current,
    )
