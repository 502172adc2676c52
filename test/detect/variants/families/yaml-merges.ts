import { isMap, isScalar, Scalar, visit, YAMLMap, YAMLSeq } from 'yaml';
import type { Document, Pair } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapObjectFiles } from './yaml-objects.js';

/*
 * Merge keys in the shapes go-yaml applies (decode.go: explicit keys win over merged ones, and in
 * a sequence of merged maps an earlier map wins over a later one), each holding a decoy value that
 * the applier never sees: a reader that takes the merged value instead counts what is not applied.
 */

/** A whole number, or a string of one (an OpenShift quota `"4"`): what a decoy stands beside. */
function wholeValue(pair: Pair): number | null {
  if (!isScalar(pair.value) || !isScalar(pair.key) || pair.key.value === '<<') return null;
  const v = pair.value.value;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
}

/** A decoy of `pair`'s value: the value times ten plus seven, spelt as the value is (a number or a string). */
function decoy(doc: Document.Parsed, pair: Pair, v: number): Pair {
  const value = isScalar(pair.value) && typeof pair.value.value === 'string' ? new Scalar(String(v * 10 + 7)) : new Scalar(v * 10 + 7);
  if (typeof value.value === 'string') value.type = Scalar.QUOTE_DOUBLE;
  return doc.createPair((pair.key as Scalar).value, value);
}

/** Each mapping of the objects' `spec` (the object itself for eksctl) holding whole numbers passed through `fn`; the documents' text, or null when none did. */
function mapNumberMaps(
  docs: Document.Parsed[],
  fn: (doc: Document.Parsed, map: YAMLMap, numbers: [Pair, number][]) => void,
): string | null {
  let n = 0;
  const made = new WeakSet<object>();
  for (const doc of docs) {
    const root = doc.get('kind') === 'ClusterConfig' ? doc.contents : doc.get('spec', true);
    if (!isMap(root)) continue;
    visit(root, {
      Seq(_, seq) {
        return made.has(seq) ? visit.SKIP : undefined;
      },
      Map(_, map) {
        if (made.has(map)) return visit.SKIP;
        if (map.items.some((p) => isScalar(p.key) && p.key.value === '<<')) return undefined;
        const numbers = map.items.flatMap((p): [Pair, number][] => {
          const v = wholeValue(p);
          return v === null ? [] : [[p, v]];
        });
        if (numbers.length === 0) return undefined;
        fn(doc, map, numbers);
        for (const item of map.items) if (isScalar(item.key) && item.key.value === '<<') made.add(item.value as object);
        n++;
        return undefined;
      },
    });
  }
  return n === 0 ? null : docs.map(docText).join('---\n');
}

const flowMap = (pairs: Pair[]): YAMLMap => {
  const map = new YAMLMap();
  map.flow = true;
  map.items = pairs;
  return map;
};

/** A merge key first in each mapping with numbers, its decoys for every one of them: the explicit keys after it win. */
export const yamlMergeOverridden: Rewrite = {
  id: 'yaml-merge-overridden',
  what: 'a `<<:` merge of decoy numbers before each mapping’s own, which win',
  apply: (sides) =>
    mapObjectFiles(sides, (docs) =>
      mapNumberMaps(docs, (doc, map, numbers) => {
        map.items.unshift(doc.createPair('<<', flowMap(numbers.map(([p, v]) => decoy(doc, p, v)))));
      }),
    ),
};

/**
 * Each mapping's numbers moved into a merge of a sequence of two maps, the first holding them and
 * the second decoys of them: an earlier map of the sequence wins over a later one.
 */
export const yamlMergeSequence: Rewrite = {
  id: 'yaml-merge-sequence',
  what: 'numbers moved into `<<: [{own}, {decoys}]`, where the earlier map wins',
  apply: (sides) =>
    mapObjectFiles(sides, (docs) =>
      mapNumberMaps(docs, (doc, map, numbers) => {
        const moved = numbers.map(([p]) => p);
        const seq = new YAMLSeq();
        seq.flow = true;
        seq.items = [flowMap(moved), flowMap(numbers.map(([p, v]) => decoy(doc, p, v)))];
        map.items = [doc.createPair('<<', seq), ...map.items.filter((p) => !moved.includes(p))];
      }),
    ),
};
