"""`memlint estimate module:factory` / `memlint estimate -- COMMAND`: will the
training step fit? Exit 0 fits (or no budget), 1 does not fit, 2 error."""

from __future__ import annotations

import importlib.util
import os
import sys

import click

from memlint.estimate import sizes

EXIT_OK, EXIT_NO_FIT, EXIT_ERROR = 0, 1, 2


class _EstimateCommand(click.Command):
    """Everything after `--` is the user's command."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            index = args.index("--")
            ctx.meta["memlint.command"] = args[index + 1:]
            args = args[:index]
        return super().parse_args(ctx, args)


def _fail(message: str) -> None:
    click.echo(f"memlint estimate: {message}", err=True)
    sys.exit(EXIT_ERROR)


FACTORY_CONTRACT = """\b
The factory form: TARGET names a function that takes no arguments and returns
(model, optimizer, batch) or (model, optimizer, batch, loss_fn), a dict with
those keys, a step function, or {"train": fn, "eval": fn}. One training step:
  out = model(**batch) (a dict), model(*batch) (a tuple or list), else model(batch)
  loss = loss_fn(out, batch) if a loss_fn is given, else the loss found in out:
    out itself if it is a one-element tensor; out.loss or out["loss"];
    the one one-element tensor of a tuple or list, e.g. (logits, loss)
  loss.backward(); optimizer.step(); optimizer.zero_grad(set_to_none=True)
Any other output is an error, not a guess: give a loss_fn. The evaluation
step runs model(...) once under model.eval() and torch.no_grad()."""

HELP = f"""Predict the peak GPU memory of a training step, without a GPU.

TARGET is module:function (the factory form, below); or give the training command
after `--` (python train.py ..., python -m pkg.train), run as it is.

{FACTORY_CONTRACT}
"""


@click.command("estimate", cls=_EstimateCommand, help=HELP)
@click.argument("target", required=False)
@click.option("--gpu", "gpu_name", help=f"GPU to fit: {', '.join(sizes.GPUS)}.")
@click.option("--budget", help="Memory to fit instead of a GPU, e.g. 80GiB, 24GB.")
@click.option("--steps", type=click.IntRange(2, 20), default=2, show_default=True,
              help="Optimizer steps to run (2 at least: Adam allocates its state in the first).")
@click.option("--no-eval", is_flag=True, help="Skip the evaluation step of the factory form.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "github", "sarif"]), default="text",
              show_default=True)
@click.option("--batch-size", type=click.IntRange(1), help="What if: this batch size (every DataLoader's, or "
              "the factory's batch).")
@click.option("--optimizer", type=click.Choice(["sgd"]), help="What if: plain SGD in place of Adam/AdamW (no state).")
@click.option("--dtype", type=click.Choice(["bf16", "fp16", "fp32"]), help="What if: mixed precision in this "
              "dtype (the model's forward under CUDA autocast); fp32: autocast off.")
@click.option("--checkpointing", is_flag=True, help="What if: activation checkpointing of the model's repeated "
              "blocks (transformer layers, residual blocks).")
@click.option("--world-size", type=click.IntRange(1), help="Predict one rank of a job of this many GPUs (DDP, FSDP), "
              "with a fake process group: no GPUs needed. A `torchrun` command gives its own (nnodes x nproc-per-node).")
@click.option("--timeout", type=float, default=600.0, show_default=True, help="Seconds the command form may run.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), help="Draw a stacked bar per phase and "
              "category, with the GPU's limit, to this image file (needs matplotlib).")
@click.option("--snapshot", "snapshot_file", type=click.Path(dir_okay=False), help="Write the predicted "
              "allocations as a torch.cuda.memory._snapshot() pickle, for https://pytorch.org/memory_viz.")
@click.option("--baseline", "baseline_ref", metavar="REF", help="Compare with a base: a git ref (its tree is "
              "checked out into a temporary worktree and predicted the same way) or a saved --format json prediction. "
              "Prints the change per phase and category; exit 1 when the peak grows past --max-increase or stops "
              "fitting.")
@click.option("--max-increase", help="With --baseline: the growth of the peak allowed, e.g. 5% or 200MiB "
              "(default: any).")
@click.pass_context
def estimate(ctx: click.Context, target: str | None, gpu_name: str | None, budget: str | None, steps: int,
             no_eval: bool, output_format: str, batch_size: int | None, optimizer: str | None,
             dtype: str | None, checkpointing: bool, world_size: int | None, timeout: float, plot_file: str | None,
             snapshot_file: str | None, baseline_ref: str | None, max_increase: str | None) -> None:
    from memlint.estimate import baseline  # here: it imports subprocess and tempfile, which `memlint check` needs not

    argv = ctx.meta.get("memlint.command")
    if bool(target) == bool(argv):
        _fail("give module:function, or a command after `--` (e.g. memlint estimate -- python train.py)")
    try:
        gpu = sizes.gpu(gpu_name) if gpu_name else None
        limit = sizes.parse_size(budget) if budget else (gpu[1] if gpu else None)
    except ValueError as exc:
        _fail(str(exc))
    label = f"--budget {budget}" if budget else (gpu[0] if gpu else "budget")
    if max_increase and not baseline_ref:
        _fail("--max-increase needs --baseline REF")
    try:
        increase = baseline.parse_increase(max_increase) if max_increase else None
    except ValueError as exc:
        _fail(str(exc))
    try:  # an unknown ref or a file that is no prediction is said before the run, not after it
        base_found = baseline.resolve(baseline_ref) if baseline_ref else None
    except baseline.BaselineError as exc:
        _fail(str(exc))
    if plot_file and importlib.util.find_spec("matplotlib") is None:
        _fail('--plot needs matplotlib: pip install "memlint-torch[estimate]"')
    for path in (plot_file, snapshot_file):
        if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            _fail(f"cannot write {path}: no such folder")  # said before the run, not after it
    from memlint.estimate import report

    device = gpu or (sizes.DEFAULT_GPU[0], limit or sizes.DEFAULT_GPU[1])
    if argv:  # torch is imported by the program's process only
        from memlint.estimate import program

        try:
            result = program.run(argv, device, steps, timeout, batch_size, optimizer, snapshot_file, world_size,
                                 dtype, checkpointing)
        except program.ProgramFailed as exc:
            _fail(str(exc))
    else:
        try:
            from memlint.estimate import predict
        except ModuleNotFoundError as exc:
            if exc.name != "torch":
                raise
            _fail('needs torch: pip install "memlint[estimate]"')
        try:
            result = predict.predict_factory(target, steps=steps, gpu=device, eval_step=not no_eval,
                                             batch_size=batch_size, optimizer=optimizer,
                                             snapshot_file=snapshot_file, world_size=world_size, dtype=dtype,
                                             checkpointing=checkpointing)
        except predict.CannotRunFake as exc:
            _fail(str(exc))
    if baseline_ref:
        rerun = _same_estimate(target, argv, gpu_name, budget, steps, no_eval, batch_size, optimizer, dtype,
                               checkpointing, world_size, timeout)
        try:
            base, how = baseline.load(baseline_ref, base_found, rerun, timeout)
        except baseline.BaselineError as exc:
            _fail(str(exc))
        result["baseline"] = baseline.compare(base, result, how, increase, limit)
    code = report.write(result, output_format, sys.stdout, limit, label)
    if plot_file:
        from memlint.estimate import plot

        try:
            plot.draw(result, plot_file, limit, label)
        except OSError as exc:
            _fail(f"cannot write {plot_file}: {exc.strerror or exc}")
    sys.exit(code)


def _same_estimate(target: str | None, argv: list[str] | None, gpu_name: str | None, budget: str | None, steps: int,
                   no_eval: bool, batch_size: int | None, optimizer: str | None, dtype: str | None,
                   checkpointing: bool, world_size: int | None, timeout: float) -> list[str]:
    """This estimate's arguments, to run on the base's tree (`baseline`)."""
    args = [f"--steps={steps}", f"--timeout={timeout}"]
    for name, value in (("gpu", gpu_name), ("budget", budget), ("batch-size", batch_size), ("optimizer", optimizer),
                        ("dtype", dtype), ("world-size", world_size)):
        if value is not None:
            args.append(f"--{name}={value}")
    args += ["--no-eval"] * no_eval + ["--checkpointing"] * checkpointing
    return [*args, target] if target else [*args, "--", *argv]
