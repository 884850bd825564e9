"""Matchmaking (issue #37): the play queue, its matching loop and its stream (docs/matchmaking.md).

A wing beside live and tournament: it uses the application (matches, players, ratings) and the
store (service/store/queue.py), never live or tournament.
"""
