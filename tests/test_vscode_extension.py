"""The VS Code extension in editors/vscode, built as a user builds it: `npm ci`, its Node tests
(activation with the `vscode` module faked; the real `memlint server` of this interpreter), and
`vsce package` into a .vsix that holds the compiled extension and the language client it needs.
npm's downloads are cached in editors/vscode/.npm-cache (git-ignored), nowhere else."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from memlint import __version__

EXTENSION = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def npm_or_skip() -> str:
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI builds the VS Code extension: npm must be installed")
        pytest.skip("npm is not installed")
    return npm


def run(command: list[str], env: dict[str, str]) -> None:
    # The timeout only keeps a stalled download from hanging the suite; a build takes about a minute.
    done = subprocess.run(command, cwd=EXTENSION, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"


def test_extension_tests_pass_and_it_packages_into_a_vsix(tmp_path: Path) -> None:
    npm = npm_or_skip()
    npx = shutil.which("npx") or "npx"
    # The Node tests start `python -m memlint server` with this interpreter, so they test this checkout.
    env = {**os.environ, "MEMLINT_TEST_PYTHON": sys.executable, "npm_config_cache": str(EXTENSION / ".npm-cache")}
    run([npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], env)
    run([npm, "test"], env)
    vsix = tmp_path / "memlint.vsix"
    run([npx, "vsce", "package", "--skip-license", "--out", str(vsix)], env)

    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("extension/package.json"))
        archive.extractall(tmp_path / "unpacked")
    assert manifest["main"] == "./out/src/extension.js"
    assert manifest["version"] == __version__, "editors/vscode/package.json's version follows memlint's"
    assert {"extension/out/src/extension.js", "extension/out/src/preflight.js", "extension/readme.md"} <= names
    # Only what runs: no sources, tests, source maps or npm cache.
    shipped = {"extension/package.json", "extension/readme.md"}
    extra = [
        name for name in names
        if name.startswith("extension/") and name not in shipped and not name.startswith("extension/node_modules/")
        and not (name.startswith("extension/out/src/") and name.endswith(".js"))
    ]
    assert extra == []
    # The language client the extension loads at run time resolves inside the package itself.
    entry = tmp_path / "unpacked" / "extension" / "out" / "src"
    resolved = subprocess.run(
        ["node", "-e", "console.log(require.resolve('vscode-languageclient/node', {paths: [process.argv[1]]}))", str(entry)],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert Path(resolved).is_relative_to(tmp_path / "unpacked" / "extension" / "node_modules")
