#!/usr/bin/env bash
# `make run`: migrate, load the demo orders, start web, workers, beat and Flower under supervisord
# (scripts/supervisord.conf), which restarts any of them that exits; Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
mkdir -p var/broker var/broker-processed

export PORT="${PORT:-8000}"
export HOST="${HOST:-127.0.0.1}"
export WEB_WORKERS="${WEB_WORKERS:-2}"
export WORKER_PROCESSES="${WORKER_PROCESSES:-2}"  # one per core
export WORKER_CONCURRENCY="${WORKER_CONCURRENCY:-100}"
export FLOWER_PORT="${FLOWER_PORT:-5555}"
if [ -z "${FLOWER_BASIC_AUTH:-}" ]; then
  FLOWER_BASIC_AUTH="ops:$($PY -c 'import secrets; print(secrets.token_urlsafe(12))')"
  export FLOWER_BASIC_AUTH
  flower_note="generated for this run"
else
  flower_note="from FLOWER_BASIC_AUTH"
fi

$PY manage.py migrate --noinput
$PY manage.py collectstatic --noinput >/dev/null
if $PY manage.py help load_demo_orders >/dev/null 2>&1; then
  $PY manage.py load_demo_orders
fi

model=$($PY -c 'import django, os; os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings"); django.setup(); from django.conf import settings; print(settings.BOOKLY_LLM)')
cat <<INFO

  Bookly is starting (model: ${model}).
    Chat page and API   http://127.0.0.1:${PORT}/        (API under /api/v1/, schema at /api/v1/schema/)
    Django admin        http://127.0.0.1:${PORT}/admin/  (create a login: .venv/bin/python manage.py createsuperuser)
    Celery Flower       http://127.0.0.1:${FLOWER_PORT}/  user:password ${FLOWER_BASIC_AUTH}  (${flower_note})
  A process that exits is restarted (.venv/bin/supervisorctl -c scripts/supervisord.conf status).
  Press Ctrl-C to stop everything.

INFO
exec .venv/bin/supervisord -c scripts/supervisord.conf
