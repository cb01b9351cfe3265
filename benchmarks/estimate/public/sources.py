"""The public scripts' sources and the synthetic data they read.

    python sources.py extract MIRRORS [NAME ...]   # each source (or those named) at its pinned commit into src/ (git-ignored)
    python sources.py data              # synthetic data where the scripts would download a data set

`extract` reads git mirrors (MIRRORS/owner+name/repo, as fetched) at the commit of
manifest.json; nothing of them is committed. `data` runs wherever the scripts run (the GPU
machine has no network): random bytes in the files and formats the scripts read, so
shapes and sizes are the real data's (MNIST's 60,000 28x28 images: the Lightning examples
split exactly 55,000 / 5,000).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import struct
import subprocess
import sys
import tarfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")


def manifest() -> dict:
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as handle:
        return json.load(handle)


def extract(mirrors: str, names: list[str]) -> None:
    for name, source in manifest()["sources"].items():
        if names and name not in names:
            continue
        repo = os.path.join(mirrors, source["repo"].replace("/", "+"), "repo")
        target = os.path.join(SRC, name)
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        archive = subprocess.run(["git", "-C", repo, "archive", "--format=tar", source["commit"], *source["paths"]],
                                 check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
        print(f"{name}: {source['repo']}@{source['commit'][:12]} -> {os.path.relpath(target)}")


def _idx(path: str, array: np.ndarray) -> None:
    # MNIST's idx format: magic (0, 0, type 0x08 = ubyte, ndim), big-endian dims, bytes.
    with open(path, "wb") as handle:
        handle.write(bytes([0, 0, 8, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape))
        handle.write(array.astype(np.uint8).tobytes())


def _mnist(root: str) -> None:
    raw = os.path.join(root, "MNIST", "raw")
    if os.path.exists(os.path.join(raw, "t10k-labels-idx1-ubyte")):
        return
    os.makedirs(raw, exist_ok=True)
    rng = np.random.default_rng(0)
    for prefix, count in (("train", 60000), ("t10k", 10000)):
        _idx(os.path.join(raw, f"{prefix}-images-idx3-ubyte"), rng.integers(0, 256, (count, 28, 28)))
        _idx(os.path.join(raw, f"{prefix}-labels-idx1-ubyte"), rng.integers(0, 10, (count,)))


def _link(target: str, link: str) -> None:
    # To the real path: src/ may be reached through a link from a checkout that goes away. A link
    # left broken that way is made again.
    if os.path.lexists(link) and not os.path.exists(link):
        os.remove(link)
    if not os.path.lexists(link):
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.realpath(target), link)


def _wikitext2(folder: str, rng: np.random.Generator) -> None:
    # WikiText-2's sizes (tokens with one <eos> per line, lines, a vocabulary of 33,278 with <eos>):
    # the model's embedding and decoder are vocabulary-sized and the whole split sits on the GPU.
    os.makedirs(folder, exist_ok=True)
    vocab = np.array([f"w{i}" for i in range(33277)])
    for split, tokens, lines in (("train", 2088628, 36718), ("valid", 217646, 3760), ("test", 245569, 4358)):
        words = rng.choice(vocab, tokens - lines)
        if split == "train":
            words[:len(vocab)] = vocab  # every word at least once
        with open(os.path.join(folder, f"{split}.txt"), "w", encoding="utf-8") as handle:
            for line in np.array_split(words, lines):
                handle.write(" ".join(line) + "\n")


# Model configurations the HF Trainer example builds from scratch (--config_name): GPT-2 small's
# published sizes, and a Llama of the same vocabulary with untied embeddings.
HF_CONFIGS = {
    "gpt2-small": {"model_type": "gpt2", "vocab_size": 50257, "n_positions": 1024, "n_embd": 768, "n_layer": 12,
                   "n_head": 12, "bos_token_id": 0, "eos_token_id": 0},
    "llama-160m": {"model_type": "llama", "vocab_size": 50257, "hidden_size": 768, "intermediate_size": 2048,
                   "num_hidden_layers": 12, "num_attention_heads": 12, "num_key_value_heads": 12,
                   "max_position_embeddings": 2048, "tie_word_embeddings": False, "bos_token_id": 0, "eos_token_id": 0},
}


def _hf_clm(folder: str, rng: np.random.Generator) -> None:
    # A word-level tokenizer of GPT-2's vocabulary size (the hub's tokenizer cannot be fetched on a machine
    # without network; its size, not its merges, sets the memory), the model configurations, and a text
    # file of random words long enough for a few hundred blocks of 1024 tokens.
    from tokenizers import Tokenizer, models, pre_tokenizers

    os.makedirs(os.path.join(folder, "tokenizer"), exist_ok=True)
    words = [f"w{i}" for i in range(50256)]
    tokenizer = Tokenizer(models.WordLevel({"<|endoftext|>": 0, **{w: i + 1 for i, w in enumerate(words)}},
                                           unk_token="<|endoftext|>"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.save(os.path.join(folder, "tokenizer", "tokenizer.json"))
    with open(os.path.join(folder, "tokenizer", "tokenizer_config.json"), "w", encoding="utf-8") as handle:
        json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 1024,
                   "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>", "bos_token": "<|endoftext|>"}, handle)
    with open(os.path.join(folder, "fsdp_gpt2.json"), "w", encoding="utf-8") as handle:  # Trainer's --fsdp_config
        json.dump({"transformer_layer_cls_to_wrap": ["GPT2Block"]}, handle)
    for name, config in HF_CONFIGS.items():
        os.makedirs(os.path.join(folder, name), exist_ok=True)
        with open(os.path.join(folder, name, "config.json"), "w", encoding="utf-8") as handle:
            json.dump(config, handle)
    with open(os.path.join(folder, "train.txt"), "w", encoding="utf-8") as handle:
        for line in np.array_split(rng.choice(np.array(words), 400_000), 4000):
            handle.write(" ".join(line) + "\n")


def _ptb(path: str, rng: np.random.Generator) -> None:
    # The Penn Treebank training text's sizes (887,521 words on 42,068 lines, 9,999 words and <eos>):
    # the tutorial's decoder is vocabulary-sized.
    os.makedirs(os.path.dirname(path), exist_ok=True)
    vocab = np.array([f"w{i}" for i in range(9999)])
    words = rng.choice(vocab, 887521)
    words[:len(vocab)] = vocab
    with open(path, "w", encoding="utf-8") as handle:
        for line in np.array_split(words, 42068):
            handle.write(" " + " ".join(line) + " \n")


def _cora(folder: str, rng: np.random.Generator) -> None:
    # Cora's sizes: 2,708 papers of 1,433 binary word features (about 18 words each) in 7 classes, and
    # 5,429 citations; the graph attention example holds the whole graph densely on the GPU.
    os.makedirs(folder, exist_ok=True)
    ids = rng.choice(1_200_000, 2708, replace=False)
    classes = np.array(["Case_Based", "Genetic_Algorithms", "Neural_Networks", "Probabilistic_Methods",
                        "Reinforcement_Learning", "Rule_Learning", "Theory"])
    with open(os.path.join(folder, "cora.content"), "w", encoding="utf-8") as handle:
        for paper, words in zip(ids, rng.random((len(ids), 1433)) < 18 / 1433):
            handle.write("\t".join([str(paper), *map(str, words.astype(int)), rng.choice(classes)]) + "\n")
    with open(os.path.join(folder, "cora.cites"), "w", encoding="utf-8") as handle:
        for cited, citing in rng.choice(ids, (5429, 2)):
            handle.write(f"{cited}\t{citing}\n")


def _jpeg(path: str, rng: np.random.Generator, width: int, height: int) -> None:
    from PIL import Image

    Image.fromarray(rng.integers(0, 256, (height, width, 3), dtype=np.uint8)).save(path, quality=90)


def _carvana(folder: str, rng: np.random.Generator) -> None:
    # Carvana's layout and size for Pytorch-UNet: 1918x1280 photos, a 0/1 mask per photo (id_mask.gif);
    # 50 of them, so that the script's 10% validation split leaves 45 to train on.
    from PIL import Image

    os.makedirs(os.path.join(folder, "imgs"), exist_ok=True)
    os.makedirs(os.path.join(folder, "masks"), exist_ok=True)
    for i in range(50):
        _jpeg(os.path.join(folder, "imgs", f"car{i:03d}.jpg"), rng, 1918, 1280)
        mask = (rng.random((1280, 1918)) < 0.3).astype(np.uint8)
        Image.fromarray(mask, mode="L").convert("P").save(os.path.join(folder, "masks", f"car{i:03d}_mask.gif"))


def _yolo(folder: str, rng: np.random.Generator) -> None:
    # A COCO-like set in YOLO's format (images/ and labels/ of class cx cy w h): 64 photos of 640x480
    # with 1 to 20 boxes of COCO's 80 classes, and the data file the script reads.
    for sub in ("images/train", "labels/train"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    for i in range(64):
        _jpeg(os.path.join(folder, "images", "train", f"im{i:03d}.jpg"), rng, 640, 480)
        boxes = rng.uniform(0.05, 0.5, (int(rng.integers(1, 21)), 2))
        centres = rng.uniform(0.3, 0.7, boxes.shape)
        with open(os.path.join(folder, "labels", "train", f"im{i:03d}.txt"), "w", encoding="utf-8") as handle:
            for (w, h), (x, y) in zip(boxes, centres):
                handle.write(f"{rng.integers(0, 80)} {x:.4f} {y:.4f} {w:.4f} {h:.4f}\n")
    with open(os.path.join(folder, "synth.yaml"), "w", encoding="utf-8") as handle:
        handle.write(f"train: {folder}/images/train\nval: {folder}/images/train\nnc: 80\n"
                     f"names: {[f'c{i}' for i in range(80)]}\n")


def _imagefolder(folder: str, rng: np.random.Generator, validation: str = "validation", train: int = 256) -> None:
    # ImageNet's folder layout (a folder per class) for timm's train.py (and, with "val", Lightning's
    # ImageNet template): 256 training and 64 validation photos of 10 classes; the transforms crop
    # them to the model's input size.
    for split, count in (("train", train), (validation, 64)):
        for i in range(count):
            klass = os.path.join(folder, split, f"n{i % 10:08d}")
            os.makedirs(klass, exist_ok=True)
            _jpeg(os.path.join(klass, f"{i:04d}.jpg"), rng, 320, 256)


def _planetoid(folder: str, prefix: str, sizes: tuple[int, int, int, int], rng: np.random.Generator) -> None:
    # Planetoid's raw files (PyTorch Geometric reads ind.NAME.{x,tx,allx,y,ty,ally,graph,test.index}) at a
    # data set's sizes (nodes, features, classes, undirected edges): 20 labelled nodes a class, the last
    # 1,000 nodes the test set; the features dense (read back as such), the graph a symmetric adjacency list.
    nodes, features, classes, edges = sizes
    os.makedirs(folder, exist_ok=True)
    x = (rng.random((nodes, features)) < 0.02).astype(np.float32)
    y = np.eye(classes, dtype=np.int32)[rng.integers(0, classes, nodes)]
    labelled, test = 20 * classes, nodes - 1000
    graph: dict = {i: [] for i in range(nodes)}
    for a, b in rng.integers(0, nodes, (edges, 2)):
        graph[int(a)].append(int(b))
        graph[int(b)].append(int(a))
    parts = {"x": x[:labelled], "tx": x[test:], "allx": x[:test], "y": y[:labelled], "ty": y[test:], "ally": y[:test],
             "graph": graph}
    for name, value in parts.items():
        with open(os.path.join(folder, f"ind.{prefix}.{name}"), "wb") as handle:
            pickle.dump(value, handle)
    with open(os.path.join(folder, f"ind.{prefix}.test.index"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(str(i) for i in rng.permutation(np.arange(test, nodes))) + "\n")


PLANETOID = {"cora": (2708, 1433, 7, 5278), "pubmed": (19717, 500, 3, 44324)}


def _photos(folder: str, rng: np.random.Generator, count: int = 96) -> None:
    # A folder of photos for datasets' imagefolder (diffusers' unconditional example): 500x500 like
    # Oxford Flowers' (the transforms resize and crop them to --resolution).
    os.makedirs(folder, exist_ok=True)
    for i in range(count):
        _jpeg(os.path.join(folder, f"{i:04d}.jpg"), rng, 500, 500)


def _fastspeech2(root: str, rng: np.random.Generator) -> None:
    # FastSpeech2's preprocessed features (train.txt of phonemes in braces, mel/pitch/energy/duration .npy
    # per utterance), 128 utterances of LJSpeech and LibriTTS speakers: every one 120 phonemes and 840
    # frames (about LJSpeech's longest clip) so the shuffled batches have one shape. Energy is float32 as
    # the preprocessing writes it (a torch STFT's; the script moves it to the GPU as it is), pitch
    # float64 (pyworld's; the script casts it). The HiFi-GAN
    # vocoder's weights are not in the mirror: a random generator of its architecture, saved where the
    # script loads it (its size is the weights', its values matter to no memory figure).
    sys.path.insert(0, root)
    try:
        import torch
        import hifigan
        from text.cmudict import valid_symbols
    finally:
        sys.path.remove(root)
    with open(os.path.join(root, "hifigan", "config.json"), encoding="utf-8") as handle:
        vocoder = hifigan.Generator(hifigan.AttrDict(json.load(handle)))
    for name in ("generator_LJSpeech.pth.tar", "generator_universal.pth.tar"):
        torch.save({"generator": vocoder.state_dict()}, os.path.join(root, "hifigan", name))
    phones, frames = 120, 840
    for corpus in ("LJSpeech", "LibriTTS"):
        folder = os.path.join(root, "preprocessed_data", corpus)
        with open(os.path.join(folder, "speakers.json"), encoding="utf-8") as handle:
            speakers = list(json.load(handle))
        for sub in ("mel", "pitch", "energy", "duration"):
            os.makedirs(os.path.join(folder, sub), exist_ok=True)
        lines = []
        for i in range(128):
            speaker, base = speakers[i % len(speakers)], f"U{i:04d}"
            duration = rng.multinomial(frames - phones, np.full(phones, 1 / phones)) + 1
            for sub, array in (("mel", rng.standard_normal((frames, 80), dtype=np.float32)),
                               ("pitch", rng.standard_normal(phones)),
                               ("energy", rng.standard_normal(phones, dtype=np.float32)),
                               ("duration", duration)):
                np.save(os.path.join(folder, sub, f"{speaker}-{sub}-{base}.npy"), array)
            lines.append(f"{base}|{speaker}|{{{' '.join(rng.choice(valid_symbols, phones))}}}|synthetic\n")
        for split in ("train.txt", "val.txt"):
            with open(os.path.join(folder, split), "w", encoding="utf-8") as handle:
                handle.writelines(lines)


def _bsds300(folder: str, rng: np.random.Generator) -> None:
    # BSDS300's layout for pytorch/examples' super_resolution: 200 training and 100 test photos of
    # 481x321 (portrait or landscape), which the transforms crop to 256 (or a multiple of the factor).
    for split, count in (("train", 200), ("test", 100)):
        os.makedirs(os.path.join(folder, split), exist_ok=True)
        for i in range(count):
            width, height = (481, 321) if i % 3 else (321, 481)
            _jpeg(os.path.join(folder, split, f"{i:05d}.jpg"), rng, width, height)


def _monet2photo(folder: str, rng: np.random.Generator) -> None:
    # CycleGAN's monet2photo as PyTorch-GAN's download script lays it out (train/A, train/B, test/A,
    # test/B) with 256x256 photos like the real set's; fewer of them, which changes no batch.
    for split, count in (("train", 48), ("test", 16)):
        for side in ("A", "B"):
            os.makedirs(os.path.join(folder, split, side), exist_ok=True)
            for i in range(count):
                _jpeg(os.path.join(folder, split, side, f"{i:05d}.jpg"), rng, 256, 256)


def _modelnet40(folder: str, rng: np.random.Generator) -> None:
    # ModelNet40's resampled text files (modelnet40_normal_resampled): per shape 10,000 lines of
    # x,y,z,nx,ny,nz, the shape lists and the 40 class names; 4 training and 2 test shapes a class
    # (the real set has 9,843 / 2,468), which changes no batch: two steps of 64 run before the evaluation.
    classes = [f"class{c:02d}" for c in range(40)]
    os.makedirs(folder, exist_ok=True)
    lists = {"train": [], "test": []}
    for name in classes:
        os.makedirs(os.path.join(folder, name), exist_ok=True)
        for split, count, start in (("train", 4, 1), ("test", 2, 900)):
            for i in range(start, start + count):
                shape = f"{name}_{i:04d}"
                np.savetxt(os.path.join(folder, name, shape + ".txt"), rng.standard_normal((10_000, 6)),
                           fmt="%.6f", delimiter=",")
                lists[split].append(shape)
    for split, shapes in lists.items():
        with open(os.path.join(folder, f"modelnet40_{split}.txt"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(shapes) + "\n")
    with open(os.path.join(folder, "modelnet40_shape_names.txt"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(classes) + "\n")


def _random_weights(root: str, build: str, url_name: str) -> None:
    # A pretrained network the script downloads (torchvision's ImageNet weights) is not on either machine:
    # a random one of the same architecture, saved where torch.hub caches the download (TORCH_HOME, set
    # by the manifest), is loaded instead; its size is the weights', its values matter to no memory figure.
    import torchvision

    path = os.path.join(root, "torch_home", "hub", "checkpoints", url_name)
    if not os.path.exists(path):
        import torch

        os.makedirs(os.path.dirname(path), exist_ok=True)
        torch.save(getattr(torchvision.models, build)(weights=None).state_dict(), path)


def _voc_ssd(root: str, rng: np.random.Generator) -> None:
    # PascalVOC as the SSD tutorial's create_data_lists.py lists it (TRAIN_images.json, TRAIN_objects.json of
    # boxes in pixels, labels 1-20, difficulties): 64 photos of 500x375 with 1 to 6 boxes (the script's
    # epoch count divides by len // 32), and the VGG-16 base it downloads.
    folder = os.path.join(root, "synth_voc")
    os.makedirs(folder, exist_ok=True)
    images, objects = [], []
    for i in range(64):
        path = os.path.join("synth_voc", f"{i:06d}.jpg")
        _jpeg(os.path.join(root, path), rng, 500, 375)
        count = int(rng.integers(1, 7))
        corners = rng.uniform((0, 0), (350, 250), (count, 2))
        sizes = rng.uniform((40, 40), (150, 125), (count, 2))
        boxes = np.concatenate([corners, corners + sizes], axis=1).round().astype(int)
        images.append(path)
        objects.append({"boxes": boxes.tolist(), "labels": rng.integers(1, 21, count).tolist(), "difficulties": [0] * count})
    for name, value in (("TRAIN_images.json", images), ("TRAIN_objects.json", objects)):
        with open(os.path.join(root, name), "w", encoding="utf-8") as handle:
            json.dump(value, handle)
    _random_weights(root, "vgg16", "vgg16-397923af.pth")


CAPTIONS = "/media/ssd/caption data"  # the folder the captioning tutorial's train.py names


def _coco_captions(root: str, rng: np.random.Generator) -> None:
    # COCO as the captioning tutorial's create_input_files.py writes it (coco_5_cap_per_img_5_min_word_freq):
    # HDF5 images of 3x256x256 with 5 captions each, captions encoded to 52 tokens with <start>, <end> and
    # padding, their lengths, and the word map (COCO's 9,486 words of 5 uses and the 4 special tokens);
    # 64 images a split (10 batches of 32 captions), every caption 20 words (one shape in every batch).
    import h5py

    os.makedirs(CAPTIONS, exist_ok=True)
    name = "coco_5_cap_per_img_5_min_word_freq"
    words = [f"w{i}" for i in range(9486)]
    word_map = {w: i + 1 for i, w in enumerate(words)}
    word_map.update({"<unk>": len(word_map) + 1, "<start>": len(word_map) + 2, "<end>": len(word_map) + 3, "<pad>": 0})
    with open(os.path.join(CAPTIONS, f"WORDMAP_{name}.json"), "w", encoding="utf-8") as handle:
        json.dump(word_map, handle)
    for split in ("TRAIN", "VAL"):
        with h5py.File(os.path.join(CAPTIONS, f"{split}_IMAGES_{name}.hdf5"), "w") as handle:
            handle.attrs["captions_per_image"] = 5
            handle.create_dataset("images", data=rng.integers(0, 256, (64, 3, 256, 256), dtype=np.uint8))
        captions = [[word_map["<start>"], *rng.integers(1, len(words) + 1, 20).tolist(), word_map["<end>"]] + [0] * 30
                    for _ in range(64 * 5)]
        for kind, value in (("CAPTIONS", captions), ("CAPLENS", [22] * len(captions))):
            with open(os.path.join(CAPTIONS, f"{split}_{kind}_{name}.json"), "w", encoding="utf-8") as handle:
                json.dump(value, handle)
    _random_weights(root, "resnet101", "resnet101-63fe2227.pth")


def _coco_style(root: str, rng: np.random.Generator) -> None:
    # fast_neural_style's training set as its README has it (COCO 2014 train photos in an image folder):
    # 64 photos of 640x480, and the VGG-16 whose features give the loss.
    os.makedirs(os.path.join(root, "synth_coco", "train"), exist_ok=True)
    for i in range(64):
        _jpeg(os.path.join(root, "synth_coco", "train", f"{i:05d}.jpg"), rng, 640, 480)
    _random_weights(root, "vgg16", "vgg16-397923af.pth")


def _sd_vae(root: str, rng: np.random.Generator) -> None:
    # DiT encodes its images with Stable Diffusion's VAE (stabilityai/sd-vae-ft-ema, AutoencoderKL of 83.7M
    # parameters): a random one of the same config, saved as the Hugging Face cache holds a download (the
    # manifest sets HF_HOME there and HF_HUB_OFFLINE), is loaded instead.
    sys.path.insert(0, os.path.join(SRC, "diffusers", "src"))
    from diffusers.models import AutoencoderKL

    repo = os.path.join(root, "hf_home", "hub", "models--stabilityai--sd-vae-ft-ema")
    revision = "0" * 40
    blocks = 4
    AutoencoderKL(down_block_types=("DownEncoderBlock2D",) * blocks, up_block_types=("UpDecoderBlock2D",) * blocks,
                  block_out_channels=(128, 256, 512, 512), layers_per_block=2, latent_channels=4, sample_size=256,
                  ).save_pretrained(os.path.join(repo, "snapshots", revision))
    os.makedirs(os.path.join(repo, "refs"), exist_ok=True)
    with open(os.path.join(repo, "refs", "main"), "w", encoding="utf-8") as handle:
        handle.write(revision)


def _tinystories(root: str, rng: np.random.Generator) -> None:
    # llama2.c's pretokenized TinyStories (data/TinyStories_all_data/dataNN.bin: uint16 tokens of the Llama 2
    # vocabulary, 32,000); the first shard is the validation split, the others train. Three shards of 2M
    # tokens: the script reads windows of max_seq_len + 1 through a memmap, so only their count matters.
    folder = os.path.join(root, "data", "TinyStories_all_data")
    os.makedirs(folder, exist_ok=True)
    for shard in range(3):
        rng.integers(0, 32000, 2_000_000).astype(np.uint16).tofile(os.path.join(folder, f"data{shard:02d}.bin"))


PET_BREEDS = 37  # the Oxford-IIIT Pet data set's classes


def _pets(root: str, rng: np.random.Generator) -> None:
    # accelerate's cv_example.py reads the Oxford-IIIT Pet images from one folder (Breed_N.jpg: the label is
    # the name before the number), 6 photos of 500x375 for each of the 37 breeds; and fine-tunes timm's
    # resnet50d with pretrained=True, which timm fetches from the Hugging Face Hub (timm/resnet50d.ra2_in1k):
    # a random one of the same architecture is saved as the Hub cache holds a download (the manifest sets
    # HF_HOME there and HF_HUB_OFFLINE).
    os.makedirs(os.path.join(root, "synth_pets"), exist_ok=True)
    for breed in range(PET_BREEDS):
        for i in range(1, 7):
            _jpeg(os.path.join(root, "synth_pets", f"Breed{breed:02d}_{i}.jpg"), rng, 500, 375)
    sys.path.insert(0, os.path.join(SRC, "timm"))
    import timm
    from safetensors.torch import save_file

    repo = os.path.join(root, "hf_home", "hub", "models--timm--resnet50d.ra2_in1k")
    revision = "0" * 40
    os.makedirs(os.path.join(repo, "snapshots", revision), exist_ok=True)
    save_file(timm.create_model("resnet50d", pretrained=False).state_dict(),
              os.path.join(repo, "snapshots", revision, "model.safetensors"))
    os.makedirs(os.path.join(repo, "refs"), exist_ok=True)
    with open(os.path.join(repo, "refs", "main"), "w", encoding="utf-8") as handle:
        handle.write(revision)


def _ml1m_sasrec(folder: str, rng: np.random.Generator) -> None:
    # MovieLens-1M as SASRec's preprocessing writes it (data/ml-1m.txt: "user item" a line, each user's
    # interactions in time order): 6,040 users and 3,416 items, histories of 20 to 2,314 items (the real
    # set's bounds, about a million interactions). The embeddings are item-sized; the batches are
    # maxlen-padded, and the positions a history fills set the size of the loss's selection.
    os.makedirs(folder, exist_ok=True)
    users, items = 6040, 3416
    lengths = np.clip(np.round(rng.lognormal(np.log(95), 0.95, users)), 20, 2314).astype(int)
    with open(os.path.join(folder, "ml-1m.txt"), "w", encoding="utf-8") as handle:
        for user, length in enumerate(lengths, start=1):
            history = rng.choice(items, min(length, items), replace=False) + 1
            if user == 1:
                history = rng.permutation(items) + 1  # every item at least once
            handle.writelines(f"{user} {item}\n" for item in history)


def _words(rng: np.random.Generator, chars: int) -> str:
    # Lowercase words of 2 to 9 letters, one space apart, exactly `chars` characters: no digits, capitals or
    # abbreviations, so text cleaners leave the length as it is.
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    text = ""
    while len(text) < chars:
        text += ("" if not text else " ") + "".join(rng.choice(letters, rng.integers(2, 10)))
    return text[:chars - 1] + "a"


def _sv2tts(root: str, rng: np.random.Generator) -> None:
    # Real-Time-Voice-Cloning's synthesizer data as synthesizer_preprocess_audio.py and
    # synthesizer_preprocess_embeds.py write it (SV2TTS/synthesizer: train.txt, "audio|mel|embed|samples|frames|text"
    # a line; mels/ of (frames, 80) float32; embeds/ of 256-d speaker embeddings): LibriSpeech utterances, every one
    # 800 mel frames (10 s at 80 frames a second, below max_mel_frames' 900) and 150 characters, so that the
    # shuffled batches have one shape.
    for sub in ("mels", "embeds", "audio"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    lines = []
    for i in range(240):
        name = f"{i:05d}"
        np.save(os.path.join(root, "mels", f"mel-{name}.npy"), rng.standard_normal((800, 80)).astype(np.float32))
        embed = rng.random(256).astype(np.float32)
        np.save(os.path.join(root, "embeds", f"embed-{name}.npy"), embed / np.linalg.norm(embed))
        lines.append(f"audio-{name}.npy|mel-{name}.npy|embed-{name}.npy|160000|800|{_words(rng, 150)}\n")
    with open(os.path.join(root, "train.txt"), "w", encoding="utf-8") as handle:
        handle.writelines(lines)


def _wsj0_2mix(root: str, rng: np.random.Generator) -> None:
    # wsj0-2mix at 8 kHz as Conv-TasNet's preprocess.py lists it (data/tr and data/cv: mix.json, s1.json,
    # s2.json, each a list of [wav path, samples]): every utterance 4 s (32,000 samples, one training segment),
    # 60 for training and 20 for cross-validation.
    from scipy.io import wavfile

    for split, count in (("tr", 60), ("cv", 20)):
        lists = {"mix": [], "s1": [], "s2": []}
        for i in range(count):
            sources = [rng.standard_normal(32000) * 0.1 for _ in range(2)]
            for kind, wave in (("s1", sources[0]), ("s2", sources[1]), ("mix", sources[0] + sources[1])):
                folder = os.path.join(root, "wav", split, kind)
                os.makedirs(folder, exist_ok=True)
                path = os.path.join(folder, f"{i:04d}.wav")
                wavfile.write(path, 8000, (np.clip(wave, -1, 1) * 32767).astype(np.int16))
                lists[kind].append([os.path.abspath(path), 32000])
        os.makedirs(os.path.join(root, split), exist_ok=True)
        for kind, items in lists.items():
            with open(os.path.join(root, split, f"{kind}.json"), "w", encoding="utf-8") as handle:
                json.dump(items, handle)


def _cc_csv(root: str, rng: np.random.Generator) -> None:
    # Image-caption pairs in open_clip's CSV layout (--csv-img-key filepath --csv-caption-key title, tab
    # separated): 1,024 photos of 400x300 (the transforms crop them to the model's 224) with captions of
    # Conceptual Captions' length; the tokenizer pads every caption to 77 tokens.
    os.makedirs(os.path.join(root, "images"), exist_ok=True)
    rows = ["filepath\ttitle\n"]
    for i in range(1024):
        path = os.path.join(root, "images", f"{i:05d}.jpg")
        _jpeg(path, rng, 400, 300)
        rows.append(f"{os.path.abspath(path)}\t{_words(rng, 60)}\n")
    with open(os.path.join(root, "train.csv"), "w", encoding="utf-8") as handle:
        handle.writelines(rows)


def data() -> None:
    rng = np.random.default_rng(0)
    chars = list("\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")  # Shakespeare's 65
    nanogpt = os.path.join(SRC, "nanogpt", "data", "shakespeare_char")
    os.makedirs(nanogpt, exist_ok=True)
    for split, tokens in (("train", 1_000_000), ("val", 100_000)):
        rng.integers(0, len(chars), tokens).astype(np.uint16).tofile(os.path.join(nanogpt, f"{split}.bin"))
    with open(os.path.join(nanogpt, "meta.pkl"), "wb") as handle:
        pickle.dump({"vocab_size": len(chars), "itos": dict(enumerate(chars)),
                     "stoi": {c: i for i, c in enumerate(chars)}}, handle)
    if os.path.isdir(os.path.join(SRC, "mingpt")):  # a source not extracted (`extract MIRRORS NAME ...`) gets no data
        with open(os.path.join(SRC, "mingpt", "projects", "chargpt", "input.txt"), "w", encoding="utf-8") as handle:
            handle.write("".join(rng.choice(chars, 1_000_000)))
    _wikitext2(os.path.join(SRC, "examples", "word_language_model", "data", "wikitext-2"), rng)
    _hf_clm(os.path.join(SRC, "transformers", "examples", "pytorch", "language-modeling", "data"), rng)
    mnist = os.path.join(SRC, "examples", "data")
    _mnist(mnist)
    # The Lightning examples read MNIST under examples/Datasets and, through the demos' helper, ./data.
    lightning = os.path.join(SRC, "lightning", "examples")
    for place in ("Datasets", "pytorch/basics/data", "pytorch/domain_templates/data"):
        _link(os.path.join(mnist, "MNIST"), os.path.join(lightning, place, "MNIST"))
    _link(os.path.join(mnist, "MNIST"), os.path.join(SRC, "lightning", "Datasets", "MNIST"))  # the Fabric example's
    _link(os.path.join(mnist, "MNIST"), os.path.join(SRC, "ddpm_mnist", "data", "MNIST"))
    _link(os.path.join(mnist, "MNIST"), os.path.join(SRC, "pytorch_tutorial", "tutorials", "data", "MNIST"))  # '../../data/'
    _link(os.path.join(mnist, "MNIST"), os.path.join(SRC, "examples", "mnist_forward_forward", "data", "MNIST"))
    _link(os.path.join(mnist, "MNIST"), os.path.join(SRC, "pytorch_gan", "data", "mnist", "MNIST"))  # '../../data/mnist'
    if os.path.isdir(os.path.join(SRC, "darts")):
        _link(os.path.join(mnist, "MNIST"), os.path.join(SRC, "darts", "data", "MNIST"))  # './data/'
    for place in ("fabric/language_model", "pytorch/basics"):  # Lightning's WikiText2 demo data set
        _link(os.path.join(SRC, "examples", "word_language_model", "data", "wikitext-2", "train.txt"),
              os.path.join(lightning, place, "data", "wikitext-2.txt"))
    _cora(os.path.join(SRC, "examples", "gat", "cora"), rng)
    ptb = os.path.join(SRC, "pytorch_tutorial", "tutorials", "02-intermediate", "language_model", "data", "train.txt")
    if os.path.isdir(os.path.join(SRC, "pytorch_tutorial")) and not os.path.exists(ptb):
        _ptb(ptb, rng)
    if os.path.isdir(os.path.join(SRC, "pyg")):
        for prefix, sizes in PLANETOID.items():
            folder = os.path.join(SRC, "pyg", "data", "Planetoid", {"cora": "Cora", "pubmed": "PubMed"}[prefix], "raw")
            if not os.path.exists(os.path.join(folder, f"ind.{prefix}.test.index")):
                _planetoid(folder, prefix, sizes, rng)
    lightning_imagenet = (lambda folder, rng: _imagefolder(folder, rng, "val"))
    # vicreg's GradScaler skips each step whose fp16 gradients overflow, as the first ones do at its initial
    # scale: 2,048 photos, so that the GPU run reaches two optimizer steps within its one epoch.
    vicreg_imagenet = (lambda folder, rng: _imagefolder(folder, rng, train=2048))
    for name, make, folder in (("pytorch_unet", _carvana, "data"), ("yolov7", _yolo, "synth"),
                               ("timm", _imagefolder, "synth_imagenet"),
                               ("lightning", lightning_imagenet, "examples/pytorch/domain_templates/synth_imagenet"),
                               ("pygcn", _cora, "data/cora"),
                               ("diffusers", _photos, "examples/unconditional_image_generation/synth_images"),
                               ("examples", _bsds300, "super_resolution/dataset/BSDS300/images"),
                               ("pytorch_gan", _monet2photo, "data/monet2photo"),
                               ("pointnet", _modelnet40, "data/modelnet40_normal_resampled"),
                               ("deit", lightning_imagenet, "synth_imagenet"), ("dit", _imagefolder, "synth_images"),
                               ("vicreg", vicreg_imagenet, "synth_imagenet")):
        if os.path.isdir(os.path.join(SRC, name)) and not os.path.exists(os.path.join(SRC, name, folder)):
            make(os.path.join(SRC, name, folder), rng)
    # Scripts that read their data from their own folder (or one they name): made where a file it holds is missing.
    for name, make, folder, made in (("ssd_tutorial", _voc_ssd, ".", "TRAIN_objects.json"),
                                     ("captioning", _coco_captions, ".", "torch_home/hub/checkpoints/resnet101-63fe2227.pth"),
                                     ("examples", _coco_style, "fast_neural_style", "synth_coco"),
                                     ("dit", _sd_vae, ".", "hf_home/hub/models--stabilityai--sd-vae-ft-ema/refs/main"),
                                     ("llama2c", _tinystories, ".", "data/TinyStories_all_data/data02.bin"),
                                     ("accelerate", _pets, "examples", "hf_home/hub/models--timm--resnet50d.ra2_in1k/refs/main"),
                                     ("sasrec", _ml1m_sasrec, "python/data", "ml-1m.txt"),
                                     ("rtvc", _sv2tts, "datasets_root/SV2TTS/synthesizer", "train.txt"),
                                     ("convtasnet", _wsj0_2mix, "egs/wsj0/data", "cv/s2.json"),
                                     ("open_clip", _cc_csv, "src/synth_cc", "train.csv")):
        root = os.path.normpath(os.path.join(SRC, name, folder))
        if os.path.isdir(os.path.join(SRC, name)) and not os.path.exists(os.path.join(root, made)):
            make(root, rng)
    fastspeech2 = os.path.join(SRC, "fastspeech2")
    if os.path.isdir(fastspeech2) and not os.path.exists(os.path.join(fastspeech2, "preprocessed_data", "LJSpeech", "train.txt")):
        _fastspeech2(fastspeech2, rng)
    print("synthetic data written under", os.path.relpath(SRC))


if __name__ == "__main__":
    if sys.argv[1:2] == ["extract"] and len(sys.argv) >= 3:
        extract(sys.argv[2], sys.argv[3:])
    elif sys.argv[1:] == ["data"]:
        data()
    else:
        sys.exit(__doc__)
