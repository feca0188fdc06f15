FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# uvicorn trusts X-Forwarded-For from nobody; Bookly reads it per NUM_PROXIES (README, Security).
ENV FORWARDED_ALLOW_IPS=""
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DATABASE_URL=sqlite:////tmp/build.sqlite3 python manage.py collectstatic --noinput
RUN useradd --create-home bookly && mkdir -p /app/var && chown -R bookly /app/var
USER bookly
EXPOSE 8000
CMD ["uvicorn", "bookly_project.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
