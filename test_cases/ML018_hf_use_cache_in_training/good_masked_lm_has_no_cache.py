# The look-alike: a masked LM (an encoder, no decoder cache) trained the same way; its output holds the
# loss and the logits, no key/value cache.
import torch
from transformers import AutoModelForMaskedLM, BertForMaskedLM


def train_bert(loader):
    model = BertForMaskedLM.from_pretrained("bert-base-uncased").cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    model.train()
    for batch in loader:
        outputs = model(input_ids=batch["input_ids"], labels=batch["labels"])
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def train_auto(loader):
    model = AutoModelForMaskedLM.from_pretrained("roberta-base").cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    model.train()
    for batch in loader:
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
