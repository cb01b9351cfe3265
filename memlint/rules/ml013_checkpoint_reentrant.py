from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.expressions import bool_constant, keyword_arg, method_name
from memlint.analysis.syntax.methods import effective_default, own_method
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule
from memlint.rules.edits import append_element, append_keyword

CHECKPOINT = {
    "torch.utils.checkpoint.checkpoint",
    "torch.utils.checkpoint.checkpoint_sequential",
}
HF_ENABLE = "gradient_checkpointing_enable"


class CheckpointReentrant(Rule):
    code = "ML013"
    name = "checkpoint-reentrant"
    severity = Severity.WARNING
    summary = "Activation checkpointing without `use_reentrant=False`"
    # Unsafe: the fix changes which variant runs. Layers whose inputs need no grad start getting
    # gradients (the point, but training changes), and the non-reentrant variant checks the
    # recomputation, raising where a forward saves different tensors the second time.
    fix_applicability = Applicability.UNSAFE
    needles = (("utils.checkpoint", "utils import checkpoint", "checkpoint_sequential", "gradient_checkpointing_enable"),)
    what = """
Checks for `torch.utils.checkpoint.checkpoint(...)` and
`checkpoint_sequential(...)` called without `use_reentrant=`, and for
`model.gradient_checkpointing_enable()` (Hugging Face models) called without
`gradient_checkpointing_kwargs={"use_reentrant": False}`. Calls that pass
`use_reentrant` explicitly (either value) or forward `**kwargs` are not
reported, nor is `self.gradient_checkpointing_enable()` in a class whose own
method defaults the kwargs to `{"use_reentrant": False}`, nor a call in a
function that also calls `enable_input_require_grads()`.
"""
    why = """
Without the argument torch runs the legacy reentrant variant and warns on
every call (older versions: the default will change to `False`; newer ones:
the argument will be required; torch 2.11 still runs the reentrant
variant). torch recommends `use_reentrant=False`, and its documentation
lists what the reentrant variant does not do: when none of the checkpointed
inputs requires grad, the checkpointed layers get no gradients (frozen
embeddings, adapters); it does not work with `torch.autograd.grad`; it
ignores tensors inside nested structures; and it always recomputes the whole
segment, where the non-reentrant variant stops once the needed activations
are back. Reported in transformers issue 26221 and open_clip issue 573,
where passing `use_reentrant=False` removed the warning "None of the inputs
have requires_grad=True. Gradients will be None" and improved train and
validation loss. transformers before PR 43203 (January 2026) passed
`use_reentrant=True` from `gradient_checkpointing_enable()`.

Severity warning: training often gives the same result, but when it does
not, nothing fails.
"""
    example = """
from torch.utils.checkpoint import checkpoint

def forward(self, x):
    for block in self.blocks:
        x = checkpoint(block, x)
    return x
"""
    use_instead = """
from torch.utils.checkpoint import checkpoint

def forward(self, x):
    for block in self.blocks:
        x = checkpoint(block, x, use_reentrant=False)
    return x
"""

    def visit_Call(self, node: cst.Call) -> None:
        if any(arg.star == "**" for arg in node.args):
            return  # `use_reentrant` may come with the forwarded kwargs
        name = self.model.imports.resolve(node.func)
        if name in CHECKPOINT:
            if keyword_arg(node, "use_reentrant") is not None:
                return
            short = name.rsplit(".", 1)[1]
            message = f"`{short}(...)` without `use_reentrant=` falls back to the reentrant variant and warns on every call"
            fix = FixSpec(
                Applicability.UNSAFE,
                "Pass `use_reentrant=False`",
                ((node, append_keyword(node, "use_reentrant", cst.Name("False"))),),
            )
            self.report(node, message, "pass `use_reentrant=False` (the variant torch recommends); the reentrant one gives the checkpointed layers no "
                "gradients when no input requires grad and fails with `torch.autograd.grad`", fix=fix)
            return
        if method_name(node) == HF_ENABLE and isinstance(node.func, cst.Attribute):
            self._hf_enable(node)

    def _hf_enable(self, node: cst.Call) -> None:
        arg = keyword_arg(node, "gradient_checkpointing_kwargs")
        own = None
        if arg is None:
            if any(a.keyword is None for a in node.args):
                return  # positional: whatever it is, it was chosen
            own = self._own_default_reentrant(node)
            if own is False or self._inputs_made_to_require_grad(node):
                return
            replacement = append_keyword(node, "gradient_checkpointing_kwargs", _kwargs_dict())
            old: cst.CSTNode = node
        else:
            value = arg.value
            if not isinstance(value, cst.Dict) or _dict_has_key(value, "use_reentrant"):
                return  # a variable, or an explicit choice
            if any(not isinstance(e, cst.DictElement) for e in value.elements):
                return  # `{**defaults}` may hold it
            replacement = _append_element(value)
            old = value
        who = (
            "this class's own method defaults to the reentrant variant"
            if own
            else "transformers before January 2026 checkpoints with the reentrant variant"
        )
        message = f"`{HF_ENABLE}()` without `gradient_checkpointing_kwargs={{\"use_reentrant\": False}}`: {who}"
        fix = FixSpec(
            Applicability.UNSAFE,
            "Pass `gradient_checkpointing_kwargs={\"use_reentrant\": False}`",
            ((old, replacement),),
        )
        self.report(
            node,
            message,
            "pass `gradient_checkpointing_kwargs={\"use_reentrant\": False}`; the reentrant variant gives the "
            "checkpointed layers no gradients when their inputs do not require grad (frozen embeddings, adapters); "
            "transformers PR 43203 changed the default",
            fix=fix,
        )


    def _inputs_made_to_require_grad(self, node: cst.Call) -> bool:
        """The same function calls `enable_input_require_grads()` (trl's trainers): the
        reentrant variant then gets an input that requires grad, which is what it lacks."""
        scope = self.model.scope_of(node)
        return any(method_name(c) == "enable_input_require_grads" for c in self.model.tree.descendants(scope, cst.Call))

    def _own_default_reentrant(self, node: cst.Call) -> bool | None:
        """For `self.gradient_checkpointing_enable()` in a class that defines the method
        itself: does its own default kwargs dict set `use_reentrant=True` (or leave it
        out)? None when the call is not to such a method or the default is not a dict."""
        method = own_method(self.model, node)
        default = effective_default(method, "gradient_checkpointing_kwargs") if method is not None else None
        if not isinstance(default, cst.Dict):
            return None
        for e in default.elements:
            if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString):
                if e.key.evaluated_value == "use_reentrant":
                    return bool_constant(e.value) is True  # a variable: chosen by the class
        return True


def _kwargs_dict() -> cst.Dict:
    return cst.Dict([cst.DictElement(cst.SimpleString('"use_reentrant"'), cst.Name("False"))])


def _dict_has_key(value: cst.Dict, key: str) -> bool:
    for element in value.elements:
        if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
            if element.key.evaluated_value == key:
                return True
    return False


def _append_element(value: cst.Dict) -> cst.Dict:
    element = cst.DictElement(cst.SimpleString('"use_reentrant"'), cst.Name("False"))
    return value.with_changes(elements=append_element(list(value.elements), element, value.lbrace.whitespace_after))
