import { RenderError, goFloat, goQuote, goString, goType, isNil } from './values.js';

/** The largest width or precision rendered. */
const MAX_WIDTH = 10_000n;

/**
 * Go's fmt.Sprintf for the verbs templates use (%s %v %d %q %f %g %e %x %t %%) with flags `-`,
 * `0`, `+`, width and precision; a verb given the wrong type prints `%!d(float64=3)` as Go does.
 */
export function goPrintf(format: string, args: readonly unknown[]): string {
  let out = '';
  let next = 0;
  const re = /%([-+# 0]*)(\d+|\*)?(?:\.(\d+|\*)?)?([a-zA-Z%])/g;
  let last = 0;
  for (let m = re.exec(format); m !== null; m = re.exec(format)) {
    out += format.slice(last, m.index);
    last = re.lastIndex;
    const [, flags = '', widthText, precText, verb = ''] = m;
    if (verb === '%') {
      out += '%';
      continue;
    }
    // Go takes a `*` only from an int: a float64 (every number of a values file) is
    // `%!(BADWIDTH)` or `%!(BADPREC)` in the output, the argument spent.
    const star = (t: string | undefined, bad: string): number | null => {
      if (t === undefined) return null;
      const n = t === '*' ? args[next++] : BigInt(t);
      if (typeof n !== 'bigint') {
        out += bad;
        return null;
      }
      // A width of millions is a way to make huge strings, not a label: the render stops there.
      if (n > MAX_WIDTH || n < -MAX_WIDTH) throw new RenderError(`printf with a width or precision of ${n}, over ${MAX_WIDTH}`, 'printf');
      return Number(n);
    };
    const given = star(widthText, '%!(BADWIDTH)');
    // A negative `*` width pads on the right, as the `-` flag does.
    const width = given === null ? null : Math.abs(given);
    const left = flags.includes('-') || (given !== null && given < 0);
    const prec = m[0].includes('.') ? (star(precText, '%!(BADPREC)') ?? 0) : null;
    if (next >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[next++];
    const body = formatOne(verb, arg, flags, prec);
    const pad = width !== null && body.length < width ? width - body.length : 0;
    if (pad === 0) out += body;
    else if (left) out += body + ' '.repeat(pad);
    else if (flags.includes('0') && /[dfgexX]/.test(verb) && (typeof arg === 'bigint' || typeof arg === 'number')) {
      const sign = /^[+-]/.test(body) ? body.slice(0, 1) : '';
      out += sign + '0'.repeat(pad) + body.slice(sign.length);
    } else out += ' '.repeat(pad) + body;
  }
  out += format.slice(last);
  if (next < args.length)
    out += `%!(EXTRA ${args
      .slice(next)
      .map((a) => `${goType(a) === 'float64' ? 'float64' : goType(a)}=${goString(a)}`)
      .join(', ')})`;
  return out;
}

function bad(verb: string, arg: unknown): string {
  return isNil(arg) ? `%!${verb}(<nil>)` : `%!${verb}(${goType(arg)}=${goString(arg)})`;
}

function formatOne(verb: string, arg: unknown, flags: string, prec: number | null): string {
  const plus = flags.includes('+');
  switch (verb) {
    case 'v':
      return goString(arg);
    case 's':
      if (typeof arg === 'bigint' || typeof arg === 'number' || typeof arg === 'boolean') return bad(verb, arg);
      return prec === null ? goString(arg) : goString(arg).slice(0, prec);
    case 'q':
      return typeof arg === 'string' ? goQuote(arg) : bad(verb, arg);
    case 't':
      return typeof arg === 'boolean' ? String(arg) : bad(verb, arg);
    case 'd':
      return typeof arg === 'bigint' ? (plus && arg >= 0n ? '+' : '') + arg.toString() : bad(verb, arg);
    case 'x':
    case 'X': {
      if (typeof arg === 'bigint')
        return (arg < 0n ? '-' : '') + (arg < 0n ? -arg : arg).toString(16)[verb === 'X' ? 'toUpperCase' : 'toLowerCase']();
      if (typeof arg === 'string') return [...new TextEncoder().encode(arg)].map((b) => b.toString(16).padStart(2, '0')).join('');
      return bad(verb, arg);
    }
    case 'f':
    case 'F':
    case 'e':
    case 'g': {
      if (typeof arg !== 'number') return bad(verb, arg);
      const sign = plus && arg >= 0 ? '+' : '';
      if (verb === 'g') return sign + (prec === null ? goFloat(arg) : goFloat(Number(arg.toPrecision(Math.max(prec, 1)))));
      if (verb === 'e') {
        const [m = '', e = '0'] = arg.toExponential(prec ?? 6).split('e');
        const n = Number(e);
        return `${sign}${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
      }
      return sign + goFixed(arg, prec ?? 6);
    }
    default:
      return bad(verb, arg);
  }
}

/** %.Nf as Go rounds: to nearest, a tie to even (JS's toFixed rounds a tie up). */
function goFixed(x: number, prec: number): string {
  if (!Number.isFinite(x) || prec > 70) return x.toFixed(Math.min(prec, 100));
  const long = Math.abs(x).toFixed(prec + 25);
  const cut = long.length - 25;
  const tie = long[cut] === '5' && /^0*$/.test(long.slice(cut + 1));
  if (!tie) return x.toFixed(prec);
  const kept = long.slice(0, cut).replace(/\.$/, '');
  const last = Number(kept[kept.length - 1]);
  const down = last % 2 === 0;
  const magnitude = down ? kept : (Math.abs(x) + 0.5 * 10 ** -prec).toFixed(prec);
  return (x < 0 ? '-' : '') + magnitude;
}
