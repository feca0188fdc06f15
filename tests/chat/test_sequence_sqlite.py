"""The seq-taking statement on SQLite, the database the app uses without DATABASE_URL.

The suite runs on Postgres, so this runs the real statement in a subprocess against a fresh SQLite
file: SQLite 3.40 answered "handed_off_at IS NOT NULL" in an UPDATE's RETURNING with 1 for a NULL
column, and every customer message went to staff instead of the assistant.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json
import django
django.setup()
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from chat.models import Thread
from chat.sequence import thread_seq_take

call_command("migrate", verbosity=0)
thread = Thread.objects.create(owner="alice")
taken = []
with transaction.atomic():
    taken.append(thread_seq_take(thread_id=thread.id, owner="alice"))
Thread.objects.filter(id=thread.id).update(handed_off_at=timezone.now())
with transaction.atomic():
    taken.append(thread_seq_take(thread_id=thread.id, owner="alice"))
with transaction.atomic():
    taken.append(thread_seq_take(thread_id=thread.id, owner="mallory"))
print(json.dumps(taken))
"""


def test_the_seq_statement_reads_the_handoff_state_right_on_sqlite(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bookly_project.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bookly.sqlite3'}",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    open_thread, handed_off, not_the_owner = json.loads(done.stdout.strip().splitlines()[-1])
    assert open_thread == [1, False, False]
    assert handed_off == [2, False, True]
    assert not_the_owner is None
