import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { escapeRegex } from '../../src/util/escape-regex.js';

/**
 * Checks requests against GitHub's own OpenAPI description (@octokit/openapi): the operation
 * must exist, its query parameters must be declared, and the JSON body must match the schema.
 */

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal path segments: the more, the more specific the template. */
  literals: number;
  queryParams: Set<string>;
  bodySchema: unknown;
  bodyRequired: boolean;
  validate?: ValidateFunction;
  /** Schema of a 200 JSON answer, when the operation has one. */
  okSchema: unknown;
  validateOk?: ValidateFunction;
}

interface SpecIndex {
  byMethod: Map<string, Operation[]>;
  ajv: Ajv;
}

let index: SpecIndex | null = null;

/** The spec is 70 MB: parsed once per test file, keeping only what requests are checked against. */
function loadIndex(): SpecIndex {
  if (index) return index;
  const require = createRequire(import.meta.url);
  const file = require.resolve('@octokit/openapi/generated/api.github.com.deref.json');
  const spec = JSON.parse(readFileSync(file, 'utf8')) as {
    paths: Record<string, Record<string, RawOperation>>;
  };
  const byMethod = new Map<string, Operation[]>();
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const op: Operation = {
        method: method.toUpperCase(),
        template,
        pattern: templateToRegExp(template),
        literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
        queryParams: new Set((raw.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)),
        bodySchema: raw.requestBody?.content?.['application/json']?.schema,
        bodyRequired: raw.requestBody?.required === true,
        okSchema: raw.responses?.['200']?.content?.['application/json']?.schema,
      };
      const list = byMethod.get(op.method) ?? [];
      list.push(op);
      byMethod.set(op.method, list);
    }
  }
  for (const list of byMethod.values()) list.sort((a, b) => b.literals - a.literals);
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/);
  ajv.addFormat('uri', (s: string) => URL.canParse(s));
  index = { byMethod, ajv };
  return index;
}

interface RawOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

function templateToRegExp(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (!part.startsWith('{')) return escapeRegex(part);
      // A file path spans segments; every other parameter is one segment.
      return part === '{path}' ? '(.+)' : '([^/]+)';
    })
    .join('');
  return new RegExp(`^${source}$`);
}

export interface OperationMatch {
  template: string;
  /** Problems with the request; empty when it is one GitHub would accept. */
  problems: string[];
}

/** Finds the operation for a request and lists what GitHub's schema says is wrong with it. */
export function checkRequest(method: string, path: string, query: URLSearchParams, body: unknown): OperationMatch | null {
  const { byMethod, ajv } = loadIndex();
  const op = byMethod.get(method.toUpperCase())?.find((o) => o.pattern.test(path));
  if (!op) return null;
  const problems: string[] = [];
  for (const name of query.keys()) {
    if (!op.queryParams.has(name)) problems.push(`query parameter "${name}" is not in the spec`);
  }
  if (body === undefined) {
    if (op.bodyRequired) problems.push('request body is required');
  } else if (op.bodySchema === undefined) {
    problems.push('operation takes no JSON body');
  } else {
    op.validate ??= ajv.compile(openApiToJsonSchema(op.bodySchema) as object);
    if (!op.validate(body)) {
      for (const e of op.validate.errors ?? []) {
        problems.push(`body${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
      }
    }
  }
  return { template: op.template, problems };
}

/** What GitHub's schema says is wrong with a fake's 200 JSON answer to a request; a test checks its routes with it. */
export function checkResponse(method: string, path: string, body: unknown): string[] {
  const { byMethod, ajv } = loadIndex();
  const op = byMethod.get(method.toUpperCase())?.find((o) => o.pattern.test(path));
  if (!op) return [`${method} ${path}: no such operation in GitHub's OpenAPI description`];
  if (op.okSchema === undefined) return [`${op.template}: no JSON answer of status 200 in the spec`];
  op.validateOk ??= ajv.compile(openApiToJsonSchema(op.okSchema) as object);
  if (op.validateOk(body)) return [];
  return (op.validateOk.errors ?? []).map((e) => `answer${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
}

/** OpenAPI 3.0's `nullable` is not JSON Schema: turn it into a `null` type alternative. */
export function openApiToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApiToJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    // `properties` maps names to schemas; its keys are not keywords.
    out[key] =
      key === 'properties' || key === 'patternProperties'
        ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, openApiToJsonSchema(v)]))
        : openApiToJsonSchema(value);
  }
  if (nullable !== true) return out;
  return { anyOf: [out, { type: 'null' }] };
}
