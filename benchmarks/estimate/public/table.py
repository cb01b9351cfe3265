"""docs/estimate-accuracy.md from the benchmark's results (benchmarks/results/):
estimate_public_gpu.json (measure_gpu.py), estimate_public_predictions*.json (predict.py),
estimate_public_first_look_gpu.json / estimate_public_first_look_predictions.json (the scripts
first measured after their prediction was committed),
estimate_distributed_gpu.json / estimate_distributed_predictions.json (measure_distributed.py),
estimate_kernels_gpu.json and estimate_kernels_gpu_h100.json (kernel_probe.py), and
estimate_public_gpu_no_autotuning.json (measure_gpu.py with MEASURE_NO_CUDNN_BENCHMARK=1).

    python table.py
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
RESULTS = os.path.join(ROOT, "benchmarks", "results")
MIB = 2**20


def _load(name: str) -> dict:
    with open(os.path.join(RESULTS, name), encoding="utf-8") as handle:
        return json.load(handle)


def _error(predicted: int, measured: int) -> str:
    return f"{(predicted - measured) / measured:+.1%}"


def _mib(n: int) -> str:
    return f"{n / MIB:,.1f}"


def _why(prediction: dict) -> str:
    text = prediction.get("stopped") or prediction.get("error") or ""
    text = re.sub(r"\S*/benchmarks/estimate/public/src/", "", text)  # wherever the sources were
    return text.replace("|", "/")[:140]


def public_rows(gpu: dict, predictions: dict[tuple[str, int], dict]) -> tuple[list[str], int, int, int]:
    """The table's rows, and how many configurations predict, within ±5% allocated, within ±10% reserved."""
    rows, predicted, within, within_reserved = [], 0, 0, 0
    for result in gpu["results"]:
        measured = max(result["ranks"], key=lambda r: r["allocated"]) if result["ranks"] else None
        prediction = predictions.get((result["id"], result["gpus"]), {})
        cells = [result["id"], str(result["gpus"])]
        if measured is None:
            rows.append("| " + " | ".join(cells + ["not measured", "", "", "", "", "", "", ""]) + " |")
            continue
        steps = "" if measured["reached_steps"] else f" ({measured['steps']} step)"
        cells += [_mib(measured["allocated"]) + steps, _mib(measured["reserved"])]
        # A prediction covers the measured window when it ran as many optimizer steps (a script that stops
        # after its training steps, in its test phase say, still predicted those).
        ok = "peak_allocated" in prediction and prediction.get("steps_run", 0) >= min(2, measured["steps"])
        if ok:
            predicted += 1
            prediction = _nearer(prediction, measured)
            alloc, reserved = (_error(prediction["peak_allocated"], measured["allocated"]),
                               _error(prediction["peak_reserved"], measured["reserved"]))
            within += abs(prediction["peak_allocated"] - measured["allocated"]) <= 0.05 * measured["allocated"]
            within_reserved += abs(prediction["peak_reserved"] - measured["reserved"]) <= 0.10 * measured["reserved"]
            after = _why(prediction)
            note = f"(after the measured steps) {after}" if after else ""
            kernel = prediction.get("kernel_side") or {}
            if kernel.get("autotuning_unmeasured"):
                note = (f"cudnn.benchmark: {kernel['autotuning_unmeasured']} convolution calls of shapes never "
                        "measured; their trial workspaces are not in the prediction (reported as a lower bound). "
                        + note)
            elif kernel.get("autotuning_largest"):
                note = (f"cudnn.benchmark: measured trial workspaces in the peak (largest "
                        f"{_mib(kernel['autotuning_largest'])} MiB). " + note)
            elif prediction["peak_allocated"] < 0.5 * measured["allocated"]:
                note = ("a silent wrong answer: the run put (almost) nothing on the emulated GPU; the program took "
                        "its CPU path. " + note)
            cells += [_mib(prediction["peak_allocated"]), _mib(prediction["peak_reserved"]), alloc, reserved,
                      f"{prediction.get('cpu_seconds', '')}", note]
        else:
            partial = (f"{_mib(prediction['peak_allocated'])} (partial)" if "peak_allocated" in prediction else "none")
            cells += [partial, "", "", "", f"{prediction.get('cpu_seconds', '')}", _why(prediction) or "not run"]
        rows.append("| " + " | ".join(cells) + " |")
    return rows, predicted, within, within_reserved


def distributed_rows(gpu: dict, predictions: dict) -> list[str]:
    rows = []
    for result in gpu["results"]:
        prediction = predictions.get((result["id"], result["gpus"]), {})
        allocated = [r["allocated"] for r in result["ranks"]]
        reserved = [r["reserved"] for r in result["ranks"]]
        if not allocated or "peak_allocated" not in prediction:
            continue
        spread = _mib(min(allocated)) + ("" if min(allocated) == max(allocated) else f" – {_mib(max(allocated))}")
        fullest = prediction.get("some_ranks") or {}
        low, high = (_nearer(prediction, {"allocated": a, "reserved": r}) for a, r in
                     (min(zip(allocated, reserved)), max(zip(allocated, reserved))))
        rows.append(f"| {result['id']} | {result['gpus']} | {spread} | {_mib(max(reserved))} | "
                    f"{_range(prediction, fullest, 'peak_allocated')} | {_range(prediction, fullest, 'peak_reserved')} | "
                    f"{_error(low['peak_allocated'], min(allocated))} / {_error(high['peak_allocated'], max(allocated))} | "
                    f"{_error(high['peak_reserved'], max(reserved))} |")
    for prediction in predictions.values():
        if prediction["gpus"] > max(r["gpus"] for r in gpu["results"]) and "peak_allocated" in prediction:
            fullest = prediction.get("some_ranks") or {}
            rows.append(f"| {prediction['id']} | {prediction['gpus']} (prediction only) | | | "
                        f"{_range(prediction, fullest, 'peak_allocated')} | {_range(prediction, fullest, 'peak_reserved')} | | |")
    return rows


def _nearer(prediction: dict, measured: dict) -> dict:
    """DDP predicts two per-rank peaks: without and with the first-step bucket still held (`some_ranks`);
    a measured rank is compared with the one its allocated peak is nearer to."""
    some = prediction.get("some_ranks")
    if some and abs(some["peak_allocated"] - measured["allocated"]) < abs(prediction["peak_allocated"] - measured["allocated"]):
        return dict(prediction, peak_allocated=some["peak_allocated"], peak_reserved=some["peak_reserved"])
    return prediction


def _range(prediction: dict, fullest: dict, key: str) -> str:
    return _mib(prediction[key]) + (f" – {_mib(fullest[key])}" if fullest and fullest[key] != prediction[key] else "")


def scale_lines(predictions: dict, gpu: dict) -> list[str]:
    """The public torchrun scripts predicted for 64 ranks, beside what their ranks measured on 2 and 4 GPUs."""
    measured = {(r["id"], r["gpus"]): max((x["allocated"] for x in r["ranks"]), default=0) for r in gpu["results"]}
    rows = []
    for p in predictions["results"]:
        if "peak_allocated" not in p:
            rows.append(f"| {p['id']} | none: {_why(p)} | | | | |")
            continue
        fullest = p.get("some_ranks") or {}
        on = " / ".join(_mib(measured[(p["id"], n)]) if measured.get((p["id"], n)) else "–" for n in (2, 4))
        rows.append(f"| {p['id']} | {_range(p, fullest, 'peak_allocated')} | {_range(p, fullest, 'peak_reserved')} | "
                    f"{on} | {p.get('cpu_seconds', '')} |")
    return [
        "### 64 ranks, predicted",
        "",
        f"A prediction, not a measurement (no 64-GPU machine was used): the public torchrun scripts above as "
        "`memlint estimate --world-size 64 -- torchrun --standalone --nproc-per-node 8 SCRIPT ...` on the 2-core "
        f"machine without a GPU (torch {predictions['torch']}, {predictions['date']}; "
        "`predict.py --world-size 64`): rank 0 of 64 under the fake process group, per rank. FSDP2 (the FSDP2 "
        "example; HF Trainer's `--fsdp`, which accelerate runs with FSDP2) shards parameters, gradients and "
        "optimizer state 64 ways and keeps the all-gathered units being computed; "
        "DDP replicates the model (the tutorial's 20x1 Linear, HF Trainer's GPT-2 small), so a rank of 64 holds "
        "what a rank of 2 holds.",
        "",
        "| configuration | predicted allocated MiB per rank | predicted reserved MiB | measured allocated on 2 / 4 GPUs "
        "(largest rank) | CPU seconds |",
        "|---|---|---|---|---|",
        *rows,
        "",
    ]


def autotuning_lines(no_autotuning: dict, predictions: dict[tuple[str, int], dict]) -> list[str]:
    """The cudnn.benchmark scripts against the same runs with autotuning off: the rest of the model."""
    rows = []
    for result in no_autotuning["results"]:
        prediction = predictions.get((result["id"], result["gpus"]), {})
        if not result["ranks"] or "peak_allocated" not in prediction:
            continue
        measured = result["ranks"][0]
        # the prediction without the trial workspaces: what must fit (the trials shrink to the free memory)
        allocated = prediction.get("peak_allocated_without_autotuning", prediction["peak_allocated"])
        reserved = prediction.get("peak_reserved_without_autotuning", prediction["peak_reserved"])
        rows.append(f"| {result['id']} | {_mib(measured['allocated'])} | {_mib(measured['reserved'])} | "
                    f"{_mib(allocated)} | {_mib(reserved)} | {_error(allocated, measured['allocated'])} | "
                    f"{_error(reserved, measured['reserved'])} |")
    return [
        "### cudnn.benchmark scripts without autotuning",
        "",
        f"The same scripts measured on {no_autotuning['gpu']} (torch {no_autotuning['torch']}, {no_autotuning['date']}) "
        "with their `torch.backends.cudnn.benchmark = True` ignored (`MEASURE_NO_CUDNN_BENCHMARK=1`), against the "
        "prediction without the trial workspaces (what must fit: the trials shrink to the free memory; the chosen "
        "plans' workspaces are the autotuned ones, not the heuristics').",
        "",
        "| configuration | GPU allocated MiB (no autotuning) | GPU reserved MiB | predicted allocated (no trials) | "
        "predicted reserved (no trials) | "
        "allocated error | reserved error |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]


def sweep_lines(h100: dict) -> list[str]:
    """What the convolution sweep says of the autotuning's trial workspace and the heuristic workspace."""
    plain = {(tuple(r["shape"]), r.get("dtype")): r for r in h100["sweep_plain"] if "error" not in r}
    ratios, largest, over = [], (0, None), 0
    heuristic = []
    for r in h100["sweep_benchmark"]:
        if "error" in r or (tuple(r["shape"]), r["dtype"]) not in plain:
            continue
        tensor = max(r["input"], r["output"])
        trial = max(r["forward_extra"], r["backward_extra"])
        chosen = plain[(tuple(r["shape"]), r["dtype"])]
        heuristic.append(max(chosen["forward_extra"], chosen["backward_extra"]) / tensor)
        ratios.append(trial / tensor)
        over += trial > 4 * tensor
        if trial > largest[0]:
            largest = (trial, r)
    ratios.sort()
    heuristic.sort()
    trial, r = largest
    n, cin, cout, k, stride, size, transposed, groups = r["shape"]
    return [
        f"Convolution sweep ({h100['gpu']}, torch {h100['torch']}, cuDNN {h100['cudnn']}; "
        f"`kernel_probe.py sweep-plain` / `sweep-benchmark`, {len(ratios)} shapes in fp32 and bf16): the workspace "
        f"cuDNN's heuristics pick (benchmark off) is at most {heuristic[int(0.95 * len(heuristic))]:.1f}x the larger "
        f"tensor for 95% of the shapes (median {heuristic[len(heuristic) // 2]:.1f}x, largest {heuristic[-1]:.0f}x, "
        f"for small tensors); the autotuning's trial workspace exceeds 4x for {over} of {len(ratios)} shapes "
        f"(median {ratios[len(ratios) // 2]:.1f}x), and reached {trial / 2**30:.1f} GiB for one "
        f"{'transposed ' if transposed else ''}{k}x{k} convolution of {n}x{cin}x{size}x{size} ({r['dtype']}) "
        f"whose larger tensor is {_mib(max(r['input'], r['output']))} MiB. PyTorch sizes the trial workspace as "
        "the largest any candidate algorithm asks for among those that fit in the free memory, and retries smaller "
        "on out-of-memory: the free memory is its only bound, and it never decides whether a run fits. Measured per "
        "call, it is in the prediction (the section above).",
        "",
    ]


def rnn_lines(h100: dict) -> list[str]:
    """The cuDNN RNN model (memlint.estimate.kernels.rnn_sizes) against the probe."""
    import sys

    sys.path.insert(0, ROOT)
    from memlint.estimate.kernels import rnn_sizes

    modes = {"LSTM": "LSTM", "GRU": "GRU", "RNN": "RNN_TANH"}
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}
    rows = []
    for r in h100["rnn"]:
        size = 4 if r["dtype"] == "float32" else 2
        directions = 2 if r["bidirectional"] else 1
        weights = sum(gates[r["kind"]] * r["hidden"] * ((r["input"] if k == 0 else r["hidden"] * directions) + r["hidden"])
                      for k in range(r["layers"])) * directions * size
        model = rnn_sizes(modes[r["kind"]], r["seq"], r["batch"], r["hidden"], r["layers"], directions, size, weights)
        kept = r["after_forward"] - r["before"] - r["outputs"]
        forward = r["peak_forward"] - r["after_forward"]
        backward = r["peak_backward"] - max(r["before_backward"], r["after_backward"])
        rows.append(f"| {r['kind']} s{r['seq']} b{r['batch']} in{r['input']} h{r['hidden']} l{r['layers']}"
                    f"{' bi' if r['bidirectional'] else ''} {r['dtype']} | {_mib(kept)} | {_error(model['reserve'], kept)} | "
                    f"{_mib(forward)} | {_error(model['forward'], forward)} | {_mib(backward)} | "
                    f"{_error(model['backward'], backward)} |")
    return [
        f"cuDNN RNNs ({h100['gpu']}, `kernel_probe.py rnn`): what a training forward keeps beyond its outputs (the "
        "reserve space) and the transient workspace of forward and backward, against the model the fake run "
        "allocates (`rnn_sizes`: the reserve from the gates' count; the workspaces fitted on these float32 shapes, "
        "57 random ones (`rnn_sweep.py`, at most 512 steps) and 72 of 400 to 1,600 steps (`rnn_long.py`), both on an "
        "H200, by `rnn_fit.py`: a constant per layer and direction, a term in seq x batch x hidden x gates, one in "
        "batch x hidden x layers, the weights' bytes, and one in seq x batch x hidden x directions², hidden counted as "
        "at least 192; median error 8% forward and 11% backward over the 146; fitted without these, 4% and 11% on "
        "them; fitted without the 800-step shapes, 10% and 10% on those. The "
        "bfloat16 row is a converted fp32 module, whose weights cuDNN copies at every call).",
        "",
        "| RNN | kept MiB | model | forward workspace MiB | model | backward workspace MiB | model |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]


def reduction_lines(blocks: dict) -> list[str]:
    """CUDA's reduction kernel (memlint.estimate.reductions), against the blocks the GPU's snapshots show."""
    import sys

    sys.path.insert(0, ROOT)
    from memlint.estimate.reductions import staging_bytes

    cases = [("vae-b2048", "the decoder's bias gradient (batch 2048)", (2048, 784)),
             ("hf-clm-gpt2-b8", "attention and MLP output projections' bias gradients (8 x 512 tokens)", (4096, 768)),
             ("hf-clm-gpt2-b8", "attention input projection's", (4096, 2304)),
             ("hf-clm-gpt2-b8", "MLP input projection's", (4096, 3072))]
    rows = []
    for run, what, shape in cases:
        size = staging_bytes(shape, (shape[1], 1), [0], 4, 4)
        rows.append(f"| {run}: {what} | {shape[0]} x {shape[1]} | {_mib(size)} | "
                    f"{blocks['runs'][run].get(str(size), 0)} |")
    return [
        "CUDA's reduction kernel: a `sum` or `mean` with few outputs and many inputs each (a Linear layer's bias "
        "gradient: the batch's rows summed) splits each output across thread blocks, which combine through a "
        "global-memory buffer taken from the caching allocator for the launch. The fake run allocates it after the "
        "reduction's output and frees it, sized as PyTorch's `setReduceConfig` sizes it for the emulated GPU "
        "(multiprocessors and threads per multiprocessor). The model's sizes, and how many blocks of exactly that "
        "size the GPU allocated from C++ in 2 steps (CUDA memory snapshots on an H200, "
        "`estimate_reduction_blocks_gpu.json`; GPT-2 has 12 layers):",
        "",
        "| run: reduction | rows x outputs (float32) | model MiB | blocks of that size on the GPU |",
        "|---|---|---|---|",
        *rows,
        "",
    ]


def kernel_lines(kernels: dict) -> list[str]:
    """The kernel-side model's measurements (memlint/estimate/kernels.py states the model)."""
    rows = []
    for key in ("conv_plain_float32", "conv_plain_bfloat16", "conv_benchmark_float32", "conv_benchmark_bfloat16"):
        for name, conv in kernels.get(key, {}).items():
            larger = max(conv["input"], conv["output"])
            rows.append(f"| {name} | {key.split('_')[1]} | {key.split('_')[2]} | {_mib(larger)} | "
                        f"{_mib(conv['forward_extra'])} | {_mib(conv['backward_extra'])} | "
                        f"{max(conv['forward_extra'], conv['backward_extra']) / larger:.1f}x |")
    rnn = [f"| {name} | {r['kept_by_forward'] / (r['seq'] * r['batch'] * r['hidden'] * r['layers'] * 4):.2f} |"
           for name, r in kernels.get("lstm", {}).items()]
    return [
        "## Kernel-side memory",
        "",
        f"`benchmarks/estimate/kernel_probe.py` on {kernels['gpu']}, torch {kernels['torch']}, cuDNN {kernels['cudnn']}: "
        "what a single op takes beyond its tensors (peak during the op less what was allocated before and after). "
        f"cuBLAS: the first matmul of a stream takes {_mib(kernels['cublas']['first_matmul_fp32'])} MiB and keeps it "
        "(in every prediction, where the first matmul of the forward and of the backward runs). Convolutions: the workspace of the algorithm cuDNN picks is transient; with "
        "`cudnn.benchmark` the first call of a shape also allocates the largest candidate's workspace for the trials, "
        "which does not follow the tensors' sizes (DCGAN at batch 64 peaks 1 GiB above batch 256 for this reason). "
        "The prediction puts each call's measured workspaces in the peak (next section); a call never measured "
        "takes the workspace of the nearest measured calls, scaled to its tensors (the report names these calls and "
        "calls their workspace an estimate), and its autotuning is named as missing, bounded by the free memory only.",
        "",
        "| convolution | benchmark | dtype | larger tensor MiB | forward extra MiB | backward extra MiB | extra / tensor |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "LSTM training forward (cuDNN): bytes kept beyond the output, per seq x batch x hidden x layers x 4 bytes:",
        "",
        "| LSTM | kept / (s·b·h·l·4) |",
        "|---|---|",
        *rnn,
        "",
    ]


def _h100_check(check: dict) -> str:
    """How the H200's table compares with the same networks measured on an H100."""
    sys.path.insert(0, ROOT)
    from memlint.estimate.cudnn_workspaces import WORKSPACES

    column = {"benchmark": 0, "plain": 2}
    pairs = [(WORKSPACES[key][column[mode]], size) for mode, _, key, size in check["calls"]
             if key in WORKSPACES and WORKSPACES[key][column[mode]] is not None]
    same = sum(a == b for a, b in pairs)
    worst = max(abs(a - b) for a, b in pairs)
    networks = len({name for _, name, _, _ in check["calls"]})
    return (f"The same {networks} networks measured again on {check['gpu']} give the same workspace for {same} of "
            f"{len(pairs)} calls, the others within {_mib(worst)} MiB (the trials of GiBs identical), so the "
            "measurements are applied on Hopper GPUs (H100, H200); on other GPUs every call counts as unmeasured.")


def _neighbours() -> str:
    """How the nearest measured calls estimate the calls left out of the table (`conv_neighbours.py`)."""
    sys.path.insert(0, os.path.dirname(HERE))
    from conv_neighbours import left_out

    parts = []
    for column, name in ((2, "the heuristics' plan"), (1, "cudnn.benchmark's chosen plan")):
        calls, within, error = left_out(column)
        parts.append(f"for {name}, {within:.0%} of {calls} calls within 50% (or 1 MiB) and a summed absolute error of "
                     f"{error:.0%} of the summed workspaces")
    return ("each shape of the table left out with all its batch sizes and estimated from the rest "
            f"(`benchmarks/estimate/conv_neighbours.py`) gives, {parts[0]}; {parts[1]} (leaving them out: 100%).")


FIRST_LOOKS = [  # (results file stem, heading, how the scripts were picked and what "now" holds)
    ("estimate_public_first_look", "First look: public scripts never seen before",
     "Picked from families the table above does not hold (a graph network, a two-tower network on ResNet-18, a "
     "diffusion UNet, Lightning Fabric), run unmodified with synthetic data where they download (Cora's sizes for "
     "the graph).", "the optimizers' multi-tensor step, convolutions never measured, where the cuBLAS workspaces sit"),
    ("estimate_public_first_look_b", "Second first look: segmentation, detection, timm's trainer",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-used public "
     "training script of each family the table lacks, run offline and unmodified, the model built from code or a "
     "config, the data generated in the format the script reads (Carvana's 1918x1280 photos and masks; YOLO-format "
     "COCO boxes; ImageNet-style class folders). No speech script or Hugging Face `Trainer` classification script "
     "could run offline on both machines, so none is here.",
     "channels-last convolutions estimated from channels-last measurements"),
    ("estimate_public_first_look_c", "Third first look: a small character LM, Lightning's ImageNet template, LSTM tutorials",
     "Picked by a rule written before any of them ran on a GPU (`first_look_rules` in the manifest): the most-starred "
     "public script of each family still missing (a small LM beside the GPT scripts, recurrent networks, a Lightning "
     "`Trainer` on a convolutional net), run offline and unmodified, the model built from code, the data shipped with "
     "the script or generated in its format (Penn Treebank's and MNIST's sizes, ImageNet-style class folders). No "
     "speech script and no current Hugging Face `Trainer` script could run offline on both machines, so none is here.",
     "an LSTM's initial state given as a list; a cuDNN RNN's weights and their gradients in one buffer each, as "
     "the GPU lays them out; a workspace share for each layer and direction of an RNN"),
    ("estimate_public_first_look_d", "Fourth first look: graph networks on a sparse adjacency and through PyTorch "
     "Geometric, diffusers' DDPM trainer",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-starred "
     "public script of each family the table lacks or has once (a graph network on a sparse adjacency or through a "
     "graph library, beside one dense GAT; a diffusion UNet through a library's own trainer, beside one hand-written "
     "DDPM), run offline and unmodified, the model built from code, the data generated in the format the script "
     "reads (Cora's and PubMed's sizes in Planetoid's files; 500x500 photos for datasets' imagefolder). diffusers' "
     "first look stopped on the CPU machine's environment, not on memlint: the script's default logger is "
     "tensorboard, which only the GPU machine had; with it installed, and memlint unchanged, it predicted 3,940.6 / "
     "4,322.0 and 9,546.4 / 10,176.0 MiB (`estimate_public_first_look_d_predictions_tensorboard.json`), the figures "
     "of \"now\". No speech script and no current Hugging Face `Trainer` script of a small repository could run "
     "offline on both machines, so none is here.",
     "sparse tensors on the GPU, counted by their indices and values; cuSPARSE's column-major copies in a sparse "
     "product; a data set's cache saved from fake tensors and loaded back in the same run; small GPU tensors made "
     "from host data keep their values, so a boolean mask's selection has its real size; CUDA's dropout allocates "
     "its mask before its output",
     "that prediction, made with the code no change for them had touched while they first ran on the GPU, was committed "
     "with the figures of that run"),
    ("estimate_public_first_look_e", "Fifth first look: text-to-speech, super-resolution, forward-forward training",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-starred "
     "public training script of the family the table lacks (speech: FastSpeech2, a Transformer text-to-speech model "
     "through `nn.DataParallel`, on LJSpeech's and LibriTTS's preprocessed features), then the pytorch/examples "
     "training scripts the table lacks that run offline on a GPU, run unmodified, the model built from code, the "
     "data generated in the format the script reads (mel, pitch, energy and duration files, every utterance at one "
     "length near LJSpeech's longest so that the shuffled batches have one shape; BSDS300's 481x321 photos; MNIST). "
     "FastSpeech2's HiFi-GAN vocoder weights could not be fetched, so a random generator of its architecture is "
     "saved where the script loads it. No current Hugging Face `Trainer` script other than run_clm.py could be "
     "fetched, so none is here.",
     "a selection by a mask with real values through `masked_select` (a loss over padded sequences' valid "
     "positions); numbers written into a small GPU tensor with real values go to its values with nothing "
     "dispatched; a data set's stateless transforms, their constants and the collated batch stay on the host as "
     "real work; the measured cuDNN workspaces of full-resolution layers and of ESPCN's network; with the "
     "full-resolution layers alone in the table, ESPCN's own calls estimated from their neighbours, super_resolution "
     "predicts 40.1 / 84.0 and 371.8 / 638.0 MiB; and CUDA's `mse_loss`, which takes a second buffer of its inputs' "
     "size that lives as long as its result (the script's loss, held in a variable through backward: 16 MiB at "
     "x4 and batch 64, which also moved two of backward's workspaces into segments of their own; measured on an "
     "H200: before it, 57.8 / 116.0 and 340.1 / 608.0 MiB)",
     "that prediction, made with the code before any change for them, was committed with the figures of the GPU run"),
    ("estimate_public_first_look_f", "Sixth first look: unpaired image-to-image translation, a gradient penalty, "
     "point clouds",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-starred public "
     "training script of each family no table holds (image-to-image translation with an unpaired GAN; a GAN whose "
     "loss needs the gradient of a gradient; point clouds) that runs offline and unmodified with the packages both "
     "machines have, the model built from code, the data generated in the format the script reads (monet2photo's "
     "256x256 photos in PyTorch-GAN's train/A, train/B layout; MNIST; ModelNet40's resampled text files of 10,000 "
     "points, fewer shapes than the real set, enough for two steps before the script's evaluation). Contrastive "
     "self-supervised scripts were left out by the rule: torchvision's CIFAR-10 and STL-10 check the downloaded "
     "archives' checksums, which synthetic files cannot pass offline.",
     "the legacy typed constructors `torch.cuda.FloatTensor(...)` and `x.type(torch.cuda.FloatTensor)` make GPU "
     "tensors; a module called on a leaf that `torch.autograd.grad` differentiates no longer trips the module "
     "tracker's backward hook; a boolean mask computed on the GPU whose selection is only written back through it "
     "(`x[m] = y[m]`, farthest-point sampling's groups) takes every element, an upper bound on a transient, and is "
     "listed, while any other use of such a selection still stops the run; and, for the time a prediction takes, a "
     "map-style data set's batch made with no mode, at host speed, small host factories run as they are, and the "
     "fake run's real host work on one torch thread (forward-forward: 56 and 67 s of CPU before, 22 and 25 s now; "
     "PointNet++: 54 s, then 15 s; the same figures)",
     "that prediction, made with the code before any change for them, was committed before they ran on a GPU"),
    ("estimate_public_first_look_g", "Seventh first look: detection with SSD300, style transfer through a frozen VGG-16",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-starred public "
     "training script of each family the tables lack or hold only through a failure (detection, where YOLOv7 stops "
     "with one line; image captioning, an RNN decoder over an image encoder; a perceptual loss through a frozen "
     "pretrained network) that runs offline and unmodified with the packages both machines have, the data generated "
     "in the format the script reads (PascalVOC's image and object lists with 500x375 photos; COCO-like 640x480 "
     "photos in an image folder), every pretrained network it downloads replaced by a random one of the same "
     "architecture where torch.hub caches the download. The SSD tutorial's settings are constants of its module, so "
     "it has one configuration. The captioning tutorial was left out by the rule after it was tried: it imports "
     "`scipy.misc.imread`, gone from SciPy since 1.2, and stops on both machines. No current Hugging Face `Trainer` "
     "script other than run_clm.py could run on both machines (datasets is not on the CPU machine), so none is here.",
     "cuDNN's workspaces measured per call for VGG-16 at batch 16, for fast_neural_style's two networks and for "
     "SSD300, with cudnn.benchmark off and on: at the first look SSD300's 92 autotuned convolution shapes were never "
     "measured, so its readings were a lower bound, said so in the report, 85% under the GPU's, whose peak holds an "
     "8.7 GiB trial workspace (without the trials the GPU took 1,444.1 / 2,620.0 MiB, the prediction 1,459.7 / "
     "2,194.0); and cudnn.benchmark empties the cache after the trials of a shape never measured, as after one "
     "measured (timm's ConvNeXt-T above: reserved -11.9% to -9.6%). The trials of shapes never measured stay out of "
     "the readings: estimated from their nearest measured calls they err both ways (SSD300's largest about 5.8 GiB "
     "for 8.7; ConvNeXt-T's readings +94%). fast_neural_style at batch 8 and 512 pixels stays reserved +15%: the "
     "allocator model replayed over the GPU's own allocation history (a CUDA memory snapshot of that run) gives its "
     "13,570 MiB exactly, so the excess is in the fake run's sequence: in step 1's backward each Gram matrix's input "
     "gets two gradients (from `bmm` and from its transpose), which autograd sums in place when it holds the last "
     "reference to one of them, but never while a Python dispatch mode is on, as in the fake run "
     "(`isTensorSubclassLike`; the same sum on real CPU tensors is in place, out of place once a mode is on); that "
     "one more transient of the activation's size (128, 256 and 512 MiB) leaves the cache a 512 MiB "
     "segment where the GPU has a 1,026 MiB one, and step 2 takes three more (+2,062 MiB)",
     "that prediction, made with the code before any change for them, was committed before they ran on a GPU"),
    ("estimate_public_first_look_h", "Eighth first look: a DeiT trainer, a diffusion transformer under torchrun, a "
     "recommendation model with sparse gradients",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-starred public "
     "training script of each family the tables lack (a ViT trainer with its own recipe; a torchrun DDP script of a "
     "research repository; a recommendation model with large embedding tables) that runs offline and unmodified, the "
     "data generated in the format the script reads (ImageNet-style class folders) or made by the script itself "
     "(DLRM's random data), every pretrained network it downloads replaced by a random one of the same architecture "
     "where the download is cached (DiT's Stable Diffusion VAE, in the Hugging Face cache, read offline). DeiT runs "
     "with timm 0.4.12, the version its requirements name (the current timm lacks names it imports), and RandAugment "
     "without the increasing variants: timm 0.4.12's increasing posterize reaches 0 bits, which current Pillow "
     "refuses, at random on either machine. DLRM's README command for several GPUs names a sparse feature size (64) "
     "that its bottom MLP's last width (128) contradicts, and the script stops on it: its model runs with 128, in "
     "one process. The RL scripts (CleanRL's DQN and SAC) were left out by the rule: their replay buffers live on "
     "the host and their environments need gymnasium and MuJoCo or the Atari emulator on both machines; a Hugging "
     "Face `Trainer` classification or seq2seq script was left out again: each needs datasets and evaluate, whose "
     "metrics load from the Hub at run time.",
     "a forward with gradients off inside each step (DiT's VAE encoding the batch) is in the peak, as in the GPU's "
     "`max_memory_allocated` over the steps (it was reported on its own line, as an evaluation after the steps is; "
     "DiT-S/2's 7,322 MiB there, the GPU's 7,326.8); a parameter rebuilt through its own class (accelerate's "
     "`set_module_tensor_to_device`, diffusers' loading) makes a parameter; a fake tensor copied to NumPy (DLRM's "
     "loss) is answered as `.item()` is and listed; an embedding bag's outputs shaped as CUDA's, so that its sparse "
     "gradient holds a row per index looked up, and autograd's copy of a sparse gradient into `.grad` keeps its "
     "entries; and cuDNN's workspaces measured for Stable Diffusion's VAE encoder at 256 pixels (batch 8 to 64)",
     "that prediction, made with the code before any change for them, was committed before they ran on a GPU"),
    ("estimate_public_first_look_i", "Ninth first look: a Llama trained with torch.compile, accelerate's fine-tune of "
     "a frozen backbone, Lightning's Trainer on a Transformer",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-starred public "
     "training script of each family the tables lack or hold once (a Llama-style model trained from scratch with "
     "`torch.compile` on by default; a fine-tune through Hugging Face accelerate of a pretrained image network whose "
     "backbone is frozen; the Lightning Trainer itself on a Transformer, where the tables have the Fabric loop) that "
     "runs offline and unmodified, the data generated in the format the script reads (pretokenized TinyStories "
     "shards; the Oxford-IIIT Pet folder), the pretrained network replaced by a random one of the same architecture "
     "in the Hugging Face cache (timm's resnet50d). A Hugging Face `Trainer` classification or seq2seq script was "
     "left out again: no copy of the transformers repository's examples could be fetched whole, and the stored "
     "translation script predates datasets 3. llama2.c compiles its model: `memlint estimate` runs it as eager code "
     "and says so in its report, so both rows hold eager execution's peak against the compiled run's (8,330.6 / "
     "8,558.0 and 18,498.9 / 19,276.0 MiB); the same configurations with `--compile=False` took 15,413.0 / "
     "20,712.0 and 30,173.3 / 37,132.0 MiB (`estimate_public_first_look_i_gpu_eager.json`), against which today's "
     "predictions are -0.0% / +0.0% and -0.0% / -10.8%.",
     "an answered gradient-accumulation micro-step answers what the forward keeps on its modules too (llama2.c's "
     "`self.last_loss`, the loss the script differentiates: the last run's, already differentiated, stopped the run "
     "in step 1); the report names the `torch.compile` calls it ran as eager code; cuDNN's workspaces measured for "
     "timm's resnet50d at batch 64 in fp32 and bf16 (the fp32 run's 0.38 GiB estimated workspace, from the nearest "
     "measured calls of ten never measured, was the +39% reserved)",
     "that prediction, made with the code before any change for them, was committed before they ran on a GPU"),
    ("estimate_public_first_look_j", "Tenth first look: a sequential recommender, self-supervised pretraining under "
     "torchrun, a differentiable architecture search",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): the most-starred public "
     "training script of each family the tables lack (a sequential recommender whose batches host worker processes "
     "sample; self-supervised pretraining launched by torchrun, with DDP, SyncBatchNorm, an all-gather inside the "
     "loss, a LARS optimizer, AMP and cudnn.benchmark; an architecture search whose architecture step differentiates "
     "through a virtual step of the weights) that runs offline and unmodified, the data generated in the format and "
     "at the sizes of the set the script reads (MovieLens-1M in SASRec's format, 6,040 users and 3,416 items; "
     "ImageNet-style class folders; MNIST). vicreg's GradScaler skips each step whose fp16 gradients overflow, as "
     "its first ones do at the initial scale: with 256 photos its GPU run took no optimizer step in its one epoch "
     "(7,968.9 / 8,372.0 and 13,405.9 / 13,544.0 MiB, `estimate_public_first_look_j_gpu_no_steps.json`), so it "
     "runs on 2,048; `memlint estimate` predicts the steps taken. Its reserved memory varies from run to run with "
     "cudnn.benchmark's choices (9,542.0 and 9,158.0 MiB at batch 64, `estimate_public_first_look_j_gpu_biggest.json`). "
     "A Hugging Face `Trainer` script other than run_clm.py was left out again (the stored run_mlm.py imports "
     "datasets' `load_metric`, gone since datasets 3), and speech had no candidate that reads its audio without "
     "torchaudio's or librosa's loaders. pt.darts' search stopped at the benchmark's 120 s limit before its first "
     "optimizer step: each step runs the search network (8 cells of 14 mixed edges, about 4,500 operators a "
     "forward) five times forward and backward. With a longer limit (`predict.py --timeout 600`) it predicts, in "
     "238 and 175 s of CPU on the shared 2-core machine: far over the 30 s a prediction should take.",
     "a graph that the program differentiates only in part (`torch.autograd.grad` for the architecture weights: the "
     "nodes that do not lead to them never run) or not at all is freed once the program drops it, as on the GPU: "
     "the hooks that tell when a module's backward is done held its nodes, and what they saved, for good (pt.darts "
     "kept 1.7 GiB of its architecture step into the weights' step: with the unchanged code and a longer limit it "
     "predicted 7.54 / 7.81 GiB, +12.6% / +12.2%)",
     "that prediction, made with the code before any change for them, was committed before they ran on a GPU"),
    ("estimate_public_first_look_k", "Eleventh first look: a Tacotron synthesizer, speech separation, CLIP under "
     "torchrun",
     "Picked by a rule written before any of them ran (`first_look_rules` in the manifest): among the training "
     "scripts mirrored or stored here, in order of stars, the first of each family the tables lack that runs offline "
     "and unmodified (pure-Python packages and self-contained wheels carried: librosa, soundfile, inflect, Unidecode, "
     "ftfy, webdataset), the data generated in the format and at the sizes of the set the script reads "
     "(Real-Time-Voice-Cloning's SV2TTS features of LibriSpeech, every utterance 800 mel frames and 150 characters; "
     "wsj0-2mix at 8 kHz in 4 s utterances; an image-caption CSV). A Hugging Face `Trainer` script had no candidate "
     "again: FastChat's train.py stops at its import on transformers 5, the stored copies of transformers' own "
     "examples other than run_clm.py import `send_example_telemetry`, gone in transformers 5, and the one stored at "
     "transformers 5 (run_audio_classification.py) loads its metric from the Hub and decodes audio through "
     "torchcodec; so two speech scripts. open_clip's configurations first had `--logs`, which torchrun's own parser "
     "takes for its `--logs-specs` and stops on (the GPU runs of both failed at once; the README's command has "
     "none, and they ran again without it); `memlint estimate`, which reads torchrun's arguments itself, predicted "
     "the same figures with and without it. On the loaded machine (a load of 15 to 26 on 2 cores) three predictions "
     "reached no optimizer step within the benchmark's 120 s of wall time, after 33 to 36 s of CPU.",
     "a value computed on the GPU that indexes one element of a tensor (Conv-TasNet's loss reorders its sources by "
     "the best permutation, `source[b, perm[b][c]]`) is answered 0 and listed: the view has the same shape whichever "
     "element it is, where it stopped the run; and less of memlint's own CPU per op (an op's tensors read without "
     "pytree's specs, no copy of the breakdown at each module's running peak, the modules' snapshots copied by dict). "
     "Predicted with a longer limit (`predict.py --timeout 1200`, and 3,000 s for the synthesizer) on a machine at "
     "a load of 25 to 38: the Tacotron decoder runs 400 steps of its recurrent cells a forward, and the prediction "
     "takes minutes of CPU. Conv-TasNet at batch 8 reserved +42% in that run and +5.3% (18,370 MiB) in a second "
     "run of the same code and command: what the allocator model is given changes from run to run there, which "
     "is not understood yet. The synthesizer predicted -15.6% and -12.9% allocated (276 and 269 s of CPU). Its "
     "postnet alone (batch 12 over 800 frames, forward and backward; `cbhg_probe.py`, "
     "`estimate_cbhg_probe.json`) shows where: cuDNN's bidirectional GRU takes a 189 MiB workspace for each of its "
     "three calls (forward, backward data, backward weights), where the fitted model gave 108 and 118 MiB, and the "
     "postnet predicted -12.6% (-13.1% without its max-pooling); without the GRU it predicts -0.2%, the "
     "max-pooling's 188 MiB of indices held as on the GPU. The fit had no RNN over as many steps: 72 shapes of 400 "
     "to 1,600 steps (`rnn_long.py`) were 38% over it at the median, growing with the steps alike for LSTMs and "
     "GRUs; refitted with them (150 and 162 MiB for the postnet's GRU), the synthesizer predicts -12.7% and -9.8% "
     "allocated (243 and 225 s of CPU; `estimate_public_predictions_rnn_refit.json`, with the other RNN scripts "
     "that could be run again)",
     "that prediction was made with the code before any change for them (the GPU runs came first; the prediction "
     "reads nothing of them)"),
]


def first_look_lines(gpu: dict, first: dict, now: dict[tuple[str, int], dict], stem: str, heading: str, picked: str,
                     fixes: str, committed: str = "that prediction was committed before they ran on a GPU") -> list[str]:
    """Public scripts never in the benchmark before: predicted before they were measured (`first_look`), and today."""
    rows, counts = [], {"first": [0, 0, 0], "now": [0, 0, 0]}
    before = {r["id"]: r for r in first["results"]}
    gpu = {**gpu, "results": [r for r in gpu["results"] if r["ranks"]]}  # a script left out by the rule: it ran nowhere
    for result in gpu["results"]:
        measured = result["ranks"][0]
        cells = [result["id"], _mib(measured["allocated"]), _mib(measured["reserved"])]
        for name, prediction in (("first", before.get(result["id"], {})), ("now", now.get((result["id"], 1), {}))):
            if "peak_allocated" not in prediction or prediction.get("steps_run", 0) < min(2, measured["steps"]):
                cells += [f"none: {_why(prediction)}" if _why(prediction) else "none", "", ""]
                continue
            count = counts[name]
            count[0] += 1
            count[1] += abs(prediction["peak_allocated"] - measured["allocated"]) <= 0.05 * measured["allocated"]
            count[2] += abs(prediction["peak_reserved"] - measured["reserved"]) <= 0.10 * measured["reserved"]
            cells += [f"{_mib(prediction['peak_allocated'])} / {_mib(prediction['peak_reserved'])}",
                      _error(prediction["peak_allocated"], measured["allocated"]),
                      _error(prediction["peak_reserved"], measured["reserved"])]
        rows.append("| " + " | ".join(cells) + " |")
    scripts = sorted({r["script"] for r in gpu["results"]})
    total = len(gpu["results"])

    def said(name: str) -> str:
        predicted, alloc, reserved = counts[name]
        return (f"{predicted} of {total} predict, {alloc} within ±5% allocated, {reserved} within ±10% reserved")

    return [
        f"## {heading}",
        "",
        f"{len(scripts)} more public scripts ({total} configurations, in the manifest with `first_look`): "
        + "; ".join(scripts) + f". {picked} They were predicted with the code of the day "
        f"({first['date']}, `{stem}_predictions.json`) and {committed}: {gpu['gpu']}, torch {gpu['torch']} (CUDA {gpu['cuda']}), {gpu['date']}"
        + (" (an H100 here; the table above is an H200)" if "H100" in gpu["gpu"] else "")
        + f". \"now\" is today's prediction, after the fixes the misses led to ({fixes}).",
        "",
        f"- first look: {said('first')}.",
        f"- now: {said('now')}.",
        "",
        "| configuration | GPU allocated MiB | GPU reserved MiB | first look: predicted allocated / reserved | "
        "allocated error | reserved error | now: predicted allocated / reserved | allocated error | reserved error |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]


def conv_call_lines(probe: dict, check: dict) -> list[str]:
    """What the per-call measurements of cuDNN's convolution workspaces hold (`conv_probe.py`)."""
    keys = probe["keys"]
    sources = sorted(s for s in probe["sources"] if not s.startswith("sweep"))
    return [
        "### cuDNN convolution workspaces, per call",
        "",
        "What PyTorch does (aten/src/ATen/native/cudnn/Conv_v8.cpp, torch 2.11): each direction of a convolution "
        "(forward, backward data, backward weight) is one cuDNN call; a process keeps the plan it chose per call "
        "(shapes, strides, dtype, layout). With `cudnn.benchmark` off, the first plan of cuDNN's heuristics runs with "
        "its workspace, allocated for the call. With it on, the first call of a shape builds every plan of the "
        "heuristics and fallback lists, drops those whose workspace exceeds the free memory "
        "(`get_available_workspace`: the caching allocator's `cacheInfo`, the driver's free memory or the largest "
        "cached free block), allocates ONE workspace the size of the largest remaining plan's, halving it on "
        "out-of-memory (`generate_and_filter_plans`), times the plans in it (`benchmark_limit` of them, 10 by "
        "default: the workspace is sized over all plans, not the timed ones), frees it, empties the cache "
        "(`_cudnn_get_conv_benchmark_empty_cache`, on by default) and runs the fastest plan with its own workspace.",
        "",
        f"`benchmarks/estimate/conv_probe.py` on {probe['gpu']} (torch {probe['torch']}, cuDNN {probe['cudnn']}) "
        "recorded the allocator's events of every cuDNN call (a dispatch mode splits each convolution backward into "
        f"its two calls): {len(probe['calls'])} calls, {len(keys)} distinct, from {len(sources)} runs of networks "
        "(those of the benchmark scripts; torchvision's ResNet-18, ResNet-50 and MobileNetV2 at batch 32 to 256, in "
        "fp32 and under fp16 autocast; the CIFAR-10 ResNet-18 and VGG-16 of the usual training scripts at batch 64 "
        "to 256; torchvision's VGG-16 at batch 16, fast_neural_style's networks and SSD300; Stable Diffusion's VAE encoder at 256 pixels, batch 8 to 64; timm's resnet50d at batch 64, fp32 and bf16) and a sweep of 26 layers at batch 1, 8, 32 and 128 in fp32 and bf16, and the same sweep channels-last in fp32, fp16 and bf16 (on an NVIDIA H100 80GB HBM3, `conv_probe.py sweep-cl`, added by `conv_table.py add`). The largest plan's workspace is a property of cuDNN's engine list for the call, "
        "not of the tensors: in fp32, FFT engines hold the filter's transform (for the 3x3 backward-data of 512 "
        "channels on 7x7 it is exactly (K·C + N·(C+K)) x 32·17·8 bytes, the 32x32-tile FFT: 1,092 MiB at batch 1), "
        "2.6 GiB for DCGAN's 4x4 stride-2 transposed convolution whose tensors are 2 MiB, and which engines are "
        "offered changes with the batch both ways (a 5x5 convolution of 128 to 256 channels on 32x32: 1,191 MiB at "
        "batch 32, 203 MiB at batch 128). No formula over the shapes follows that, so `memlint estimate` takes the "
        "measured workspaces of the very call (a table that ships with memlint, generated by "
        "`conv_table.py`), puts them in the predicted peak (the trial capped at the free memory, as PyTorch does, and "
        "kept out of what must fit: it shrinks to what is free). A call it has no measurement for takes the "
        "median workspace per tensor byte of the 9 measured calls nearest to it (same direction, dtype, kind and "
        "layout, channels-last calls from the channels-last sweep; "
        "channels, spatial size, kernel, stride and batch), times its own larger tensor: "
        + _neighbours() + " Its autotuning trial is named as unmeasured. " + _h100_check(check),
        "",
    ]


def main() -> None:
    gpu = _load("estimate_public_gpu.json")
    predictions, cpu_torch, dates = {}, set(), set()
    for path in sorted(glob.glob(os.path.join(RESULTS, "estimate_public_predictions*.json"))):
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        cpu_torch.add(data["torch"])
        dates.add(data["date"])
        predictions.update({(r["id"], r["gpus"]): r for r in data["results"]})
    rows, predicted, within, within_reserved = public_rows(gpu, predictions)
    dist_gpu, dist_pred = _load("estimate_distributed_gpu.json"), _load("estimate_distributed_predictions.json")
    dist = distributed_rows(dist_gpu, {(r["id"], r["gpus"]): r for r in dist_pred["results"]})
    scripts = len({r["script"].removesuffix(" (torchrun)") for r in gpu["results"]})  # one script, two launches
    lines = [
        "# `memlint estimate` against the GPU",
        "",
        "Generated by `benchmarks/estimate/public/table.py` from the JSON files in `benchmarks/results/`.",
        "",
        "## Public training scripts, run unmodified",
        "",
        f"{scripts} public scripts ({len(gpu['results'])} configurations), each run as its README says, "
        "with the arguments of `benchmarks/estimate/public/manifest.json` (repository, pinned commit, path, "
        "arguments). Where a script downloads a data set, synthetic files of the same format and size stand in "
        "(`sources.py data`). HF Trainer's `run_clm.py` builds its model from a local config (GPT-2 small; a "
        "Llama of 160M parameters) and reads a word-level tokenizer of GPT-2's vocabulary size and a text file of "
        "random words, all written by `sources.py data` (the GPU machine has no network); both sides run "
        "transformers 5.24.0, datasets 5.2.0 and accelerate 1.15.0; under torchrun it runs with DDP, and with "
        "`--fsdp \"full_shard auto_wrap\"` (GPT-2 blocks as units).",
        "",
        f"- GPU side: {gpu['gpu']}, torch {gpu['torch']} (CUDA {gpu['cuda']}), measured {gpu['date']}: each "
        f"configuration in its own process, `torch.cuda.max_memory_allocated()` / `max_memory_reserved()` after "
        f"{gpu['steps']} optimizer steps (every rank under torchrun; the table shows the largest).",
        f"- Prediction side: `memlint estimate --format json -- COMMAND` on a 2-core CPU machine without a GPU, "
        f"torch {', '.join(sorted(cpu_torch))}, {', '.join(sorted(dates))}; seconds are the CPU time of the whole "
        "command, all its processes (the machine is shared with other work, so wall time is longer and varies; "
        "`wall_seconds` in the JSON).",
        f"- {predicted} of {len(gpu['results'])} configurations give a prediction today; {within} of those are within "
        f"±5% allocated, {within_reserved} within ±10% reserved."
        + (" The rest stop with the one line shown (the program's own site and the reason)."
           if predicted < len(gpu["results"]) else ""),
        "",
        "| configuration | GPUs | GPU allocated MiB | GPU reserved MiB | predicted allocated | predicted reserved | "
        "allocated error | reserved error | CPU seconds | notes (why no prediction) |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        *(line for stem, *about in FIRST_LOOKS if os.path.exists(os.path.join(RESULTS, f"{stem}_gpu.json"))
          for line in first_look_lines(_load(f"{stem}_gpu.json"), _load(f"{stem}_predictions.json"), predictions,
                                       stem, *about)),
        "## Per rank: DDP, FSDP2, FSDP1",
        "",
        "`benchmarks/estimate/programs/distributed_gpt.py` (GPT, 8 layers, d=1024, seq 512, batch 8 per rank, "
        "AdamW), launched with `torchrun --nproc-per-node N`; the prediction is `memlint estimate -- torchrun "
        "--nproc-per-node N ...` (rank 0, fake process group). GPU: "
        f"{dist_gpu.get('gpu', '')}, torch {dist_gpu['torch']}, {dist_gpu['date']}.",
        "",
        "| configuration | GPUs | measured allocated MiB per rank | measured reserved MiB (max) | "
        "predicted allocated | predicted reserved | allocated error (vs min / max rank) | reserved error |",
        "|---|---|---|---|---|---|---|---|",
        *dist,
        "",
        "The 64-rank rows are predictions made without any GPU (`--world-size 64`, or `torchrun --nnodes 8 "
        "--nproc-per-node 8`): DDP replicates, so its rank holds what one GPU holds plus the gradient buckets; FSDP "
        "divides parameters, gradients and optimizer state by the world size and adds the all-gather buffers of the "
        "units being computed.",
        "",
        "DDP's spread between ranks: DDP starts with every gradient in one bucket (allocated in its constructor, "
        "`_ddp_init_helper`) and rebuilds the buckets after the first step. On some ranks (which ones changes between "
        "runs: rank 1 of 2 in one, ranks 0 and 3 of 4 in another) that first bucket is still alive at the peak, "
        "held by the first all-reduce's work until NCCL's watchdog thread releases it; those ranks peak "
        "one gradient-size higher (`estimate_ddp_peak_owners.txt`: the live blocks at each rank's peak, from CUDA "
        "memory snapshots). The prediction gives both: the other ranks' peak, and that of the ranks still holding "
        "the bucket (`some_ranks` in the JSON, \"on some ranks\" in the report; the fit verdict uses it); the "
        "tables compare each measured rank with the nearer of the two (in the HF Trainer run on 2 GPUs neither rank "
        "held it). FSDP's all-gather "
        "and reduce-scatter buffers are allocated on streams of their own, and the caching allocator keeps a pool "
        "per stream: the allocator model does too (the fake run records each allocation's stream): FSDP2's reserved "
        "prediction is within 1%; FSDP1's is 6% to 8% under: FSDP1 marks the all-gathered parameters for the "
        "compute stream (`record_stream`), so the caching allocator reuses their blocks only once the GPU has "
        "caught up, and the all-gather stream takes more segments than in a replay where every free is immediate "
        "(at 2 GPUs, CUDA memory snapshots show 2 x 254 MiB + 5 x 50 MiB segments on that stream; the model has "
        "1 x 254 + 2 x 50).",
        "",
        *(scale_lines(_load("estimate_public_64ranks_predictions.json"), gpu)
          if os.path.exists(os.path.join(RESULTS, "estimate_public_64ranks_predictions.json")) else []),
        *kernel_lines(_load("estimate_kernels_gpu.json")),
        *conv_call_lines(_load("estimate_conv_probe_h200.json"), _load("estimate_conv_probe_h100_check.json")),
        *sweep_lines(_load("estimate_kernels_gpu_h100.json")),
        *rnn_lines(_load("estimate_kernels_gpu_h100.json")),
        *reduction_lines(_load("estimate_reduction_blocks_gpu.json")),
        *autotuning_lines(_load("estimate_public_gpu_no_autotuning.json"), predictions),
        "## Reproducing",
        "",
        "```",
        "python benchmarks/estimate/public/sources.py extract MIRRORS   # git mirrors of the manifest's repositories",
        "python benchmarks/estimate/public/sources.py data",
        "# on the GPU machine (the sources and the harness copied there):",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json --jobs 4        # and --gpus 2, --gpus 4",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json gat siamese ddpm fabric --jobs 4   # the first look's",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json unet yolov7 timm-train --jobs 3   # the second's",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json cyclegan wgan pointnet --jobs 3   # the sixth's",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json deit dit dlrm --jobs 3   # the eighth's",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json llama2c accelerate lightning-transformer --jobs 3   # the ninth's",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json sasrec vicreg darts --jobs 3   # the tenth's",
        "python benchmarks/estimate/public/measure_gpu.py OUT.json rtvc convtasnet openclip --jobs 3   # the eleventh's",
        "python benchmarks/estimate/measure_distributed.py gpu OUT.json 1 2 4",
        "python benchmarks/estimate/kernel_probe.py OUT.json plain; python benchmarks/estimate/kernel_probe.py OUT.json benchmark",
        "python benchmarks/estimate/kernel_probe.py OUT.json rnn    # and sweep-plain, sweep-benchmark",
        "python benchmarks/estimate/conv_probe.py DIR/models_plain.json models plain   # and benchmark; sweep plain|benchmark",
        "python benchmarks/estimate/conv_table.py DIR   # here: the per-call table memlint estimate reads",
        "python benchmarks/estimate/conv_probe.py DIR/sweep_cl_plain.json sweep-cl plain   # and benchmark: channels-last",
        "python benchmarks/estimate/conv_table.py add DIR   # here: those sweeps into the table",
        "python benchmarks/estimate/conv_probe.py DIR/models4_plain.json models plain sd-vae-encode-b8 sd-vae-encode-b16 "
        "sd-vae-encode-b32 sd-vae-encode-b64   # and benchmark; then here: conv_table.py add DIR models4",
        "python benchmarks/estimate/conv_probe.py DIR/models_resnet50d_plain.json models plain timm-resnet50d-b64 "
        "timm-resnet50d-bf16-b64   # and benchmark; then here: conv_table.py add DIR models_resnet50d",
        "python benchmarks/estimate/rnn_sweep.py OUT.json 80        # then, here: python benchmarks/estimate/rnn_fit.py",
        "MEASURE_NO_CUDNN_BENCHMARK=1 python benchmarks/estimate/public/measure_gpu.py OUT.json dcgan timm --jobs 3",
        "# here:",
        "python benchmarks/estimate/public/predict.py benchmarks/results/estimate_public_predictions.json",
        "python benchmarks/estimate/public/predict.py benchmarks/results/estimate_public_predictions_2gpus.json --gpus 2",
        "python benchmarks/estimate/public/predict.py benchmarks/results/estimate_public_predictions_4gpus.json --gpus 4",
        "python benchmarks/estimate/public/predict.py benchmarks/results/estimate_public_64ranks_predictions.json --world-size 64",
        "python benchmarks/estimate/measure_distributed.py predict benchmarks/results/estimate_distributed_predictions.json",
        "python benchmarks/estimate/public/table.py",
        "```",
        "",
        "On this machine torchvision is PyPI's CUDA build next to a CPU-only torch; `predict.py` puts "
        "`public/cpu_shim` on the path so that it imports (it skips torchvision's fake kernels for detection "
        "operators, which no benchmark model uses). The DDP tutorial script writes `snapshot.pt` after an epoch "
        "and resumes from it (the 4-GPU GPU runs above found the one the 2-GPU run wrote; its memory is a 20x1 "
        "Linear's); a fake run does not write it (`torch.save` of fake tensors writes nothing), and `predict.py` "
        "removes the files a script lists under `writes` in the manifest before each run.",
        "",
    ]
    with open(os.path.join(ROOT, "docs", "estimate-accuracy.md"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))


if __name__ == "__main__":
    main()
