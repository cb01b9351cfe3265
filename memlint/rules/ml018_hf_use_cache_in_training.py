from __future__ import annotations

import libcst as cst

from memlint.analysis.library import returns_kv_cache
from memlint.analysis.syntax.expressions import bool_constant, code, method_name
from memlint.analysis.regions.grad import Grad
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule
from memlint.rules.edits import append_keyword

# Calls that return the same model (`model = model.to(device)`), or wrap it in an adapter that
# forwards `use_cache` to it (peft's `get_peft_model`, `prepare_model_for_kbit_training`).
_SAME_MODEL_METHODS = {"to", "cuda", "half", "bfloat16", "float", "train"}
_WRAPPERS = {"peft.get_peft_model", "peft.prepare_model_for_kbit_training", "peft.PeftModel.from_pretrained"}


class HfUseCacheInTraining(Rule):
    code = "ML018"
    name = "hf-use-cache-in-training"
    severity = Severity.WARNING
    summary = "A Hugging Face generative model trained with `use_cache` on keeps every layer's key/value cache across steps"
    fix_applicability = Applicability.SAFE
    needles = (("from_pretrained",), ("ForCausalLM", "LMHeadModel", "Generation", "Seq2SeqLM", "MTModel"), ("backward",))
    what = """
Checks for the forward of a Hugging Face model that returns a key/value cache
(a causal LM: `AutoModelForCausalLM`, `LlamaForCausalLM`, `GPT2LMHeadModel`,
...; an encoder-decoder generator: `T5ForConditionalGeneration`,
`AutoModelForSeq2SeqLM`, `MarianMTModel`, ...), loaded with `from_pretrained`,
possibly wrapped by peft, in a training loop, whose whole output is bound to a name
(`outputs = model(**batch)`) while the model's `use_cache` is on: not passed
as `use_cache=False`, not set to `False` in `from_pretrained(...)` or on
`model.config`, and no gradient checkpointing (with it, transformers turns
the cache off itself in training mode). Code that reads `past_key_values`,
`loss = model(**batch).loss` (the output is dropped at once), a deleted
output, and generation or evaluation code are not reported.
"""
    why = """
With `use_cache` on, every forward builds and returns the key/value cache of
every layer in `outputs.past_key_values`. Backward frees the graph, but the
cache is still referenced by `outputs`, which stays bound until the next
step's forward has returned: the cache of step k is on the device during the
forward of step k+1, 2 × layers × batch × sequence × hidden values
(1 GiB in bf16 for a 7B Llama, 32 layers of 4096, at 2,048 tokens).

The fix passes `use_cache=False` to the training forward: the loss and the
logits are the same and `past_key_values` is None. It is safe because the
file never reads `past_key_values`; it is unsafe when the model is loaded
with `trust_remote_code=True` (its forward may not take `use_cache`).
"""
    example = """
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B")
for batch in loader:
    outputs = model(**batch)
    outputs.loss.backward()
    optimizer.step()
"""
    use_instead = """
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B")
for batch in loader:
    outputs = model(**batch, use_cache=False)
    outputs.loss.backward()
    optimizer.step()
"""

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        if not isinstance(node.func, cst.Name) or _keyword(node, "use_cache") is not None:
            return
        assign = model.tree.parent_of(node)
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)):
            return
        kept = assign.targets[0].target.value
        loaded = self._loaded_causal_lm(node.func.value, model.scope_of(node))
        if loaded is None or model.grad_state(node) is not Grad.ON or self._cache_off_in_file():
            return
        loop = next((lp for lp in model.enclosing_loops(node) if model.loops.is_training_loop(lp)), None)
        if loop is None or self._deleted(kept, loop):
            return
        line = model.range_of(loaded).start.line
        message = (
            f"`{kept}` keeps the key/value cache that `{node.func.value}(...)` returns with `use_cache` on (the "
            f"model of line {line}) on the device through the next step's forward"
        )
        remote = _keyword(loaded, "trust_remote_code")
        safe = remote is None or bool_constant(remote) is False
        fix = FixSpec(
            Applicability.SAFE if safe else Applicability.UNSAFE,
            "Pass `use_cache=False` to the training forward",
            ((node, append_keyword(node, "use_cache", cst.Name("False"))),),
        )
        hint = "pass `use_cache=False` to the training forward; backward frees the graph, not the cache"
        self.report(node, message, hint, fix=fix)

    def _loaded_causal_lm(self, name: str, scope: cst.CSTNode, depth: int = 3) -> cst.Call | None:
        """The `*ForCausalLM.from_pretrained(...)` call `name` holds, when every binding of it is that
        call or the same model moved, prepared or wrapped, and the call leaves the cache on."""
        model = self.model
        bindings = model.bindings(scope, name) or model.bindings(model.module, name)
        loaded = None
        for binding in bindings:
            value = binding.value
            while isinstance(value, cst.Call) and method_name(value) in _SAME_MODEL_METHODS:
                value = value.func.value  # `from_pretrained(...).cuda()`, `model.to(device)`
            if isinstance(value, cst.Name) and value.value == name:
                continue
            if not isinstance(value, cst.Call):
                return None
            resolved = model.imports.resolve(value.func) or ""
            if method_name(value) == "from_pretrained" and returns_kv_cache(resolved):
                loaded = value
                continue
            inner = self._wrapped(value, name)
            if inner is None:
                return None
            if inner != name and depth > 0:
                loaded = self._loaded_causal_lm(inner, scope, depth - 1)
                if loaded is None:
                    return None
        if loaded is None or any(a.star for a in loaded.args):
            return None
        if _keyword(loaded, "use_cache") is not None or _keyword(loaded, "config") is not None:
            return None
        return loaded

    def _wrapped(self, value: cst.Call, name: str) -> str | None:
        """The model name a wrapping call takes: peft's `get_peft_model(base, ...)`, or accelerate's
        `accelerator.prepare(model, optimizer, ...)` (which returns the same model)."""
        first = value.args[0].value if value.args else None
        if not isinstance(first, cst.Name):
            return None
        if (self.model.imports.resolve(value.func) or "") in _WRAPPERS:
            return first.value
        if method_name(value) == "prepare" and any(isinstance(a.value, cst.Name) and a.value.value == name for a in value.args):
            return name
        return None

    def _cache_off_in_file(self) -> bool:
        """`model.config.use_cache = False`, gradient checkpointing (transformers then turns the cache off
        in training mode), or code that reads the cache."""
        tree = self.model.tree
        for assign in tree.by_type.get(cst.Assign, ()):
            for target in assign.targets:
                if isinstance(target.target, cst.Attribute) and target.target.attr.value == "use_cache":
                    return True
        for call in tree.by_type.get(cst.Call, ()):
            checkpointing = _keyword(call, "gradient_checkpointing")
            if method_name(call) == "gradient_checkpointing_enable" or (
                checkpointing is not None and bool_constant(checkpointing) is not False
            ):
                return True
        return any(a.attr.value == "past_key_values" for a in tree.by_type.get(cst.Attribute, ())) or any(
            "past_key_values" in s.value for s in tree.by_type.get(cst.SimpleString, ())
        )

    def _deleted(self, name: str, loop: cst.CSTNode) -> bool:
        return any(code(d.target) == name or name in code(d.target).split(", ") for d in self.model.tree.descendants(loop, cst.Del))


def _keyword(call: cst.Call, keyword: str) -> cst.BaseExpression | None:
    """`keyword=`'s value wherever it is written, after a `**batch` too."""
    return next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)
