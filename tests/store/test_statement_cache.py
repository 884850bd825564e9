"""HEARTHLOG_DATABASE_STATEMENT_CACHE (``hearthlog serve --no-statement-cache``): asyncpg keeps its
prepared statements unless it is ``off``, as PgBouncer in transaction mode needs (docs/scaling.md);
any other value is refused by name."""

import pytest

from service.store.provisioning import STATEMENT_CACHE, create_pool, statement_cache_size


@pytest.mark.parametrize(("value", "kept"), [(None, 100), ("on", 100), ("", 100), ("off", 0),
                                              (" OFF ", 0)])
def test_the_statement_cache_is_kept_unless_turned_off(monkeypatch, value, kept):
    """Given the variable unset, on or off, then asyncpg keeps its default or no statement."""
    if value is None:
        monkeypatch.delenv(STATEMENT_CACHE, raising=False)
    else:
        monkeypatch.setenv(STATEMENT_CACHE, value)
    assert statement_cache_size() == kept


def test_a_value_that_is_neither_on_nor_off_is_refused_by_name(monkeypatch):
    """Given a value that is neither on nor off, then the error names the variable."""
    monkeypatch.setenv(STATEMENT_CACHE, "sometimes")
    with pytest.raises(ValueError, match=STATEMENT_CACHE):
        statement_cache_size()


async def test_a_pool_made_with_the_cache_off_prepares_no_named_statement(monkeypatch,
                                                                        database_url):
    """Given the cache off, when a pooled connection runs a query twice, then asyncpg kept no
    statement for it (nothing a pooler could hand to another client)."""
    monkeypatch.setenv(STATEMENT_CACHE, "off")
    pool = await create_pool(database_url, min_size=1, max_size=1)
    try:
        async with pool.acquire() as connection:
            for _ in range(2):
                await connection.fetchval("SELECT count(*) FROM matches WHERE status = $1",
                                          "lobby")
            assert await connection.fetchval("SELECT count(*) FROM pg_prepared_statements") == 0
    finally:
        await pool.close()
