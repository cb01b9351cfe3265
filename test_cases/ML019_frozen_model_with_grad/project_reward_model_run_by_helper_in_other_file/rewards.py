# Linted as one project with trainer.py: helpers that run the model they are handed. `get_reward`
# runs a part of it that it looks up by name (`getattr` on a parameter annotated as a module).
import torch


def get_reward(model: torch.nn.Module, query_responses, pad_token_id):
    attention_mask = query_responses != pad_token_id
    backbone = getattr(model, model.base_model_prefix)
    output = backbone(input_ids=query_responses, attention_mask=attention_mask)
    return model.score(output.hidden_states[-1])


def fit_reward(model, query_responses, labels, optimizer):
    loss = (model(query_responses) - labels).pow(2).mean()
    loss.backward()
    optimizer.step()



def prepare_for_inference(model, device):
    engine = torch.compile(model.to(device))
    engine.eval()
    return engine


def prepare_for_fine_tuning(model, device):
    model = model.to(device)
    model.train()
    return model
