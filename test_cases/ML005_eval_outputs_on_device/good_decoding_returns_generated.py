# Autoregressive decoding of ONE batch: each step's output feeds the next step and the per-step
# outputs are concatenated into the generated sequence the function returns (fairseq's
# AutoRegressiveSpeechGenerator): bounded by the length asked for, and the result.
import torch


class Generator:
    @torch.no_grad()
    def generate(self, model, sample):
        model.eval()
        encoder_out = model.forward_encoder(sample["src_tokens"])
        feat = []
        prev = encoder_out.new_zeros(len(sample["id"]), 1, self.out_dim)
        for step in range(self.max_iter):
            out = model.forward_decoder(prev, encoder_out=encoder_out)
            feat.append(out)
            prev = out
        return torch.cat(feat, dim=1)
