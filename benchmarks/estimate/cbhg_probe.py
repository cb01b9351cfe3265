"""Tacotron's postnet (Real-Time-Voice-Cloning's CBHG: conv bank K=5 of 512 channels over 80 mels,
max-pool, projections, 4 highways, bidirectional GRU of 256 a direction) at batch 12 over 800
frames, forward and backward: max_memory_allocated, and every allocation of 32 MiB or more with
the op that made it (memory history), on the GPU; or (--fake) memlint's fake run of the same."""
import sys, json, os
import torch, torch.nn as nn, torch.nn.functional as F

class HighwayNetwork(nn.Module):
    def __init__(self, size):
        super().__init__(); self.W1 = nn.Linear(size, size); self.W2 = nn.Linear(size, size)
    def forward(self, x):
        g = torch.sigmoid(self.W2(x)); return g * F.relu(self.W1(x)) + (1. - g) * x

class BatchNormConv(nn.Module):
    def __init__(self, i, o, k, relu=True):
        super().__init__(); self.conv = nn.Conv1d(i, o, k, stride=1, padding=k // 2, bias=False)
        self.bnorm = nn.BatchNorm1d(o); self.relu = relu
    def forward(self, x):
        x = self.conv(x); x = F.relu(x) if self.relu else x; return self.bnorm(x)

class CBHG(nn.Module):
    def __init__(self, K, in_channels, channels, proj_channels, num_highways, pool=True, rnn=True):
        super().__init__()
        self.bank = nn.ModuleList(BatchNormConv(in_channels, channels, k) for k in range(1, K + 1))
        self.maxpool = nn.MaxPool1d(kernel_size=2, stride=1, padding=1) if pool else None
        self.p1 = BatchNormConv(K * channels, proj_channels[0], 3)
        self.p2 = BatchNormConv(proj_channels[0], proj_channels[1], 3, relu=False)
        self.pre_highway = nn.Linear(proj_channels[-1], channels, bias=False)
        self.highways = nn.ModuleList(HighwayNetwork(channels) for _ in range(num_highways))
        self.rnn = nn.GRU(channels, channels // 2, batch_first=True, bidirectional=True) if rnn else None
    def forward(self, x):
        if self.rnn is not None:
            self.rnn.flatten_parameters()
        residual, T = x, x.size(-1)
        bank = torch.cat([c(x)[:, :, :T] for c in self.bank], dim=1)
        x = self.maxpool(bank)[:, :, :T] if self.maxpool is not None else bank
        x = self.p2(self.p1(x)) + residual
        x = self.pre_highway(x.transpose(1, 2))
        for h in self.highways:
            x = h(x)
        if self.rnn is not None:
            x, _ = self.rnn(x)
        return x

def run(pool, rnn, dev, batch=12, frames=800, channels=512):
    torch.manual_seed(0)
    net = CBHG(5, 80, channels, [channels, 80], 4, pool, rnn).to(dev)
    x = torch.randn(batch, 80, frames, device=dev)
    net(x).square().mean().backward()

CASES = [(True, True), (False, True), (True, False)]
if "--fake" in sys.argv:
    sys.path.insert(0, os.environ.get("TREE", "."))
    from memlint.estimate.fakegpu import FakeGPU
    from memlint.estimate.tracker import StepTracker, GPU
    for pool, rnn in CASES:
        tr = StepTracker()
        with FakeGPU(tr):
            tr.start_training(); run(pool, rnn, "cuda")
        big = [(s, round(b / 2**20, 1), c) for s, _, b, c, _ in tr.record.events if s == 1 and b >= 32 * 2**20]
        print(json.dumps({"pool": pool, "rnn": rnn, "peak_mib": round(tr._peak_mem[GPU] / 2**20, 1), "big": big}))
else:
    for pool, rnn in CASES:
        torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        torch.cuda.memory._record_memory_history(max_entries=100000)
        run(pool, rnn, "cuda"); torch.cuda.synchronize()
        snap = torch.cuda.memory._snapshot()
        torch.cuda.memory._record_memory_history(enabled=None)
        big = []
        for tr in snap["device_traces"][0]:
            if tr["action"] == "alloc" and tr["size"] >= 32 * 2**20:
                frames = [f"{f['name']}@{os.path.basename(f['filename'])}:{f['line']}" for f in tr.get("frames", [])
                          if "cbhg_probe" in f["filename"] or "torch/nn" in f["filename"]][:3]
                big.append((round(tr["size"] / 2**20, 1), frames))
        print(json.dumps({"pool": pool, "rnn": rnn, "peak_mib": round((torch.cuda.max_memory_allocated() - base) / 2**20, 1),
                          "cudnn": torch.backends.cudnn.version(), "torch": torch.__version__, "big": big}))
