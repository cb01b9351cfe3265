# A fairseq criterion: the Trainer keeps the logging output of every micro-batch until the update
# and sums it into the epoch's meters, so a loss put there with its graph keeps the graph's skeleton
# (and the loss tensor on the device) for every step.
import torch.nn.functional as F
from fairseq.criterions import FairseqCriterion, register_criterion


@register_criterion("masked_lm")
class MaskedLmLoss(FairseqCriterion):
    def forward(self, model, sample, reduce=True):
        logits = model(**sample["net_input"])[0]
        targets = model.get_targets(sample, [logits])
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), reduction="sum")
        sample_size = targets.numel()
        logging_output = {
            "loss": loss,  # expect: ML001
            "ntokens": sample["ntokens"],
            "sample_size": sample_size,
        }
        return loss, sample_size, logging_output
