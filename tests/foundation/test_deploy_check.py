"""``manage.py check --deploy`` finds nothing settings could fix in a production-like setup."""

from __future__ import annotations

from tests.foundation.processes import PRODUCTION_ENV, clean_env, run_python


def deploy_check(**environ: str):
    return run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "DEBUG"], clean_env(**environ)
    )


def test_production_environment_passes_deploy_check() -> None:
    result = deploy_check(**PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_development_defaults_are_flagged_by_deploy_check() -> None:
    """The check is not vacuous: the embedded (DEBUG) defaults fail it."""
    result = deploy_check()
    assert result.returncode != 0
    assert "security.W018" in result.stderr  # DEBUG on
    assert "security.W009" in result.stderr  # development SECRET_KEY
