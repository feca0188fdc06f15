"""The Celery app: configuration comes from Django settings (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")
# Gossip and mingle (worker-to-worker chatter nothing here uses) keep channels that a Redis
# restart leaves on a dead connection ("Error on restarting Gossip", celery/kombu#582). Celery's
# CLI reads every worker option from CELERY_WORKER_<OPTION>, so the plain
# `celery -A bookly_project worker` runs without them; an explicit environment value wins.
os.environ.setdefault("CELERY_WORKER_WITHOUT_GOSSIP", "true")
os.environ.setdefault("CELERY_WORKER_WITHOUT_MINGLE", "true")

app = Celery("bookly")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
