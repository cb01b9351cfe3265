# A test file (linted as a project of its own): `test` is a data frame the test is handed, and
# `test.head(1)` / `test.head(10)` take its first rows. A callee that only its name suggests is a
# module (`head`) and is handed nothing but literals runs no forward: no finding. The same test
# running the model's backbone and head on a tensor still reports.
import torch


def _test_explain(tabular_model, test, single_row):
    if single_row:
        test = test.head(1)
    else:
        test = test.head(10)
    return tabular_model.explain(test)


def _test_head_outputs(tabular_model, batch: torch.Tensor):
    tabular_model.eval()
    features = tabular_model.backbone(batch)  # expect: ML003
    return tabular_model.head(features).argmax(-1)  # expect: ML003
