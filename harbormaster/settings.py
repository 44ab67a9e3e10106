"""Django settings for Harbormaster.

Everything that differs between a laptop and a deployment comes from the
environment variables listed in :data:`harbormaster.env.ENV_VARS`. With none
set, the embedded defaults run the whole service on Python alone: SQLite in the
project folder, an in-memory channel layer, and Celery's worker and beat in
threads of the serving process over an in-memory broker. See
``docs/operating.md`` for the two modes.
"""

from __future__ import annotations

import os
from pathlib import Path

from harbormaster import env

BASE_DIR = Path(__file__).resolve().parent.parent
ENVIRON = os.environ

# --- core -------------------------------------------------------------------

DEBUG = env.as_bool(ENVIRON, "DEBUG", default=True)
SECRET_KEY = env.secret_key(ENVIRON, debug=DEBUG)
ALLOWED_HOSTS = env.as_list(ENVIRON, "ALLOWED_HOSTS", default=env.DEFAULT_ALLOWED_HOSTS)
CSRF_TRUSTED_ORIGINS = env.as_list(ENVIRON, "CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # django.contrib.admin with the project's site (login throttle answers).
    "web.admin_config.ThrottledAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "harbormaster",
    "games",
    "tournaments",
    "botapi",
    "ratings",
    # People's accounts: sign-up, sign-in, password reset (django-allauth), profiles.
    "allauth",
    "allauth.account",
    "people",
    # The lobby: open tables people join and fill with bots (depends on the apps above).
    "lobby",
    # Competitor pages of bots and people, their charts and game exports.
    "stats",
    # Table chat: what a game's players and spectators say (beside the lobby and stats).
    "chat",
    # The web layer: pages, the REST API, the play sockets, the page cache and the admin.
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "harbormaster.urls"
WSGI_APPLICATION = "harbormaster.wsgi.application"
ASGI_APPLICATION = "harbormaster.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.people.context_processors.waiting",
            ],
        },
    },
    {
        # The row-heavy partials ({% jinja %}, web.jinja; decision 0032).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "web.jinja.environment"},
    },
]

# --- data -------------------------------------------------------------------

DATABASES = {"default": env.database(ENVIRON, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.read(ENVIRON, "REDIS_URL")
# web.cache.versions: how long a page's {% cache %} fragment is kept at most (its
# versions retire it sooner, web.cache.invalidation); 0 turns fragments off.
CACHE_FRAGMENT_SECONDS = 600
CHANNEL_LAYERS = env.channel_layers(ENVIRON)
# Throttle counters (login attempts, API rates): Redis with servers, memory embedded.
CACHES = env.caches(ENVIRON)

_celery = env.celery(ENVIRON)
CELERY_BROKER_URL = _celery["BROKER_URL"]
CELERY_RESULT_BACKEND = _celery["RESULT_BACKEND"]
# Tasks are always queued, in both modes; only tests run them inline (tests/conftest.py).
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_EAGER_PROPAGATES = _celery["TASK_EAGER_PROPAGATES"]
# A task is acknowledged only once it has run, and given back to the queue if
# its worker dies, so a killed worker delays work and never loses it.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# Queues. "referee" carries the game loop (advance_game, check_clock) and the
# other calls to bots: each task waits on a bot's HTTP reply, so its workers run
# a thread pool with high concurrency (docs/architecture.md, "The referee", has
# the measurement). The default queue "celery" carries the rest (beat's
# recovery, pings).
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    "tournaments.advance_game": {"queue": "referee"},
    "tournaments.check_clock": {"queue": "referee"},
    "botapi.notify_bots": {"queue": "referee"},
}
# Redis: a task whose worker was killed (-9, power loss) comes back after its
# visibility_timeout (env.celery: 15 minutes). Long enough that a clock task waiting
# for its countdown (a move's time limit plus grace) is not handed out twice; the
# quick path back for a game is the beat task below, which re-enqueues any game with
# no progress. In memory: how often the embedded worker looks at its queues.
CELERY_BROKER_TRANSPORT_OPTIONS = _celery["TRANSPORT_OPTIONS"]
# A Redis restart or outage (harbormaster/env.py, "Losing Redis"): workers and beat
# reconnect for as long as it takes, and a task sent meanwhile waits for Redis a few
# seconds instead of being dropped at once.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TASK_PUBLISH_RETRY_POLICY = env.PUBLISH_RETRY_POLICY
# Not True: the referee's tasks are idempotent, and a thread pool cannot cancel a task
# (its worker would raise NotImplementedError in its connection-loss handler).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_REDIS_SOCKET_KEEPALIVE = True
# Survives losing Redis while a late-acknowledged task runs (harbormaster/celery.py).
CELERY_WORKER_CONSUMER = "harbormaster.celery:ReconnectingConsumer"
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "recover-stalled-games": {
        "task": "tournaments.recover_stalled",
        "schedule": 15.0,
        "options": {"expires": 14.0},
    },
    # Pairs the next round of every event whose round finished but whose pairing task was
    # lost, or failed and should be tried again (tournaments.events.rounds.due_rounds).
    "schedule-due-rounds": {
        "task": "tournaments.schedule_due_rounds",
        "schedule": 15.0,
        "options": {"expires": 14.0},
    },
    # A worker runs it to say it is there: the events' problems panel reports a stale one
    # within seconds (tournaments.events.heartbeat).
    "worker-heartbeat": {
        "task": "tournaments.worker_heartbeat",
        "schedule": 5.0,
        "options": {"expires": 4.5},
    },
    # Seats the free entrants of every league arena at new games (tournaments.events.arena).
    "arena-pass": {
        "task": "tournaments.arena_pass",
        "schedule": 5.0,
        "options": {"expires": 4.5},
    },
    # Keeps every active push bot's health current (botapi.services.bots.ping_due_bots).
    "ping-bots": {
        "task": "botapi.ping_bots",
        "schedule": 600.0,
        "options": {"expires": 590.0},
    },
    # Closes lobby tables nobody touched for LOBBY_TABLE_IDLE_S and starts full tables
    # whose bot is free again (lobby.services: close_idle_tables, start_waiting_tables).
    "lobby-upkeep": {
        "task": "lobby.upkeep",
        "schedule": 60.0,
        "options": {"expires": 55.0},
    },
}
# Without Redis the broker is in memory: the process that serves runs the worker and
# the beat schedule above itself, in threads (harbormaster/embedded_celery.py).
EMBEDDED_CELERY = REDIS_URL is None

# --- auth -------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# People sign in on allauth's page; the admin keeps its own (admin:login).
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "people:me"
# Django's username-and-password backend, whose get_user reads the signed-in
# user through the cache (web/cache/auth_user.py), not a query on every page.
AUTHENTICATION_BACKENDS = ["web.cache.auth_user.CachedUserBackend"]
# django-allauth (web.people.adapter fits it to the project): sign in by username, an
# e-mail address required at sign-up (password resets go to it) and verified
# optionally, so a demo visitor signs up and plays at once. Its rate limits
# cover sign-up and password-reset requests, and failed logins on every login
# path: the site's, the admin's and the API's token exchange (web.http.login_limit).
# With "prevent enumeration" on, a
# reset request for an unknown address answers exactly like a known one; "strict"
# does the same for sign-up: with verification optional (sign in at once), the
# only answer that does not reveal a taken address is to accept it, so two
# accounts may carry one address, unverified on all but one (allauth keeps a
# verified address unique).
ACCOUNT_ADAPTER = "web.people.adapter.AccountAdapter"
ACCOUNT_FORMS = {"signup": "web.people.forms.PersonSignupForm"}
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PREVENT_ENUMERATION = "strict"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_RATE_LIMITS = {
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    # Failed logins: 30 per address, then 10 per account (the username as typed),
    # in any 15 minutes; the address first, so an address over its limit does
    # not run up the counts of the accounts it names.
    "login_failed": "30/15m/ip,10/15m/key",
    # Every sign-in request, per address: as the API's auth-token scope, and
    # above login_failed's 30, so that limit is the one a guesser meets (with
    # its message and Retry-After) rather than allauth's bare 429 page.
    "login": "60/m/ip",
}
# Proxies whose X-Forwarded-For names the client; none by default, so a client's
# own header changes nothing. uvicorn applies it (--forwarded-allow-ips
# "$TRUSTED_PROXIES" wherever it is started; demo_serving passes this value):
# Django's REMOTE_ADDR is the client. Read here to stop on a bad entry.
TRUSTED_PROXIES = env.trusted_proxies(ENVIRON)

# --- e-mail -----------------------------------------------------------------

# Password-reset and address-confirmation mail: printed on the console unless
# EMAIL_HOST names an SMTP server (harbormaster.env.email).
_email = env.email(ENVIRON)
EMAIL_BACKEND = _email["BACKEND"]
EMAIL_HOST = _email["HOST"]
EMAIL_PORT = _email["PORT"]
EMAIL_HOST_USER = _email["HOST_USER"]
EMAIL_HOST_PASSWORD = _email["HOST_PASSWORD"]
EMAIL_USE_TLS = _email["USE_TLS"]
EMAIL_USE_SSL = _email["USE_SSL"]
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = _email["FROM"]
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Absolute links in mail (the fault alerts' link to a bot's owner page).
SITE_URL = env.site_url(ENVIRON)

# --- i18n, static -----------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic` first (the Dockerfile runs
    # it); while DEBUG is on, the source files are served directly
    # (ServeStatic in front of Django: web.http.static_files).
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "servestatic.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- API --------------------------------------------------------------------

REST_FRAMEWORK = {
    # drf-spectacular's, plus the framework's own answers (401, 413, 429...) for each view.
    "DEFAULT_SCHEMA_CLASS": "web.api.toolkit.schema.ApiAutoSchema",
    # Token first: an anonymous API call gets 401 with `WWW-Authenticate: Token`.
    # Sessions serve the browsable API and the docs page to a logged-in person.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON only, parsed with a nesting limit (web/api/toolkit/parsers.py); other bodies are a 415.
    "DEFAULT_PARSER_CLASSES": ["web.api.toolkit.parsers.LimitedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PAGINATION_CLASS": "web.api.toolkit.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "web.api.toolkit.errors.exception_handler",
    # Only views that name a scope are limited: pings (the server contacts a URL
    # of the user's choosing) and password-for-token exchanges (whose failures
    # web.http.login_limit limits besides). Counted per user, or per
    # client address as common.client_address derives it.
    "DEFAULT_THROTTLE_CLASSES": ["web.http.throttling.ScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"bot-ping": "60/minute", "auth-token": "60/minute"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Harbormaster API",
    "DESCRIPTION": "Bots, games, tournaments and ratings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Write-only fields (the secret is never read back) need separate request schemas.
    "COMPONENT_SPLIT_REQUEST": True,
    # Two models have a "status"; name their choice sets so the schema is stable.
    "ENUM_NAME_OVERRIDES": {
        "EngineEnum": "botapi.models.engine_slugs",
        "BotStatusEnum": "botapi.models.Bot.Status",
        "GameStatusEnum": "games.models.Game.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntrantStatusEnum": "tournaments.models.Entrant.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        # bot/person: an entrant's and a leaderboard row's; the name it had first, kept stable.
        "EntrantKindEnum": "games.models.Competitor.Kind",
        "LeaderboardKindEnum": "web.leaderboards.ranking.KINDS",
        "LeaderboardSystemEnum": "web.leaderboards.ranking.SYSTEMS",
    },
}

# --- leaderboards -----------------------------------------------------------

# An entry with fewer rated games than this is marked "provisional" on the leaderboards
# and in their export (still ranked): its score can still move a lot.
LEADERBOARD_PROVISIONAL_GAMES = 10

# --- bots -------------------------------------------------------------------

# Non-public addresses bot endpoints may use (botapi.ssrf.AddressPolicy.coerce);
# checked at registration, at update and at every connection.
BOT_ENDPOINT_ALLOW = env.bot_endpoint_allow(ENVIRON, debug=DEBUG)
BOT_PING_TIMEOUT_MS = 3000
# Fault rules of the referee (bot protocol): forfeit a game after this many
# faults in it; suspend a bot after this many faulty games in a row.
BOT_MAX_FAULTS_PER_GAME = 3
BOT_SUSPEND_AFTER_FAULTY_GAMES = 5
# Seconds an open lobby table nobody changed stays open; then it is closed, freeing its
# seats (lobby.services.close_idle_tables, beat's "lobby-upkeep" every minute).
LOBBY_TABLE_IDLE_S = 30 * 60

# --- security ---------------------------------------------------------------

# HTTPS=1 says the site is reached over HTTPS: cookies become secure, plain
# HTTP is redirected and browsers are told (HSTS) to use HTTPS only.
HTTPS = env.as_bool(ENVIRON, "HTTPS", default=False)
SECURE_SSL_REDIRECT = HTTPS
# Load balancers and orchestrators probe health over plain HTTP from inside.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.as_int(ENVIRON, "HSTS_SECONDS", default=31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
# Only behind a proxy that sets X-Forwarded-Proto itself (and strips a client's).
if env.as_bool(ENVIRON, "TRUST_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Sessions are read through the cache (Redis when REDIS_URL is set, else this
# process's memory) and written through to the database: every signed-in
# request reads its session, and that read was a query on every page.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- logging ----------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.read(ENVIRON, "LOG_LEVEL") or "INFO"},
    # One line per bot request would drown everything else; faults are on the moves.
    # In-process example bots (the demo, manage.py play), Celery's per-task lines
    # (received, succeeded) and beat's line per task sent would bury the progress
    # lines people read.
    "loggers": {
        "httpx": {"level": "WARNING"},
        "httpcore": {"level": "WARNING"},
        "harbormaster_bot": {"level": "WARNING"},
        "celery.app.trace": {"level": "WARNING"},
        "celery.worker.strategy": {"level": "WARNING"},
        "celery.beat": {"level": "WARNING"},
    },
}
