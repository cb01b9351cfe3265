"""`memlint estimate module:factory` / `memlint estimate -- COMMAND`: will the
training step fit? Exit 0 fits (or no budget), 1 does not fit, 2 error."""

from __future__ import annotations

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


@click.command("estimate", cls=_EstimateCommand)
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
@click.option("--world-size", type=click.IntRange(1), help="Predict one rank of a job of this many GPUs (DDP, FSDP), "
              "with a fake process group: no GPUs needed. A `torchrun` command gives its own (nnodes x nproc-per-node).")
@click.option("--timeout", type=float, default=600.0, show_default=True, help="Seconds the command form may run.")
@click.pass_context
def estimate(ctx: click.Context, target: str | None, gpu_name: str | None, budget: str | None, steps: int,
             no_eval: bool, output_format: str, batch_size: int | None, optimizer: str | None, world_size: int | None, timeout: float) -> None:
    """Predict the peak GPU memory of a training step, without a GPU.

    TARGET is module:function returning (model, optimizer, batch[, loss_fn]) or a step
    function; or give the training command after `--` (python train.py ..., python -m pkg.train).
    """
    argv = ctx.meta.get("memlint.command")
    if bool(target) == bool(argv):
        _fail("give module:function, or a command after `--` (e.g. memlint estimate -- python train.py)")
    try:
        gpu = sizes.gpu(gpu_name) if gpu_name else None
        limit = sizes.parse_size(budget) if budget else (gpu[1] if gpu else None)
    except ValueError as exc:
        _fail(str(exc))
    label = f"--budget {budget}" if budget else (gpu[0] if gpu else "budget")
    from memlint.estimate import report

    device = gpu or (sizes.DEFAULT_GPU[0], limit or sizes.DEFAULT_GPU[1])
    if argv:  # torch is imported by the program's process only
        from memlint.estimate import program

        try:
            result = program.run(argv, device, steps, timeout, batch_size, optimizer, world_size)
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
                                             batch_size=batch_size, optimizer=optimizer, world_size=world_size)
        except predict.CannotRunFake as exc:
            _fail(str(exc))
    sys.exit(report.write(result, output_format, sys.stdout, limit, label))
