// Conformance of exchanges to the hosted service's OpenAPI document (its copy, hosted-openapi.json,
// beside this file): every answer of the embedded service, and
// every request body the CLI sends, must have exactly the document's shapes. Our departures are
// allowed only through EXTENSIONS (extensions.ts).
import fs from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import type { Exchange } from '../../src/server/index.js';
import { EXTENSIONS, type Extension } from './extensions.js';

export { EXTENSIONS, type Extension };

type Json = Record<string, any>;

const doc: Json = JSON.parse(fs.readFileSync(new URL('./hosted-openapi.json', import.meta.url), 'utf8'));
const SCHEMA_REF = '#/components/schemas/';
const HOSTED = 'hosted';
const DEF = `${HOSTED}#/$defs/`;
const HTTP_METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options']);

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const mapValues = (o: Json, f: (v: any) => unknown): Json =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/**
 * A document schema made ready for ajv: refs pointed at our copy of the components; `nullable`
 * (OpenAPI 3.0 style, which this 3.1 document still uses) turned into a null type; every object
 * schema that names its properties closed, so an unnamed field is a failure ("exactly its shapes").
 */
function prepare(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prepare);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'example') continue; // nullable: below; example: annotation ajv does not know
    if (key === 'properties') out[key] = mapValues(value, prepare);
    else if (key === '$ref' && typeof value === 'string') out[key] = value.replace(SCHEMA_REF, DEF);
    else out[key] = prepare(value);
  }
  if (out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  if (node.nullable !== true) return out;
  if (typeof out.type === 'string') {
    return { ...out, type: [out.type, 'null'], ...(Array.isArray(out.enum) ? { enum: [...out.enum, null] } : {}) };
  }
  if (typeof out.$ref === 'string') {
    const { $ref, ...rest } = out;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  return out;
}

/**
 * PUT profile/soul/model/skills answer with an `example` and
 * no `schema`: a closed schema from its keys and value types.
 */
function fromExample(value: unknown): Json {
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) return value.length ? { type: 'array', items: fromExample(value[0]) } : { type: 'array' };
  if (isObject(value))
    return { type: 'object', properties: mapValues(value, fromExample), additionalProperties: false };
  return { type: typeof value === 'number' ? 'number' : typeof value };
}

const defs: Json = mapValues(doc.components.schemas, prepare);
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
((formatsPlugin as any).default ?? formatsPlugin)(ajv);
ajv.addSchema({ $id: HOSTED, $defs: defs });

const compiled = new Map<string, ValidateFunction>();
function validator(key: string, build: () => unknown): ValidateFunction {
  let v = compiled.get(key);
  if (!v) compiled.set(key, (v = ajv.compile(build() as Json)));
  return v;
}

/** A prepared schema with its top-level `$ref` (if any) inlined, so properties can be added to it. */
function inlined(schema: Json): Json {
  const ref =
    typeof schema.$ref === 'string' && schema.$ref.startsWith(DEF) ? schema.$ref.slice(DEF.length) : undefined;
  return structuredClone(ref ? defs[ref] : schema);
}

/** The document's Error; on 429 also `retryAfter` and `resetAt` (docs/api.md, Errors). */
function errorSchema(status: number): Json {
  const error = inlined({ $ref: `${DEF}Error` });
  if (status === 429)
    error.properties = {
      ...error.properties,
      retryAfter: { type: 'integer' },
      resetAt: { type: 'string', format: 'date-time' },
    };
  return error;
}

interface Route {
  method: string;
  template: string;
  regex: RegExp;
  op: Json;
}

// literal templates first, so `/v1/agents/suggest` is never read as `/v1/agents/{agent_id}`
const ROUTES: Route[] = Object.entries(doc.paths as Json)
  .flatMap(([template, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => HTTP_METHODS.has(m))
      .map(([m, op]) => ({
        method: m.toUpperCase(),
        template,
        regex: new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
        op: op as Json,
      })),
  )
  .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

function routeOf(method: string, path: string): Route | undefined {
  return ROUTES.find((r) => r.method === method && r.regex.test(path));
}

const extensions = <K extends Extension['kind']>(kind: K) =>
  EXTENSIONS.filter((e): e is Extract<Extension, { kind: K }> => e.kind === kind);
const extraErrorStatus = (status: number) => extensions('error-status').some((e) => e.status === status);
/** a path of ours outside /v1 (the simulated chains): the document says nothing of it, in either direction */
const ownPath = (path: string) =>
  !path.startsWith('/v1/') && extensions('own-path').some((e) => path.startsWith(e.prefix));
const allowsSse = (route: Route) =>
  extensions('sse').some((e) => e.method === route.method && e.path === route.template);

/**
 * The answer's media type. The tap (src/server/observe.ts) reads it with res.getHeader, which misses
 * headers handed to writeHead(status, headers), the way sendJson and SseWriter send theirs; until
 * the tap records those, an unrecorded type is inferred: SSE when the body opens with an SSE field
 * or comment (JSON never does), else JSON (so anything else fails as "not JSON").
 */
function mediaType(ex: Exchange): string {
  if (ex.contentType !== undefined) return ex.contentType.split(';')[0]!.trim().toLowerCase();
  // an answer with a body must say what it is (the tap reads the type from writeHead too)
  return ex.responseBody === '' ? 'application/json' : 'missing';
}

function explain(errors: ErrorObject[] | null | undefined): string {
  const lines = (errors ?? []).map((e) => {
    const at = e.instancePath || '/';
    if (e.keyword === 'additionalProperties')
      return `${at} has a field the document does not name: '${e.params.additionalProperty}'`;
    if (e.keyword === 'enum') return `${at} ${e.message} (${JSON.stringify(e.params.allowedValues)})`;
    return `${at} ${e.message}`;
  });
  return [...new Set(lines)].join('; ');
}

function validateJson(text: string, v: ValidateFunction): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `body is not JSON: ${JSON.stringify(text.slice(0, 80))}`;
  }
  return v(value) ? undefined : explain(v.errors);
}

/**
 * The SSE extension (docs/api.md, Streaming replies): data-only lines, each `[DONE]` or a JSON object
 * with a string `event`.
 */
export function checkSse(text: string): string[] {
  const problems: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    if (line.startsWith('event:')) {
      problems.push(`SSE has an '${line}' line (the stream is data-only; the name goes in the JSON 'event')`);
      continue;
    }
    if (!line.startsWith('data:')) {
      problems.push(`SSE has a line that is not data: ${JSON.stringify(line.slice(0, 80))}`);
      continue;
    }
    const data = line.slice(5).replace(/^ /, '');
    if (data === '[DONE]') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
    if (!isObject(parsed) || typeof parsed.event !== 'string') {
      problems.push(
        `SSE data is neither [DONE] nor a JSON object with a string 'event': ${JSON.stringify(data.slice(0, 80))}`,
      );
    }
  }
  return [...new Set(problems)];
}

/** Problems with the service's answer: its status, content type and body. */
export function checkResponse(ex: Exchange): string[] {
  if (ownPath(ex.path)) return [];
  const route = routeOf(ex.method, ex.path);
  const where = `${ex.method} ${route?.template ?? ex.path} → ${ex.status}`;
  const problem = (p: string) => [`${where}: ${p}`];
  const media = mediaType(ex);
  if (media === 'text/event-stream') {
    if (ex.status === 200 && route && allowsSse(route)) return checkSse(ex.responseBody).map((p) => `${where}: ${p}`);
    return problem('a text/event-stream answer neither the document nor the extension list allows');
  }
  if (media === 'missing') return problem('an answer with a body but no Content-Type');
  let v: ValidateFunction;
  if (!route) {
    // unknown routes (tests probe them on purpose) may only be refused, with an Error body
    if (!extraErrorStatus(ex.status)) return problem('the document has no such route');
    v = validator(`error ${ex.status}`, () => errorSchema(ex.status));
  } else {
    let answer: Json | undefined = route.op.responses?.[String(ex.status)];
    if (typeof answer?.$ref === 'string') answer = doc.components.responses[answer.$ref.split('/').pop()!];
    const content: Json | undefined = answer?.content?.['application/json'];
    const key = `${route.method} ${route.template} ${ex.status}`;
    if (content?.schema) v = validator(key, () => prepare(content.schema));
    else if (content && 'example' in content) v = validator(key, () => fromExample(content.example));
    // listed without a body (e.g. 403, 504), or not listed but in the extension list: the document's Error
    else if ((answer && ex.status >= 400) || (!answer && extraErrorStatus(ex.status)))
      v = validator(`error ${ex.status}`, () => errorSchema(ex.status));
    else if (answer) return problem('the document gives no body for this status');
    else
      return problem(
        `status not documented for this route (documented: ${Object.keys(route.op.responses ?? {}).join(', ')})`,
      );
  }
  if (media !== 'application/json') return problem(`content type ${ex.contentType ?? '(none)'}, not application/json`);
  const failure = validateJson(ex.responseBody, v);
  return failure ? problem(failure) : [];
}

/** Problems with a request body the CLI sent (other callers are never request-validated). */
export function checkRequest(ex: Exchange): string[] {
  if (!ex.userAgent?.startsWith('superagent/') || ownPath(ex.path)) return [];
  const route = routeOf(ex.method, ex.path);
  if (!route) return [`${ex.method} ${ex.path} (CLI request): the document has no such route`];
  const where = `${ex.method} ${route.template} (CLI request)`;
  const spec: Json | undefined = route.op.requestBody;
  const body = ex.requestBody ?? '';
  if (body.trim() === '') return spec?.required ? [`${where}: no body, and the document requires one`] : [];
  const schema = spec?.content?.['application/json']?.schema;
  if (!schema) return [`${where}: sends a body the document does not take here`];
  const v = validator(`${where}`, () => {
    const prepared = inlined(prepare(schema) as Json);
    for (const e of extensions('request-field')) {
      if (e.method === route.method && e.path === route.template)
        prepared.properties = { ...prepared.properties, [e.field]: e.schema };
    }
    return prepared;
  });
  const failure = validateJson(body, v);
  return failure ? [`${where}: ${failure}`] : [];
}

export function checkExchange(ex: Exchange): string[] {
  return [...checkRequest(ex), ...checkResponse(ex)];
}
