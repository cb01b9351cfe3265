# Evaluation-named functions calling things that are not modules: a function of an imported
# package whose name ends in `_model` (`onnx.checker.check_model`, the package bound by `import` or by
# `pytest.importorskip`), and `head` of a parameter annotated as a DataFrame.
import onnx
import pandas as pd
import pytest


def inference_test_helper(path):
    model = onnx.load(path)
    for _ in range(2):
        onnx.checker.check_model(model)


def inference_export_helper(path):
    onnx_module = pytest.importorskip("onnx")
    for _ in range(2):
        onnx_module.checker.check_model(onnx_module.load(path))


class Dataset:
    def _validate_data(self, data: pd.DataFrame) -> None:
        for name in ("a", "b"):
            columns = data.head(1).select_dtypes("category").columns
            assert name not in columns
