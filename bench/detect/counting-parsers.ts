import type { CapacityParser, ParseResult, SourceFile } from '../../src/detect/parser.js';
import { now } from '../lib/measure.js';

/** What the parsers did with one path, over every parser. */
export interface PathTally {
  pathChecks: number;
  pathAccepted: number;
  cheapChecks: number;
  cheapAccepted: number;
  /** Full parses (`parse`) plus file sets (`parseSet`) that included the path. */
  fullParses: number;
  cheapMs: number;
  fullMs: number;
}

const blank = (): PathTally => ({ pathChecks: 0, pathAccepted: 0, cheapChecks: 0, cheapAccepted: 0, fullParses: 0, cheapMs: 0, fullMs: 0 });

/**
 * The registry's parsers, each wrapped to count and time its calls per path. The wrappers add a
 * clock read per call (well under a microsecond), which the unwrapped timing run does not pay.
 */
export function countingParsers(parsers: readonly CapacityParser[]): { parsers: CapacityParser[]; tally: Map<string, PathTally> } {
  const tally = new Map<string, PathTally>();
  const of = (path: string): PathTally => {
    let t = tally.get(path);
    if (!t) tally.set(path, (t = blank()));
    return t;
  };
  const wrapped = parsers.map((p): CapacityParser => {
    const w: CapacityParser = {
      id: p.id,
      mightContain(path, text) {
        const t = of(path);
        const start = now();
        const yes = p.mightContain(path, text);
        t.cheapMs += now() - start;
        t.cheapChecks++;
        if (yes) t.cheapAccepted++;
        return yes;
      },
      parse(path, text): ParseResult {
        const t = of(path);
        const start = now();
        const r = p.parse(path, text);
        t.fullMs += now() - start;
        t.fullParses++;
        return r;
      },
    };
    const accepts = p.acceptsPath?.bind(p);
    if (accepts) {
      w.acceptsPath = (path) => {
        const t = of(path);
        t.pathChecks++;
        const yes = accepts(path);
        if (yes) t.pathAccepted++;
        return yes;
      };
    }
    const parseSet = p.parseSet?.bind(p);
    if (parseSet) {
      w.parseSet = (files: readonly SourceFile[]): ParseResult => {
        const start = now();
        const r = parseSet(files);
        const share = (now() - start) / Math.max(1, files.length);
        for (const f of files) {
          const t = of(f.path);
          t.fullParses++;
          t.fullMs += share;
        }
        return r;
      };
    }
    return w;
  });
  return { parsers: wrapped, tally };
}
