# A backbone loads pretrained weights from a path it fills, where the file is missing, with torch's
# published weights from download.pytorch.org: state dicts of CPU tensors, so nothing lands on a GPU.
from pathlib import Path

import torch
import torchvision
from torch import hub


class SegmentationBackbone(torch.nn.Module):
    def __init__(self, pretrained_path=None):
        super().__init__()
        self.model = torchvision.models.segmentation.deeplabv3_resnet101(num_classes=21)
        self.pretrained_path = pretrained_path

    def load_pretrained(self):
        model_dict = self.model.state_dict()
        checkpoint_path = Path(self.pretrained_path)
        if not checkpoint_path.exists():
            checkpoint = checkpoint_path.name
            save_dir = checkpoint_path.parent
            save_dir.mkdir(parents=True, exist_ok=True)
            url = f"https://download.pytorch.org/models/{checkpoint}"
            hub.load_state_dict_from_url(url, save_dir)
        pretrained_dict = torch.load(self.pretrained_path)
        model_dict.update(pretrained_dict)
        self.model.load_state_dict(model_dict)
