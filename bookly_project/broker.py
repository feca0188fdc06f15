"""The Celery broker transport: kombu's Redis transport, with one publishing client per channel.

kombu's Redis channel builds a new `redis.Redis` client for every command it sends
(`Channel.conn_or_acquire` → `_create_client`): every task sent by the web's message POST,
and every ack in the worker. The client holds no connection of its own (each command borrows
one from the channel's pool), but building it costs redis-py's whole setup each time: about 6 %
of the web's CPU under load (docs/performance.md §9.7). This channel keeps the client it built
for as long as its pool is the same one; when kombu replaces the pool (a reconnect after Redis
went away) the next command builds a client on the new pool. redis-py clients are thread-safe.

Used through CELERY_BROKER_TRANSPORT when the broker is Redis.
"""

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    _sync_client: tuple[object, object] | None = None  # (the pool it was built on, the client)

    def _create_client(self, asynchronous: bool = False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        if self._sync_client is None or self._sync_client[0] is not pool:
            self._sync_client = (pool, super()._create_client())
        return self._sync_client[1]


class Transport(kombu_redis.Transport):
    Channel = Channel
