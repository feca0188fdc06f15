"""ASGI entry point: long-polls wait in async views without holding a thread."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")

application = get_asgi_application()
