# Linted as one project with base.py and miners.py: an evaluation loop calls two modules of the
# project. The miner records no graph (the `forward` it inherits runs under no_grad, two files
# away); the scorer runs its layer with grad on.
from miners import AngularMiner, LearnedScorer


def evaluate(loader):
    miner = AngularMiner(16)
    scorer = LearnedScorer(16)
    miner.eval()
    scorer.eval()
    mined, scores = [], []
    for embeddings, labels in loader:
        mined.append(miner(embeddings, labels).tolist())
        scores.append(scorer(embeddings, labels).tolist())  # expect: ML003
    return mined, scores
