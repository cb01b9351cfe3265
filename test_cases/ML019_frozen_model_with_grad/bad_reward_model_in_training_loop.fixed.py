# A reward model scoring sampled token ids in the PPO loop: its graph is recorded for nothing.
import torch
from transformers import AutoModelForSequenceClassification


def train(policy, loader, optimizer):
    reward_model = AutoModelForSequenceClassification.from_pretrained("OpenAssistant/reward-model-deberta-v3-base")
    reward_model.eval()
    for batch in loader:
        with torch.no_grad():
            rewards = reward_model(batch["input_ids"]).logits[:, 0]  # expect: ML019
        logprobs = policy(batch["input_ids"]).logits.log_softmax(-1)
        loss = -(rewards * logprobs.mean((-1, -2))).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
