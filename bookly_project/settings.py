"""Bookly settings: twelve-factor, read once from the environment (and an optional .env).

Every variable is documented in the README. Defaults are safe for local use: with no
DATABASE_URL / REDIS_URL the app runs on SQLite and a file-based Celery broker.
"""

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# --- Core -------------------------------------------------------------------

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-secret-key-change-me")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # First, so its templates (the admin index link to the dashboard) override the admin's.
    "staff",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "axes",
    "chat",
    "orders",
    "guardrails",
]

# Django's middleware, in bookly_project/middleware.py's subclasses that run their
# non-blocking hooks on the event loop under ASGI (two thread hops saved per middleware).
MIDDLEWARE = [
    "bookly_project.middleware.InlineSecurityMiddleware",
    "bookly_project.middleware.InlineCSPMiddleware",
    "servestatic.middleware.ServeStaticMiddleware",
    "bookly_project.middleware.BodySizeLimitMiddleware",
    "bookly_project.middleware.InlineSessionMiddleware",
    "bookly_project.middleware.InlineCommonMiddleware",
    "bookly_project.middleware.InlineCsrfViewMiddleware",
    "bookly_project.middleware.InlineAuthenticationMiddleware",
    "bookly_project.middleware.InlineMessageMiddleware",
    "bookly_project.middleware.InlineXFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out admin login into its 429 lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "bookly_project.urls"
WSGI_APPLICATION = "bookly_project.wsgi.application"
ASGI_APPLICATION = "bookly_project.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------

# bookly_project/asgi.py (the web process) sets BOOKLY_WEB_PROCESS before the settings load.
_WEB_PROCESS = env.bool("BOOKLY_WEB_PROCESS", default=False)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'var' / 'bookly.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A pool per process: worker threads borrow a connection for each short DB step and
    # give it back before waiting on the model, so hundreds of turns share a few connections.
    DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=20)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if DB_POOL_MAX_SIZE > 0:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": DB_POOL_MAX_SIZE,
            # The web answers soon or not at all (503); a worker thread can wait its turn. Not
            # shorter: a cold pool opens connections on demand, which takes a while under load.
            "timeout": env.float("DB_POOL_TIMEOUT", default=2.0 if _WEB_PROCESS else 10.0),
        }
        # After a Postgres restart every pooled connection is dead. With health checks on,
        # Django gives the pool psycopg's ConnectionPool.check_connection: each connection is
        # checked (an empty query, one round trip) as it is handed out, and a dead one replaced.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20  # SQLite: wait for the writer

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: broker, cache, throttling, run notifications --------------------

REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    # django-redis keeps one connection pool per process. Django's own RedisCache builds a
    # cache object, and so a new Redis connection, for every request under ASGI.
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "CONNECTION_POOL_CLASS": "redis.BlockingConnectionPool",
                "CONNECTION_POOL_KWARGS": {"max_connections": env.int("REDIS_POOL_MAX_SIZE", default=50), "timeout": 5},
                "SOCKET_CONNECT_TIMEOUT": 2,
                "SOCKET_TIMEOUT": 2,
                # Redis down is a miss, not an error: sessions (cached_db) read and write the
                # database, the idempotency lock falls back to the database's unique key.
                "IGNORE_EXCEPTIONS": True,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=60 * 60 * 24 * 14)
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_SAMESITE = "Lax"
# The CSRF secret lives in the session, so a token is only good with the session it came from.
CSRF_USE_SESSIONS = True
CSRF_FAILURE_VIEW = "bookly_project.errors.csrf_failure"

# Bodies over 64 KiB are refused with 413 (see BodySizeLimitMiddleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
# More than this many query or form fields is a 400 (Django's TooManyFieldsSent).
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

# --- Proxies, HTTPS ------------------------------------------------------------
# How many reverse proxies in front of the app append to X-Forwarded-For. 0: the socket's
# peer is the client and X-Forwarded-For is ignored (bookly_project/limits.client_address).
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto: trust it for request.is_secure().
if env.bool("SECURE_PROXY_SSL", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# HSTS: browsers use https only for this host for SECURE_HSTS_SECONDS (0 = header off).
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)

# --- Celery -----------------------------------------------------------------

CELERY_BROKER_URL = REDIS_URL or "filesystem://"
# kombu's Redis transport, keeping one client per channel instead of one per command (bookly_project/broker.py).
CELERY_BROKER_TRANSPORT = "bookly_project.broker:Transport" if REDIS_URL else None
CELERY_BROKER_TRANSPORT_OPTIONS = (
    # No ack emulation: a task leaves Redis when a worker takes it. With it, a worker holding
    # unacknowledged tasks when Redis restarts dies re-queueing them on the dead connection
    # ("Unrecoverable error: AttributeError: 'NoneType' object has no attribute 'hostname'"),
    # and what it would redeliver (after an hour's visibility timeout) the sweep already
    # re-dispatches from the database within RUN_REDISPATCH_AFTER_SECONDS / RUN_STALE_AFTER_SECONDS.
    {"ack_emulation": False}
    if REDIS_URL
    else {
        "data_folder_in": str(BASE_DIR / "var" / "broker"),
        "data_folder_out": str(BASE_DIR / "var" / "broker"),
        "processed_folder": str(BASE_DIR / "var" / "broker-processed"),
        "store_processed": False,
    }
)
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# The worker settings that decide how many turns run at once live here, not on command
# lines, so the plain `celery -A bookly_project worker` runs turns as well as `make run`.
# A turn waits seconds on the model and uses little CPU: a thread pool, many threads.
# (DESIGN §9: one process's consumer cannot feed more than a few hundred threads; scale
# out with more worker processes, e.g. one per core.) 200 threads: one plain command then
# serves 400 waiting customers as well as `make run`'s two processes (docs/performance.md §12).
CELERY_WORKER_POOL = env.str("WORKER_POOL", default="threads")
CELERY_WORKER_CONCURRENCY = env.int("WORKER_CONCURRENCY", default=200)
# Each thread reserves at most one task beyond the one it runs: a worker never hoards the
# queue that another, idler worker could serve.
CELERY_WORKER_PREFETCH_MULTIPLIER = env.int("WORKER_PREFETCH_MULTIPLIER", default=1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Through a broker outage the worker reconnects forever (Celery's default gives up after 100
# tries and exits), and a turn in progress keeps running: its run row, not the broker, says
# whether it finished (cancelling it would only make the sweep run it again).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BROKER_CONNECTION_TIMEOUT = 3
# A POST must not hang on a dead broker: give up fast, the sweep re-dispatches the run.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# Task events cost the worker ~1 ms CPU per task (bench.celerycost: 1.9 vs 2.9 ms). Flower
# switches them on while it runs (its --enable_events, on by default), so they are paid
# for only while someone watches.
CELERY_WORKER_SEND_TASK_EVENTS = False
# No task-sent event: Flower shows a task from the worker's received event on; one less publish per POST.
CELERY_TASK_SEND_SENT_EVENT = False
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# A turn is a few model calls and ends itself at RUN_DEADLINE_SECONDS. These limits apply to
# the prefork pool; the threads pool (ours) cannot interrupt a thread, and there the turn's own
# deadline and the sweep (a silent run is taken over) bound it.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("RUN_SOFT_TIME_LIMIT", default=180)
CELERY_TASK_TIME_LIMIT = env.int("RUN_HARD_TIME_LIMIT", default=210)
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-runs": {
        "task": "chat.tasks.sweep_runs",
        "schedule": env.float("SWEEP_INTERVAL_SECONDS", default=30.0),
    },
    "expire-pending-actions": {
        "task": "chat.tasks.expire_pending_actions",
        "schedule": env.float("SWEEP_INTERVAL_SECONDS", default=30.0),
    },
    "retention-apply": {
        "task": "staff.tasks.retention_apply",
        "schedule": env.float("RETENTION_INTERVAL_SECONDS", default=24 * 3600.0),
    },
}

# --- The agent ---------------------------------------------------------------

ANTHROPIC_API_KEY_SET = bool(env.str("ANTHROPIC_API_KEY", default=""))
BOOKLY_LLM = env.str("BOOKLY_LLM", default="anthropic" if ANTHROPIC_API_KEY_SET else "offline")
if BOOKLY_LLM not in {"anthropic", "offline"}:
    raise environ.ImproperlyConfigured("BOOKLY_LLM must be 'anthropic' or 'offline'")
ANTHROPIC_MODEL = env.str("ANTHROPIC_MODEL", default="claude-sonnet-4-6")
ANTHROPIC_TIMEOUT_SECONDS = env.float("ANTHROPIC_TIMEOUT_SECONDS", default=60.0)
ANTHROPIC_CONNECT_TIMEOUT_SECONDS = env.float("ANTHROPIC_CONNECT_TIMEOUT_SECONDS", default=5.0)
MODEL_MAX_TOKENS = env.int("MODEL_MAX_TOKENS", default=1024)
# US dollars per million tokens, per model: input, output, cache write (5-minute entries), cache
# read. Estimated costs in make bench and on the admin dashboard (a model missing here is shown as
# unpriced); override the whole table with MODEL_PRICES as JSON.
MODEL_PRICES = env.json(
    "MODEL_PRICES",
    default={
        "claude-sonnet-4-6": {"input": 3.0, "output": 15.0, "cache_write": 3.75, "cache_read": 0.30},
        "claude-sonnet-4-5": {"input": 3.0, "output": 15.0, "cache_write": 3.75, "cache_read": 0.30},
        "claude-haiku-4-5": {"input": 1.0, "output": 5.0, "cache_write": 1.25, "cache_read": 0.10},
        "claude-opus-4-6": {"input": 5.0, "output": 25.0, "cache_write": 6.25, "cache_read": 0.50},
        "bookly-offline-demo": {"input": 0.0, "output": 0.0, "cache_write": 0.0, "cache_read": 0.0},
    },
)
# L4's second opinion on a reply its deterministic check is unsure about (anthropic backend only; empty
# model name: never asked). One attempt, bounded in time and tokens; no answer lets the reply through.
L4_SECOND_OPINION_MODEL = env.str("L4_SECOND_OPINION_MODEL", default="claude-haiku-4-5")
L4_SECOND_OPINION_TIMEOUT_SECONDS = env.float("L4_SECOND_OPINION_TIMEOUT_SECONDS", default=5.0)
L4_SECOND_OPINION_MAX_TOKENS = env.int("L4_SECOND_OPINION_MAX_TOKENS", default=5)

# --- Model client resilience (chat/agent/llm.py, chat/agent/breaker.py) -------------------
# One retry policy, ours (the SDK's own retries stay off): 429, 529, 5xx, connection
# errors and timeouts are retried with exponential backoff and full jitter, never past
# the run's deadline nor past MODEL_CALL_BUDGET_SECONDS for one model call.
MODEL_RETRY_MAX_ATTEMPTS = env.int("MODEL_RETRY_MAX_ATTEMPTS", default=4)  # HTTP attempts per call, first included
MODEL_RETRY_BASE_SECONDS = env.float("MODEL_RETRY_BASE_SECONDS", default=0.5)  # backoff before the 2nd attempt
MODEL_RETRY_MAX_SECONDS = env.float("MODEL_RETRY_MAX_SECONDS", default=8.0)  # ceiling of one backoff
MODEL_RETRY_AFTER_CAP_SECONDS = env.float("MODEL_RETRY_AFTER_CAP_SECONDS", default=20.0)  # longest retry-after honoured
MODEL_CALL_BUDGET_SECONDS = env.float("MODEL_CALL_BUDGET_SECONDS", default=90.0)  # one call, retries included
# A circuit breaker shared by all workers through Redis (a no-op without REDIS_URL or with
# a threshold of 0): after THRESHOLD consecutive retryable failures within WINDOW it
# refuses calls for COOLDOWN, then lets one probe through.
MODEL_BREAKER_THRESHOLD = env.int("MODEL_BREAKER_THRESHOLD", default=5)
MODEL_BREAKER_WINDOW_SECONDS = env.float("MODEL_BREAKER_WINDOW_SECONDS", default=60.0)
MODEL_BREAKER_COOLDOWN_SECONDS = env.float("MODEL_BREAKER_COOLDOWN_SECONDS", default=30.0)
MODEL_BREAKER_REDIS_TIMEOUT_SECONDS = env.float("MODEL_BREAKER_REDIS_TIMEOUT_SECONDS", default=0.2)
# --- End of model client resilience ----------------------------------------
AGENT_MAX_ITERATIONS = env.int("AGENT_MAX_ITERATIONS", default=8)
# Input + output tokens one thread may spend; past it the conversation ends politely.
THREAD_TOKEN_BUDGET = env.int("THREAD_TOKEN_BUDGET", default=300_000)

# A turn ends itself at its deadline; a run whose worker has been silent for longer than
# RUN_STALE_AFTER_SECONDS is presumed orphaned (worker died) and re-dispatched or expired.
RUN_DEADLINE_SECONDS = env.int("RUN_DEADLINE_SECONDS", default=150)
RUN_STALE_AFTER_SECONDS = env.int("RUN_STALE_AFTER_SECONDS", default=180)
RUN_REDISPATCH_AFTER_SECONDS = env.int("RUN_REDISPATCH_AFTER_SECONDS", default=60)
RUN_EXPIRE_AFTER_SECONDS = env.int("RUN_EXPIRE_AFTER_SECONDS", default=600)
RUN_MAX_ATTEMPTS = env.int("RUN_MAX_ATTEMPTS", default=3)
# A run that waited longer than this in the queue since it was last sent (dispatched_at) is
# ended `expired` by the worker that claims it instead of being answered late.
RUN_QUEUE_MAX_WAIT_SECONDS = env.int("RUN_QUEUE_MAX_WAIT_SECONDS", default=60)
# How long a return preview waits for the customer's Confirm / Cancel.
CONFIRMATION_TTL_SECONDS = env.int("CONFIRMATION_TTL_SECONDS", default=900)
# Handoff to a person: what the customer is told about the wait, and how many failed turns
# (failed runs, fallbacks, repeatedly blocked tool calls) make the assistant hand over by itself.
HANDOFF_REPLY_WITHIN_HOURS = env.int("HANDOFF_REPLY_WITHIN_HOURS", default=4)
HANDOFF_AFTER_FAILURES = env.int("HANDOFF_AFTER_FAILURES", default=2)

# --- Support staff: approvals, dashboard cost, retention -----------------------

# A support agent may approve a held return up to this amount; a support lead, any amount.
SUPPORT_AGENT_APPROVAL_LIMIT = Decimal(env.str("SUPPORT_AGENT_APPROVAL_LIMIT", default="100.00"))
# Conversations with no activity for this many days are deleted by `manage.py retention_apply`
# (daily, from beat); the dashboard's daily figures and the returns ledger are kept.
RETENTION_DAYS = env.int("RETENTION_DAYS", default=365)

# --- API --------------------------------------------------------------------

MESSAGE_MAX_CHARS = 4000
# Load shedding of the message POST (chat/admission.py): refused at once with 503 + Retry-After.
# 8, not 16: at 4x overload 16 pending POSTs per process answered at p95 ~0.9 s, 8 at ~0.45 s,
# 4 at ~0.3 s but 4 cost a sixth of the turns/s at 400 customers (docs/performance.md §10.1).
WEB_MAX_PENDING_POSTS = env.int("WEB_MAX_PENDING_POSTS", default=8)  # per web process
MESSAGE_QUEUE_MAX_DEPTH = env.int("MESSAGE_QUEUE_MAX_DEPTH", default=1000)  # turns waiting in the Celery queue
# Idle request threads a web process keeps for later requests (bookly_project/handler.py); a
# request finding none starts one, as Django's own handler does for every request.
WEB_IDLE_REQUEST_THREADS = env.int("WEB_IDLE_REQUEST_THREADS", default=128)
LONG_POLL_MAX_SECONDS = 30
POLL_AFTER_MS = env.int("POLL_AFTER_MS", default=1000)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["chat.auth.CustomerSessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_PARSER_CLASSES": ["bookly_project.parsers.SafeJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "bookly_project.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "NUM_PROXIES": NUM_PROXIES,
}

# Request limits (bookly_project/limits.py), "count/period" per customer session and per
# client address, shared by every process through Redis. "sessions" counts new sessions as
# they are first saved (GET /api/v1/session without one, the admin login page).
RATE_LIMITS = {
    "messages": {
        "session": env.str("THROTTLE_MESSAGES", default="30/min"),
        "address": env.str("THROTTLE_MESSAGES_PER_ADDRESS", default="120/min"),
    },
    "threads": {
        "session": env.str("THROTTLE_THREADS", default="20/min"),
        "address": env.str("THROTTLE_THREADS_PER_ADDRESS", default="60/min"),
    },
    "sessions": {"address": env.str("THROTTLE_SESSIONS_PER_ADDRESS", default="60/min")},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Bookly support API",
    "DESCRIPTION": (
        "Customer-support chat: post a message (202), poll the run for the reply. Customers are "
        "anonymous: GET /api/v1/session starts a session (cookie) and returns the CSRF token that "
        "every POST sends as X-CSRFToken. Every error answers "
        '{"error": {"code", "message", "details"}}.'
    ),
    # The session cookie identifies a customer but is not an authentication scheme to document.
    "AUTHENTICATION_WHITELIST": [],
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
}

# --- Flower -----------------------------------------------------------------

FLOWER_BASIC_AUTH = env.str("FLOWER_BASIC_AUTH", default="")

# --- Ops: /metrics and /readyz ------------------------------------------------

# /metrics answers only with "Authorization: Bearer <METRICS_TOKEN>"; with no token it is off (404).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_WINDOW_SECONDS = env.int("METRICS_WINDOW_SECONDS", default=300)  # what the *_recent figures cover
# /readyz reports the queue stuck (503) past either bound.
READY_QUEUE_MAX_WAIT_SECONDS = env.int("READY_QUEUE_MAX_WAIT_SECONDS", default=120)
READY_QUEUE_MAX_DEPTH = env.int("READY_QUEUE_MAX_DEPTH", default=5000)

# --- Static files, i18n -----------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "servestatic.storage.CompressedStaticFilesStorage"},
}
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Admin login: django-axes locks out password guessing ---------------------------

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("ADMIN_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("ADMIN_LOGIN_COOLOFF_MINUTES", default=15.0))
# Lock the username (whatever address tries it) and the address (whatever username it tries).
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "bookly_project.limits.client_address"
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Security headers --------------------------------------------------------

X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# No page of ours uses these browser features; deny them to anything the page might embed.
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()"
)

# --- Web page security headers (CSP) ---------------------------------------------
# django-csp 4.x (csp.middleware.CSPMiddleware). Everything from our own origin and nothing
# inline: no 'unsafe-inline', no 'unsafe-eval', no data: URLs. The chat page keeps its config
# in data- attributes and adds Trusted Types on top (chat/pages.py).

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- Logging: ids only, never customer text ----------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "httpx": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},
        "anthropic": {"level": "WARNING"},
    },
}
