"""A failure nobody foresaw answers a plain 500 and leaves its traceback in the server log."""

import logging

from litestar.testing import TestClient

from service.app import create_app


class Kept(logging.Handler):
    """Keeps every record it is given."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)


def test_an_unforeseen_failure_is_a_plain_500_with_its_traceback_logged():
    """Given an app whose service was never started, when a route needs it, then the caller gets
    a 500 without details and the log holds the error with its traceback."""
    kept = Kept()
    logger = logging.getLogger("hearthlog")
    with TestClient(create_app()) as client:
        logger.addHandler(kept)
        try:
            answer = client.get("/matches")
        finally:
            logger.removeHandler(kept)
    assert answer.status_code == 500
    assert answer.json() == {"status_code": 500,
                             "detail": "internal server error; it has been logged"}
    assert len(kept.records) == 1
    assert "GET /matches" in kept.records[0].getMessage() and kept.records[0].exc_info
