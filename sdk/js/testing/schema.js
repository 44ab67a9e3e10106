/**
 * Just enough JSON Schema to check replies against the protocol's own schemas
 * (botapi/schemas/ in the Harbormaster checkout), with no dependency. A
 * keyword it does not know is an error, never silently passed.
 */
import { existsSync, readFileSync } from "node:fs";

export const SCHEMAS = new URL("../../../botapi/schemas/", import.meta.url);
export const haveSchemas = existsSync(SCHEMAS);

const ANNOTATIONS = new Set(["$schema", "$id", "title", "description", "examples", "$comment", "$defs"]);

function load(file) {
  return JSON.parse(readFileSync(new URL(file, SCHEMAS), "utf8"));
}

function resolve(ref, file) {
  const [target, pointer = ""] = ref.split("#");
  const document = target ? load(target) : load(file);
  let node = document;
  for (const part of pointer.split("/").filter(Boolean)) node = node[part];
  return { schema: node, file: target || file };
}

const TYPES = {
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  array: Array.isArray,
  string: (v) => typeof v === "string",
  integer: Number.isInteger,
  number: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
};

function problems(value, schema, file, path) {
  const found = [];
  for (const [keyword, rule] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    switch (keyword) {
      case "$ref": {
        const target = resolve(rule, file);
        found.push(...problems(value, target.schema, target.file, path));
        break;
      }
      case "type":
        if (!TYPES[rule](value)) found.push(`${path}: not ${rule}`);
        break;
      case "required":
        if (TYPES.object(value))
          for (const name of rule) if (!(name in value)) found.push(`${path}: no ${name}`);
        break;
      case "properties":
        if (TYPES.object(value)) {
          for (const [name, sub] of Object.entries(rule)) {
            if (name in value) found.push(...problems(value[name], sub, file, `${path}.${name}`));
          }
        }
        break;
      case "minLength":
        if (typeof value === "string" && [...value].length < rule)
          found.push(`${path}: shorter than ${rule}`);
        break;
      case "maxLength":
        if (typeof value === "string" && [...value].length > rule) found.push(`${path}: longer than ${rule}`);
        break;
      case "minimum":
        if (typeof value === "number" && value < rule) found.push(`${path}: below ${rule}`);
        break;
      case "oneOf": {
        const passing = rule.filter((sub) => problems(value, sub, file, path).length === 0).length;
        if (passing !== 1) found.push(`${path}: matches ${passing} of oneOf, not exactly 1`);
        break;
      }
      default:
        throw new Error(`testing/schema.js does not know the keyword ${keyword} (${file})`);
    }
  }
  return found;
}

/** What is wrong with `value` under the protocol schema `name` (e.g. "ping-reply"); [] if fine. */
export function validate(name, value) {
  const file = `${name}.schema.json`;
  return problems(value, load(file), file, "reply");
}
