"""Pure rules of every game Hearthlog serves: no I/O, no clock, no global random."""
