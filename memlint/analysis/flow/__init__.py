"""The value-flow layer: what values are, what functions do with them.

* `library`: what third-party calls do to a value (its history, where it
  lives, what it is), as one table a reviewer can read like a stub file;
* `values`: the abstract value a flow fact is stated in;
* `bindings`: which part of an assigned value a name receives (`a, b = f(x)`);
* `summaries`: per function of the file, what it returns and what it does
  with its parameters (keeps, passes through, runs a model it is handed),
  computed lazily from the function's body and the summaries of the
  functions it calls, and the few facts other files' findings rest on
  (`exported`, joined by `project.ProjectIndex`).

`library`, `values` and `bindings` depend on nothing of the analysis;
`summaries` asks the file's `provenance` and `loops`, which ask it back
through `SemanticModel.summaries` (no import circle).
"""
