# The same step, where only the GAN loss is backwarded: the sum of the dict of losses, feature-matching
# loss and all, is kept in a list across steps with its graph, which no backward frees. (Compare
# good_feature_matching_loss_summed_from_dict_of_losses.py.)
#
# The look-alike: a pix2pixHD-style feature-matching loss next to a frozen network, summed over the
# discriminators' layers in inner loops (when the option asks for it), put in the step's dict of
# losses, and backwarded with the others through `sum(losses.values())` in the same step. Nothing
# outlives the step. (Compare bad_feature_matching_loss_summed_only_for_the_log.py.)
import torch
from torch import nn


def train(opt, parser, generator, discriminator, loader, optimizer):
    parser.eval()
    criterion_feat = nn.L1Loss()
    history = []
    for step in range(opt.steps):
        x, y = loader.next_batch()
        with torch.no_grad():
            parse = parser(x)
        pred = discriminator(torch.cat((generator(x, parse), y), dim=0))
        pred_fake = [[t[: t.size(0) // 2] for t in p] for p in pred]
        pred_real = [[t[t.size(0) // 2 :] for t in p] for p in pred]
        losses = {"gan": -pred_fake[-1][-1].mean()}
        if opt.feat_loss:
            num_d = len(pred_fake)
            feat_loss = torch.zeros(1, device=x.device)
            for i in range(num_d):
                for j in range(len(pred_fake[i]) - 1):
                    unweighted = criterion_feat(pred_fake[i][j], pred_real[i][j].detach())
                    feat_loss += unweighted * opt.lambda_feat / num_d
            losses["feat"] = feat_loss
        history.append(sum(losses.values()).mean().detach())  # expect: ML001
        loss = losses["gan"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
