"""ASGI entry point: long-polls wait in async views without holding a thread."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")
os.environ.setdefault("BOOKLY_WEB_PROCESS", "true")  # short database-pool wait: answer soon or 503

# What django.core.asgi.get_asgi_application() does, with a handler that reuses request threads.
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402 - needs the settings loaded above

from bookly_project.handler import ReusedThreadsASGIHandler  # noqa: E402
from bookly_project.tcp import connection_nodelay_install  # noqa: E402
from chat.admission import MessageAdmission  # noqa: E402

# uvicorn --workers N leaves Nagle's algorithm on: ~40 ms per keep-alive response (bookly_project/tcp.py).
connection_nodelay_install()

django_application = ReusedThreadsASGIHandler(idle_max=settings.WEB_IDLE_REQUEST_THREADS)

# Message POSTs past the load bounds are refused before Django sees them (chat/admission.py).
application = MessageAdmission(django_application)
