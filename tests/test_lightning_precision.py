"""ML002 about Lightning's own `autocast(cache_enabled=False)` around `training_step` (issue 21611):
which releases, which Trainers, and a Trainer built in another file of the project."""

from __future__ import annotations

import json
import os
import textwrap
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.analysis.regions import lightning_precision
from memlint.cli import main

MODULE = """
import lightning as L
import torch


class Decoder(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.cell = torch.nn.GRUCell(64, 64)
        self.head = torch.nn.Linear(64, 100)

    def training_step(self, batch, batch_idx):
        h, targets = batch
        loss = 0.0
        for t in range(targets.shape[1]):
            h = self.cell(h, h)
            loss = loss + torch.nn.functional.cross_entropy(self.head(h), targets[:, t])
        return loss
"""


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch):
    """Pretend a Lightning release is installed (None: not installed), read from metadata only."""

    def pretend(version: str | None) -> None:
        def fake_version(name: str) -> str:
            if version is None or name not in ("lightning", "pytorch-lightning"):
                raise metadata.PackageNotFoundError(name)
            return version

        monkeypatch.setattr(metadata, "version", fake_version)  # (imported where asked)
        lightning_precision.installed_version.cache_clear()

    yield pretend
    lightning_precision.installed_version.cache_clear()


def lint(root: Path) -> list[dict]:
    old = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "--select", "ML002", "."])
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def write(root: Path, **files: str) -> Path:
    for name, text in files.items():
        (root / f"{name}.py").write_text(textwrap.dedent(text))
    return root


@pytest.mark.parametrize(
    ("version", "reported"),
    [("2.5.4", False), ("2.5.5", True), ("2.6.0", True), ("2.6.6", True), ("2.6.6.post0", True), ("2.7.0", False)],
)
def test_only_releases_with_the_cache_less_autocast_are_reported(installed, tmp_path: Path, version: str, reported: bool) -> None:
    installed(version)
    root = write(tmp_path, model=MODULE + '\ntrainer = L.Trainer(precision="bf16-mixed")\n')
    findings = lint(root)
    assert bool(findings) == reported
    if reported:
        assert f"Lightning {version.removesuffix('.post0')}'s" in findings[0]["message"]


def test_an_unknown_release_is_named_2_6_x(installed, tmp_path: Path) -> None:
    installed(None)
    [finding] = lint(write(tmp_path, model=MODULE + '\ntrainer = L.Trainer(precision="16-mixed")\n'))
    assert "Lightning 2.6.x's" in finding["message"] and 'precision="16-mixed"' in finding["message"]


def test_the_trainer_of_another_file_decides(installed, tmp_path: Path) -> None:
    installed("2.6.6")
    train = 'import lightning as L\nfrom model import Decoder\n\nL.Trainer(precision="{}").fit(Decoder())\n'
    write(tmp_path, model=MODULE, train=train.format("bf16-mixed"))
    [finding] = lint(tmp_path)
    assert finding["filename"].endswith("model.py") and "train.py, line 4" in finding["message"]
    assert finding["fix"]["applicability"] == "unsafe"
    write(tmp_path, train=train.format("32-true"))
    assert lint(tmp_path) == []


def test_no_trainer_in_the_project_no_finding(installed, tmp_path: Path) -> None:
    installed("2.6.6")
    assert lint(write(tmp_path, model=MODULE)) == []


def test_precision_from_config_or_a_strategy_with_its_own_plugin_is_not_mixed(tmp_path: Path) -> None:
    from memlint.analysis.context import FileContext
    import libcst as cst

    source = textwrap.dedent(
        """
        import lightning as L
        from lightning.pytorch.strategies import FSDPStrategy
        L.Trainer(**config)
        L.Trainer(precision=args.precision)
        L.Trainer(precision="bf16-mixed", strategy=FSDPStrategy())
        L.Trainer(precision=16)
        """
    )
    trainers = lightning_precision.trainer_precisions(FileContext(cst.parse_module(source)))
    assert [(t.precision, t.mixed) for t in trainers] == [("?", False), ("?", False), ("bf16-mixed", False), ("16", True)]
