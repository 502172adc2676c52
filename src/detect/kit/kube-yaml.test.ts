import { LineCounter } from 'yaml';
import { describe, expect, it } from 'vitest';
import { kubeStringify, readYaml, toJson } from './kube-yaml.js';
import type { YamlDialect } from './kube-yaml.js';

function read(text: string, dialect: YamlDialect = 'kubectl', lists = true) {
  const lc = new LineCounter();
  const docs = readYaml(text, lc, { dialect, lists });
  return docs.map((d) => ({
    value: toJson(d.contents),
    errors: d.errors.length,
    rejections: d.rejections.map((r) => [lc.linePos(r.pos[0]).line, r.message]),
  }));
}

const valueOf = (text: string, dialect: YamlDialect = 'kubectl') => read(text, dialect)[0]?.value;

describe('scalars as go-yaml v2 resolves them', () => {
  // The interface{} cases of go-yaml v2's decode_test.go (unmarshalTests), and what resolve.go
  // does with Go's base prefixes, underscores and YAML 1.1's words.
  it.each<[string, unknown]>([
    ['v: hi', 'hi'],
    ['v: true', true],
    ['v: 10', 10],
    ['v: 0b10', 2],
    ['v: 0xA', 10],
    ['v: 0.1', 0.1],
    ['v: .1', 0.1],
    ['v: -10', -10],
    ['v: -.1', -0.1],
    ['v: 6.8523e+5', 6.8523e5],
    ['v: 685.230_15e+03', 685.23015e3],
    ['v: 685_230.15', 685230.15],
    ['v: y', true],
    ['v: NO', false],
    ['v: True', true],
    ['v: on', true],
    ['v: Off', false],
    ['v: 685230', 685230],
    ['v: +685_230', 685230],
    ['v: 02472256', 685230],
    ['v: 0x_0A_74_AE', 685230],
    ['v: 0b1010_0111_0100_1010_1110', 685230],
    ['v: -0b101010', -42],
    ['v: 010', 8],
    ['v: 0o17', 15],
    ['v: 0O17', 15],
    ['v: 0X10', 16],
    ['v: +010', 8],
    ['v: 08', 8],
    ['v: 1_000', 1000],
    ['v: 1e3', 1000],
    ['v: 1.', 1],
    ['v: 0.', 0],
    // Sexagesimal numbers are unsupported on purpose (resolve.go): a string.
    ['v: 1:20', '1:20'],
    ['v: 190:20:30.15', '190:20:30.15'],
    ['v: 2001-12-14', '2001-12-14'],
    ['v: 0x', '0x'],
    ['v: 0b2', '0b2'],
    ['v: _1', '_1'],
    ['v: tRUE', 'tRUE'],
    ['v: 1e999', '1e999'],
    ['v: "010"', '010'],
    ["v: 'yes'", 'yes'],
    ['v: !!str 10', '10'],
    ['v: !!int "0x1F"', 31],
    ['v: !!float 1', 1],
    ['v: !custom 8', '8'],
    ['v: ~', null],
    ['v:', null],
    ['v: Null', null],
    ['v: |\n  010\n', '010\n'],
  ])('%s', (text, want) => {
    expect(valueOf(text)).toEqual({ v: want });
  });

  it('keys become JSON strings: 010 is "8", y and on are "true"', () => {
    expect(valueOf('010: a\ny: b\n1.5: c\n')).toEqual({ '8': 'a', true: 'b', '1.5': 'c' });
  });

  it('go-yaml v3 keeps only true and false as booleans', () => {
    expect(valueOf('a: yes\nb: on\nc: true\nd: 010\n', 'go-yaml-v3')).toEqual({ a: 'yes', b: 'on', c: true, d: 8 });
  });

  it.each<[string, string]>([
    ['v: .nan', 'json: unsupported value: NaN'],
    ['v: [.inf]', 'json: unsupported value: Infinity'],
    ['v: !!int abc', 'cannot decode !!str `abc` as a !!int'],
    ['~: a', 'unsupported map key'],
    ['? [a]\n: b', 'invalid map key'],
    ['1: a\n"1": b', 'both "1" in JSON'],
  ])('kubectl refuses %j', (text, message) => {
    expect(
      read(text)[0]
        ?.rejections.map(([, m]) => m)
        .join(' '),
    ).toContain(message);
  });
});

describe('aliases and merge keys', () => {
  // go-yaml v2's mergeTests: every map equals `plain`.
  const MERGES = `anchors:
  list:
    - &CENTER { "x": 1, "y": 2 }
    - &LEFT   { "x": 0, "y": 2 }
    - &BIG    { "r": 10 }
    - &SMALL  { "r": 1 }
plain:
  "x": 1
  "y": 2
  "r": 10
  label: center/big
mergeOne:
  << : *CENTER
  "r": 10
  label: center/big
mergeMultiple:
  << : [ *CENTER, *BIG ]
  label: center/big
override:
  << : [ *BIG, *LEFT, *SMALL ]
  "x": 1
  label: center/big
shortTag:
  !!merge "<<" : [ *CENTER, *BIG ]
  label: center/big
longTag:
  !<tag:yaml.org,2002:merge> "<<" : [ *CENTER, *BIG ]
  label: center/big
inlineMap:
  << : {"x": 1, "y": 2, "r": 10}
  label: center/big
inlineSequenceMap:
  << : [ *CENTER, {"r": 10} ]
  label: center/big
`;

  it.each<YamlDialect>(['kubectl', 'kustomize'])('%s: go-yaml’s merge cases all equal the plain map', (dialect) => {
    const [doc] = read(MERGES, dialect);
    const v = doc?.value as Record<string, unknown>;
    const want = { x: 1, y: 2, r: 10, label: 'center/big' };
    for (const key of ['plain', 'mergeOne', 'mergeMultiple', 'override', 'shortTag', 'longTag', 'inlineMap', 'inlineSequenceMap']) {
      expect(v[key], key).toEqual(want);
    }
    expect(doc?.rejections).toEqual([]);
  });

  it('a quoted << is a key like any other', () => {
    expect(valueOf('a: &a {x: 1}\nb:\n  "<<": *a\n')).toEqual({ a: { x: 1 }, b: { '<<': { x: 1 } } });
  });

  it('a key set before a merge key that sets it again: kubectl and kustomize differ, so kubectl’s reading is refused', () => {
    const text = 'base: &b {gpu: 1}\nq:\n  gpu: 8\n  <<: *b\n';
    const [kubectl] = read(text);
    expect((kubectl?.value as Record<string, unknown>).q).toEqual({ gpu: 1 });
    expect(kubectl?.rejections).toEqual([
      [3, expect.stringContaining('kubectl keeps the merged value, kustomize and the YAML spec this one')],
    ]);
    const [kustomize] = read(text, 'kustomize');
    expect((kustomize?.value as Record<string, unknown>).q).toEqual({ gpu: 8 });
    expect(kustomize?.rejections).toEqual([]);
  });

  it('an anchor that contains itself is refused', () => {
    expect(read('a: &x [*x]\n')[0]?.rejections.map(([, m]) => m)).toEqual(["anchor 'x' value contains itself"]);
  });

  it.each([9, 12, 16])('refuses an alias bomb of %i levels as go-yaml does, and no reader of the document expands it', (depth) => {
    const name = (i: number) => `l${i}`;
    const levels = [`${name(0)}: &${name(0)} [x, x, x, x, x, x, x, x, x, x]`];
    for (let i = 1; i < depth; i++)
      levels.push(
        `${name(i)}: &${name(i)} [${Array(10)
          .fill(`*${name(i - 1)}`)
          .join(', ')}]`,
      );
    for (const dialect of ['kubectl', 'kustomize', 'go-yaml-v3'] as const) {
      const started = Date.now();
      const [doc] = readYaml(`${levels.join('\n')}\n`, new LineCounter(), { dialect });
      // A parse error, as go-yaml reports it: readers that take a document's JSON, patch it or
      // walk it (kustomize, Flux, Helm) meet the aliases unexpanded, never 10^depth nodes.
      expect(doc?.errors.map((r) => r.message)).toEqual(['document contains excessive aliasing']);
      expect(JSON.stringify(toJson(doc?.contents)).length).toBeLessThan(10_000);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });
});

describe('repeated keys', () => {
  it('kubectl keeps the last', () => {
    expect(read('a: 1\nb: 2\na: 3\n')).toEqual([{ value: { b: 2, a: 3 }, errors: 0, rejections: [] }]);
  });

  it('kustomize refuses them, naming both lines', () => {
    expect(read('a: 1\nb: 2\na: 3\n', 'kustomize')[0]?.rejections).toEqual([
      [3, 'mapping key "a" already defined at line 1: kustomize rejects repeated keys'],
    ]);
  });
});

describe('List objects', () => {
  it('each item is a document of its own, at its own lines', () => {
    const text =
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n';
    const lc = new LineCounter();
    const docs = readYaml(text, lc, { lists: true });
    expect(docs.map((d) => [toJson(d.contents), lc.linePos(d.range[0]).line, d.inList?.kind])).toEqual([
      [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, 4, 'List'],
      [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } }, 7, 'List'],
    ]);
  });

  it('an item with neither kind nor apiVersion takes the list’s, less List (unstructured decoding)', () => {
    const text = 'apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueueList\nitems:\n- metadata: {name: a}\n';
    expect(read(text).map((d) => d.value)).toEqual([
      { kind: 'ClusterQueue', apiVersion: 'kueue.x-k8s.io/v1beta1', metadata: { name: 'a' } },
    ]);
  });

  it('lists of lists are flattened; kubectl reads any object with items as a list', () => {
    const inner = '  - apiVersion: v1\n    kind: List\n    items:\n    - {apiVersion: v1, kind: Secret, metadata: {name: s}}\n';
    expect(read(`apiVersion: v1\nkind: ConfigMap\nitems:\n${inner}`).map((d) => d.value)).toEqual([
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } },
    ]);
    // kustomize only inlines kinds ending in List.
    expect(read(`apiVersion: v1\nkind: ConfigMap\nitems:\n${inner}`, 'kustomize')).toHaveLength(1);
  });

  it('not unwrapped when not asked for (values files, kustomizations)', () => {
    expect(read('kind: List\nitems: [{kind: A}]\n', 'kubectl', false)).toHaveLength(1);
  });
});

describe('document streams', () => {
  it('kubectl refuses anything but a comment after ---', () => {
    expect(read('a: 1\n--- {b: 2}\n').map((d) => d.rejections.map(([, m]) => m))).toEqual([
      [],
      ['invalid YAML document separator: kubectl allows only a comment after ---'],
    ]);
    expect(read('a: 1\n--- # fine\nb: 2\n').map((d) => d.rejections)).toEqual([[], []]);
  });

  it('go-yaml v2 reads %YAML 1.1 only', () => {
    expect(read('%YAML 1.2\n---\na: 1\n')[0]?.rejections.map(([, m]) => m)).toEqual([
      expect.stringContaining('incompatible YAML document'),
    ]);
  });

  it('a Helm template placeholder is left as written', () => {
    expect(read('v: {{ .Values.gpus }}\n')[0]?.rejections).toEqual([]);
  });
});

describe('kubeStringify', () => {
  it('quotes what kubectl would read as something else, so it reads back the same', () => {
    const value = { a: 'yes', '010': 'x', b: '1e3', c: 'plain', d: 8, e: ['on', 'y', '~', '0o7'] };
    expect(valueOf(kubeStringify(value))).toEqual(value);
  });
});
