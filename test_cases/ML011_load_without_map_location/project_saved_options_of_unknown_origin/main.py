# Linted as one project with trainer.py and predict.py: the trainer is handed an object that
# another package builds: nothing shows whether it holds tensors.
from configs import load_config
from trainer import Trainer


def main(path):
    config = load_config(path)
    trainer = Trainer(config)
    trainer.save_model()
