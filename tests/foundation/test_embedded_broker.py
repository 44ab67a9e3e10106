"""The embedded mode has no broker, and says nothing about one.

Celery's eager ``delay()`` still takes a producer from the broker pool (to
learn the serializer), which builds a kombu connection from the broker URL;
a URL without a host made kombu warn "No hostname was supplied" on every
start of a game in the demo.
"""

from __future__ import annotations

from tests.foundation.processes import clean_env, run_python

DELAY_A_TASK = (
    "from harbormaster.tasks import ping; "
    "result = ping.delay(); "
    "print(type(result).__name__, result.get(timeout=5))"
)


def test_an_eager_task_in_the_embedded_mode_logs_no_broker_warning(tmp_path) -> None:
    environ = clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", LOG_LEVEL="DEBUG")
    done = run_python(["manage.py", "shell", "-c", DELAY_A_TASK], environ)
    assert done.returncode == 0, done.stderr
    assert "EagerResult pong" in done.stdout
    output = done.stdout + done.stderr
    assert "kombu" not in output, output
    assert "hostname" not in output.lower(), output
