# verify: flat
# A sweep launcher checks the GPU, then sets the allocator variable for the child processes it starts.
import os
import subprocess
import sys

import torch

CHILD = "import os; print('child sees', os.environ['PYTORCH_CUDA_ALLOC_CONF'])"


def main():
    if torch.cuda.is_available():
        print(f"launching on {torch.cuda.get_device_name(0)}")
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    results = []
    for seed in range(8):
        done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
        results.append((seed, done.stdout.strip()))
    print(results[-1])


if __name__ == "__main__":
    main()
