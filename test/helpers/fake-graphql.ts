import type { FakeRequest, FakeResponse } from './fake-github.js';
import { directoryEntries, gitBlobSha, specialOf } from './fake-repo-trees.js';

/**
 * GitHub's GraphQL endpoint for the one shape of query the App sends: blobs by
 * `repository(owner:, name:) { alias: object(expression: "<ref>:<path>") { __typename ... on Blob { … } } }`,
 * and directories by the same `object` with `... on Tree { entries { name type mode oid } }`,
 * every argument a declared `String!` variable. The `graphql` package is not a dependency, so
 * this is a small strict parser of exactly that shape: anything else (a literal argument, an
 * unknown field, an undeclared or unused variable, a duplicate alias, too many blobs) is refused
 * the way GitHub refuses an invalid query, with HTTP 200 and an `errors` array and no `data`, and
 * is recorded as an error of the fake. Answers follow GitHub's: `text` cut at 512,000 bytes with
 * `isTruncated`, `null` text for a binary blob, `null` for no such object, and a repository it
 * cannot see answered `null` with a NOT_FOUND error at its alias. A symbolic link is its own blob
 * (its target as text), and a submodule, whose commit is another repository's, is `null`; tree
 * entries give their modes (40960 for a link, 57344 and type `commit` for a submodule).
 */

/** GitHub cuts `Blob.text` here and says `isTruncated`. */
export const GRAPHQL_TEXT_LIMIT = 512_000;
/**
 * Blobs one query may ask for. GitHub's own limit is on nodes (500,000) and time, far above what
 * a query without connections reaches; this fake refuses more than the App's chunk so that a
 * chunking mistake fails a test instead of passing unnoticed.
 */
export const FAKE_MAX_OBJECTS = 250;

const BLOB_FIELDS = new Set(['oid', 'byteSize', 'isBinary', 'isTruncated', 'text']);
/** `TreeEntry` fields the fake serves: `mode` is Git's mode as an Int, as GitHub's schema has it. */
const TREE_ENTRY_FIELDS = new Set(['name', 'type', 'mode', 'oid']);

export interface GraphqlRepos {
  /** Files of a repository at a ref (`HEAD`: its default branch); undefined when there is no such ref. */
  filesAt: (owner: string, repo: string, ref: string) => Record<string, string> | undefined;
  exists: (owner: string, repo: string) => boolean;
}

interface ObjectField {
  alias: string;
  expression: string;
  typename: boolean;
  blobFields: string[];
  /** Fields of each `Tree.entries` item asked for; empty when no `... on Tree` was. */
  entryFields: string[];
}

interface RepoField {
  alias: string;
  owner: string;
  name: string;
  objects: ObjectField[];
}

class GraphqlQueryError extends Error {}

/** Answers one POST /graphql; `invalid` is told why a query was refused. */
export function graphqlAnswer(req: FakeRequest, repos: GraphqlRepos, invalid: (why: string) => void): FakeResponse {
  let fields: RepoField[];
  try {
    const { query, variables } = requestBody(req.body);
    fields = parseBlobQuery(query, variables);
  } catch (err) {
    if (!(err instanceof GraphqlQueryError)) throw err;
    invalid(err.message);
    return { body: { errors: [{ message: err.message }] } };
  }
  const data: Record<string, unknown> = {};
  const errors: unknown[] = [];
  for (const r of fields) {
    if (!repos.exists(r.owner, r.name)) {
      data[r.alias] = null;
      errors.push({
        type: 'NOT_FOUND',
        path: [r.alias],
        locations: [{ line: 1, column: 1 }],
        message: `Could not resolve to a Repository with the name '${r.owner}/${r.name}'.`,
      });
      continue;
    }
    const objects: Record<string, unknown> = {};
    for (const o of r.objects) objects[o.alias] = resolveObject(repos, r, o);
    data[r.alias] = objects;
  }
  return { body: errors.length === 0 ? { data } : { data, errors } };
}

function requestBody(body: unknown): { query: string; variables: Record<string, unknown> } {
  if (typeof body !== 'object' || body === null) throw new GraphqlQueryError('A query attribute must be specified and must be a string.');
  const { query, variables = {} } = body as { query?: unknown; variables?: unknown };
  if (typeof query !== 'string') throw new GraphqlQueryError('A query attribute must be specified and must be a string.');
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables))
    throw new GraphqlQueryError('Variables must be an object.');
  return { query, variables: variables as Record<string, unknown> };
}

function resolveObject(repos: GraphqlRepos, r: RepoField, o: ObjectField): unknown {
  const colon = o.expression.indexOf(':');
  if (colon < 0) return null;
  const files = repos.filesAt(r.owner, r.name, o.expression.slice(0, colon));
  if (files === undefined) return null;
  const path = o.expression.slice(colon + 1).replace(/\/+$/, '');
  const special = specialOf(files);
  const entry = special[path];
  // A submodule's commit is another repository's object: GitHub has none to give. Nor is there
  // any object at a path inside a submodule or through a linked directory.
  if ((entry && 'submodule' in entry) || Object.keys(special).some((p) => path.startsWith(`${p}/`))) return null;
  // A link's own blob holds its target, which GitHub serves as the blob's text.
  const text = entry && 'link' in entry ? entry.link : files[path];
  if (text === undefined) {
    const entries = directoryEntries(files, path);
    if (entries === null) return null;
    const tree: Record<string, unknown> = o.typename ? { __typename: 'Tree' } : {};
    if (o.entryFields.length > 0)
      tree.entries = entries.map((e) => {
        const values: Record<string, unknown> = { name: e.name, type: e.type, mode: parseInt(e.mode, 8), oid: e.sha };
        return Object.fromEntries(o.entryFields.map((f) => [f, values[f]]));
      });
    return tree;
  }
  const bytes = Buffer.from(text, 'utf8');
  const binary = bytes.subarray(0, 8000).includes(0);
  const truncated = bytes.length > GRAPHQL_TEXT_LIMIT;
  const values: Record<string, unknown> = {
    oid: gitBlobSha(bytes),
    byteSize: bytes.length,
    isBinary: binary,
    isTruncated: truncated,
    // Lenient decoding, as GitHub's: a character the cut splits becomes U+FFFD.
    text: binary ? null : truncated ? bytes.subarray(0, GRAPHQL_TEXT_LIMIT).toString('utf8') : text,
  };
  const out: Record<string, unknown> = o.typename ? { __typename: 'Blob' } : {};
  for (const f of o.blobFields) out[f] = values[f];
  return out;
}

type Token = { kind: 'name'; value: string } | { kind: 'punct'; value: string };

function tokens(query: string): Token[] {
  const out: Token[] = [];
  const re = /\s+|,|#[^\n]*|(\.\.\.|[{}():$!])|([_A-Za-z][_0-9A-Za-z]*)|(.)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(query)) !== null) {
    if (m[1]) out.push({ kind: 'punct', value: m[1] });
    else if (m[2]) out.push({ kind: 'name', value: m[2] });
    else if (m[3]) throw new GraphqlQueryError(`Parse error on "${m[3]}" at offset ${m.index}`);
    if (re.lastIndex >= query.length) break;
  }
  return out;
}

/** The query's repositories and blobs, or GraphqlQueryError for anything outside the one shape. */
function parseBlobQuery(query: string, variables: Record<string, unknown>): RepoField[] {
  const ts = tokens(query);
  let i = 0;
  const peek = (): Token | undefined => ts[i];
  const next = (): Token => {
    const t = ts[i++];
    if (!t) throw new GraphqlQueryError('Parse error: unexpected end of query');
    return t;
  };
  const expect = (value: string): void => {
    const t = next();
    if (t.value !== value) throw new GraphqlQueryError(`Parse error on "${t.value}": expected "${value}"`);
  };
  const name = (): string => {
    const t = next();
    if (t.kind !== 'name') throw new GraphqlQueryError(`Parse error on "${t.value}": expected a name`);
    return t.value;
  };
  const declared = new Map<string, boolean>();
  const variable = (): string => {
    expect('$');
    const v = name();
    if (!declared.has(v)) throw new GraphqlQueryError(`Variable $${v} is used by GpuJustifyBlobs but not declared`);
    declared.set(v, true);
    const value = variables[v];
    if (typeof value !== 'string') throw new GraphqlQueryError(`Variable $${v} of type String! was provided invalid value`);
    return value;
  };

  expect('query');
  if (peek()?.kind === 'name') name();
  expect('(');
  while (peek()?.value !== ')') {
    expect('$');
    const v = name();
    if (declared.has(v)) throw new GraphqlQueryError(`There can only be one variable named "$${v}"`);
    expect(':');
    const type = name();
    expect('!');
    if (type !== 'String') throw new GraphqlQueryError(`Variable $${v} is declared as ${type}!, not String!`);
    declared.set(v, false);
  }
  expect(')');
  expect('{');
  const repos: RepoField[] = [];
  const repoAliases = new Set<string>();
  let objectCount = 0;
  while (peek()?.value !== '}') {
    const alias = name();
    expect(':');
    if (name() !== 'repository') throw new GraphqlQueryError('Only repository(owner:, name:) fields are served at the top level');
    if (repoAliases.has(alias)) throw new GraphqlQueryError(`Field '${alias}' has an argument conflict`);
    repoAliases.add(alias);
    expect('(');
    const args: Record<string, string> = {};
    while (peek()?.value !== ')') {
      const arg = name();
      if (arg !== 'owner' && arg !== 'name') throw new GraphqlQueryError(`Field 'repository' doesn't accept argument '${arg}'`);
      if (arg in args) throw new GraphqlQueryError(`There can be only one argument named "${arg}"`);
      expect(':');
      args[arg] = variable();
    }
    expect(')');
    if (args.owner === undefined || args.name === undefined)
      throw new GraphqlQueryError("Field 'repository' is missing required arguments: owner, name");
    expect('{');
    const objects: ObjectField[] = [];
    const objectAliases = new Set<string>();
    while (peek()?.value !== '}') {
      const objAlias = name();
      expect(':');
      if (name() !== 'object') throw new GraphqlQueryError('Only object(expression:) fields are served in a repository');
      if (objectAliases.has(objAlias)) throw new GraphqlQueryError(`Field '${objAlias}' has an argument conflict`);
      objectAliases.add(objAlias);
      expect('(');
      expect('expression');
      expect(':');
      const expression = variable();
      expect(')');
      objects.push({ alias: objAlias, expression, ...objectSelection() });
      objectCount += 1;
    }
    expect('}');
    if (objects.length === 0) throw new GraphqlQueryError('Parse error on "}": a selection set cannot be empty');
    repos.push({ alias, owner: args.owner, name: args.name, objects });
  }
  expect('}');
  if (i !== ts.length) throw new GraphqlQueryError(`Parse error on "${ts[i]?.value ?? ''}": one operation per query`);
  if (repos.length === 0) throw new GraphqlQueryError('Parse error on "}": a selection set cannot be empty');
  const unused = [...declared].filter(([, used]) => !used).map(([v]) => `$${v}`);
  if (unused.length > 0) throw new GraphqlQueryError(`Variable ${unused.join(', ')} is declared by GpuJustifyBlobs but not used`);
  if (objectCount > FAKE_MAX_OBJECTS)
    throw new GraphqlQueryError(`This query asks for ${objectCount} objects; at most ${FAKE_MAX_OBJECTS}`);
  return repos;

  function objectSelection(): { typename: boolean; blobFields: string[]; entryFields: string[] } {
    expect('{');
    let typename = false;
    const blobFields: string[] = [];
    const entryFields: string[] = [];
    while (peek()?.value !== '}') {
      if (peek()?.value === '...') {
        next();
        expect('on');
        const type = name();
        if (type === 'Tree') {
          expect('{');
          if (name() !== 'entries') throw new GraphqlQueryError("Only the field 'entries' is served on type 'Tree'");
          expect('{');
          while (peek()?.value !== '}') {
            const f = name();
            if (!TREE_ENTRY_FIELDS.has(f)) throw new GraphqlQueryError(`Field '${f}' doesn't exist on type 'TreeEntry'`);
            entryFields.push(f);
          }
          expect('}');
          expect('}');
          if (entryFields.length === 0) throw new GraphqlQueryError('Parse error on "}": a selection set cannot be empty');
          continue;
        }
        if (type !== 'Blob') throw new GraphqlQueryError(`Only fragments on Blob and Tree are served, not on ${type}`);
        expect('{');
        while (peek()?.value !== '}') {
          const f = name();
          if (!BLOB_FIELDS.has(f)) throw new GraphqlQueryError(`Field '${f}' doesn't exist on type 'Blob'`);
          blobFields.push(f);
        }
        expect('}');
        continue;
      }
      const f = name();
      if (f !== '__typename') throw new GraphqlQueryError(`Field '${f}' doesn't exist on type 'GitObject'`);
      typename = true;
    }
    expect('}');
    if (blobFields.length === 0 && entryFields.length === 0)
      throw new GraphqlQueryError('Parse error on "}": a selection set cannot be empty');
    return { typename, blobFields, entryFields };
  }
}
