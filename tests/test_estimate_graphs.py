"""`memlint estimate` on what graph-network scripts do: a sparse adjacency on the GPU, a data
set's processing cache saved and loaded back in the same run, boolean masks and edge lists
whose real values decide shapes on the GPU."""

from __future__ import annotations


import pytest

torch = pytest.importorskip("torch")

from torch._subclasses.fake_tensor import DynamicOutputShapeException  # noqa: E402

from memlint.estimate import allocator, saving, scalars  # noqa: E402
from memlint.estimate.tracker import GPU  # noqa: E402
from test_estimate_programs import _run_fake  # noqa: E402


def _round(n: int) -> int:
    return -(-n // 512) * 512


def test_a_sparse_adjacency_on_the_gpu_is_its_indices_and_values(tmp_path, capsys):
    # pygcn's layout: a COO adjacency built on the host, moved with .cuda(), multiplied with torch.spmm.
    tracker = _run_fake(tmp_path, """
        import torch
        n, nnz = 500, 3000
        g = torch.Generator().manual_seed(0)
        adj = torch.sparse_coo_tensor(torch.randint(0, n, (2, nnz), generator=g), torch.ones(nnz), (n, n))
        adj = adj.coalesce()
        edges = adj._nnz()
        adj = adj.cuda()
        print(adj.is_cuda, edges)
    """)
    is_cuda, edges = capsys.readouterr().out.split()
    assert is_cuda == "True"
    assert tracker._peak_mem[GPU] == _round(2 * int(edges) * 8) + _round(int(edges) * 4)


def test_a_gcn_on_a_sparse_adjacency_trains(tmp_path):
    tracker = _run_fake(tmp_path, """
        import torch
        n, features, hidden = 400, 64, 16
        adj = torch.sparse_coo_tensor(torch.randint(0, n, (2, 2000)), torch.ones(2000), (n, n)).cuda()
        x = torch.randn(n, features).cuda()
        w1 = torch.nn.Parameter(torch.randn(features, hidden, device="cuda"))
        w2 = torch.nn.Parameter(torch.randn(hidden, 7, device="cuda"))
        opt = torch.optim.Adam([w1, w2])
        for _ in range(2):
            opt.zero_grad()
            out = torch.spmm(adj, torch.relu(torch.spmm(adj, x @ w1)) @ w2)
            out.sum().backward()
            opt.step()
    """)
    assert tracker.record.steps == 2
    # the adjacency (indices and values), the features, two parameters with Adam's two states and gradients
    held = _round(2 * 2000 * 8) + _round(2000 * 4) + _round(400 * 64 * 4)
    assert tracker._peak_mem[GPU] > held + 4 * (_round(64 * 16 * 4) + _round(16 * 7 * 4))


def test_a_cache_saved_from_fake_tensors_is_loaded_back_in_the_same_run(tmp_path, capsys):
    # PyTorch Geometric's datasets: the processed data saved into a buffer, the buffer written to a file by
    # the library itself, then loaded at once; and a checkpoint saved to a path and reloaded.
    cache, checkpoint = tmp_path / "data.pt", tmp_path / "best.pt"
    tracker = _run_fake(tmp_path, f"""
        import io, torch
        features = torch.randn(2000, 1000)            # 2 million elements: fake
        buffer = io.BytesIO()
        torch.save(({{"x": features, "y": torch.arange(2000)}}, "slices"), buffer)
        with open({str(cache)!r}, "wb") as f:
            f.write(buffer.getvalue())
        data, slices = torch.load({str(cache)!r}, weights_only=True)
        model = torch.nn.Linear(1000, 7).cuda()
        torch.save(model.state_dict(), {str(checkpoint)!r})
        state = torch.load({str(checkpoint)!r}, map_location="cuda")
        print(tuple(data["x"].shape), slices, tuple(state["weight"].shape), state["weight"].is_cuda,
              data["x"] is not features)
    """)
    assert capsys.readouterr().out.split() == ["(2000,", "1000)", "slices", "(7,", "1000)", "True", "True"]
    assert cache.read_bytes().startswith(saving.PLACEHOLDER) and not checkpoint.exists()
    assert [u.kind for u in tracker.record.scalar_uses.values()] == [scalars.SAVE_BUFFER, scalars.SAVE]
    # A later run finds the placeholder of this one: one clear error that names the file, not a pickle error.
    with pytest.raises(saving.PlaceholderFile, match=f"{cache}.*earlier `memlint estimate` run"):
        _run_fake(tmp_path, f"""
            import torch
            torch.load({str(cache)!r})
        """, "again.py")


def test_masks_and_edge_lists_with_real_values_give_real_shapes_on_the_gpu(tmp_path, capsys):
    # A graph's edges without self-loops (a boolean selection of an edge list copied to the GPU), the
    # training nodes' outputs (a model's output indexed by a real mask), and counts read as numbers.
    tracker = _run_fake(tmp_path, """
        import torch
        edge_index = torch.tensor([[0, 1, 1, 2, 3, 3], [1, 1, 2, 0, 3, 0]]).cuda()
        keep = edge_index[0] != edge_index[1]
        loops = torch.arange(4, device="cuda")
        edges = torch.cat([edge_index[:, keep], torch.stack([loops, loops])], dim=1)
        mask = torch.zeros(1000, dtype=torch.bool)
        mask[:140] = True
        mask = mask.cuda()
        out = torch.nn.Linear(16, 7).cuda()(torch.randn(1000, 16, device="cuda"))
        picked = out[mask]
        out[mask] = 0.0
        print(tuple(edges.shape), tuple(picked.shape), int(mask.sum()), int(edges.max()), picked.is_cuda)
    """)
    assert capsys.readouterr().out.split() == ["(2,", "8)", "(140,", "7)", "140", "3", "True"]
    assert not tracker.record.scalar_uses  # every number read was real
    # A mask computed from the model's output has no values here: a selection by it that the program
    # goes on computing with is refused, not guessed.
    with pytest.raises(DynamicOutputShapeException):
        _run_fake(tmp_path, """
            import torch
            out = torch.nn.Linear(16, 7).cuda()(torch.randn(1000, 16, device="cuda"))
            out[out.argmax(1) == 0].mean()
        """, "unknown.py")


def test_cudas_dropout_allocates_its_mask_before_its_output(tmp_path):
    # The order decides the allocator's segments: a 3.75 MiB mask takes a 20 MiB segment, in which the
    # 15 MiB output then fits (on an H200: one segment where the other order takes two).
    tracker = _run_fake(tmp_path, """
        import torch
        x = torch.randn(1000, 3932, device="cuda")
        y = torch.nn.functional.dropout(x, 0.5, training=True)
    """)
    allocated = [(nbytes, category) for sign, _, nbytes, category, _ in tracker.record.events if sign > 0]
    assert [n for n, _ in allocated[-2:]] == [_round(1000 * 3932), _round(1000 * 3932 * 4)]
    assert allocator.replay([(s, k, n) for s, k, n, *_ in tracker.record.events]).peak_reserved == \
        16 * 2**20 + 20 * 2**20


def test_a_sparse_product_on_the_gpu_takes_column_major_copies(tmp_path):
    # cuSPARSE's SpMM reads a column-major dense operand and writes a column-major result, copied back.
    tracker = _run_fake(tmp_path, """
        import torch
        adj = torch.sparse_coo_tensor(torch.randint(0, 1000, (2, 50)), torch.ones(50), (1000, 1000)).cuda()
        h = torch.randn(1000, 512, device="cuda")
        out = torch.spmm(adj, h)
    """)
    dense = _round(1000 * 512 * 4)
    sizes = [nbytes for sign, _, nbytes, _, _ in tracker.record.events if sign > 0 and nbytes >= dense]
    assert sizes == [dense] * 4  # h, the result, then the copies of the result and of h
    assert tracker._peak_mem[GPU] >= 4 * dense
