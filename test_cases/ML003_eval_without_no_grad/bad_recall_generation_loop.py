# A decoding loop: each step runs the model on the token sampled from the last step's logits and
# hands it back the cache it returned. Nothing differentiates and every output ends as an int or goes
# back into the model, so the graph each step records is wanted by nothing (and the cache chains
# every step's graph to the last).
import torch
from transformers import AutoModelForCausalLM


class Worker:
    def __init__(self, name):
        self.model = AutoModelForCausalLM.from_pretrained(name)

    def stream_tokens(self, input_ids, max_new_tokens, temperature):
        output_ids = list(input_ids)
        for i in range(max_new_tokens):
            if i == 0:
                out = self.model(torch.as_tensor([input_ids]), use_cache=True)  # expect: ML003
            else:
                out = self.model(  # expect: ML003
                    input_ids=torch.as_tensor([[token]]), past_key_values=past_key_values, use_cache=True
                )
            logits = out.logits
            past_key_values = out.past_key_values
            probs = torch.softmax(logits[0][-1] / temperature, dim=-1)
            token = int(torch.multinomial(probs, num_samples=1))
            output_ids.append(token)
            yield output_ids
