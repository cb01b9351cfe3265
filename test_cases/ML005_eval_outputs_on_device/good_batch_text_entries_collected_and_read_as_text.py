# The batch object moves its tensors to the device, but its `tgt_text` entry is the batch's list of
# target sentences: the function reads every collected item as text (`.strip()`), a method no tensor
# has, so what it collects are strings and nothing on the device is kept.
import torch


def evaluate(prompt_model, dataloader):
    prompt_model.eval()
    predictions, ground_truths = [], []
    with torch.no_grad():
        for inputs in dataloader:
            inputs = inputs.cuda()
            _, sentences = prompt_model.generate(inputs)
            predictions.extend(sentences)
            ground_truths.extend(inputs["tgt_text"])
    ground_truths = [truth.strip() for truth in ground_truths]
    return sum(p.strip() == t for p, t in zip(predictions, ground_truths)) / len(ground_truths)
