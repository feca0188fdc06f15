"""`python -m evals.run` (`make eval`): measure every guardrail layer on its three parts.

Sets Django up against its own database (created if missing, migrated, demo orders loaded) and
Redis db, runs each layer's `measure(part)` for every part in report.PARTS (tuning, test_seen: the
first frozen test files, measured before; test: the second frozen files, on which the targets are
judged), prints one table (report.table) and writes artifacts/eval.json. The model is never
called: layers are measured deterministically, and the conversation level uses a scripted model.

Environment: EVAL_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bookly_eval),
EVAL_REDIS_URL (default redis://127.0.0.1:6379/14).
"""

import importlib
import io
import json
import logging
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bookly_eval"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
ROOT = Path(__file__).resolve().parent.parent
ARTIFACT = ROOT / "artifacts" / "eval.json"

# Module and layer name of each measured layer, in the order the table lists them.
LAYERS = (("evals.l0", "L0"), ("evals.l4", "L4"), ("evals.conversations", "conversation"))


def database_ensure(database_url: str) -> bool:
    """Create the eval database if it is missing; True if it was created."""
    import environ
    import psycopg

    config = environ.Env.db_url_config(database_url)
    info = {
        "host": config["HOST"] or "127.0.0.1",
        "port": config["PORT"] or 5432,
        "user": config["USER"] or "postgres",
        "password": config["PASSWORD"] or None,
    }
    try:
        psycopg.connect(**info, dbname=config["NAME"], connect_timeout=5).close()
        return False
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            raise
    with psycopg.connect(**info, dbname="postgres", autocommit=True, connect_timeout=5) as admin:
        admin.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(config["NAME"])))
    return True


def django_setup() -> None:
    """Point the app at the eval database and Redis, then migrate and load the demo orders."""
    database_url = os.environ.get("EVAL_DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = os.environ.get("EVAL_REDIS_URL", DEFAULT_REDIS_URL)
    os.environ["BOOKLY_LLM"] = "offline"
    os.environ["ANTHROPIC_API_KEY"] = ""  # deterministic figures: no second opinion from a model
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")
    database_ensure(database_url)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_demo_orders", verbosity=0, stdout=io.StringIO())
    # Every guardrail decision is logged at INFO; the table is the output here.
    logging.disable(logging.INFO)


def layer_modules() -> tuple[list[tuple[str, object]], list[str]]:
    """(layer name, module) of every layer module present, and the module names that are missing."""
    present, missing = [], []
    for module_name, layer in LAYERS:
        try:
            present.append((layer, importlib.import_module(module_name)))
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise  # the module exists but something it imports does not: that is a bug, not a gap
            missing.append(module_name)
    return present, missing


def main() -> int:
    django_setup()

    from evals.report import PARTS, table

    present, missing = layer_modules()
    results, seconds = [], {}
    for layer, module in present:
        started = time.monotonic()
        for part in PARTS:
            results.extend(module.measure(part))
        seconds[layer] = round(time.monotonic() - started, 2)

    print(table(results))
    for module_name in missing:
        print(f"\nMISSING: {module_name} is not in this checkout, so its layer was not measured.")

    ARTIFACT.parent.mkdir(exist_ok=True)
    ARTIFACT.write_text(
        json.dumps(
            {
                "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "missing_layers": missing,
                "seconds_per_layer": seconds,
                "results": [asdict(result) for result in results],
            },
            indent=2,
        )
    )
    print(f"\nWritten: {ARTIFACT.relative_to(ROOT)}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
