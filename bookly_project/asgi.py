"""ASGI entry point: long-polls wait in async views without holding a thread."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")
os.environ.setdefault("BOOKLY_WEB_PROCESS", "true")  # short database-pool wait: answer soon or 503

django_application = get_asgi_application()

from chat.admission import MessageAdmission  # noqa: E402 - needs the settings loaded above

# Message POSTs past the load bounds are refused before Django sees them (chat/admission.py).
application = MessageAdmission(django_application)
