# verify: leaks
# The same generation loop with a recurrent model fed one token and its hidden state: the concatenated logits never feed the model, they pile up on the device (bad twin of issue 12, shape 6).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class TinyRNNLM(torch.nn.Module):
    def __init__(self, vocab=65536, dim=64):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim)
        self.rnn = torch.nn.GRU(dim, dim)
        self.decoder = torch.nn.Linear(dim, vocab)

    def forward(self, input, hidden):
        output, hidden = self.rnn(self.embed(input), hidden)
        return torch.log_softmax(self.decoder(output), dim=-1), hidden


def main(words=40, temperature=1.0):
    torch.manual_seed(0)
    model = TinyRNNLM().to(device)
    model.eval()
    input = torch.randint(65536, (1, 4), dtype=torch.long).to(device)
    hidden = torch.zeros(1, 4, 64, device=device)
    all_logits = torch.empty(0, 4, 65536, device=device)
    with torch.no_grad():
        for i in range(words):
            output, hidden = model(input, hidden)
            word_weights = output[-1].div(temperature).exp().cpu()
            input = torch.multinomial(word_weights, 1).t().to(device)
            all_logits = torch.cat([all_logits, output], 0)  # expect: ML005
    print(f"mean max log-prob {all_logits.max(dim=-1).values.mean().item():.3f}")


if __name__ == "__main__":
    main()
