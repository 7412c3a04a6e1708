#!/usr/bin/env python3
"""The peer for bench_validate: Debian's python3-jsonschema validating the
same objects against the same CRD schemas. The YAML is parsed first (not
timed as validation) so the figure is validation alone."""
import glob
import importlib.metadata
import sys
import time

import jsonschema
import yaml


def to_jsonschema(s):
    # OpenAPI v3 structural schema -> JSON Schema draft 4 for jsonschema:
    # int-or-string and nullable have no direct equivalent.
    if isinstance(s, dict):
        out = {k: to_jsonschema(v) for k, v in s.items() if not k.startswith("x-kubernetes-") and k != "nullable"}
        if s.get("x-kubernetes-int-or-string"):
            out.pop("type", None)
            out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
        if s.get("nullable") and "type" in out:
            out["type"] = [out["type"], "null"]
        return out
    if isinstance(s, list):
        return [to_jsonschema(v) for v in s]
    return s


def main():
    objects_file, crd_dir = sys.argv[1], sys.argv[2]
    validators = {}
    for f in sorted(glob.glob(crd_dir + "/*.yaml")):
        for crd in yaml.safe_load_all(open(f)):
            if not crd or crd.get("kind") != "CustomResourceDefinition":
                continue
            for v in crd["spec"]["versions"]:
                schema = to_jsonschema(v["schema"]["openAPIV3Schema"])
                key = (crd["spec"]["group"] + "/" + v["name"], crd["spec"]["names"]["kind"])
                validators[key] = jsonschema.Draft4Validator(schema)
    t0 = time.perf_counter()
    docs = [d for d in yaml.load_all(open(objects_file), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) if d]
    parse_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    errors = 0
    for d in docs:
        v = validators.get((d["apiVersion"], d["kind"]))
        if v:
            errors += sum(1 for _ in v.iter_errors(d))
    validate_s = time.perf_counter() - t1
    version = importlib.metadata.version("jsonschema")
    print(f"python3-jsonschema {version}: {len(docs)} objects, {errors} errors")
    print(f"python parse (libyaml): {parse_s:.3f} s")
    print(f"validate-seconds: {validate_s:.3f}")
    print(f"python3-jsonschema validate: {len(docs) / validate_s:.0f} objects/s")


if __name__ == "__main__":
    main()
