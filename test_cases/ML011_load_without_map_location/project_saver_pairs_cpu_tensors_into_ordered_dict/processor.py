# Linted as one project with io_utils.py: training saves through the project's saver, and a run
# started from weights loads them through it.
from io_utils import IO


def run(model, optimizer, loader, args):
    io = IO(args.work_dir)
    if args.weights:
        model = io.load_weights(model, args.weights)
    model = model.cuda()
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = model(x.cuda(), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        io.save_model(model, f"epoch{epoch}_model.pt")
