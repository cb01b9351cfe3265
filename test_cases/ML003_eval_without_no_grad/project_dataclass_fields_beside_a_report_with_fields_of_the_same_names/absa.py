# Linted as one project with base.py: the dataclass declares its fields' classes. `aspect_model` is
# a `SetFitModel` of the project, whose call predicts without grad; `scorer` is a module, run with
# grad on in `predict`. Another dataclass of the file declares fields of the same names, as strings:
# they are the fields of its own objects and say nothing of the model's.
from dataclasses import dataclass

from base import ScoringModel, SetFitModel


class AspectModel(SetFitModel):
    def __call__(self, inputs):
        return self.predict(inputs)


class Scorer(ScoringModel):
    pass


@dataclass
class AbsaModel:
    aspect_model: AspectModel
    scorer: Scorer

    def predict(self, inputs, features):
        aspects = self.aspect_model(inputs)
        scores = self.scorer(features)  # expect: ML003
        return aspects, scores.tolist()


@dataclass
class Report:
    aspect_model: str
    scorer: str

    def describe(self):
        return f"{self.aspect_model} {self.scorer}"
