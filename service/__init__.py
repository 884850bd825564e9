"""The service around the domain: litestar app, asyncpg event store, Postgres provisioning, CLI."""
