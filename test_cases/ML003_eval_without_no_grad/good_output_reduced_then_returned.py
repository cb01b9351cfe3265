# Look-alikes: the reduced output is returned as a tensor (its caller may train on it), or handed
# to a function that is not torch's; only a number taken beside it ends nothing.
import torch


def pooled_embedding(model, input_ids):
    model_output = model(input_ids, output_hidden_states=True)
    data = model_output.hidden_states[-1][0]
    print(torch.mean(data, dim=0).norm().item())
    return torch.mean(data, dim=0)


def score(model, batch, metric):
    logits = model(batch)
    return metric(logits.softmax(-1))
