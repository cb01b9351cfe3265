# A class named for evaluation (a runner's validation loop, a tester): its methods evaluate
# whatever they are named, and the model the runner holds records a graph on every batch.


class ValLoop:
    def __init__(self, runner, dataloader, evaluator):
        self.runner = runner
        self.dataloader = dataloader
        self.evaluator = evaluator

    def run(self):
        for idx, data_batch in enumerate(self.dataloader):
            self.run_iter(idx, data_batch)
        return self.evaluator.evaluate(len(self.dataloader.dataset))

    def run_iter(self, idx, data_batch):
        outputs = self.runner.model(data_batch)  # preview: ML003 (nothing in sight shows what the runner holds)
        self.evaluator.process(data_batch, outputs)


class ModelTester:
    def __init__(self, model, loader):
        self.model, self.loader = model, loader

    def step(self, batch):
        return self.model(batch["image"]).argmax(-1).cpu()  # expect: ML003
