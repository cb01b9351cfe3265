# The same helper without its `no_grad`: its definition says it runs the network it is handed with
# grad on, so the evaluation loop that calls it records a graph for every environment.


def eeco_test_network(network, test_env, steps):
    def predict(states):
        return network(states).argmax(-1)  # expect: ML003

    state = test_env.reset()
    for _ in range(steps):
        state = test_env.step(predict(state))
    return test_env.best_cut().item()
