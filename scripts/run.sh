#!/usr/bin/env bash
# `make run`: migrate, load the demo orders, start web, workers, beat and Flower under supervisord
# (scripts/supervisord.conf), which restarts any of them that exits; Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
mkdir -p var/broker var/broker-processed

# The broker. Flower's broker page (queue lengths) and /metrics' queue depth need Redis, so
# Redis is the default: REDIS_URL if set (in the environment or .env; set it empty for the
# file broker), else a Redis already answering on 127.0.0.1:6379, else a private
# redis-server started here and stopped on exit, else the file broker under var/.
redis_answers() {
  $PY -c 'import redis, sys; redis.Redis.from_url(sys.argv[1], socket_connect_timeout=0.5).ping()' "$1" 2>/dev/null
}
redis_pid=""
stop_private_redis() {
  if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; fi
}
trap stop_private_redis EXIT
if [ -n "${REDIS_URL+set}" ] || grep -qs '^REDIS_URL=' .env; then
  broker_note="from REDIS_URL"
elif redis_answers redis://127.0.0.1:6379/0; then
  export REDIS_URL=redis://127.0.0.1:6379/0
  broker_note="the local Redis on 127.0.0.1:6379, db 0"
elif command -v redis-server >/dev/null; then
  redis_port="${BOOKLY_REDIS_PORT:-6390}"
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --pidfile "$PWD/var/redis.pid" --logfile "$PWD/var/redis.log"
  for _ in $(seq 50); do redis_answers "redis://127.0.0.1:$redis_port/0" && break; sleep 0.1; done
  redis_pid=$(cat var/redis.pid)
  export REDIS_URL="redis://127.0.0.1:$redis_port/0"
  broker_note="a private redis-server on port $redis_port, stopped with the rest"
else
  broker_note="the file broker under var/ (no Redis found): Flower shows no broker page or queue length"
fi

export PORT="${PORT:-8000}"
export HOST="${HOST:-127.0.0.1}"
export WEB_WORKERS="${WEB_WORKERS:-2}"
# uvicorn trusts X-Forwarded-* from loopback unless told otherwise; the app reads the client
# address itself (NUM_PROXIES), so uvicorn trusts no one by default.
export FORWARDED_ALLOW_IPS="${FORWARDED_ALLOW_IPS-}"
export WORKER_PROCESSES="${WORKER_PROCESSES:-2}"  # one per core
export FLOWER_PORT="${FLOWER_PORT:-5555}"
if [ -z "${FLOWER_BASIC_AUTH:-}" ]; then
  FLOWER_BASIC_AUTH="ops:$($PY -c 'import secrets; print(secrets.token_urlsafe(12))')"
  export FLOWER_BASIC_AUTH
  flower_note="generated for this run"
else
  flower_note="from FLOWER_BASIC_AUTH"
fi

if [ -z "${METRICS_TOKEN:-}" ] && ! grep -qs '^METRICS_TOKEN=' .env; then
  METRICS_TOKEN="$($PY -c 'import secrets; print(secrets.token_urlsafe(24))')"
  export METRICS_TOKEN
fi

# A DATABASE_URL naming a missing Postgres database: create it, or stop here with one clear line.
$PY scripts/database_ensure.py
$PY manage.py migrate --noinput
$PY manage.py collectstatic --noinput >/dev/null
if $PY manage.py help load_demo_orders >/dev/null 2>&1; then
  $PY manage.py load_demo_orders
fi

model=$($PY -c 'import django, os; os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings"); django.setup(); from django.conf import settings; print(settings.BOOKLY_LLM)')
# The admin's login must be created in the database this run uses (not SQLite by accident).
if [ -n "${DATABASE_URL:-}" ] && ! grep -qs '^DATABASE_URL=' .env; then
  case "$DATABASE_URL" in
    *://*:*@*) superuser_cmd="DATABASE_URL=<the same DATABASE_URL> make superuser" ;;  # never echo a password
    *) superuser_cmd="DATABASE_URL=$DATABASE_URL make superuser" ;;
  esac
else
  superuser_cmd="make superuser"
fi
cat <<INFO

  Bookly is starting (model: ${model}).
    Chat page and API   http://127.0.0.1:${PORT}/        (API under /api/v1/, schema at /api/v1/schema/)
    Django admin        http://127.0.0.1:${PORT}/admin/  (create a login: ${superuser_cmd})
    Celery Flower       http://127.0.0.1:${FLOWER_PORT}/  user:password ${FLOWER_BASIC_AUTH}  (${flower_note})
    Prometheus metrics  curl -H "Authorization: Bearer ${METRICS_TOKEN:-<METRICS_TOKEN from .env>}" http://127.0.0.1:${PORT}/metrics
    Broker              ${broker_note}
  A process that exits is started again (.venv/bin/supervisorctl -c scripts/supervisord.conf status).
  Press Ctrl-C to stop everything.

INFO
# Not exec'd: the EXIT trap stops the private Redis after supervisord has stopped the rest.
.venv/bin/supervisord -c scripts/supervisord.conf
