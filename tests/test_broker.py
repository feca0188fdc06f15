"""The broker transport (bookly_project/broker.py): one publishing client per channel and pool."""

import pytest
from django.conf import settings

from bookly_project import broker
from bookly_project.celery import app

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis broker")


def test_the_celery_app_uses_the_transport():
    with app.connection_for_write() as connection:
        assert isinstance(connection.default_channel, broker.Channel)


def test_a_channel_keeps_its_client_until_its_pool_is_replaced():
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        first = channel._create_client()
        assert channel._create_client() is first
        with channel.conn_or_acquire() as client:
            assert client is first
            assert client.ping()

        channel._pool = None  # what kombu does when the connection to Redis is lost

        again = channel._create_client()
        assert again is not first
        assert again.connection_pool is channel.pool
        assert again.ping()


def test_the_asynchronous_client_is_built_as_before():
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        assert channel._create_client(asynchronous=True) is not channel._create_client(asynchronous=True)
