/**
 * Slash commands in pull request comments (docs/check-run.md). Only a comment's first line counts,
 * so a command quoted in a reply (`> /gpu-justify override …`) or shown in a code block is never
 * run. Pure: any string in, a command or null out.
 */

const COMMAND = '/gpu-justify';

/** Longest override reason kept: enough for a sentence or two, not a paste of logs. */
export const MAX_REASON = 500;

type Command =
  | { kind: 'rerun' }
  | { kind: 'explain' }
  | { kind: 'help' }
  | { kind: 'override'; reason: string }
  /** `/gpu-justify` followed by something that is not a command, or a command misused. */
  | { kind: 'invalid'; given: string; problem: string };

export const COMMAND_HELP: readonly { usage: string; does: string }[] = [
  { usage: COMMAND, does: 're-runs the review on the current head' },
  { usage: `${COMMAND} explain`, does: 'replies with the evidence in detail' },
  { usage: `${COMMAND} override <reason>`, does: 'marks a failing check as passing, if the policy lets you' },
  { usage: `${COMMAND} help`, does: 'lists these commands' },
];

/** Zero-width characters and a byte-order mark some editors put before text. */
const INVISIBLE = /^[\uFEFF\u200B-\u200D\u2060]+/;

/**
 * A command, and the instance it is addressed to when it names one (`/gpu-justify@staging explain`,
 * docs/check-run.md): only that instance answers it. Unaddressed, every instance answers it once.
 */
export type AddressedCommand = Command & { to?: string };

export function parseCommand(body: string): AddressedCommand | null {
  const raw = body.replace(INVISIBLE, '').split(/\r\n|\r|\n/, 1)[0] ?? '';
  // Four spaces or a tab open an indented code block; `>` a quote; fences a fenced block.
  if (/^(?: {4}|\t)/.test(raw)) return null;
  const line = raw.trim();
  const match = /^\/gpu-justify(?:@(\S*))?(?=$|\s)(.*)$/i.exec(line);
  if (!match) return null;
  const command = parseWords((match[2] ?? '').trim());
  const to = match[1]?.toLowerCase();
  if (to === undefined) return command;
  // An empty name addresses nobody: said so, by every instance, rather than ignored by all.
  if (to === '') return { kind: 'invalid', given: clip(`@${match[2] ?? ''}`.trimEnd()), problem: 'name the instance after `@`' };
  return { ...command, to };
}

function parseWords(rest: string): Command {
  if (rest === '') return { kind: 'rerun' };
  const word = rest.split(/\s/, 1)[0] ?? '';
  const args = rest.slice(word.length).trim();
  switch (word.toLowerCase()) {
    case 'explain':
    case 'help':
      return args === ''
        ? { kind: word.toLowerCase() as 'explain' | 'help' }
        : { kind: 'invalid', given: clip(rest), problem: `\`${word.toLowerCase()}\` takes no arguments` };
    case 'override': {
      const reason = cleanReason(args);
      if (reason === '') {
        return { kind: 'invalid', given: clip(rest), problem: '`override` needs a reason' };
      }
      return { kind: 'override', reason };
    }
    default:
      return { kind: 'invalid', given: clip(rest), problem: 'unknown command' };
  }
}

/** The reason as stored and shown: one line of printable text, bounded. */
function cleanReason(text: string): string {
  const printable = text
    // eslint-disable-next-line no-control-regex -- control characters are what this strips.
    .replace(/[\u0000-\u001F\u007F-\u009F]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return printable.length > MAX_REASON ? `${printable.slice(0, MAX_REASON - 1)}…` : printable;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
