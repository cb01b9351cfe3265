# A look-alike that trains: the detached output is a target for the loss that is differentiated,
# so the loop wants the graph of the second run.
def distill(student, teacher, batches, optimizer):
    for images in batches:
        targets = teacher(images)
        soft = targets.detach()
        loss = ((student(images) - soft) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
