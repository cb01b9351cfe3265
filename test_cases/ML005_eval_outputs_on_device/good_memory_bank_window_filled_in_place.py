# A clustering memory bank: the training loop copies each batch's detached embeddings into a window of a
# bank that its caller allocated once on the device. A slice assignment into a tensor copies into its
# fixed storage: nothing is kept or grows. The bank comes in by a parameter whose maker this file does
# not show by element, so only `--preview` shows what a list would keep.
import torch


def init_memory(size, dim):
    index = torch.zeros(size).long().cuda()
    embeddings = torch.zeros(size, dim).cuda()
    return index, embeddings


def train(loader, model, optimizer, memory_index, memory_embeddings):
    start = 0
    for idx, inputs in loader:
        emb, output = model(inputs)
        emb = emb.detach()
        loss = output.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        bs = inputs.size(0)
        memory_index[start : start + bs] = idx  # preview: ML005
        memory_embeddings[start : start + bs] = emb  # preview: ML005
        start += bs
    return memory_index, memory_embeddings


def main(loader, model, optimizer):
    index, embeddings = init_memory(50000, 128)
    for epoch in range(100):
        index, embeddings = train(loader, model, optimizer, index, embeddings)
