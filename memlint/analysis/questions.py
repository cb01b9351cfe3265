"""The words of the questions a file's analysis asks the project about names other files define:
a name as written (`get_reward`), a base class (`base:Trainer`), or how other files call a
function of the file's own (`callers:validation`). Both sides read them: the analysis that asks
(analysis/flow/project_facts.py) and the index that answers (project_index.py)."""

# The question a file asks about a function of its own: how other files call it (`callers:validation`).
CALLERS = "callers:"
