"""`make run`'s first step: make sure the database in DATABASE_URL exists, or say in one line why not.

Postgres: connects to the server's `postgres` database and creates the named database when it is
missing (the user needs CREATEDB). SQLite: creates the folder of the file. Exits 1 with a single
line, never a traceback, when the server cannot be reached or the database cannot be created.
"""

import os
import sys
from pathlib import Path

import environ
import psycopg
from psycopg import sql

BASE_DIR = Path(__file__).resolve().parent.parent


def database_url() -> str:
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)
    return os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'var' / 'bookly.sqlite3'}"


def main() -> int:
    config = environ.Env.db_url_config(database_url())
    if config["ENGINE"] == "django.db.backends.sqlite3":
        Path(config["NAME"]).parent.mkdir(parents=True, exist_ok=True)
        return 0
    if config["ENGINE"] != "django.db.backends.postgresql":
        return 0
    name = config["NAME"]
    where = f"{config.get('HOST') or 'localhost'}:{config.get('PORT') or 5432}"
    connect = {
        "host": config.get("HOST") or None,
        "port": config.get("PORT") or None,
        "user": config.get("USER") or None,
        "password": config.get("PASSWORD") or None,
        "connect_timeout": 3,
        "autocommit": True,
    }
    try:
        with psycopg.connect(dbname="postgres", **connect) as server:
            exists = server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if exists:
                return 0
            server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as error:
        reason = str(error).strip().splitlines()[-1].strip() if str(error).strip() else "no answer"
        print(f"make run: cannot reach Postgres at {where} ({reason}); start it or fix DATABASE_URL.", file=sys.stderr)
        return 1
    except psycopg.Error as error:
        print(
            f"make run: database {name!r} does not exist and could not be created ({error.sqlstate}); "
            f"create it: createdb -h {config.get('HOST') or 'localhost'} {name}",
            file=sys.stderr,
        )
        return 1
    print(f"Created the database {name!r} on {where}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
