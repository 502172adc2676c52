import { LineCounter } from 'yaml';
import { diagnostic } from '../../domain/index.js';
import { readYaml } from '../kit/kube-yaml.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { clampLine, splitLines } from '../kit/lines.js';
import { flavorModels, multiKueueChecks } from './kueue-flavors.js';
import { queueLines, readClusterQueue } from './kueue-queue.js';
import { scanBrokenDocument } from './kueue-raw-scan.js';
import type { AccountedLines, Accounting, CapacityParser, ParseResult } from '../parser.js';
import { nodeLines } from '../kit/node-lines.js';
import { mapGet, scalarString } from '../kit/yaml-nodes.js';
import { fileFormat, yamlSegments } from '../kit/yaml-segments.js';

/** Kueue ClusterQueue and Cohort quotas (kueue.x-k8s.io v1beta1 / v1beta2; Cohorts also v1alpha1). */
export const kueueParser: CapacityParser = {
  id: 'kueue',
  acceptsPath: (path) => fileFormat(path) !== null,
  mightContain: (path, text) => fileFormat(path, text) !== null && holdsQuota(text),
  parse(path, text) {
    try {
      return parseKueue(path, text);
    } catch (err) {
      // The readers guard every node; this only keeps the contract if one of them is wrong.
      const message = err instanceof Error ? err.message : String(err);
      return { decls: [], diagnostics: [diagnostic(path, null, 'error', `Kueue parser failed: ${message}`)], unresolved: [] };
    }
  },
};

interface ParsedSegment {
  text: string;
  embedded: boolean;
  lc: LineCounter;
  docs: YamlDoc[];
}

function parseKueue(path: string, text: string): ParseResult & Accounting {
  const result: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };
  // What this parser read, finer than whole documents (see queueLines): flavors whole, queues part by part.
  const accounted: AccountedLines[] = [];
  if (!holdsQuota(text)) return result;

  const segments: ParsedSegment[] = [];
  for (const seg of yamlSegments(path, text)) {
    if (!holdsQuota(seg.text) && !seg.text.includes('ResourceFlavor')) continue;
    const lc = new LineCounter();
    const docs = readYaml(seg.text, lc, { lists: true });
    segments.push({ ...seg, lc, docs });
  }

  // Flavors may sit in another document (or another fenced block) than the queue.
  const readable = segments.flatMap((s) => s.docs.filter((d) => d.errors.length === 0));
  const models = flavorModels(readable);
  const dispatchers = multiKueueChecks(readable);

  const reported = new Set<unknown>();
  for (const seg of segments) {
    const lines = splitLines(seg.text);
    seg.docs.forEach((doc, i) => {
      if (doc.errors.length > 0) {
        const first = doc.errors[0];
        // A broken document's own range stops where the parser gave up; the raw scan wants
        // everything up to the next document.
        const next = seg.docs[i + 1]?.range[0];
        const scan = scanBrokenDocument(
          path,
          lines,
          {
            fromLine: seg.lc.linePos(doc.range[0]).line,
            toLine: next === undefined ? lines.length : Math.max(1, seg.lc.linePos(next).line - 1),
            errorLine: clampLine(first ? seg.lc.linePos(first.pos[0]).line : 1, text),
            errorMessage: first ? firstSentence(first.message) : 'unreadable YAML',
          },
          seg.embedded,
        );
        result.diagnostics.push(...scan.diagnostics);
        result.unresolved.push(...scan.unresolved);
        if (scan.unresolved.length > 0)
          accounted.push({
            file: path,
            from: seg.lc.linePos(doc.range[0]).line,
            to: next === undefined ? lines.length : seg.lc.linePos(next).line,
          });
        return;
      }
      const kind = scalarString(mapGet(doc.contents, 'kind'));
      if (kind === 'ResourceFlavor') {
        // Its node labels are read for the GPU model; nothing in a flavor sizes capacity.
        const lines = nodeLines(doc.contents, seg.lc);
        if (lines) accounted.push({ file: path, ...lines });
      }
      if (kind !== 'ClusterQueue' && kind !== 'Cohort') return;
      // The objects of one List share its rejections: each is reported once.
      for (const r of reported.has(doc.rejections) ? [] : doc.rejections) {
        reported.add(doc.rejections);
        result.diagnostics.push(
          diagnostic(
            path,
            seg.lc.linePos(r.pos[0]).line,
            seg.embedded ? 'warning' : 'error',
            `kubectl would not apply this ${kind} as written: ${r.message}; its GPU quota cannot be taken as applied`,
          ),
        );
      }
      for (const lines of queueLines(doc, seg.lc)) accounted.push({ file: path, ...lines });
      const read = readClusterQueue(doc, {
        file: path,
        text: seg.text,
        lc: seg.lc,
        flavorModels: models,
        multiKueueChecks: dispatchers,
        object: kind,
      });
      if (read.decl) result.decls.push(read.decl);
      if (read.unresolved) result.unresolved.push(read.unresolved);
      result.diagnostics.push(...read.diagnostics);
    });
  }
  for (const d of result.diagnostics) {
    if (d.line !== null) d.line = clampLine(d.line, text);
  }
  for (const a of accounted) {
    a.from = clampLine(a.from, text);
    a.to = clampLine(a.to, text);
  }
  return { ...result, accounted };
}

/** Whether a text may hold a Kueue object with quota: a ClusterQueue, or a Cohort (which other APIs name too: the reader checks the apiVersion). */
function holdsQuota(text: string): boolean {
  return text.includes('ClusterQueue') || text.includes('Cohort');
}

/** The yaml package appends "at line X, column Y:" and a source excerpt; the line is reported apart. */
function firstSentence(message: string): string {
  const head = message.split('\n')[0] ?? message;
  return head.replace(/ at line \d+, column \d+:?\s*$/, '');
}
