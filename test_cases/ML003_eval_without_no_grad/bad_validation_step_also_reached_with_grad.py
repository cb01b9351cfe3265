# The same learner, but a quick check before training also hands 'valid' to the dispatcher, with grad
# on: the validation step then records a graph it never differentiates.
import torch


class Learner:
    def __init__(self, model, dls, loss_func, opt):
        self.model, self.dls, self.loss_func, self.opt = model, dls, loss_func, opt

    def epoch_train(self):
        self.model.train()
        self.dl = self.dls.train
        self.all_batches('train')

    def epoch_validate(self):
        self.model.eval()
        self.dl = self.dls.valid
        with torch.no_grad():
            self.all_batches('valid')

    def sanity_check(self):
        self.model.eval()
        self.dl = self.dls.valid
        self.all_batches('valid')

    def all_batches(self, type_):
        for num, batch in enumerate(self.dl):
            self.batch = batch
            if type_ == 'train':
                self.batch_train()
            elif type_ == 'valid':
                self.batch_validate()

    def batch_train(self):
        pred, loss = self.train_step(self.batch)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def batch_validate(self):
        self.pred, self.loss = self.valid_step(self.batch)

    def train_step(self, batch):
        xb, yb = batch
        pred = self.model(xb)
        return pred, self.loss_func(pred, yb)

    def valid_step(self, batch):
        xb, yb = batch
        pred = self.model(xb)  # expect: ML003
        loss = self.loss_func(pred, yb)
        return pred, loss
