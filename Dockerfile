# Harbormaster's one image: the ASGI web server, the Celery worker and beat
# all run from it with different commands (see docker-compose.yml).
FROM python:3.11-slim

# The code runs from /app (settings find templates/ and static/ beside it), so
# only the dependencies are installed into site-packages.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app:/app/sdk/python \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 1000 harbormaster
WORKDIR /app

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml ./
COPY harbormaster/__init__.py harbormaster/
RUN pip install . && pip uninstall --yes harbormaster

COPY . .
RUN DEBUG=0 SECRET_KEY=collectstatic-only-not-a-real-secret-key-0123456789abcdef \
       python manage.py collectstatic --noinput

USER harbormaster
EXPOSE 8000
# --ws-max-size: websocket messages over 64 KiB are refused before they are
# buffered (web.sockets.limits.WS_MAX_SIZE).
CMD ["uvicorn", "harbormaster.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--no-proxy-headers", "--lifespan", "off", "--ws-max-size", "65536"]
