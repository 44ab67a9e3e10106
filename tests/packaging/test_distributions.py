"""The bot SDK and the engines install without the server and pass their own tests there.

Issue #20: a bot author installs ``harbormaster-bot`` (``sdk/python``) and,
for search bots, ``harbormaster-engines`` (``engines``) into a virtualenv of
their own. This module does what CI must show for that: it builds both
wheels from a copy of the sources (as a clean clone would; ``--no-deps
--no-build-isolation`` with this project's setuptools, so no network),
creates a fresh venv, installs the wheels with ``--no-index --no-deps``
and runs each distribution's ``unittest`` suite with that venv's Python,
from a folder where the checkout cannot shadow what was installed. Django
must not be importable there: the wheels must need nothing of the server.

One test does all of it, because building takes most of its time and
pytest-xdist would give every worker that runs one of several tests its own
build.
"""

from __future__ import annotations

import email.parser
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "sdk" / "python"
ENGINES = ROOT / "engines"
TIMEOUT = 120
"""Seconds any one step may take before the test gives up on it."""


def clean_env() -> dict[str, str]:
    """The environment without anything that would put the checkout on the venv's path."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "DJANGO_SETTINGS_MODULE"}
    }
    env["PYTHONNOUSERSITE"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # leave no __pycache__ in the checkout's test folders
    return env


def run(args: list[str | Path], cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        **kwargs,
    )


def shown(done: subprocess.CompletedProcess[str]) -> str:
    return f"$ {' '.join(done.args)}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"


def start_wheel_builds(work: Path) -> list[tuple[subprocess.Popen[str], Path]]:
    """``pip wheel`` of each distribution, from a copy without caches or build leftovers.

    The copies keep their ``tests`` folders, so the wheels' contents show that
    tests stay out. Both builds run at once.
    """
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "dist", "*.egg-info")
    started = []
    for source in (SDK, ENGINES):
        copy = work / "src" / source.name
        shutil.copytree(source, copy, ignore=junk)
        out = work / "wheels" / source.name
        process = subprocess.Popen(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
             "--no-index", "--disable-pip-version-check", "--quiet", "-w", str(out), str(copy)],
            cwd=work, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        started.append((process, out))
    return started


def finished_wheel(process: subprocess.Popen[str], out: Path) -> Path:
    output, _ = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, f"pip wheel failed:\n{output}"
    (wheel,) = out.glob("*.whl")
    return wheel


def pyproject(source: Path) -> dict:
    return tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def check_wheel(wheel: Path, source: Path, package: str, package_dir: Path) -> None:
    """Name, version and README as in the sources; the package's modules and nothing else.

    ``package_dir`` is the folder of the import package ``package`` in ``source``.
    """
    project = pyproject(source)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        dist_info = f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
        metadata = email.parser.Parser().parsestr(
            archive.read(f"{dist_info}/METADATA").decode("utf-8")
        )
    assert metadata["Name"] == project["name"]
    assert metadata["Version"] == project["version"]
    assert metadata["Requires-Python"] == ">=3.11"
    required = [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert required == [], "no dependency but optional ones: the standard library is enough"
    assert metadata["Description-Content-Type"] == "text/markdown"
    readme = (source / "README.md").read_text(encoding="utf-8")
    assert metadata.get_payload().strip() == readme.strip(), "the README is the long description"

    outside = [n for n in names if not n.startswith((f"{package}/", f"{dist_info}/"))]
    assert outside == [], "only the import package and its metadata belong in the wheel"
    junk = [n for n in names if re.search(r"(^|/)(tests?|build|__pycache__)/|\.pyc$|egg-info", n)]
    assert junk == []
    on_disk = sorted(
        f"{package}/{path.relative_to(package_dir).as_posix()}"
        for path in package_dir.rglob("*.py")
        if not {"tests", "build", "__pycache__"} & set(path.relative_to(source).parts)
    )
    in_wheel = sorted(n for n in names if n.endswith(".py"))
    assert in_wheel == on_disk, "every module of the package, e.g. a new game's, is in the wheel"


def test_both_wheels_build_install_in_a_fresh_venv_and_pass_their_own_tests(
    tmp_path: Path,
) -> None:
    builds = start_wheel_builds(tmp_path)
    # A venv with no pip, no setuptools and no access to this project's packages.
    venv.EnvBuilder(with_pip=False, clear=True).create(tmp_path / "venv")
    python = tmp_path / "venv" / "bin" / "python"
    bot_wheel, engines_wheel = (finished_wheel(*build) for build in builds)
    check_wheel(bot_wheel, SDK, "harbormaster_bot", SDK / "harbormaster_bot")
    check_wheel(engines_wheel, ENGINES, "engines", ENGINES)

    def install(wheel: Path) -> None:
        done = run(
            [sys.executable, "-m", "pip", "--python", python, "install", "--no-index",
             "--no-deps", "--disable-pip-version-check", "--quiet", wheel],
            cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 0, shown(done)

    def unittests(tests: Path) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [str(python), "-m", "unittest", "discover", "-s", str(tests), "-t", str(tests)],
            cwd=tmp_path, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip

    def passed(process: subprocess.Popen[str], what: str) -> str:
        output, _ = process.communicate(timeout=TIMEOUT)
        assert process.returncode == 0, f"{what} failed in the fresh venv:\n{output}"
        ran = re.search(r"^Ran (\d+) tests? ", output, re.M)
        assert ran and int(ran.group(1)) >= 5 and re.search(r"^OK\b", output, re.M), output
        return output

    # The SDK alone: it must not need the engines (check --engine then says why not).
    install(bot_wheel)
    alone = passed(unittests(SDK / "tests"), "harbormaster-bot's tests without the engines")
    assert "skipped" in alone, "the check --engine test is skipped without the engines"

    install(engines_wheel)
    where = run(
        [python, "-c",
         "import importlib.util as u, harbormaster_bot, engines; "
         "print(harbormaster_bot.__file__); print(engines.__file__); "
         "print([m for m in ('django', 'botapi', 'rest_framework') if u.find_spec(m)])"],
        cwd=tmp_path,
    )  # fmt: skip
    assert where.returncode == 0, shown(where)
    sdk_file, engines_file, server_modules = where.stdout.splitlines()
    site_packages = tmp_path / "venv" / "lib"
    for imported in (sdk_file, engines_file):
        assert Path(imported).is_relative_to(site_packages), f"{imported} is not the installed copy"
    assert server_modules == "[]", "Django and the server must not be importable in the venv"

    sdk_run = unittests(SDK / "tests")
    engines_run = unittests(ENGINES / "tests")
    passed(sdk_run, "harbormaster-bot's tests")
    passed(engines_run, "harbormaster-engines' tests")

    script = tmp_path / "venv" / "bin" / "harbormaster-check"
    helped = run([script, "--help"], cwd=tmp_path)
    assert helped.returncode == 0, shown(helped)
    assert helped.stdout.startswith("usage: harbormaster-check") and "--engine" in helped.stdout

    # The README's steps 2 and 3: the example bot, checked with a real Manila position.
    env = {**clean_env(), "HARBORMASTER_SECRET": "readme-secret"}
    bot = subprocess.Popen(
        [str(python), "-m", "harbormaster_bot.examples.random_bot", "--port", "0"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = bot.stdout.readline()
        url = re.search(r"listening on (http://\S+/)", line)
        assert url, f"the example bot printed {line!r}"
        checked = subprocess.run(
            [str(script), url.group(1), "--engine", "manila"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=TIMEOUT,
        )  # fmt: skip
    finally:
        bot.terminate()
        bot.communicate(timeout=TIMEOUT)
    assert checked.returncode == 0, shown(checked)
    assert "OK: the endpoint speaks protocol v1" in checked.stdout


def test_build_leftovers_are_ignored_by_git() -> None:
    """``pip install ./engines`` in a checkout leaves build/ and *.egg-info/ beside the code."""
    leftovers = [
        "engines/build/lib/engines/base.py",
        "engines/harbormaster_engines.egg-info/PKG-INFO",
        "sdk/python/build/lib/harbormaster_bot/server.py",
        "sdk/python/harbormaster_bot.egg-info/PKG-INFO",
        "sdk/python/dist/harbormaster_bot-1.0.0-py3-none-any.whl",
        "engines/dist/harbormaster_engines-1.0.0-py3-none-any.whl",
    ]
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", *leftovers],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    if done.returncode == 128:
        pytest.skip(f"not a git checkout: {done.stderr.strip()}")
    assert sorted(done.stdout.split()) == sorted(leftovers)


def test_the_sdk_readme_starts_by_installing_these_two_distributions() -> None:
    """What the README tells a new bot author to install is what the test above builds.

    (Its literal commands build with pip's isolated setuptools, from the
    network; they were run by hand in a fresh venv when the README was written.)
    """
    readme = (SDK / "README.md").read_text(encoding="utf-8")
    before_any_section = readme.split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", before_any_section, re.S)
    assert block, "the README starts with the install commands"
    commands = [line for line in block.group(1).splitlines() if not line.startswith("#")]
    assert commands[0] == "python3.11 -m venv .venv && .venv/bin/pip install ./sdk/python"
    installed = {path for command in commands for path in re.findall(r"'?\./([\w/]+)", command)}
    assert installed == {"sdk/python", "engines"}
    names = {pyproject(ROOT / path)["name"] for path in installed}
    assert names == {"harbormaster-bot", "harbormaster-engines"}
    assert "harbormaster-engines" in pyproject(SDK)["optional-dependencies"]["search"][0]
    assert "copy these files" not in readme.lower()
