"""Database connection handling for long-running work (agent turns in worker threads)."""

from django.db import connection


def db_connection_release() -> None:
    """Give this thread's connection back (to the pool) before a slow wait.

    A turn spends seconds waiting on the model; holding a connection meanwhile would
    tie up one Postgres connection per waiting turn. Inside a transaction (tests) it is
    kept, since closing would break the transaction.
    """
    if not connection.in_atomic_block:
        connection.close()
