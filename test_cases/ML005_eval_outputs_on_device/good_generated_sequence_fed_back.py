# verify: flat
# pytorch/examples word_language_model generate.py: the generated tokens are concatenated onto the model's next input (issue 12, shape 6).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class TinyLM(torch.nn.Module):
    def __init__(self, vocab=1024, dim=64):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim)
        self.decoder = torch.nn.Linear(dim, vocab)

    def forward(self, input):
        return torch.log_softmax(self.decoder(torch.tanh(self.embed(input).cumsum(0))), dim=-1)


def main(words=40, temperature=1.0):
    torch.manual_seed(0)
    model = TinyLM().to(device)
    model.eval()
    input = torch.randint(1024, (1, 1), dtype=torch.long).to(device)
    with torch.no_grad():
        for i in range(words):
            output = model(input)
            word_weights = output[-1].squeeze().div(temperature).exp().cpu()
            word_idx = torch.multinomial(word_weights, 1)[0]
            word_tensor = torch.Tensor([[word_idx]]).long().to(device)
            input = torch.cat([input, word_tensor], 0)
    print(" ".join(str(t) for t in input.flatten().tolist()[:10]))


if __name__ == "__main__":
    main()
