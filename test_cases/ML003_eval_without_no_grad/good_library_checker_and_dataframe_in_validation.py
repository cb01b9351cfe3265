# Evaluation-named functions calling things that are not modules: a function of an imported
# package whose name ends in `_model` (`onnx.checker.check_model`), and `head` of a parameter
# annotated as a DataFrame.
import onnx
import pandas as pd


def inference_test_helper(path):
    model = onnx.load(path)
    for _ in range(2):
        onnx.checker.check_model(model)


class Dataset:
    def _validate_data(self, data: pd.DataFrame) -> None:
        for name in ("a", "b"):
            columns = data.head(1).select_dtypes("category").columns
            assert name not in columns
