"""`python -m projections.tournament` prints the bundle's JSON Schema."""

from projections.tournament.bundle import schema_text

print(schema_text(), end="")
