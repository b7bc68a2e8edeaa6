#!/usr/bin/python3
"""validate_json.py SCHEMA FILE [--with SCHEMA]...: FILE against SCHEMA (JSON Schema 2020-12),
with python3-jsonschema, an implementation independent of esframe. --with makes another schema
resolvable by its $id (a schema that refers to it). Exit 0 when valid; else 1 and why."""
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(argv[1]))
    document = json.load(open(argv[2]))
    store = {}
    rest = argv[3:]
    while rest:
        if rest[0] != "--with" or len(rest) < 2:
            print(__doc__, file=sys.stderr)
            return 2
        extra = json.load(open(rest[1]))
        store[extra["$id"]] = extra
        rest = rest[2:]
    validator = jsonschema.Draft202012Validator(
        schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    for e in errors[:5]:
        print(f"{argv[2]}: {'/'.join(map(str, e.path)) or '(top)'}: {e.message}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
