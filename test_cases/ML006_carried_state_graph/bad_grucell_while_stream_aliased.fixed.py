# verify: leaks
# Online learning over a stream: an aliased GRUCell state is carried through a while loop without detach.
import torch
from torch.nn import GRUCell as Recurrent
from torch.nn import Linear

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    recurrent = Recurrent(6, 32).to(device)
    readout = Linear(32, 1).to(device)
    params = list(recurrent.parameters()) + list(readout.parameters())
    state = torch.zeros(1024, 32, device=device)
    t = 0
    while t < 20:
        obs, reward = torch.randn(1024, 6, device=device), torch.randn(1024, 1, device=device)
        state = recurrent(obs, state.detach())  # expect: ML006
        loss = (readout(state) - reward).pow(2).mean()
        loss.backward(retain_graph=True)
        with torch.no_grad():
            for p in params:
                p.data -= 0.01 * p.grad
                p.grad = None
        t += 1
    print("final loss:", loss.item())


if __name__ == "__main__":
    main()
