"""Fail fast, with a clear message, when Postgres or Redis is not reachable for the tests."""

import os
import sys

import environ
import psycopg
import redis


def main() -> int:
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    problems = []
    db = environ.Env.db_url_config(database_url)
    try:
        psycopg.connect(
            host=db["HOST"],
            port=db["PORT"] or 5432,
            user=db["USER"],
            password=db["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.Error as error:
        problems.append(f"Postgres is not reachable at {db['HOST']}:{db['PORT'] or 5432} ({error}).")
    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        problems.append(f"Redis is not reachable at {redis_url} ({error}).")
    for problem in problems:
        print(f"make test: {problem}", file=sys.stderr)
    if problems:
        print(
            "Start them (see README, 'Running the tests') or set TEST_DATABASE_URL / TEST_REDIS_URL.", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
