"""WSGI entry point (management tools only; the product is served over ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")

application = get_wsgi_application()
