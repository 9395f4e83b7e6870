#!/usr/bin/env python3
"""Every example in the OpenAPI document validates against its own schema.

Walks the document (committed `openapi/openapi.json`, or the file given),
finds every schema object that carries `example` or `examples` (components,
their properties, parameters) and validates each example against that schema,
with `$ref`s resolved in the whole document (JSON Schema 2020-12, as OpenAPI
3.1 uses). Prints `N passed, M failed` and exits 1 on any failure.
"""

import json
import sys

import jsonschema


def schemas(node, path):
    """Yield (path, schema) for every schema object below `node`."""
    if isinstance(node, dict):
        if ("example" in node or "examples" in node) and (
            "type" in node or "$ref" in node or "properties" in node or "enum" in node or "oneOf" in node
        ):
            yield path, node
        for key, value in node.items():
            yield from schemas(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from schemas(value, f"{path}/{i}")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "openapi/openapi.json"
    with open(path) as f:
        doc = json.load(f)
    passed, failed = 0, 0
    for where, schema in schemas(doc.get("components", {}), "#/components"):
        examples = list(schema.get("examples", []))
        if "example" in schema:
            examples.append(schema["example"])
        root = {k: v for k, v in schema.items() if k not in ("example", "examples")}
        root["components"] = doc["components"]
        validator = jsonschema.Draft202012Validator(root)
        for example in examples:
            errors = list(validator.iter_errors(example))
            if errors:
                failed += 1
                print(f"FAILED {where}: {json.dumps(example)[:120]}: {errors[0].message}")
            else:
                passed += 1
    for route, item in doc.get("paths", {}).items():
        for method, op in item.items():
            for param in op.get("parameters", []) if isinstance(op, dict) else []:
                schema = param.get("schema", {})
                for example in [param[k] for k in ("example",) if k in param] + list(schema.get("examples", [])):
                    root = dict(schema, components=doc["components"])
                    root.pop("examples", None)
                    errors = list(jsonschema.Draft202012Validator(root).iter_errors(example))
                    if errors:
                        failed += 1
                        print(f"FAILED {method.upper()} {route} {param['name']}: {errors[0].message}")
                    else:
                        passed += 1
    print(f"examples: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
