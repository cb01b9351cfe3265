from erl_run import train_agent, valid_agent


def run(agent, env):
    train_agent(agent, env, steps=1000)
    if input("render? ") == "y":
        valid_agent(env, agent.act, times=8)
