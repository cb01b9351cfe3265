# Evaluation recognised by use: nothing names it, but the loop never differentiates and reads the
# model's outputs only through `.detach()`, so every graph it records is built for nothing.
def collect_embeddings(encoder, batches):
    embeddings = []
    for images in batches:
        features = encoder(images)  # expect: ML003
        embeddings.append(features.detach().cpu().numpy())
    return embeddings
