"""The value-flow layer: what values are, what functions do with them.

* `library`: what third-party calls do to a value (its history, where it
  lives, what it is), as one table a reviewer can read like a stub file;
* `values`: the abstract value a flow fact is stated in;
* `summaries`: per function of the file, what it returns and what it does
  with its parameters (keeps, sanitizes, backwards), computed lazily from
  the function's body and the summaries of the functions it calls.
"""
