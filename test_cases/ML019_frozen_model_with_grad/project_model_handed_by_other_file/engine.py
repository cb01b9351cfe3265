# Linted as one project with main.py: `train_one_epoch` puts the backbone it is handed in eval mode
# and runs it with grad on. Whether an optimizer gets the backbone's parameters is its caller's to
# say, in another file: the finding rests on an assumption and is shown with `--preview` only.


def train_one_epoch(train_loader, backbone, head, criterion, optimizer):
    backbone.eval()
    for images, target in train_loader:
        features = backbone(images)  # preview: ML019
        loss = criterion(head(features), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
