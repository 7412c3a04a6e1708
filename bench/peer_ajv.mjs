// The peer for bench_peer_validate: Node's ajv + js-yaml validating the
// same objects against the same CRD schemas, timed as a process does it:
// reading and parsing the YAML, then validating every object.
//   node peer_ajv.mjs OBJECTS.yaml CRD_DIR
// Prints "ajv <version>: N objects, E errors", the parse and validate
// seconds, and "total-seconds: T" (parse + validate, schemas compiled
// before the clock starts, as queueforge compiles its own lazily).
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(process.env.QF_PEER_MODULES + '/');
const Ajv = require('ajv');
const yaml = require('js-yaml');
const ajvVersion = require('ajv/package.json').version;

// OpenAPI v3 structural schema -> JSON Schema for ajv: int-or-string and
// nullable have no direct equivalent; x-kubernetes-* extensions are dropped.
function toJsonSchema(s) {
  if (Array.isArray(s)) return s.map(toJsonSchema);
  if (s === null || typeof s !== 'object') return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-kubernetes-') || k === 'nullable') continue;
    out[k] = toJsonSchema(v);
  }
  if (s['x-kubernetes-int-or-string']) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (s.nullable && out.type) out.type = [out.type, 'null'];
  return out;
}

const [objectsFile, crdDir] = process.argv.slice(2);
// Kubernetes patterns are Go regular expressions: (?i) is a flag there.
function goRegExp(str, flags) {
  if (str.includes('(?i)')) return new RegExp(str.replaceAll('(?i)', ''), (flags || '') + 'i');
  return new RegExp(str, flags);
}
goRegExp.code = 'goRegExp';
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, code: { regExp: goRegExp } });
const validators = new Map();
for (const f of readdirSync(crdDir).filter((n) => n.endsWith('.yaml')).sort()) {
  for (const crd of yaml.loadAll(readFileSync(join(crdDir, f), 'utf8'))) {
    if (!crd || crd.kind !== 'CustomResourceDefinition') continue;
    for (const v of crd.spec.versions) {
      const key = `${crd.spec.group}/${v.name} ${crd.spec.names.kind}`;
      validators.set(key, ajv.compile(toJsonSchema(v.schema.openAPIV3Schema)));
    }
  }
}

const t0 = process.hrtime.bigint();
const docs = yaml.loadAll(readFileSync(objectsFile, 'utf8')).filter((d) => d);
const t1 = process.hrtime.bigint();
let errors = 0;
for (const d of docs) {
  const v = validators.get(`${d.apiVersion} ${d.kind}`);
  if (v && !v(d)) errors += v.errors.length;
}
const t2 = process.hrtime.bigint();
const s = (a, b) => Number(b - a) / 1e9;
console.log(`ajv ${ajvVersion} + js-yaml: ${docs.length} objects, ${errors} errors`);
console.log(`parse-seconds: ${s(t0, t1).toFixed(3)}`);
console.log(`validate-seconds: ${s(t1, t2).toFixed(3)}`);
console.log(`total-seconds: ${s(t0, t2).toFixed(3)}`);
