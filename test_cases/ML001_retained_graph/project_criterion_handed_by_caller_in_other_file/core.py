# Linted as one project with stopping.py and fit.py: the criterion each loop calls is a parameter, and
# what calling it keeps is decided by the objects fit.py hands it. `minimize` is handed a criterion
# that keeps the loss it is given (its graph skeleton, every step); `minimize_to` one that reads a
# number from it.


def minimize(model, x, optimizer, step_limit=100, stopping_criterion=None):
    for _ in range(step_limit):
        optimizer.zero_grad()
        fval = model(x).mean()
        fval.backward()
        optimizer.step()
        if stopping_criterion and stopping_criterion(fval):  # expect: ML001
            break


def minimize_to(model, x, optimizer, criterion, step_limit=100):
    for _ in range(step_limit):
        optimizer.zero_grad()
        fval = model(x).mean()
        fval.backward()
        optimizer.step()
        if criterion(fval):
            break
