"""What every game shares: the Decider protocol, the seeded generator, seats and rule errors."""
