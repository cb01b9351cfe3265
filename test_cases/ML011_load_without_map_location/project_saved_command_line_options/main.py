# Linted as one project with trainer.py and predict.py: the trainer is handed the parsed command line.
import argparse

from trainer import Trainer


def main(args):
    trainer = Trainer(args)
    trainer.train()
    trainer.save_model()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", default="./model")
    parser.add_argument("--lr", type=float, default=5e-5)
    args = parser.parse_args()
    main(args)
