# Look-alikes of an evaluation class's methods: run without grad, a module, or not running a model.
import torch


class ValLoop:
    def __init__(self, runner, dataloader):
        self.runner = runner
        self.dataloader = dataloader

    @torch.no_grad()
    def run(self):
        for idx, data_batch in enumerate(self.dataloader):
            self.run_iter(idx, data_batch)

    def run_iter(self, idx, data_batch):
        # only ever called from `run`, under its no_grad
        return self.runner.model(data_batch)


class TestLoop:
    def __init__(self, runner, dataloader):
        self.runner = runner
        self.dataloader = dataloader

    def run(self):
        with torch.inference_mode():
            return [self.runner.model(batch) for batch in self.dataloader]


class InferenceHead(torch.nn.Module):
    # a module named for inference: its forward is part of whatever step runs it
    def __init__(self, dim, classes):
        super().__init__()
        self.proj = torch.nn.Linear(dim, classes)

    def forward(self, x):
        return self.proj(x)

    def step(self, x):
        return self.proj(x).softmax(-1)


class DataValidator:
    # validates records: it runs no model
    def __init__(self, schema):
        self.schema = schema

    def run(self, records):
        return [self.schema(record) for record in records]
