# Linted as one project with train.py: what the flattened mapping holds is a fact of this file.
# `flatten_dict` fills `flat` through its inner `rec`, which sets the entries of the mapping it is
# handed into it: it returns its argument's values, with their history. `flatten_floats` sets
# floats; `flatten_keys` sets only the keys.
from collections.abc import Mapping


def flatten_dict(nested, sep="/"):
    def rec(nest, prefix, into):
        for k, v in nest.items():
            if isinstance(v, Mapping):
                rec(v, prefix + k + sep, into)
            else:
                into[prefix + k] = v

    flat = {}
    rec(nested, "", flat)
    return flat


def flatten_floats(nested, sep="/"):
    def rec(nest, prefix, into):
        for k, v in nest.items():
            if isinstance(v, Mapping):
                rec(v, prefix + k + sep, into)
            else:
                into[prefix + k] = float(v)

    flat = {}
    rec(nested, "", flat)
    return flat


def flatten_keys(nested, sep="/"):
    def rec(nest, prefix, into):
        for k in nest:
            into.append(prefix + str(k))

    flat = []
    rec(nested, "", flat)
    return flat
