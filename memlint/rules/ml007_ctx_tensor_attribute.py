from __future__ import annotations

import libcst as cst

from memlint.models import Applicability, Severity
from memlint.rules.base import Rule


class CtxTensorAttribute(Rule):
    code = "ML007"
    name = "ctx-tensor-attribute"
    severity = Severity.WARNING
    summary = "A custom autograd Function stores tensors on `ctx` instead of `save_for_backward`"
    fix_applicability = Applicability.DISPLAY_ONLY
    needles = (("ctx",), ("Function",))
    what = """
Checks for `forward` of a custom `torch.autograd.Function` that stores
tensors (or containers of tensors) as `ctx.<attr>` instead of passing them to
`ctx.save_for_backward(...)`. A detached tensor that backward deletes
(`ctx.y = y.detach()` ... `del ctx.y`) is fine; one that backward deletes
but that is not detached is kept whenever a graph is dropped without
backward, and the message says so. Shapes, flags and numbers on `ctx` are fine,
and so are callables (`ctx.run_function`), process groups, host tensors (the
CPU RNG state, `x.cpu()`) and objects. A parameter of `forward` counts as a
tensor only with evidence: `forward` uses it as one (a `torch.Tensor` method
called on it, an input of a torch function; a size given to `torch.empty` is
no evidence), an `.apply(...)` call passes it a tensor (or a dict, list or
tuple holding one: a parameter of a module, `self.table = nn.Parameter(...)`),
in this file, through a top-level alias (`lookup = LookupOp.apply`), or in
another file of the project (also through such an alias that it imports), or
`backward` returns a gradient for it
(anything but `None` at its position: autograd accepts gradients for tensor
inputs only), as for inputs that `forward` hands straight to a compiled kernel.
A parameter declared a number, or a container of numbers, is none, whatever
the calls show (`coeff: float`, `Optional[float]`, `int | None`).
"""
    why = """
Tensors saved with `save_for_backward` are freed when backward runs; tensors
on `ctx` attributes live as long as the graph node does. Any graph that is
kept (a loss appended to a list) then keeps them on the GPU: two 4096×4096
fp32 tensors on `ctx`, loss appended after backward, grew by +192 MiB per
iteration; Fast-LLM (PR 486) lost ~164 MiB per microbatch this way and OOMed
on 80 GB at 128 microbatches. pyro PR 1049: "never write `ctx.blah = blah`".
"""
    example = """
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.w = w
        return x * w
"""
    use_instead = """
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(w)
        return x * w
"""

    def visit_Module(self, node: cst.Module) -> None:
        for store in self.model.autograd_functions.tensor_stores:
            names = ", ".join(f"`ctx.{a}`" for a in store.attributes)
            where = f"{names} keeps a tensor on the autograd context of `{store.function.name.value}`"
            message = (
                f"{where} until backward deletes it: a graph dropped or kept without backward keeps it"
                if store.deleted_by_backward
                else f"{where}, where backward does not free it"
            )
            hint = (
                "store it detached (`.detach()`): backward already deletes it, and no graph is kept with it"
                if store.deleted_by_backward
                else "pass it to `ctx.save_for_backward(...)` and read `ctx.saved_tensors` in backward"
            )
            self.report(store.assign, message, hint)
