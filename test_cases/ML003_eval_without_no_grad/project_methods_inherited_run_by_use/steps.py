# Linted as one project with score.py: `update` differentiates the loss it is handed.
def update(loss, optimizer):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
