"""ML008-ML011: hook handles, fixes that must keep the file's formatting, and look-alikes."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from memlint.analysis.facts.hooks import DISCARDED, KEPT, REMOVED, REMOVED_LATE, UNREMOVED, Handles
from memlint.analysis.model import SemanticModel
from memlint.engine import lint_source
from memlint.fixes import fix_source
from memlint.rules import ALL_RULES

CODES = [r.code for r in ALL_RULES] + ["ML000"]


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def codes(text: str, path: str = "train.py") -> list[tuple[int, str]]:
    findings, errors = lint_source(src(text), path, ["ML008", "ML009", "ML010", "ML011"])
    assert not errors, errors
    return [(f.location.row, f.code) for f in findings]


@pytest.mark.parametrize(
    ("body", "fate"),
    [
        (["m.register_forward_hook(f)"], DISCARDED),
        (["h = m.register_forward_hook(f)"], UNREMOVED),
        (["h = m.register_forward_hook(f)", "model(x)", "h.remove()"], REMOVED),
        (["with m.register_forward_hook(f):", "    model(x)"], REMOVED),
        (["hooks.append(m.register_forward_hook(f))"], REMOVED_LATE),
        (["h = m.register_forward_hook(f)", "keep(h)"], KEPT),
        (["h = m.register_forward_hook(f)", "hooks.append(h)"], REMOVED_LATE),
    ],
)
def test_handle_fate(body: list[str], fate: str) -> None:
    lines = ["def train(model, m, f, loader, keep):", "    hooks = []", "    for x in loader:"]
    lines += [f"        {line}" for line in body]
    lines += ["    for handle in hooks:", "        handle.remove()", ""]
    model = SemanticModel(cst.parse_module("\n".join(lines)))
    call = next(
        c for c in model.tree.by_type[cst.Call]
        if isinstance(c.func, cst.Attribute) and c.func.attr.value == "register_forward_hook"
    )
    loop = model.tree.by_type[cst.For][0]
    assert Handles(model).fate(call, loop).kind == fate


def test_hook_look_alikes_do_not_fire() -> None:
    assert codes(
        """
        import torch

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(3)])
                for layer in self.layers:
                    layer.register_forward_hook(self._keep)
                self._handle = None

            def _keep(self, m, i, out):
                self.last = out.detach()

            def forward(self, x):
                if self._handle is None:
                    self._handle = self.layers[0].register_forward_pre_hook(lambda m, a: None)
                x.register_hook(lambda g: g)
                return self.layers[2](self.layers[1](self.layers[0](x)))

        def train(model, loader, optimizer):
            for step, (x, y) in enumerate(loader):
                if step == 0:
                    model.layers[0].register_forward_hook(print)
                out = model(x)
                out.register_hook(lambda g: g)
                out.sum().backward()
                optimizer.step()
        """
    ) == []


def test_hooks_per_step_fire() -> None:
    assert codes(
        """
        import torch

        class Cb:
            def on_train_batch_start(self, trainer, pl_module, batch, idx):
                pl_module.fc.register_forward_hook(lambda *a: None)

        def train(model, loader, optimizer):
            for x in loader:
                for m in model.modules():
                    if isinstance(m, torch.nn.Linear):
                        m.register_forward_hook(lambda *a: None)
                for p in model.parameters():
                    p.register_hook(lambda g: g.clamp(-1, 1))
                model(x).sum().backward()
                optimizer.step()
        """
    ) == [(5, "ML008"), (11, "ML008"), (13, "ML008")]


def test_anomaly_fix_imports_torch_when_only_the_function_is_imported() -> None:
    text = src(
        """
        from torch.autograd import detect_anomaly


        def fit(model, loader, opt):
            for x in loader:
                with detect_anomaly():
                    model(x).sum().backward()
                opt.step()
        """
    )
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert "import torch\n" in result.text
    assert "with torch.autograd.set_detect_anomaly(False):" in result.text
    assert not [f for f in result.findings if f.code == "ML009"]


def test_anomaly_guarded_or_in_tests_is_fine() -> None:
    body = """
    import os
    import torch

    if os.environ.get("DEBUG"):
        torch.autograd.set_detect_anomaly(True)
    torch.autograd.set_detect_anomaly(False)
    """
    assert codes(body) == []
    assert codes("import torch\ntorch.autograd.set_detect_anomaly(True)\n", "tests/test_grad.py") == []
    assert codes("import torch\ntorch.autograd.set_detect_anomaly(True)\n") == [(2, "ML009")]


def test_load_fix_keeps_one_argument_per_line() -> None:
    text = src(
        """
        import torch


        def resume(model, path):
            state = torch.load(
                path,
                weights_only=True,
            )
            model.load_state_dict(state)
        """
    )
    result = fix_source(text, "t.py", CODES, unsafe=True)
    assert '        weights_only=True,\n        map_location="cpu",\n    )\n' in result.text
    assert not result.findings


def test_load_look_alikes() -> None:
    assert codes(
        """
        import io
        import torch

        def resume(model, path, buffer, opt, scheduler):
            model.load_state_dict(torch.load(path, map_location="cpu"))
            model.load_state_dict(torch.load(path, "cpu"))
            scheduler.load_state_dict(torch.load(path + "/scheduler.pt"))
            rng = torch.load(path + "/rng_state.pth")
            obj = torch.load(io.BytesIO(buffer))
            data = torch.load("features.pt")
            return torch.load(path, **{"map_location": "cpu"})
        """
    ) == []


def test_alloc_conf_order() -> None:
    late = """
    import os
    import torch

    x = torch.zeros(1, device="cuda")
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    """
    assert codes(late) == [(5, "ML010")]
    early = """
    import os
    import torch

    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    x = torch.zeros(1, device="cuda")
    """
    assert codes(early) == []
    backend = early.replace("expandable_segments:True", "backend:cudaMallocAsync")
    assert codes(backend) == [(4, "ML010")]
    assert codes(backend.replace("import torch\n\n", "") + "import torch\n") == []


def test_load_of_a_per_rank_file_says_each_rank_reads_its_own() -> None:
    """A file named for the process's rank holds the shard that rank saved: the message must not
    say every rank loads onto rank 0's device (accelerate's per-rank FSDP shards)."""
    text = src(
        """
        import os
        import torch
        import torch.distributed as dist

        def load_shard(model, input_dir):
            name = f"model_rank{dist.get_rank()}.bin"
            path = os.path.join(input_dir, name)
            model.load_state_dict(torch.load(path))

        def load_full(model, input_dir):
            model.load_state_dict(torch.load(os.path.join(input_dir, "model.bin")))
        """
    )
    findings, errors = lint_source(text, "train.py", ["ML011"])
    assert not errors, errors
    messages = {f.location.row: f.message for f in findings}
    assert set(messages) == {8, 11}
    assert "puts every tensor back on the device it was saved from" in messages[8]
    assert "every rank" in messages[11]


def test_load_before_spawning_workers_says_one_process_loads_it() -> None:
    """A load in the function that starts the workers (`torch.multiprocessing.spawn`), before it
    does, runs once in the parent: the message must not say every rank loads it; a load in the
    spawned worker, or after a distributed step, runs in every process."""
    text = src(
        """
        import torch
        import torch.distributed as dist
        from torch import multiprocessing

        def work(rank, model, path):
            model.load_state_dict(torch.load(path))

        def run(model, path):
            model.load_state_dict(torch.load(path))
            multiprocessing.spawn(work, nprocs=torch.cuda.device_count(), args=(model, path))

        def run_distributed(rank, model, path):
            dist.init_process_group("nccl", rank=rank, world_size=2)
            model.load_state_dict(torch.load(path))
            multiprocessing.spawn(work, nprocs=2, args=(model, path))
        """
    )
    findings, errors = lint_source(text, "train.py", ["ML011"])
    assert not errors, errors
    messages = {f.location.row: f.message for f in findings}
    assert set(messages) == {6, 9, 14}
    assert "puts every tensor back on the device it was saved from" in messages[9]
    assert "every rank" in messages[6] and "every rank" in messages[14]
