"""`memlint estimate`: the peak GPU memory of a training step, predicted on a
machine without a GPU by running the step on fake tensors (shapes and dtypes
exact, no data, no memory). Needs torch (the `estimate` extra); the linter
never imports this package.
"""

# The torch versions this package was tested on: 2.11 (CUDA build, the GPU measurements), 2.13
# (CPU build, the test suite). It rests on private torch APIs (torch._subclasses.fake_tensor,
# torch.distributed._tools.mem_tracker and mod_tracker's register_multi_grad_hook, torch.nn.Module._apply's
# swap, torch._C._DisableTorchDispatch, torch._C._cuda_clearCublasWorkspaces,
# torch.autograd.graph._get_grad_fn_or_grad_acc); on other versions the report says so in one line.
TESTED_TORCH = ("2.11", "2.13")
