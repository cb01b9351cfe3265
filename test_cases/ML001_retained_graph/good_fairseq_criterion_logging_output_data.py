# The criterion logs the loss's data: the Trainer keeps a tensor without a graph (the returned loss
# itself is what the task backwards, not kept).
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
            "loss": loss.data,
            "ntokens": sample["ntokens"],
            "sample_size": sample_size,
        }
        return loss, sample_size, logging_output
