"""The embedded mode's broker is in memory, and sending to it says nothing.

``delay()`` builds a kombu connection from the broker URL; a URL without a
host made kombu warn "No hostname was supplied" on every start of a game in
the demo.
"""

from __future__ import annotations

from tests.foundation.processes import clean_env, run_python

DELAY_A_TASK = (
    "from harbormaster.tasks import ping; result = ping.delay(); print(type(result).__name__)"
)


def test_a_task_sent_in_the_embedded_mode_logs_no_broker_warning(tmp_path) -> None:
    environ = clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", LOG_LEVEL="DEBUG")
    done = run_python(["manage.py", "shell", "-c", DELAY_A_TASK], environ)
    assert done.returncode == 0, done.stderr
    assert "AsyncResult" in done.stdout  # queued in memory (this process runs no worker)
    output = done.stdout + done.stderr
    assert "kombu" not in output, output
    assert "hostname" not in output.lower(), output
