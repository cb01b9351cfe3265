# Linted as one project with metrics.py: the batch's `tgt_text` looks like any other entry of the batch
# moved to the device, but the metric of the other file reads its items as text (`ref.split("\n")`):
# strings, kept on the host; no finding.
from metrics import generation_metric


def evaluate(prompt_model, dataloader):
    generated, references = [], []
    prompt_model.eval()
    for inputs in dataloader:
        inputs = inputs.cuda()
        _, sentences = prompt_model.generate(inputs)
        generated.extend(sentences)
        references.extend(inputs["tgt_text"])
    return generation_metric(generated, references)
