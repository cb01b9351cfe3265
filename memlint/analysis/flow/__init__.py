"""The value-flow layer: what values are, where they come from, what functions do with them.

* `values`: the abstract value a flow fact is stated in;
* `bindings`: which part of an assigned value a name receives (`a, b = f(x)`);
* `provenance`: which values may carry autograd history and which tensors live
  on the device, from the library models (`analysis/library.py`) and summaries;
* `module_facts`, `object_kinds`: whether a callee is a module, what a
  parameter, an annotation or a return value holds, from what the code does;
* `summaries`: per function of the file, what it returns and what it does
  with its parameters (keeps, passes through, runs a model it is handed),
  computed lazily from the function's body and the summaries of the
  functions it calls, and the few facts other files' findings rest on
  (`exported`, joined by `project_index.ProjectIndex`);
* `combined`, `consumers`: which collected values are combined later, and
  what the code after a loop does with what it collected.
"""
