"""The service around the domain. Its top-level modules are the application (the use cases);
its wings are store/, live/, tournament/, http/ and cli/ (docs/architecture.md says what each holds
and may import; pyproject.toml's import contracts hold them to it)."""
