# Linted as one project with train.py: a logger that keeps every value of the metrics it is handed.
class MetricLogger:
    def __init__(self):
        self.history = {}

    def log_metrics(self, metrics):
        for name, value in metrics.items():
            self.history.append(value)


class FloatLogger:
    def __init__(self):
        self.history = {}

    def log_metrics(self, metrics):
        for name, value in metrics.items():
            self.history.append(float(value))
