# An evaluation entry point calls a helper of this file that calls imported functions named after
# models (`download_model`, `configure_model`): functions of a library, not a module's forward.
from registry import download_model
from setup import hooks


class Trainer:
    def _prepare(self, name):
        path = download_model(name, download_dir="/tmp/models")
        hooks.configure_model(self)
        return path

    def _validate_impl(self, name, loader):
        checkpoint = self._prepare(name)
        return self.run_loop(checkpoint, loader)
