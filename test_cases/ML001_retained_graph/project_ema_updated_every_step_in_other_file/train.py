from ema import EMA, DetachedEMA, FrozenTeacherEMA, NoGradEMA, OnceEMA, StateDictEMA


def train(model, loader, optimizer):
    ema = EMA(model)
    detached = DetachedEMA(model)
    no_grad = NoGradEMA(model)
    state = StateDictEMA(model)
    teacher = FrozenTeacherEMA(model)
    for x in loader:
        loss = model(x).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        ema.update(model)
        detached.update(model)
        no_grad.update(model)
        state.update(model)
        teacher.update(model)
    once = OnceEMA(model)
    once.update(model)
    return once
