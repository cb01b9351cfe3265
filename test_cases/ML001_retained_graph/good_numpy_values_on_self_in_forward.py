# An augmentation's forward keeps the crop box it drew on `self`, for whoever reads it after the
# call. The box is a numpy array: numpy returns host arrays, never a tensor with history (it
# refuses a tensor that requires grad), whatever the values it is built from.
import numpy as np
import torchvision.transforms.functional as TF
from torchvision import transforms


class RandomResizedCrop(transforms.RandomResizedCrop):
    def forward(self, img):
        i, j, h, w = self.get_params(img, self.scale, self.ratio)
        height, width = img.shape[-2:]
        self.corner = np.array([i / height, j / width, (i + h) / height, (j + w) / width])
        return TF.resized_crop(img, i, j, h, w, self.size, self.interpolation)
