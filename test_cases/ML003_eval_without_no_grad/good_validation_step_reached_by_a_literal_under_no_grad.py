# A learner dispatches each batch by the kind of pass it is handed (`all_batches('valid')`): the validation
# step is reached only on the 'valid' branch, and the only call that hands 'valid' runs under no_grad.
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
        pred = self.model(xb)
        loss = self.loss_func(pred, yb)
        return pred, loss
