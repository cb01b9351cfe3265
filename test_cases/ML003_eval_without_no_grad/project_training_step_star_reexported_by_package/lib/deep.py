# `learn` trains the model on one batch (a chunked step: backward per chunk, one optimizer step);
# `predict` only runs it.


def learn(model, optimizer, loss_fn, step, batch, chunk_size):
    model.train()
    optimizer.zero_grad()
    for chunk in batch.split(chunk_size):
        loss = loss_fn(*step(chunk))
        loss.backward()
    optimizer.step()
    return loss


def predict(step, batch):
    return step(batch)[0]
