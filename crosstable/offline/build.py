"""Assemble the offline app's directory: Pyodide from the npm registry (a pinned version,
checked against its published integrity hash), the core as a zip, the page's shell.

Nothing is fetched from a CDN at run time: the web app serves this directory at
``/offline/`` and the page's service worker keeps every file of it after the first load.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

from crosstable.core.errors import RuleError

PYODIDE_VERSION = "0.29.3"
#: the npm registry's ``dist.integrity`` of pyodide@0.29.3
PYODIDE_INTEGRITY = "sha512-22UBuhOJawj7vKUnS7/F3xK+515LJdjiMAHoCfuS6/PbHiOrSQVnYwDe+2sbVwiOZ3sMMexdXICew6NqOMQGgA=="  # noqa: E501
#: pure-Python wheels from PyPI the core needs in the browser (the Dutch engine's matcher
#: where rustworkx is missing), each with its SHA-256
WHEELS = (
    (
        "networkx-3.4.2-py3-none-any.whl",
        "networkx==3.4.2",
        "df5d4365b724cf81b8c6a7312509d0c22386097011ad1abe274afd5e9d3bbc5f",
    ),
)
PIP_DOWNLOAD = (sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:")
RUNTIME = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PACKAGE = Path(__file__).resolve().parent.parent  # crosstable/
SHELL = Path(__file__).resolve().parent / "shell"
DEFAULT_OUT = Path(__file__).resolve().parent / "dist"
#: the parts of the package the app runs: the core, the file formats, the app itself
CORE_PARTS = ("__init__.py", "core", "formats", "offline")
LOCALES = ("ru", "hy")


def integrity_ok(data: bytes, integrity: str = PYODIDE_INTEGRITY) -> bool:
    """Whether ``data`` has the npm ``sha512-…`` integrity hash."""
    algorithm, _, digest = integrity.partition("-")
    if algorithm != "sha512":
        return False
    return base64.b64encode(hashlib.sha512(data).digest()).decode() == digest


def fetch_pyodide(cache: Path) -> Path:
    """The npm tarball of Pyodide, fetched from the npm registry (``NPM_REGISTRY``, else
    npm's default; no npm needed) and kept in ``cache``; refused if its hash differs."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        registry = os.environ.get("NPM_REGISTRY", "https://registry.npmjs.org").rstrip("/")
        url = f"{registry}/pyodide/-/{tarball.name}"
        if not url.startswith("https://"):
            raise RuleError("the npm registry is reached over https, not {url}", url=url)
        try:
            with urllib.request.urlopen(url, timeout=600) as answer:
                data = answer.read(64 * 1024 * 1024)
        except OSError as error:
            raise RuleError(
                "Pyodide could not be fetched from {url}: {error}", url=url, error=str(error)
            ) from error
        if not integrity_ok(data):
            raise RuleError("the Pyodide package's hash is not the pinned one: refused")
        partial = tarball.with_suffix(".part")
        partial.write_bytes(data)
        partial.replace(tarball)
    if not integrity_ok(tarball.read_bytes()):
        tarball.unlink()
        raise RuleError("the Pyodide package's hash is not the pinned one: refused")
    return tarball


def fetch_wheels(cache: Path) -> list[Path]:
    """The wheels of :data:`WHEELS` (``pip download``), kept in ``cache``; each refused
    if its hash differs."""
    cache.mkdir(parents=True, exist_ok=True)
    found = []
    for name, requirement, sha256 in WHEELS:
        wheel = cache / name
        if not wheel.exists():
            subprocess.run(
                [*PIP_DOWNLOAD, "--dest", str(cache), requirement],
                check=True,
                capture_output=True,
                timeout=600,
            )
        if hashlib.sha256(wheel.read_bytes()).hexdigest() != sha256:
            wheel.unlink()
            raise RuleError("the wheel {name} is not the pinned one: refused", name=name)
        found.append(wheel)
    return found


def core_zip(target: Path) -> None:
    """The core, the formats and the app as one zip (unpacked into site-packages in the
    browser), with the Russian and Armenian catalogues."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for part in CORE_PARTS:
            base = PACKAGE / part
            files = [base] if base.is_file() else sorted(base.rglob("*.py"))
            for path in files:
                if "dist" in path.relative_to(PACKAGE).parts:
                    continue
                archive.write(path, f"crosstable/{path.relative_to(PACKAGE)}")
        for lang in LOCALES:
            for domain in ("errors", "messages"):
                relative = Path("web", "locale", lang, "LC_MESSAGES", f"{domain}.mo")
                archive.write(PACKAGE / relative, f"crosstable/{relative}")


def build(out: Path = DEFAULT_OUT, cache: Path | None = None) -> dict[str, int]:
    """Build the app into ``out``; returns the size in bytes of every file shipped."""
    tarball = fetch_pyodide(cache or out.parent / "npm-cache")
    runtime = out / "pyodide"
    runtime.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as archive:
        for name in RUNTIME:
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise RuleError("the Pyodide package has no {name}", name=name)
            (runtime / name).write_bytes(member.read())
    core_zip(out / "crosstable.zip")
    wheels = out / "wheels"
    wheels.mkdir(exist_ok=True)
    for wheel in fetch_wheels(cache or out.parent / "npm-cache"):
        shutil.copyfile(wheel, wheels / wheel.name)
    for path in sorted(SHELL.iterdir()):
        shutil.copyfile(path, out / path.name)
    sizes = {
        str(path.relative_to(out)): path.stat().st_size
        for path in sorted(out.rglob("*"))
        if path.is_file() and path.name != "manifest.json"
    }
    digest = hashlib.sha256()
    for name in sizes:
        digest.update(name.encode() + (out / name).read_bytes())
    shipped = [f"wheels/{name}" for name, _requirement, _sha in WHEELS]
    manifest = {"version": digest.hexdigest()[:16], "files": sizes, "wheels": shipped}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return sizes
